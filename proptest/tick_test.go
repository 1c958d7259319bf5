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
)

// tickRun ticks s n times, the i-th tick by a DeltaTime drawn from
// deltas and i, and returns the versions' saved states and the events.
func tickRun(s bt.Stepped[string], deltas uint64, from, n int) ([][]byte, []string, error) {
	var states [][]byte
	var events []string
	for i := from; i < from+n; i++ {
		var ev bytes.Buffer
		d := time.Duration((deltas>>(i%48))%250) * time.Millisecond
		next, err := s.TickWith(bt.TimeData{DeltaTime: d}, func(e bt.Event[string]) { fmt.Fprintf(&ev, "%v;", e) })
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

// TestTickLaws checks that Tick is the clock of a tree without a clock
// option: its waits count the ticks' DeltaTime, so that a version ticked
// again with the same time data does the same, and a saved one restores
// to one with the same future. To reproduce a failure, rerun with the
// printed seed: PROPTEST_SEED=<seed> go test ./proptest -run TestTickLaws
func TestTickLaws(t *testing.T) {
	props := gopter.NewProperties(parameters(t))

	props.Property("T1 without a clock option, a version ticked again, or saved and restored, has the same future", prop.ForAll(
		func(n bt.Node[string], k int, seed, deltas uint64) string {
			s, err := bt.NewStepped(n, pureAgent(), bt.WithSeed(seed))
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			states, events, err := tickRun(s, deltas, 0, k+12)
			if err != nil {
				return err.Error()
			}
			mid := s
			if k > 0 {
				if mid, err = s.Restore(states[k-1]); err != nil {
					return fmt.Sprintf("%v: restore: %v", n, err)
				}
			}
			for again := range 2 {
				rs, re, err := tickRun(mid, deltas, k, 12)
				if err != nil {
					return err.Error()
				}
				for i := range rs {
					if !bytes.Equal(rs[i], states[k+i]) || re[i] != events[k+i] {
						return fmt.Sprintf("%v: from version %d (restored), run %d, tick %d differs:\n%s\n%s", n, k, again+1, k+i, re[i], events[k+i])
					}
				}
			}
			return ""
		}, steppedTree, gen.IntRange(0, 15), seeds, seeds))

	props.TestingRun(t)
}
