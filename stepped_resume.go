package behaviortree

import (
	"sync/atomic"
	"unsafe"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

// This file is the resume path: the step of a version whose tree runs one
// action, which it resumes, without the stepper of the rules.
//
// The step of a version whose root is RUNNING goes down the running path:
// at each level the rules update one child, when the node is a sequence or
// a select that is not reactive (the child that runs: the rule of seqRules
// keeps its children goOn, ..., goOn, then the one that runs, then READY
// ones), a decorator or the root (its child), a repeat or a retry that has
// not repeated enough, or a lotto (its pick). If each node on the way is of
// those kinds, RUNNING, and no pure subtree (which the rules evaluate
// afresh), and the path ends in a RUNNING action, the rules' step makes
// exactly these calls, top-down: at each node that is not plain, its
// guards (guards: those of every guarded node from the root down to its
// nearest, in order) and its step callback; then the action. (An entry
// callback is called for a READY node only, an exit callback for one that
// completes: none on this path until the action completes.) If every
// guard holds and the action answers Running, nothing changes: the new
// version is the version itself, with the memory that the calls wrote.
//
// The path decides whether it applies before it calls anything. After a
// call, an answer that changes something (a guard that fails, an action
// that completes, an async or invalid result) hands the step to the rules,
// which replay the answers given so far, as the step cache's miss does
// (cacheRun), and go on live: every agent function is called exactly as
// the rules call it, once.

// resumeOn switches the resume path on; tests turn it off to compare
// steps with the rules.
var resumeOn = true

// resumeHint is where the resume path of a program looks first: the
// path of the action that it resumed last (path), and up, by node, the
// parent that the path passes through without any check but its state
// (resumeUps). It is alone on its cache lines: steps on many goroutines
// write path when it changes.
type resumeHint struct {
	_      [56]byte
	path   atomic.Pointer[resumePath]             // the path of the action resumed last, or nil
	alts   [resumeAlts]atomic.Pointer[resumePath] // the paths that path held before, or nil
	alt    atomic.Uint32                          // the alternate the next new path replaces
	misses atomic.Int32                           // the steps that found the hint not holding
	up     atomic.Pointer[[]int32]
	paths  atomic.Pointer[[]atomic.Pointer[resumePath]] // by node: the paths made so far
	_      [56]byte
}

// resumePath is what the resume path's step checks of a version to
// resume action leaf at once: the action and every node above it RUNNING,
// each of them a node that the path passes through with no check but its
// state (resumeUps). The checks are by state word: the bits of the path's
// nodes in it (a mask), which must read RUNNING (01 in each two bits).
// The first two words (the leaf's, then the root's or the one below it)
// are checked inline by stepBig, the others (a long path over more words)
// are in more; a small tree's one check is of its word Stepped.small
// (mask0). Built once by action (resumePathFor), it never changes.
type resumePath struct {
	off0, off1   uintptr // the byte offsets of the first two words in the version's words
	mask0, mask1 uint64
	leaf         int32
	mode         uint8       // pathFlat, pathSmall, pathTrie, or pathNone: not reachable by states alone
	more         []pathCheck // the words after the first two, or nil
}

// The layouts of resumePath: the version's words that it checks.
const (
	pathFlat  = iota // flat words (Stepped.words)
	pathSmall        // Stepped.small
	pathTrie         // a trie of words (off / 8 is the word)
	pathNone         // no checks: the action is not reachable by states alone
)

// pathCheck is a check of a resumePath: the word at byte off of the
// version's words holds every node of mask RUNNING.
type pathCheck struct {
	off  uintptr
	mask uint64
}

// allRunning is a state word whose every node is RUNNING.
const allRunning = 0x5555555555555555

// resumePathFor returns the resumePath of action leaf of p, made once.
func resumePathFor[L any](p *sprogram[L], leaf int32) *resumePath {
	h := &p.resumeHint
	ps := h.paths.Load()
	if ps == nil {
		s := make([]atomic.Pointer[resumePath], len(p.nodes))
		h.paths.CompareAndSwap(nil, &s)
		ps = h.paths.Load()
	}
	if rp := (*ps)[leaf].Load(); rp != nil {
		return rp
	}
	rp := &resumePath{leaf: leaf, mode: pathNone}
	ups := resumeUps(p)
	direct := p.hot[leaf].kind == kind.Leaf
	var words []uint64 // the masks, by word, while they are made
	for c := leaf; direct; {
		n := ups[c]
		if n < -1 {
			direct = false
			break
		}
		w := int(c >> 5)
		if p.small {
			w = 0
		}
		for len(words) <= w {
			words = append(words, 0)
		}
		words[w] |= 3 << (2 * uint(c&31))
		if n < 0 {
			break
		}
		c = n
	}
	if direct {
		var checks []pathCheck
		for w := len(words) - 1; w >= 0; w-- { // the leaf's word first, the root's last
			if words[w] != 0 {
				checks = append(checks, pathCheck{off: uintptr(w) * 8, mask: words[w]})
			}
		}
		if len(checks) == 1 {
			checks = append(checks, checks[0])
		}
		rp.off0, rp.mask0 = checks[0].off, checks[0].mask
		rp.off1, rp.mask1 = checks[1].off, checks[1].mask
		rp.more = checks[2:]
		if len(rp.more) == 0 {
			rp.more = nil
		}
		switch {
		case p.small:
			rp.mode = pathSmall
		case p.trie:
			rp.mode = pathTrie
		default:
			rp.mode = pathFlat
		}
	}
	(*ps)[leaf].CompareAndSwap(nil, rp)
	return (*ps)[leaf].Load()
}

// resumeAlts is the number of paths besides the hint's that stepMissed
// tries before it counts a miss: entities of one definition that resume
// up to resumeAlts+1 different actions by turns all take the resume path.
const resumeAlts = 3

// setResumeHint makes node n (an action, but tests set any) the hint of
// p; the path it replaces becomes an alternate, in place of the oldest.
func setResumeHint[L any](p *sprogram[L], n int32) {
	var rp *resumePath
	if uint(n) < uint(len(p.nodes)) {
		rp = resumePathFor(p, n)
	}
	h := &p.resumeHint
	if old := h.path.Swap(rp); old != nil && old != rp && old.mode != pathNone {
		h.alts[h.alt.Add(1)%resumeAlts].Store(old)
	}
}

// resumeSearchEvery+1 is how often a step whose hint does not hold
// searches for the running action (and makes it the hint); the others take
// the rules. Versions that resume different actions by turns (entities)
// keep missing the hint, and the search with the call costs more than the
// rules' step; one whose running action changed finds the new one soon.
const resumeSearchEvery = 7

// resumeUps returns, by node c, its parent when c is plain and its parent
// is the root, a decorator or a sequence or select that is not reactive
// and not pure (the rules' update of such a RUNNING parent updates its
// RUNNING child, and calls nothing else), -1 for the root if it is plain,
// and -2 for any other node: the path goes to resumeFull.
func resumeUps[L any](p *sprogram[L]) []int32 {
	if up := p.resumeHint.up.Load(); up != nil {
		return *up
	}
	up := make([]int32, len(p.nodes))
	for c := range p.nodes {
		up[c] = -2
		if !p.hot[c].is(hotPlain) {
			continue
		}
		n := p.nodes[c].parent
		if n < 0 {
			up[c] = -1
			continue
		}
		switch p.hot[n].kind {
		case kind.Root, kind.Negate, kind.AlwaysSucceed, kind.AlwaysFail, kind.Sequence, kind.Select:
			if p.pure == nil || !p.pure[n] {
				up[c] = n
			}
		}
	}
	p.resumeHint.up.CompareAndSwap(nil, &up)
	return *p.resumeHint.up.Load()
}

// stateReader reads a version's words for the resume path, which writes
// nothing.
type stateReader struct {
	states  []uint64       // flat words' node states (nil for a small tree or a trie)
	flat    []uint64       // flat words (a small tree's: its extras)
	small   uint64         // a small tree's node states
	isSmall bool           //
	root    unsafe.Pointer // a trie's root
	depth   int32
	leaf    *wordLeaf // the trie leaf read last
	lc      uint      // its index, or ^0
}

// word returns word w of the version's words.
func (r *stateReader) word(w uint) uint64 {
	if r.root == nil {
		return r.flat[w]
	}
	c := w >> leafBits
	if c != r.lc {
		r.leaf, r.lc = trieLeaf(r.root, r.depth, c), c
	}
	return r.leaf.w[w&leafMask]
}

// get returns node i's state.
func (r *stateReader) get(i int32) State {
	if w := uint(i >> 5); w < uint(len(r.states)) {
		return State(r.states[w] >> (2 * uint(i&31)) & 3)
	}
	return r.getSlow(i)
}

// getSlow is get for a small tree or a trie.
func (r *stateReader) getSlow(i int32) State {
	if r.isSmall {
		return State(r.small >> (2 * uint(i)) & 3)
	}
	return State(r.word(uint(i>>5)) >> (2 * uint(i&31)) & 3)
}

// wentOn is the rules' wentOnFar for kids of a sequence or select that is
// not reactive: the index of the child that a resume updates (the first
// not in goOn, or the last), by a binary search over the prefix in goOn.
func (r *stateReader) wentOn(kids []int32, goOn State) int {
	lo, hi := 0, len(kids)-1 // kids[lo-1] is in goOn; kids[hi] is not, or is the last
	if hi == 0 || r.get(kids[0]) != goOn {
		return 0
	}
	lo = 1
	if st := r.states; len(st) > 0 {
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if c := kids[m]; State(st[uint(c>>5)%uint(len(st))]>>(2*uint(c&31))&3) == goOn {
				lo = m + 1
			} else {
				hi = m
			}
		}
		return lo
	}
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if r.getSlow(kids[m]) == goOn {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// resumer is the state of a step by the resume path.
type resumer[L any] struct {
	stateReader
	m    *machine[L]
	p    *sprogram[L]
	bb   *Blackboard
	td   TimeData
	cur  int32 // the node whose function is being called
	call agentFunc
}

// passes reports whether the rules' update of node n, RUNNING, updates
// its child c, RUNNING, and leaves n RUNNING when c stays RUNNING: n is a
// node the path goes through.
func (r *resumer[L]) passes(n, c int32) bool {
	p := r.p
	h := &p.hot[n]
	if p.pure != nil && p.pure[n] {
		return false
	}
	switch h.kind {
	case kind.Root, kind.Negate, kind.AlwaysSucceed, kind.AlwaysFail, kind.Sequence, kind.Select:
		// A sequence or select that is not reactive and runs has one
		// child that runs: the one it resumes.
		return true
	case kind.Repeat, kind.Retry:
		if h.bound != kind.Unbounded {
			i := uint(p.sw + 2*p.nodes[n].slot)
			if count, target := r.word(i), r.word(i+1); count >= target {
				return false // it ends without updating its child
			}
		}
		return true
	case kind.Lotto:
		pick := r.word(uint(p.sw + 2*p.nodes[n].slot))
		return pick < uint64(h.n) && p.kids[h.first+int32(pick)] == c
	}
	return false
}

// next returns the child of node n, RUNNING, that the rules' update of n
// updates, when n is a node the path goes through, or -1 (the step then
// takes the rules).
func (r *resumer[L]) next(n int32) int32 {
	p := r.p
	h := &p.hot[n]
	var c int32
	switch h.kind {
	case kind.Sequence, kind.Select:
		kids := p.kids[h.first : h.first+h.n]
		c = kids[r.wentOn(kids, seqRules[h.kind].goOn)]
	case kind.Lotto:
		pick := r.word(uint(p.sw + 2*p.nodes[n].slot))
		if pick >= uint64(h.n) {
			return -1
		}
		c = p.kids[h.first+int32(pick)]
	case kind.Leaf:
		return -1
	default:
		if h.n != 1 {
			return -1
		}
		c = p.kids[h.first]
	}
	if r.get(c) != StateRunning || !r.passes(n, c) {
		return -1
	}
	return c
}

// running returns the action at the end of the running path of the
// version, if the path goes through every node down to it, and whether
// calls are made on the way (guards, step callbacks); -1 if not. It looks
// at the hint first (hinted), if hint is set; else it goes down from the
// root, and makes the action it finds the hint.
func (r *resumer[L]) running(hint bool) (int32, bool) {
	p := r.p
	resumeUps(p)
	at := int32(-1)
	if rp := p.resumeHint.path.Load(); rp != nil {
		at = rp.leaf
	}
	if hint {
		if n, calls := r.hinted(at); n >= 0 {
			return n, calls
		}
		if uint(at) < uint(len(p.hot)) && p.hot[at].kind == kind.Leaf && r.get(at) != StateRunning &&
			p.resumeHint.misses.Add(1)&resumeSearchEvery != 0 {
			return -1, false // the hint does not hold: the rules (resume)
		}
	}
	if r.get(0) != StateRunning {
		return -1, false
	}
	n, calls := int32(0), false
	for {
		if !p.hot[n].is(hotPlain) {
			calls = calls || hasPathCalls(&p.nodes[n])
		}
		if p.hot[n].kind == kind.Leaf {
			break
		}
		if n = r.next(n); n < 0 {
			return -1, false
		}
	}
	if at != n {
		setResumeHint(p, n)
	}
	return n, calls
}

// hinted returns leaf, and whether calls are made on the way, if the
// running path ends at that action: from it up to the root, each node is
// RUNNING and passes to its child. Else it returns -1.
func (r *resumer[L]) hinted(leaf int32) (int32, bool) {
	p := r.p
	if uint(leaf) >= uint(len(p.hot)) || p.hot[leaf].kind != kind.Leaf {
		return -1, false
	}
	st, calls := r.states, false
	for c := leaf; ; {
		var cs State
		if w := uint(c >> 5); w < uint(len(st)) {
			cs = State(st[w] >> (2 * uint(c&31)) & 3)
		} else if r.isSmall {
			cs = State(r.small >> (2 * uint(c)) & 3)
		} else {
			cs = r.getSlow(c)
		}
		if cs != StateRunning {
			return -1, false
		}
		h := &p.hot[c]
		if !h.is(hotPlain) {
			calls = calls || hasPathCalls(&p.nodes[c])
		}
		n := p.nodes[c].parent
		if n < 0 {
			return leaf, calls
		}
		if p.pure != nil && p.pure[n] {
			return -1, false
		}
		switch p.hot[n].kind {
		case kind.Root, kind.Negate, kind.AlwaysSucceed, kind.AlwaysFail, kind.Sequence, kind.Select:
		default:
			if !r.passes(n, c) {
				return -1, false
			}
		}
		c = n
	}
}

// stepBig is the step without events of a version whose program has no
// step cache, or whose cache is off (Step, Tick and tickWith choose it):
// the resume path, or the rules. Its common case is written here, small
// so that its frame is: the hint's path holds (every node of it RUNNING,
// read in a word or two), the agent's plain Action, a version without
// pending async results or memory; a Running answer, and the new version
// is t. Everything else is stepResume's (or, after the call, the rules').
func (t Stepped[L]) stepBig(td TimeData, ticked bool) (nt Stepped[L], err error) {
	m := t.m
	p := m.p
	rp := p.resumeHint.path.Load()
	act := m.act
	if rp == nil || act == nil || t.x != nil || !resumeOn {
		return t.stepResume(td, ticked)
	}
	var miss uint64
	switch rp.mode {
	case pathFlat:
		miss = (*(*uint64)(unsafe.Add(t.words, rp.off0))^allRunning)&rp.mask0 |
			(*(*uint64)(unsafe.Add(t.words, rp.off1))^allRunning)&rp.mask1
		if rp.more != nil {
			miss |= moreMiss(t.words, rp.more)
		}
	case pathSmall:
		miss = (t.small ^ allRunning) & rp.mask0
	case pathTrie:
		miss = trieMiss(t.words, p.depth, rp)
	default: // pathNone
		return t.stepFull(td, ticked)
	}
	if miss != 0 {
		return t.stepMissed(td, ticked)
	}
	// An action that panics makes the step fail with t (nt), naming the
	// action (calling, -1 once it has returned: no recover).
	leaf := rp.leaf
	nt, calling := t, leaf
	defer func() {
		if calling >= 0 {
			if x := recover(); x != nil {
				err = actPanicked(p, calling, x)
			}
		}
	}()
	ans := act(p.leaves[leaf])
	calling = -1
	if ans.Async != nil || ans.Status != Running {
		return nt.resumeAfter(td, ticked, leaf, ans, nil)
	}
	return // nt is t: t need not be kept across the call
}

// moreMiss is stepBig's check of the words of a long path after the
// first two: not 0 if a node of theirs is not RUNNING.
func moreMiss(words unsafe.Pointer, more []pathCheck) (miss uint64) {
	for _, c := range more {
		miss |= (*(*uint64)(unsafe.Add(words, c.off)) ^ allRunning) & c.mask
	}
	return miss
}

// trieMiss is stepBig's check of rp's words in the trie root of the given
// depth: not 0 if a node of the path is not RUNNING.
func trieMiss(root unsafe.Pointer, depth int32, rp *resumePath) uint64 {
	miss := (trieWord(root, depth, uint(rp.off0/8))^allRunning)&rp.mask0 |
		(trieWord(root, depth, uint(rp.off1/8))^allRunning)&rp.mask1
	for _, c := range rp.more {
		miss |= (trieWord(root, depth, uint(c.off/8)) ^ allRunning) & c.mask
	}
	return miss
}

// actPanicked is the error of a step whose action leaf panicked with x.
//
//go:noinline
func actPanicked[L any](p *sprogram[L], leaf int32, x any) error {
	return panicError(p, leaf, fnAction, x)
}

// stepResume is stepBig's step when its common case does not apply:
// the resume path for any version and agent, or the rules.
//
//go:noinline
func (t Stepped[L]) stepResume(td TimeData, ticked bool) (Stepped[L], error) {
	if resumeOn && t.pending() == nil && t.rootRunning() {
		if nt, err, ok := t.resume(td, ticked); ok {
			return nt, err
		}
	}
	return t.stepRules(td, ticked, nil, nil, nil)
}

// stepMissed is stepBig's step when the hint's path does not hold (the
// version has no extras, the agent has a plain Action, the switch is on):
// if the root runs, the first alternate path that holds (resumeAct); else,
// at one in resumeSearchEvery+1 of them, the search (resumeFull), which
// makes the action it finds the hint; else the rules.
//
//go:noinline
func (t Stepped[L]) stepMissed(td TimeData, ticked bool) (Stepped[L], error) {
	if t.rootRunning() {
		h := &t.m.p.resumeHint
		for i := range h.alts {
			if rp := h.alts[i].Load(); rp != nil && t.pathMiss(rp) == 0 {
				return t.resumeAct(td, ticked, rp.leaf)
			}
		}
		if h.misses.Add(1)&resumeSearchEvery == 0 {
			if nt, err, ok := t.resumeFull(td, ticked, false); ok {
				return nt, err
			}
		}
	}
	return t.stepRules(td, ticked, nil, nil, nil)
}

// pathMiss is stepBig's check of rp: 0 if it holds in t.
func (t *Stepped[L]) pathMiss(rp *resumePath) uint64 {
	switch rp.mode {
	case pathFlat:
		return (*(*uint64)(unsafe.Add(t.words, rp.off0))^allRunning)&rp.mask0 |
			(*(*uint64)(unsafe.Add(t.words, rp.off1))^allRunning)&rp.mask1 |
			moreMiss(t.words, rp.more)
	case pathSmall:
		return (t.small ^ allRunning) & rp.mask0
	case pathTrie:
		return trieMiss(t.words, t.m.p.depth, rp)
	}
	return 1
}

// resumeAct is stepBig's call of action leaf, by the agent's plain
// Action, for stepMissed.
func (t Stepped[L]) resumeAct(td TimeData, ticked bool, leaf int32) (nt Stepped[L], err error) {
	p := t.m.p
	nt, calling := t, leaf
	defer func() {
		if calling >= 0 {
			if x := recover(); x != nil {
				err = actPanicked(p, calling, x)
			}
		}
	}()
	ans := t.m.act(p.leaves[leaf])
	calling = -1
	if ans.Async != nil || ans.Status != Running {
		return t.resumeAfter(td, ticked, leaf, ans, nil)
	}
	return t, nil
}

// stepFull is stepBig's step when the hint's action is not reachable by
// states alone (calls on the way, or another kind of node): resumeFull,
// or the rules.
//
//go:noinline
func (t Stepped[L]) stepFull(td TimeData, ticked bool) (Stepped[L], error) {
	if nt, err, ok := t.resumeFull(td, ticked, true); ok {
		return nt, err
	}
	return t.stepRules(td, ticked, nil, nil, nil)
}

// rootRunning reports whether t's root is RUNNING.
func (t *Stepped[L]) rootRunning() bool {
	p := t.m.p
	var w uint64
	switch {
	case p.small:
		w = t.small
	case p.trie:
		w = trieWord(t.words, p.depth, 0)
	default:
		w = *(*uint64)(t.words)
	}
	return State(w&3) == StateRunning
}

// resume is the step of t, whose root is RUNNING and which has no pending
// async result, by the resume path. ok is false when the path does not
// apply: nothing has been called, and the step takes the rules. It is
// stepBig's common case for any version and agent (memory, timed, Fluent,
// a trie): the hint's path holds; the others are resumeFull's.
func (t Stepped[L]) resume(td TimeData, ticked bool) (nt Stepped[L], err error, ok bool) {
	m := t.m
	p := m.p
	h := &p.resumeHint
	rp := h.path.Load()
	if rp == nil || rp.mode == pathNone { // no hint yet, or one not reachable by states alone
		return t.resumeFull(td, ticked, true)
	}
	var r stateReader
	if readerStart(&r, &t); !r.holds(rp) {
		if h.misses.Add(1)&resumeSearchEvery != 0 {
			return t, nil, false // the rules, cheaper than the search
		}
		return t.resumeFull(td, ticked, false)
	}
	leaf := rp.leaf
	var bb *Blackboard
	if m.mem {
		bb = &Blackboard{mem: t.Memory(), td: td}
	}
	defer func() {
		if x := recover(); x != nil {
			nt, err, ok = t, panicError(p, leaf, fnAction, x), true
		}
	}()
	var ans Result
	switch v := p.leaves[leaf]; {
	case m.act != nil:
		ans = m.act(v)
	case m.fluent != nil:
		ans = Result{Status: m.fluent.do[leaf](td)}
	default:
		ans = m.action(leaf, v, bb, td)
	}
	if ans.Async != nil || ans.Status != Running {
		nt, err = t.resumeAfter(td, ticked, leaf, ans, bb)
		return nt, err, true
	}
	if bb != nil {
		t.x = withExtra(t.x, nil, bb.mem, t.ids())
	}
	return t, nil, true
}

// holds reports whether the version r reads holds every check of rp.
func (r *stateReader) holds(rp *resumePath) bool {
	switch rp.mode {
	case pathNone:
		return false
	case pathSmall:
		return (r.small^allRunning)&rp.mask0 == 0
	}
	if (r.word(uint(rp.off0/8))^allRunning)&rp.mask0 != 0 || (r.word(uint(rp.off1/8))^allRunning)&rp.mask1 != 0 {
		return false
	}
	for _, c := range rp.more {
		if (r.word(uint(c.off/8))^allRunning)&c.mask != 0 {
			return false
		}
	}
	return true
}

// resumeAfter is the step by the rules after resume's common case called
// the action, which answered ans (not Running).
func (t Stepped[L]) resumeAfter(td TimeData, ticked bool, leaf int32, ans Result, bb *Blackboard) (Stepped[L], error) {
	var r resumer[L]
	r.start(&t, td)
	r.bb, r.call = bb, fnAction
	return t.resumeRules(&r, leaf, 0, ans, ticked)
}

// readerStart makes r the reader of t's words.
func readerStart[L any](r *stateReader, t *Stepped[L]) {
	p := t.m.p
	r.small, r.isSmall, r.lc = t.small, p.small, ^uint(0)
	switch {
	case p.trie:
		r.root, r.depth = t.words, p.depth
	case t.words != nil:
		r.flat = unsafe.Slice((*uint64)(t.words), p.nwords)
		if !p.small {
			r.states = r.flat[:p.sw]
		}
	}
}

// start makes r the resumer of a step of t.
func (r *resumer[L]) start(t *Stepped[L], td TimeData) {
	readerStart(&r.stateReader, t)
	r.m, r.p, r.td = t.m, t.m.p, td
}

// resumeFull is resume for any version; hint tells it to look at the
// hint (resume found that it does not hold, or not).
func (t Stepped[L]) resumeFull(td TimeData, ticked bool, hint bool) (nt Stepped[L], err error, ok bool) {
	m := t.m
	p := m.p
	var r resumer[L]
	r.start(&t, td)
	n, calls := r.running(hint)
	if n < 0 {
		return t, nil, false
	}
	if m.mem {
		r.bb = &Blackboard{mem: t.Memory(), td: td}
	}
	defer func() {
		if x := recover(); x != nil {
			nt, err, ok = t, panicError(p, r.cur, r.call, x), true
		}
	}()
	made := 0 // the calls made before the action's
	if calls {
		var failed bool
		if made, failed = r.pathCalls(n, -1, nil); failed {
			nt, err = t.resumeRules(&r, n, made, Result{}, ticked)
			return nt, err, true
		}
	}
	r.cur, r.call = n, fnAction
	var ans Result
	switch v := p.leaves[n]; {
	case m.act != nil:
		ans = m.act(v)
	case m.fluent != nil:
		ans = Result{Status: m.fluent.do[n](td)}
	default:
		ans = m.action(n, v, r.bb, td)
	}
	if ans.Async != nil || ans.Status != Running {
		nt, err = t.resumeRules(&r, n, made, ans, ticked)
		return nt, err, true
	}
	if r.bb != nil {
		t.x = withExtra(t.x, nil, r.bb.mem, t.ids())
	}
	return t, nil, true
}

// hasPathCalls reports whether the update of node nd, RUNNING and
// staying RUNNING, calls anything before its kind's rule: guards (its own
// or above it) or a step callback. (Its entry callback is for a READY
// node, its exit callback for one that completes.)
func hasPathCalls[L any](nd *snode[L]) bool {
	return nd.g >= 0 || nd.at != nil && nd.at.has[attr.KindOnStep]
}

// pathCalls makes the calls of the guards and step callbacks on the path
// from the root down to the action leaf, top-down, as the rules' updates
// make them; it returns how many it made, and whether the last was a guard
// that failed. With rec (a fall-back's replay), it calls nothing: it adds
// the first limit calls to rec's script instead, each with the answer that
// let the step go on (the last one's answer is the caller's to set).
func (r *resumer[L]) pathCalls(leaf int32, limit int, rec *cacheRun[L]) (made int, failed bool) {
	p := r.p
	for n := int32(0); ; n = r.next(n) {
		if !p.hot[n].is(hotPlain) {
			nd := &p.nodes[n]
			if nd.g >= 0 {
				if made, failed = r.guards(nd.g, made, limit, rec); failed || made == limit {
					return made, failed
				}
			}
			if at := nd.at; at != nil && at.has[attr.KindOnStep] {
				if made == limit {
					return made, false
				}
				v := at.a[attr.KindOnStep].Value
				if rec != nil {
					rec.add(fnStep, n, Result{})
				} else {
					r.cur, r.call = n, fnStep
					r.m.callback(fnStep, v, r.bb, false, false)
				}
				made++
			}
		}
		if n == leaf {
			return made, false
		}
	}
}

// guards is pathCalls for the guards of the guarded nodes from the root
// down to g (the rules' guards).
func (r *resumer[L]) guards(g int32, made, limit int, rec *cacheRun[L]) (int, bool) {
	nd := &r.p.nodes[g]
	if nd.guardedAbove >= 0 {
		var failed bool
		if made, failed = r.guards(nd.guardedAbove, made, limit, rec); failed || made == limit {
			return made, failed
		}
	}
	at := nd.at
	for _, k := range [2]attr.Kind{attr.KindWhile, attr.KindUntil} {
		if !at.has[k] {
			continue
		}
		if made == limit {
			return made, false
		}
		call := fnWhile + agentFunc(k-attr.KindWhile)
		made++
		if rec != nil {
			rec.add(call, g, boolResult(k == attr.KindWhile))
			continue
		}
		r.cur, r.call = g, call
		v := at.a[k].Value
		var ok bool
		if f := r.m.cond; f != nil {
			ok = f(v)
		} else {
			ok = r.m.condition(g, true, v, r.bb, r.td)
		}
		if ok == (k == attr.KindUntil) {
			return made, true
		}
	}
	return made, false
}

// boolResult is the answer of a condition that returned ok, as a replay
// gives it.
func boolResult(ok bool) Result {
	if ok {
		return ResultSuccess
	}
	return ResultFailure
}

// add adds a call made, with its answer, to the script that a step by
// the rules replays.
func (c *cacheRun[L]) add(call agentFunc, n int32, ans Result) {
	c.path = append(c.path, &cachedCall[L]{call: call, node: n})
	c.script = append(c.script, ans)
}

// resumeRules is the step of t by the rules after the path made its
// calls: made calls on the path before the action's, then, if the last of
// them was not a guard that failed, the action's (which answered ans). The
// rules replay the answers, without calling again, then go on live.
func (t Stepped[L]) resumeRules(r *resumer[L], leaf int32, made int, ans Result, ticked bool) (Stepped[L], error) {
	rec := &cacheRun[L]{stop: true} // replay only: record nothing
	if made > 0 {
		r.pathCalls(leaf, made, rec)
	}
	if r.call == fnAction {
		rec.add(fnAction, leaf, ans)
	} else {
		// The action was not called: the last call was a guard that
		// failed, whose answer is the opposite of going on.
		last := &rec.script[len(rec.script)-1]
		*last = boolResult(last.Status != Success)
	}
	return t.stepRules(r.td, ticked, nil, rec, r.bb)
}
