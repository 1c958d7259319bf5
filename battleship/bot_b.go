package battleship

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
)

// TreeB is AI "B", brute force:
//
//	Sequence(top_left, RepeatUntilFail(Select(go_right, beginning_of_next_row)))
//
// Each time go_right succeeds, the Select succeeds and RepeatUntilFail enters
// it again. Going right off the board fails, and the Select moves on to the
// beginning of the next row, which costs an extra tick.
var TreeB = bt.Sequence(
	bt.Leaf(topLeft),
	bt.RepeatUntilFail(bt.Select(bt.Leaf(goRight), bt.Leaf(beginningOfNextRow))),
)

// lastShotKey is what B remembers, besides its generator (which it does
// not use): its last shot, which the next one is right of or below.
var lastShotKey = memory.NewKey[Point]("battleship.last_shot")

// botB is B's handler.
var botB = strategy{
	name: "B",
	tree: TreeB,
	// Each intent names a cell: the top left one, the one right of the
	// last shot, or the first of the next row. A cell off the board, or
	// already played, fails the intent.
	act: func(b *Bot, v *View) move {
		var p Point
		last, _ := lastShotKey.Get(b.tree.Memory())
		switch b.tree.Value() {
		case topLeft:
			p = Point{0, 0}
		case goRight:
			p = last.add(Point{1, 0})
		case beginningOfNextRow:
			p = Point{0, last.Y + 1}
		}
		if !v.playable(p) {
			return failIntent()
		}
		return shootAt(p)
	},
	// Every shot succeeds: B does not care what it hit.
	hear: func(b *Bot, shot Point, _ Answer) bt.Status {
		remember(b, lastShotKey, shot)
		return bt.Success
	},
	doing: func(b *Bot) string {
		last, _ := lastShotKey.Get(b.tree.Memory())
		return fmt.Sprintf("sweeping row by row: %s from %v", b.tree.Value(), last)
	},
}
