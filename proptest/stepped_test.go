package proptest_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	bt "github.com/zipbt/behaviortree"
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
		Step:      nop,
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
	return bt.NewStepped(n, pureAgent(), bt.WithTurnClock(0.1), bt.WithRandomSeed(seed))
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
			src, err := bt.FormatMDSLFunc(n, text)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			back, err := bt.ParseMDSLFunc("gen.mdsl", src, func(v string) (string, error) { return v, nil })
			if err != nil {
				return fmt.Sprintf("%s: %v", src, err)
			}
			again, err := bt.FormatMDSLFunc(back, text)
			if err != nil || !bytes.Equal(src, again) || back.Fingerprint() != n.Fingerprint() {
				return fmt.Sprintf("round trip:\n%s\ngave\n%s (%v)", src, again, err)
			}
			return ""
		}, steppedTree))

	props.Property("S4 a SteppedHistory undone and stepped again gives the same version", prop.ForAll(
		func(n bt.Node[string], k int, seed uint64) string {
			s, err := newStepped(n, seed)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			h := bt.NewSteppedHistory(s)
			for range k + 1 {
				if h, err = h.Step(); err != nil {
					return err.Error()
				}
			}
			want, _ := h.Current().MarshalBinary()
			again, err := h.Undo().Step()
			if err != nil {
				return err.Error()
			}
			got, _ := again.Current().MarshalBinary()
			if !bytes.Equal(got, want) || again.Len() != h.Len() {
				return fmt.Sprintf("%v: undo then step after %d steps gives another version", n, k+1)
			}
			return ""
		}, steppedTree, gen.IntRange(0, 15), seeds))

	props.TestingRun(t)
}
