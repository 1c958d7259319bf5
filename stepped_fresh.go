package behaviortree

import (
	"fmt"
	"math"
	"sync/atomic"
	"unsafe"

	"github.com/zipbt/behaviortree/kind"
)

// Fresh evaluation. A node whose subtree is all READY (after the root's
// reset, or a pure subtree's, stepped_pure.go) is updated
// without reading any state: every node it reaches is READY, so a
// Sequence or Select is its reactive counterpart (it goes through its
// children from the first), and each state is written once, as it is
// decided. Without events, this is what the general rules do, in the
// same order of agent calls.

// freshKinds are the kinds that fresh evaluates itself; it hands others
// to update.
var freshKinds = [numKinds]bool{kind.Root: true, kind.Leaf: true, kind.Condition: true, kind.Negate: true, kind.AlwaysSucceed: true, kind.AlwaysFail: true,
	kind.Sequence: true, kind.Select: true, kind.ReactiveSequence: true, kind.ReactiveSelect: true, kind.ReactiveParallel: true, kind.EmptyInverter: true}

// fresh updates node n, whose subtree is all READY and whose parent (if
// any) is plain, without events, and returns the state it ends in, which
// it has written.
func (s *stepper[L]) fresh(n int32) State {
	h := &s.hot[n]
	if !h.is(hotFresh) {
		s.update(n) // a guard on n itself is handled by n's update: nothing above n has guards
		return s.get(n)
	}
	if h.is(hotMovable) {
		return s.freshMoves(n)
	}
	var st State
	switch h.kind {
	case kind.Leaf, kind.Condition:
		st = s.leafOutcome(n)
	case kind.Sequence, kind.Select, kind.ReactiveSequence, kind.ReactiveSelect:
		// seqRules, on children that are all READY: reactive or not, the
		// node goes through them from the first, and those after the one
		// that decides stay READY.
		goOn := seqRules[h.kind].goOn
		st = goOn
		for _, c := range s.kids[h.first : h.first+h.n] {
			cs := s.fresh(c)
			if cs != goOn {
				if cs == StateReady {
					s.fail(c, "child node was not in an expected state")
				}
				st = cs
				break
			}
		}
	case kind.ReactiveParallel:
		var succeeded, failed int32
		for _, c := range s.kids[h.first : h.first+h.n] {
			switch s.fresh(c) {
			case StateSucceeded:
				succeeded++
			case StateFailed:
				failed++
			}
		}
		st = s.parallelOutcome(n, succeeded, failed)
	case kind.Root, kind.Negate, kind.AlwaysSucceed, kind.AlwaysFail:
		st = decorated(h.kind, s.fresh(s.kids[h.first]))
		if st == StateReady {
			return st // a child left READY (a guard's abort): so is n, as update leaves it
		}
	case kind.EmptyInverter:
		panic(stepFailure{fmt.Errorf("behaviortree.Stepped.Step: node %d (%s): %w", n, s.p.nodes[n].displayName(), ErrEmptyInverter)})
	}
	if s.p.trie {
		*s.word(uint(n >> 5)) |= uint64(st) << (2 * uint(n&31))
	} else {
		s.put(n, st)
	}
	return st
}

// put writes state st of node n, which is READY, without events, in
// states of the step's own (clearStates or clearSubtree made them so),
// not in a trie.
func (s *stepper[L]) put(n int32, st State) {
	if s.isSmall {
		s.small |= uint64(st) << (2 * uint(n&31))
	} else {
		s.win[n>>5] |= uint64(st) << (2 * uint(n&31))
	}
}

// Moves. In a movable region, a subtree of plain nodes of movableKinds
// (sequences and selects, their reactive counterparts, the decorators
// that map an outcome, actions and conditions), fresh evaluation needs no
// recursion: what follows a leaf's outcome is fixed by the tree's shape,
// so it is compiled, as compile.go compiles the Elixir style, into one
// move for each leaf and outcome that completes it (SUCCEEDED, FAILED):
// the states that the outcome decides, bottom-up (the leaf's, then those
// of the ancestors that it completes), and the ancestor that then goes
// on to its next child, with the leaf that child calls first. A fresh
// evaluation from node r calls a leaf, writes its move's states at or
// below r, and goes on to the move's next leaf while the ancestor that
// goes on is r or below it. The outcome indexes the moves, so the engine
// makes no decision of its own between two calls but whether to go on.
//
// RUNNING has no move: every kind of a region passes a RUNNING child's
// state up (seqRules never goes on after it, decorated keeps it), so a
// RUNNING leaf makes every node from it up to r RUNNING and ends the
// evaluation, at most once an evaluation; runningUp walks it. Its move
// would have been the longest of the leaf's three (one write a level up
// to the region's top), a third of the moves and most of their writes.
//
// A move's writes, one by node (sprogram.writes), are read only by an
// evaluation from a node r below its region's top, which only a pure
// subtree's update starts (pureUpdate; fresh's recursion reaches a region
// at its top): they are laid out only for the leaves whose parent is
// pure (and so is every node from there down). An evaluation from the
// top writes the states merged by word (smove.word and bits, then
// sprogram.merged).

// movableKinds are the kinds of movable regions.
var movableKinds = [numKinds]bool{kind.Root: true, kind.Leaf: true, kind.Condition: true, kind.Negate: true, kind.AlwaysSucceed: true, kind.AlwaysFail: true,
	kind.Sequence: true, kind.Select: true, kind.ReactiveSequence: true, kind.ReactiveSelect: true}

// smove is what follows an outcome of a leaf in a movable region: 32
// bytes, so that two fit in a cache line.
type smove struct {
	bits  uint64    // the states it decides in state word word, to be or-ed into it
	cont  int32     // the ancestor that goes on to its next child; < 0 for none, and then -cont is the state of the last node it decides
	next  int32     // the leaf that the child calls first
	nextG int32     // next's moves: moves[nextG:][:3] (its hotNode's first)
	m0    int32     // the same states in the words after word: sprogram.merged[m0:][:nm]
	word  uint16    // a tree has at most maxSteppedNodes+1 nodes: 2^15+1 state words
	nw    uint16    // the states it decides: sprogram.writes[w0:][:nw], bottom-up, w0 the move's sprogram.moveW0; 0 when they are not laid out (no pure parent)
	nm    uint16    // a move decides at most one state a level, maxSteppedDepth
	nkind kind.Kind // next's kind
}

// top returns the state of the last node that mv decides, when no
// ancestor goes on (mv.cont < 0).
func (mv *smove) top() State { return State(-mv.cont) }

// wordBits are the states that a move decides in one state word, to be
// or-ed into it.
type wordBits struct {
	word int32
	bits uint64
}

// A moveWrite is a state that a move decides: node<<2 | st (node is READY
// until then). Its state word is node>>5, and it or-s st<<(2*(node&31))
// into it.
type moveWrite uint32

// The budget of a tree's moves, in bytes of moves, writes and merged
// words: movesPerPlace a place and movesSlack more, whatever the tree.
// A leaf has two moves, and each level that an outcome completes takes
// a write more (under a pure parent) and a merged word more when it
// crosses a word, so that all the moves of a big tree could take up to
// depth times leaves (a deep chain of sequences that all fail at once);
// a tree of a few thousand places has them all (movesSlack), a bigger one
// as many as the budget holds, which bounds the compile's memory by a
// constant per place. The regions without moves are evaluated by fresh
// recursively. The moves of a leaf take 72 bytes at least (two moves and
// their moveW0s) and a leaf is a place, so movesPerPlace is above the
// 88 bytes a place of a wide select of leaves takes (their successes
// merge into the select's word): such a select of 10,000 conditions has
// all its moves (at 48 it had none, and took about 1.8 times as long a
// step), a balanced tree of sequences and selects takes 45 a place. (The
// rest of a compiled place takes about 145 bytes with an int leaf value:
// snode, hotNode, kids, leaves.)
const (
	movesPerPlace = 96
	movesSlack    = 256 << 10
)

// smove and moveWrite hold the indexes, words and paths of a tree within
// maxSteppedNodes and maxSteppedDepth (an overflow would not compile).
const (
	_ = uint16((maxSteppedNodes + 1) >> 5)
	_ = uint16(maxSteppedDepth)
	_ = uint32((maxSteppedNodes + 1) << 2)
)

// The bytes that moves take, for the budget.
const (
	moveBytes  = uint64(unsafe.Sizeof(smove{}) + unsafe.Sizeof(int32(0))) // and its moveW0
	writeBytes = uint64(unsafe.Sizeof(moveWrite(0)))
	mergeBytes = uint64(unsafe.Sizeof(wordBits{}))
)

// movesBudget returns the budget of the moves of a tree of places.
func movesBudget(places int) uint64 { return movesPerPlace*uint64(places) + movesSlack }

// buildMoves compiles the moves of p's movable regions, in at most budget
// bytes: leaf c's are p.moves[p.hot[c].first:][:2], by outcome SUCCEEDED,
// FAILED.
//
// It first counts, bottom-up, what each subtree's moves would take were
// it a region (its cost in bytes), then takes the regions from the root
// down, in preorder, while the budget holds them: a subtree whose moves
// do not fit is no region, its children are candidates in its place (a
// leaf alone is no region: moves would not make it faster).
// Then it lays the moves out in arrays of the exact size: its memory is
// O(places) (the counts) plus the budget.
func buildMoves[L any](p *sprogram[L], budget uint64) {
	n := int32(len(p.nodes))
	budget = min(budget, math.MaxUint32-1) // the costs are uint32s
	movable, first, cost := moveCosts(p, budget)
	left, some := budget, false
	for i := int32(0); i < n; {
		switch {
		case !movable[i]:
			i++
		case len(p.nodes[i].kids) == 0: // a leaf alone: fresh calls it as fast
			movable[i] = false
			i++
		case uint64(cost[i]) <= left: // the top of a region
			left -= uint64(cost[i])
			i, some = p.nodes[i].end, true
		default: // too big: its children are candidates
			movable[i] = false
			i++
		}
	}
	cost = nil
	if some {
		layMoves(p, movable, first)
	}
}

// moveCosts returns, for each node of p, whether its subtree could be a
// movable region, the leaf that it calls first, and the bytes that its
// moves would take were it the top of a region (at most budget+1: more
// is too much).
func moveCosts[L any](p *sprogram[L], budget uint64) (movable []bool, first []int32, cost []uint32) {
	n := int32(len(p.nodes))
	movable = make([]bool, n)
	first = make([]int32, n)
	cost = make([]uint32, n)
	// reach[i][o-SUCCEEDED] counts the moves that decide node i's state,
	// o; reachW those of them whose writes are laid out (movesWrites).
	reach := make([][2]uint32, n)
	reachW := make([][2]uint32, n)
	capped := func(c uint64) uint32 { return uint32(min(c, budget+1)) }
	for i := n - 1; i >= 0; i-- { // children come after their parent
		s := &p.nodes[i]
		switch {
		case !movableKinds[s.kind] || !s.plain:
		case s.kind == kind.Leaf || s.kind == kind.Condition:
			movable[i], first[i] = true, i
			reach[i] = [2]uint32{1, 1}
			cost[i] = capped(2 * moveBytes)
			if movesWrites(p, i) {
				reachW[i] = [2]uint32{1, 1}
				cost[i] = capped(2 * (moveBytes + writeBytes))
			}
		case len(s.kids) > 0:
			ok := true
			for _, c := range s.kids {
				ok = ok && movable[c]
			}
			if !ok {
				break
			}
			movable[i], first[i] = true, first[s.kids[0]]
			seq, goOn := goesOn(s.kind)
			var r, rw [2]uint64
			c := uint64(0)
			for j, k := range s.kids {
				c += uint64(cost[k])
				last := j == len(s.kids)-1
				for o := StateSucceeded; o <= StateFailed; o++ {
					m, mw := uint64(reach[k][o-StateSucceeded]), uint64(reachW[k][o-StateSucceeded])
					to := o
					switch {
					case m == 0:
						continue
					case seq && o == goOn && !last:
						continue // the move goes on to k's next sibling
					case !seq:
						to = decorated(s.kind, o)
					}
					r[to-StateSucceeded] += m
					rw[to-StateSucceeded] += mw
					if k>>5 != i>>5 {
						c += m * mergeBytes // i's state is in another word than k's
					}
				}
			}
			reach[i] = [2]uint32{uint32(min(r[0], math.MaxUint32)), uint32(min(r[1], math.MaxUint32))}
			reachW[i] = [2]uint32{uint32(min(rw[0], math.MaxUint32)), uint32(min(rw[1], math.MaxUint32))}
			cost[i] = capped(c + (rw[0]+rw[1])*writeBytes)
		}
	}
	return movable, first, cost
}

// movesWrites reports whether the moves of leaf c lay out their writes:
// whether its parent is pure (the top of a pure subtree that an update
// may evaluate from below its region's top).
func movesWrites[L any](p *sprogram[L], c int32) bool {
	par := p.nodes[c].parent
	return par >= 0 && p.pure != nil && p.pure[par]
}

// layMoves lays out the moves of the regions of movable.
func layMoves[L any](p *sprogram[L], movable []bool, first []int32) {
	n := int32(len(p.nodes))
	// Count the moves, then lay them out.
	var nmoves, nwrites, nmerged int
	var path []moveWrite
	for c := range n {
		if !movable[c] || (p.nodes[c].kind != kind.Leaf && p.nodes[c].kind != kind.Condition) {
			continue
		}
		for o := StateSucceeded; o <= StateFailed; o++ {
			path, _, _ = p.move(path[:0], movable, first, c, o)
			nmoves++
			if movesWrites(p, c) {
				nwrites += len(path)
			}
			for j := 1; j < len(path); j++ {
				if path[j].node()>>5 != path[j-1].node()>>5 { // another state word
					nmerged++
				}
			}
		}
	}
	moves := make([]smove, 0, nmoves)
	w0s := make([]int32, 0, nmoves)
	writes := make([]moveWrite, 0, nwrites)
	merged := make([]wordBits, 0, nmerged)
	for c := range n {
		if !movable[c] || (p.nodes[c].kind != kind.Leaf && p.nodes[c].kind != kind.Condition) {
			continue
		}
		p.hot[c].first = int32(len(moves))
		withWrites := movesWrites(p, c)
		for o := StateSucceeded; o <= StateFailed; o++ {
			var cont, next int32
			path, cont, next = p.move(path[:0], movable, first, c, o)
			mv := smove{cont: cont, next: next, m0: int32(len(merged))}
			w0s = append(w0s, int32(len(writes)))
			if withWrites {
				mv.nw = uint16(len(path))
				writes = append(writes, path...)
			}
			// Merge the states by word: the nodes go up, so their words
			// never grow; the first word is inline.
			inline := true
			flush := func(word int32, bits uint64) {
				if inline {
					mv.word, mv.bits, inline = uint16(word), bits, false
				} else {
					merged = append(merged, wordBits{word, bits})
				}
			}
			word, bits := path[0].node()>>5, uint64(0)
			for _, w := range path {
				if w.node()>>5 != word {
					flush(word, bits)
					word, bits = w.node()>>5, 0
				}
				bits |= w.bits()
			}
			flush(word, bits)
			if cont < 0 {
				mv.cont = -int32(path[len(path)-1] & 3) // the state of the last node it decides
			}
			mv.nm = uint16(len(merged) - int(mv.m0))
			moves = append(moves, mv)
		}
	}
	if len(moves) != nmoves || len(writes) != nwrites || len(merged) != nmerged {
		panic("behaviortree.NewStepped: internal error: the moves were not counted right")
	}
	for i := range moves { // the next leaf's moves and kind, now laid out
		if mv := &moves[i]; mv.cont >= 0 {
			mv.nextG, mv.nkind = p.hot[mv.next].first, p.hot[mv.next].kind
		}
	}
	for i := range n {
		if movable[i] {
			p.hot[i].flags |= hotMovable
			if par := p.nodes[i].parent; par < 0 || !movable[par] {
				p.hot[i].flags |= hotTop
			}
		}
	}
	p.moves, p.moveW0, p.writes, p.merged, p.firstLeaf = moves, w0s, writes, merged, first
}

// move appends to path the states that leaf c's outcome o decides,
// bottom-up, in the regions of movable, and returns it with the ancestor
// that then goes on to its next child (or -1) and the leaf that the
// child calls first.
func (p *sprogram[L]) move(path []moveWrite, movable []bool, first []int32, c int32, o State) ([]moveWrite, int32, int32) {
	x, st := c, o
	for {
		path = append(path, moveWrite(x)<<2|moveWrite(st))
		par := p.nodes[x].parent
		if par < 0 || !movable[par] {
			return path, -1, -1
		}
		k := p.nodes[par].kind
		if seq, goOn := goesOn(k); !seq {
			st = decorated(k, st)
		} else if sib := p.nodes[x].end; st == goOn && sib < p.nodes[par].end {
			return path, par, first[sib]
		}
		x = par
	}
}

// node returns the node whose state w decides.
func (w moveWrite) node() int32 { return int32(w >> 2) }

// bits returns the bits that w or-s into its state word.
func (w moveWrite) bits() uint64 { return uint64(w&3) << (2 * uint(w>>2&31)) }

// goesOn reports whether k is a sequence or a select, and the state of a
// child after which it goes on to the next (seqRules).
func goesOn(k kind.Kind) (bool, State) {
	r := seqRules[k]
	return r.is, r.goOn
}

// freshMoves is fresh for node r of a movable region.
func (s *stepper[L]) freshMoves(r int32) State {
	moves, writes, merged, hot := s.p.moves, s.p.writes, s.p.merged, s.hot
	top := hot[r].is(hotTop) // no move goes above r: its merged writes will do
	words := s.flatStates()
	if top && s.direct() {
		if words == nil {
			return s.freshMovesTrieDirect(r)
		}
		return s.freshMovesDirect(r, words)
	}
	if words == nil {
		return s.freshMovesTrie(r)
	}
	leaves, act, cond, fl := s.leaves, s.act, s.cond, s.fl
	leaf := s.p.firstLeaf[r]
	for {
		var o State
		h := &hot[leaf]
		if h.kind == kind.Leaf && act != nil {
			s.cur, s.calling = leaf, fnAction
			r := act(leaves[leaf])
			if o = leafState(r); o == StateReady {
				s.actionResult(leaf, r) // async, or invalid
				o = s.get(leaf)
			}
		} else if h.kind == kind.Condition && cond != nil {
			s.cur, s.calling = leaf, fnCondition
			o = StateFailed
			if cond(leaves[leaf]) {
				o = StateSucceeded
			}
		} else if h.kind == kind.Leaf && fl != nil {
			s.cur, s.calling = leaf, fnAction
			r := fl.do[leaf](s.td) // machine.action's choice for a Fluent leaf
			if o = leafState(Result{Status: r}); o == StateReady {
				s.badStatus(leaf, r)
			}
		} else {
			o = s.leafOutcome(leaf)
		}
		if o == StateRunning {
			return s.runningUp(leaf, r)
		}
		mv := &moves[h.first+int32(o-StateSucceeded)]
		if top {
			words[mv.word] |= mv.bits
			if mv.nm > 0 {
				for _, w := range merged[mv.m0:][:mv.nm] {
					words[w.word] |= w.bits
				}
			}
			if mv.cont < 0 {
				return mv.top()
			}
		} else {
			st := o
			if mv.nw == 0 {
				noWrites()
			}
			for _, w := range writes[s.p.moveW0[h.first+int32(o-StateSucceeded)]:][:mv.nw] {
				x := w.node()
				if x < r {
					break // above r: r has completed
				}
				words[x>>5] |= w.bits()
				st = State(w & 3)
			}
			if mv.cont < r {
				return st
			}
		}
		leaf = mv.next
	}
}

// freshMovesTrie is freshMoves for words in a trie, which it writes in
// the leaves of the step's own, or through wordForWrite: the same code but for the writes, kept apart so that the
// loop of flat words is as small as it was before the trie. (A change to
// one is a change to both: TestSteppedTrieAgreesWithFlat, and the suite
// run with BT_FLAT_WORDS=0, compare them.)
func (s *stepper[L]) freshMovesTrie(r int32) State {
	moves, writes, merged, hot := s.p.moves, s.p.writes, s.p.merged, s.hot
	top := hot[r].is(hotTop) // no move goes above r: its merged writes will do
	leaves, act, cond, fl := s.leaves, s.act, s.cond, s.fl
	leaf := s.p.firstLeaf[r]
	if s.owner == 0 {
		s.owner = stepOwners.Add(1)
	}
	lt, owner := s.ltab.l, s.owner // a state leaf of lt of owner is the step's own
	for {
		var o State
		h := &hot[leaf]
		if h.kind == kind.Leaf && act != nil {
			s.cur, s.calling = leaf, fnAction
			r := act(leaves[leaf])
			if o = leafState(r); o == StateReady {
				s.actionResult(leaf, r) // async, or invalid
				o = s.get(leaf)
			}
		} else if h.kind == kind.Condition && cond != nil {
			s.cur, s.calling = leaf, fnCondition
			o = StateFailed
			if cond(leaves[leaf]) {
				o = StateSucceeded
			}
		} else if h.kind == kind.Leaf && fl != nil {
			s.cur, s.calling = leaf, fnAction
			r := fl.do[leaf](s.td) // machine.action's choice for a Fluent leaf
			if o = leafState(Result{Status: r}); o == StateReady {
				s.badStatus(leaf, r)
			}
		} else {
			o = s.leafOutcome(leaf)
		}
		if o == StateRunning {
			return s.runningUp(leaf, r)
		}
		mv := &moves[h.first+int32(o-StateSucceeded)]
		if top {
			if l := lt[mv.word>>leafBits]; l.owner == owner {
				l.w[mv.word&leafMask] |= mv.bits
			} else {
				*s.wordForWrite(uint(mv.word)) |= mv.bits
			}
			for _, w := range merged[mv.m0:][:mv.nm] {
				*s.wordForWrite(uint(w.word)) |= w.bits
			}
			if mv.cont < 0 {
				return mv.top()
			}
		} else {
			st := o
			if mv.nw == 0 {
				noWrites()
			}
			for _, w := range writes[s.p.moveW0[h.first+int32(o-StateSucceeded)]:][:mv.nw] {
				x := w.node()
				if x < r {
					break // above r: r has completed
				}
				if l := lt[x>>(5+leafBits)]; l.owner == owner {
					l.w[x>>5&leafMask] |= w.bits()
				} else {
					*s.wordForWrite(uint(x >> 5)) |= w.bits()
				}
				st = State(w & 3)
			}
			if mv.cont < r {
				return st
			}
		}
		leaf = mv.next
	}
}

// Direct moves. From the top of a region, when the agent's plain Action
// and Condition are what every leaf calls (machine.act and cond, not
// during a step cache's run), freshMovesDirect and freshMovesTrieDirect
// are freshMoves's loop in fewer instructions and shorter chains of
// loads: a move names the next leaf's moves and kind (nextG, nkind), so
// that the next call waits for the move alone, not for the leaf's
// hotNode too; and the answer picks the move by a branch, which the
// processor predicts and runs ahead of, rather than by an index computed
// from the answer. In a trie, the states of the moves' first words are
// or-ed into one word held aside while the moves stay in it, and written
// (through the table of leaves, or a copy of the path) when they move on
// to another word and at the end. Nothing reads them in between: a move
// writes only READY states, which no other move of the evaluation writes,
// and an async answer's state, which actionResult writes itself, is its
// own leaf's, the one state that asyncMove reads. Whatever the order of
// the or-s, the words end the same.

// directMovesOff switches the direct moves off, for the tests: freshMoves
// then takes its general loop.
var directMovesOff atomic.Bool

// direct reports whether fresh evaluation may take the direct moves: the
// agent's plain functions, for every leaf the tree has.
func (s *stepper[L]) direct() bool {
	return s.fl == nil && (s.act != nil || !s.p.uses[usesAction]) && (s.cond != nil || !s.p.uses[usesCondition]) && !directMovesOff.Load()
}

// freshMovesDirect is freshMoves for the top r of a region, in flat
// words, with direct calls.
func (s *stepper[L]) freshMovesDirect(r int32, words []uint64) State {
	moves, merged, leaves := s.p.moves, s.p.merged, s.leaves
	act, cond := s.act, s.cond
	leaf := s.p.firstLeaf[r]
	g, k := s.hot[leaf].first, s.hot[leaf].kind
	for {
		var mv *smove
		s.cur = leaf
		if k == kind.Condition {
			s.calling = fnCondition
			if cond(leaves[leaf]) {
				mv = &moves[g]
			} else {
				mv = &moves[g+1]
			}
		} else {
			s.calling = fnAction
			res := act(leaves[leaf])
			switch {
			case res.Async != nil || res.Status > Failure:
				mv = s.asyncMove(leaf, r, g, res)
			case res.Status == Success:
				mv = &moves[g]
			case res.Status == Failure:
				mv = &moves[g+1]
			default:
				s.runningUp(leaf, r)
				mv = &runningMove
			}
		}
		words[mv.word] |= mv.bits
		if mv.nm > 0 {
			for _, w := range merged[mv.m0:][:mv.nm] {
				words[w.word] |= w.bits
			}
		}
		if mv.cont < 0 {
			return mv.top()
		}
		leaf, g, k = mv.next, mv.nextG, mv.nkind
	}
}

// freshMovesTrieDirect is freshMovesDirect for words in a trie. Its
// pick of the move from the answer is freshMovesDirect's, written out
// again: as a function it is past the inliner's budget, and would be a
// call per leaf in the loop that these moves exist to shorten.
func (s *stepper[L]) freshMovesTrieDirect(r int32) State {
	moves, merged, leaves := s.p.moves, s.p.merged, s.leaves
	act, cond := s.act, s.cond
	leaf := s.p.firstLeaf[r]
	g, k := s.hot[leaf].first, s.hot[leaf].kind
	aw, acc := uint(moves[g].word), uint64(0) // the word held aside, and its states
	for {
		var mv *smove
		s.cur = leaf
		if k == kind.Condition {
			s.calling = fnCondition
			if cond(leaves[leaf]) {
				mv = &moves[g]
			} else {
				mv = &moves[g+1]
			}
		} else {
			s.calling = fnAction
			res := act(leaves[leaf])
			switch {
			case res.Async != nil || res.Status > Failure:
				mv = s.asyncMove(leaf, r, g, res)
			case res.Status == Success:
				mv = &moves[g]
			case res.Status == Failure:
				mv = &moves[g+1]
			default:
				s.runningUp(leaf, r)
				mv = &runningMove
			}
		}
		if w := uint(mv.word); w != aw {
			s.orTrieWord(aw, acc)
			aw, acc = w, 0
		}
		acc |= mv.bits
		if mv.nm > 0 {
			for _, w := range merged[mv.m0:][:mv.nm] {
				s.orTrieWord(uint(w.word), w.bits)
			}
		}
		if mv.cont < 0 {
			if acc != 0 { // not runningMove's
				s.orTrieWord(aw, acc)
			}
			return mv.top()
		}
		leaf, g, k = mv.next, mv.nextG, mv.nkind
	}
}

// runningUp writes RUNNING for leaf, which answered Running (or is
// pending), and for each of its ancestors up to r, and returns RUNNING:
// what a RUNNING outcome's move would write, were there one (see Moves).
//
//go:noinline
func (s *stepper[L]) runningUp(leaf, r int32) State {
	for x := leaf; ; x = s.p.nodes[x].parent {
		*s.word(uint(x >> 5)) |= uint64(StateRunning) << (2 * uint(x&31))
		if x == r {
			return StateRunning
		}
	}
}

// runningMove is what the direct moves take for a RUNNING answer, once
// runningUp has written its states: it or-s nothing into the first state
// word, and ends the evaluation in RUNNING. (A RUNNING answer has no move
// of its own; the loops keep one shape for every answer.)
var runningMove = smove{cont: -int32(StateRunning)}

// asyncMove handles action leaf's answer res, async or invalid (leaf's
// moves are moves[g:][:2]), and returns the move of the leaf's state.
//
//go:noinline
func (s *stepper[L]) asyncMove(leaf, r, g int32, res Result) *smove {
	s.actionResult(leaf, res)
	if st := s.get(leaf); st != StateRunning {
		return &s.p.moves[g+int32(st-StateSucceeded)]
	}
	s.runningUp(leaf, r)
	return &runningMove
}

// noWrites abandons an evaluation from below a region's top that reached
// a leaf whose moves lay out no writes (movesWrites): only a pure subtree
// starts one, and its leaves have them.
func noWrites() {
	panic("behaviortree.Stepped.Step: internal error: moves without their writes below a region's top")
}

// leafOutcome calls action or condition c, which is READY, and returns
// the state it ends in (an action's state is written when it is async).
func (s *stepper[L]) leafOutcome(c int32) State {
	s.cur = c
	if s.hot[c].kind == kind.Condition {
		s.calling = fnCondition
		if s.callCondition(s.leaves[c]) {
			return StateSucceeded
		}
		return StateFailed
	}
	s.calling = fnAction
	r := s.callAction(s.leaves[c])
	if st := leafState(r); st != StateReady {
		return st
	}
	s.actionResult(c, r) // async, or invalid
	return s.get(c)
}
