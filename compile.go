package behaviortree

import "github.com/zipbt/behaviortree/kind"

// This file holds the compiler: it lays a definition out as a transition
// table of positions, one per place in the tree.
//
// A definition's nodes may be shared (one Node at several places, or in
// several trees), so they cannot know their parent. Compiling gives every
// place its own position, with a parent link, its index there, its next
// sibling and its precomputed first descent, and works out for each
// position and outcome where the traversal goes next: the runtime rule of
// every Value/Succeed/Fail kind is in [place.ended], which reads the rule of
// sequences and selects from seqRules, as the stepped engine does, and the
// thresholds of parallel kinds from parallelNeeds.

// program is a compiled definition: a transition table. Its rows are the
// positions in preorder; a row's up field holds the moves to make when that
// position ends: up[0] when it fails, up[1] when it succeeds.
//
// Invariants: all[i].id == i; all[0] is the root; every position's enter is
// a leaf, a Random, a RandomWeighted, a custom or a parallel position in its
// subtree.
type program[L any] struct {
	all         []place[L]
	random      bool   // some position draws at random on entry
	par         bool   // some position is a parallel (parallel.go)
	custom      bool   // some position is a custom node
	fingerprint uint64 // hash of the structure, for saved states
}

// place is one place in a compiled definition. The fields that a signal
// and Value read, up and leaf, come first: for a small leaf type they share
// the place's first cache line.
type place[L any] struct {
	placeHead            // the slow path of a signal (tree.go)
	up        [2]move[L] // what happens when this position ends: up[0] failed, up[1] succeeded
	leaf      L
	kind      kind.Kind
	index     int32    // index in parent.children
	id        int32    // preorder number
	n         int32    // RepeatN's count
	need      [2]int32 // a parallel's thresholds: need[0] failures to fail, need[1] successes to succeed
	parent    *place[L]
	next      *place[L] // next sibling, or nil
	enter     *place[L] // where entering this position afresh descends to
	children  []*place[L]
	def       *node[L]
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
func compile[L any](root *node[L]) *program[L] { return compileWith(root, true) }

// compileWith is compile, with leafMoves false for the plain moves only:
// no move is compiled to its leaf (move.toLeaf), so that every signal takes
// the general loop. Tests compare the two (TestSignalFastPathMatchesRules).
func compileWith[L any](root *node[L], leafMoves bool) *program[L] {
	prog := &program[L]{all: make([]place[L], root.size), random: root.random, custom: root.hasCust, par: root.frontier}
	kids := make([]*place[L], root.size-1) // backing store of every children slice
	type item struct {
		nd     *node[L]
		parent *place[L]
		index  int
	}
	stack := []item{{nd: root}}
	id := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		p := &prog.all[id]
		*p = place[L]{placeHead: placeHead{signalled: signalledWords[L]}, kind: it.nd.kind, index: int32(it.index), id: int32(id), n: int32(it.nd.n), parent: it.parent, def: it.nd, leaf: it.nd.leaf}
		p.need = parallelNeeds(it.nd)
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
		switch {
		case len(p.children) == 0, p.kind == kind.Random, p.kind == kind.RandomWeighted, p.kind == kind.Custom, kinds[p.kind].frontier:
			// Leaves of every kind stop a descent (only the stepped engine
			// runs those that are not kind.Leaf: Start refuses them).
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
	// Then every move that ends on a static descent to a leaf goes there
	// directly, unless parallel positions need the slow path's frames.
	if !prog.par && leafMoves {
		for i := range prog.all {
			p := &prog.all[i]
			for o := range p.up {
				p.up[o] = p.up[o].toLeaf(o == 1)
			}
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
	to   *place[L]
	kind moveKind
	ok   bool // the outcome that arrives, for moveRepeat and moveCustom; the root's, for moveRestart
	made made // for moveLeaf: the version's status (the root's outcome if it ended and started over, else Running) and signal
}

type moveKind uint8

const (
	moveEnter    moveKind = iota // enter to afresh; the tree is running
	moveRestart                  // the root ended with ok; enter to, the root, afresh
	moveRepeat                   // to, a RepeatN's child, ended: ask the counter
	moveCustom                   // to, a custom node's child, ended with ok: ask the node
	moveParallel                 // to, a parallel's child, ended with ok: record it in the parallel's frame
	moveLeaf                     // focus to, a leaf, and make the version made: a move whose descent is static (toLeaf)
)

// toLeaf returns m, a move made by the signal ok, made direct when its
// descent is static: a move that enters a position whose first descent
// reaches a leaf without a draw, a custom node or a parallel becomes a
// moveLeaf to that leaf, so that a signal is one load. Other moves are
// returned as they are.
func (m move[L]) toLeaf(ok bool) move[L] {
	switch m.kind {
	case moveEnter:
		if e := m.to.enter; e.kind == kind.Leaf {
			return move[L]{to: e, kind: moveLeaf, made: madeOf(Running, signalOf(ok))}
		}
	case moveRestart:
		if e := m.to.enter; e.kind == kind.Leaf {
			return move[L]{to: e, kind: moveLeaf, made: madeOf(signalOf(m.ok), signalOf(ok))}
		}
	}
	return m
}

// ended returns the move for p ending with outcome ok. p's parent's moves
// must already be set.
func (p *place[L]) ended(ok bool) move[L] {
	par := p.parent
	if par == nil {
		return move[L]{to: p, kind: moveRestart, ok: ok}
	}
	if r := seqRules[par.kind]; r.is {
		// A sequence or a select (Start refuses their reactive twins): the
		// stepped engine's rule, read from its table. It goes on to the
		// next child after the outcome goOn; any other outcome, or the
		// last child's, is its own.
		if ok == (r.goOn == StateSucceeded) && p.next != nil {
			return move[L]{to: p.next}
		}
		if ok {
			return par.up[1]
		}
		return par.up[0]
	}
	up := par.up[0]
	switch par.kind {
	case kind.RepeatUntilFail:
		if ok {
			return move[L]{to: p}
		}
		up = par.up[1]
	case kind.RepeatUntilSucceed:
		if !ok {
			return move[L]{to: p}
		}
		up = par.up[1]
	case kind.RepeatN:
		return move[L]{to: p, kind: moveRepeat, ok: ok}
	case kind.Custom:
		return move[L]{to: p, kind: moveCustom, ok: ok}
	case kind.Parallel, kind.Race, kind.Threshold:
		return move[L]{to: p, kind: moveParallel, ok: ok}
	case kind.AlwaysSucceed:
		up = par.up[1]
	case kind.AlwaysFail:
		// up[0]
	case kind.Negate:
		if !ok {
			up = par.up[1]
		}
	default: // kind.Random, kind.RandomWeighted: the chosen child's outcome is the node's
		if ok {
			up = par.up[1]
		}
	}
	return up
}
