package battleship

import (
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
)

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

// What C (and D, whose handler is C's) remembers, besides its generator:
// the hit it narrows down around, the direction it walks from there (none
// to start afresh from the anchor), and the last hit that way.
var (
	anchorKey    = memory.NewKey[Point]("battleship.anchor")
	lastHitKey   = memory.NewKey[Point]("battleship.last_hit")
	directionKey = memory.NewKey[string]("battleship.direction")
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
		remember(b, lastHitKey, shot)
		return bt.Running // keep going this way
	case AnswerMiss:
		forget(b, directionKey)
		return bt.Failure // try the next direction
	}
	forget(b, directionKey)
	return bt.Success // sunk: back to guessing
}

// startNarrowing makes p, a hit, the anchor to narrow down around, with no
// direction walked from it yet.
func (b *Bot) startNarrowing(p Point) {
	remember(b, anchorKey, p)
	remember(b, lastHitKey, p)
	forget(b, directionKey)
}

// narrow carries out a direction intent: from the last hit in this direction
// (the anchor, when the direction changes), step over hits already made to
// the next cell; shoot it if it is unplayed, and otherwise fail the intent,
// so that the tree tries the next direction.
func (b *Bot) narrow(v *View, dir Intent) move {
	mem := b.tree.Memory()
	cur, _ := lastHitKey.Get(mem)
	if d, _ := directionKey.Get(mem); d != string(dir) {
		cur, _ = anchorKey.Get(mem)
		remember(b, directionKey, string(dir))
		remember(b, lastHitKey, cur)
	}
	d := direction(dir)
	p := cur.add(d)
	for v.In(p) && v.At(p) == Hit {
		p = p.add(d)
	}
	if !v.playable(p) {
		forget(b, directionKey)
		return failIntent()
	}
	return shootAt(p)
}

// direction is the move of a direction intent.
func direction(in Intent) Point {
	switch in {
	case goRight:
		return Point{1, 0}
	case goLeft:
		return Point{-1, 0}
	case goUp:
		return Point{0, -1}
	case goDown:
		return Point{0, 1}
	}
	panic("battleship: unreachable: not a direction: " + string(in))
}
