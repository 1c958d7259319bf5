package behaviortree_test

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/custom"
)

// resumingSelect is a select that resumes where it left off: each time it is
// entered, it starts at the child that last ended it, instead of the first.
// Its state, the child to start at, is kept by the tree.
type resumingSelect struct{ at int }

func (r resumingSelect) Enter(c custom.Context) (int, custom.Traversal) { return r.at, r }

func (r resumingSelect) OnSucceed(c custom.Context) (custom.Move, custom.Traversal) {
	return custom.Succeed, resumingSelect{at: c.Child()} // stay on the child that worked
}

func (r resumingSelect) OnFail(c custom.Context) (custom.Move, custom.Traversal) {
	if next := c.Child() + 1; next < c.Len() {
		return custom.To(next), r
	}
	return custom.Fail, resumingSelect{} // all failed: next time, from the top
}

// A custom node: a select that remembers which child last worked. Under
// RepeatUntilFail it is entered again after each success, and goes straight back
// to the child that succeeded, where a plain Select would start from "a".
func ExampleCustomNode() {
	tree := bt.Start(bt.RepeatUntilFail(
		bt.CustomNode(resumingSelect{}, bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c")),
	))
	fmt.Println(tree.Value())
	tree = tree.Fail() // a failed: on to b
	fmt.Println(tree.Value())
	tree = tree.Succeed() // b worked: the node succeeds, RepeatUntilFail enters it again
	fmt.Println(tree.Value())
	// b and c fail: the node fails and resets to a; RepeatUntilFail then succeeds,
	// which completes the whole tree, and it starts over.
	tree = tree.Fail().Fail()
	fmt.Println(tree.Value(), tree.Status())
	// Output:
	// a
	// b
	// b
	// a success
}

// randomStart is a custom node that enters a child drawn from the tree's
// random state, and fails as soon as one child fails.
type randomStart struct{}

func (randomStart) Enter(c custom.Context) (int, custom.Traversal) {
	return c.Rand().IntN(c.Len()), nil
}
func (randomStart) OnSucceed(custom.Context) (custom.Move, custom.Traversal) {
	return custom.Succeed, nil
}
func (randomStart) OnFail(custom.Context) (custom.Move, custom.Traversal) { return custom.Fail, nil }

// holder is a custom node state that == cannot compare (it holds a slice in
// an interface); the tree must still keep it without panicking.
type holder struct{ seen any }

func (h holder) Enter(custom.Context) (int, custom.Traversal) { return 0, holder{seen: []int{1}} }
func (h holder) OnSucceed(custom.Context) (custom.Move, custom.Traversal) {
	return custom.Succeed, holder{seen: []int{2}}
}
func (h holder) OnFail(custom.Context) (custom.Move, custom.Traversal) { return custom.Fail, h }
