package behaviortree

import (
	"fmt"
	"math/rand/v2"
	"reflect"
)

// Traversal is the logic of a custom inner node: the Go form of Elixir's
// BehaviorTree.Node.Protocol. It decides which child to enter when the node
// is entered, and what to do when the child it is in succeeds or fails: enter
// another child (or the same one again), or end the node with a success or a
// failure, which passes to the node's own parent.
//
// A Traversal may carry state: each method returns the node's state from then
// on, which is the receiver itself (or nil) when nothing changed, or an
// updated copy.
// The tree keeps that state persistently, per place in the tree, like
// Elixir's edited nodes: it survives the node being left and entered again,
// and the tree starting over, and every older version keeps the state it had.
// A Traversal must therefore be a value that is never modified once returned
// (a struct value, or a pointer to a struct that is never written again).
// Methods must be deterministic given their arguments; for randomness use
// [Context.Rand], which draws from the tree's own seeded state.
//
// See [CustomNode] for an example.
type Traversal interface {
	// Enter is called each time the node is entered. It returns the index
	// of the child to enter and the node's state from now on.
	Enter(c Context) (child int, next Traversal)
	// OnSucceed is called when the child c.Child() succeeded.
	OnSucceed(c Context) (Step, Traversal)
	// OnFail is called when the child c.Child() failed.
	OnFail(c Context) (Step, Traversal)
}

// Context is what a [Traversal] is told about its node when it is called.
type Context struct {
	children int
	child    int
	rng      *rand.PCG
}

// Len returns the number of the node's children.
func (c Context) Len() int { return c.children }

// Child returns the index of the child that just ended, or -1 in Enter.
func (c Context) Child() int { return c.child }

// Rand returns a generator that draws from the tree's random state. What it
// draws advances the state of the version being made, never of the receiver
// version, so a seeded tree replays exactly.
func (c Context) Rand() *rand.Rand { return rand.New(c.rng) }

// Step is what a [Traversal] does after a child ends: enter a child, or end
// the node with a success or a failure.
type Step struct {
	op    stepOp
	child int
}

type stepOp uint8

const (
	opEnter stepOp = iota
	opSucceed
	opFail
)

// StepSucceed ends the node with a success.
var StepSucceed = Step{op: opSucceed}

// StepFail ends the node with a failure.
var StepFail = Step{op: opFail}

// StepEnter enters the node's child i, afresh. Entering the child that just
// ended restarts it, as [Continually] does.
func StepEnter(i int) Step { return Step{op: opEnter, child: i} }

// String returns "enter(i)", "succeed" or "fail".
func (s Step) String() string {
	switch s.op {
	case opSucceed:
		return "succeed"
	case opFail:
		return "fail"
	}
	return fmt.Sprintf("enter(%d)", s.child)
}

// CustomNode returns an inner node whose traversal is t, over the given
// children. t is the node's state when it is first entered.
//
// CustomNode panics with "behaviortree.CustomNode: nil Traversal" and
// "behaviortree.CustomNode: no children", and when a child is the zero Node.
// At run time, a Traversal that names a child out of range panics with a
// message naming its type, the index and the number of children.
func CustomNode[L any](t Traversal, children ...Node[L]) Node[L] {
	if t == nil {
		panic("behaviortree.CustomNode: nil Traversal")
	}
	nd := inner("CustomNode", KindCustom, children)
	nd.n.custom = t
	nd.n.hasCust = true
	return nd
}

// checkChild panics when a Traversal names a child out of range.
func checkChild(t Traversal, method string, i, n int) {
	if i < 0 || i >= n {
		panic(fmt.Sprintf("behaviortree: %T.%s entered child %d of %d", t, method, i, n))
	}
}

// sameTraversal reports whether b is known to be the same state as a, so
// that storing it can be skipped. It never panics on incomparable types.
func sameTraversal(a, b Traversal) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	// Value.Comparable looks at the dynamic values too, so that a struct
	// holding an interface holding a slice does not make == panic.
	return reflect.TypeOf(a) == reflect.TypeOf(b) &&
		reflect.ValueOf(a).Comparable() && reflect.ValueOf(b).Comparable() && a == b
}
