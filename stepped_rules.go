package behaviortree

// The rules of the stepped engine: one step of a version (stepRules in
// stepped.go makes a stepper and calls stepTree). Each kind's rule has one
// home: run's case for it, or the method run calls (DESIGN.md, "Engine",
// lists them). The fast paths below are derived from those rules (the
// same tables and functions, or code that is checked against them), never
// a second copy of one:
//
//	path               applies when                         invariant                                 falls back to
//	-----------------  -----------------------------------  ----------------------------------------  ------------------------------
//	step cache         a tree of <= 64 nodes with no extra  a step is a function of the state word    the rules (stepRules); a miss
//	(stepped_cache.go,  words, no events, no pending async   (two words past 32 nodes) and of the      replays the answers given so
//	stepSmall,         result, the cache not switched off   agent's answers: the trie of calls from   far; once full (start keys or
//	stepWide)                                               each start key, answer by answer, ends    calls), a window of 1,024 steps
//	                                                        in the step's states; a completed root's  with > 1/8 misses switches it
//	                                                        key is READY's (the step resets first)    off for good
//	fresh evaluation   the root had completed (all READY    every node below is READY: no state is    update, for a node that is not
//	(fresh,            after the reset) or a pure subtree,  read, each is written once, as decided;   hotFresh (guards or callbacks
//	stepped_fresh.go)  no events                            seqRules, decorated, parallelOutcome      on it, a stateful kind)
//	compiled moves     inside fresh: a movable region       a leaf's SUCCEEDED or FAILED decides      fresh's recursion, outside the
//	(freshMoves)       (plain sequences and selects, their  fixed states and the next leaf, compiled  regions (a region must fit the
//	                   reactive twins, decorators, leaves)  from seqRules and decorated (goesOn);     moves budget)
//	                                                        RUNNING makes every node up to r RUNNING
//	                                                        and ends (runningUp: no move); writes by
//	                                                        node only under a pure parent, the only
//	                                                        start below a region's top (movesWrites)
//	direct moves       compiled moves from a region's top,  the same moves, the next leaf's moves     freshMoves's general loop
//	(freshMovesDirect, the agent's plain Action and         and kind read from the move, the outcome  (fluent, timed or memory
//	stepped_fresh.go)  Condition called directly            choosing it by a branch                   forms; a cache's run)
//	reused words       a step of flat words whose own copy  a copy no version holds may be written;   a new copy; with the switch off
//	(keepWords,        ends as the version's words; trie    a chunk's nodes are handed out once, and  (reuseWordsOff), one allocation
//	stepped_words.go)  nodes copied by a step               none that a version holds is written      a node
//	pure evaluation    a memoryless subtree (reactive       updating it afresh is what the rules      run's reactive cases
//	(pureUpdate,       kinds, decorators, leaves, no        give: it keeps nothing between updates
//	stepped_pure.go)   guards or callbacks), no events,
//	                   no pending async result
//	direct calls       the agent has only plain Action or   stepped_agent.go's choice is the same for machine.action, condition
//	(machine.act,      Condition; a Fluent tree's leaves    every node                                and callback
//	cond, fluent)      (not during a cache replay)
//	inline action in   a plain action child, no events, no  what run's kind.Leaf case does (leafNow)    updateFull (guards, callbacks)
//	run's sequence     pending async result                                                           or run
//	loop
//	resume search      a sequence or select, not reactive,  its children's states: goOn..., then the  the inlined pass (wentOn,
//	(wentOnFar)        of more than wentOnFew children,     deciding one, then READY (checkReachable  wentOnTrie), for fewer
//	                   whose first child went on            states it, Restore checks it)             children
//	resume path        a RUNNING root whose running path    a RUNNING node that passes to a RUNNING   the rules (resume declines
//	(resume,           goes through sequences and selects   child calls only guards and step          before any call); after a
//	stepped_resume.go)  (not reactive), decorators, repeats, callbacks on the way; if they hold and the   call that changes something,
//	                   lottos, to an action; no events, no  action answers Running, nothing changes:  the rules replaying the
//	                   pending async result                 the new version is the version            answers given (cacheRun)
//	resume entry       no step cache (or it is off), no     the hint's resumePath (or one of          stepResume (resume: any agent,
//	(stepBig,          events, a version without extras     resumeAlts alternates, stepMissed)        memory), stepMissed (then the
//	stepMissed,        (async results, memory), the plain   holds: the action and every node above    search at one miss in 8, else
//	stepped_resume.go) Action; Step and Tick call it        it RUNNING, each one the rules pass       the rules), stepFull (guards,
//	                   straight when there is no cache      through with no check but its state       callbacks on the way:
//	                                                        (resumeUps): the action is the running    resumeFull); after a call that
//	                                                        path's end, and nothing on the way        is not Running, resumeAfter
//	                                                        calls anything (flat, small, a trie)
//
// The differential tests hold each path to the rules: the conformance
// corpora replayed with events (the rules only) and without (every fast
// path), TestFreshMatchesRules, TestDirectMovesMatchRules, TestReuseWordsConcurrent, the step cache tests (stepped_cache_test.go,
// stepped_cache_wide_test.go, TestMemoryStepCacheAgrees), TestWentOnMatchesScan, TestResumePathMatchesRules, TestResumePathConcurrent, FuzzStepQuiet, FuzzRestoreStepped (Step
// against StepWith from every restored state) and proptest's law S5.

import (
	"fmt"
	"math"
	"math/bits"
	"runtime/debug"
	"time"
	"unsafe"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

// stepper is the working state of one step: a copy-on-write view of a
// version.
type stepper[L any] struct {
	m       *machine[L]
	p       *sprogram[L]
	isSmall bool           // p.small
	hot     []hotNode      // p.hot
	kids    []int32        // p.kids
	leaves  []L            // p.leaves
	act     func(L) Result // the machine's act, when the step cache takes no part
	cond    func(L) bool   // the machine's cond, likewise
	fl      *fluentFuncs   // the machine's fluent, likewise
	mr      *cacheRun[L]   // the step cache's part in the step, or nil
	bb      *Blackboard    // the step's memory, when the agent has memory forms
	small   uint64         // a small tree's node states
	// A big tree's words (stepped_words.go): the node states, the slots,
	// the generator. Flat words are words, the version's or (owned) the
	// step's own copy; a trie's are under root, and its leaves of node
	// states are in the table ltab, for get (nil for flat words).
	words []uint64
	owned bool
	from  unsafe.Pointer // flat words: the version's, which owned words replaced
	root  unsafe.Pointer
	owner uint64 // the step's owner token in the trie, 0 until it writes
	ltab  *leafTable
	// The window: words [base, base+len(win)) of a big tree, writable when
	// wr is set. For flat words, all of words.
	win  []uint64
	base uint
	wr   bool
	// (A small tree's states are not in the window, a pointer to s.small:
	// any pointer field that an agent function may see, such as bb, makes
	// the escape analysis move what every pointer field of s points to,
	// and s with it, to the heap.)
	async   *asyncEntry
	ids     uint64 // the last id given to an async result (stepped_async.go)
	emit    func(Event[L])
	names   []string  // the nodes' names, for the events, when emit is set
	cur     int32     // the node whose agent function is being called
	calling agentFunc // and which function
	gfSucc  bool      // the guard that failed last has succeedOnAbort
	td      TimeData
	ticked  bool // a Tick's step: a wait it starts without a clock option counts td
}

// start makes s the working state of a step of t, calling events (if not
// nil) with what the step does.
func (s *stepper[L]) start(t *Stepped[L], events func(Event[L])) {
	m := t.m
	s.m, s.p, s.isSmall = m, m.p, m.p.small
	s.hot, s.kids, s.leaves = s.p.hot, s.p.kids, s.p.leaves
	s.small, s.async, s.ids = t.small, t.pending(), t.ids()
	s.emit, s.cur = events, -1
	if events != nil {
		s.names = s.p.nodeNames()
	}
	switch {
	case s.p.trie:
		s.root = t.words
		s.takeLeaves()
	case t.words != nil:
		s.words = unsafe.Slice((*uint64)(t.words), s.p.nwords)
		s.win, s.from = s.words, t.words
	}
}

// result returns what the new version keeps for its words (for a trie,
// its root, whose table of leaves it gives back to the machine).
func (s *stepper[L]) result() unsafe.Pointer {
	if t := s.ltab; t != nil {
		giveLeaves(t, s.root)
		return s.root
	}
	if s.owned {
		return s.keepWords() // the version's words, if they are the same
	}
	return unsafe.Pointer(unsafe.SliceData(s.words)) // nil for a small tree
}

// stepTree is one step of the whole tree. A panic in an agent function, or
// the engine's own abandonment of the step (stepFailure), becomes the
// error.
func (s *stepper[L]) stepTree() (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = s.recovered(r)
		}
	}()
	if s.pureAt(0) {
		s.pureUpdate(0) // a memoryless tree (stepped_pure.go)
		return nil
	}
	if s.get(0) >= StateSucceeded {
		s.async = nil // every node is READY: no pending result can apply
		if s.emit == nil {
			s.clearStates()
			s.fresh(0)
			return nil
		}
		s.reset(0)
	}
	s.update(0)
	return nil
}

// callAction calls the agent's action function with v.
func (s *stepper[L]) callAction(v L) Result {
	if f := s.act; f != nil {
		return f(v)
	}
	if fl := s.fl; fl != nil {
		return Result{Status: fl.do[s.cur](s.td)} // the choice of machine.action
	}
	return s.callActionSlow(v)
}

// callActionSlow is callAction through the step cache's replay, or with
// the agent's choice of function.
func (s *stepper[L]) callActionSlow(v L) Result {
	if mr := s.mr; mr != nil {
		if r, ok := mr.replayed(s.calling, s.cur); ok {
			return r
		}
	}
	r := s.m.action(s.cur, v, s.bb, s.td)
	if s.mr != nil {
		s.mr.record(s.calling, s.cur, v, actionBranch(r), false, false)
	}
	return r
}

// callCondition calls the agent's condition function with v, for a
// condition node or a guard (s.calling).
func (s *stepper[L]) callCondition(v L) bool {
	if f := s.cond; f != nil {
		return f(v)
	}
	if fl := s.fl; fl != nil && s.calling == fnCondition {
		return fl.cond[s.cur](s.td) // the choice of machine.condition
	}
	return s.callConditionSlow(v)
}

// callConditionSlow is callCondition through the step cache's replay, or
// with the agent's choice of function.
func (s *stepper[L]) callConditionSlow(v L) bool {
	if mr := s.mr; mr != nil {
		if r, ok := mr.replayed(s.calling, s.cur); ok {
			return r.Status == Success
		}
	}
	ok := s.m.condition(s.cur, s.calling != fnCondition, v, s.bb, s.td)
	if s.mr != nil {
		s.mr.record(s.calling, s.cur, v, boolBranch(ok), false, false)
	}
	return ok
}

// emitWrites reports the memory writes of the call just made for node n,
// which come before the call's own event.
func (s *stepper[L]) emitWrites(n int32) {
	b := s.bb
	if b == nil || len(b.log) == 0 {
		return
	}
	for _, w := range b.log {
		s.send(Event[L]{Kind: EventMemory, Node: int(n), Key: w.key, Old: w.old, New: w.new})
	}
	b.log = b.log[:0]
}

// agentFunc names the agent function being called, for errors.
type agentFunc uint8

const (
	fnAction agentFunc = iota
	fnCondition
	fnWhile
	fnUntil
	fnEntry
	fnStep
	fnExit
	fnRandom
	fnDelta
)

var agentFuncNames = [...]string{"action", "condition", "while guard", "until guard", "entry callback", "step callback", "exit callback", "random", "delta time"}

// stepFailure is the panic value by which the engine abandons a step.
type stepFailure struct{ err error }

// recovered turns a recovered panic into the step's error: the
// engine's own failure, or a [PanicError] with the stack of the panic
// (recovered is called by the deferred function that recovered, before
// the panicking frames unwind).
func (s *stepper[L]) recovered(r any) error {
	if f, ok := r.(stepFailure); ok {
		return f.err
	}
	e := &PanicError{Node: -1, Value: r, Stack: debug.Stack()}
	if s.cur >= 0 {
		e.Node, e.Name, e.Call = int(s.cur), s.p.nodes[s.cur].displayName(), agentFuncNames[s.calling]
	}
	return e
}

// fail abandons the step with an error about node n.
func (s *stepper[L]) fail(n int32, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	panic(stepFailure{fmt.Errorf("behaviortree.Stepped.Step: node %d (%s): %s", n, s.p.nodes[n].displayName(), msg)})
}

// get returns node i's state. (It is inlined throughout run: for flat
// words it is the two lines it was before the trie, the bounds check of
// the words being what sends a trie's reads to its table of leaves.)
func (s *stepper[L]) get(i int32) State {
	if s.isSmall {
		return State(s.small >> (2 * uint(i)) & 3)
	}
	w := uint(i >> 5)
	if w < uint(len(s.words)) {
		return State(s.words[w] >> (2 * uint(i&31)) & 3)
	}
	return State(s.ltab.l[w>>leafBits].w[w&leafMask] >> (2 * uint(i&31)) & 3)
}

// word returns the state word w (for a big tree, any word) of the step's
// own, to be written.
func (s *stepper[L]) word(w uint) *uint64 {
	if s.isSmall {
		return &s.small
	}
	return s.wordW(w)
}

// wordW returns word w of a big tree's words (for a small tree, of its
// extras), of the step's own, to be written.
func (s *stepper[L]) wordW(w uint) *uint64 {
	if x := w - s.base; s.wr && x < uint(len(s.win)) {
		return &s.win[x]
	}
	return s.wordForWrite(w)
}

// flatStates returns the node states as words, to be written, when they
// are not in a trie (nil when they are): for a small tree, a slice of
// s.small (kept in a local variable only: see stepper).
func (s *stepper[L]) flatStates() []uint64 {
	if s.isSmall {
		return unsafe.Slice(&s.small, 1)
	}
	if s.p.trie {
		return nil
	}
	if !s.wr {
		s.own()
	}
	return s.words[:s.p.sw]
}

// own makes flat words this step's own copy.
func (s *stepper[L]) own() {
	if !s.owned {
		w := s.newWords()
		copy(w, s.words)
		s.words, s.owned, s.win, s.wr = w, true, w, true
	}
}

// set makes node i's state to.
func (s *stepper[L]) set(i int32, to State) {
	if s.emit == nil {
		sh := 2 * uint(i&31)
		if s.isSmall {
			s.small = s.small&^(3<<sh) | uint64(to)<<sh
			return
		}
		if x := uint(i>>5) - s.base; s.wr && x < uint(len(s.win)) {
			s.win[x] = s.win[x]&^(3<<sh) | uint64(to)<<sh
			return
		}
	}
	s.setSlow(i, to) // a copy first, unless the state does not change
}

// setSlow is set that copies the words first, or reports the change.
func (s *stepper[L]) setSlow(i int32, to State) {
	from := s.get(i)
	if from == to {
		return
	}
	sh := 2 * uint(i&31)
	w := s.word(uint(i >> 5))
	*w = *w&^(3<<sh) | uint64(to)<<sh
	if s.emit != nil {
		s.send(Event[L]{Kind: EventState, Node: int(i), From: from, To: to})
	}
}

// clearStates makes every node READY, without events, in words of the
// step's own.
func (s *stepper[L]) clearStates() {
	sw := int(s.p.sw)
	switch {
	case s.isSmall:
		s.small = 0
	case s.p.trie:
		s.clearStateWords()
	case s.owned:
		clear(s.words[:sw])
	default:
		w := s.newWords()
		clear(w[:sw])
		copy(w[sw:], s.words[sw:])
		s.words, s.owned, s.win, s.wr = w, true, w, true
	}
}

// clearSubtree makes node n and its subtree READY, without events, in
// words of the step's own.
func (s *stepper[L]) clearSubtree(n int32) {
	s.flatStates() // flat states of the step's own, for fresh's put
	s.clearNodes(n, false)
}

// reset makes node n and its subtree READY, with events in preorder.
func (s *stepper[L]) reset(n int32) {
	s.clearNodes(n, s.emit != nil)
}

// clearNodes makes node n and its subtree READY, reporting the changes
// when emit is set. It writes (copies) only the words that change.
func (s *stepper[L]) clearNodes(n int32, emit bool) {
	lo, hi := uint(n), uint(s.p.nodes[n].end)
	first, last := lo>>5, (hi-1)>>5
	if s.isSmall {
		mask := wordMask(0, lo, hi)
		x := s.small & mask
		s.small &^= mask
		if x != 0 && emit {
			s.emitResets(x, 0)
		}
		return
	}
	for w := first; w <= last; w++ {
		mask := wordMask(w, lo, hi)
		if x := s.wordAt(w) & mask; x != 0 {
			*s.word(w) &^= mask
			if emit {
				s.emitResets(x, int(w)*32)
			}
		}
	}
}

// wordMask is the mask of the 2-bit fields of nodes [lo, hi) in word w.
func wordMask(w, lo, hi uint) uint64 {
	a, b := max(lo, w*32), min(hi, w*32+32)
	return rangeMask(2*(a-w*32), 2*(b-w*32))
}

// rangeMask has bits [a, b) set, 0 <= a <= b <= 64.
func rangeMask(a, b uint) uint64 {
	var hiMask uint64 = math.MaxUint64
	if b < 64 {
		hiMask = 1<<b - 1
	}
	return hiMask &^ (1<<a - 1)
}

// emitResets reports the resets of the non-zero fields of x, a word of
// states whose first node is base.
func (s *stepper[L]) emitResets(x uint64, base int) {
	for x != 0 {
		tz := uint(bits.TrailingZeros64(x)) &^ 1
		s.send(Event[L]{Kind: EventState, Node: base + int(tz/2), From: State(x >> tz & 3), To: StateReady})
		x &^= 3 << tz
	}
}

// slot returns node n's two extra words (read-only).
func (s *stepper[L]) slot(n int32) (uint64, uint64) {
	i := uint(s.p.sw + 2*s.p.nodes[n].slot)
	return s.wordAt(i), s.wordAt(i + 1)
}

func (s *stepper[L]) setSlot(n int32, a, b uint64) {
	i := uint(s.p.sw + 2*s.p.nodes[n].slot)
	*s.wordW(i) = a
	*s.wordW(i + 1) = b
}

// random draws a number in [0, 1) for node n.
func (s *stepper[L]) random(n int32) float64 {
	if f := s.m.random; f != nil {
		s.cur, s.calling = n, fnRandom
		r := f()
		if !(r >= 0 && r < 1) {
			s.fail(n, "random() returned %v, not in [0, 1)", r)
		}
		return r
	}
	at := uint(s.p.rngAt)
	x := s.wordAt(at) + 0x9e3779b97f4a7c15
	*s.wordW(at) = x
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}

// drawBound returns floor(r*(max-min+1)+min) for a Ranged node, as
// Mistreevous computes it in float64 (no fused multiply-add).
func (s *stepper[L]) drawBound(n int32) float64 {
	nd := &s.p.nodes[n]
	r := s.random(n)
	return math.Floor(float64(r*float64(nd.max-nd.min+1)) + float64(nd.min))
}

// guards checks the guards on the path from the root down to g, a node
// with guards, top-down; it returns the node whose guard failed, or -1.
func (s *stepper[L]) guards(g int32) int32 {
	nd := &s.p.nodes[g]
	if nd.guardedAbove >= 0 {
		if f := s.guards(nd.guardedAbove); f >= 0 {
			return f
		}
	}
	at := nd.at
	for _, k := range [2]attr.Kind{attr.KindWhile, attr.KindUntil} {
		if !at.has[k] {
			continue
		}
		a := &at.a[k]
		s.cur, s.calling = g, fnWhile+agentFunc(k-attr.KindWhile)
		ok := s.callCondition(a.Value)
		if s.emit != nil {
			s.emitWrites(g)
			s.send(Event[L]{Kind: EventCondition, Node: int(g), Value: a.Value, Holds: ok, Guard: true})
		}
		if ok == (k == attr.KindUntil) {
			s.gfSucc = a.SucceedOnAbort
			return g
		}
	}
	return -1
}

// update updates node n, if it is READY or RUNNING. It returns -1, or the
// node above n at which a guard failed: the update of n was abandoned and
// that node's update handles the failure.
func (s *stepper[L]) update(n int32) int32 {
	st := s.get(n)
	if st >= StateSucceeded {
		return -1
	}
	if !s.hot[n].is(hotPlain) {
		return s.updateFull(n, st)
	}
	return s.run(n, st)
}

// run is the kind-specific part of updating n, whose state was st: each
// kind's rule, or the call of the method that holds it.
func (s *stepper[L]) run(n int32, st State) int32 {
	h := &s.hot[n]
	switch h.kind {
	case kind.Leaf:
		if s.async != nil || s.emit != nil {
			s.action(n, st)
		} else {
			s.leafNow(n)
		}
	case kind.Condition:
		s.condition(n)
	case kind.Sequence, kind.Select, kind.ReactiveSequence, kind.ReactiveSelect:
		// The rule of seqRules: through the children, from the first not
		// completed (reactive: from the first, a completed one afresh),
		// until one decides. It is written here, not in a method of its
		// own, so that the update of a tree of sequences and selects is
		// one call a level.
		if s.pureAt(n) {
			s.pureUpdate(n)
			return -1
		}
		rule := seqRules[h.kind]
		kids := s.kids[h.first : h.first+h.n]
		if !rule.reactive && len(kids) > 1 && s.get(kids[0]) == rule.goOn {
			// The children that went on at earlier updates: the loop
			// below would pass them by.
			switch {
			case len(kids) > wentOnFew:
				kids = kids[s.wentOnFar(kids, rule.goOn):]
			case s.p.trie:
				kids = kids[s.wentOnTrie(kids, rule.goOn):]
			default:
				kids = kids[s.wentOn(kids, rule.goOn):]
			}
		}
		for i, c := range kids {
			cs := s.get(c)
			if rule.reactive && cs >= StateSucceeded {
				s.reset(c) // completed at an earlier update: afresh
				cs = StateReady
			}
			if cs <= StateRunning { // updateAt, by hand: it would be a call
				switch hc := &s.hot[c]; {
				case !hc.is(hotPlain):
					if f := s.updateFull(c, cs); f >= 0 {
						return f
					}
				case hc.kind == kind.Leaf && s.async == nil && s.emit == nil:
					s.cur, s.calling = c, fnAction
					r := s.callAction(s.leaves[c])
					if to := leafState(r); to != StateReady {
						s.set(c, to)
					} else {
						s.actionResult(c, r)
					}
				default:
					if f := s.run(c, cs); f >= 0 {
						return f
					}
				}
				cs = s.get(c)
			}
			if cs == rule.goOn && i < len(kids)-1 {
				continue
			}
			if cs == StateReady {
				s.fail(c, "child node was not in an expected state")
			}
			if cs != st { // n's state is still st: its children do not write it
				s.set(n, cs)
			}
			if rule.reactive {
				s.endAfter(kids[i+1:])
			}
			return -1
		}
		if rule.reactive {
			s.set(n, rule.goOn) // no children
		}
	case kind.Root, kind.Negate, kind.AlwaysSucceed, kind.AlwaysFail:
		c := s.kids[h.first]
		if cs := s.get(c); cs <= StateRunning {
			if f := s.updateAt(c, cs); f >= 0 {
				return f
			}
		}
		if cs := decorated(h.kind, s.get(c)); cs != StateReady && cs != st {
			s.set(n, cs)
		}
	case kind.Parallel, kind.Race, kind.All:
		return s.concurrent(n, h)
	case kind.Lotto:
		return s.lotto(n, st)
	case kind.Repeat, kind.Retry:
		return s.repeat(n, h, st)
	case kind.Wait:
		s.wait(n, &s.p.nodes[n], st)
	case kind.ReactiveParallel:
		if s.pureAt(n) {
			s.pureUpdate(n)
			return -1
		}
		return s.reactiveParallel(n, h)
	case kind.EmptyInverter:
		panic(stepFailure{fmt.Errorf("behaviortree.Stepped.Step: node %d (%s): %w", n, s.p.nodes[n].displayName(), ErrEmptyInverter)})
	}
	return -1
}

// pureAt reports whether node n is the top of a pure subtree (stepped_pure.go)
// that the step may evaluate afresh: no events, no pending async result.
func (s *stepper[L]) pureAt(n int32) bool {
	return s.p.pure != nil && s.p.pure[n] && s.emit == nil && s.async == nil
}

// leafState is the state for the status of a synchronous Result, or
// StateReady for an invalid one.
func leafState(r Result) State {
	if r.Async == nil && uint8(r.Status) <= uint8(Failure) {
		return State(r.Status) + 1 // Running, Success, Failure -> RUNNING, SUCCEEDED, FAILED
	}
	return StateReady
}

// leafNow updates action n, without events and without pending async
// results, and returns its state.
func (s *stepper[L]) leafNow(n int32) State {
	s.cur, s.calling = n, fnAction
	r := s.callAction(s.leaves[n])
	if to := leafState(r); to != StateReady {
		s.set(n, to)
		return to
	}
	s.actionResult(n, r)
	return s.get(n)
}

// seqRule is the row of a sequence or a select, reactive or not, in the
// table of their rules: the outcome of a child after which the node goes
// on to its next child (SUCCEEDED for a sequence, FAILED for a select),
// and whether it is reactive (every update goes through its children from
// the first). Any other outcome of a child, or the last child's, is the
// node's. A reactive node ends its children after the one that decided:
// it aborts those RUNNING and resets those completed, so that the states
// show this update only.
type seqRule struct {
	goOn     State
	reactive bool
	is       bool // the kind is a sequence or a select
}

// seqRules is that table, by kind: the one home of the rule, which run,
// fresh evaluation (fresh) and the compiled moves (goesOn) apply, and so
// do the Value/Succeed/Fail style's compiler (place.ended) and its
// pictures (kindInfo.passed, set by withFacts).
var seqRules = [numKinds]seqRule{
	kind.Sequence:         {StateSucceeded, false, true},
	kind.Select:           {StateFailed, false, true},
	kind.ReactiveSequence: {StateSucceeded, true, true},
	kind.ReactiveSelect:   {StateFailed, true, true},
}

// wentOn returns the number of kids, the last one left out, that are
// in state goOn, from the first, for a few kids (at most wentOnFew): a
// pass over them, inlined into run.
// (For words in a trie, wentOnTrie: a branch here would keep wentOn from
// being inlined into run.)
func (s *stepper[L]) wentOn(kids []int32, goOn State) int {
	i, last := 0, len(kids)-1
	if s.isSmall {
		for i < last && State(s.small>>(2*uint(kids[i]))&3) == goOn {
			i++
		}
		return i
	}
	st := s.win
	for i < last && State(st[kids[i]>>5]>>(2*uint(kids[i]&31))&3) == goOn {
		i++
	}
	return i
}

// wentOnTrie is wentOn for words in a trie.
func (s *stepper[L]) wentOnTrie(kids []int32, goOn State) int {
	i, last := 0, len(kids)-1
	for i < last && s.get(kids[i]) == goOn {
		i++
	}
	return i
}

// wentOnFew is the number of children up to which a resume passes over
// those that went on (wentOn); beyond it, it searches (wentOnFar).
const wentOnFew = 8

// wentOnFar is wentOn for many kids, the first of which is in goOn: a
// binary search, so that a resume reaches the child it resumes in
// O(log width) reads, not past every child that went on before it. The
// rule of a sequence or select that is not reactive (checkReachable states
// it for every version, and Restore checks it) makes its children's states
// goOn, ..., goOn, then the one that decided or runs, then READY ones, so
// "kids[i] is in goOn" holds for a prefix of kids only. wentOnScan (a test
// helper) is the plain pass, and TestWentOnMatchesScan holds both forms
// to it on the versions that random steps reach.
func (s *stepper[L]) wentOnFar(kids []int32, goOn State) int {
	lo, hi := 1, len(kids)-1 // kids[lo-1] is in goOn; kids[hi] is not, or is the last
	if s.isSmall {
		x := s.small
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if State(x>>(2*uint(kids[m]))&3) == goOn {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo
	}
	if s.p.trie {
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if s.get(kids[m]) == goOn {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo
	}
	st := s.win
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if c := kids[m]; State(st[c>>5]>>(2*uint(c&31))&3) == goOn {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// updateAt is update of node c, which is READY or RUNNING (cs), without
// reading its state again; a plain action without events or pending async
// results is called here. (It is not inlined into run, which it calls:
// run's loop of sequences and selects has its body written out.)
func (s *stepper[L]) updateAt(c int32, cs State) int32 {
	h := &s.hot[c]
	switch {
	case !h.is(hotPlain):
		return s.updateFull(c, cs)
	case h.kind == kind.Leaf && s.async == nil && s.emit == nil:
		s.leafNow(c)
		return -1
	}
	return s.run(c, cs)
}

// endAfter ends the children kids of a reactive sequence or select after
// the one that decided: those RUNNING are aborted, those completed reset.
func (s *stepper[L]) endAfter(kids []int32) {
	for _, c := range kids {
		switch s.get(c) {
		case StateRunning:
			s.abort(c)
		case StateSucceeded, StateFailed:
			s.reset(c)
		}
	}
}

// decorated returns the state of a decorator (Root, Negate, AlwaysSucceed,
// AlwaysFail) whose child is in state cs: the child's while it runs, and
// once it completed, the child's outcome, swapped or replaced.
func decorated(k kind.Kind, cs State) State {
	if cs >= StateSucceeded {
		switch k {
		case kind.Negate:
			cs ^= 1 // SUCCEEDED <-> FAILED
		case kind.AlwaysSucceed:
			cs = StateSucceeded
		case kind.AlwaysFail:
			cs = StateFailed
		}
	}
	return cs
}

// updateFull is update for a node with guards on its path or callbacks.
func (s *stepper[L]) updateFull(n int32, st State) int32 {
	nd := &s.p.nodes[n]
	f := int32(-1)
	if nd.g >= 0 {
		f = s.guards(nd.g)
	}
	if f < 0 {
		if at := nd.at; at != nil {
			if st == StateReady && at.has[attr.KindEntry] {
				s.callback(n, attr.KindEntry)
			}
			if at.has[attr.KindOnStep] {
				s.callback(n, attr.KindOnStep)
			}
		}
		f = s.run(n, st)
		if f < 0 {
			if at := nd.at; at != nil && at.has[attr.KindExit] {
				if st := s.get(n); st >= StateSucceeded {
					s.exit(n, st == StateSucceeded, false)
				}
			}
			return -1
		}
	}
	if f != n {
		return f
	}
	succ := s.gfSucc
	s.abort(n)
	if succ {
		s.set(n, StateSucceeded)
	} else {
		s.set(n, StateFailed)
	}
	return -1
}

func (s *stepper[L]) callback(n int32, k attr.Kind) {
	v := s.p.nodes[n].at.a[k].Value
	s.cur, s.calling = n, fnEntry+agentFunc(k-attr.KindEntry)
	if s.mr == nil || !s.replayCallback(v, false, false) {
		s.m.callback(s.calling, v, s.bb, false, false)
	}
	if s.emit != nil {
		s.emitWrites(n)
		nodeKind := EventEntry
		if k == attr.KindOnStep {
			nodeKind = EventOnStep
		}
		s.send(Event[L]{Kind: nodeKind, Node: int(n), Value: v})
	}
}

// replayCallback replays callback or exit v of node s.cur, reporting true,
// or records it, reporting false: it is to be called.
func (s *stepper[L]) replayCallback(v L, succeeded, aborted bool) bool {
	if _, ok := s.mr.replayed(s.calling, s.cur); ok {
		return true
	}
	s.mr.record(s.calling, s.cur, v, 0, succeeded, aborted)
	return false
}

func (s *stepper[L]) exit(n int32, succeeded, aborted bool) {
	v := s.p.nodes[n].at.a[attr.KindExit].Value
	s.cur, s.calling = n, fnExit
	if s.mr == nil || !s.replayCallback(v, succeeded, aborted) {
		s.m.callback(fnExit, v, s.bb, succeeded, aborted)
	}
	if s.emit != nil {
		s.emitWrites(n)
		s.send(Event[L]{Kind: EventExit, Node: int(n), Value: v, Succeeded: succeeded, Aborted: aborted})
	}
}

// abort aborts node n if it is RUNNING: its running children first, then
// a reset of its subtree, then its exit callback.
func (s *stepper[L]) abort(n int32) {
	if s.get(n) != StateRunning {
		return
	}
	nd := &s.p.nodes[n]
	for _, c := range nd.kids {
		s.abort(c)
	}
	if nd.kind == kind.Leaf && s.async != nil {
		s.dropAsync(n)
	}
	s.reset(n)
	if nd.at != nil && nd.at.has[attr.KindExit] {
		s.exit(n, false, true)
	}
}

// child updates c if it is READY or RUNNING and returns its state, or the
// guard failure to pass on.
func (s *stepper[L]) child(c int32) (State, int32) {
	st := s.get(c)
	if st <= StateRunning {
		if f := s.update(c); f >= 0 {
			return 0, f
		}
		st = s.get(c)
	}
	return st, -1
}

// condition updates condition node n.
func (s *stepper[L]) condition(n int32) {
	v := s.leaves[n]
	s.cur, s.calling = n, fnCondition
	ok := s.callCondition(v)
	if s.emit != nil {
		s.emitWrites(n)
		s.send(Event[L]{Kind: EventCondition, Node: int(n), Value: v, Holds: ok})
	}
	if ok {
		s.set(n, StateSucceeded)
	} else {
		s.set(n, StateFailed)
	}
}

// lotto is the update of lotto node n, whose state was st: a READY lotto
// draws its child by the tickets, and keeps the pick in its slot.
func (s *stepper[L]) lotto(n int32, st State) int32 {
	nd := &s.p.nodes[n]
	var pick uint64
	if st == StateReady {
		r := s.random(n)
		t := float64(nd.cum[len(nd.cum)-1])
		k := int32(math.Floor(r * t))
		for pick = 0; int(pick) < len(nd.cum)-1 && nd.cum[pick] <= k; pick++ {
		}
		s.setSlot(n, pick, 0)
	} else {
		pick, _ = s.slot(n)
	}
	cs, f := s.child(nd.kids[pick])
	if f >= 0 {
		return f
	}
	if cs != StateReady {
		s.set(n, cs)
	}
	return -1
}

// reactiveParallel is the update of a reactive parallel: every child, a
// child that completed at an earlier update afresh; then the outcomes of
// this update decide (parallelOutcome). Running children are left
// running (FluentBehaviourTree never stops them).
func (s *stepper[L]) reactiveParallel(n int32, h *hotNode) int32 {
	var succeeded, failed int32
	for _, c := range s.kids[h.first : h.first+h.n] {
		if s.get(c) >= StateSucceeded {
			s.reset(c)
		}
		if f := s.update(c); f >= 0 {
			return f
		}
		switch s.get(c) {
		case StateSucceeded:
			succeeded++
		case StateFailed:
			failed++
		}
	}
	s.set(n, s.parallelOutcome(n, succeeded, failed))
	return -1
}

// parallelOutcome is the rule of reactive parallel n whose children
// succeeded and failed at this update: success first, when its success
// count is on and reached, then failure likewise; else it runs.
func (s *stepper[L]) parallelOutcome(n int32, succeeded, failed int32) State {
	nd := &s.p.nodes[n]
	switch {
	case nd.max > 0 && succeeded >= nd.max:
		return StateSucceeded
	case nd.min > 0 && failed >= nd.min:
		return StateFailed
	}
	return StateRunning
}

// action updates action node n.
func (s *stepper[L]) action(n int32, st State) {
	v := s.leaves[n]
	if s.async != nil {
		if st == StateRunning {
			for e := s.async; e != nil; e = e.next {
				if e.node == n {
					r, ok := e.a.look(e.looks + 1) // stepped_async.go
					if !ok {
						s.looked(n)
						return
					}
					s.dropAsync(n)
					if r == Success {
						s.set(n, StateSucceeded)
					} else {
						s.set(n, StateFailed)
					}
					return
				}
			}
		} else {
			s.dropAsync(n)
		}
	}
	s.cur, s.calling = n, fnAction
	r := s.callAction(v)
	if s.emit != nil {
		s.emitWrites(n)
		s.send(Event[L]{Kind: EventAction, Node: int(n), Value: v, Result: r})
	}
	s.actionResult(n, r)
}

// actionResult applies what action n returned.
func (s *stepper[L]) actionResult(n int32, r Result) {
	if r.Async != nil {
		if r.Status != Running {
			s.fail(n, "action returned an Async result with status %v", r.Status)
		}
		s.ids++
		r.Async.id.CompareAndSwap(0, s.ids)
		s.async = &asyncEntry{node: n, a: r.Async, id: s.ids, next: s.async}
		s.set(n, StateRunning)
		return
	}
	switch r.Status {
	case Success:
		s.set(n, StateSucceeded)
	case Failure:
		s.set(n, StateFailed)
	case Running:
		s.set(n, StateRunning)
	default:
		s.fail(n, "action returned an invalid status %d", r.Status)
	}
}

// dropAsync removes node n's pending async result, if any.
func (s *stepper[L]) dropAsync(n int32) {
	s.async = s.async.without(n, false)
}

// looked counts one more look at node n's pending async result.
func (s *stepper[L]) looked(n int32) {
	s.async = s.async.without(n, true)
}

// concurrent is the update of a parallel, race or all node: every child
// that is not completed, then its rule. A parallel or a race ends as soon
// as the children's outcomes reach one of its needs (concurrentNeeds, the
// rule the Value/Succeed/Fail style reads too: a parallel fails at the
// first failure and succeeds when all succeed, a race the mirror image),
// aborting the children still running; an all runs until every child has
// completed, then succeeds if one did.
func (s *stepper[L]) concurrent(n int32, h *hotNode) int32 {
	nd := &s.p.nodes[n]
	var count [4]int // by state
	for _, c := range nd.kids {
		cs, f := s.child(c)
		if f >= 0 {
			return f
		}
		count[cs]++
	}
	k := len(nd.kids)
	to, abort := StateRunning, false
	if h.kind == kind.All {
		switch {
		case count[StateSucceeded]+count[StateFailed] < k:
		case count[StateSucceeded] > 0:
			to = StateSucceeded
		default:
			to = StateFailed
		}
	} else {
		// The rule of both styles (concurrentNeeds). At most one count
		// reaches its need: a parallel needs one failure or all successes,
		// a race the mirror image.
		fail, succeed := concurrentNeeds(h.kind, k)
		switch {
		case count[StateFailed] >= fail:
			to, abort = StateFailed, count[StateRunning] > 0
		case count[StateSucceeded] >= succeed:
			to, abort = StateSucceeded, count[StateRunning] > 0
		}
	}
	s.set(n, to)
	if abort {
		for _, c := range nd.kids {
			if s.get(c) == StateRunning {
				s.abort(c)
			}
		}
	}
	return -1
}

// repeat is the update of a repeat or retry node: count and target are in
// its slot (bounded ones only).
func (s *stepper[L]) repeat(n int32, h *hotNode, st State) int32 {
	nd := &s.p.nodes[n]
	c := nd.kids[0]
	again, stop := StateSucceeded, StateFailed // repeat: a success goes again, a failure stops
	if nd.kind == kind.Retry {
		again, stop = StateFailed, StateSucceeded
	}
	var count, target uint64
	bounded := nd.bound != kind.Unbounded
	if st == StateReady {
		s.reset(c)
		switch nd.bound {
		case kind.Fixed:
			target = uint64(nd.min)
		case kind.Ranged:
			target = uint64(s.drawBound(n))
		}
		if bounded {
			s.setSlot(n, 0, target)
		}
	} else if bounded {
		count, target = s.slot(n)
	}
	if bounded && count >= target {
		s.set(n, again) // a repeat that has repeated enough succeeds; a retry fails
		return -1
	}
	s.set(n, StateRunning)
	if s.get(c) == again {
		s.reset(c)
	}
	if f := s.update(c); f >= 0 {
		return f
	}
	switch s.get(c) {
	case stop:
		s.set(n, stop)
	case again:
		if bounded {
			s.setSlot(n, count+1, target)
		}
	}
	return -1
}

// wait is the update of a wait node; its slot holds the time waited (or,
// on the wall clock, the start time) in ms and the total, as float64 bits.
// Without a clock option, a wait that a Tick started counts the ticks'
// DeltaTime (Stepped.Tick): its total is stored negated (the sign bit of
// the second word, which no other wait sets, -0 for a total of 0).
func (s *stepper[L]) wait(n int32, nd *snode[L], st State) {
	var waited, total float64
	tick := false // the wait counts td.DeltaTime
	if st == StateReady {
		switch nd.bound {
		case kind.Fixed:
			total = float64(nd.min)
		case kind.Ranged:
			total = s.drawBound(n)
		}
		if nd.bound != kind.Unbounded && s.m.delta == nil {
			if tick = s.ticked; !tick {
				waited = float64(time.Now().UnixNano()) / 1e6 // the start time
			}
		}
		s.set(n, StateRunning)
		if nd.bound == kind.Unbounded {
			return
		}
	} else {
		if nd.bound == kind.Unbounded {
			return
		}
		a, b := s.slot(n)
		waited, total = math.Float64frombits(a), math.Float64frombits(b)
		if tick = math.Signbit(total); tick {
			total = -total
		}
	}
	var elapsed float64
	if tick && s.m.delta == nil {
		waited += float64(s.td.DeltaTime.Seconds() * 1000) // as the delta option counts
		elapsed = waited
		s.setSlot(n, math.Float64bits(waited), math.Float64bits(-total))
		if elapsed >= total {
			s.set(n, StateSucceeded)
		}
		return
	}
	if f := s.m.delta; f != nil {
		s.cur, s.calling = n, fnDelta
		d := f()
		if math.IsNaN(d) || math.IsInf(d, 0) {
			s.fail(n, "delta time is %v", d)
		}
		waited += float64(d * 1000)
		if math.IsInf(waited, 0) || math.IsNaN(waited) {
			s.fail(n, "waited time is %v ms, not a finite number", waited)
		}
		elapsed = waited
	} else {
		elapsed = float64(time.Now().UnixNano())/1e6 - waited
	}
	s.setSlot(n, math.Float64bits(waited), math.Float64bits(total))
	if elapsed >= total {
		s.set(n, StateSucceeded)
	}
}

// send passes e, named after its node, to the step's events callback.
func (s *stepper[L]) send(e Event[L]) {
	e.Name = s.names[e.Node]
	s.emit(e)
}
