// # FluentBehaviourTree
//
// (A section for the package doc.)
//
// The package builds and ticks trees as the C# library FluentBehaviourTree
// does (github.com/codecapers/Fluent-Behaviour-Tree, its last commit): a
// [FluentBuilder] has the library's calls (Sequence, Selector, Parallel,
// Inverter, Do, Condition, Splice, End, Build), typed for Go, and builds an
// ordinary [Node] of leaf type [Fluent], which [NewFluent] runs on the
// stepped engine; [Stepped.Tick] is the library's Tick(TimeData). Since the
// tree is a stepped tree like any other, History, saving, pictures and
// events work for it, and it may sit inside a larger stepped tree.
//
// The builder makes nodes of these kinds (kinds.go), whose rules live in
// the stepped engine (stepped.go):
//
//   - Sequence is a [ReactiveSequence] and Selector a [ReactiveSelect]:
//     every step updates the children from the first, so a child that was
//     running is not resumed where an earlier child decides otherwise; the
//     first child that does not go on (Failure or Running for a sequence,
//     Success or Running for a selector) decides. An empty sequence
//     succeeds and an empty selector fails.
//   - Parallel(name, failN, succeedN) is a [ReactiveParallel]: every step
//     updates every child, then counts the successes and failures of that
//     step only; succeedN successes succeed (checked first), failN failures
//     fail, and a count of 0 or less switches that outcome off. Children
//     still running are never stopped.
//   - Inverter is a [Negate] (which passes Running through), or, without a
//     child, an [EmptyInverter], whose update is the error
//     [ErrEmptyInverter] ("InverterNode must have a child node!").
//   - Do is a [Leaf] (an action) and Condition a [Condition]; both call the
//     function in their [Fluent] value with the step's [TimeData].
//
// A Fluent tree keeps nothing between ticks: what a version holds is the
// states of the last tick's nodes, for pictures and events, and the next
// tick gives the same leaf calls from any version.
//
// The conformance test (fluent_conformance_test.go) replays the 1,000
// cases recorded from the real library (testdata/fluent-behaviour-tree.jsonl.gz):
// the same leaf calls in the same order, with the same deltas, and the same
// status or error at every tick, and the same builder errors, exception
// class and message, at the same call.
//
// Departures, where the C# builder silently accepts a likely mistake and a
// FluentBuilder refuses with an error whose Strict field is set (each has
// a test in fluent_test.go, and the conformance test checks the corpus
// cases they apply to against them):
//
//   - Build while nodes are still open (C# returns the node that was ended
//     last, an inner node, and ignores the open ones);
//   - a second top-level tree after the first was ended (C# builds both and
//     returns the one ended last);
//   - Build called a second time (C# returns the same tree again, or a later
//     one);
//   - Do or Condition with a nil function (C# fails only at the tick);
//   - a tree of more than 67,108,864 places (C# has no limit).

package behaviortree

import (
	"fmt"
	"strconv"
)

// TimeData is what a tick passes to every leaf (FluentBehaviourTree's
// TimeData): DeltaTime, the time since the last tick in seconds, as a
// 32-bit float. Nothing accumulates it: every leaf of one tick sees the
// same value.
type TimeData struct {
	DeltaTime float32
}

// Fluent is the leaf value of a FluentBehaviourTree tree: its name, and the
// function its leaf calls: Do for an action leaf ([Leaf]), If for a
// condition leaf ([Condition]). A [FluentBuilder] makes them; trees built
// by hand must set the function their kind calls.
type Fluent struct {
	Name string
	Do   func(td TimeData) Status
	If   func(td TimeData) bool
}

// String returns f's name.
func (f Fluent) String() string { return f.Name }

// fluentAgent runs Fluent leaves.
var fluentAgent = Agent[Fluent]{
	TimedAction:    func(v Fluent, td TimeData) Result { return Result{Status: v.Do(td)} },
	TimedCondition: func(v Fluent, td TimeData) bool { return v.If(td) },
}

// FluentAgent returns the agent that runs [Fluent] leaves: an action calls
// its Do function and a condition its If function, with the tick's
// [TimeData].
func FluentAgent() Agent[Fluent] { return fluentAgent }

// NewFluent returns a ready stepped tree for def, a tree of [Fluent]
// leaves (usually from [FluentBuilder.Build]), run by [FluentAgent]. Tick
// it with [Stepped.Tick]; [State.Status] turns its state into the status
// FluentBehaviourTree's Tick returns.
func NewFluent(def Node[Fluent], opts ...Option) (Stepped[Fluent], error) {
	t, err := NewStepped(def, fluentAgent, opts...)
	if err != nil {
		return t, fmt.Errorf("behaviortree.NewFluent: %w", err)
	}
	if t.m.p.pure != nil {
		fl := &fluentFuncs{do: make([]func(TimeData) Status, len(t.m.p.leaves)), cond: make([]func(TimeData) bool, len(t.m.p.leaves))}
		for i, v := range t.m.p.leaves {
			fl.do[i], fl.cond[i] = v.Do, v.If
		}
		t.m.fluent = fl
	}
	return t, nil
}

// fluentFuncs are the functions of a Fluent tree's leaves, by node, which
// the engine's pure evaluation calls directly, as fluentAgent would.
type fluentFuncs struct {
	do   []func(TimeData) Status
	cond []func(TimeData) bool
}

// Status returns the status that s stands for: Success for SUCCEEDED,
// Failure for FAILED, and Running for RUNNING and READY.
func (s State) Status() Status {
	switch s {
	case StateSucceeded:
		return Success
	case StateFailed:
		return Failure
	}
	return Running
}

// ReactiveSequence returns a node that, at every update, updates its
// children from the first: it goes on while they succeed, and the first
// that fails or is running decides (a child that had completed is updated
// afresh; the children after the deciding one are aborted or reset). It
// succeeds when every child succeeds, and at once when it has no children.
// It is FluentBehaviourTree's Sequence, and keeps nothing between updates.
// It runs on the stepped engine only. It panics when a child is the zero
// Node.
func ReactiveSequence[L any](children ...Node[L]) Node[L] {
	return mustBuild(KindReactiveSequence, Params{}, children)
}

// ReactiveSelect is [ReactiveSequence]'s mirror image (FluentBehaviourTree's
// Selector): it goes on while its children fail, the first that succeeds
// or is running decides, and it fails when every child fails, and at once
// when it has no children.
func ReactiveSelect[L any](children ...Node[L]) Node[L] {
	return mustBuild(KindReactiveSelect, Params{}, children)
}

// ReactiveParallel returns FluentBehaviourTree's Parallel(failN,
// succeedN): at every update it updates all its children (a child that
// had completed afresh), then counts the successes and failures of this
// update only. It succeeds when succeedN > 0 children succeeded (checked
// first), fails when failN > 0 failed, and is running otherwise: a count of
// 0 or less switches that outcome off, and one above the number of
// children is never reached. Children still running are not stopped. It
// runs on the stepped engine only. It panics when a child is the zero
// Node.
func ReactiveParallel[L any](failN, succeedN int, children ...Node[L]) Node[L] {
	return mustBuild(KindReactiveParallel, Params{Success: succeedN, Failure: failN}, children)
}

// EmptyInverter returns FluentBehaviourTree's Inverter without a child,
// which its builder accepts: updating it makes the step fail with
// [ErrEmptyInverter] (the version stepped stays as it was). An Inverter
// with its child is a [Negate].
func EmptyInverter[L any]() Node[L] {
	return mustBuild[L](KindEmptyInverter, Params{}, nil)
}

// The exception classes of FluentBehaviourTree's errors, as
// [FluentError.Exception] names them.
const (
	ApplicationException      = "ApplicationException"
	InvalidOperationException = "InvalidOperationException"
	ArgumentNullException     = "ArgumentNullException"
)

// FluentError is an error of a [FluentBuilder] call, or of a tick of an
// [EmptyInverter]: the exception FluentBehaviourTree throws there, or, with
// Strict set, a refusal of our own where the library goes on silently (see
// the package doc's departures).
type FluentError struct {
	// Exception is the C# class of the exception: ApplicationException,
	// InvalidOperationException or ArgumentNullException; "" when Strict.
	Exception string
	// Message is the exception's message, exactly as the library's.
	Message string
	// Method is the builder call ("Sequence", "Do", "End", "Build", ...),
	// or "" for a tick error.
	Method string
	// Call is the 0-based index of the failing call among the calls made
	// on the builder, or -1 for a tick error.
	Call int
	// Strict reports a refusal of our own: FluentBehaviourTree accepts the
	// call.
	Strict bool
	// Err is the underlying error, if any.
	Err error
}

// Error returns the message, after the builder call that failed.
func (e FluentError) Error() string {
	if e.Method == "" {
		return e.Message
	}
	return "behaviortree.FluentBuilder." + e.Method + " (call " + strconv.Itoa(e.Call) + "): " + e.Message
}

// Unwrap returns e.Err.
func (e FluentError) Unwrap() error { return e.Err }

// ErrEmptyInverter is the error of a step that reaches an [EmptyInverter]:
// FluentBehaviourTree's ApplicationException "InverterNode must have a
// child node!". Step's error wraps it.
var ErrEmptyInverter error = FluentError{Exception: ApplicationException, Message: "InverterNode must have a child node!", Call: -1}

// FluentBuilder builds a tree with FluentBehaviourTree's calls, which
// chain.
//
// Every node it builds starts again from its first child at every tick:
// a Fluent Sequence asks its first condition again even while its second
// child is running, and a running child is left, without a call, as soon
// as an earlier child decides otherwise. That is FluentBehaviourTree's
// semantics (its nodes keep nothing between ticks). To keep a node's place
// between ticks, build that part with [Sequence] and [Select], which
// resume the child that was running (see ExampleFluentBuilder_resume);
// [NewFluent] runs trees that mix both.
//
// Do leaves return a [Status], not a [Result]: a Fluent leaf that waits
// for the game returns Running at every tick until its work is done (it
// polls), since nothing would settle an [Async] between ticks that the
// library's Tick cannot see. There is no exit (halt) hook in the builder
// either, as FluentBehaviourTree has none, though the engine does abort a
// running leaf that a Fluent Sequence or Selector stops reaching. For
// both, run the tree with [NewStepped] and an [Agent] of your own whose
// TimedAction calls the leaf's Do (returning an Async where it needs to)
// and whose Exit stops the work, and attach [Exit] to the leaves that
// need it: Exit is then called with aborted set when a leaf is left
// running.
//
// The calls:
//
//	tree, err := new(bt.FluentBuilder).
//		Sequence("attack").
//		Condition("enemy near", near).
//		Do("strike", strike).
//		End().
//		Build()
//
// It keeps a stack of open nodes: Sequence, Selector, Parallel and Inverter
// open one (as a child of the node open above, if any); Do, Condition and
// Splice add a child to the open node; End closes the open node; Build
// returns the tree. The first misuse is kept: later calls do nothing, and
// Build and Err return it, a [FluentError] with the library's exception
// class and message and the index of the call. The zero FluentBuilder is
// ready to use; a FluentBuilder builds one tree.
type FluentBuilder struct {
	stack []fluentOpen
	last  Node[Fluent] // the node ended last, or the zero Node
	built bool
	calls int
	err   error
}

// fluentOpen is a node that has been opened and not yet ended.
type fluentOpen struct {
	kind          Kind // KindReactiveSequence, KindReactiveSelect, KindReactiveParallel, or KindNegate for an Inverter
	name          string
	fail, succeed int
	kids          []Node[Fluent]
	open          bool // a child composite is open above this node: it will be the last child
}

// NewFluentBuilder returns a new, empty builder (the same as a zero
// FluentBuilder).
func NewFluentBuilder() *FluentBuilder { return &FluentBuilder{} }

// Err returns the builder's first error, or nil.
func (b *FluentBuilder) Err() error { return b.err }

// start begins a call: it returns the call's index and whether the call
// may proceed (no earlier error).
func (b *FluentBuilder) start() (int, bool) {
	i := b.calls
	b.calls++
	return i, b.err == nil
}

// fail records the library's exception for call i.
func (b *FluentBuilder) fail(i int, method, exception, msg string) *FluentBuilder {
	b.err = FluentError{Exception: exception, Message: msg, Method: method, Call: i}
	return b
}

// strict records a refusal of our own for call i.
func (b *FluentBuilder) strict(i int, method string, err error, format string, args ...any) *FluentBuilder {
	b.err = FluentError{Message: fmt.Sprintf(format, args...), Method: method, Call: i, Strict: true, Err: err}
	return b
}

// addTo checks that the open node can take one more child, as the
// library's AddChild does.
func (b *FluentBuilder) addTo(i int, method string) bool {
	top := &b.stack[len(b.stack)-1]
	if top.kind == KindNegate && (len(top.kids) > 0 || top.open) {
		b.fail(i, method, ApplicationException, "Can't add more than a single child to InverterNode!")
		return false
	}
	return true
}

// open opens a composite node.
func (b *FluentBuilder) open(method string, o fluentOpen) *FluentBuilder {
	i, ok := b.start()
	if !ok {
		return b
	}
	if len(b.stack) == 0 {
		if b.last.n != nil {
			return b.strict(i, method, nil, "a second top-level tree: %q was already ended, and a FluentBuilder builds one tree (FluentBehaviourTree would build both and return the one ended last)", b.last.n.name)
		}
	} else {
		if !b.addTo(i, method) {
			return b
		}
		b.stack[len(b.stack)-1].open = true
	}
	b.stack = append(b.stack, o)
	return b
}

// Sequence opens a sequence named name (a [ReactiveSequence]).
func (b *FluentBuilder) Sequence(name string) *FluentBuilder {
	return b.open("Sequence", fluentOpen{kind: KindReactiveSequence, name: name})
}

// Selector opens a selector named name (a [ReactiveSelect]).
func (b *FluentBuilder) Selector(name string) *FluentBuilder {
	return b.open("Selector", fluentOpen{kind: KindReactiveSelect, name: name})
}

// Parallel opens a parallel named name that fails when failN of its
// children fail and succeeds when succeedN succeed, in one tick (a
// [ReactiveParallel]; note the order, failN first, as in the library).
// The counts are not checked: 0 or less switches the outcome off.
func (b *FluentBuilder) Parallel(name string, failN, succeedN int) *FluentBuilder {
	return b.open("Parallel", fluentOpen{kind: KindReactiveParallel, name: name, fail: failN, succeed: succeedN})
}

// Inverter opens an inverter named name, which takes one child: a
// [Negate] of it, or an [EmptyInverter] if it is ended without one.
func (b *FluentBuilder) Inverter(name string) *FluentBuilder {
	return b.open("Inverter", fluentOpen{kind: KindNegate, name: name})
}

// leaf adds a leaf to the open node.
func (b *FluentBuilder) leaf(method string, nd *node[Fluent], nilFn bool) *FluentBuilder {
	i, ok := b.start()
	if !ok {
		return b
	}
	if len(b.stack) == 0 {
		return b.fail(i, method, ApplicationException, "Can't create an unnested ActionNode, it must be a leaf node.")
	}
	if nilFn {
		return b.strict(i, method, nil, "%q has a nil function (FluentBehaviourTree would fail at the tick that reaches it)", nd.name)
	}
	if !b.addTo(i, method) {
		return b
	}
	top := &b.stack[len(b.stack)-1]
	top.kids = append(top.kids, Node[Fluent]{nd})
	return b
}

// Do adds an action named name that calls fn at every tick that reaches
// it, and returns its status (a [Leaf]). It is an error outside an open
// node, and, unlike in the library, for a nil fn.
func (b *FluentBuilder) Do(name string, fn func(td TimeData) Status) *FluentBuilder {
	nd := &node[Fluent]{kind: KindLeaf, leaf: Fluent{Name: name, Do: fn}, size: 1, name: name}
	return b.leaf("Do", nd, fn == nil)
}

// Condition adds a condition named name that calls fn at every tick that
// reaches it: it succeeds when fn returns true and fails otherwise (a
// [Condition]). It is an error outside an open node, and, unlike in the
// library, for a nil fn.
func (b *FluentBuilder) Condition(name string, fn func(td TimeData) bool) *FluentBuilder {
	nd := &node[Fluent]{kind: KindCondition, leaf: Fluent{Name: name, If: fn}, size: 1, stepped: true, name: name}
	return b.leaf("Condition", nd, fn == nil)
}

// Splice adds tree, a built tree, as a child of the open node: the node
// itself, shared, not a copy. The zero Node is the library's null tree.
func (b *FluentBuilder) Splice(tree Node[Fluent]) *FluentBuilder {
	i, ok := b.start()
	if !ok {
		return b
	}
	if tree.n == nil {
		return b.fail(i, "Splice", ArgumentNullException, "Value cannot be null.\nParameter name: subTree")
	}
	if len(b.stack) == 0 {
		return b.fail(i, "Splice", ApplicationException, "Can't splice an unnested sub-tree, there must be a parent-tree.")
	}
	if !b.addTo(i, "Splice") {
		return b
	}
	top := &b.stack[len(b.stack)-1]
	top.kids = append(top.kids, tree)
	return b
}

// End closes the open node, which becomes a child of the node open below
// it, or the tree.
func (b *FluentBuilder) End() *FluentBuilder {
	i, ok := b.start()
	if !ok {
		return b
	}
	if len(b.stack) == 0 {
		return b.fail(i, "End", InvalidOperationException, "Stack empty.")
	}
	o := b.stack[len(b.stack)-1]
	b.stack = b.stack[:len(b.stack)-1]
	var nd Node[Fluent]
	switch {
	case o.kind == KindNegate && len(o.kids) == 0:
		nd = build[Fluent](KindEmptyInverter, Params{}, nil)
	default:
		nd = build(o.kind, Params{Success: o.succeed, Failure: o.fail}, o.kids)
	}
	if nd.n == nil {
		return b.strict(i, "End", errTooBig, "%q: %v", o.name, errTooBig)
	}
	nd.n.name = o.name
	if len(b.stack) > 0 {
		top := &b.stack[len(b.stack)-1]
		top.kids = append(top.kids, nd)
		top.open = false
	}
	b.last = nd
	return b
}

// Build returns the tree: the node that was ended last, once every node
// is ended. It returns the builder's first error if a call failed, the
// library's error when no node was ever ended, and (unlike the library)
// an error when nodes are still open or Build was called before.
func (b *FluentBuilder) Build() (Node[Fluent], error) {
	i, ok := b.start()
	switch {
	case !ok:
	case b.last.n == nil:
		b.fail(i, "Build", ApplicationException, "Can't create a behaviour tree with zero nodes")
	case len(b.stack) > 0:
		b.strict(i, "Build", nil, "%d node(s) still open, the innermost %q: call End for each (FluentBehaviourTree would return %q, the node ended last)",
			len(b.stack), b.stack[len(b.stack)-1].name, b.last.n.name)
	case b.built:
		b.strict(i, "Build", nil, "called again: a FluentBuilder builds one tree (FluentBehaviourTree would return the node ended last again)")
	default:
		b.built = true
		return b.last, nil
	}
	return Node[Fluent]{}, b.err
}

// The pure evaluation of memoryless subtrees. A subtree whose nodes are
// all reactive composites, Negate, AlwaysSucceed, AlwaysFail, actions,
// conditions or empty inverters, without guards or callbacks, keeps
// nothing between updates: updating it afresh gives what the engine's
// general rules (stepped.go: reactive, reactiveParallel) give. Without
// events and pending async results, the engine clears its states at once
// and evaluates it afresh (stepped_fresh.go), writing each node's state as
// it is decided.

// markPure sets p.pure for the roots of pure subtrees, if p has any
// reactive node.
func markPure[L any](p *sprogram[L]) {
	has := false
	for i := range p.nodes {
		k := p.nodes[i].kind
		has = has || k == KindReactiveSequence || k == KindReactiveSelect || k == KindReactiveParallel
	}
	if !has {
		return
	}
	p.pure = make([]bool, len(p.nodes))
	for i := len(p.nodes) - 1; i >= 0; i-- { // children come after their parent
		s := &p.nodes[i]
		ok := kinds[s.kind].pure && s.g < 0 && s.at == nil
		for _, c := range s.kids {
			ok = ok && p.pure[c]
		}
		p.pure[i] = ok
	}
}

// pureUpdate evaluates the pure subtree n afresh.
func (s *stepper[L]) pureUpdate(n int32) {
	s.clearSubtree(n)
	s.fresh(n)
}

// badStatus abandons the step: action n returned r, an invalid status.
//
//go:noinline
func (s *stepper[L]) badStatus(n int32, r Status) {
	s.fail(n, "action returned an invalid status %d", r)
}
