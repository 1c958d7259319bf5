// Package custom holds what a custom inner node of a Value/Succeed/Fail
// tree is written with: the [Traversal] interface that decides where the
// node goes, the [Context] it is told, the [Move] it makes, and [Savable]
// for a state that is saved with the tree. It is the Go form of Elixir's
// BehaviorTree.Node.Protocol. Build the node with behaviortree.CustomNode:
//
//	tree := bt.Start(bt.CustomNode(resumingSelect{}, bt.Leaf("a"), bt.Leaf("b")))
//
// The package is to a custom node what database/sql/driver is to a
// database driver: the behaviortree package calls these methods; a game
// implements them.
package custom

import (
	"fmt"
	"math/rand/v2"
)

// Traversal is the logic of a custom inner node. It decides which child
// to enter when the node is entered, and what to do when the child it is
// in succeeds or fails: enter another child (or the same one again), or
// end the node with a success or a failure, which passes to the node's own
// parent.
//
// A Traversal may carry state: each method returns the node's state from
// then on, which is the receiver itself (or nil) when nothing changed, or
// an updated copy. The tree keeps that state persistently, per place in
// the tree, like Elixir's edited nodes: it survives the node being left
// and entered again, and the tree starting over, and every older version
// keeps the state it had. A Traversal must therefore be a value that is
// never modified once returned (a struct value, or a pointer to a struct
// that is never written again). Methods must be deterministic given their
// arguments; for randomness use [Context]'s Rand, which draws from the
// tree's own seeded state.
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
// The tree implements it; a Traversal only calls it, and only during the
// call it was given to.
type Context interface {
	// Len returns the number of the node's children.
	Len() int
	// Child returns the index of the child that just ended, or -1 in Enter.
	Child() int
	// Rand returns a generator that draws from the tree's random state.
	// What it draws advances the state of the version being made, never
	// of the receiver version, so a seeded tree replays exactly.
	Rand() *rand.Rand
}

// Savable is a [Traversal] whose state can be saved and restored with the
// tree. A tree whose custom nodes have changed state can be saved only if
// every such state implements it. UnmarshalState is called on the
// definition's own Traversal value, with what MarshalState returned and
// the node's number of children. Saved states are input: UnmarshalState
// must reject data that does not make a valid state for the node (a child
// index out of range, say) with an error, since a state that later names a
// child out of range panics.
type Savable interface {
	Traversal
	MarshalState() ([]byte, error)
	UnmarshalState(data []byte, children int) (Traversal, error)
}

// Move is what a [Traversal] does after a child ends: enter a child
// ([To]), or end the node with a success or a failure ([Succeed],
// [Fail]). The zero Move is none of these: a Traversal that returns it
// makes the signal panic with a message naming the Traversal's type, so a
// forgotten move cannot loop silently.
type Move int32

// The moves that end a custom node.
const (
	// Succeed ends the node with a success.
	Succeed Move = -1
	// Fail ends the node with a failure.
	Fail Move = -2
)

// maxChild bounds the child indexes a Move can name: no definition has
// that many nodes.
const maxChild = 1 << 26

// To enters the node's child i, afresh. Entering the child that just
// ended restarts it, as RepeatUntilFail does. It panics with
// "custom.To: negative child index" for i < 0; an index past the node's
// children panics when the move is made.
func To(i int) Move {
	if i < 0 {
		panic("custom.To: negative child index")
	}
	if i >= maxChild {
		return Move(maxChild) // out of range for every node
	}
	return Move(i + 1)
}

// Child returns the index of the child that m enters, or -1 if m enters
// none (Succeed, Fail and the zero Move).
func (m Move) Child() int {
	if m > 0 {
		return int(m) - 1
	}
	return -1
}

// String returns "enter(i)", "succeed", "fail", or "Move(0)" for the zero
// Move.
func (m Move) String() string {
	switch {
	case m == Succeed:
		return "succeed"
	case m == Fail:
		return "fail"
	case m > 0:
		return fmt.Sprintf("enter(%d)", m.Child())
	}
	return fmt.Sprintf("Move(%d)", int32(m))
}
