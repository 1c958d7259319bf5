package btcpp

import (
	"fmt"
	"math/bits"
	"sort"
	"strconv"
	"time"

	bt "github.com/zipbt/behaviortree"
)

// This file holds the rules of README §3–§5 and TIMED.md: how one tick
// executes the tree, and each kind's tick and halt (read through the
// table of kinds, kinds.go).

// The flags of a nodeState.
const (
	fDone         uint16 = 1 << iota // in the parent Parallel's / ParallelAll's done set
	fActive                          // Precondition: the child runs without checking `if`
	fOnce                            // RunOnce: done
	fInCatch                         // TryCatch
	fChildRunning                    // Loop nodes
	fHasList                         // Loop nodes: the working list of this activation exists
	fExecuting                       // SkipUnlessUpdated / WaitValueUpdate
	fStarted                         // Delay, Timeout
	fComplete                        // Delay: the timer fired
	fTimedOut                        // Timeout: the timer fired over a running child
	fWaiting                         // Sleep
	fArmed                           // Delay, Timeout, Sleep: a timer is pending
)

// nodeState is the running state of one node in one version of a tree:
// its stored status and its kind's counters. A version holds one per
// node, in preorder. It holds no pointer and is 12 bytes, so that a tick
// copies and compares the slice quickly; the fields of the few kinds that
// need more are in a nodeExt.
type nodeState struct {
	status Status
	last   Status // RunOnce: the child's result
	flags  uint16
	// a and b are the kind's counters: Sequence family and TryCatch idx,
	// skipped; Parallel nS, nF; ParallelAll -, nF; IfThenElse k; Switch
	// running+1; Repeat and RetryUntilSuccessful count.
	a, b int32
}

// nodeExt is the rest of the state of the nodes whose kinds need it (the
// Loop nodes, the timed nodes and the entry-updated nodes: hasExt), one
// per such node in preorder (program.extOf).
type nodeExt struct {
	// seq is the write counter last seen (WasEntryUpdated,
	// SkipUnlessUpdated, WaitValueUpdate); for timers, the arming order.
	seq uint64
	// deadline is when the pending timer fires.
	deadline time.Duration
	// list is a Loop node's working list; it is never modified in place.
	list []Value
}

// hasExt reports whether the nodes of kind k have a nodeExt.
func hasExt(k *kind) bool {
	return k.timed || k.watches || k.loops
}

// xr returns node n's nodeExt to read (the zero one for a node without).
func (t *ticker) xr(n int) nodeExt {
	if i := t.p.extIndex(n); i >= 0 && t.ext != nil {
		return t.ext[i]
	}
	return nodeExt{}
}

// x returns node n's nodeExt to write: the first write of a tick copies
// the slice, which the version ticked shares until then.
func (t *ticker) x(n int) *nodeExt {
	if !t.extOwned {
		e := make([]nodeExt, t.p.extCount())
		copy(e, t.ext)
		t.ext, t.extOwned = e, true
	}
	return &t.ext[t.p.extIndex(n)]
}

func (s *nodeState) has(f uint16) bool { return s.flags&f != 0 }

func (s *nodeState) set(f uint16, on bool) {
	if on {
		s.flags |= f
	} else {
		s.flags &^= f
	}
}

// ticker is the working state of one tick of one version: the new
// version's node states and board, which the rules change in place.
type ticker struct {
	p  *program
	st []nodeState
	bb *board
	// next is the version being made (Tree.begin, ticker.end).
	next Tree
	// scratch is the ticker's own buffer of node states, which st is
	// while it ticks, kept between ticks (tickers).
	scratch []nodeState
	// mirror is the first node state of the version whose states the
	// buffer holds (the last one the ticker made), so that ticking it
	// needs no copy.
	mirror *nodeState
	// ext is the nodeExts, shared with the version ticked until
	// extOwned (x).
	ext      []nodeExt
	extOwned bool
	wake     bool          // the tree's wake-up flag (README §3)
	now      time.Duration // the clock (TIMED.md §5), constant during a tick
	armSeq   uint64        // how many timers were armed so far
	// rootTicks counts the executions of the root in which its tick ran;
	// budget, when > 0, is the most allowed (the error is ErrBudget).
	rootTicks, budget int
	// call is the handle of the Go leaf being called: one per tick, valid
	// only during a call (a leaf that ticks nothing can reuse it).
	call Call
	// rec is a learning tick's recorder (tick_cache.go), or the script of
	// a region handed back by the compiled moves (tick_moves.go), else nil.
	rec *recorder
	// given is the compiled moves' buffer of the answers given, kept
	// between ticks (tickers).
	given []given1
	// pend and ids are the version's pending async results and the last
	// id given (async.go); while mayAwait, the action of node awaitNode
	// is being called, and await is the Async it awaits.
	pend      *asyncEntry
	ids       uint64
	await     *bt.Async
	mayAwait  bool
	awaitNode int
}

// callFor returns the call handle for node n.
func (t *ticker) callFor(n int) *Call {
	if t.call.t != t {
		t.call.t = t
	}
	t.call.n = n
	return &t.call
}

// node returns the static node n.
func (t *ticker) node(n int) *nodeDef { return &t.p.nodes[n] }

// kids returns the children of n.
func (t *ticker) kids(n int) []int { return t.p.hotNode(n).kids }

// nee wraps err as the NodeExecutionError of node n, unless it already is
// one (README §9: the innermost node whose tick was running).
func (t *ticker) nee(n int, err error) error {
	if e, ok := err.(*Error); ok && (e.Type == NodeExecutionError || e.Type == ErrBudget) {
		return err
	}
	nd := t.node(n)
	return &Error{Type: NodeExecutionError, Node: n, atPath: nd.path, Msg: fmt.Sprintf("Exception in node '%s' [%s]", nd.path, nd.regID), Err: err}
}

// errorf returns an error of type typ raised by node n.
func (t *ticker) errorf(n int, typ ErrorType, format string, args ...any) error {
	return &Error{Type: typ, Node: -1, at: t.node(n).path, Msg: fmt.Sprintf(format, args...)}
}

// raw returns the XML value of n's port, or its default.
func (t *ticker) raw(n int, port string) (string, bool) {
	if pl := t.p.plan(n, port); pl != nil && pl.bits&pHas != 0 {
		return pl.raw, true
	}
	return "", false
}

// readPort reads n's port with the type typ (README §6.3).
func (t *ticker) readPort(n int, port, typ string) (Value, bool) {
	nd := t.node(n)
	pl := t.p.plan(n, port)
	if pl == nil || pl.bits&pHas == 0 {
		return Value{}, false
	}
	return t.bb.readPlan(nd.scope, pl, typ)
}

// writePort writes v with the static type typ to n's port (README §6.4):
// only a {k} (or {=}) reference is written.
func (t *ticker) writePort(n int, port, typ string, v Value) error {
	nd := t.node(n)
	pl := t.p.plan(n, port)
	if pl == nil || pl.bits&(pHas|pRef) != pHas|pRef {
		return nil
	}
	return t.bb.writeKey(nd.scope, pl.key, typ, v)
}

// readInt reads an int port; a failed read is a RuntimeError.
func (t *ticker) readInt(n int, port string) (int64, error) {
	if pl := t.p.plan(n, port); pl != nil && pl.bits&(pHas|pRef|pInt) == pHas|pInt {
		return pl.i, nil // a literal
	}
	v, ok := t.readPort(n, port, "int")
	if ok {
		if i, ok := valueInt(v); ok {
			return i, nil
		}
	}
	return 0, t.errorf(n, RuntimeError, "%s", missingParam(t.node(n).k.id, port))
}

// readStatus reads a NodeStatus port.
func (t *ticker) readStatus(n int, port string) (Status, bool) {
	if pl := t.p.plan(n, port); pl != nil && pl.bits&(pHas|pRef|pStatus) == pHas|pStatus {
		return Status(pl.st), true // a literal: statusNames is in Status order
	}
	v, ok := t.readPort(n, port, "NodeStatus")
	if !ok {
		return Idle, false
	}
	s, ok := valueString(v)
	if !ok {
		return Idle, false
	}
	return parseStatus(s)
}

// parseStatus reads a NodeStatus literal.
func parseStatus(s string) (Status, bool) {
	switch s {
	case "IDLE":
		return Idle, true
	case "RUNNING":
		return Running, true
	case "SUCCESS":
		return Success, true
	case "FAILURE":
		return Failure, true
	case "SKIPPED":
		return Skipped, true
	}
	return Idle, false
}

// evalBool evaluates a script of n and converts its value (README §8.4).
func (t *ticker) evalBool(n int, s *script) (bool, error) {
	v, err := s.eval(t.bb, t.node(n).scope, t.p.enums)
	if err != nil {
		return false, err
	}
	return scriptBool(v)
}

// run evaluates a script of n for its effects.
func (t *ticker) run(n int, s *script) error {
	if s == nil {
		return nil
	}
	_, err := s.eval(t.bb, t.node(n).scope, t.p.enums)
	return err
}

// The pre/post attributes, in the order they are checked and run.
const (
	preFailureIf = iota
	preSuccessIf
	preSkipIf
	preWhile
)

const (
	postOnSuccess = iota
	postOnFailure
	postPost
	postOnHalted
)

// execute executes node n (README §4). An error from n's tick is wrapped
// as n's NodeExecutionError; one from its pre/post conditions or its
// execution wrapper is returned as is, for the parent's tick to wrap.
func (t *ticker) execute(n int) (Status, error) {
	nd := t.node(n)
	st := &t.st[n]
	res, decided := Idle, false
	h := t.p.hotNode(n)
	plain := h.bits&bPlain != 0
	switch st.status {
	case Idle:
		if plain {
			break
		}
		for i, s := range nd.pre {
			if s == nil {
				continue
			}
			b, err := t.evalBool(n, s)
			if err != nil {
				return Idle, err
			}
			switch {
			case i == preFailureIf && b:
				res, decided = Failure, true
			case i == preSuccessIf && b:
				res, decided = Success, true
			case i == preSkipIf && b:
				res, decided = Skipped, true
			case i == preWhile && !b:
				res, decided = Skipped, true
			}
			if decided {
				break
			}
		}
	case Running:
		if s := nd.pre[preWhile]; s != nil && !plain {
			b, err := t.evalBool(n, s)
			if err != nil {
				return Idle, err
			}
			if !b {
				if err := t.halt(n); err != nil {
					return Idle, err
				}
				res, decided = Skipped, true
			}
		}
	}
	if !decided {
		if n == 0 {
			t.rootTicks++
			if t.budget > 0 && t.rootTicks > t.budget {
				return Idle, &Error{Type: ErrBudget, Node: -1, Msg: fmt.Sprintf("more than %d root executions in one tick", t.budget)}
			}
		}
		var err error
		res, err = h.tick(t, n)
		if err != nil {
			return Idle, t.nee(n, err)
		}
	}
	switch {
	case plain:
	case res == Success:
		if err := t.run(n, nd.post[postOnSuccess]); err != nil {
			return Idle, err
		}
		if err := t.run(n, nd.post[postPost]); err != nil {
			return Idle, err
		}
	case res == Failure:
		if err := t.run(n, nd.post[postOnFailure]); err != nil {
			return Idle, err
		}
		if err := t.run(n, nd.post[postPost]); err != nil {
			return Idle, err
		}
	}
	if res != Skipped {
		if res == Idle {
			return Idle, t.errIdle(n)
		}
		st = &t.st[n]
		st.status = res
	}
	if h.bits&bDecorator != 0 {
		if c := h.kids[0]; t.st[c].status.completed() {
			t.st[c].status = Idle
		}
	}
	if h.bits&bSync != 0 && res == Running {
		return Idle, t.errSyncRunning(n)
	}
	return res, nil
}

// errIdle is the error of a tick that returned IDLE.
func (t *ticker) errIdle(n int) error {
	return t.errorf(n, RuntimeError, "Node [%s]: you are not allowed to set manually the status to IDLE. If you know what you are doing (?) use resetStatus() instead.", t.node(n).name)
}

// errSyncRunning is the error of a synchronous action that returned
// RUNNING.
func (t *ticker) errSyncRunning(n int) error {
	return t.errorf(n, LogicError, "SyncActionNode MUST never return RUNNING")
}

// Fresh execution: a node that is IDLE, all of its subtree IDLE too (as
// every version made by ticks, halts and saves keeps it: a completed or
// halted Sequence resets its children and its index), and whose subtree
// holds only nodes without pre- or post-conditions, Sequences and
// Fallbacks of at most 64 children over leaves whose tick keeps no state
// (synchronous Go actions and conditions, AlwaysSuccess, AlwaysFailure,
// Script, ScriptCondition, SetBlackboard): bFresh, is executed by fresh
// when its parent executes it through executeChild (the Sequence family,
// the reactive controls, IfThenElse, WhileDoElse, Parallel, ParallelAll,
// SubTree and the plain decorators do). fresh makes the same calls and
// leaves the same states as execute and tickSequence, but does not store
// the result of a child that completes, which tickSequence would reset
// when the node completes: when a child runs or throws, it stores the
// states that execute would have left (freshStop). The tests
// TestFreshSameAsExecute and TestFreshRandomTrees check that both ways
// make the same versions, byte for byte.

// freshOff turns fresh execution off, for the tests that check it against
// execute.
var freshOff bool

// freshLeaf reports whether a leaf of kind k keeps no state between ticks
// and may be executed fresh.
func freshLeaf(k *kind) bool {
	if k.leaf != nil {
		return k.leaf.kind != leafAction
	}
	return k.fresh
}

// executeChild executes child c of a Sequence or Fallback: fresh when it
// can, storing a completed result as execute does.
func (t *ticker) executeChild(c int) (Status, error) {
	if t.p.hotNode(c).bits&bFresh == 0 || t.st[c].status != Idle || freshOff {
		return t.execute(c)
	}
	var r Status
	var err error
	if c < len(t.p.movesAt) && t.p.movesAt[c] >= 0 && t.rec == nil && !movesOff {
		r, err = t.runMoves(c)
	} else {
		r, err = t.fresh(c)
	}
	if err == nil && (r == Success || r == Failure) {
		t.st[c].status = r
	}
	return r, err
}

// fresh executes node n, which is IDLE with its subtree and bFresh, as
// execute does, except that a SUCCESS or FAILURE is returned without
// being stored (the node's state is otherwise as execute leaves it).
func (t *ticker) fresh(n int) (Status, error) {
	h := &t.p.hot[n]
	if len(h.kids) == 0 {
		res, err := h.tick(t, n)
		switch {
		case err != nil:
			return Idle, t.nee(n, err)
		case res == Success || res == Failure || res == Skipped:
			return res, nil
		case res == Idle:
			return Idle, t.errIdle(n)
		}
		t.st[n].status = res
		if h.bits&bSync != 0 && res == Running {
			return Idle, t.errSyncRunning(n)
		}
		return res, nil
	}
	goOn, stop := Success, Failure
	if h.bits&bFallback != 0 {
		goOn, stop = Failure, Success
	}
	var skipped uint64 // the children that were skipped, by bit
	for i, c := range h.kids {
		r, err := t.fresh(c)
		if err != nil {
			t.freshStop(n, i, skipped, goOn)
			return Idle, t.nee(n, err)
		}
		switch r {
		case goOn:
		case stop:
			t.freshReset(n, skipped)
			st := &t.st[n]
			st.a, st.b = 0, int32(bits.OnesCount64(skipped))
			return stop, nil
		case Skipped:
			skipped |= 1 << uint(i)
		case Running:
			t.freshStop(n, i, skipped, goOn)
			return Running, nil
		default:
			// A status that is none of the five: go on as tickSequence
			// does from this child.
			t.freshStop(n, i, skipped, goOn)
			return tickSequence(t, n)
		}
	}
	t.freshReset(n, skipped)
	st := &t.st[n]
	st.a, st.b = 0, 0
	if bits.OnesCount64(skipped) == len(h.kids) {
		// execute does not store SKIPPED: the node keeps the RUNNING
		// that tickSequence set.
		st.status = Running
		return Skipped, nil
	}
	return goOn, nil
}

// freshReset is resetChildren of n when it completes: the children that
// returned SKIPPED and are Sequences or Fallbacks keep the RUNNING that
// tickSequence set, and are halted (so IDLE, their subtree IDLE already);
// the others are IDLE already.
func (t *ticker) freshReset(n int, skipped uint64) {
	for skipped != 0 {
		j := bits.TrailingZeros64(skipped)
		skipped &^= 1 << uint(j)
		if c := t.p.hot[n].kids[j]; len(t.p.hot[c].kids) > 0 {
			t.st[c].status = Idle
		}
	}
}

// freshStop stores the states that tickSequence leaves when child i of n
// runs or throws: n RUNNING at i, with its skipped count, and the
// children before i that were not skipped with their result, goOn.
func (t *ticker) freshStop(n, i int, skipped uint64, goOn Status) {
	kids := t.p.hot[n].kids
	for j, c := range kids[:i] {
		if skipped&(1<<uint(j)) == 0 {
			t.st[c].status = goOn
		}
	}
	st := &t.st[n]
	st.status, st.a, st.b = Running, int32(i), int32(bits.OnesCount64(skipped))
}

// halt halts node n (README §4): its kind's halt, IDLE, then _onHalted.
func (t *ticker) halt(n int) error {
	nd := t.node(n)
	if err := nd.k.halt(t, n); err != nil {
		return err
	}
	t.st[n].status = Idle
	return t.run(n, nd.post[postOnHalted])
}

// haltTree is BehaviorTree.CPP's Tree::haltTree: halt the root, then
// every node in preorder (each node's own halt, IDLE, and _onHalted), and
// the root is IDLE.
func (t *ticker) haltTree() error {
	if len(t.st) == 0 {
		return nil
	}
	if err := t.halt(0); err != nil {
		return err
	}
	for n := range t.st {
		if err := t.halt(n); err != nil {
			return err
		}
	}
	t.st[0].status = Idle
	return nil
}

// resetChild halts c if it is RUNNING, then sets it IDLE (haltChild).
func (t *ticker) resetChild(c int) error {
	if t.st[c].status == Running {
		if err := t.halt(c); err != nil {
			return err
		}
	}
	t.st[c].status = Idle
	return nil
}

// resetChildren resets every child of n in order.
func (t *ticker) resetChildren(n int) error {
	for _, c := range t.kids(n) {
		if s := &t.st[c]; s.status != Running {
			s.status = Idle
			continue
		}
		if err := t.resetChild(c); err != nil {
			return err
		}
	}
	return nil
}

// tickRoot is one tick of README §3: one execution of the root, or with
// once, more while it is RUNNING and the wake-up flag is set. A completed
// root is set back to IDLE.
func (t *ticker) tickRoot(once bool) (Status, error) {
	res, err := t.execute(0)
	for err == nil && once && res == Running && t.wake {
		t.wake = false
		res, err = t.execute(0)
	}
	if err != nil {
		return Idle, err
	}
	if res.completed() {
		t.st[0].status = Idle
	}
	return res, nil
}

// --- Controls (README §5.1) ---

// The bits of a node that the program works out once (program.bits).
const (
	bPlain     uint8 = 1 << iota // no pre- or post-condition attribute
	bFallback                    // Sequence family: goes on after FAILURE
	bMemory                      // Sequence family: SequenceWithMemory
	bYield                       // Sequence family: yields after a child's first SUCCESS (FAILURE)
	bDecorator                   // the kind's decorator()
	bSync                        // the kind's sync
	bFresh                       // executed by fresh when IDLE
	bLiteral                     // Repeat, RetryUntilSuccessful: the limit is a literal, not a {key}
)

// hotNode is what a tick reads of a node most: a copy of some of its
// nodeDef and kind, in a small record (program.hot).
type hotNode struct {
	tick func(t *ticker, n int) (Status, error)
	kids []int
	leaf *leafReg
	bits uint8
}

// seqBits returns the bits of the row facts of kind k that the Sequence
// family's rules read (tickSequence and fresh): the result after which it
// goes on (bFallback, the row's mirror), whether it keeps its index when a
// child fails (bMemory), and whether it yields (bYield). Other kinds get
// them too, from their own rows, and nothing reads them there.
func seqBits(k *kind) uint8 {
	var b uint8
	if k.mirror {
		b |= bFallback
	}
	if k.memory {
		b |= bMemory
	}
	if k.yield {
		b |= bYield
	}
	return b
}

// hotOf returns the hotNode of node nd.
func hotOf(nd *nodeDef) hotNode {
	b := seqBits(nd.k)
	if nd.pre == [4]*script{} && nd.post == [4]*script{} {
		b |= bPlain
	}
	if nd.k.decorator() {
		b |= bDecorator
	}
	if nd.k.sync {
		b |= bSync
	}
	if nd.k.tick != nil && len(nd.k.ports) > 0 && (nd.k.id == "Repeat" || nd.k.id == "RetryUntilSuccessful") {
		p := nd.k.ports[0]
		raw, ok := nd.attrs[p.Name]
		if !ok {
			raw = p.Default
		}
		if _, ref := refKey(raw, p.Name); !ref {
			b |= bLiteral
		}
	}
	return hotNode{tick: nd.k.tick, kids: nd.kids, leaf: nd.k.leaf, bits: b}
}

// tickSequence is the tick of Sequence, Fallback, AsyncSequence,
// AsyncFallback and SequenceWithMemory (and SequenceStar), by seqBits.
func tickSequence(t *ticker, n int) (Status, error) {
	bits := t.p.hotNode(n).bits
	goOn, stop := Success, Failure // the result that moves on, the one that ends
	if bits&bFallback != 0 {
		goOn, stop = Failure, Success
	}
	memory := bits&bMemory != 0
	yield := bits&bYield != 0
	kids := t.kids(n)
	st := &t.st[n]
	if st.status == Idle {
		st.b = 0
	}
	st.status = Running
	for int(st.a) < len(kids) {
		c := kids[st.a]
		prev := Idle
		if yield {
			prev = t.st[c].status
		}
		r, err := t.executeChild(c)
		st = &t.st[n]
		if err != nil {
			return Idle, err
		}
		switch r {
		case Running:
			return Running, nil
		case stop:
			if memory {
				for _, c := range kids[st.a:] {
					if err := t.resetChild(c); err != nil {
						return Idle, err
					}
				}
				return stop, nil
			}
			if err := t.resetChildren(n); err != nil {
				return Idle, err
			}
			t.st[n].a = 0
			return stop, nil
		case goOn:
			st.a++
			if yield && prev == Idle && int(st.a) < len(kids) {
				t.wake = true
				return Running, nil
			}
		case Skipped:
			st.a++
			st.b++
		}
	}
	all := int(st.b) == len(kids)
	if err := t.resetChildren(n); err != nil {
		return Idle, err
	}
	st = &t.st[n]
	st.a, st.b = 0, 0
	if all {
		return Skipped, nil
	}
	return goOn, nil
}

// haltSequence clears idx and skipped, then resets the children.
func haltSequence(t *ticker, n int) error {
	t.st[n].a, t.st[n].b = 0, 0
	return t.resetChildren(n)
}

// haltCounter clears the node's counter (a: IfThenElse's k, SwitchN's
// running child, Repeat's and RetryUntilSuccessful's count), then resets
// the children.
func haltCounter(t *ticker, n int) error {
	t.st[n].a = 0
	return t.resetChildren(n)
}

// haltSequenceWithMemory only resets the children: idx is kept.
func haltSequenceWithMemory(t *ticker, n int) error { return t.resetChildren(n) }

// haltControl resets the children.
func haltControl(t *ticker, n int) error { return t.resetChildren(n) }

// tickReactive is the tick of ReactiveSequence and ReactiveFallback.
func tickReactive(t *ticker, n int) (Status, error) {
	k := t.node(n).k
	goOn, stop := k.goOn(), k.stop()
	kids := t.kids(n)
	t.st[n].status = Running
	allSkipped := true
	for i, c := range kids {
		r, err := t.executeChild(c)
		if err != nil {
			return Idle, err
		}
		allSkipped = allSkipped && r == Skipped
		switch r {
		case Running:
			for j, o := range kids {
				if j != i {
					if err := t.resetChild(o); err != nil {
						return Idle, err
					}
				}
			}
			return Running, nil
		case stop:
			if err := t.resetChildren(n); err != nil {
				return Idle, err
			}
			return stop, nil
		case Skipped:
			if err := t.resetChild(c); err != nil {
				return Idle, err
			}
		}
	}
	if err := t.resetChildren(n); err != nil {
		return Idle, err
	}
	if allSkipped {
		return Skipped, nil
	}
	return goOn, nil
}

// threshold is T(v) of README §5.1.
func threshold(count int, v int64) int64 {
	if v < 0 {
		return max(int64(count)+v+1, 0)
	}
	return v
}

// clearParallel clears a Parallel's done set and counters.
func (t *ticker) clearParallel(n int) {
	for _, c := range t.kids(n) {
		t.st[c].set(fDone, false)
	}
	t.st[n].a, t.st[n].b = 0, 0
}

// tickParallel is Parallel's tick.
func tickParallel(t *ticker, n int) (Status, error) {
	sc, err := t.readInt(n, "success_count")
	if err != nil {
		return Idle, err
	}
	fc, err := t.readInt(n, "failure_count")
	if err != nil {
		return Idle, err
	}
	kids := t.kids(n)
	count := int64(len(kids))
	ts, tf := threshold(len(kids), sc), threshold(len(kids), fc)
	if count < ts {
		return Idle, t.errorf(n, RuntimeError, "Number of children is less than threshold. Can never succeed.")
	}
	if count < tf {
		return Idle, t.errorf(n, RuntimeError, "Number of children is less than threshold. Can never fail.")
	}
	t.st[n].status = Running
	skippedNow := int64(0)
	finish := func(r Status) (Status, error) {
		t.clearParallel(n)
		if err := t.resetChildren(n); err != nil {
			return Idle, err
		}
		return r, nil
	}
	for _, c := range kids {
		if !t.st[c].has(fDone) {
			r, err := t.executeChild(c)
			if err != nil {
				return Idle, err
			}
			switch r {
			case Skipped:
				skippedNow++
			case Success:
				t.st[c].set(fDone, true)
				t.st[n].a++
			case Failure:
				t.st[c].set(fDone, true)
				t.st[n].b++
			}
		}
		nS, nF := int64(t.st[n].a), int64(t.st[n].b)
		if nS >= ts || (sc < 0 && nS+skippedNow >= ts) {
			return finish(Success)
		}
		if count-nF < ts || nF == tf {
			return finish(Failure)
		}
	}
	if skippedNow == count {
		return Skipped, nil
	}
	return Running, nil
}

// haltParallel clears the done set and counters, then resets the children.
func haltParallel(t *ticker, n int) error {
	t.clearParallel(n)
	return t.resetChildren(n)
}

// tickParallelAll is ParallelAll's tick.
func tickParallelAll(t *ticker, n int) (Status, error) {
	mf, err := t.readInt(n, "max_failures")
	if err != nil {
		return Idle, err
	}
	kids := t.kids(n)
	count := len(kids)
	tf := threshold(count, mf)
	if int64(count) < tf {
		return Idle, t.errorf(n, RuntimeError, "Number of children is less than threshold. Can never fail.")
	}
	t.st[n].status = Running
	skippedNow, done := 0, 0
	for _, c := range kids {
		if t.st[c].has(fDone) {
			done++
			continue
		}
		r, err := t.executeChild(c)
		if err != nil {
			return Idle, err
		}
		switch r {
		case Success:
			t.st[c].set(fDone, true)
			done++
		case Failure:
			t.st[c].set(fDone, true)
			done++
			t.st[n].b++
		case Skipped:
			skippedNow++
		}
	}
	if skippedNow == count {
		return Skipped, nil
	}
	if skippedNow+done >= count {
		if err := t.resetChildren(n); err != nil {
			return Idle, err
		}
		r := Success
		if int64(t.st[n].b) >= tf {
			r = Failure
		}
		t.clearParallel(n)
		return r, nil
	}
	return Running, nil
}

// tickIfThenElse is IfThenElse's tick.
func tickIfThenElse(t *ticker, n int) (Status, error) {
	kids := t.kids(n)
	if len(kids) != 2 && len(kids) != 3 {
		return Idle, t.errorf(n, RuntimeError, "IfThenElseNode must have either 2 or 3 children")
	}
	t.st[n].status = Running
	if t.st[n].a == 0 {
		r, err := t.executeChild(kids[0])
		if err != nil {
			return Idle, err
		}
		switch r {
		case Running:
			return Running, nil
		case Success:
			t.st[n].a = 1
		case Failure:
			if len(kids) != 3 {
				return Failure, nil
			}
			t.st[n].a = 2
		default:
			return Idle, t.errorf(n, StdLogicError, "Something unexpected happened in IfThenElseNode")
		}
	}
	r, err := t.executeChild(kids[t.st[n].a])
	if err != nil {
		return Idle, err
	}
	if r == Running {
		return Running, nil
	}
	if err := t.resetChildren(n); err != nil {
		return Idle, err
	}
	t.st[n].a = 0
	return r, nil
}

// tickWhileDoElse is WhileDoElse's tick.
func tickWhileDoElse(t *ticker, n int) (Status, error) {
	kids := t.kids(n)
	if len(kids) != 2 && len(kids) != 3 {
		return Idle, t.errorf(n, RuntimeError, "WhileDoElseNode must have either 2 or 3 children")
	}
	t.st[n].status = Running
	r0, err := t.executeChild(kids[0])
	if err != nil {
		return Idle, err
	}
	if r0 == Running {
		return Running, nil
	}
	r := Idle
	switch r0 {
	case Success:
		if len(kids) == 3 {
			if err := t.resetChild(kids[2]); err != nil {
				return Idle, err
			}
		}
		if r, err = t.executeChild(kids[1]); err != nil {
			return Idle, err
		}
	case Failure:
		if len(kids) == 3 {
			if err := t.resetChild(kids[1]); err != nil {
				return Idle, err
			}
			if r, err = t.executeChild(kids[2]); err != nil {
				return Idle, err
			}
		} else {
			r = Failure
		}
	}
	if r == Running {
		return Running, nil
	}
	if err := t.resetChildren(n); err != nil {
		return Idle, err
	}
	return r, nil
}

// tickSwitch is SwitchN's tick.
func tickSwitch(t *ticker, n int) (Status, error) {
	kids := t.kids(n)
	cases := len(t.node(n).k.ports) - 1
	if len(kids) != cases+1 {
		return Idle, t.errorf(n, RuntimeError, "Wrong number of children in SwitchNode; must be (num_cases + default)")
	}
	match := cases
	if v, ok := t.readPort(n, "variable", "string"); ok {
		if vs, ok := valueString(v); ok {
			for i := 1; i <= cases; i++ {
				c, ok := t.readPort(n, "case_"+strconv.Itoa(i), "string")
				if !ok {
					continue
				}
				if cs, ok := valueString(c); ok && switchEqual(vs, cs, t.p.enums) {
					match = i - 1
					break
				}
			}
		}
	}
	running := int(t.st[n].a) - 1
	if running != -1 && running != match {
		if err := t.resetChild(kids[running]); err != nil {
			return Idle, err
		}
	}
	r, err := t.execute(kids[match])
	if err != nil {
		return Idle, err
	}
	switch r {
	case Skipped:
		t.st[n].a = 0
	case Running:
		t.st[n].a = int32(match) + 1
	default:
		if err := t.resetChildren(n); err != nil {
			return Idle, err
		}
		t.st[n].a = 0
	}
	return r, nil
}

// tickTryCatch is TryCatch's tick (TIMED.md §8).
func tickTryCatch(t *ticker, n int) (Status, error) {
	kids := t.kids(n)
	try := len(kids) - 1
	st := &t.st[n]
	if st.status == Idle {
		st.b = 0
		st.set(fInCatch, false)
	}
	st.status = Running
	for !t.st[n].has(fInCatch) && int(t.st[n].a) < try {
		r, err := t.execute(kids[t.st[n].a])
		if err != nil {
			return Idle, err
		}
		st = &t.st[n]
		switch r {
		case Running:
			return Running, nil
		case Success:
			st.a++
		case Skipped:
			st.a++
			st.b++
		case Failure:
			if err := t.resetChildren(n); err != nil {
				return Idle, err
			}
			t.st[n].a = 0
			t.st[n].set(fInCatch, true)
		}
	}
	if t.st[n].has(fInCatch) {
		r, err := t.execute(kids[try])
		if err != nil {
			return Idle, err
		}
		if r == Running {
			return Running, nil
		}
		if err := t.resetChildren(n); err != nil {
			return Idle, err
		}
		t.st[n].a = 0
		t.st[n].set(fInCatch, false)
		return Failure, nil
	}
	if err := t.resetChildren(n); err != nil {
		return Idle, err
	}
	st = &t.st[n]
	st.a = 0
	r := Success
	if int(st.b) == try {
		r = Skipped
	}
	st.b = 0
	return r, nil
}

// haltTryCatch runs the catch child first when catch_on_halt asks for it.
func haltTryCatch(t *ticker, n int) error {
	kids := t.kids(n)
	catch := false
	if v, ok := t.readPort(n, "catch_on_halt", "bool"); ok {
		catch, _ = valueBool(v)
	}
	if catch && !t.st[n].has(fInCatch) && t.st[n].status != Idle {
		for _, c := range kids[:len(kids)-1] {
			if err := t.resetChild(c); err != nil {
				return err
			}
		}
		c := kids[len(kids)-1]
		r, err := t.execute(c)
		if err != nil {
			return err
		}
		if r == Running {
			if err := t.resetChild(c); err != nil {
				return err
			}
		}
	}
	st := &t.st[n]
	st.a, st.b = 0, 0
	st.set(fInCatch, false)
	return t.resetChildren(n)
}

// --- Decorators (README §5.2, TIMED.md) ---

// haltDecorator resets the child.
func haltDecorator(t *ticker, n int) error { return t.resetChildren(n) }

// executeOnly executes decorator n's one child and resets the child when it
// completed, as the library's decorators do in their ticks (README §4 step
// 5 resets it again after the decorator's execution). It returns IDLE
// with an error of the child's execution; a completed result with the
// reset's error, if any.
func (t *ticker) executeOnly(n int) (Status, error) {
	c := t.kids(n)[0]
	r, err := t.execute(c)
	if err != nil {
		return Idle, err
	}
	if r.completed() {
		return r, t.resetChild(c)
	}
	return r, nil
}

// tickMapped is the tick of the decorators that map their child's result
// (the row's onChild): Inverter, ForceSuccess, ForceFailure and
// KeepRunningUntilFailure. A child that completed is reset.
func tickMapped(t *ticker, n int) (Status, error) {
	c := t.kids(n)[0]
	t.st[n].status = Running
	r, err := t.executeChild(c)
	if err != nil {
		return Idle, err
	}
	out := t.node(n).k.onChild[r]
	if r.completed() {
		return out, t.resetChild(c)
	}
	return out, nil
}

// tickRepeat is the tick of Repeat and RetryUntilSuccessful. A literal
// limit of -1 (repeat forever) keeps no count: nothing reads it (the
// limit cannot change), and a count that never changes lets the versions
// of a tree that repeats repeat too (the tick cache, tick_cache.go).
func tickRepeat(t *ticker, n int) (Status, error) {
	k := t.node(n).k
	port, goOn, stop := k.ports[0].Name, k.goOn(), k.stop() // num_cycles or num_attempts
	limit, err := t.readInt(n, port)
	if err != nil {
		return Idle, err
	}
	c := t.kids(n)[0]
	loop := int64(t.st[n].a) < limit || limit == -1
	t.st[n].status = Running
	for loop {
		prev := t.st[c].status
		r, err := t.executeChild(c)
		if err != nil {
			return Idle, err
		}
		switch r {
		case goOn:
			if limit != -1 || t.p.hotNode(n).bits&bLiteral == 0 {
				t.st[n].a++
			}
			if goOn == Failure {
				// RetryUntilSuccessful reads num_attempts again; a failed
				// read keeps the old value.
				if v, err := t.readInt(n, port); err == nil {
					limit = v
				}
			}
			loop = int64(t.st[n].a) < limit || limit == -1
			if err := t.resetChild(c); err != nil {
				return Idle, err
			}
			if prev == Idle && loop {
				t.wake = true
				return Running, nil
			}
		case stop:
			t.st[n].a = 0
			return stop, t.resetChild(c)
		case Running:
			return Running, nil
		case Skipped:
			return Skipped, t.resetChild(c)
		}
	}
	t.st[n].a = 0
	return goOn, nil
}

// tickRunOnce is RunOnce's tick.
func tickRunOnce(t *ticker, n int) (Status, error) {
	skip := true
	if v, ok := t.readPort(n, "then_skip", "bool"); ok {
		if b, ok := valueBool(v); ok {
			skip = b
		}
	}
	if t.st[n].has(fOnce) {
		if skip {
			return Skipped, nil
		}
		return t.st[n].last, nil
	}
	t.st[n].status = Running
	r, err := t.executeOnly(n)
	if r.completed() {
		t.st[n].set(fOnce, true)
		t.st[n].last = r
	}
	return r, err
}

// codeScript returns the script of n's port (Script's and
// ScriptCondition's code, Precondition's if), parsing it again when its
// text differs from the one parsed at build time.
func (t *ticker) codeScript(n int, port string) (*script, error) {
	nd := t.node(n)
	v, ok := t.readPort(n, port, "string")
	var src string
	if ok {
		src, ok = valueString(v)
	}
	if !ok {
		return nil, t.errorf(n, RuntimeError, "missing port [%s]", port)
	}
	if src == nd.codeSrc && nd.code != nil {
		return nd.code, nil
	}
	s, err := parseScript(src)
	if err != nil {
		return nil, retype(err, RuntimeError)
	}
	return s, nil
}

// tickPrecondition is Precondition's tick.
func tickPrecondition(t *ticker, n int) (Status, error) {
	s, err := t.codeScript(n, "if")
	if err != nil {
		return Idle, err
	}
	els, ok := t.readStatus(n, "else")
	if !ok {
		return Idle, t.errorf(n, RuntimeError, "missing parameter [else] in Precondition")
	}
	if !t.st[n].has(fActive) {
		b, err := t.evalBool(n, s)
		if err != nil {
			return Idle, err
		}
		t.st[n].set(fActive, b)
	}
	if !t.st[n].has(fActive) {
		return els, nil
	}
	r, err := t.executeOnly(n)
	if r.completed() {
		t.st[n].set(fActive, false)
	}
	return r, err
}

// tickSubTree is a SubTree node's tick.
func tickSubTree(t *ticker, n int) (Status, error) {
	if t.st[n].status == Idle {
		t.st[n].status = Running
	}
	c := t.kids(n)[0]
	r, err := t.executeChild(c)
	if err != nil {
		return Idle, err
	}
	if r.completed() {
		return r, t.resetChild(c)
	}
	return r, nil
}

// tickLoop is the tick of LoopInt, LoopDouble, LoopString and LoopBool
// (TIMED.md §8).
func tickLoop(t *ticker, n int) (Status, error) {
	nd := t.node(n)
	st := &t.st[n]
	if st.status == Idle {
		st.set(fChildRunning, false)
		t.x(n).list = nil
		st.set(fHasList, false)
		if !nd.listRef {
			t.x(n).list = nd.list
			st.set(fHasList, true)
		}
	}
	popped := false
	if !st.has(fChildRunning) {
		if nd.listRef {
			list, err := t.loopEntry(n)
			if err != nil {
				return Idle, err
			}
			st = &t.st[n]
			if !st.has(fHasList) {
				t.x(n).list = list
				st.set(fHasList, true)
			}
		}
		if list := t.xr(n).list; len(list) > 0 {
			v := list[0]
			t.x(n).list = list[1:]
			popped = true
			if err := t.writePort(n, "value", nd.k.loop, v); err != nil {
				return Idle, err
			}
		}
	}
	st = &t.st[n]
	if !popped && !st.has(fChildRunning) {
		r, ok := t.readStatus(n, "if_empty")
		if !ok {
			return Idle, t.errorf(n, RuntimeError, "cannot read port [if_empty]")
		}
		return r, nil
	}
	if st.status == Idle {
		st.status = Running
	}
	c := nd.kids[0]
	r, err := t.execute(c)
	if err != nil {
		return Idle, err
	}
	t.st[n].set(fChildRunning, r == Running)
	if r.completed() {
		if err := t.resetChild(c); err != nil {
			return Idle, err
		}
	}
	if r == Failure {
		return Failure, nil
	}
	return Running, nil
}

// loopEntry reads a Loop node's {k} queue: the parsed list when the node
// has no working list yet, else nil (the entry must still be non-empty).
func (t *ticker) loopEntry(n int) ([]Value, error) {
	nd := t.node(n)
	e, ok := t.bb.lookup(nd.scope, nd.listKey)
	if !ok {
		if err := t.bb.createEntry(nd.scope, nd.listKey, "any"); err != nil {
			return nil, err
		}
		e, ok = t.bb.lookup(nd.scope, nd.listKey)
	}
	if !ok || e.value.IsEmpty() {
		return nil, t.errorf(n, RuntimeError, "the queue entry [%s] is empty", nd.listKey)
	}
	if t.st[n].has(fHasList) {
		return nil, nil
	}
	s, ok := e.value.Str()
	if !ok {
		return nil, t.errorf(n, RuntimeError, "LoopNode: port 'queue' must contain either SharedQueue<T>, std::vector<T>, or a string")
	}
	list, err := parseList(s, nd.k.loop)
	if err != nil {
		return nil, t.errorf(n, RuntimeError, "%v", err)
	}
	return list, nil
}

// tickUnlessUpdated is the tick of SkipUnlessUpdated and WaitValueUpdate.
func tickUnlessUpdated(t *ticker, n int) (Status, error) {
	nd := t.node(n)
	c := nd.kids[0]
	if !t.st[n].has(fExecuting) {
		e, ok := t.bb.lookup(nd.scope, nd.entryKey)
		if !ok {
			return nd.k.notUpdated, nil
		}
		cnt := e.seq
		prev := t.xr(n).seq
		if prev == cnt {
			return nd.k.notUpdated, nil
		}
		t.x(n).seq = cnt
	}
	r, err := t.execute(c)
	if err != nil {
		return Idle, err
	}
	t.st[n].set(fExecuting, r == Running)
	return r, nil
}

// haltUnlessUpdated clears executing, then resets the child.
func haltUnlessUpdated(t *ticker, n int) error {
	t.st[n].set(fExecuting, false)
	return t.resetChildren(n)
}

// --- Leaves (README §5.3, TIMED.md) ---

// haltNothing is the halt of a synchronous leaf.
func haltNothing(*ticker, int) error { return nil }

// tickAlways is the tick of AlwaysSuccess and AlwaysFailure.
func tickAlways(t *ticker, n int) (Status, error) {
	return t.node(n).k.goOn(), nil
}

// tickScript is the tick of Script and ScriptCondition.
func tickScript(t *ticker, n int) (Status, error) {
	s, err := t.codeScript(n, "code")
	if err != nil {
		return Idle, err
	}
	if !t.node(n).k.cond {
		return Success, t.run(n, s)
	}
	b, err := t.evalBool(n, s)
	if err != nil {
		return Idle, err
	}
	if b {
		return Success, nil
	}
	return Failure, nil
}

// tickSetBlackboard is SetBlackboard's tick.
func tickSetBlackboard(t *ticker, n int) (Status, error) {
	key, _ := t.raw(n, "output_key")
	val, _ := t.raw(n, "value")
	ok, err := t.bb.setBlackboard(t.node(n).scope, key, val)
	if err != nil {
		return Idle, err
	}
	if !ok {
		return Failure, nil
	}
	return Success, nil
}

// tickUnsetBlackboard is UnsetBlackboard's tick.
func tickUnsetBlackboard(t *ticker, n int) (Status, error) {
	v, ok := t.readPort(n, "key", "string")
	var key string
	if ok {
		key, ok = valueString(v)
	}
	if !ok {
		return Idle, t.errorf(n, RuntimeError, "missing input port [key]")
	}
	t.bb.unset(t.node(n).scope, key)
	return Success, nil
}

// tickWasEntryUpdated is WasEntryUpdated's tick.
func tickWasEntryUpdated(t *ticker, n int) (Status, error) {
	nd := t.node(n)
	e, ok := t.bb.lookup(nd.scope, nd.entryKey)
	if !ok {
		return Failure, nil
	}
	cnt := e.seq
	if prev := t.xr(n).seq; cnt != prev {
		t.x(n).seq = cnt
		return Success, nil
	}
	return Failure, nil
}

// tickGoLeaf is the tick of a registered Go leaf.
func tickGoLeaf(t *ticker, n int) (Status, error) {
	r := t.p.hotNode(n).leaf
	c := t.callFor(n)
	switch r.kind {
	case leafAction:
		var res Status
		var err error
		switch t.st[n].status {
		case Idle:
			if t.pend != nil {
				t.pend = t.pend.drop(int32(n)) // a stale entry (async.go)
			}
			res, err = t.callAction(n, r.action.OnStart)
		case Running:
			if t.pend != nil {
				if e := t.pend.find(int32(n)); e != nil {
					return t.lookAsync(n, e), nil
				}
			}
			if r.action.OnRunning == nil {
				return Running, nil
			}
			res, err = t.callAction(n, r.action.OnRunning)
		default:
			return t.st[n].status, nil
		}
		if err != nil {
			return Idle, err
		}
		if res == Idle {
			return Idle, t.errorf(n, LogicError, "a stateful action must not return IDLE")
		}
		return t.checkStatus(n, res)
	default:
		var res Status
		var err error
		if t.rec != nil {
			res, err = t.rec.answer(n, r.fn, c)
		} else {
			res, err = r.fn(c)
		}
		if err != nil {
			return res, err
		}
		return t.checkStatus(n, res)
	}
}

// checkStatus returns res, which a Go leaf of node n returned, or a
// LogicError when res is none of the five statuses (the rules index their
// tables by status).
func (t *ticker) checkStatus(n int, res Status) (Status, error) {
	if res > Skipped {
		return Idle, t.errorf(n, LogicError, "a Go leaf returned %d, which is not a Status", int(res))
	}
	return res, nil
}

// haltGoLeaf throws away the Async a Go action waits for, and calls a
// running action's OnHalted.
func haltGoLeaf(t *ticker, n int) error {
	r := t.node(n).k.leaf
	if t.pend != nil {
		t.pend = t.pend.drop(int32(n))
	}
	if r.kind == leafAction && t.st[n].status == Running && r.action.OnHalted != nil {
		r.action.OnHalted(t.callFor(n))
	}
	return nil
}

// --- Timed nodes (TIMED.md §1–§5) ---

// readMsec reads a timed node's unsigned milliseconds.
func (t *ticker) readMsec(n int, port string) (time.Duration, error) {
	v, ok := t.readPort(n, port, "uint")
	if ok {
		if i, ok := valueInt(v); ok && i >= 0 && i <= 1<<32-1 {
			return time.Duration(i) * time.Millisecond, nil
		}
	}
	return 0, t.errorf(n, RuntimeError, "missing or invalid port [%s]", port)
}

// arm arms n's timer for d from now.
func (t *ticker) arm(n int, d time.Duration) {
	t.armSeq++
	t.st[n].set(fArmed, true)
	x := t.x(n)
	x.deadline = addClock(t.now, d)
	x.seq = t.armSeq
}

// tickDelay is Delay's tick.
func tickDelay(t *ticker, n int) (Status, error) {
	d, err := t.readMsec(n, "delay_msec")
	if err != nil {
		return Idle, err
	}
	st := &t.st[n]
	if !st.has(fStarted) {
		st.set(fStarted, true)
		st.set(fComplete, false)
		st.status = Running
		t.arm(n, d)
	}
	if !t.st[n].has(fComplete) {
		return Running, nil
	}
	r, err := t.executeOnly(n)
	if r.completed() {
		t.st[n].set(fStarted, false)
	}
	return r, err
}

// tickTimeout is Timeout's tick.
func tickTimeout(t *ticker, n int) (Status, error) {
	d, err := t.readMsec(n, "msec")
	if err != nil {
		return Idle, err
	}
	st := &t.st[n]
	if !st.has(fStarted) {
		st.set(fStarted, true)
		st.status = Running
		st.set(fTimedOut, false)
		if d > 0 {
			t.arm(n, d)
		}
	}
	if t.st[n].has(fTimedOut) {
		t.st[n].set(fStarted, false)
		return Failure, nil
	}
	r, err := t.executeOnly(n)
	if r.completed() {
		t.st[n].set(fStarted, false)
		t.st[n].set(fArmed, false)
	}
	return r, err
}

// haltTimer is the halt of Delay, Timeout and Sleep: cancel the timer;
// the decorators reset their child.
func haltTimer(t *ticker, n int) error {
	st := &t.st[n]
	switch t.node(n).k.id {
	case "Sleep":
		if st.status == Running {
			st.set(fWaiting, false)
			st.set(fArmed, false)
		}
		return nil
	case "Delay":
		st.set(fComplete, false)
	}
	st.set(fStarted, false)
	st.set(fArmed, false)
	return t.resetChildren(n)
}

// tickSleep is Sleep's tick: a stateful action.
func tickSleep(t *ticker, n int) (Status, error) {
	st := &t.st[n]
	switch st.status {
	case Idle:
		d, err := t.readMsec(n, "msec")
		if err != nil {
			return Idle, err
		}
		if d == 0 {
			return Success, nil
		}
		st = &t.st[n]
		st.status = Running
		st.set(fWaiting, true)
		t.arm(n, d)
		return Running, nil
	case Running:
		if st.has(fWaiting) {
			return Running, nil
		}
		return Success, nil
	}
	return st.status, nil
}

// advance moves the clock to now and fires every timer due by then
// (TIMED.md §5): in ascending deadline order, ties in arming order; a
// timer cancelled by an earlier firing does not fire.
func (t *ticker) advance(now time.Duration) error {
	t.now = now
	var due []int
	for i := range t.st {
		if t.st[i].has(fArmed) && t.xr(i).deadline <= now {
			due = append(due, i)
		}
	}
	sort.SliceStable(due, func(i, j int) bool {
		a, b := t.xr(due[i]), t.xr(due[j])
		if a.deadline != b.deadline {
			return a.deadline < b.deadline
		}
		return a.seq < b.seq
	})
	for _, n := range due {
		st := &t.st[n]
		if !st.has(fArmed) {
			continue
		}
		st.set(fArmed, false)
		switch t.node(n).k.id {
		case "Delay":
			st.set(fComplete, true)
			t.wake = true
		case "Sleep":
			st.set(fWaiting, false)
			t.wake = true
		case "Timeout":
			c := t.kids(n)[0]
			if t.st[c].status == Running {
				t.st[n].set(fTimedOut, true)
				if err := t.resetChild(c); err != nil {
					return err
				}
				t.wake = true
			}
		}
	}
	return nil
}
