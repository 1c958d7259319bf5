package behaviortree

import (
	"fmt"
	"unsafe"
)

// Fresh evaluation. A node whose subtree is all READY (after the root's
// reset, or a pure subtree's, fluent.go) is updated
// without reading any state: every node it reaches is READY, so a
// Sequence or Select is its reactive counterpart (it goes through its
// children from the first), and each state is written once, as it is
// decided. Without events, this is what the general rules do, in the
// same order of agent calls.

// freshKinds are the kinds that fresh evaluates itself; it hands others
// to update.
var freshKinds = [numKinds]bool{KindRoot: true, KindLeaf: true, KindCondition: true, KindNegate: true, KindAlwaysSucceed: true, KindAlwaysFail: true,
	KindSequence: true, KindSelect: true, KindReactiveSequence: true, KindReactiveSelect: true, KindReactiveParallel: true, KindEmptyInverter: true}

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
	case KindLeaf, KindCondition:
		st = s.leafOutcome(n)
	case KindSequence, KindSelect, KindReactiveSequence, KindReactiveSelect:
		goOn := StateSucceeded
		if h.kind == KindSelect || h.kind == KindReactiveSelect {
			goOn = StateFailed
		}
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
	case KindReactiveParallel:
		var succeeded, failed int32
		for _, c := range s.kids[h.first : h.first+h.n] {
			switch s.fresh(c) {
			case StateSucceeded:
				succeeded++
			case StateFailed:
				failed++
			}
		}
		nd := &s.p.nodes[n]
		switch {
		case nd.max > 0 && succeeded >= nd.max:
			st = StateSucceeded
		case nd.min > 0 && failed >= nd.min:
			st = StateFailed
		default:
			st = StateRunning
		}
	case KindRoot, KindNegate, KindAlwaysSucceed, KindAlwaysFail:
		st = decorated(h.kind, s.fresh(s.kids[h.first]))
		if st == StateReady {
			return st // a child left READY (a guard's abort): so is n, as update leaves it
		}
	case KindEmptyInverter:
		panic(stepFailure{fmt.Errorf("behaviortree.Stepped.Step: node %d (%s): %w", n, s.p.nodes[n].displayName(), ErrEmptyInverter)})
	}
	s.put(n, st)
	return st
}

// put writes state st of node n, which is READY, without events.
func (s *stepper[L]) put(n int32, st State) {
	if s.isSmall {
		s.small |= uint64(st) << (2 * uint(n&31))
	} else {
		s.words[n>>5] |= uint64(st) << (2 * uint(n&31))
	}
}

// Moves. In a movable region, a subtree of plain nodes of movableKinds
// (sequences and selects, their reactive counterparts, the decorators
// that map an outcome, actions and conditions), fresh evaluation needs no
// recursion: what follows a leaf's outcome is fixed by the tree's shape,
// so it is compiled, as compile.go compiles the Elixir style, into one
// move for each leaf and outcome: the states that the outcome decides,
// bottom-up (the leaf's, then those of the ancestors that it completes),
// and the ancestor that then goes on to its next child, with the leaf
// that child calls first. A fresh evaluation from node r calls a leaf,
// writes its move's states at or below r, and goes on to the move's next
// leaf while the ancestor that goes on is r or below it. The outcome
// indexes the moves, so the engine makes no decision of its own between
// two calls but whether to go on.

// movableKinds are the kinds of movable regions.
var movableKinds = [numKinds]bool{KindRoot: true, KindLeaf: true, KindCondition: true, KindNegate: true, KindAlwaysSucceed: true, KindAlwaysFail: true,
	KindSequence: true, KindSelect: true, KindReactiveSequence: true, KindReactiveSelect: true}

// smove is what follows an outcome of a leaf in a movable region.
type smove struct {
	w0, w1 int32 // the states it decides: sprogram.writes[w0:w1], bottom-up
	cont   int32 // the ancestor that goes on to its next child, or -1
	next   int32 // the leaf that the child calls first
	// The same states merged by state word: the first word inline (word,
	// bits), the others in sprogram.merged[m0:m1].
	word   int32
	m0, m1 int32
	top    State // the state of the last node it decides
	bits   uint64
}

// wordBits are the states that a move decides in one state word, to be
// or-ed into it.
type wordBits struct {
	word int32
	bits uint64
}

// moveWrite is a state that a move decides: node's, which is st, set by
// or-ing bits into state word word (node is READY until then).
type moveWrite struct {
	node int32
	word int32
	st   State
	bits uint64
}

// maxMoveWrites bounds the states that moves may decide, per node of the
// tree: a deep chain of sequences that all fail at once would otherwise
// need depth times leaves. Past it, fresh evaluation stays recursive.
const maxMoveWrites = 16

// buildMoves compiles the moves of p's movable regions: leaf c's are
// p.moves[p.hot[c].first:][:3], by outcome RUNNING, SUCCEEDED, FAILED.
func buildMoves[L any](p *sprogram[L]) {
	n := int32(len(p.nodes))
	movable := make([]bool, n)
	first := make([]int32, n) // the leaf that a movable node calls first
	for i := n - 1; i >= 0; i-- {
		s := &p.nodes[i]
		switch {
		case !movableKinds[s.kind] || !s.plain:
		case s.kind == KindLeaf || s.kind == KindCondition:
			movable[i], first[i] = true, i
		case len(s.kids) > 0:
			ok := true
			for _, c := range s.kids {
				ok = ok && movable[c]
			}
			movable[i], first[i] = ok, first[s.kids[0]]
		}
	}
	var moves []smove
	var writes []moveWrite
	var merged []wordBits
	base := make([]int32, n) // a leaf's first move
	limit := maxMoveWrites*int(n) + 1024
	for c := range n {
		if !movable[c] || (p.nodes[c].kind != KindLeaf && p.nodes[c].kind != KindCondition) {
			continue
		}
		base[c] = int32(len(moves))
		for o := StateRunning; o <= StateFailed; o++ {
			mv := smove{w0: int32(len(writes)), cont: -1, next: -1}
			x, st := c, o
			for {
				writes = append(writes, moveWrite{node: x, word: x >> 5, st: st, bits: uint64(st) << (2 * uint(x&31))})
				par := p.nodes[x].parent
				if par < 0 || !movable[par] {
					break
				}
				switch k := p.nodes[par].kind; k {
				case KindSequence, KindSelect, KindReactiveSequence, KindReactiveSelect:
					goOn := StateSucceeded
					if k == KindSelect || k == KindReactiveSelect {
						goOn = StateFailed
					}
					if sib := p.nodes[x].end; st == goOn && sib < p.nodes[par].end {
						mv.cont, mv.next = par, first[sib]
					}
				default:
					st = decorated(k, st)
				}
				if mv.cont >= 0 {
					break
				}
				x = par
			}
			mv.w1 = int32(len(writes))
			var ws []wordBits
			for _, w := range writes[mv.w0:mv.w1] {
				if last := len(ws) - 1; last >= 0 && ws[last].word == w.word {
					ws[last].bits |= w.bits // the nodes go up, so their words never grow
				} else {
					ws = append(ws, wordBits{w.word, w.bits})
				}
				mv.top = w.st
			}
			mv.word, mv.bits = ws[0].word, ws[0].bits
			mv.m0 = int32(len(merged))
			merged = append(merged, ws[1:]...)
			mv.m1 = int32(len(merged))
			moves = append(moves, mv)
		}
		if len(writes) > limit {
			return
		}
	}
	for i := range n {
		if movable[i] {
			if k := p.nodes[i].kind; k == KindLeaf || k == KindCondition {
				p.hot[i].first = base[i]
			}
			p.hot[i].flags |= hotMovable
			if par := p.nodes[i].parent; par < 0 || !movable[par] {
				p.hot[i].flags |= hotTop
			}
		}
	}
	p.moves, p.writes, p.merged, p.firstLeaf = moves, writes, merged, first
}

// freshMoves is fresh for node r of a movable region.
func (s *stepper[L]) freshMoves(r int32) State {
	moves, writes, merged, hot := s.p.moves, s.p.writes, s.p.merged, s.hot
	top := hot[r].is(hotTop) // no move goes above r: its merged writes will do
	words := s.words
	if s.isSmall {
		words = unsafe.Slice(&s.small, 1)
	}
	leaves, act, fl := s.leaves, s.act, s.fl
	leaf := s.p.firstLeaf[r]
	for {
		var o State
		h := &hot[leaf]
		if h.kind == KindLeaf && act != nil {
			s.cur, s.what = leaf, whatAction
			r := act(leaves[leaf])
			if o = leafState(r); o == StateReady {
				s.actionResult(leaf, r) // async, or invalid
				o = s.get(leaf)
			}
		} else if h.kind == KindLeaf && fl != nil {
			s.cur, s.what = leaf, whatAction
			r := fl.do[leaf](s.td)
			if uint8(r) > uint8(Failure) {
				s.badStatus(leaf, r)
			}
			o = State(r) + 1
		} else {
			o = s.leafOutcome(leaf)
		}
		mv := &moves[h.first+int32(o)-1]
		if top {
			words[mv.word] |= mv.bits
			if mv.m1 > mv.m0 {
				for _, w := range merged[mv.m0:mv.m1] {
					words[w.word] |= w.bits
				}
			}
			if mv.cont < 0 {
				return mv.top
			}
		} else {
			st := o
			for _, w := range writes[mv.w0:mv.w1] {
				if w.node < r {
					break // above r: r has completed
				}
				words[w.word] |= w.bits
				st = w.st
			}
			if mv.cont < r {
				return st
			}
		}
		leaf = mv.next
	}
}

// leafOutcome calls action or condition c, which is READY, and returns
// the state it ends in (an action's state is written when it is async).
func (s *stepper[L]) leafOutcome(c int32) State {
	s.cur = c
	fl := s.fl
	if s.hot[c].kind == KindCondition {
		s.what = whatCondition
		var ok bool
		if fl != nil {
			ok = fl.cond[c](s.td)
		} else {
			ok = s.callCondition(s.leaves[c])
		}
		if ok {
			return StateSucceeded
		}
		return StateFailed
	}
	s.what = whatAction
	if fl != nil {
		r := fl.do[c](s.td)
		if uint8(r) > uint8(Failure) {
			s.badStatus(c, r)
		}
		return State(r) + 1
	}
	r := s.callAction(s.leaves[c])
	if st := leafState(r); st != StateReady {
		return st
	}
	s.actionResult(c, r) // async, or invalid
	return s.get(c)
}
