package behaviortree

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

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
		"guard over a region":      Root(Select(Sequence(wide(false, 0, 5), wide(true, 5, 5)).With(attr.While(50)), wide(false, 10, 5))),
	}
	for name, def := range trees {
		for seed := range uint64(4) {
			for _, async := range []bool{false, true} {
				want := cacheTrace(t, def, 7*seed+1, 200, true, async)
				if got := cacheTrace(t, def, 7*seed+1, 200, false, async); got != want {
					t.Errorf("%s, seed %d, async %v: without events the steps differ from the general rules", name, seed, async)
				}
			}
		}
	}
}

// randomMovable returns a random tree of about size nodes, mostly of
// movable kinds, with some nodes that end a region (a repeat, a parallel,
// a guard) and reactive ones, from the xorshift state *x.
func randomMovable(x *uint64, size int) Node[int] {
	next := func(k int) int {
		*x ^= *x << 13
		*x ^= *x >> 7
		*x ^= *x << 17
		return int(*x % uint64(k))
	}
	leaf := 0
	var build func(size int) Node[int]
	build = func(size int) Node[int] {
		if size <= 1 {
			leaf++
			if next(4) == 0 {
				return Condition(leaf)
			}
			return Leaf(leaf)
		}
		r := next(20)
		switch {
		case r < 2:
			return Negate(build(size - 1))
		case r < 3:
			return AlwaysSucceed(build(size - 1))
		case r < 4:
			return AlwaysFail(build(size - 1))
		case r < 5:
			return RepeatCount(2, build(size-1))
		}
		k := 1 + next(min(size-1, 6))
		kids := make([]Node[int], k)
		for i := range kids {
			kids[i] = build((size - 1) / k)
		}
		switch {
		case r < 10:
			return Sequence(kids...)
		case r < 15:
			return Select(kids...)
		case r < 16:
			return ReactiveSequence(kids...)
		case r < 17:
			return ReactiveSelect(kids...)
		case r < 18:
			return Parallel(kids...)
		case r < 19:
			return Select(kids...).With(attr.While(1000 + leaf))
		}
		return Sequence(kids...).With(attr.Until(2000 + leaf))
	}
	return Root(build(size))
}

// TestMovesBudget compiles trees with budgets from none to all their
// moves: the moves never take more than the budget, their cost counted
// bottom-up is what they take, and stepping with whatever moves fit gives
// what the general rules give (regions without moves are evaluated
// recursively).
func TestMovesBudget(t *testing.T) {
	x := uint64(0x243F6A8885A308D3)
	partial := 0
	for tree := range 40 {
		build := func() Node[int] { y := x; return randomMovable(&y, 20+tree*5) }
		full, err := compileStepped(build().n)
		if err != nil {
			t.Fatal(err)
		}
		all := movesBytes(full)
		for _, budget := range []uint64{0, 108, 300, all / 3, all / 2, all - 1, all, math.MaxUint64} {
			def := build()
			p, err := compileStepped(def.n)
			if err != nil {
				t.Fatal(err)
			}
			// Lay out the moves afresh within budget.
			for i := range p.hot {
				p.hot[i].flags &^= hotMovable | hotTop
				if k := p.nodes[i].kind; k == kind.Leaf || k == kind.Condition {
					p.hot[i].first = 0
				}
			}
			p.moves, p.moveW0, p.writes, p.merged, p.firstLeaf = nil, nil, nil, nil, nil
			buildMoves(p, budget)
			got := movesBytes(p)
			if got > budget {
				t.Fatalf("tree %d, budget %d: the moves take %d bytes", tree, budget, got)
			}
			_, _, cost := moveCosts(p, math.MaxUint32-1)
			sum, with, without := uint64(0), 0, 0
			for i, h := range p.hot {
				if h.is(hotTop) {
					sum += uint64(cost[i])
				}
				if movableKinds[p.nodes[i].kind] && p.nodes[i].plain {
					if h.is(hotMovable) {
						with++
					} else {
						without++
					}
				}
			}
			if sum != got {
				t.Fatalf("tree %d, budget %d: the moves take %d bytes, counted %d", tree, budget, got, sum)
			}
			if with > 0 && without > 0 {
				partial++
			}
			def.n.sprog.Store(p)
			for seed := range uint64(2) {
				want := cacheTrace(t, def, 5*seed+1, 60, true, seed == 1)
				if got := cacheTrace(t, def, 5*seed+1, 60, false, seed == 1); got != want {
					t.Fatalf("tree %d, budget %d, seed %d: without events the steps differ from the general rules", tree, budget, seed)
				}
			}
		}
		randomMovable(&x, 1) // another tree
	}
	if partial < 20 {
		t.Errorf("only %d compiles had some moves but not all", partial)
	}
}

// movesBytes returns the bytes of p's moves.
func movesBytes[L any](p *sprogram[L]) uint64 {
	return uint64(len(p.moves))*moveBytes + uint64(len(p.writes))*writeBytes + uint64(len(p.merged))*mergeBytes
}

// TestMovesLayout checks what the moves of a tree lay out: two moves a
// leaf (RUNNING has none: runningUp writes it), writes for a leaf's moves
// exactly when its parent is pure (only a pure subtree's update evaluates
// from below a region's top, the one reader of writes), and a balanced
// tree of 4,096 leaves, of sequences and selects or of their reactive
// twins, and a select of 10,000 conditions, each in one region within
// the budget (when every move laid out its writes and RUNNING had moves,
// the budget held six regions of the first, 2,576 of its leaves, and
// fresh's recursion evaluated the rest; at 48 bytes a place, the select
// had no region).
func TestMovesLayout(t *testing.T) {
	balanced := balancedTree
	x := uint64(0x3C6EF372FE94F82B)
	var conds []Node[int]
	for i := range 10000 {
		conds = append(conds, Condition(i))
	}
	// The trees whose moves must fit the budget in one region.
	whole := map[string]Node[int]{"balanced": balanced(12, false), "balanced reactive": balanced(12, true), "wide select": Root(Select(conds...))}
	trees := maps.Clone(whole)
	for i := range 20 {
		trees[fmt.Sprintf("random %d", i)] = randomMovable(&x, 50+40*i)
	}
	for name, def := range trees {
		p, err := compileStepped(def.n)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := whole[name]; ok {
			if !p.hot[0].is(hotTop) || movesBytes(p) > movesBudget(len(p.nodes)) {
				t.Errorf("%s: the root is no region (top %v), or its moves take %d bytes of %d", name, p.hot[0].is(hotTop), movesBytes(p), movesBudget(len(p.nodes)))
			}
		}
		leaves := 0
		for c := range int32(len(p.nodes)) {
			if k := p.nodes[c].kind; !p.hot[c].is(hotMovable) || k != kind.Leaf && k != kind.Condition {
				continue
			}
			leaves++
			par := p.nodes[c].parent
			pure := p.pure != nil && p.pure[par]
			for o := StateSucceeded; o <= StateFailed; o++ {
				mv := &p.moves[p.hot[c].first+int32(o-StateSucceeded)]
				path, _, _ := p.move(nil, movableOf(p), p.firstLeaf, c, o)
				if want := uint16(len(path)); pure && mv.nw != want || !pure && mv.nw != 0 {
					t.Fatalf("%s: leaf %d, outcome %v, parent pure %v: %d writes, want %d", name, c, o, pure, mv.nw, want)
				}
				if pure && !slices.Equal(p.writes[p.moveW0[p.hot[c].first+int32(o-StateSucceeded)]:][:mv.nw], path) {
					t.Fatalf("%s: leaf %d, outcome %v: the writes are not the move's path", name, c, o)
				}
			}
		}
		if len(p.moves) != 2*leaves {
			t.Errorf("%s: %d moves for %d leaves in regions", name, len(p.moves), leaves)
		}
	}
}

// movableOf returns, by node, whether p has it in a movable region.
func movableOf[L any](p *sprogram[L]) []bool {
	m := make([]bool, len(p.hot))
	for i := range p.hot {
		m[i] = p.hot[i].is(hotMovable)
	}
	return m
}

// balancedTree returns a balanced tree of 2^height actions, selects and
// sequences by turns from the top (bench/peers' sweep), or their reactive
// twins.
func balancedTree(height int, reactive bool) Node[int] {
	var build func(h, first int) Node[int]
	build = func(h, first int) Node[int] {
		if h == 0 {
			return Leaf(first)
		}
		l, r := build(h-1, first), build(h-1, first+1<<(h-1))
		switch {
		case (height-h)%2 == 0 && reactive:
			return ReactiveSelect(l, r)
		case (height-h)%2 == 0:
			return Select(l, r)
		case reactive:
			return ReactiveSequence(l, r)
		}
		return Sequence(l, r)
	}
	return Root(build(height, 0))
}
