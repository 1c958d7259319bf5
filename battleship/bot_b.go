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
	bt.Leaf(TopLeft),
	bt.Continually(bt.Select(bt.Leaf(GoRight), bt.Leaf(BeginningOfNextRow))),
)

// BotB sweeps the board row by row.
type BotB struct {
	core
	cursor Point // the last cell fired at
}

// NewB returns bot B. It draws nothing at random; seed is for symmetry.
func NewB(seed uint64) BotB { return BotB{core: newCore(TreeB, seed)} }

// Name returns "B".
func (BotB) Name() string { return "B" }

// Doing says what the bot is doing.
func (b BotB) Doing() string {
	return fmt.Sprintf("sweeping row by row: %s from %v", b.tree.Value(), b.cursor)
}

// Decide returns the bot's next shot: the next cell in reading order.
func (b BotB) Decide(v *View) (Decision, error) { return decide(b, v) }

func (b BotB) act(v *View) (BotB, action) {
	var p Point
	switch b.tree.Value() {
	case TopLeft:
		p = Point{0, 0}
	case GoRight:
		p = b.cursor.Add(Point{1, 0})
	case BeginningOfNextRow:
		p = Point{0, b.cursor.Y + 1}
	}
	if !v.Playable(p) {
		return b, failIntent()
	}
	return b, shootAt(p)
}

func (b BotB) withTree(t bt.Tree[Intent]) BotB { b.tree = t; return b }

// Observe succeeds every shot: B does not care what it hit.
func (b BotB) Observe(_ *View, shot Point, _ Answer) (Bot, bt.Status) {
	b.cursor = shot
	b.tree = b.tree.Succeed()
	return b, bt.Success
}
