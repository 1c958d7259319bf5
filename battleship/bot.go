package battleship

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	bt "github.com/zipbt/behaviortree"
)

// Intent is a leaf of a bot's tree: something the bot wants to do next.
type Intent string

// The intents of the seed documentation's bots.
const (
	RandomGuess              Intent = "random_guess"
	TopLeft                  Intent = "top_left"
	GoRight                  Intent = "go_right"
	GoLeft                   Intent = "go_left"
	GoUp                     Intent = "go_up"
	GoDown                   Intent = "go_down"
	BeginningOfNextRow       Intent = "beginning_of_next_row"
	CheckForCollateralDamage Intent = "check_for_collateral_damage"
)

// MaxTicks bounds the intents a bot may go through to produce one shot. Each
// intent it cannot carry out (a move off the board) is failed, which costs a
// tick; a bot that has not named a shot after MaxTicks ticks is stuck, and
// Decide returns an error.
const MaxTicks = 64

// Bot is a player whose strategy is a behavior tree. Bots are values: their
// methods return a new bot and leave the receiver as it was.
type Bot interface {
	// Name is the bot's letter: "A", "B", "C" or "D".
	Name() string
	// Tree returns the bot's current tree version.
	Tree() bt.Tree[Intent]
	// Decide resolves the bot's intents into its next shot. Intents that
	// cannot be carried out are failed, and intents that fire no shot (such
	// as checking for collateral damage) are answered, until an intent names
	// a shot. The Decision holds the shot and the bot after deciding.
	Decide(v *View) (Decision, error)
	// Observe returns the bot after the answer a to its shot, and the signal
	// it gave its tree (Running when the answer leaves the tree as it is).
	Observe(v *View, shot Point, a Answer) (Bot, bt.Status)
	// Doing says in words what the bot is doing, for display.
	Doing() string
}

// Step is an intent a bot went through while deciding, and the signal it
// gave that intent: Success or Failure, or Running for the intent that
// named the shot (its signal comes with the answer).
type Step struct {
	Intent Intent
	Signal bt.Status
}

// Decision is a bot's next shot.
type Decision struct {
	Shot  Point
	Bot   Bot    // the bot after deciding, its tree at the shot's intent
	Steps []Step // the intents tried, the shot's last
}

// New returns the bot with the given letter ("a" to "d", either case),
// seeded with seed.
func New(name string, seed uint64) (Bot, error) {
	switch name {
	case "a", "A":
		return NewA(seed), nil
	case "b", "B":
		return NewB(seed), nil
	case "c", "C":
		return NewC(seed), nil
	case "d", "D":
		return NewD(seed), nil
	}
	return nil, fmt.Errorf("battleship: no bot %q (want a, b, c or d)", name)
}

// Names lists the bots.
var Names = []string{"A", "B", "C", "D"}

// action is what a handler does with the current intent: fire a shot, or
// signal the intent without one.
type action struct {
	shoot  bool
	at     Point
	signal bt.Status
}

func shootAt(p Point) action           { return action{shoot: true, at: p} }
func answer(s bt.Status) action        { return action{signal: s} }
func failIntent() action               { return answer(bt.Failure) }
func deriveSeed(seed, k uint64) uint64 { return splitmix(seed ^ splitmix(k+0x632be59bd9b4e019)) }

// splitmix is SplitMix64's finalizer, to derive independent seeds.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// handler is what each bot's own code provides to the shared tick loop.
type handler[B any] interface {
	Bot
	act(v *View) (B, action)
	withTree(t bt.Tree[Intent]) B
}

// decide is the tick loop every bot shares: ask the handler what to do with
// the current intent, and signal the tree until the handler names a shot.
func decide[B handler[B]](b B, v *View) (Decision, error) {
	var steps []Step
	for tick := 0; tick < MaxTicks; tick++ {
		intent := b.Tree().Value()
		next, a := b.act(v)
		if a.shoot {
			steps = append(steps, Step{Intent: intent, Signal: bt.Running})
			return Decision{Shot: a.at, Bot: next, Steps: steps}, nil
		}
		steps = append(steps, Step{Intent: intent, Signal: a.signal})
		b = next.withTree(next.Tree().Signal(a.signal))
	}
	return Decision{}, fmt.Errorf("battleship: bot %s named no shot in %d ticks (its tree is at %s)", b.Name(), MaxTicks, b.Tree().Value())
}

// core is the handler state the bots share: the tree, the random state of
// random guesses, and the bookkeeping of narrowing down around a hit.
type core struct {
	tree   bt.Tree[Intent]
	rng    rand.PCG // for random guesses, stored by value
	anchor Point    // the hit being narrowed down around
	cur    Point    // the last hit in the current direction
	dir    Intent   // the direction being walked, "" to start afresh from anchor
}

func newCore(def bt.Node[Intent], seed uint64) core {
	return core{
		tree: bt.Start(def, bt.WithSeed(deriveSeed(seed, 1))),
		rng:  *rand.NewPCG(deriveSeed(seed, 2), deriveSeed(seed, 3)),
	}
}

// randomCell returns a uniformly random unplayed cell, and the advanced
// random state. ok is false when every cell is played.
func (c core) randomCell(v *View) (core, Point, bool) {
	n := v.Unplayed()
	if n == 0 {
		return c, Point{}, false
	}
	hi, _ := bits.Mul64(c.rng.Uint64(), uint64(n)) // c is a copy: the receiver's rng is untouched
	k := int(hi)
	for y := 0; y < v.Rows; y++ {
		for x := 0; x < v.Cols; x++ {
			if v.At(Point{x, y}) == Unknown {
				if k == 0 {
					return c, Point{x, y}, true
				}
				k--
			}
		}
	}
	panic("battleship: unreachable: fewer unplayed cells than counted")
}

// guess carries out random_guess: shoot a random unplayed cell, or fail
// the intent when none is left.
func (c core) guess(v *View) (core, action) {
	next, p, ok := c.randomCell(v)
	if !ok {
		return c, failIntent()
	}
	return next, shootAt(p)
}

// directions maps the four direction intents to their moves.
var directions = map[Intent]Point{GoRight: {1, 0}, GoLeft: {-1, 0}, GoUp: {0, -1}, GoDown: {0, 1}}

// narrow carries out a direction intent: from the last hit in this direction
// (the anchor, when the direction changes), step over hits already made to
// the next cell; shoot it if it is unplayed, and otherwise fail the intent,
// so that the tree tries the next direction.
func (c core) narrow(v *View, dir Intent) (core, action) {
	if dir != c.dir {
		c.cur, c.dir = c.anchor, dir
	}
	d := directions[dir]
	p := c.cur.Add(d)
	for v.In(p) && v.At(p) == Hit {
		p = p.Add(d)
	}
	if !v.Playable(p) {
		c.dir = ""
		return c, failIntent()
	}
	return c, shootAt(p)
}

// observeNarrow is the seed's rule for answers while narrowing down: a hit
// leaves the tree as it is (keep going this way), a miss fails the
// direction, and a sunk ship succeeds.
func (c core) observeNarrow(shot Point, a Answer) (core, bt.Status) {
	switch a.Kind {
	case AnswerHit:
		c.cur = shot
		return c, bt.Running
	case AnswerMiss:
		c.dir = ""
		return c, bt.Failure
	}
	c.dir = ""
	return c, bt.Success
}

// observeGuess is the seed's rule for answers to random guesses: a miss
// fails, a hit succeeds (and becomes the anchor), and a sunk ship leaves
// the tree as it is, so that it goes on guessing.
func (c core) observeGuess(shot Point, a Answer) (core, bt.Status) {
	switch a.Kind {
	case AnswerMiss:
		return c, bt.Failure
	case AnswerHit:
		c.anchor, c.cur, c.dir = shot, shot, ""
		return c, bt.Success
	}
	return c, bt.Running
}

// observe applies observeGuess or observeNarrow, as the current intent
// asks, and signals the tree.
func (c core) observe(shot Point, a Answer) (core, bt.Status) {
	var s bt.Status
	if c.tree.Value() == RandomGuess {
		c, s = c.observeGuess(shot, a)
	} else {
		c, s = c.observeNarrow(shot, a)
	}
	c.tree = c.tree.Signal(s)
	return c, s
}

// Tree returns the bot's current tree version.
func (c core) Tree() bt.Tree[Intent] { return c.tree }

// Doing describes the bot's current intent in words. B, which sweeps, says
// more.
func (c core) Doing() string {
	switch in := c.tree.Value(); in {
	case RandomGuess:
		return "random guessing"
	case CheckForCollateralDamage:
		return "checking for collateral damage"
	case GoRight, GoLeft, GoUp, GoDown:
		return fmt.Sprintf("narrowing down around %v: %s", c.anchor, in)
	default:
		return string(in)
	}
}
