package behaviortree

import (
	"math/rand/v2"
	"reflect"

	"github.com/benbjohnson/immutable"
	"github.com/zipbt/behaviortree/custom"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/memory"
)

// This file holds the persistent zipper: a small immutable cursor over a
// compiled definition (compile.go).
//
// A cursor's focus is a position, and the path from the root to it needs no
// storage of its own:
// which child every Select, Sequence and Random on the path is in is the
// focus's ancestry. What remains of the running state is small and
// persistent: the RepeatN counters that have counted down (a linked stack,
// deepest first, one cell per counting RepeatN on the path), the state of
// custom nodes (an immutable.Map keyed by position), and the random state.

// count is one cell of the persistent stack of RepeatN counters: the RepeatN
// position at has left runs of its child to go, this one included.
type count[L any] struct {
	at   *place[L]
	left int32
	next *count[L]
}

// zipper is the running state of a tree. It is a value: its methods take and
// return zippers by value (which keeps the hot path in registers), and
// everything it points to is never modified.
type zipper[L any] struct {
	focus  *place[L]
	counts *count[L]
	ext    *extra[L] // nil for definitions with no Random, custom or parallel node
}

// extra is the part of the running state that only Random and custom nodes
// use. It is replaced, never modified, when a draw or a custom node changes
// it, so that the zipper stays three words and lives in registers.
type extra[L any] struct {
	rng    rand.PCG
	custom *immutable.Map[int32, custom.Traversal] // nil until a custom node changes state
	// The fields below serve parallel positions (parallel.go).
	frame  *frame[L]   // the running parallel at the focus of this cursor, or nil
	halted []*place[L] // the leaves that the signal making this version halted
	par    bool        // the definition has parallel positions: signals take the slow path
	// mem is the version's memory. A Tree has an extra when its program
	// needs one (random, custom or parallel positions), or else, with
	// memOnly set, only while its memory is not empty: so a Tree stays
	// four words, which the compiler keeps in registers.
	mem     memory.Map
	memOnly bool
}

// descend enters p afresh and moves the focus to the leaf that entry reaches,
// drawing for Random nodes and asking custom nodes on the way. It is small
// enough to inline: the common case, a static first descent to a leaf, is
// one load.
func (z zipper[L]) descend(p *place[L]) zipper[L] {
	if p = p.enter; p.kind == kind.Leaf {
		z.focus = p
		return z
	}
	return z.descendFrom(p)
}

// descendFrom goes on with a descent at p, a Random or custom position.
func (z zipper[L]) descendFrom(p *place[L]) zipper[L] {
	for {
		switch p.kind {
		case kind.Leaf:
			z.focus = p
			return z
		case kind.Parallel, kind.Race, kind.Threshold:
			return z.enterFrame(p)
		case kind.Random, kind.RandomWeighted:
			x := *z.ext
			var i int
			x.rng, i = pick(x.rng, p.def)
			z.ext = &x
			p = p.children[i].enter
		default: // kind.Custom
			var i int
			z, i = z.enterCustom(p)
			p = p.children[i].enter
		}
	}
}

// signal reports the focused leaf's outcome and moves the focus to the next
// leaf. It returns Success or Failure when the outcome completed the root
// (the tree has then started over), and Running otherwise. The moves were
// worked out at compile time; only RepeatN and custom nodes are asked here.
func (z zipper[L]) signal(ok bool) (zipper[L], Status) {
	if z.ext != nil && z.ext.par {
		return z.signalFirst(ok)
	}
	m := z.focus.up[b2i(ok)]
	for {
		switch m.kind {
		case moveLeaf:
			z.focus = m.to
			return z, m.made.status()
		case moveEnter:
			return z.descend(m.to), Running
		case moveRestart:
			z.counts = nil // already empty: every counter was popped on the way
			if m.ok {
				return z.descend(m.to), Success
			}
			return z.descend(m.to), Failure
		case moveRepeat:
			z, m = z.repeat(m)
		default: // moveCustom; a definition with parallels took signalFirst
			z, m = z.custom(m)
		}
	}
}

// advance makes move m and the moves it leads to, until the focus is on a
// leaf again. It returns Success or Failure when the root ended (the tree
// has then started over), and Running otherwise; or, with ended true, the
// outcome of a parallel's child that ended, for the caller that holds the
// parallel's frame (parallel.go) to record.
func (z zipper[L]) advance(m move[L]) (zipper[L], Status, bool) {
	for {
		switch m.kind {
		case moveLeaf: // not made for definitions with parallels; here for completeness
			z.focus = m.to
			return z, m.made.status(), false
		case moveEnter:
			return z.descend(m.to), Running, false
		case moveRestart:
			z.counts = nil // already empty: every counter was popped on the way
			if m.ok {
				return z.descend(m.to), Success, false
			}
			return z.descend(m.to), Failure, false
		case moveParallel:
			if m.ok {
				return z, Success, true
			}
			return z, Failure, true
		case moveRepeat:
			z, m = z.repeat(m)
		default: // moveCustom
			z, m = z.custom(m)
		}
	}
}

// repeat asks the counter of the RepeatN whose child m.to ended, and
// returns the move to make next: entering the child again, or the RepeatN's
// own success.
func (z zipper[L]) repeat(m move[L]) (zipper[L], move[L]) {
	par := m.to.parent
	left := par.n
	if c := z.counts; c != nil && c.at == par {
		left, z.counts = c.left, c.next
	}
	if left > 1 {
		z.counts = &count[L]{at: par, left: left - 1, next: z.counts}
		return z, move[L]{to: m.to}
	}
	return z, par.up[1]
}

// custom asks the custom node whose child m.to ended with m.ok, and
// returns the move to make next: entering a child, or the node's own end.
func (z zipper[L]) custom(m move[L]) (zipper[L], move[L]) {
	par := m.to.parent
	var step custom.Move
	z, step = z.reactCustom(par, int(m.to.index), m.ok)
	switch step {
	case custom.Succeed:
		return z, par.up[1]
	case custom.Fail:
		return z, par.up[0]
	}
	return z, move[L]{to: par.children[step.Child()]} // checked by reactCustom: in range
}

// b2i is 1 for true and 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// depth returns the number of inner positions above the focus.
func (z zipper[L]) depth() int {
	d := 0
	for p := z.focus.parent; p != nil; p = p.parent {
		d++
	}
	return d
}

// root returns the compiled root position.
func (z zipper[L]) root() *place[L] {
	p := z.focus
	for p.parent != nil {
		p = p.parent
	}
	return p
}

// equal reports whether two extras hold the same random and custom states.
func (x *extra[L]) equal(y *extra[L]) bool {
	if x == y {
		return true
	}
	if x == nil || y == nil || x.rng != y.rng || !x.frame.equal(y.frame) || !x.mem.Equal(y.mem) {
		return false
	}
	if x.custom == y.custom {
		return true
	}
	if x.custom == nil || y.custom == nil || x.custom.Len() != y.custom.Len() {
		return false
	}
	it := x.custom.Iterator()
	for !it.Done() {
		id, a, _ := it.Next()
		b, ok := y.custom.Get(id)
		if !ok || !(sameTraversal(a, b) || reflect.DeepEqual(a, b)) {
			return false
		}
	}
	return true
}
