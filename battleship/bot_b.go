package battleship

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
)

// TreeB is AI "B", brute force:
//
//	Sequence(top_left, Continually(Select(go_right, beginning_of_next_row)))
//
// Each time go_right succeeds, the Select succeeds and Continually enters
// it again. Going right off the board fails, and the Select moves on to the
// beginning of the next row, which costs an extra tick.
var TreeB = bt.Sequence(
	bt.Leaf(topLeft),
	bt.Continually(bt.Select(bt.Leaf(goRight), bt.Leaf(beginningOfNextRow))),
)

// botB is B's handler. It remembers its last shot in b.cur.
var botB = strategy{
	name: "B",
	tree: TreeB,
	// Each intent names a cell: the top left one, the one right of the
	// last shot, or the first of the next row. A cell off the board, or
	// already played, fails the intent.
	act: func(b *Bot, v *View) move {
		var p Point
		switch b.tree.Value() {
		case topLeft:
			p = Point{0, 0}
		case goRight:
			p = b.cur.add(Point{1, 0})
		case beginningOfNextRow:
			p = Point{0, b.cur.Y + 1}
		}
		if !v.playable(p) {
			return failIntent()
		}
		return shootAt(p)
	},
	// Every shot succeeds: B does not care what it hit.
	hear: func(b *Bot, shot Point, _ Answer) bt.Status {
		b.cur = shot
		return bt.Success
	},
	doing: func(b *Bot) string {
		return fmt.Sprintf("sweeping row by row: %s from %v", b.tree.Value(), b.cur)
	},
}
