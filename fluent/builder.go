package fluent

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
)

// Builder builds a tree with FluentBehaviourTree's calls, which chain.
//
// Every node it builds starts again from its first child at every tick
// (see the package documentation): to keep a node's place between ticks,
// build that part with [bt.Sequence] and [bt.Select] and splice it in.
//
// It keeps a stack of open nodes: Sequence, Selector, Parallel and Inverter
// open one (as a child of the node open above, if any); Do, Condition,
// their forms with the step's memory (DoWith, ConditionWith) and Splice
// add a child to the open node; End closes the open node; Build
// returns the tree. The first misuse is kept: later calls do nothing, and
// Build and Err return it, an [Error] with the library's exception
// class and message and the index of the call. The zero Builder is ready
// to use; a Builder builds one tree.
type Builder struct {
	stack []open
	last  bt.Node[bt.Fluent] // the node ended last, or the zero Node
	built bool
	calls int
	err   error
}

// open is a node that has been opened and not yet ended.
type open struct {
	kind          kind.Kind // kind.ReactiveSequence, kind.ReactiveSelect, kind.ReactiveParallel, or kind.Negate for an Inverter
	name          string
	fail, succeed int
	kids          []bt.Node[bt.Fluent]
	open          bool // a child composite is open above this node: it will be the last child
}

// NewBuilder returns a new, empty builder (the same as a zero Builder).
func NewBuilder() *Builder { return &Builder{} }

// Err returns the builder's first error, or nil.
func (b *Builder) Err() error { return b.err }

// start begins a call: it returns the call's index and whether the call
// may proceed (no earlier error).
func (b *Builder) start() (int, bool) {
	i := b.calls
	b.calls++
	return i, b.err == nil
}

// fail records the library's exception for call i.
func (b *Builder) fail(i int, method, exception, msg string) *Builder {
	b.err = Error{Exception: exception, Message: msg, Method: method, Call: i}
	return b
}

// strict records a refusal of our own for call i.
func (b *Builder) strict(i int, method string, err error, format string, args ...any) *Builder {
	b.err = Error{Message: fmt.Sprintf(format, args...), Method: method, Call: i, Strict: true, Err: err}
	return b
}

// addTo checks that the open node can take one more child, as the
// library's AddChild does.
func (b *Builder) addTo(i int, method string) bool {
	top := &b.stack[len(b.stack)-1]
	if top.kind == kind.Negate && (len(top.kids) > 0 || top.open) {
		b.fail(i, method, ApplicationException, "Can't add more than a single child to InverterNode!")
		return false
	}
	return true
}

// push opens a composite node.
func (b *Builder) push(method string, o open) *Builder {
	i, ok := b.start()
	if !ok {
		return b
	}
	if len(b.stack) == 0 {
		if !b.last.IsZero() {
			return b.strict(i, method, nil, "a second top-level tree: %q was already ended, and a Builder builds one tree (FluentBehaviourTree would build both and return the one ended last)", b.last.Name())
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

// Sequence opens a sequence named name (a [bt.ReactiveSequence]).
func (b *Builder) Sequence(name string) *Builder {
	return b.push("Sequence", open{kind: kind.ReactiveSequence, name: name})
}

// Selector opens a selector named name (a [bt.ReactiveSelect]).
func (b *Builder) Selector(name string) *Builder {
	return b.push("Selector", open{kind: kind.ReactiveSelect, name: name})
}

// Parallel opens a parallel named name that fails when failN of its
// children fail and succeeds when succeedN succeed, in one tick (a
// [bt.ReactiveParallel]; note the order, failN first, as in the library).
// The counts are not checked: 0 or less switches the outcome off.
func (b *Builder) Parallel(name string, failN, succeedN int) *Builder {
	return b.push("Parallel", open{kind: kind.ReactiveParallel, name: name, fail: failN, succeed: succeedN})
}

// Inverter opens an inverter named name, which takes one child: a
// [bt.Negate] of it, or a [bt.EmptyInverter] if it is ended without one.
func (b *Builder) Inverter(name string) *Builder {
	return b.push("Inverter", open{kind: kind.Negate, name: name})
}

// leaf adds nd, a leaf just made, to the open node, named name, unless
// its function is nil.
func (b *Builder) leaf(method, name string, nd bt.Node[bt.Fluent], nilFn bool) *Builder {
	i, ok := b.start()
	if !ok {
		return b
	}
	if len(b.stack) == 0 {
		return b.fail(i, method, ApplicationException, "Can't create an unnested ActionNode, it must be a leaf node.")
	}
	if nilFn {
		return b.strict(i, method, nil, "%q has a nil function (FluentBehaviourTree would fail at the tick that reaches it)", name)
	}
	if !b.addTo(i, method) {
		return b
	}
	top := &b.stack[len(b.stack)-1]
	top.kids = append(top.kids, nameFresh(nd, name))
	return b
}

// Do adds an action named name that calls fn at every tick that reaches
// it, and returns its status (a [bt.Leaf]). It is an error outside an open
// node, and, unlike in the library, for a nil fn.
func (b *Builder) Do(name string, fn func(td bt.TimeData) bt.Status) *Builder {
	return b.leaf("Do", name, bt.Leaf(bt.Fluent{Name: name, Do: fn}), fn == nil)
}

// DoWith adds an action named name that calls fn at every tick that
// reaches it with the step's [bt.Blackboard], through which fn reads and
// writes the memory of the version being ticked and gets the tick's
// TimeData (b.TimeData()). Unlike Do's, fn returns a [bt.Result]: a
// status, or a pending [bt.Async] result that the game settles later
// (until then the leaf runs, and fn is not called again while the tick
// reaches it). [New] runs a tree with such leaves with [MemoryAgent]. It
// is an error outside an open node, and for a nil fn.
func (b *Builder) DoWith(name string, fn func(*bt.Blackboard) bt.Result) *Builder {
	return b.leaf("DoWith", name, bt.Leaf(bt.Fluent{Name: name, DoWith: fn}), fn == nil)
}

// ConditionWith adds a condition named name that calls fn at every tick
// that reaches it with the step's [bt.Blackboard] (see [Builder.DoWith]):
// it succeeds when fn returns true and fails otherwise. It is an error
// outside an open node, and for a nil fn.
func (b *Builder) ConditionWith(name string, fn func(*bt.Blackboard) bool) *Builder {
	return b.leaf("ConditionWith", name, bt.Condition(bt.Fluent{Name: name, IfWith: fn}), fn == nil)
}

// Condition adds a condition named name that calls fn at every tick that
// reaches it: it succeeds when fn returns true and fails otherwise (a
// [bt.Condition]). It is an error outside an open node, and, unlike in the
// library, for a nil fn.
func (b *Builder) Condition(name string, fn func(td bt.TimeData) bool) *Builder {
	return b.leaf("Condition", name, bt.Condition(bt.Fluent{Name: name, If: fn}), fn == nil)
}

// Splice adds tree, a built tree, as a child of the open node: the node
// itself, shared, not a copy. The zero Node is the library's null tree.
func (b *Builder) Splice(tree bt.Node[bt.Fluent]) *Builder {
	i, ok := b.start()
	if !ok {
		return b
	}
	if tree.IsZero() {
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
func (b *Builder) End() *Builder {
	i, ok := b.start()
	if !ok {
		return b
	}
	if len(b.stack) == 0 {
		return b.fail(i, "End", InvalidOperationException, "Stack empty.")
	}
	o := b.stack[len(b.stack)-1]
	b.stack = b.stack[:len(b.stack)-1]
	var nd bt.Node[bt.Fluent]
	var err error
	if o.kind == kind.Negate && len(o.kids) == 0 {
		nd = bt.EmptyInverter[bt.Fluent]()
	} else {
		// Build rather than the constructors: a tree too big is an
		// error here, not a panic.
		nd, err = bt.Build(o.kind, kind.Params{Success: o.succeed, Failure: o.fail}, o.kids...)
	}
	if err != nil {
		return b.strict(i, "End", err, "%q: %v", o.name, err)
	}
	nd = nameFresh(nd, o.name)
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
func (b *Builder) Build() (bt.Node[bt.Fluent], error) {
	i, ok := b.start()
	switch {
	case !ok:
	case b.last.IsZero():
		b.fail(i, "Build", ApplicationException, "Can't create a behaviour tree with zero nodes")
	case len(b.stack) > 0:
		b.strict(i, "Build", nil, "%d node(s) still open, the innermost %q: call End for each (FluentBehaviourTree would return %q, the node ended last)",
			len(b.stack), b.stack[len(b.stack)-1].name, b.last.Name())
	case b.built:
		b.strict(i, "Build", nil, "called again: a Builder builds one tree (FluentBehaviourTree would return the node ended last again)")
	default:
		b.built = true
		return b.last, nil
	}
	return bt.Node[bt.Fluent]{}, b.err
}
