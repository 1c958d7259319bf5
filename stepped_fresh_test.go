package behaviortree

import "testing"

// TestFreshMatchesRules steps trees whose shapes reach every case of
// fresh evaluation and of moves, with events (the general rules) and
// without (fresh evaluation, moves, the step cache), with the same
// scripted answers: the calls and the states must be the same.
func TestFreshMatchesRules(t *testing.T) {
	// wide returns a sequence or select of k leaves numbered from first.
	wide := func(sel bool, first, k int) Node[int] {
		var kids []Node[int]
		for i := range k {
			kids = append(kids, Leaf(first+i))
		}
		if sel {
			return Select(kids...)
		}
		return Sequence(kids...)
	}
	trees := map[string]Node[int]{
		// A pure subtree first in a sequence inside a movable region:
		// its moves start below the region's top, and the sequence goes
		// on to its next child.
		"reactive first in a sequence": Root(Sequence(Leaf(0), Sequence(ReactiveSequence(Leaf(1), Condition(2)), Leaf(3)))),
		"reactive last in a select":    Root(Select(Leaf(0), Select(Leaf(1), ReactiveSelect(Leaf(2), Negate(Leaf(3)))))),
		"decorators over moves":        Root(Sequence(Negate(Select(Leaf(0), AlwaysFail(Leaf(1)))), AlwaysSucceed(Sequence(Leaf(2), Condition(3))))),
		"big, moves from the root": Root(Select(
			wide(false, 0, 12), Sequence(wide(true, 12, 12), Negate(wide(false, 24, 12))), wide(true, 36, 12))),
		"big, reactive inside": Root(Sequence(Leaf(0), Select(
			ReactiveSequence(wide(true, 1, 10), wide(false, 11, 10)), Sequence(wide(false, 21, 10), ReactiveSelect(wide(true, 31, 10)))))),
		"big, repeat and parallel": Root(Repeat(Sequence(Parallel(wide(false, 0, 10), wide(true, 10, 10)), Select(wide(false, 20, 10), wide(false, 30, 10))))),
		"guard over a region":      Root(Select(Sequence(wide(false, 0, 5), wide(true, 5, 5)).With(While(50)), wide(false, 10, 5))),
	}
	for name, def := range trees {
		for seed := range uint64(4) {
			for _, async := range []bool{false, true} {
				want := memoTrace(t, def, 7*seed+1, 200, true, async)
				if got := memoTrace(t, def, 7*seed+1, 200, false, async); got != want {
					t.Errorf("%s, seed %d, async %v: without events the steps differ from the general rules", name, seed, async)
				}
			}
		}
	}
}
