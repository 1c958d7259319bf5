package behaviortree

import (
	"errors"
	"iter"
	"slices"

	"github.com/zipbt/behaviortree/kind"
)

// This file holds parallel positions in the Value/Succeed/Fail style: a
// Threshold, a Parallel or a Race enters all of its children at once, so a
// tree can have several focused leaves, its frontier. Each child runs as a
// branch with its own cursor (a focus and its RepeatN counters), kept in a
// frame, and the frame is kept in the version's extra state, so a version
// stays a small value and every older version keeps its frontier. A signal
// to one leaf of the frontier moves that branch's cursor only; when the
// branch's child ends, the frame records it and checks its thresholds.
//
// The rule, BehaviorTree.CPP's Parallel (Colledanchise and Ögren's M-of-N):
// the node succeeds once need[1] children have succeeded, and fails once
// need[0] have failed or success can no longer be reached. Children that
// ended are remembered until the node ends. When it ends, the children still
// running are halted: they are dropped from the frontier, reported by
// [Tree.Halted], and start afresh the next time the node is entered.

// Threshold returns a node that enters all of its children at once, so that
// they run side by side, and remembers those that end. It succeeds once
// success of them have succeeded, and fails once failure of them have failed
// or success can no longer be reached; the children still running are then
// halted. Negative counts mean "all but k", as in BehaviorTree.CPP: -1 is
// every child, -2 all but one.
//
// In the Value/Succeed/Fail style, [Parallel] is Threshold(-1, 1, ...) (all
// must succeed, one failure fails) and [Race] is Threshold(1, -1, ...) (one
// success succeeds, all must fail); the stepped engine runs those two by
// their Mistreevous rules and refuses Threshold.
//
// Threshold panics with "behaviortree.Threshold: threshold: success count S
// is not 1 to N ..." (or the failure count) when a count does not resolve to
// 1 to the number of children, and when given no children or a zero Node.
//
// Value/Succeed/Fail only ([NewStepped] refuses it); a stepped tree has
// [Parallel], [Race] and [All], and a Fluent one counts with
// [ReactiveParallel].
func Threshold[L any](success, failure int, children ...Node[L]) Node[L] {
	return mustBuild(kind.Threshold, kind.Params{Success: success, Failure: failure}, children)
}

// parallelNeeds returns the thresholds of a parallel body, need[0] failures
// to fail and need[1] successes to succeed, and zeros for other kinds.
func parallelNeeds[L any](nd *node[L]) [2]int32 {
	n := len(nd.children)
	switch nd.kind {
	case kind.Parallel, kind.Race:
		f, s := concurrentNeeds(nd.kind, n)
		return [2]int32{int32(f), int32(s)}
	case kind.Threshold:
		s, f, _ := thresholds(kind.Params{Success: nd.success, Failure: nd.failure}, n) // checked when built
		return [2]int32{int32(f), int32(s)}
	}
	return [2]int32{}
}

// frame is the running state of a parallel position: one branch per child.
// It is never modified once it is part of a version; a signal copies it.
//
// Invariants: ok + failed is the number of ended branches, and neither
// threshold of at is reached; at least one branch runs.
type frame[L any] struct {
	at       *place[L]
	branches []branch[L]
	ok       int32 // branches that succeeded
	failed   int32 // branches that failed
}

// branch is one child of a running parallel position.
type branch[L any] struct {
	focus  *place[L] // the focused leaf; or the nested parallel whose frame is sub; nil once ended
	counts *count[L] // RepeatN counters between the child and the focus
	sub    *frame[L] // the nested parallel's frame, when focus is one
	ended  Status    // Running while the branch runs; then how it ended
}

// enterFrame enters parallel position p afresh: every child is entered, in
// order (random draws happen in that order), and the cursor's focus becomes
// the first leaf of the frontier.
func (z zipper[L]) enterFrame(p *place[L]) zipper[L] {
	f := &frame[L]{at: p, branches: make([]branch[L], len(p.children))}
	x := z.ext.withFrame(nil)
	for i, c := range p.children {
		bz := zipper[L]{ext: x}.descend(c)
		f.branches[i] = branch[L]{focus: bz.focus, counts: bz.counts, sub: bz.ext.frame}
		x = bz.ext.withFrame(nil)
	}
	z.ext = x.withFrame(f)
	z.focus = f.first()
	return z
}

// withFrame returns x with frame f, copying x unless it already has it.
func (x *extra[L]) withFrame(f *frame[L]) *extra[L] {
	if x.frame == f {
		return x
	}
	y := *x
	y.frame = f
	return &y
}

// first returns the first leaf of f's frontier.
func (f *frame[L]) first() *place[L] {
	for {
		for i := range f.branches {
			b := &f.branches[i]
			if b.ended != Running {
				continue
			}
			if b.sub == nil {
				return b.focus
			}
			f = b.sub
			break
		}
	}
}

// leaves appends the leaves of f's frontier, in order, to out.
func (f *frame[L]) leaves(out []*place[L]) []*place[L] {
	for i := range f.branches {
		b := &f.branches[i]
		switch {
		case b.ended != Running:
		case b.sub != nil:
			out = b.sub.leaves(out)
		default:
			out = append(out, b.focus)
		}
	}
	return out
}

// branchOf returns the index of the branch of f whose child holds leaf, or
// -1 when leaf is not below f's position.
func (f *frame[L]) branchOf(leaf *place[L]) int {
	for q := leaf; q != nil; q = q.parent {
		if q.parent == f.at {
			return int(q.index)
		}
	}
	return -1
}

// equal reports whether f and g hold the same running state.
func (f *frame[L]) equal(g *frame[L]) bool {
	if f == g {
		return true
	}
	if f == nil || g == nil || f.at != g.at || f.ok != g.ok || f.failed != g.failed {
		return false
	}
	for i := range f.branches {
		a, b := &f.branches[i], &g.branches[i]
		if a.focus != b.focus || a.ended != b.ended || !a.sub.equal(b.sub) || !sameCounts(a.counts, b.counts) {
			return false
		}
	}
	return true
}

// sameCounts reports whether two stacks of RepeatN counters hold the same
// counts.
func sameCounts[L any](a, b *count[L]) bool {
	for a != nil && b != nil {
		if a == b {
			return true // shared from here on
		}
		if a.at != b.at || a.left != b.left {
			return false
		}
		a, b = a.next, b.next
	}
	return a == nil && b == nil
}

// errNotFocused is the error of signalling a leaf that is not focused.
var errNotFocused = errors.New("the leaf is not focused in this version")

// signalIn signals leaf, a leaf of this cursor's frontier, with outcome ok.
// It returns what advance returns: ended true when the signal ended the
// child of the parallel that holds this cursor, with its outcome.
func (z zipper[L]) signalIn(leaf *place[L], ok bool) (zipper[L], Status, bool, error) {
	f := z.ext.frame
	if f == nil {
		if z.focus != leaf {
			return z, Running, false, errNotFocused
		}
		z, st, ended := z.advance(leaf.up[b2i(ok)])
		return z, st, ended, nil
	}
	i := f.branchOf(leaf)
	if i < 0 || f.branches[i].ended != Running {
		return z, Running, false, errNotFocused
	}
	b := f.branches[i]
	bz := zipper[L]{focus: b.focus, counts: b.counts, ext: z.ext.withFrame(b.sub)}
	bz, st, ended, err := bz.signalIn(leaf, ok)
	if err != nil {
		return z, Running, false, err
	}
	g := &frame[L]{at: f.at, branches: slices.Clone(f.branches), ok: f.ok, failed: f.failed}
	x := bz.ext.withFrame(nil)
	if !ended {
		g.branches[i] = branch[L]{focus: bz.focus, counts: bz.counts, sub: bz.ext.frame}
	} else {
		g.branches[i] = branch[L]{ended: st}
		if st == Success {
			g.ok++
		} else {
			g.failed++
		}
		if out, done := g.outcome(); done {
			// The parallel ends: halt the branches still running, and move
			// on from the parallel itself.
			x.halted = g.leaves(slices.Clip(x.halted))
			z.ext, z.focus = x, f.at
			z, st, ended = z.advance(f.at.up[b2i(out)])
			return z, st, ended, nil
		}
	}
	z.ext = x.withFrame(g)
	z.focus = g.first()
	return z, Running, false, nil
}

// outcome reports whether f's thresholds are reached, and how it ends.
func (f *frame[L]) outcome() (ok, done bool) {
	need := f.at.need
	switch {
	case f.ok >= need[1]:
		return true, true
	case f.failed >= need[0] || int32(len(f.branches))-f.failed < need[1]:
		return false, true
	}
	return false, false
}

// Focus is one focused leaf of a version: a handle for [Tree.SignalAt].
// The zero Focus is not a handle.
type Focus[L any] struct {
	leaf *place[L]
}

// Value returns the focused leaf's value.
func (f Focus[L]) Value() L { return f.must("Value").leaf }

// Node returns the focused leaf.
func (f Focus[L]) Node() Node[L] { return Node[L]{f.must("Node").def} }

// Path returns the children indexes from the root down to the leaf.
func (f Focus[L]) Path() []int {
	var path []int
	for p := f.must("Path"); p.parent != nil; p = p.parent {
		path = append(path, int(p.index))
	}
	slices.Reverse(path)
	return path
}

func (f Focus[L]) must(method string) *place[L] {
	if f.leaf == nil {
		panic("behaviortree.Focus." + method + ": zero Focus")
	}
	return f.leaf
}

// Frontier returns an iterator over the leaves the version is focused on,
// in the tree's order: the one leaf that [Tree.Value] names, or, while
// parallel nodes run, one leaf per running branch. Each can be signalled
// with [Tree.SignalAt].
func (t Tree[L]) Frontier() iter.Seq[Focus[L]] {
	if t.z.focus == nil {
		zeroTree("Frontier")
	}
	return func(yield func(Focus[L]) bool) {
		if t.z.ext == nil || t.z.ext.frame == nil {
			yield(Focus[L]{t.z.focus})
			return
		}
		for _, p := range t.z.ext.frame.leaves(nil) {
			if !yield(Focus[L]{p}) {
				return
			}
		}
	}
}

// SignalAt returns the version in which the focused leaf f has ended with
// s (Success or Failure), leaving the other leaves of the frontier as they
// are; Running returns t itself. It returns an error, and no version, when
// f is not in t's frontier (it belongs to another tree, or a signal has
// since moved on from it or halted it), and for an invalid status.
//
// With one focus, t.SignalAt(f, Success) is t.Succeed(). With several,
// [Tree.Succeed] and [Tree.Fail] signal the first leaf of the frontier.
func (t Tree[L]) SignalAt(f Focus[L], s Status) (Tree[L], error) {
	if t.z.focus == nil {
		zeroTree("SignalAt")
	}
	if !s.valid() {
		return t, errors.New("behaviortree.Tree.SignalAt: invalid " + s.String())
	}
	if s == Running {
		return t, nil
	}
	if f.leaf == nil {
		return t, errors.New("behaviortree.Tree.SignalAt: zero Focus")
	}
	if t.z.ext == nil || !t.z.ext.par {
		if f.leaf != t.z.focus {
			return t, errors.New("behaviortree.Tree.SignalAt: " + errNotFocused.Error())
		}
		return t.Signal(s), nil
	}
	return t.signalFrontier(f.leaf, s == Success)
}

// signalFrontier is SignalAt for a definition with parallel positions.
func (t Tree[L]) signalFrontier(leaf *place[L], ok bool) (Tree[L], error) {
	z, st, err := t.z.signalLeaf(leaf, ok)
	if err != nil {
		return t, errors.New("behaviortree.Tree.SignalAt: " + err.Error())
	}
	t.z, t.made = z, madeOf(st, signalOf(ok))
	return t, nil
}

// signalLeaf signals leaf, which must be in the frontier of a cursor at the
// root of a definition with parallel positions, clearing the halted leaves
// of the version before.
func (z zipper[L]) signalLeaf(leaf *place[L], ok bool) (zipper[L], Status, error) {
	if len(z.ext.halted) > 0 {
		z.ext = z.ext.withHalted(nil)
	}
	z, st, _, err := z.signalIn(leaf, ok)
	return z, st, err
}

// signalFirst is signal for a definition with parallel positions: it
// signals the first leaf of the frontier, which is always focused.
func (z zipper[L]) signalFirst(ok bool) (zipper[L], Status) {
	z, st, _ := z.signalLeaf(z.focus, ok)
	return z, st
}

// withHalted returns x with the halted leaves h, as a copy.
func (x *extra[L]) withHalted(h []*place[L]) *extra[L] {
	y := *x
	y.halted = h
	return &y
}

// Halted returns an iterator over the leaves that the signal making this
// version halted: the branches still running when a parallel node ended.
// They are no longer focused, and start afresh when their parallel is
// entered again. Like an event, this is what the signal did, not part of
// the version's state: [Tree.Equal] ignores it and saving drops it.
func (t Tree[L]) Halted() iter.Seq[Focus[L]] {
	return func(yield func(Focus[L]) bool) {
		if t.z.ext == nil {
			return
		}
		for _, p := range t.z.ext.halted {
			if !yield(Focus[L]{p}) {
				return
			}
		}
	}
}
