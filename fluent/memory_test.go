package fluent_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/fluent"
	"github.com/zipbt/behaviortree/memory"
)

var seenKey = memory.NewKey[int]("fluent test: seen")

// memoryTree is a selector of a sequence ("alert" holds while the memory
// has counted fewer than 3 ticks; "count" counts one; "call" returns an
// async result, which it records in calls) and a fallback "idle" that
// reads the tick's time data from the Blackboard into log.
func memoryTree(t *testing.T, calls *[]*bt.Async, log *[]string) bt.Node[bt.Fluent] {
	t.Helper()
	tree, err := fluent.NewBuilder().
		Selector("root").
		Sequence("alerted").
		ConditionWith("alert", func(b *bt.Blackboard) bool {
			n, _ := seenKey.Get(b)
			return n < 3
		}).
		DoWith("count", func(b *bt.Blackboard) bt.Result {
			n, _ := seenKey.Get(b)
			seenKey.Put(b, n+1)
			*log = append(*log, fmt.Sprint("count ", n+1))
			return bt.ResultSuccess
		}).
		DoWith("call", func(b *bt.Blackboard) bt.Result {
			a := bt.NewAsync()
			*calls = append(*calls, a)
			*log = append(*log, "call")
			return a.Result()
		}).
		End().
		Do("idle", func(td bt.TimeData) bt.Status {
			*log = append(*log, fmt.Sprint("idle ", td.DeltaTime))
			return bt.Success
		}).
		End().
		Build()
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestDoWith: leaves that take the Blackboard read and write the memory of
// the version ticked (an old version ticked again sees its own), an async
// result keeps its leaf running without a call until it is settled, and
// every way of running the tree agrees: New with Tick and with TickWith
// (the engine's rules), and NewStepped with MemoryAgent.
func TestDoWith(t *testing.T) {
	type run struct {
		log    []string
		states []string
	}
	trace := func(start func(bt.Node[bt.Fluent]) (bt.Stepped[bt.Fluent], error), events bool) run {
		var calls []*bt.Async
		var r run
		tr, err := start(memoryTree(t, &calls, &r.log))
		if err != nil {
			t.Fatal(err)
		}
		for tick := range 6 {
			td := bt.TimeData{DeltaTime: time.Duration(tick+1) * time.Millisecond}
			if events {
				tr, err = tr.TickWith(td, func(bt.Event[bt.Fluent]) {})
			} else {
				tr, err = tr.Tick(td)
			}
			if err != nil {
				t.Fatal(err)
			}
			n, _ := seenKey.Get(tr.Memory())
			r.states = append(r.states, fmt.Sprintf("%v %d", tr.State(), n))
			if tick == 1 {
				calls[len(calls)-1].Succeed()
			}
		}
		return r
	}
	withAgent := func(def bt.Node[bt.Fluent]) (bt.Stepped[bt.Fluent], error) {
		return bt.NewStepped(def, fluent.MemoryAgent())
	}
	want := trace(func(def bt.Node[bt.Fluent]) (bt.Stepped[bt.Fluent], error) { return fluent.New(def) }, false)
	// The sequence is reactive: "alert" and "count" at every tick, "call"
	// once until its result is settled (after the second tick), then
	// once more; once 3 ticks are counted, "idle".
	if got := strings.Join(want.log, ", "); got != "count 1, call, count 2, count 3, idle 4ms, idle 5ms, idle 6ms" {
		t.Errorf("calls: %s", got)
	}
	if got := strings.Join(want.states, ", "); got != "RUNNING 1, RUNNING 2, SUCCEEDED 3, SUCCEEDED 3, SUCCEEDED 3, SUCCEEDED 3" {
		t.Errorf("states: %s", got)
	}
	for name, got := range map[string]run{
		"New with events":         trace(func(def bt.Node[bt.Fluent]) (bt.Stepped[bt.Fluent], error) { return fluent.New(def) }, true),
		"MemoryAgent":             trace(withAgent, false),
		"MemoryAgent with events": trace(withAgent, true),
	} {
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s:\n%v\nwant\n%v", name, got, want)
		}
	}
}

// TestDoWithOldVersion: a version ticked again reads its own memory, not
// the memory of the versions ticked after it.
func TestDoWithOldVersion(t *testing.T) {
	var calls []*bt.Async
	var log []string
	tr, err := fluent.New(memoryTree(t, &calls, &log))
	if err != nil {
		t.Fatal(err)
	}
	first, err := tr.Tick(bt.TimeData{})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		again, err := tr.Tick(bt.TimeData{})
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := seenKey.Get(again.Memory()); n != 1 {
			t.Fatalf("the first version ticked again counted %d, want 1", n)
		}
	}
	if n, _ := seenKey.Get(first.Memory()); n != 1 {
		t.Fatalf("the first tick's version changed: %d", n)
	}
}

// TestDoWithNeedsMemoryAgent: a tree whose leaves take the Blackboard, run
// with Agent (which has none to give), fails at the tick that reaches such
// a leaf with an error naming it (node 2: the root is node 0) and the
// remedy; the version ticked stays valid.
func TestDoWithNeedsMemoryAgent(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    *fluent.Builder
		leaf string
	}{
		{"DoWith", fluent.NewBuilder().Sequence("s").DoWith("walk", func(*bt.Blackboard) bt.Result { return bt.ResultSuccess }).End(), "walk"},
		{"ConditionWith", fluent.NewBuilder().Sequence("s").ConditionWith("near", func(*bt.Blackboard) bool { return true }).End(), "near"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def, err := tc.b.Build()
			if err != nil {
				t.Fatal(err)
			}
			tr, err := bt.NewStepped(def, fluent.Agent())
			if err != nil {
				t.Fatal(err)
			}
			_, err = tr.Tick(bt.TimeData{})
			var pe *bt.PanicError
			if !errors.As(err, &pe) || pe.Node != 2 || !strings.Contains(err.Error(), `leaf "`+tc.leaf+`" takes the step's Blackboard`) || !strings.Contains(err.Error(), "MemoryAgent") {
				t.Fatalf("error %v; want one naming node 2, leaf %q, and MemoryAgent", err, tc.leaf)
			}
			if tr.State() != bt.StateReady {
				t.Fatalf("the version ticked changed: %v", tr.State())
			}
		})
	}
}

// TestDoWithSaves: a Fluent tree's memory and its pending async result are
// saved with the version, and the restored version settles the result by
// its id.
func TestDoWithSaves(t *testing.T) {
	var calls []*bt.Async
	var log []string
	def := memoryTree(t, &calls, &log)
	tr, err := fluent.New(def)
	if err != nil {
		t.Fatal(err)
	}
	if tr, err = tr.Tick(bt.TimeData{}); err != nil {
		t.Fatal(err)
	}
	saved, err := tr.Save()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := saved.RestoreStepped(def, fluent.MemoryAgent())
	if err != nil {
		t.Fatal(err)
	}
	a, ok := restored.Async(calls[0].ID())
	if !ok || a == calls[0] {
		t.Fatalf("the restored version's async result %d: %v, %v", calls[0].ID(), a, ok)
	}
	a.Succeed()
	if restored, err = restored.Tick(bt.TimeData{}); err != nil {
		t.Fatal(err)
	}
	if n, _ := seenKey.Get(restored.Memory()); restored.State() != bt.StateSucceeded || n != 2 || len(calls) != 1 {
		t.Fatalf("restored, settled and ticked: %v, counted %d, %d calls", restored.State(), n, len(calls))
	}
}
