package battleship

import bt "github.com/zipbt/behaviortree"

// TreeA is AI "A", random guessing: Sequence(random_guess). Whatever the
// answer, the tree starts over at random_guess.
var TreeA = bt.Sequence(bt.Leaf(randomGuess))

// botA is A's handler.
var botA = strategy{
	name: "A",
	tree: TreeA,
	// random_guess shoots a random unplayed cell.
	act: func(b *Bot, v *View) move { return b.guess(v) },
	// A miss fails; a hit or a sunk ship succeeds.
	hear: func(_ *Bot, _ Point, a Answer) bt.Status {
		if a.Kind == AnswerMiss {
			return bt.Failure
		}
		return bt.Success
	},
}
