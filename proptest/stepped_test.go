package proptest_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mdsl"
	"github.com/zipbt/behaviortree/proptest"
)

var steppedTree = proptest.SteppedTree[string](leaves, proptest.Config{})

// pureAgent answers by the leaf value alone, so that a version stepped again
// behaves the same: what changes between steps comes from the tree (its
// states, counts, waits on the turn clock and draws from its own seed).
func pureAgent() bt.Agent[string] {
	nop := func(string) {}
	return bt.Agent[string]{
		Action: func(v string) bt.Result {
			switch v {
			case "a", "d":
				return bt.ResultSuccess
			case "b", "e":
				return bt.ResultFailure
			}
			return bt.ResultRunning
		},
		Condition: func(v string) bool { return v < "c" },
		Entry:     nop,
		OnStep:    nop,
		Exit:      func(string, bool, bool) {},
	}
}

// run steps s n times and returns the versions' saved states and the
// events of every step, as text.
func run(s bt.Stepped[string], n int) ([][]byte, []string, error) {
	var states [][]byte
	var events []string
	for range n {
		var ev bytes.Buffer
		next, err := s.StepWith(func(e bt.Event[string]) { fmt.Fprintf(&ev, "%v;", e) })
		if err != nil {
			return nil, nil, err
		}
		s = next
		b, err := s.MarshalBinary()
		if err != nil {
			return nil, nil, err
		}
		states, events = append(states, b), append(events, ev.String())
	}
	return states, events, nil
}

func newStepped(n bt.Node[string], seed uint64) (bt.Stepped[string], error) {
	return bt.NewStepped(n, pureAgent(), bt.WithTurnClock(100*time.Millisecond), bt.WithSeed(seed))
}

// TestSteppedLaws checks the laws of stepped versions on generated trees of
// the Mistreevous kinds with guards and callbacks. To reproduce a failure,
// rerun with the printed seed:
// PROPTEST_SEED=<seed> go test ./proptest -run TestSteppedLaws
func TestSteppedLaws(t *testing.T) {
	props := gopter.NewProperties(parameters(t))

	props.Property("S1 a version stepped again does the same, and is not changed by stepping", prop.ForAll(
		func(n bt.Node[string], k int, seed uint64) string {
			s, err := newStepped(n, seed)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			states, _, err := run(s, k)
			if err != nil {
				return err.Error()
			}
			mid := s
			if k > 0 {
				if mid, err = s.Restore(states[k-1]); err != nil {
					return err.Error()
				}
			}
			before, _ := mid.MarshalBinary()
			a, ea, err1 := run(mid, 10)
			b, eb, err2 := run(mid, 10)
			after, _ := mid.MarshalBinary()
			switch {
			case err1 != nil || err2 != nil:
				return fmt.Sprintf("%v: %v %v", n, err1, err2)
			case !bytes.Equal(before, after):
				return fmt.Sprintf("%v: stepping changed the version stepped", n)
			}
			for i := range a {
				if !bytes.Equal(a[i], b[i]) || ea[i] != eb[i] {
					return fmt.Sprintf("%v: step %d differs when the same version is stepped again:\n%s\n%s", n, i, ea[i], eb[i])
				}
			}
			return ""
		}, steppedTree, gen.IntRange(0, 15), seeds))

	props.Property("S2 a saved version restores to one with the same future", prop.ForAll(
		func(n bt.Node[string], k int, seed uint64) string {
			s, err := newStepped(n, seed)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			states, events, err := run(s, k+10)
			if err != nil {
				return err.Error()
			}
			restored, err := s.Restore(states[k])
			if err != nil {
				return fmt.Sprintf("%v: restore: %v", n, err)
			}
			rs, re, err := run(restored, 9)
			if err != nil {
				return err.Error()
			}
			for i := range rs {
				if !bytes.Equal(rs[i], states[k+1+i]) || re[i] != events[k+1+i] {
					return fmt.Sprintf("%v: restored after step %d, step %d differs", n, k, i)
				}
			}
			return ""
		}, steppedTree, gen.IntRange(0, 15), seeds))

	props.Property("S3 MDSL prints and reads back every generated tree", prop.ForAll(
		func(n bt.Node[string]) string {
			text := func(v string) (string, error) { return v, nil }
			src, err := mdsl.FormatFunc(n, text)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			back, err := mdsl.ParseFunc("gen.mdsl", src, func(v string) (string, error) { return v, nil })
			if err != nil {
				return fmt.Sprintf("%s: %v", src, err)
			}
			again, err := mdsl.FormatFunc(back, text)
			if err != nil || !bytes.Equal(src, again) || back.Fingerprint() != n.Fingerprint() {
				return fmt.Sprintf("round trip:\n%s\ngave\n%s (%v)", src, again, err)
			}
			return ""
		}, steppedTree))

	props.Property("S4 a History of stepped versions undone and stepped again gives the same version", prop.ForAll(
		func(n bt.Node[string], k int, seed uint64) string {
			s, err := newStepped(n, seed)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			h := bt.NewHistory(s)
			for range k + 1 {
				next, err := h.Current().Step()
				if err != nil {
					return err.Error()
				}
				h = h.Push(next)
			}
			want, _ := h.Current().MarshalBinary()
			u := h.Undo()
			next, err := u.Current().Step()
			if err != nil {
				return err.Error()
			}
			again := u.Push(next)
			got, _ := again.Current().MarshalBinary()
			if !bytes.Equal(got, want) || again.Len() != h.Len() {
				return fmt.Sprintf("%v: undo then step after %d steps gives another version", n, k+1)
			}
			return ""
		}, steppedTree, gen.IntRange(0, 15), seeds))

	props.Property("S5 stepping without events makes the same calls and versions as with events", prop.ForAll(
		func(n bt.Node[string], seed uint64) string {
			// Without events the engine takes its fast paths (the step
			// cache, fresh evaluation, moves); with events, its general
			// rules. A scripted agent answers both alike, async included.
			var calls []string
			var rng uint64
			agent := scriptedAgent(&calls, &rng)
			s, err := bt.NewStepped(n, agent, bt.WithTurnClock(100*time.Millisecond), bt.WithSeed(seed))
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			trace := func(events bool) ([]string, []string, error) {
				calls, rng = nil, seed
				var states []string
				cur := s
				for range 40 {
					var err error
					if events {
						cur, err = cur.StepWith(func(bt.Event[string]) {})
					} else {
						cur, err = cur.Step()
					}
					if err != nil {
						return nil, nil, err
					}
					states = append(states, steppedStates(cur))
					calls = append(calls, "|")
				}
				return calls, states, nil
			}
			c1, s1, err1 := trace(true)
			c2, s2, err2 := trace(false)
			switch {
			case err1 != nil || err2 != nil:
				return fmt.Sprintf("%v: %v / %v", n, err1, err2)
			case fmt.Sprint(c1) != fmt.Sprint(c2):
				return fmt.Sprintf("%v: calls differ:\nwith events    %v\nwithout events %v", n, c1, c2)
			case fmt.Sprint(s1) != fmt.Sprint(s2):
				return fmt.Sprintf("%v: versions differ:\nwith events    %v\nwithout events %v", n, s1, s2)
			}
			return ""
		}, steppedTree, seeds))

	props.TestingRun(t)
}

// scriptedAgent logs every call in calls and answers from the xorshift
// state rng: actions succeed, fail, run, or give an async result that is
// settled already or never settles; conditions hold or not.
func scriptedAgent(calls *[]string, rng *uint64) bt.Agent[string] {
	next := func() uint64 {
		x := *rng | 1
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		*rng = x
		return x
	}
	return bt.Agent[string]{
		Action: func(v string) bt.Result {
			r := next() % 8
			*calls = append(*calls, fmt.Sprintf("action %s %d", v, r))
			switch r {
			case 0, 1, 2:
				return bt.ResultSuccess
			case 3, 4:
				return bt.ResultFailure
			case 5:
				return bt.ResultRunning
			case 6:
				a := bt.NewAsync()
				if next()%2 == 0 {
					a.Succeed()
				} else {
					a.Fail()
				}
				return a.Result()
			}
			return bt.NewAsync().Result() // never settles
		},
		Condition: func(v string) bool {
			ok := next()%3 != 0
			*calls = append(*calls, fmt.Sprintf("condition %s %v", v, ok))
			return ok
		},
		Entry:  func(v string) { *calls = append(*calls, "entry "+v) },
		OnStep: func(v string) { *calls = append(*calls, "step "+v) },
		Exit: func(v string, succeeded, aborted bool) {
			*calls = append(*calls, fmt.Sprintf("exit %s %v %v", v, succeeded, aborted))
		},
	}
}

// steppedStates is every node's state of s, and its saved form when it
// has one (not while an async result is pending).
func steppedStates(s bt.Stepped[string]) string {
	var b bytes.Buffer
	for info := range s.Nodes() {
		fmt.Fprintf(&b, "%d", info.State)
	}
	if saved, err := s.MarshalBinary(); err == nil {
		fmt.Fprintf(&b, " %x", saved)
	}
	return b.String()
}
