package behaviortree

import (
	"math/rand/v2"
	"reflect"

	"github.com/benbjohnson/immutable"
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
	at   *pos[L]
	left int32
	next *count[L]
}

// zipper is the running state of a tree. It is a value: its methods take and
// return zippers by value (which keeps the hot path in registers), and
// everything it points to is never modified.
type zipper[L any] struct {
	focus  *pos[L]
	counts *count[L]
	ext    *extra // nil for definitions with no Random and no custom node
}

// extra is the part of the running state that only Random and custom nodes
// use. It is replaced, never modified, when a draw or a custom node changes
// it, so that the zipper stays three words and lives in registers.
type extra struct {
	rng    rand.PCG
	custom *immutable.Map[int32, Traversal] // nil until a custom node changes state
}

// descend enters p afresh and moves the focus to the leaf that entry reaches,
// drawing for Random nodes and asking custom nodes on the way. It is small
// enough to inline: the common case, a static first descent to a leaf, is
// one load.
func (z zipper[L]) descend(p *pos[L]) zipper[L] {
	if p = p.enter; p.kind == KindLeaf {
		z.focus = p
		return z
	}
	return z.descendFrom(p)
}

// descendFrom goes on with a descent at p, a Random or custom position.
func (z zipper[L]) descendFrom(p *pos[L]) zipper[L] {
	for {
		switch p.kind {
		case KindLeaf:
			z.focus = p
			return z
		case KindRandom, KindRandomWeighted:
			x := *z.ext
			var i int
			x.rng, i = pick(x.rng, p.def)
			z.ext = &x
			p = p.children[i].enter
		default: // KindCustom
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
	m := z.focus.up[b2i(ok)]
	for {
		switch m.kind {
		case moveEnter:
			return z.descend(m.to), Running
		case moveRestart:
			z.counts = nil // already empty: every counter was popped on the way
			if m.ok {
				return z.descend(m.to), Success
			}
			return z.descend(m.to), Failure
		case moveRepeat:
			par := m.to.parent
			left := par.n
			if c := z.counts; c != nil && c.at == par {
				left, z.counts = c.left, c.next
			}
			if left > 1 {
				z.counts = &count[L]{at: par, left: left - 1, next: z.counts}
				return z.descend(m.to), Running
			}
			m = par.up[1]
		default: // moveCustom
			par := m.to.parent
			var step Step
			z, step = z.reactCustom(par, int(m.to.index), m.ok)
			switch step {
			case StepSucceed:
				m = par.up[1]
			case StepFail:
				m = par.up[0]
			default: // checked by reactCustom: a child in range
				return z.descend(par.children[step.child()]), Running
			}
		}
	}
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
func (z zipper[L]) root() *pos[L] {
	p := z.focus
	for p.parent != nil {
		p = p.parent
	}
	return p
}

// equal reports whether two extras hold the same random and custom states.
func (x *extra) equal(y *extra) bool {
	if x == y {
		return true
	}
	if x == nil || y == nil || x.rng != y.rng {
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
