package battleship

import bt "github.com/zipbt/behaviortree"

// TreeD is the original author's advanced bot: C with the order of the
// directions drawn at random, and "collateral damage" (hits that were not
// part of a sunk ship) targeted before random guessing resumes:
//
//	Sequence(random_guess, check_adjacent,
//	         RepeatUntilFail(Sequence(check_for_collateral_damage, AlwaysSucceed(check_adjacent))))
//
// where check_adjacent is Random(Select(horizontal, vertical), Select(vertical, horizontal)),
// horizontal is Random(Select(go_right, go_left), Select(go_left, go_right)),
// and vertical is Random(Select(go_up, go_down), Select(go_down, go_up)).
var TreeD = bt.Sequence(
	bt.Leaf(randomGuess),
	checkAdjacent,
	bt.RepeatUntilFail(bt.Sequence(bt.Leaf(checkForCollateralDamage), bt.AlwaysSucceed(checkAdjacent))),
)

var (
	horizontal = bt.Random(
		bt.Select(bt.Leaf(goRight), bt.Leaf(goLeft)),
		bt.Select(bt.Leaf(goLeft), bt.Leaf(goRight)),
	)
	vertical = bt.Random(
		bt.Select(bt.Leaf(goUp), bt.Leaf(goDown)),
		bt.Select(bt.Leaf(goDown), bt.Leaf(goUp)),
	)
	checkAdjacent = bt.Random(
		bt.Select(horizontal, vertical),
		bt.Select(vertical, horizontal),
	)
)

// botD is D's handler: C's, plus check_for_collateral_damage.
var botD = strategy{
	name: "D",
	tree: TreeD,
	act: func(b *Bot, v *View) move {
		if b.tree.Value() != checkForCollateralDamage {
			return actC(b, v)
		}
		// A hit that is not part of a sunk ship belongs to a ship still
		// afloat: narrow down around the first one, in reading order,
		// next. No shot is fired. Without one, the check fails, and
		// random guessing resumes.
		p, ok := v.firstHit()
		if !ok {
			return failIntent()
		}
		b.startNarrowing(p)
		return succeedIntent()
	},
	// The answers are C's: check_for_collateral_damage fires no shot.
	hear: hearC,
}
