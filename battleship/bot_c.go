package battleship

import bt "github.com/zipbt/behaviortree"

// TreeC is AI "C", zero in:
//
//	Sequence(random_guess, Select(Select(go_right, go_left), Select(go_up, go_down)))
//
// It guesses at random until a hit, then scans right, left, up and down
// from that first hit until the ship sinks.
var TreeC = bt.Sequence(
	bt.Leaf(RandomGuess),
	bt.Select(
		bt.Select(bt.Leaf(GoRight), bt.Leaf(GoLeft)),
		bt.Select(bt.Leaf(GoUp), bt.Leaf(GoDown)),
	),
)

// BotC zeroes in on hits.
type BotC struct{ core }

// NewC returns bot C, seeded with seed.
func NewC(seed uint64) BotC { return BotC{newCore(TreeC, seed)} }

// Name returns "C".
func (BotC) Name() string { return "C" }

// Decide returns the bot's next shot.
func (b BotC) Decide(v *View) (Decision, error) { return decide(b, v) }

func (b BotC) act(v *View) (BotC, action) {
	var c core
	var a action
	if in := b.tree.Value(); in == RandomGuess {
		c, a = b.guess(v)
	} else {
		c, a = b.narrow(v, in)
	}
	return BotC{c}, a
}

func (b BotC) withTree(t bt.Tree[Intent]) BotC { b.tree = t; return b }

// Observe follows the seed's rules. Random guessing: a miss fails, a hit
// succeeds, a sunk ship leaves the tree as it is. Narrowing down: a hit
// leaves the tree as it is, a miss fails, a sunk ship succeeds.
func (b BotC) Observe(_ *View, shot Point, a Answer) (Bot, bt.Status) {
	var s bt.Status
	b.core, s = b.observe(shot, a)
	return b, s
}
