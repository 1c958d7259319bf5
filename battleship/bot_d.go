package battleship

import bt "github.com/zipbt/behaviortree"

// TreeD is the original author's advanced bot: C with the order of the
// directions drawn at random, and "collateral damage" (hits that were not
// part of a sunk ship) targeted before random guessing resumes:
//
//	Sequence(random_guess, check_adjacent,
//	         Continually(Sequence(check_for_collateral_damage, AlwaysSucceed(check_adjacent))))
//
// where check_adjacent is Random(Select(horizontal, vertical), Select(vertical, horizontal)),
// horizontal is Random(Select(go_right, go_left), Select(go_left, go_right)),
// and vertical is Random(Select(go_up, go_down), Select(go_down, go_up)).
var TreeD = bt.Sequence(
	bt.Leaf(RandomGuess),
	checkAdjacent,
	bt.Continually(bt.Sequence(bt.Leaf(CheckForCollateralDamage), bt.AlwaysSucceed(checkAdjacent))),
)

var (
	horizontal = bt.Random(
		bt.Select(bt.Leaf(GoRight), bt.Leaf(GoLeft)),
		bt.Select(bt.Leaf(GoLeft), bt.Leaf(GoRight)),
	)
	vertical = bt.Random(
		bt.Select(bt.Leaf(GoUp), bt.Leaf(GoDown)),
		bt.Select(bt.Leaf(GoDown), bt.Leaf(GoUp)),
	)
	checkAdjacent = bt.Random(
		bt.Select(horizontal, vertical),
		bt.Select(vertical, horizontal),
	)
)

// BotD zeroes in with random directions and cleans up collateral damage.
type BotD struct{ core }

// NewD returns bot D, seeded with seed (its tree's Random nodes and its
// random guesses both draw from it).
func NewD(seed uint64) BotD { return BotD{newCore(TreeD, seed)} }

// Name returns "D".
func (BotD) Name() string { return "D" }

// Decide returns the bot's next shot.
func (b BotD) Decide(v *View) (Decision, error) { return decide(b, v) }

func (b BotD) act(v *View) (BotD, action) {
	switch in := b.tree.Value(); in {
	case RandomGuess:
		c, a := b.guess(v)
		return BotD{c}, a
	case CheckForCollateralDamage:
		// A hit that is not part of a sunk ship belongs to a ship still
		// afloat: narrow down around it next. No shot is fired.
		for y := 0; y < v.Rows; y++ {
			for x := 0; x < v.Cols; x++ {
				if p := (Point{x, y}); v.At(p) == Hit {
					b.anchor, b.cur, b.dir = p, p, ""
					return b, answer(bt.Success)
				}
			}
		}
		return b, failIntent()
	default:
		c, a := b.narrow(v, in)
		return BotD{c}, a
	}
}

func (b BotD) withTree(t bt.Tree[Intent]) BotD { b.tree = t; return b }

// Observe follows C's rules.
func (b BotD) Observe(_ *View, shot Point, a Answer) (Bot, bt.Status) {
	var s bt.Status
	b.core, s = b.observe(shot, a)
	return b, s
}
