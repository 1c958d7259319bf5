package behaviortree

import (
	"fmt"
	"math/rand/v2"
	"reflect"

	"github.com/benbjohnson/immutable"
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
	OnSucceed(c Context) (Move, Traversal)
	// OnFail is called when the child c.Child() failed.
	OnFail(c Context) (Move, Traversal)
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

// Move is what a [Traversal] does after a child ends: enter a child
// ([MoveTo]), or end the node with a success or a failure ([MoveSucceed],
// [MoveFail]). The zero Move is none of these: a Traversal that returns it
// makes the signal panic with a message naming the Traversal's type, so a
// forgotten move cannot loop silently.
type Move int32

// The moves that end a custom node.
const (
	// MoveSucceed ends the node with a success.
	MoveSucceed Move = -1
	// MoveFail ends the node with a failure.
	MoveFail Move = -2
)

// MoveTo enters the node's child i, afresh. Entering the child that just
// ended restarts it, as [RepeatUntilFail] does. It panics with
// "behaviortree.MoveTo: negative child index" for i < 0; an index past
// the node's children panics when the move is made.
func MoveTo(i int) Move {
	if i < 0 {
		panic("behaviortree.MoveTo: negative child index")
	}
	if i >= maxNodes {
		return Move(maxNodes) // out of range for every node
	}
	return Move(i + 1)
}

// child returns the index of the child that s enters, or -1 if s enters
// none.
func (s Move) child() int {
	if s > 0 {
		return int(s) - 1
	}
	return -1
}

// String returns "enter(i)", "succeed", "fail", or "Move(0)" for the zero
// Move.
func (s Move) String() string {
	switch {
	case s == MoveSucceed:
		return "succeed"
	case s == MoveFail:
		return "fail"
	case s > 0:
		return fmt.Sprintf("enter(%d)", s.child())
	}
	return fmt.Sprintf("Move(%d)", int32(s))
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
	nd := mustBuild(KindCustom, Params{}, children)
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

// enterCustom asks custom position p which child to enter, and records its
// new state (and any random draws) in a new extra.
func (z zipper[L]) enterCustom(p *place[L]) (zipper[L], int) {
	t := z.traversal(p)
	x := *z.ext
	i, next := t.Enter(Context{children: len(p.children), child: -1, rng: &x.rng})
	checkChild(t, "Enter", i, len(p.children))
	x.custom = x.setTraversal(p.id, t, next)
	z.ext = &x
	return z, i
}

// reactCustom tells custom position p that its child ended, records its new
// state, and returns what it does next (checked).
func (z zipper[L]) reactCustom(p *place[L], child int, ok bool) (zipper[L], Move) {
	t := z.traversal(p)
	x := *z.ext
	c := Context{children: len(p.children), child: child, rng: &x.rng}
	var step Move
	var next Traversal
	method := "OnSucceed"
	if ok {
		step, next = t.OnSucceed(c)
	} else {
		method = "OnFail"
		step, next = t.OnFail(c)
	}
	x.custom = x.setTraversal(p.id, t, next)
	z.ext = &x
	if step != MoveSucceed && step != MoveFail {
		if step == 0 {
			panic(fmt.Sprintf("behaviortree: %T.%s returned the zero Move", t, method))
		}
		checkChild(t, method, step.child(), len(p.children))
	}
	return z, step
}

// traversal returns the current state of custom position p.
func (z zipper[L]) traversal(p *place[L]) Traversal {
	if z.ext.custom != nil {
		if t, ok := z.ext.custom.Get(p.id); ok {
			return t
		}
	}
	return p.def.custom
}

// setTraversal returns the custom states with next as the state of the
// position numbered id, where it changed.
func (x *extra[L]) setTraversal(id int32, old, next Traversal) *immutable.Map[int32, Traversal] {
	if next == nil {
		next = old // a Traversal that returns nil keeps its state
	}
	if sameTraversal(old, next) {
		return x.custom
	}
	m := x.custom
	if m == nil {
		m = immutable.NewMap[int32, Traversal](nil)
	}
	return m.Set(id, next)
}
