package battleship

import bt "github.com/zipbt/behaviortree"

// TreeA is AI "A", random guessing: Sequence(random_guess). Whatever the
// answer, the tree starts over at random_guess.
var TreeA = bt.Sequence(bt.Leaf(RandomGuess))

// BotA guesses at random.
type BotA struct{ core }

// NewA returns bot A, seeded with seed.
func NewA(seed uint64) BotA { return BotA{newCore(TreeA, seed)} }

// Name returns "A".
func (BotA) Name() string { return "A" }

// Decide returns the bot's next shot: a random unplayed cell.
func (b BotA) Decide(v *View) (Decision, error) { return decide(b, v) }

func (b BotA) act(v *View) (BotA, action) {
	c, a := b.guess(v)
	return BotA{c}, a
}

func (b BotA) withTree(t bt.Tree[Intent]) BotA { b.tree = t; return b }

// Observe succeeds a hit or a sunk ship and fails a miss; either way the
// tree starts over.
func (b BotA) Observe(_ *View, _ Point, a Answer) (Bot, bt.Status) {
	s := bt.Success
	if a.Kind == AnswerMiss {
		s = bt.Failure
	}
	b.tree = b.tree.Signal(s)
	return b, s
}
