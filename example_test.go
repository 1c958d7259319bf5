package behaviortree_test

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
)

// The seed documentation's AI "B" brute-forces a Battleship board row by row.
// The tree only says what it wants to do next; the handler does it, on a
// 3 × 2 board here, and reports back. Going right off the board fails, so the
// Select moves on to the beginning of the next row; when there is no next
// row, the whole tree completes and starts over from the top left.
func Example() {
	aiB := bt.Sequence(
		bt.Leaf("top_left"),
		bt.RepeatUntilFail(bt.Select(bt.Leaf("go_right"), bt.Leaf("beginning_of_next_row"))),
	)
	const cols, rows = 3, 2
	x, y := 0, 0
	tree := bt.Start(aiB)
	for turn := 0; turn < 9; turn++ {
		ok := true
		switch tree.Value() {
		case "top_left":
			x, y = 0, 0
		case "go_right":
			ok = x+1 < cols
			if ok {
				x++
			}
		case "beginning_of_next_row":
			ok = y+1 < rows
			if ok {
				x, y = 0, y+1
			}
		}
		if ok {
			fmt.Printf("%-21s -> guess (%d,%d)\n", tree.Value(), x, y)
			tree = tree.Succeed()
		} else {
			fmt.Printf("%-21s -> off the board\n", tree.Value())
			tree = tree.Fail()
		}
		if tree.Status() != bt.Running {
			fmt.Println("the plan is done:", tree.Status())
		}
	}
	// Output:
	// top_left              -> guess (0,0)
	// go_right              -> guess (1,0)
	// go_right              -> guess (2,0)
	// go_right              -> off the board
	// beginning_of_next_row -> guess (0,1)
	// go_right              -> guess (1,1)
	// go_right              -> guess (2,1)
	// go_right              -> off the board
	// beginning_of_next_row -> off the board
	// the plan is done: success
}

// Every version is a value: signalling returns a new tree and leaves the old
// one as it was, so both outcomes can be explored from the same point.
func ExampleTree_Succeed() {
	tree := bt.Start(bt.Select(bt.Sequence(bt.Leaf("look"), bt.Leaf("shoot")), bt.Leaf("hide")))
	succeeded := tree.Succeed()
	failed := tree.Fail()
	fmt.Println(tree.Value(), succeeded.Value(), failed.Value())
	// Output: look shoot hide
}

// Random nodes draw from the tree's own state: with a seed, a run replays.
func ExampleWithSeed() {
	plan := bt.RepeatUntilFail(bt.Random(bt.Leaf("north"), bt.Leaf("south"), bt.Leaf("east"), bt.Leaf("west")))
	a := bt.Start(plan, bt.WithSeed(7))
	b := bt.Start(plan, bt.WithSeed(7))
	same := true
	for i := 0; i < 100; i++ {
		same = same && a.Value() == b.Value()
		a, b = a.Succeed(), b.Succeed()
	}
	fmt.Println(same)
	// Output: true
}

// Definitions read from, and write to, the JSON form of the Elixir corpus.
func ExampleParseJSON() {
	def, err := bt.ParseJSON[string]([]byte(
		`{"type":"sequence","children":[{"type":"repeat_n","n":2,"children":["a"]},"b"]}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	tree := bt.Start(def)
	fmt.Println(tree.Value(), tree.Fail().Value(), tree.Fail().Fail().Value())

	_, err = bt.ParseJSON[string]([]byte(
		`{"type":"sequence","children":["a",{"type":"repeat_n","n":1,"children":["b"]}]}`))
	fmt.Println(err)
	// Output:
	// a a b
	// behaviortree: children[1]: repeat_n needs n >= 2, got 1
}
