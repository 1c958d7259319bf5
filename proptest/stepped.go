package proptest

import (
	"reflect"
	"time"

	"github.com/leanovate/gopter"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

// steppedKinds are the inner kinds SteppedTree draws, as Mistreevous has
// them: Select is the selector, Negate flip, AlwaysSucceed and AlwaysFail
// succeed and fail.
var steppedKinds = []kind.Kind{
	kind.Sequence, kind.Select, kind.Parallel, kind.Race, kind.All, kind.Lotto,
	kind.Repeat, kind.Retry, kind.Negate, kind.AlwaysSucceed, kind.AlwaysFail,
	kind.Sequence, kind.Select, // twice as likely: the kinds most trees are made of
	kind.ReactiveSequence, kind.ReactiveSelect, kind.ReactiveParallel,
}

// SteppedTree returns a generator of definitions for the stepped engine
// (behaviortree.NewStepped): a Root over the Mistreevous kinds and the
// FluentBehaviourTree ones (reactive sequence, select and parallel), with
// actions (Leaf), conditions and waits as leaves, and now and then a guard
// (while or until, sometimes "then succeed") or a callback (entry, step,
// exit) on a node. Leaf values, and the values of guards and callbacks,
// are drawn from leaf. The number of nodes grows with gopter's size
// parameter; depth and fan-out stay within c. Repeat and retry counts are
// at most c.MaxN, and wait durations at most 300 ms. These trees do not
// shrink.
func SteppedTree[L any](leaf gopter.Gen, c Config) gopter.Gen {
	c = c.withDefaults()
	return func(p *gopter.GenParameters) *gopter.GenResult {
		budget := 1
		if p.MaxSize > 1 {
			budget += p.Rng.Intn(p.MaxSize)
		}
		b := steppedBuilder[L]{builder[L]{p: p, leaf: leaf, c: c, kinds: steppedKinds, budget: budget}}
		n, ok := b.node(0)
		if !ok {
			return gopter.NewEmptyResult(reflect.TypeOf(bt.Node[L]{}))
		}
		return gopter.NewGenResult(bt.Root(n), gopter.NoShrinker)
	}
}

// steppedBuilder draws one stepped tree, spending a budget of nodes.
type steppedBuilder[L any] struct{ builder[L] }

func (b *steppedBuilder[L]) value() (L, bool) {
	v, ok := b.leaf(b.p).Retrieve()
	if !ok {
		var zero L
		return zero, false
	}
	return v.(L), true
}

func (b *steppedBuilder[L]) node(depth int) (bt.Node[L], bool) {
	b.budget--
	rng := b.p.Rng
	var n bt.Node[L]
	if depth >= b.c.MaxDepth || b.budget <= 0 || rng.Intn(10) < min(depth, 3) || rng.Intn(12) == 0 {
		v, ok := b.value()
		if !ok {
			return n, false
		}
		switch rng.Intn(6) {
		case 0:
			n = bt.Condition(v)
		case 1:
			n = []bt.Node[L]{bt.Wait[L](time.Duration(rng.Intn(300)) * time.Millisecond), bt.WaitRange[L](0, time.Duration(1+rng.Intn(300))*time.Millisecond), bt.WaitForever[L]()}[rng.Intn(3)]
		default:
			n = bt.Leaf(v)
		}
	} else {
		nodeKind := b.kinds[rng.Intn(len(b.kinds))]
		k := 1
		if nodeKind.Arity() != kind.OneChild {
			k = 1 + rng.Intn(b.c.MaxFanOut)
		}
		children := make([]bt.Node[L], k)
		for i := range children {
			child, ok := b.node(depth + 1)
			if !ok {
				return n, false
			}
			children[i] = child
		}
		n = b.inner(nodeKind, children)
	}
	return b.attrs(n)
}

// inner makes a node of kind over children, drawing its parameters.
func (b *steppedBuilder[L]) inner(nodeKind kind.Kind, children []bt.Node[L]) bt.Node[L] {
	rng := b.p.Rng
	switch nodeKind {
	case kind.Lotto:
		var ws []int
		if rng.Intn(2) == 0 {
			ws = make([]int, len(children))
			for i := range ws {
				ws[i] = rng.Intn(b.c.MaxWeight + 1) // 0 counts as 1
			}
		}
		return bt.Lotto(ws, children...)
	case kind.ReactiveParallel:
		k := len(children)
		n, err := bt.Build(nodeKind, kind.Params{Failure: rng.Intn(k+3) - 1, Success: rng.Intn(k+3) - 1}, children...)
		if err != nil {
			panic("proptest.SteppedTree: " + err.Error())
		}
		return n
	case kind.Repeat, kind.Retry:
		var p kind.Params
		switch rng.Intn(3) {
		case 1:
			p = kind.Params{Bound: kind.Fixed, Min: rng.Intn(b.c.MaxN + 1)}
		case 2:
			lo := rng.Intn(b.c.MaxN + 1)
			p = kind.Params{Bound: kind.Ranged, Min: lo, Max: lo + rng.Intn(b.c.MaxN+1)}
		}
		n, err := bt.Build(nodeKind, p, children...)
		if err != nil {
			panic("proptest.SteppedTree: " + err.Error())
		}
		return n
	}
	n, err := bt.Build(nodeKind, kind.Params{}, children...)
	if err != nil {
		panic("proptest.SteppedTree: " + err.Error())
	}
	return n
}

// attrs puts, now and then, a guard or callbacks on n.
func (b *steppedBuilder[L]) attrs(n bt.Node[L]) (bt.Node[L], bool) {
	rng := b.p.Rng
	var as []attr.Attr[L]
	for _, mk := range []func(L) attr.Attr[L]{attr.While[L], attr.Until[L], attr.Entry[L], attr.OnStep[L], attr.Exit[L]} {
		if rng.Intn(8) != 0 {
			continue
		}
		v, ok := b.value()
		if !ok {
			return n, false
		}
		a := mk(v)
		if (a.Kind == attr.KindWhile || a.Kind == attr.KindUntil) && rng.Intn(2) == 0 {
			a = a.ThenSucceed()
		}
		as = append(as, a)
	}
	if len(as) == 0 {
		return n, true
	}
	return n.With(as...), true
}
