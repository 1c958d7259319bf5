package behaviortree

import (
	"errors"
	"fmt"
	"sync/atomic"
)

// This file is the step cache of small stepped trees.
//
// The step of a tree of at most 64 nodes that keeps no extra words (no
// lotto, no counted or ranged repeat or retry, no timed wait, no
// generator: its words are its node states and nothing else) depends on
// nothing but its node states and on what the agent's functions return:
// the engine is deterministic between two calls of the agent. Its node
// states are its start key: one word (Stepped.small) for a tree of up to
// 32 nodes, two (Stepped.words) for 33 to 64 nodes (a wide cache). So the
// calls that a step makes from a given key form a trie: the first call,
// then, for each answer, the next call, and so on, down to the states the
// step ends in. The cache keeps that trie for the keys that steps start
// from. A step without events and without pending async results finds its
// key in a table, then calls the agent along the trie, following each
// answer, and ends in the states of the trie's leaf, without running the
// engine's rules at all. A wide cache's leaf ends in a two-word array, a
// version's words (which never change), that the new version shares: a
// step through it allocates nothing, where a step by the rules that
// changes a state copies the version's words.
//
// The engine fills the cache: a step whose key is not in the table runs
// the rules and records the calls it makes. A step that meets an answer
// the trie has no branch for yet (a missing branch, an async result, an
// invalid status) cannot start the rules over, since the agent has been
// called: it replays them from the start key with the answers already
// given (a script), without calling the agent again, then goes on live,
// recording. An async or invalid answer is never cached, so such a step
// always takes the rules.
//
// The cache is shared by every version and goroutine (its branches are
// set by compare-and-swap, never changed) and bounded: cacheStartSlots start
// keys, and cacheMaxCalls calls in all. Past that bound, steps that miss run
// the rules as without a cache. Its cost on a hit is one table probe and
// one branch per call; on a miss in the middle of a trie, one more run of
// the rules up to the miss.
//
// A cache never makes a step slower for long: once it is full it can no
// longer learn, and the steps that go through it are counted, by windows
// of cacheWindow steps. A window in which more than one step in
// cacheMissShare missed (a miss costs the calls made before it plus a
// whole step by the rules, with a replay) switches the cache off for the
// definition: every later step takes the rules directly (off). The
// counting costs an atomic add a step, and only once the cache is full.

const (
	cacheStartSlots = 512     // start keys, at most 3/4 of them used
	cacheProbes     = 8       // slots probed for a key
	cacheMaxCalls   = 1 << 12 // calls kept, in all

	cacheWindow    = 1 << 10 // steps counted, once the cache is full, between two verdicts
	cacheMissShare = 8       // a window with more than cacheWindow/cacheMissShare misses switches the cache off
)

// callStepEnds marks the trie node that ends a step.
const callStepEnds = fnDelta + 1

// stepCache is the step cache of one sprogram.
type stepCache[L any] struct {
	slots [cacheStartSlots]atomic.Pointer[cachedCall[L]] // the first node of each start key's trie
	nodes atomic.Int32                                   // trie nodes made, against cacheMaxCalls
	roots atomic.Int32                                   // start keys kept
	// wide: the tree has 33 to 64 nodes, its states in two words
	// (Stepped.words), which are the keys and the ends. Otherwise they
	// are Stepped.small, a key's second word 0.
	wide bool
	// Once the cache has no room for a start word (room) or for the
	// calls of a step (finishMiss, add): the steps and the misses of the
	// current window, and whether the cache kept missing (it is then off
	// for good).
	filled atomic.Bool
	steps  atomic.Int32
	misses atomic.Int32
	off    atomic.Bool
	pinned bool // tests: never switch off (set before the first step)
}

// counted reports a step that went through the full cache, which missed
// or not, and switches the cache off at the end of a window with too many
// misses. It is called only once filled is set.
func (mo *stepCache[L]) counted(missed bool) {
	if missed {
		mo.misses.Add(1)
	}
	if mo.steps.Add(1) != cacheWindow {
		return
	}
	if mo.misses.Load() > cacheWindow/cacheMissShare && !mo.pinned {
		mo.off.Store(true)
	}
	mo.misses.Store(0)
	mo.steps.Store(0)
}

// cachedCall is one call of the agent in a trie, or (call callStepEnds, only as
// the whole trie of a step that calls nothing) the end of a step.
type cachedCall[L any] struct {
	call      agentFunc // fnAction, fnCondition, fnWhile, fnUntil, fnEntry, fnStep, fnExit, or callStepEnds
	succeeded bool      // fnExit: the arguments of the call
	aborted   bool
	k         uint8      // the branch of parent that leads here
	node      int32      // the node called for
	final     uint64     // callStepEnds: the word the step ends in
	finalw    *[2]uint64 // (a wide cache's words)
	start     uint64     // the first node of a trie: its start key
	start2    uint64     // (a wide cache's second word)
	v         L
	parent    *cachedCall[L]
	// next, by answer: an action's Status (Running, Success, Failure),
	// a condition's or guard's false or true, 0 after a callback.
	next [3]atomic.Pointer[cachedCall[L]]
	// ends[k] is the word the step ends in after answer k (endw[k] the
	// words, in a wide cache), when bit k of ended is set (the branch then
	// has no next call).
	ends  [3]atomic.Uint64
	endw  [3]atomic.Pointer[[2]uint64]
	ended atomic.Uint32
}

// end makes branch k of e end the step in word final, or in a wide
// cache's words fw (not nil).
func (e *cachedCall[L]) end(k uint8, final uint64, fw *[2]uint64) {
	e.ends[k].Store(final)
	if fw != nil {
		e.endw[k].Store(fw)
	}
	e.ended.Or(1 << k) // after the ends: a step that sees the bit sees them
}

// startSlot returns the first slot probed for the start key (w0, w1).
func startSlot(w0, w1 uint64) uint64 {
	return ((w0 ^ w1*0xbf58476d1ce4e5b9) * 0x9e3779b97f4a7c15) >> (64 - 9) // cacheStartSlots = 1 << 9
}

// startKey returns the start key of a step from node states whose first
// word is w0 (the root's state in its low two bits) and second w1: the
// states themselves, or (0, 0), every node READY, when the root has
// completed (SUCCEEDED or FAILED). A step from a completed root resets
// the tree first (stepTree) and then makes the calls, and ends in the
// states, of a step from READY, whatever the states it completed in; so
// such steps share one trie, where keyed by their states they would each
// have their own (a tree that completes at most steps would fill the
// cache with copies of it).
func startKey(w0, w1 uint64) (uint64, uint64) {
	done := -(w0 >> 1 & 1) // all ones when the root's state is SUCCEEDED (2) or FAILED (3)
	return w0 &^ done, w1 &^ done
}

// room reports whether the cache may still take a start word.
// Once it has none, it is filled: from then on the steps through it are
// counted.
func (mo *stepCache[L]) room() bool {
	if mo.full() || mo.roots.Load() >= cacheStartSlots*3/4 {
		mo.filled.Store(true)
		return false
	}
	return true
}

// lookup returns the trie of the one-word start key word, or nil: find's
// probe for a key whose second word is 0, comparing the first only.
func (mo *stepCache[L]) lookup(word uint64) *cachedCall[L] {
	i := (word * 0x9e3779b97f4a7c15) >> (64 - 9) // startSlot(word, 0)
	for range cacheProbes {
		e := mo.slots[i%cacheStartSlots].Load()
		if e == nil {
			return nil
		}
		if e.start == word {
			return e
		}
		i++
	}
	return nil
}

// find returns the trie of the two-word start key (w0, w1) of a wide
// cache, or nil.
func (mo *stepCache[L]) find(w0, w1 uint64) *cachedCall[L] {
	i := startSlot(w0, w1)
	for range cacheProbes {
		e := mo.slots[i%cacheStartSlots].Load()
		if e == nil {
			return nil
		}
		if e.start == w0 && e.start2 == w1 {
			return e
		}
		i++
	}
	return nil
}

// liveCall is one call that a step made live, and the branch its answer
// takes (or -1 when it cannot be cached: async, invalid).
type liveCall[L any] struct {
	call      agentFunc
	succeeded bool
	aborted   bool
	k         int8
	node      int32
	v         L
}

// cacheRun is the cache's part in a step that runs the engine's rules: the
// calls already made, with their answers (replayed, not called again),
// then the calls made live, recorded to be added to the trie.
type cacheRun[L any] struct {
	path   []*cachedCall[L] // the calls already made, in order
	script []Result         // their answers
	at     int
	start  uint64         // the step's start key
	start2 uint64         // (a wide cache's second word)
	from   *cachedCall[L] // the trie node whose branch fromK the recorded calls hang from; nil for a new start word
	fromK  uint8
	calls  []liveCall[L]
	stop   bool // a call could not be cached: record no more
}

// errCacheDiverged is the error of a step whose rules, replayed, did not
// make the calls the cache has: a bug of the engine, which is
// deterministic between calls.
var errCacheDiverged = errors.New("internal error: the step cache's replay diverged from the recorded calls")

// replayed returns the answer of call (of node n), already made, if the
// replay goes on.
func (r *cacheRun[L]) replayed(call agentFunc, n int32) (Result, bool) {
	if r.at >= len(r.path) {
		return Result{}, false
	}
	if e := r.path[r.at]; e.call != call || e.node != n {
		panic(stepFailure{fmt.Errorf("behaviortree.Stepped.Step: node %d: %w", n, errCacheDiverged)})
	}
	r.at++
	return r.script[r.at-1], true
}

// record adds a live call with the branch k its answer takes (-1: none).
func (r *cacheRun[L]) record(call agentFunc, n int32, v L, k int8, succeeded, aborted bool) {
	if r.stop {
		return
	}
	if len(r.calls) >= 64 {
		r.stop = true // a long step: cache its start only
		return
	}
	r.calls = append(r.calls, liveCall[L]{call: call, node: n, v: v, k: k, succeeded: succeeded, aborted: aborted})
	if k < 0 {
		r.stop = true
	}
}

// actionBranch is the branch of an action's answer, or -1.
func actionBranch(r Result) int8 {
	if r.Async == nil && r.Status.valid() {
		return int8(r.Status)
	}
	return -1
}

// boolBranch is the branch of a condition's answer.
func boolBranch(ok bool) int8 {
	if ok {
		return 1
	}
	return 0
}

// full reports whether the cache has no room for another call.
func (mo *stepCache[L]) full() bool {
	return mo.nodes.Load() >= cacheMaxCalls
}

// reserve takes room for need more trie nodes, reporting false (and
// taking nothing) when the cache cannot hold them: the counter never
// passes cacheMaxCalls.
func (mo *stepCache[L]) reserve(need int32) bool {
	for {
		n := mo.nodes.Load()
		if n > cacheMaxCalls-need {
			return false
		}
		if mo.nodes.CompareAndSwap(n, n+need) {
			return true
		}
	}
}

// add puts the calls of a step that ended in word final, or in a wide
// cache's words fw (a version's words, which never change), into the
// trie.
func (mo *stepCache[L]) add(r *cacheRun[L], final uint64, fw *[2]uint64) {
	if len(r.calls) == 0 {
		switch {
		case r.stop:
			return
		case r.from != nil:
			r.from.end(r.fromK, final, fw) // no call between the miss and the end
			return
		}
	}
	if r.from == nil && mo.roots.Load() >= cacheStartSlots*3/4 {
		return
	}
	need := int32(len(r.calls)) // the nodes made below: one per call, or the end of a step that calls nothing
	if need == 0 {
		need = 1
	}
	if !mo.reserve(need) {
		mo.filled.Store(true) // no room for these calls: the cache can no longer learn them
		return
	}
	var first, last *cachedCall[L]
	lastK := uint8(0)
	link := func(m *cachedCall[L]) {
		if last == nil {
			first = m
			return
		}
		m.parent, m.k = last, lastK
		last.next[lastK].Store(m)
	}
	for _, c := range r.calls {
		m := &cachedCall[L]{call: c.call, node: c.node, v: c.v, succeeded: c.succeeded, aborted: c.aborted}
		link(m)
		if c.k < 0 {
			last = nil
			break
		}
		last, lastK = m, uint8(c.k)
	}
	switch {
	case r.stop:
	case last != nil:
		last.end(lastK, final, fw)
	default:
		first = &cachedCall[L]{call: callStepEnds, final: final, finalw: fw} // a step that calls nothing
	}
	if first == nil {
		mo.nodes.Add(-need)
		return
	}
	if r.from != nil {
		first.parent, first.k = r.from, r.fromK
		if !r.from.next[r.fromK].CompareAndSwap(nil, first) {
			mo.nodes.Add(-need) // a concurrent step added the same
		}
		return
	}
	first.start, first.start2 = r.start, r.start2
	i := startSlot(r.start, r.start2)
	for range cacheProbes {
		slot := &mo.slots[i%cacheStartSlots]
		if slot.CompareAndSwap(nil, first) {
			mo.roots.Add(1)
			return
		}
		if e := slot.Load(); e.start == r.start && e.start2 == r.start2 {
			break // a concurrent step added it
		}
		i++
	}
	mo.nodes.Add(-need) // not kept
}

// replay returns the calls that lead to trie node m, m included, and
// their answers, r being m's own.
func (m *cachedCall[L]) replay(r Result) ([]*cachedCall[L], []Result) {
	d := 0
	for p := m; p != nil; p = p.parent {
		d++
	}
	path, script := make([]*cachedCall[L], d), make([]Result, d)
	script[d-1] = r
	for p := m; p != nil; p = p.parent {
		d--
		path[d] = p
		if p.parent != nil {
			script[d-1] = branchAnswer(p.parent.call, p.k)
		}
	}
	return path, script
}

// branchAnswer is the answer that takes branch k of a call.
func branchAnswer(call agentFunc, k uint8) Result {
	switch call {
	case fnAction:
		return Result{Status: Status(k)}
	case fnCondition, fnWhile, fnUntil:
		if k == 1 {
			return ResultSuccess
		}
		return ResultFailure
	}
	return Result{}
}

// finishMiss finishes the step of t by the rules, replaying the answers that
// led to trie node e and ans, e's own answer, and adds what follows to the
// trie.
func (m *machine[L]) finishMiss(t Stepped[L], td TimeData, e *cachedCall[L], ans Result, bb *Blackboard) (Stepped[L], error) {
	if m.cache.filled.Load() {
		m.cache.counted(true)
	}
	r := &cacheRun[L]{}
	r.start, r.start2 = t.cacheKey()
	r.path, r.script = e.replay(ans)
	r.from = e // the calls made live hang from e's branch for ans
	if m.cache.full() {
		// Replay only: record nothing. The cache can no longer learn, even
		// when every start key is in it (room, which sets filled too, is
		// asked only for a new start key): from now on its steps count.
		m.cache.filled.Store(true)
		r.stop = true
	}
	switch e.call {
	case fnAction:
		if k := actionBranch(ans); k >= 0 {
			r.fromK = uint8(k)
		} else {
			r.from, r.stop = nil, true // an answer that is never cached
		}
	case fnCondition, fnWhile, fnUntil:
		r.fromK = uint8(boolBranch(ans.Status == Success))
	}
	return t.stepRules(td, false, nil, r, bb) // no timed wait in a cached tree; the writes of the calls made so far are in bb
}

// cacheKey returns t's start key in its step cache (startKey): of its
// small word, or (a wide cache) of its two words.
func (t *Stepped[L]) cacheKey() (uint64, uint64) {
	if t.m.cache.wide {
		w := (*[2]uint64)(t.words)
		return startKey(w[0], w[1])
	}
	return startKey(t.small, 0)
}

// panicError is the error of a step whose agent function (call, for node
// n) panicked with r: a *PanicError with the stack, when called by the
// deferred function that recovered r.
func panicError[L any](p *sprogram[L], n int32, call agentFunc, r any) error {
	var s stepper[L]
	s.p, s.cur, s.calling = p, n, call
	return s.recovered(r)
}
