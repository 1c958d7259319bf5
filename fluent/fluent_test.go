package fluent_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/fluent"
	"github.com/zipbt/behaviortree/kind"
)

// fluentLog records the leaf calls of a test tree.
type fluentLog struct{ calls []string }

// do returns an action named name that returns the statuses in turn,
// cycling, and records "name".
func (l *fluentLog) do(name string, results ...bt.Status) func(bt.TimeData) bt.Status {
	k := 0
	return func(bt.TimeData) bt.Status {
		l.calls = append(l.calls, name)
		r := results[k%len(results)]
		k++
		return r
	}
}

// cond is do for a condition.
func (l *fluentLog) cond(name string, results ...bool) func(bt.TimeData) bool {
	k := 0
	return func(bt.TimeData) bool {
		l.calls = append(l.calls, name)
		r := results[k%len(results)]
		k++
		return r
	}
}

const (
	S = bt.Success
	F = bt.Failure
	R = bt.Running
)

// TestLibraryScenarios ports the unit tests of FluentBehaviourTree
// (its node and builder tests) as table tests: a tree, then per tick the
// status and the leaf calls.
func TestLibraryScenarios(t *testing.T) {
	type tick struct {
		status bt.Status
		calls  string // the leaf calls, space-separated
	}
	tests := []struct {
		name  string
		build func(l *fluentLog) *fluent.Builder
		ticks []tick
	}{
		{"action: runs and returns its status", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Sequence("s").Do("a", l.do("a", R)).End()
		}, []tick{{R, "a"}, {R, "a"}}},
		{"inverter: inverts success", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Inverter("i").Do("a", l.do("a", S)).End()
		}, []tick{{F, "a"}}},
		{"inverter: inverts failure", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Inverter("i").Do("a", l.do("a", F)).End()
		}, []tick{{S, "a"}}},
		{"inverter: passes running through", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Inverter("i").Do("a", l.do("a", R)).End()
		}, []tick{{R, "a"}}},
		{"inverter: of an inverter", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Inverter("i").Inverter("j").Do("a", l.do("a", S)).End().End()
		}, []tick{{S, "a"}}},
		{"builder: condition is sugar for do", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Inverter("i").Condition("c", l.cond("c", true)).End()
		}, []tick{{F, "c"}}},
		{"sequence: runs all children in order", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Sequence("s").Do("a", l.do("a", S)).Do("b", l.do("b", S)).End()
		}, []tick{{S, "a b"}}},
		{"sequence: first child fails", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Sequence("s").Do("a", l.do("a", F)).Do("b", l.do("b", S)).End()
		}, []tick{{F, "a"}}},
		{"sequence: first child running suppresses the second", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Sequence("s").Do("a", l.do("a", R)).Do("b", l.do("b", S)).End()
		}, []tick{{R, "a"}}},
		{"sequence: second child fails", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Sequence("s").Do("a", l.do("a", S)).Do("b", l.do("b", F)).End()
		}, []tick{{F, "a b"}}},
		{"sequence: no memory, restarts from the first child", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Sequence("s").Do("a", l.do("a", S, S, F)).Do("b", l.do("b", R)).End()
		}, []tick{{R, "a b"}, {R, "a b"}, {F, "a"}}},
		{"sequence: empty succeeds", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Sequence("s").End()
		}, []tick{{S, ""}}},
		{"selector: first child succeeds", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Selector("s").Do("a", l.do("a", S)).Do("b", l.do("b", S)).End()
		}, []tick{{S, "a"}}},
		{"selector: stops at a running child", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Selector("s").Do("a", l.do("a", R)).Do("b", l.do("b", S)).End()
		}, []tick{{R, "a"}}},
		{"selector: runs the second when the first fails", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Selector("s").Do("a", l.do("a", F)).Do("b", l.do("b", S)).End()
		}, []tick{{S, "a b"}}},
		{"selector: fails when all fail", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Selector("s").Do("a", l.do("a", F)).Do("b", l.do("b", F)).End()
		}, []tick{{F, "a b"}}},
		{"selector: empty fails", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Selector("s").End()
		}, []tick{{F, ""}}},
		{"parallel: runs all children, fails at the fail count", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Parallel("p", 2, 2).Do("a", l.do("a", F)).Do("b", l.do("b", F)).Do("c", l.do("c", S)).End()
		}, []tick{{F, "a b c"}}},
		{"parallel: succeeds at the success count", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Parallel("p", 2, 2).Do("a", l.do("a", S)).Do("b", l.do("b", S)).Do("c", l.do("c", F)).End()
		}, []tick{{S, "a b c"}}},
		{"parallel: running below both counts", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Parallel("p", 2, 2).Do("a", l.do("a", S)).Do("b", l.do("b", F)).Do("c", l.do("c", R)).End()
		}, []tick{{R, "a b c"}}},
		{"parallel: success is checked first", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Parallel("p", 1, 1).Do("a", l.do("a", F)).Do("b", l.do("b", S)).End()
		}, []tick{{S, "a b"}}},
		{"parallel: counts of 0 or less are off", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Parallel("p", 0, -1).Do("a", l.do("a", F)).Do("b", l.do("b", S)).End()
		}, []tick{{R, "a b"}}},
		{"parallel: counts are per tick", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Parallel("p", 5, 2).Do("a", l.do("a", S, R)).Do("b", l.do("b", R, S)).End()
		}, []tick{{R, "a b"}, {R, "a b"}}},
		{"parallel: empty runs", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Parallel("p", 1, 1).End()
		}, []tick{{R, ""}}},
		{"builder: parallel", func(l *fluentLog) *fluent.Builder {
			return new(fluent.Builder).Parallel("p", 2, 2).Do("a", l.do("a", S)).Do("b", l.do("b", S)).End()
		}, []tick{{S, "a b"}}},
		{"builder: splice a sub-tree", func(l *fluentLog) *fluent.Builder {
			sub, err := new(fluent.Builder).Sequence("spliced").Do("test", l.do("test", S)).End().Build()
			if err != nil {
				panic(err)
			}
			return new(fluent.Builder).Sequence("parent-tree").Splice(sub).Splice(sub).End()
		}, []tick{{S, "test test"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := &fluentLog{}
			def, err := tc.build(l).Build()
			if err != nil {
				t.Fatal(err)
			}
			tr, err := fluent.New(def)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tc.ticks {
				l.calls = nil
				if tr, err = tr.Tick(bt.TimeData{DeltaTime: 500 * time.Millisecond}); err != nil {
					t.Fatalf("tick %d: %v", i, err)
				}
				if got := status(tr.State()); got != want.status || strings.Join(l.calls, " ") != want.calls {
					t.Errorf("tick %d: %v after calls %q; want %v after %q", i, got, strings.Join(l.calls, " "), want.status, want.calls)
				}
			}
		})
	}
}

// TestBuilderErrors checks the library's builder errors: the
// exception class, the message and the call.
func TestBuilderErrors(t *testing.T) {
	ok := func(bt.TimeData) bt.Status { return bt.Success }
	yes := func(bt.TimeData) bool { return true }
	sub, err := new(fluent.Builder).Sequence("sub").Do("a", ok).End().Build()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		build     func() *fluent.Builder
		exception string
		message   string
		call      int
	}{
		{"zero nodes", func() *fluent.Builder { return new(fluent.Builder) }, fluent.ApplicationException, "Can't create a behaviour tree with zero nodes", 0},
		{"unbalanced tree", func() *fluent.Builder { return new(fluent.Builder).Sequence("s").Do("a", ok) }, fluent.ApplicationException, "Can't create a behaviour tree with zero nodes", 2},
		{"unnested action", func() *fluent.Builder { return new(fluent.Builder).Do("a", ok) }, fluent.ApplicationException, "Can't create an unnested ActionNode, it must be a leaf node.", 0},
		{"unnested condition", func() *fluent.Builder { return new(fluent.Builder).Condition("c", yes) }, fluent.ApplicationException, "Can't create an unnested ActionNode, it must be a leaf node.", 0},
		{"inverter with two children", func() *fluent.Builder {
			return new(fluent.Builder).Inverter("i").Do("a", ok).Do("b", ok)
		}, fluent.ApplicationException, "Can't add more than a single child to InverterNode!", 2},
		{"inverter: action then sequence", func() *fluent.Builder {
			return new(fluent.Builder).Inverter("i").Do("a", ok).Sequence("s")
		}, fluent.ApplicationException, "Can't add more than a single child to InverterNode!", 2},
		{"inverter: open child then splice", func() *fluent.Builder {
			return new(fluent.Builder).Inverter("i").Sequence("s").End().Splice(sub)
		}, fluent.ApplicationException, "Can't add more than a single child to InverterNode!", 3},
		{"unnested splice", func() *fluent.Builder { return new(fluent.Builder).Splice(sub) }, fluent.ApplicationException, "Can't splice an unnested sub-tree, there must be a parent-tree.", 0},
		{"splice null", func() *fluent.Builder {
			return new(fluent.Builder).Sequence("s").Splice(bt.Node[bt.Fluent]{})
		}, fluent.ArgumentNullException, "Value cannot be null.\nParameter name: subTree", 1},
		{"splice null before the parent check", func() *fluent.Builder {
			return new(fluent.Builder).Splice(bt.Node[bt.Fluent]{})
		}, fluent.ArgumentNullException, "Value cannot be null.\nParameter name: subTree", 0},
		{"extra end", func() *fluent.Builder { return new(fluent.Builder).Sequence("s").End().End() }, fluent.InvalidOperationException, "Stack empty.", 2},
		{"first error kept", func() *fluent.Builder { return new(fluent.Builder).End().Do("a", ok).Sequence("s") }, fluent.InvalidOperationException, "Stack empty.", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.build().Build()
			var fe fluent.Error
			if !errors.As(err, &fe) || fe.Strict || fe.Exception != tc.exception || fe.Message != tc.message || fe.Call != tc.call {
				t.Fatalf("error %#v; want %s %q at call %d", err, tc.exception, tc.message, tc.call)
			}
		})
	}
}

// TestDepartures checks each of our stricter refusals, where the
// library goes on silently.
func TestDepartures(t *testing.T) {
	ok := func(bt.TimeData) bt.Status { return bt.Success }
	tests := []struct {
		name   string
		build  func() (bt.Node[bt.Fluent], error)
		method string
		call   int
		says   string
	}{
		{"build with the root still open", func() (bt.Node[bt.Fluent], error) {
			return new(fluent.Builder).Sequence("outer").Do("x", ok).Selector("inner").Do("a", ok).End().Build()
		}, "Build", 5, `1 node(s) still open, the innermost "outer"`},
		{"a second top-level tree", func() (bt.Node[bt.Fluent], error) {
			return new(fluent.Builder).Sequence("first").Do("x", ok).End().Selector("second").Do("a", ok).End().Build()
		}, "Selector", 3, `a second top-level tree: "first" was already ended`},
		{"build twice", func() (bt.Node[bt.Fluent], error) {
			b := new(fluent.Builder).Sequence("s").Do("x", ok).End()
			if _, err := b.Build(); err != nil {
				return bt.Node[bt.Fluent]{}, err
			}
			return b.Build()
		}, "Build", 4, "called again"},
		{"do with a nil function", func() (bt.Node[bt.Fluent], error) {
			return new(fluent.Builder).Sequence("s").Do("x", nil).End().Build()
		}, "Do", 1, `"x" has a nil function`},
		{"condition with a nil function", func() (bt.Node[bt.Fluent], error) {
			return new(fluent.Builder).Sequence("s").Condition("c", nil).End().Build()
		}, "Condition", 1, `"c" has a nil function`},
		{"do with the Blackboard and a nil function", func() (bt.Node[bt.Fluent], error) {
			return new(fluent.Builder).Sequence("s").DoWith("x", nil).End().Build()
		}, "DoWith", 1, `"x" has a nil function`},
		{"condition with the Blackboard and a nil function", func() (bt.Node[bt.Fluent], error) {
			return new(fluent.Builder).Sequence("s").ConditionWith("c", nil).End().Build()
		}, "ConditionWith", 1, `"c" has a nil function`},
		{"a tree too big", func() (bt.Node[bt.Fluent], error) {
			tree, err := new(fluent.Builder).Sequence("s").Do("x", ok).End().Build()
			for i := 0; err == nil && i < 30; i++ {
				tree, err = new(fluent.Builder).Sequence("d").Splice(tree).Splice(tree).End().Build()
			}
			return tree, err
		}, "End", 3, "more than 67108864 places"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.build()
			var fe fluent.Error
			if !errors.As(err, &fe) || !fe.Strict || fe.Exception != "" || fe.Method != tc.method || fe.Call != tc.call || !strings.Contains(fe.Message, tc.says) {
				t.Fatalf("error %#v; want a strict refusal by %s at call %d saying %q", err, tc.method, tc.call, tc.says)
			}
		})
	}
}

// TestEmptyInverterTick checks the tick error of an Inverter without
// a child: only when a tick reaches it, with the leaf calls before it made,
// the version unchanged, and the next tick normal.
func TestEmptyInverterTick(t *testing.T) {
	l := &fluentLog{}
	def, err := new(fluent.Builder).Parallel("p", 1, 1).
		Do("a", l.do("a", S)).
		Selector("sel").Do("b", l.do("b", S, F)).Inverter("i").End().End().
		Do("c", l.do("c", S)).End().Build()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := fluent.New(def)
	if err != nil {
		t.Fatal(err)
	}
	if tr, err = tr.Tick(bt.TimeData{}); err != nil || status(tr.State()) != bt.Success || strings.Join(l.calls, " ") != "a b c" {
		t.Fatalf("tick 0: %v, %v, calls %v", tr.State(), err, l.calls)
	}
	l.calls = nil
	next, err := tr.Tick(bt.TimeData{})
	if !errors.Is(err, bt.ErrEmptyInverter) || strings.Join(l.calls, " ") != "a b" || next != tr {
		t.Fatalf("tick 1: %v, calls %v, changed %v; want ErrEmptyInverter after a b", err, l.calls, next != tr)
	}
	if !strings.Contains(err.Error(), "(i): InverterNode must have a child node!") {
		t.Errorf("error %q does not name the node", err)
	}
}

// TestDeltas checks that every leaf sees the tick's TimeData.
func TestDeltas(t *testing.T) {
	var seen []time.Duration
	rec := func(td bt.TimeData) bt.Status { seen = append(seen, td.DeltaTime); return bt.Success }
	recC := func(td bt.TimeData) bool { seen = append(seen, td.DeltaTime); return true }
	def, err := new(fluent.Builder).Sequence("s").Do("a", rec).Condition("c", recC).End().Build()
	if err != nil {
		t.Fatal(err)
	}
	tr, _ := fluent.New(def)
	for _, d := range []time.Duration{time.Second / 60, -500 * time.Millisecond, 100 * time.Second} {
		seen = nil
		if tr, err = tr.Tick(bt.TimeData{DeltaTime: d}); err != nil || len(seen) != 2 || seen[0] != d || seen[1] != d {
			t.Fatalf("delta %v: seen %v, %v", d, seen, err)
		}
	}
}

// TestNodesAndEvents checks that a Fluent tree is an ordinary stepped
// tree: its kinds and names, its node states after a tick, and its events.
func TestNodesAndEvents(t *testing.T) {
	l := &fluentLog{}
	def, err := new(fluent.Builder).Selector("root").
		Sequence("attack").Condition("near", l.cond("near", false)).Do("strike", l.do("strike", S)).End().
		Inverter("not").Do("patrol", l.do("patrol", R)).End().
		End().Build()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := def.String(), "reactive_select(reactive_sequence(condition(near), strike), negate(patrol))"; got != want {
		t.Errorf("String = %q; want %q", got, want)
	}
	if def.Name() != "root" || def.Child(1).Kind() != kind.Negate || def.Child(1).Name() != "not" {
		t.Errorf("names and kinds: %q %v %q", def.Name(), def.Child(1).Kind(), def.Child(1).Name())
	}
	tr, err := fluent.New(def)
	if err != nil {
		t.Fatal(err)
	}
	var events []string
	tr, err = tr.TickWith(bt.TimeData{DeltaTime: time.Second}, func(e bt.Event[bt.Fluent]) {
		switch e.Kind {
		case bt.EventAction:
			events = append(events, fmt.Sprintf("action %s %v", e.Value.Name, e.Result.Status))
		case bt.EventCondition:
			events = append(events, fmt.Sprintf("condition %s %v", e.Value.Name, e.Holds))
		}
	})
	if err != nil || tr.State() != bt.StateRunning {
		t.Fatalf("tick: %v, %v", tr.State(), err)
	}
	if got, want := strings.Join(events, "; "), "condition near false; action patrol running"; got != want {
		t.Errorf("events %q; want %q", got, want)
	}
	var names, states []string
	for n := range tr.Nodes() {
		names = append(names, n.Name)
		states = append(states, n.State.String())
	}
	if got, want := strings.Join(names, " "), "ROOT root attack near strike not patrol"; got != want {
		t.Errorf("names %q; want %q", got, want)
	}
	if got, want := strings.Join(states, " "), "RUNNING RUNNING FAILED FAILED READY RUNNING RUNNING"; got != want {
		t.Errorf("states %q; want %q", got, want)
	}
	// The pure evaluation (no events) leaves the same states.
	tr2, err := fluent.New(def)
	if err != nil {
		t.Fatal(err)
	}
	if tr2, err = tr2.Tick(bt.TimeData{DeltaTime: time.Second}); err != nil {
		t.Fatal(err)
	}
	for i := range len(tr.Picture().Nodes) {
		if tr.NodeState(i) != tr2.NodeState(i) {
			t.Errorf("node %d: %v with events, %v without", i, tr.NodeState(i), tr2.NodeState(i))
		}
	}
}

// TestInsideStatefulTree checks a Fluent tree below a Mistreevous
// sequence: the reactive nodes keep nothing, the sequence does.
func TestInsideStatefulTree(t *testing.T) {
	l := &fluentLog{}
	inner, err := new(fluent.Builder).Sequence("s").Do("check", l.do("check", S)).Do("work", l.do("work", R, S)).End().Build()
	if err != nil {
		t.Fatal(err)
	}
	first := bt.Leaf(bt.Fluent{Name: "first", Do: l.do("first", S)})
	tr, err := fluent.New(bt.Sequence(first, inner))
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"first check work", "check work", "first check work"} {
		l.calls = nil
		if tr, err = tr.Tick(bt.TimeData{}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(l.calls, " "); got != want {
			t.Errorf("tick %d: calls %q; want %q", i, got, want)
		}
	}
}

// TestLeafExitWithOwnAgent checks what the package doc says of exit
// hooks: a Fluent tree run with an agent of one's own (Agent, with an
// Exit) calls Exit, aborted, for a running leaf that a Fluent Sequence or
// Selector stops reaching.
func TestLeafExitWithOwnAgent(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(b *fluent.Builder) *fluent.Builder
	}{
		{"Sequence", func(b *fluent.Builder) *fluent.Builder { return b.Sequence("s") }},
		{"Selector", func(b *fluent.Builder) *fluent.Builder { return b.Selector("s") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The condition decides for the sequence when it fails, and
			// for the selector when it succeeds.
			decides := tc.name == "Selector"
			cond := !decides
			work := bt.Fluent{Name: "work", Do: func(bt.TimeData) bt.Status { return bt.Running }}
			def, err := tc.build(fluent.NewBuilder()).
				Condition("c", func(bt.TimeData) bool { return cond }).
				Splice(bt.Leaf(work).With(attr.Exit(work))).
				End().Build()
			if err != nil {
				t.Fatal(err)
			}
			var exits []string
			agent := fluent.Agent()
			agent.Exit = func(v bt.Fluent, succeeded, aborted bool) {
				exits = append(exits, fmt.Sprintf("%s succeeded=%v aborted=%v", v.Name, succeeded, aborted))
			}
			tr, err := bt.NewStepped(def, agent)
			if err != nil {
				t.Fatal(err)
			}
			if tr, err = tr.Tick(bt.TimeData{}); err != nil || tr.State() != bt.StateRunning {
				t.Fatalf("first tick: %v, %v", tr.State(), err)
			}
			if len(exits) != 0 {
				t.Fatalf("exit called while running: %v", exits)
			}
			cond = decides
			if tr, err = tr.Tick(bt.TimeData{}); err != nil {
				t.Fatal(err)
			}
			if want := []string{"work succeeded=false aborted=true"}; fmt.Sprint(exits) != fmt.Sprint(want) {
				t.Fatalf("exits = %v, want %v", exits, want)
			}
		})
	}
}

// status is the Status that a tree's state stands for in
// FluentBehaviourTree: READY and RUNNING are Running.
func status(s bt.State) bt.Status {
	switch s {
	case bt.StateSucceeded:
		return bt.Success
	case bt.StateFailed:
		return bt.Failure
	}
	return bt.Running
}
