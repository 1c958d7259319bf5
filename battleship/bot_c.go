package battleship

import bt "github.com/zipbt/behaviortree"

// TreeC is AI "C", zero in:
//
//	Sequence(random_guess, Select(Select(go_right, go_left), Select(go_up, go_down)))
//
// It guesses at random until a hit, then scans right, left, up and down
// from that first hit until the ship sinks.
var TreeC = bt.Sequence(
	bt.Leaf(randomGuess),
	bt.Select(
		bt.Select(bt.Leaf(goRight), bt.Leaf(goLeft)),
		bt.Select(bt.Leaf(goUp), bt.Leaf(goDown)),
	),
)

// botC is C's handler.
var botC = strategy{
	name: "C",
	tree: TreeC,
	act:  actC,
	hear: hearC,
}

// actC: random_guess shoots a random unplayed cell; a direction steps from
// the last hit that way over hits already made, and shoots the next cell,
// or fails when that cell is off the board or played (see narrow).
func actC(b *Bot, v *View) move {
	if in := b.tree.Value(); in != randomGuess {
		return b.narrow(v, in)
	}
	return b.guess(v)
}

// hearC is the seed's rule for answers.
func hearC(b *Bot, shot Point, a Answer) bt.Status {
	if b.tree.Value() == randomGuess {
		switch a.Kind {
		case AnswerMiss:
			return bt.Failure // guess again
		case AnswerHit:
			b.startNarrowing(shot)
			return bt.Success // narrow down around the hit
		}
		return bt.Running // sunk by a guess: go on guessing
	}
	switch a.Kind {
	case AnswerHit:
		b.cur = shot
		return bt.Running // keep going this way
	case AnswerMiss:
		b.dir = ""
		return bt.Failure // try the next direction
	}
	b.dir = ""
	return bt.Success // sunk: back to guessing
}
