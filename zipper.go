package behaviortree

import (
	"math/rand/v2"
	"reflect"

	"github.com/benbjohnson/immutable"
)

// This file holds the persistent zipper: a compiled, static tree of
// positions, and a small immutable cursor over it.
//
// A definition's nodes may be shared (one Node at several places, or in
// several trees), so they cannot know their parent. Compiling gives every
// place its own position, with a parent link, its index there, its next
// sibling and its precomputed first descent. A cursor's focus is then a
// position, and the path from the root to it needs no storage of its own:
// which child every Select, Sequence and Random on the path is in is the
// focus's ancestry. What remains of the running state is small and
// persistent: the RepeatN counters that have counted down (a linked stack,
// deepest first, one cell per counting RepeatN on the path), the state of
// custom nodes (an immutable.Map keyed by position), and the random state.

// program is a compiled definition: its positions in preorder.
//
// Invariants: all[i].id == i; all[0] is the root; every position's enter is
// a leaf, a Random, a RandomWeighted or a custom position in its subtree.
type program[L any] struct {
	all         []pos[L]
	random      bool   // some position draws at random on entry
	custom      bool   // some position is a custom node
	fingerprint uint64 // hash of the structure, for saved states
}

// pos is one place in a compiled definition.
type pos[L any] struct {
	kind     Kind
	index    int32 // index in parent.children
	id       int32 // preorder number
	n        int32 // RepeatN's count
	parent   *pos[L]
	next     *pos[L]    // next sibling, or nil
	enter    *pos[L]    // where entering this position afresh descends to
	up       [2]move[L] // what happens when this position ends: up[0] failed, up[1] succeeded
	children []*pos[L]
	def      *node[L]
	leaf     L
}

// compiled returns root's program, compiling it once per definition.
func compiled[L any](root *node[L]) *program[L] {
	if p := root.prog.Load(); p != nil {
		return p
	}
	p := compile(root)
	if root.prog.CompareAndSwap(nil, p) {
		return p
	}
	return root.prog.Load()
}

// compile lays root's subtree out as positions, without recursion.
func compile[L any](root *node[L]) *program[L] {
	prog := &program[L]{all: make([]pos[L], root.size), random: root.random, custom: root.hasCust}
	kids := make([]*pos[L], root.size-1) // backing store of every children slice
	type item struct {
		nd     *node[L]
		parent *pos[L]
		index  int
	}
	stack := []item{{nd: root}}
	id := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p := &prog.all[id]
		*p = pos[L]{kind: it.nd.kind, index: int32(it.index), id: int32(id), n: int32(it.nd.n), parent: it.parent, def: it.nd, leaf: it.nd.leaf}
		id++
		if it.parent != nil {
			it.parent.children[it.index] = p
		}
		if k := len(it.nd.children); k > 0 {
			p.children, kids = kids[:k:k], kids[k:]
			for i := k - 1; i >= 0; i-- {
				stack = append(stack, item{nd: it.nd.children[i], parent: p, index: i})
			}
		}
	}
	// Children come after their parent in preorder, so a backward pass sees
	// every child's enter before its parent's.
	for i := len(prog.all) - 1; i >= 0; i-- {
		p := &prog.all[i]
		switch p.kind {
		case KindLeaf, KindRandom, KindRandomWeighted, KindCustom:
			p.enter = p
		default:
			p.enter = p.children[0].enter
		}
		for j := 0; j+1 < len(p.children); j++ {
			p.children[j].next = p.children[j+1]
		}
	}
	// Parents come before their children in preorder, so a forward pass can
	// build each position's moves from its parent's.
	for i := range prog.all {
		p := &prog.all[i]
		for o := range p.up {
			p.up[o] = p.ended(o == 1)
		}
	}
	prog.fingerprint = fingerprintOf(prog.all)
	return prog
}

// move is the static part of what happens when a position ends: everything
// between it and the next position whose reaction depends on running state
// (a RepeatN's counter, a custom node's state) is worked out once, at
// compile time.
type move[L any] struct {
	to   *pos[L]
	kind moveKind
	ok   bool // the outcome that arrives, for moveRepeat and moveCustom; the root's, for moveRestart
}

type moveKind uint8

const (
	moveEnter   moveKind = iota // enter to afresh; the tree is running
	moveRestart                 // the root ended with ok; enter to, the root, afresh
	moveRepeat                  // to, a RepeatN's child, ended: ask the counter
	moveCustom                  // to, a custom node's child, ended with ok: ask the node
)

// ended returns the move for p ending with outcome ok. p's parent's moves
// must already be set.
func (p *pos[L]) ended(ok bool) move[L] {
	par := p.parent
	if par == nil {
		return move[L]{to: p, kind: moveRestart, ok: ok}
	}
	up := par.up[0]
	switch par.kind {
	case KindSequence:
		if ok && p.next != nil {
			return move[L]{to: p.next}
		}
		if ok {
			up = par.up[1]
		}
	case KindSelect:
		if !ok && p.next != nil {
			return move[L]{to: p.next}
		}
		if ok {
			up = par.up[1]
		}
	case KindRepeatUntilFail:
		if ok {
			return move[L]{to: p}
		}
		up = par.up[1]
	case KindRepeatUntilSucceed:
		if !ok {
			return move[L]{to: p}
		}
		up = par.up[1]
	case KindRepeatN:
		return move[L]{to: p, kind: moveRepeat, ok: ok}
	case KindCustom:
		return move[L]{to: p, kind: moveCustom, ok: ok}
	case KindAlwaysSucceed:
		up = par.up[1]
	case KindAlwaysFail:
		// up[0]
	case KindNegate:
		if !ok {
			up = par.up[1]
		}
	default: // KindRandom, KindRandomWeighted: the chosen child's outcome is the node's
		if ok {
			up = par.up[1]
		}
	}
	return up
}

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
			switch step.op {
			case opEnter:
				return z.descend(par.children[step.child]), Running
			case opSucceed:
				m = par.up[1]
			default:
				m = par.up[0]
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

// enterCustom asks custom position p which child to enter, and records its
// new state (and any random draws) in a new extra.
func (z zipper[L]) enterCustom(p *pos[L]) (zipper[L], int) {
	t := z.traversal(p)
	x := *z.ext
	i, next := t.Enter(Context{children: len(p.children), child: -1, rng: &x.rng})
	checkChild(t, "Enter", i, len(p.children))
	x.custom = x.setTraversal(p.id, t, next)
	z.ext = &x
	return z, i
}

// reactCustom tells custom position p that its child ended, records its new
// state, and returns what it does next (checked).
func (z zipper[L]) reactCustom(p *pos[L], child int, ok bool) (zipper[L], Step) {
	t := z.traversal(p)
	x := *z.ext
	c := Context{children: len(p.children), child: child, rng: &x.rng}
	var step Step
	var next Traversal
	method := "OnSucceed"
	if ok {
		step, next = t.OnSucceed(c)
	} else {
		method = "OnFail"
		step, next = t.OnFail(c)
	}
	x.custom = x.setTraversal(p.id, t, next)
	z.ext = &x
	if step.op == opEnter {
		checkChild(t, method, step.child, len(p.children))
	}
	return z, step
}

// traversal returns the current state of custom position p.
func (z zipper[L]) traversal(p *pos[L]) Traversal {
	if z.ext.custom != nil {
		if t, ok := z.ext.custom.Get(p.id); ok {
			return t
		}
	}
	return p.def.custom
}

// setTraversal returns the custom states with next as the state of the
// position numbered id, where it changed.
func (x *extra) setTraversal(id int32, old, next Traversal) *immutable.Map[int32, Traversal] {
	if next == nil {
		next = old // a Traversal that returns nil keeps its state
	}
	if sameTraversal(old, next) {
		return x.custom
	}
	m := x.custom
	if m == nil {
		m = immutable.NewMap[int32, Traversal](nil)
	}
	return m.Set(id, next)
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
