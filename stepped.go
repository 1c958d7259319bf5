package behaviortree

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/memory"
)

// Agent is what a stepped tree calls: for an action node ([Leaf]) Action,
// for a condition node and for guards ([attr.While], [attr.Until])
// Condition, and for callbacks ([attr.Entry], [attr.OnStep], [attr.Exit])
// Entry, OnStep and Exit, each with the value the node or attribute
// carries. A
// function may be nil when the definition has no node or attribute that
// calls it; [NewStepped] checks that. For trees of [Call]s,
// [Functions.Agent] makes one from functions by name.
type Agent[L any] struct {
	Action    func(v L) Result
	Condition func(v L) bool
	Entry     func(v L)
	OnStep    func(v L)
	Exit      func(v L, succeeded, aborted bool)
	// TimedAction and TimedCondition, when not nil, are called instead of
	// Action and Condition, with the time data of the step as well
	// ([Stepped.Tick]; the zero TimeData for [Stepped.Step]).
	TimedAction    func(v L, td TimeData) Result
	TimedCondition func(v L, td TimeData) bool
	// The memory forms: when not nil, each is called instead of the
	// functions above that it stands for, with the [Blackboard] of the
	// step, through which it reads and writes the memory of the version
	// being stepped (and the step's time data).
	MemoryAction    func(v L, b *Blackboard) Result
	MemoryCondition func(v L, b *Blackboard) bool
	MemoryEntry     func(v L, b *Blackboard)
	MemoryOnStep    func(v L, b *Blackboard)
	MemoryExit      func(v L, b *Blackboard, succeeded, aborted bool)
}

// usesMemory reports whether a has a memory form.
func (a *Agent[L]) usesMemory() bool {
	return a.MemoryAction != nil || a.MemoryCondition != nil || a.MemoryEntry != nil || a.MemoryOnStep != nil || a.MemoryExit != nil
}

// EventKind says what an [Event] reports.
type EventKind uint8

// The kinds of event.
const (
	EventState     EventKind = iota // Node went From a state To another
	EventAction                     // Node's action was called with Value and returned Result
	EventCondition                  // Condition(Value) returned Holds, for a condition node or (Guard) a guard on Node
	EventEntry                      // Node's entry callback was called with Value
	EventOnStep                     // Node's step callback was called with Value
	EventExit                       // Node's exit callback was called with Value, Succeeded and Aborted
	EventReset                      // the tree was reset; the state changes of the reset follow
	EventMemory                     // the function called for Node set Key from Old to New (New nil: deleted), before the call's own event
)

var eventKindNames = [...]string{"state", "action", "condition", "entry", "step", "exit", "reset", "memory"}

// String returns the kind's name: "state", "action", "condition",
// "entry", "step", "exit", "reset" or "memory", and "EventKind(N)" for a
// value that is none of them.
func (k EventKind) String() string {
	if int(k) < len(eventKindNames) {
		return eventKindNames[k]
	}
	return fmt.Sprintf("EventKind(%d)", uint8(k))
}

// Event is one thing a step did, in the order it happened: exactly the
// order of the calls to the agent, with the state changes between them
// (Mistreevous's onNodeStateChange, which reports only real changes).
type Event[L any] struct {
	Kind      EventKind
	Node      int    // the node's preorder index (0 is the root)
	Name      string // the node's name, as in [NodeInfo] ("" for EventReset)
	From, To  State
	Value     L
	Result    Result // EventAction
	Holds     bool   // EventCondition
	Guard     bool   // EventCondition: the call was a guard's (attr.While or attr.Until)
	Succeeded bool   // EventExit
	Aborted   bool   // EventExit
	Key       string // EventMemory
	Old, New  any    // EventMemory: the values before and after; nil when the key was absent, or deleted
}

// String describes e in one line, naming its node by index and name, with
// values written with %v: "node 2 (walk): READY -> RUNNING",
// "node 2 (walk): action walk -> running" ("async" for a pending
// [Async]), "node 3 (near): condition near -> false" (with " (guard)" for
// a guard's), "node 1 (SEQUENCE): entry V", "node 1 (SEQUENCE): step V",
// "node 1 (SEQUENCE): exit V (succeeded true, aborted false)",
// "node 2 (walk): memory \"k\": OLD -> NEW" and "reset". An event made by
// hand, without a Name, says "node 2".
func (e Event[L]) String() string {
	switch e.Kind {
	case EventState:
		return fmt.Sprintf("%s: %s -> %s", e.where(), e.From, e.To)
	case EventAction:
		return fmt.Sprintf("%s: action %v -> %s", e.where(), e.Value, resultString(e.Result))
	case EventCondition:
		g := ""
		if e.Guard {
			g = " (guard)"
		}
		return fmt.Sprintf("%s: condition %v -> %t%s", e.where(), e.Value, e.Holds, g)
	case EventEntry:
		return fmt.Sprintf("%s: entry %v", e.where(), e.Value)
	case EventOnStep:
		return fmt.Sprintf("%s: step %v", e.where(), e.Value)
	case EventExit:
		return fmt.Sprintf("%s: exit %v (succeeded %t, aborted %t)", e.where(), e.Value, e.Succeeded, e.Aborted)
	case EventMemory:
		return fmt.Sprintf("%s: memory %q: %v -> %v", e.where(), e.Key, e.Old, e.New)
	case EventReset:
		return "reset"
	}
	return fmt.Sprintf("%s: %s", e.where(), e.Kind)
}

// where names e's node: "node 2", or "node 2 (walk)" when the event
// carries the node's name.
func (e Event[L]) where() string {
	if e.Name == "" {
		return fmt.Sprintf("node %d", e.Node)
	}
	return fmt.Sprintf("node %d (%s)", e.Node, e.Name)
}

// resultString is r's status, or "async" for a pending async result.
func resultString(r Result) string {
	if r.Async != nil {
		return "async"
	}
	return r.Status.String()
}

// Stepped is a running stepped tree (Mistreevous semantics): a definition
// whose nodes each have a [State]. [Stepped.Step] updates the tree once,
// calling the agent, and returns a new version; every version stays valid
// and may be stepped again (for undo, replay or "what if"), from any
// goroutine. A version is a small value (four words), which also carries
// the agent's memory, a [memory.Map].
//
// The zero Stepped is not valid: get one from [NewStepped].
type Stepped[L any] struct {
	m     *machine[L]
	small uint64         // node states, 2 bits each, when the tree has at most 32 nodes
	words unsafe.Pointer // never modified: m.p.nwords words of node states (big trees), extras, generator: an array's first word, or a trie's root (stepped_words.go)
	x     *steppedExtra  // pending async results and the agent's memory; nil when there are none
}

// steppedExtra is what a version holds besides its node states, when it
// holds anything: one pointer keeps a version four words, which the
// compiler keeps in registers (a fifth word makes every copy go through
// memory). It never changes once made.
type steppedExtra struct {
	async *asyncEntry // pending async results, by node (stepped_async.go)
	mem   memory.Map
	ids   uint64 // the async results taken so far in the version's line: the last id given
}

// withExtra returns x holding async, mem and ids: x itself when it does
// already, nil when all are empty.
func withExtra(x *steppedExtra, async *asyncEntry, mem memory.Map, ids uint64) *steppedExtra {
	switch {
	case x != nil && x.async == async && x.mem == mem && x.ids == ids: // == is shared storage
		return x
	case async == nil && mem == (memory.Map{}) && ids == 0:
		return nil
	}
	return &steppedExtra{async, mem, ids}
}

// pending returns t's pending async results.
func (t *Stepped[L]) pending() *asyncEntry {
	if t.x == nil {
		return nil
	}
	return t.x.async
}

// ids returns the last id t's line gave an async result, 0 for none.
func (t *Stepped[L]) ids() uint64 {
	if t.x == nil {
		return 0
	}
	return t.x.ids
}

// wordsOf returns the version's words as a slice (nil when there are
// none), not to be written: the array itself, or a trie's words copied
// out.
func (t *Stepped[L]) wordsOf() []uint64 {
	p := t.m.p
	switch {
	case t.words == nil:
		return nil
	case p.trie:
		return trieWords(t.words, p.depth, int(p.nwords))
	}
	return unsafe.Slice((*uint64)(t.words), p.nwords)
}

// wordsFrom returns what Stepped keeps for the words w of program p: the
// first word of w, or a trie of them.
func wordsFrom[L any](p *sprogram[L], w []uint64) unsafe.Pointer {
	switch {
	case len(w) == 0:
		return nil
	case p.trie:
		return trieFromWords(w, p.depth)
	}
	return unsafe.Pointer(&w[0])
}

// machine is what every version of one NewStepped shares.
type machine[L any] struct {
	p      *sprogram[L]
	agent  Agent[L]
	random func() float64 // nil: the version's own generator
	delta  func() float64 // nil: the wall clock
	def    Node[L]
	fluent *fluentFuncs  // newFluent (fluent.go): the leaves' functions, by node
	cache  *stepCache[L] // p.cache
	mem    bool          // the agent has memory forms: steps make a Blackboard
	// The agent's Action and Condition when every action or condition
	// calls them (plainForms, stepped_agent.go; a Fluent agent has timed
	// forms, so newFluent's leaves leave them nil): the fast paths call
	// them directly.
	act  func(L) Result
	cond func(L) bool
	// A trie's table of leaves of node states, for the root it was last
	// made for, or nil while a step has it (stepped_words.go).
	leafTab atomic.Pointer[leafTable] // the trie's table of leaves, for the root last made (stepped_words.go)
}

// NewStepped returns a ready stepped tree for def, which calls agent. A
// def that is not a [Root] runs as if wrapped in one (index 0). It returns
// an error for a definition the stepped engine cannot run (Elixir-only
// kinds: RepeatUntilFail, RepeatUntilSucceed, RepeatN, Random, RandomWeighted
// and custom nodes; a Root below the top; more than 4,096 levels; more
// than 1,048,576 nodes, as many as package mistreevous reads, which it
// checks before it allocates) and
// for an agent that lacks a function the definition calls.
//
// The first NewStepped of a definition compiles it in O(nodes) time and
// memory, a small constant a node, which the definition keeps; later ones
// reuse that.
func NewStepped[L any](def Node[L], agent Agent[L], opts ...Option) (Stepped[L], error) {
	if def.n == nil {
		return Stepped[L]{}, errors.New("behaviortree.NewStepped: zero Node")
	}
	p, err := steppedCompiled(def.n)
	if err != nil {
		return Stepped[L]{}, fmt.Errorf("behaviortree.NewStepped: %w", err)
	}
	missing := ""
	switch {
	case p.uses[usesAction] && agent.Action == nil && agent.TimedAction == nil && agent.MemoryAction == nil:
		missing = "actions but the agent has no Action"
	case p.uses[usesCondition] && agent.Condition == nil && agent.TimedCondition == nil && agent.MemoryCondition == nil:
		missing = "conditions or guards but the agent has no Condition"
	case p.uses[attr.KindEntry] && agent.Entry == nil && agent.MemoryEntry == nil:
		missing = "entry callbacks but the agent has no Entry"
	case p.uses[attr.KindOnStep] && agent.OnStep == nil && agent.MemoryOnStep == nil:
		missing = "step callbacks but the agent has no OnStep"
	case p.uses[attr.KindExit] && agent.Exit == nil && agent.MemoryExit == nil:
		missing = "exit callbacks but the agent has no Exit"
	}
	if missing != "" {
		return Stepped[L]{}, fmt.Errorf("behaviortree.NewStepped: the definition has %s function", missing)
	}
	var c config
	for _, o := range opts {
		o(&c)
	}
	t := Stepped[L]{m: &machine[L]{p: p, agent: agent, random: c.random, delta: c.delta, def: def, cache: p.cache, mem: agent.usesMemory()}}
	t.m.act, t.m.cond = t.m.plainForms()
	if p.nwords > 0 {
		w := make([]uint64, p.nwords)
		if p.rngAt >= 0 {
			if !c.seeded {
				c.seed = rand.Uint64()
			}
			w[p.rngAt] = c.seed
		}
		t.words = wordsFrom(p, w)
	}
	return t, nil
}

// Memory returns the agent's memory in this version. A version made by
// [NewStepped] has an empty memory; a step keeps the memory of the version
// it steps, with the writes its agent made through the [Blackboard].
func (t Stepped[L]) Memory() memory.Map {
	if t.x == nil {
		return memory.Map{}
	}
	return t.x.mem
}

// WithMemory returns a new version of t with the memory m and everything
// else as in t. t itself is unchanged.
func (t Stepped[L]) WithMemory(m memory.Map) Stepped[L] {
	t.mustM("WithMemory")
	t.x = withExtra(t.x, t.pending(), m, t.ids())
	return t
}

// Definition returns the tree's definition.
func (t Stepped[L]) Definition() Node[L] { return t.mustM("Definition").def }

// State returns the state of the tree: its root's, as Mistreevous's
// getState gives it (READY before the first step and after a reset,
// RUNNING while the root runs, SUCCEEDED or FAILED after the step that
// completed it). [Stepped.Status] tells the same outcome in the words of
// [Tree.Status].
func (t Stepped[L]) State() State {
	t.mustM("State")
	return t.nodeState(0)
}

// Status tells whether the step that made this version completed the
// whole tree, as [Tree.Status] does for a signal: Success or Failure if the
// root ended that way (the next step starts it afresh), Running if it did
// not. A version made by [NewStepped] or [Stepped.Reset] is Running.
func (t Stepped[L]) Status() Status {
	t.mustM("Status")
	switch t.nodeState(0) {
	case StateSucceeded:
		return Success
	case StateFailed:
		return Failure
	}
	return Running
}

// NodeState returns the state of node i (in preorder; 0 is the root).
// It panics if i is out of range.
func (t Stepped[L]) NodeState(i int) State {
	m := t.mustM("NodeState")
	if i < 0 || i >= len(m.p.nodes) {
		panic(fmt.Sprintf("behaviortree.Stepped.NodeState: index %d out of range [0,%d)", i, len(m.p.nodes)))
	}
	return t.nodeState(int32(i))
}

// NodeStates returns the state of every node in preorder, as
// [Stepped.NodeState] gives them, appended to dst[:0]. It allocates only
// when dst is too short, so a viewer can call it for every version of a
// long [History]. [Tree.NodeStates] is the same for the Value/Succeed/Fail
// style.
func (t Stepped[L]) NodeStates(dst []State) []State {
	n := len(t.mustM("NodeStates").p.nodes)
	if cap(dst) < n {
		dst = make([]State, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = t.nodeState(int32(i))
	}
	return dst
}

// Equal reports whether t and u are the same version: versions of the
// same compiled definition (as [NewStepped] made it, whatever the agent)
// with the same node states, counts, waits, lotto picks and random state,
// the same pending async results (by node and id, each with the result
// and the delay a save would keep),
// and the same memory (the same keys, with values that reflect.DeepEqual
// finds equal, or that save to the same bytes, as a NaN does), as
// [Tree.Equal] is for the Value/Succeed/Fail style. Versions reached by
// separate but identical runs are Equal even though they share no memory;
// == on Stepped versions compares memory. The agent and the options are
// not compared. Comparing a settled async result fixes the step at which
// the versions see it, as a save does (see [Async]).
func (t Stepped[L]) Equal(u Stepped[L]) bool {
	if t.mustM("Equal").p != u.mustM("Equal").p || t.small != u.small {
		return false
	}
	if t.words != u.words && !slices.Equal(t.wordsOf(), u.wordsOf()) {
		return false
	}
	if t.x == u.x {
		return true
	}
	var tx, ux steppedExtra
	if t.x != nil {
		tx = *t.x
	}
	if u.x != nil {
		ux = *u.x
	}
	if tx.ids != ux.ids || !tx.mem.Equal(ux.mem) {
		return false
	}
	if tx.async == ux.async {
		return true
	}
	as, bs := t.live(), u.live()
	if len(as) != len(bs) {
		return false
	}
	for i, a := range as {
		b := bs[i]
		if a.node != b.node || a.id != b.id {
			return false
		}
		if a.a == b.a && a.looks == b.looks {
			continue
		}
		// What a save keeps of it: its result, and the looks that still
		// see it pending.
		ra, da := a.a.fixed(a.looks + 1)
		rb, db := b.a.fixed(b.looks + 1)
		if ra != rb || da != db {
			return false
		}
	}
	return true
}

func (t Stepped[L]) nodeState(i int32) State {
	if t.m.p.small {
		return State(t.small >> (2 * uint(i)) & 3)
	}
	w := uint(i >> 5)
	if t.m.p.trie {
		return State(trieWord(t.words, t.m.p.depth, w) >> (2 * uint(i&31)) & 3)
	}
	return State(unsafe.Slice((*uint64)(t.words), t.m.p.nwords)[w] >> (2 * uint(i&31)) & 3)
}

// NodeInfo describes one node of a running stepped tree (Mistreevous's
// getTreeNodeDetails).
type NodeInfo[L any] struct {
	ID       int       // preorder index; 0 is the root
	Parent   int       // the parent's ID, -1 for the root
	Kind     kind.Kind // what the node is
	Name     string    // Mistreevous's display name: "SEQUENCE", "REPEAT 3x", "WAIT 100ms-900ms", an action's function name...
	Value    L         // the value of an action or condition
	State    State
	Children []int
}

// Nodes returns an iterator over the tree's nodes in preorder, with their
// states in this version.
func (t Stepped[L]) Nodes() iter.Seq[NodeInfo[L]] {
	m := t.mustM("Nodes")
	return func(yield func(NodeInfo[L]) bool) {
		for i := range m.p.nodes {
			s := &m.p.nodes[i]
			info := NodeInfo[L]{ID: i, Parent: int(s.parent), Kind: s.kind, Name: s.displayName(), State: t.nodeState(int32(i))}
			if kinds[s.kind].carries {
				info.Value = s.leaf
			}
			for _, k := range s.kids {
				info.Children = append(info.Children, int(k))
			}
			if !yield(info) {
				return
			}
		}
	}
}

// size returns the number of nodes in the tree, the root included.
func (t Stepped[L]) size() int { return len(t.mustM("size").p.nodes) }

func (t Stepped[L]) mustM(method string) *machine[L] {
	if t.m == nil {
		zeroStepped(method)
	}
	return t.m
}

// zeroStepped panics for a method called on the zero Stepped.
func zeroStepped(method string) {
	panic("behaviortree.Stepped." + method + ": zero Stepped (use NewStepped)")
}

// Step updates the tree once and returns the new version; t is unchanged.
// If the root had completed, the tree is reset first. The error is non-nil
// when an agent function panicked (a [*PanicError], with the stack) or an
// action returned an invalid Result, or when the random or delta-time
// function returned an invalid value: it names the node, and t is still
// valid (the returned version is then t).
func (t Stepped[L]) Step() (Stepped[L], error) {
	if m := t.m; m != nil { // tickWith's choice, made here: one call less
		if m.cache == nil {
			return t.stepBig(TimeData{}, false) // the resume path (stepped_resume.go), or the rules
		}
		if m.cache.wide {
			return t.stepWide(TimeData{}, false)
		}
		return t.stepSmall(TimeData{}, false)
	}
	return t.tickWith(TimeData{}, false, nil)
}

// StepWith is [Stepped.Step], calling events (if not nil) with each thing
// the step does, in order.
func (t Stepped[L]) StepWith(events func(Event[L])) (Stepped[L], error) {
	return t.tickWith(TimeData{}, false, events)
}

// Tick is [Stepped.Step] with time data, which the agent's timed and
// memory functions get (FluentBehaviourTree's Tick), and which is the
// clock of the waits when the tree has none of its own.
//
// The clock of a wait: with [WithDeltaTime] or [WithTurnClock], every wait
// advances by the option's clock, and td reaches only the agent. Without
// either, a wait that a Tick starts advances by td.DeltaTime at each
// update (by nothing at a Step's, whose time data is zero), so that a
// Fluent tree with a spliced [Wait] ticked by the game's frame times
// waits for the game's time, and a version ticked again with the same
// time data behaves the same; a wait that a Step starts reads the wall
// clock, as Mistreevous does. A wait keeps the clock it started on until
// it ends. The trade-off: a tree both stepped and ticked keeps two
// clocks, one per wait, where refusing a Tick of a tree whose waits read
// the wall clock would have made every Fluent tree with a Wait need a
// clock option.
func (t Stepped[L]) Tick(td TimeData) (Stepped[L], error) {
	if m := t.m; m != nil { // as in Step
		if m.cache == nil {
			return t.stepBig(td, true)
		}
		if m.cache.wide {
			return t.stepWide(td, true)
		}
		return t.stepSmall(td, true)
	}
	return t.tickWith(td, true, nil)
}

// TickWith is [Stepped.Tick], calling events (if not nil) with each thing
// the step does, in order.
func (t Stepped[L]) TickWith(td TimeData, events func(Event[L])) (Stepped[L], error) {
	return t.tickWith(td, true, events)
}

// tickWith is the step of Step (ticked false) and Tick (true), which
// starts the waits of a tree without a clock option on td's clock.
func (t Stepped[L]) tickWith(td TimeData, ticked bool, events func(Event[L])) (nt Stepped[L], err error) {
	m := t.m
	if m == nil {
		zeroStepped("Step")
	}
	mo := m.cache
	if events == nil && (mo == nil || mo.off.Load()) {
		return t.stepBig(td, ticked) // the resume path (stepped_resume.go), or the rules
	}
	if mo == nil || events != nil || t.x != nil && t.x.async != nil || mo.off.Load() {
		return t.stepRules(td, ticked, events, nil, nil)
	}
	if mo.wide {
		return t.stepWide(td, ticked)
	}
	return t.stepSmall(td, ticked)
}

// stepSmall is the step of a tree with a one-word step cache
// (stepped_cache.go): the calls along the trie of t's state word, if it
// has one. (Its trees have no timed wait.) Its frame holds the hit's
// loop and nothing else: every other step is a call out.
func (t Stepped[L]) stepSmall(td TimeData, ticked bool) (nt Stepped[L], err error) {
	m := t.m
	mo := m.cache
	if t.x != nil && t.x.async != nil || mo.off.Load() {
		return t.stepBig(td, ticked) // the resume path, or the rules (stepped_resume.go)
	}
	key, _ := startKey(t.small, 0)
	e := mo.lookup(key)
	if e == nil {
		return t.stepUncached(td, ticked, key, 0)
	}
	// An agent function that panics makes the step fail with the
	// version stepped (nt, which the loop leaves as t), naming the node
	// called (e, nil once the step has returned normally: no recover).
	nt = t
	defer func() {
		if e != nil {
			if r := recover(); r != nil {
				err = panicError(m.p, e.node, e.call, r)
			}
		}
	}()
	act, cond := m.act, m.cond
	var bb *Blackboard
	if m.mem {
		bb = newBlackboard(t.x, td)
	}
	final := uint64(0)
	for {
		var k uint8
		var ans Result // an action's answer
		switch call := e.call; call {
		case fnAction:
			if act != nil {
				ans = act(e.v)
			} else {
				ans = m.action(e.node, e.v, bb, td) // a Fluent leaf, or the agent's choice
			}
			if ans.Async != nil || !ans.Status.valid() { // never cached
				return m.finishMiss(t, td, e, ans, bb)
			}
			k = uint8(ans.Status)
		case fnCondition, fnWhile, fnUntil:
			var ok bool
			if cond != nil {
				ok = cond(e.v)
			} else {
				ok = m.condition(e.node, call != fnCondition, e.v, bb, td)
			}
			k = uint8(boolBranch(ok))
		case callStepEnds:
			final = e.final
			goto end
		default:
			m.callback(call, e.v, bb, e.succeeded, e.aborted)
		}
		if e.ended.Load()&(1<<k) != 0 {
			final = e.ends[k].Load()
			break
		}
		next := e.next[k].Load()
		if next == nil {
			if e.call != fnAction {
				ans = branchAnswer(e.call, k)
			}
			return m.finishMiss(t, td, e, ans, bb)
		}
		e = next
	}
end:
	e = nil
	nt.small = final
	if bb != nil {
		nt.x = withMemory(t.x, bb.mem)
	}
	if mo.filled.Load() {
		mo.counted(false)
	}
	return nt, nil
}

// stepUncached is the step of t, whose start key (w0, w1) its step cache
// does not have: by the rules, recording the calls for the cache if it
// has room.
func (t Stepped[L]) stepUncached(td TimeData, ticked bool, w0, w1 uint64) (Stepped[L], error) {
	mo := t.m.cache
	if mo.room() {
		return t.stepRules(td, ticked, nil, &cacheRun[L]{start: w0, start2: w1}, nil)
	}
	mo.counted(true)
	return t.stepRules(td, ticked, nil, nil, nil)
}

// stepWide is the step of Step, Tick and tickWith for a tree with a
// wide step cache (stepped_cache.go): 33 to 64 nodes, its states two words, the
// version's words, which are the start key and which a hit ends in
// (words of the trie, shared). Its loop is stepSmall's one-word loop
// with the wide ends: two loops on purpose, since one function holding
// both measured about 10% slower on the NPC's hits.
func (t Stepped[L]) stepWide(td TimeData, ticked bool) (nt Stepped[L], err error) {
	m := t.m
	mo := m.cache
	if t.x != nil && t.x.async != nil || mo.off.Load() {
		return t.stepBig(td, ticked) // the resume path, or the rules (stepped_resume.go)
	}
	w := (*[2]uint64)(t.words)
	w0, w1 := startKey(w[0], w[1])
	e := mo.find(w0, w1)
	if e == nil {
		return t.stepUncached(td, ticked, w0, w1)
	}
	// An agent function that panics makes the step fail with the
	// version stepped (nt, which the loop leaves as t), naming the node
	// called (e, nil once the step has returned normally: no recover).
	nt = t
	defer func() {
		if e != nil {
			if r := recover(); r != nil {
				err = panicError(m.p, e.node, e.call, r)
			}
		}
	}()
	act, cond := m.act, m.cond
	var bb *Blackboard
	if m.mem {
		bb = newBlackboard(t.x, td)
	}
	var fw *[2]uint64
	for {
		var k uint8
		var ans Result // an action's answer
		switch call := e.call; call {
		case fnAction:
			if act != nil {
				ans = act(e.v)
			} else {
				ans = m.action(e.node, e.v, bb, td) // a Fluent leaf, or the agent's choice
			}
			if ans.Async != nil || !ans.Status.valid() { // never cached
				return m.finishMiss(t, td, e, ans, bb)
			}
			k = uint8(ans.Status)
		case fnCondition, fnWhile, fnUntil:
			var ok bool
			if cond != nil {
				ok = cond(e.v)
			} else {
				ok = m.condition(e.node, call != fnCondition, e.v, bb, td)
			}
			k = uint8(boolBranch(ok))
		case callStepEnds:
			fw = e.finalw
			goto end
		default:
			m.callback(call, e.v, bb, e.succeeded, e.aborted)
		}
		if e.ended.Load()&(1<<k) != 0 {
			fw = e.endw[k].Load()
			break
		}
		next := e.next[k].Load()
		if next == nil {
			if e.call != fnAction {
				ans = branchAnswer(e.call, k)
			}
			return m.finishMiss(t, td, e, ans, bb)
		}
		e = next
	}
end:
	e = nil
	nt.words = unsafe.Pointer(fw) // the states' words, shared with the trie
	if bb != nil {
		nt.x = withMemory(t.x, bb.mem)
	}
	if mo.filled.Load() {
		mo.counted(false)
	}
	return nt, nil
}

// newBlackboard returns the Blackboard of a step from a version with the
// extras x (nil: none), which hold its memory. It is not inlined, so that
// the step cache's loop, which calls it only for agents of memory forms,
// holds no allocation.
//
//go:noinline
func newBlackboard(x *steppedExtra, td TimeData) *Blackboard {
	var mem memory.Map
	if x != nil {
		mem = x.mem
	}
	return &Blackboard{mem: mem, td: td}
}

// withMemory returns the extras of a step's new version whose step cache
// hit, from the extras x of the version stepped (which has no pending
// async result) and the memory mem the step's Blackboard ends with. It is
// not inlined, as newBlackboard.
//
//go:noinline
func withMemory(x *steppedExtra, mem memory.Map) *steppedExtra {
	var ids uint64
	if x != nil {
		ids = x.ids
	}
	return withExtra(x, nil, mem, ids)
}

// stepRules is the step of t by the engine's rules (ticked: a Tick's,
// see tickWith); mr, if not nil, is the step cache's part
// (stepped_cache.go), and bb the step's Blackboard when the cache made one
// already (nil: stepRules makes it if the agent has memory forms).
func (t Stepped[L]) stepRules(td TimeData, ticked bool, events func(Event[L]), mr *cacheRun[L], bb *Blackboard) (Stepped[L], error) {
	m := t.m
	var s stepper[L]
	s.start(&t, events)
	s.td, s.ticked = td, ticked
	if m.mem {
		if bb == nil {
			bb = &Blackboard{mem: t.Memory(), td: td, on: events != nil}
		}
		s.bb = bb
	}
	if mr == nil {
		s.act, s.cond, s.fl = m.act, m.cond, m.fluent
	} else {
		s.mr = mr // every call through callAction, callCondition, callback and exit
	}
	if err := s.stepTree(); err != nil {
		return t, err
	}
	t.small, t.words = s.small, s.result()
	if mr != nil && s.async == nil && m.cache != nil {
		var fw *[2]uint64 // a wide cache's: the new version's words, which never change
		if m.cache.wide {
			fw = (*[2]uint64)(t.words)
		}
		m.p.cache.add(mr, s.small, fw)
	}
	if t.x != nil || s.async != nil || s.bb != nil || s.ids != 0 {
		mem := t.Memory()
		if s.bb != nil {
			mem = s.bb.mem
		}
		t.x = withExtra(t.x, s.async, mem, s.ids)
	}
	return t, nil
}

// Reset returns the version in which every node is READY (no callbacks
// are called), as Mistreevous's reset; t is unchanged.
func (t Stepped[L]) Reset() Stepped[L] {
	t.mustM("Reset")
	return t.ResetWith(nil)
}

// ResetWith is [Stepped.Reset], calling events (if not nil) with an
// EventReset and then the state changes.
func (t Stepped[L]) ResetWith(events func(Event[L])) Stepped[L] {
	m := t.mustM("ResetWith")
	var s stepper[L]
	s.start(&t, events)
	if events != nil {
		events(Event[L]{Kind: EventReset})
	}
	s.reset(0)
	return Stepped[L]{m: m, small: s.small, words: s.result(), x: withExtra(t.x, nil, t.Memory(), t.ids())}
}

// PanicError is the error of a step in which a function of the agent (or
// an injected random or delta-time function) panicked: the node and the
// function called, the value passed to panic, and the stack at the panic.
// Get it with [errors.As]. Its Error is one line; formatted with %+v it
// is followed by the stack.
type PanicError struct {
	Node  int    // the node whose function panicked (preorder index), or -1 for a panic of the engine itself
	Name  string // the node's display name, as in [NodeInfo]
	Call  string // the function: "action", "condition", "while guard", "until guard", "entry callback", "step callback", "exit callback", "random" or "delta time"
	Value any    // the value passed to panic
	Stack []byte // the panicking goroutine's stack ([runtime/debug.Stack])
}

// Error returns the one-line message: the node, the function and the
// panic value.
func (e *PanicError) Error() string {
	where := "the engine"
	if e.Node >= 0 {
		where = fmt.Sprintf("node %d (%s): %s", e.Node, e.Name, e.Call)
	}
	return fmt.Sprintf("behaviortree.Stepped.Step: %s panicked: %v", where, e.Value)
}

// Unwrap returns the panic value if it is an error, and nil otherwise.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Format implements [fmt.Formatter]: %+v is the message followed, on the
// next lines, by the stack of the panic; %v and %s are the message, %q
// the message quoted.
func (e *PanicError) Format(f fmt.State, verb rune) {
	switch {
	case verb == 'v' && f.Flag('+'):
		io.WriteString(f, e.Error())
		if len(e.Stack) > 0 {
			io.WriteString(f, "\n")
			f.Write(e.Stack)
		}
	case verb == 'q':
		fmt.Fprintf(f, "%q", e.Error())
	default:
		io.WriteString(f, e.Error())
	}
}

// nodeNames returns every node's display name, by index, made once.
func (p *sprogram[L]) nodeNames() []string {
	if names := p.names.Load(); names != nil {
		return *names
	}
	names := make([]string, len(p.nodes))
	for i := range p.nodes {
		names[i] = p.nodes[i].displayName()
	}
	p.names.CompareAndSwap(nil, &names)
	return *p.names.Load()
}
