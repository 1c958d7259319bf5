package custom_test

import (
	"fmt"
	"math"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/custom"
)

// resumingSelect is a select that resumes where it left off: each time it
// is entered, it starts at the child that last succeeded, not the first.
type resumingSelect struct{ at int }

func (r resumingSelect) Enter(c custom.Context) (int, custom.Traversal) { return r.at, r }

func (r resumingSelect) OnSucceed(c custom.Context) (custom.Move, custom.Traversal) {
	return custom.Succeed, resumingSelect{at: c.Child()}
}

func (r resumingSelect) OnFail(c custom.Context) (custom.Move, custom.Traversal) {
	if next := c.Child() + 1; next < c.Len() {
		return custom.To(next), r
	}
	return custom.Fail, resumingSelect{}
}

// A Traversal decides where its node goes; the tree keeps its state in
// every version.
func Example() {
	tree := bt.Start(bt.RepeatUntilFail(bt.CustomNode(resumingSelect{}, bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c"))))
	tree = tree.Fail()    // a failed: on to b
	tree = tree.Succeed() // b worked: entered again, the node starts at b
	fmt.Println(tree.Value())
	// Output:
	// b
}

func TestMoves(t *testing.T) {
	for _, c := range []struct {
		m     custom.Move
		child int
		s     string
	}{
		{custom.To(0), 0, "enter(0)"},
		{custom.To(7), 7, "enter(7)"},
		{custom.Succeed, -1, "succeed"},
		{custom.Fail, -1, "fail"},
		{custom.Move(0), -1, "Move(0)"},
	} {
		if c.m.Child() != c.child || c.m.String() != c.s {
			t.Errorf("%d: Child %d, String %q; want %d, %q", int32(c.m), c.m.Child(), c.m.String(), c.child, c.s)
		}
	}
	if got := custom.To(math.MaxInt32); got.Child() < 1<<25 {
		t.Errorf("To(MaxInt32) enters child %d: an index past every node must stay out of range", got.Child())
	}
	defer func() {
		if r := recover(); r != "custom.To: negative child index" {
			t.Errorf("To(-1) panicked with %v", r)
		}
	}()
	custom.To(-1)
}
