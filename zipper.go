package behaviortree

import (
	"math/rand/v2"

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
	root   *node[L]
	all    []pos[L]
	random bool // some position draws at random on entry
	custom bool // some position is a custom node
}

// pos is one place in a compiled definition.
type pos[L any] struct {
	kind     Kind
	index    int32 // index in parent.children
	id       int32 // preorder number
	n        int32 // RepeatN's count
	parent   *pos[L]
	next     *pos[L] // next sibling, or nil
	enter    *pos[L] // where entering this position afresh descends to
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
	prog := &program[L]{root: root, all: make([]pos[L], root.size), random: root.random, custom: root.hasCust}
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
	return prog
}

// count is one cell of the persistent stack of RepeatN counters: the RepeatN
// position at has left runs of its child to go, this one included.
type count[L any] struct {
	at   *pos[L]
	left int32
	next *count[L]
}

// zipper is the running state of a tree. It is a value: the methods below
// change only the copy they are called on, and everything it points to is
// never modified.
type zipper[L any] struct {
	focus  *pos[L]
	counts *count[L]
	custom *immutable.Map[int32, Traversal] // nil until a custom node changes state
	rng    rand.PCG
}

// descend enters p afresh and moves the focus to the leaf that entry reaches,
// drawing for Random nodes and asking custom nodes on the way.
func (z *zipper[L]) descend(p *pos[L]) {
	for {
		p = p.enter
		switch p.kind {
		case KindLeaf:
			z.focus = p
			return
		case KindRandom, KindRandomWeighted:
			p = p.children[p.def.pick(&z.rng)]
		default: // KindCustom
			t := z.traversal(p)
			i, next := t.Enter(Context{children: len(p.children), child: -1, rng: &z.rng})
			checkChild(t, "Enter", i, len(p.children))
			z.setTraversal(p, t, next)
			p = p.children[i]
		}
	}
}

// signal reports the focused leaf's outcome and moves the focus to the next
// leaf. It returns Success or Failure when the outcome completed the root
// (the tree has then started over), and Running otherwise.
func (z *zipper[L]) signal(ok bool) Status {
	p := z.focus
	for {
		par := p.parent
		if par == nil {
			z.counts = nil // already empty: every counter below the root was popped
			z.descend(p)
			if ok {
				return Success
			}
			return Failure
		}
		switch par.kind {
		case KindSequence:
			if ok && p.next != nil {
				z.descend(p.next)
				return Running
			}
		case KindSelect:
			if !ok && p.next != nil {
				z.descend(p.next)
				return Running
			}
		case KindRepeatUntilFail:
			if ok {
				z.descend(p)
				return Running
			}
			ok = true
		case KindRepeatUntilSucceed:
			if !ok {
				z.descend(p)
				return Running
			}
		case KindRepeatN:
			left := par.n
			if c := z.counts; c != nil && c.at == par {
				left, z.counts = c.left, c.next
			}
			if left > 1 {
				z.counts = &count[L]{at: par, left: left - 1, next: z.counts}
				z.descend(p)
				return Running
			}
			ok = true
		case KindAlwaysSucceed:
			ok = true
		case KindAlwaysFail:
			ok = false
		case KindNegate:
			ok = !ok
		case KindRandom, KindRandomWeighted:
			// The chosen child's outcome is the node's.
		default: // KindCustom
			t := z.traversal(par)
			c := Context{children: len(par.children), child: int(p.index), rng: &z.rng}
			var step Step
			var next Traversal
			method := "OnSucceed"
			if ok {
				step, next = t.OnSucceed(c)
			} else {
				method = "OnFail"
				step, next = t.OnFail(c)
			}
			z.setTraversal(par, t, next)
			switch step.op {
			case opEnter:
				checkChild(t, method, step.child, len(par.children))
				z.descend(par.children[step.child])
				return Running
			case opSucceed:
				ok = true
			default:
				ok = false
			}
		}
		p = par
	}
}

// traversal returns the current state of custom position p.
func (z *zipper[L]) traversal(p *pos[L]) Traversal {
	if z.custom != nil {
		if t, ok := z.custom.Get(p.id); ok {
			return t
		}
	}
	return p.def.custom
}

// setTraversal records next as custom position p's state, where it changed.
func (z *zipper[L]) setTraversal(p *pos[L], old, next Traversal) {
	if next == nil {
		next = old // a Traversal that returns nil keeps its state
	}
	if sameTraversal(old, next) {
		return
	}
	if z.custom == nil {
		z.custom = immutable.NewMap[int32, Traversal](nil)
	}
	z.custom = z.custom.Set(p.id, next)
}

// depth returns the number of inner positions above the focus.
func (z *zipper[L]) depth() int {
	d := 0
	for p := z.focus.parent; p != nil; p = p.parent {
		d++
	}
	return d
}

// root returns the compiled root position.
func (z *zipper[L]) root() *pos[L] {
	p := z.focus
	for p.parent != nil {
		p = p.parent
	}
	return p
}
