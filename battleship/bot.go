package battleship

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"strings"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
)

// Intent is a leaf of a bot's tree: something the bot wants to do next.
type Intent string

// The intents of the seed documentation's bots.
const (
	randomGuess              Intent = "random_guess"
	topLeft                  Intent = "top_left"
	goRight                  Intent = "go_right"
	goLeft                   Intent = "go_left"
	goUp                     Intent = "go_up"
	goDown                   Intent = "go_down"
	beginningOfNextRow       Intent = "beginning_of_next_row"
	checkForCollateralDamage Intent = "check_for_collateral_damage"
)

// maxTicks bounds the intents a bot may go through to name one shot. Each
// intent it cannot carry out (a move off the board) is failed, which costs a
// tick; a bot that has named no shot after maxTicks ticks is stuck, and the
// turn is an error.
const maxTicks = 64

// Bot is a player whose strategy is a behavior tree: the tree version it
// is at, with the agent's memory that the version carries, and its
// strategy (the tree's definition and the handler code that carries out
// its intents, one per bot_*.go file). Bots are values: a game keeps one
// per turn, and each stays as it was. The zero Bot is not usable; use
// NewBot.
//
// A strategy runs its tree on one of the library's two engines, and the
// Bot holds that engine's version: A to D are Elixir-style trees
// (bt.Tree, driven by Value and signals), E is a stepped tree (bt.Stepped,
// stepped once per tick, whose actions and guards call the handler). Both
// kinds of version are values that stay valid, so every kept Bot does.
//
// Everything a bot remembers from one turn to the next (the state of its
// random generator, the hit it narrows down around, the direction it
// walks) is in its version's memory ([bt.Tree.Memory], [bt.Stepped.Memory]),
// under the keys its bot_*.go file declares: a version, or its saved state
// ([Bot.State], [RestoreBot]), is all a bot needs to play on as it would
// have.
type Bot struct {
	tree     bt.Tree[Intent]    // A–D: the Elixir-style tree's version
	steps    bt.Stepped[Intent] // E: the stepped tree's version
	strategy *strategy
	// ctx is what E's agent reads the game through: working buffers,
	// shared by every version of one bot, and no memory of its own.
	ctx *stepContext
}

// rngKey is the memory of every bot's random generator, which random
// guesses (and E's draws among equal cells) draw from.
var rngKey = memory.NewKey[botRNG]("battleship.rng")

// botRNG is a bot's random generator as its memory holds it: a
// rand.PCG, saved by the PCG's own MarshalBinary. Memory holds values, so
// a draw takes the generator out, draws, and puts the advanced copy back.
type botRNG struct{ pcg rand.PCG }

// newRNG returns the generator of a bot seeded with seed.
func newRNG(seed uint64) botRNG {
	var r botRNG
	r.pcg.Seed(deriveSeed(seed, 2), deriveSeed(seed, 3))
	return r
}

// MarshalBinary returns the generator's state, as rand.PCG saves it.
func (r botRNG) MarshalBinary() ([]byte, error) { return r.pcg.MarshalBinary() }

// UnmarshalBinary restores a state saved by MarshalBinary.
func (r *botRNG) UnmarshalBinary(data []byte) error { return r.pcg.UnmarshalBinary(data) }

// String says what the generator is, for the memory's listings (the
// viewer's memory panel): its saved state in hex.
func (r botRNG) String() string {
	b, _ := r.pcg.MarshalBinary()
	return fmt.Sprintf("pcg %x", b[4:])
}

// remember sets key k of the memory of b's Elixir-style tree to v: the
// version b is at changes to one with the new memory, and the same focus.
// A key that already has the value is left as it is (a write costs a few
// allocations).
func remember[T comparable](b *Bot, k memory.Key[T], v T) {
	mem := b.tree.Memory()
	if old, ok := k.Get(mem); ok && old == v {
		return
	}
	b.tree = b.tree.WithMemory(k.Set(mem, v))
}

// forget deletes key k of the memory of b's Elixir-style tree.
func forget[T any](b *Bot, k memory.Key[T]) {
	b.tree = b.tree.WithMemory(b.tree.Memory().Delete(k.Name()))
}

// strategy is what each bot_*.go file defines: the tree and its handler.
// A strategy with a stepped plan runs on the stepped engine, and its act
// and hear are not used.
type strategy struct {
	name string
	tree bt.Node[Intent]
	// act carries out the tree's current intent: it names a shot, or
	// signals the intent without firing.
	act func(b *Bot, v *View) move
	// hear returns the signal the answer to the shot gives the tree's
	// current intent, Running to leave the tree as it is.
	hear func(b *Bot, shot Point, a Answer) bt.Status
	// doing, if not nil, says what the bot is doing, for display.
	doing func(b *Bot) string
	// stepped, if not nil, is the strategy's stepped tree and handler.
	stepped *steppedPlan
}

// move is what a handler does with the current intent: fire a shot, or
// signal the intent without one.
type move struct {
	fire   bool
	at     Point
	signal bt.Status
}

// The moves, the bots in play order, and seeds derived from a seed.
func shootAt(p Point) move             { return move{fire: true, at: p} }
func signalOnly(s bt.Status) move      { return move{signal: s} }
func failIntent() move                 { return signalOnly(bt.Failure) }
func succeedIntent() move              { return signalOnly(bt.Success) }
func strategies() []*strategy          { return []*strategy{&botA, &botB, &botC, &botD, &botE} }
func deriveSeed(seed, k uint64) uint64 { return splitmix(seed ^ splitmix(k+0x632be59bd9b4e019)) }

// splitmix is SplitMix64's finalizer, to derive independent seeds.
func splitmix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Names returns the bots' names, for NewBot: "A", "B", "C", "D" and "E".
func Names() []string { return []string{"A", "B", "C", "D", "E"} }

// NewBot returns the bot with the given letter ("a" to "e", either case),
// seeded with seed: its tree's Random nodes and its random guesses draw
// from it.
func NewBot(name string, seed uint64) (Bot, error) {
	for _, s := range strategies() {
		if strings.EqualFold(name, s.name) {
			return s.start(seed), nil
		}
	}
	return Bot{}, fmt.Errorf("battleship: no bot %s (want a, b, c, d or e)", quote(name))
}

// start returns a new bot of strategy s: its memory holds the random
// generator seeded from seed, and nothing else.
func (s *strategy) start(seed uint64) Bot {
	b := Bot{strategy: s}
	mem := rngKey.Set(memory.Map{}, newRNG(seed))
	if s.stepped != nil {
		b.steps, b.ctx = s.stepped.start()
		b.steps = b.steps.WithMemory(mem)
	} else {
		b.tree = bt.Start(s.tree, bt.WithSeed(deriveSeed(seed, 1))).WithMemory(mem)
	}
	return b
}

// RestoreBot returns the bot named name ("a" to "e", either case) at the
// version saved in state by [Bot.State], with its memory: it plays on as
// the bot that was saved would have. It returns an error for an unknown
// bot and for a state that is damaged or was saved from another bot's
// tree.
func RestoreBot(name string, state []byte) (Bot, error) {
	b, err := NewBot(name, 0)
	if err != nil {
		return Bot{}, err
	}
	if b.strategy.stepped != nil {
		agent, c := b.strategy.stepped.agent()
		b.steps, err = bt.RestoreStepped(b.strategy.stepped.def, agent, state)
		b.ctx = c
	} else {
		b.tree, err = bt.Restore(b.strategy.tree, state)
	}
	if err != nil {
		return Bot{}, fmt.Errorf("battleship: bot %s: %w", b.Name(), err)
	}
	return b, nil
}

// Memory returns what the bot remembers: the memory of the version it is
// at, keys such as "battleship.rng" and "battleship.anchor".
func (b Bot) Memory() memory.Map {
	if b.strategy.stepped != nil {
		return b.steps.Memory()
	}
	return b.tree.Memory()
}

// Name returns the bot's letter: "A" to "E".
func (b Bot) Name() string { return b.strategy.name }

// Tree returns the bot's current version of an Elixir-style tree (bots A
// to D); for a bot on the stepped engine (E), the zero Tree, which is not
// usable.
func (b Bot) Tree() bt.Tree[Intent] { return b.tree }

// Stepped returns the bot's current version of a stepped tree (bot E), and
// true; for a bot on the Elixir-style engine (A to D), false.
func (b Bot) Stepped() (bt.Stepped[Intent], bool) { return b.steps, b.strategy.stepped != nil }

// Intent returns what the bot's tree is at: for an Elixir-style tree, its
// current leaf (Tree().Value()); for a stepped tree, the action that is
// running, or "" when the tree has completed and starts over at its next
// step.
func (b Bot) Intent() Intent {
	if b.strategy.stepped != nil {
		return runningAction(b.steps, b.strategy.stepped.actions)
	}
	return b.tree.Value()
}

// State returns the bot's tree state in binary form: the MarshalBinary of
// its Elixir-style Tree or of its Stepped version (node states, counts,
// the random state, and the memory), from which [RestoreBot] restores the
// bot. Two bots at the same state of the same strategy play on alike.
func (b Bot) State() ([]byte, error) {
	if b.strategy.stepped == nil {
		return b.tree.MarshalBinary()
	}
	return b.steps.MarshalBinary()
}

// decide is the tick loop every bot shares: the handler carries out the
// current intent, and the tree is signalled, until an intent names a shot.
// It appends each tick to ticks. The tree is left at the shot's intent,
// whose signal comes with the answer.
func (b *Bot) decide(v *View, ticks *[]Tick) (Point, error) {
	if b.strategy.stepped != nil {
		return b.strategy.stepped.decide(b, v, ticks)
	}
	for tick := 0; tick < maxTicks; tick++ {
		intent := b.tree.Value()
		m := b.strategy.act(b, v)
		if m.fire {
			*ticks = append(*ticks, Tick{Intent: intent, Signal: bt.Running})
			return m.at, nil
		}
		*ticks = append(*ticks, Tick{Intent: intent, Signal: m.signal})
		b.tree = b.tree.Signal(m.signal)
	}
	return Point{}, fmt.Errorf("no shot named in %d ticks (the tree is at %s)", maxTicks, b.tree.Value())
}

// hear gives the tree the signal the answer to the shot calls for, and
// returns it (Running: the tree is left as it is).
func (b *Bot) hear(shot Point, a Answer) bt.Status {
	if b.strategy.stepped != nil {
		return bt.Running // the next step's guards and conditions read the board
	}
	s := b.strategy.hear(b, shot, a)
	if s != bt.Running {
		b.tree = b.tree.Signal(s)
	}
	return s
}

// Doing says in words what the bot is doing, for display.
func (b Bot) Doing() string {
	if b.strategy.doing != nil {
		return b.strategy.doing(&b)
	}
	if b.strategy.stepped != nil {
		return b.strategy.stepped.doing(&b)
	}
	switch in := b.tree.Value(); in {
	case randomGuess:
		return "random guessing"
	case checkForCollateralDamage:
		return "checking for collateral damage"
	case goRight, goLeft, goUp, goDown:
		anchor, _ := anchorKey.Get(b.tree.Memory())
		return fmt.Sprintf("narrowing down around %v: %s", anchor, in)
	default:
		return string(in)
	}
}

// The handler code the bots share.

// guess carries out random_guess: shoot a uniformly random unplayed cell,
// drawn from the generator in memory, or fail the intent when none is
// left.
func (b *Bot) guess(v *View) move {
	if v.unplayed == 0 {
		return failIntent()
	}
	r, _ := rngKey.Get(b.tree.Memory())
	k, _ := bits.Mul64(r.pcg.Uint64(), uint64(v.unplayed))
	remember(b, rngKey, r)
	return shootAt(v.nthUnknown(int(k)))
}

// quote returns s quoted, cut to about 100 bytes, for error messages that
// repeat what they were given.
func quote(s string) string {
	const limit = 100
	if len(s) <= limit {
		return fmt.Sprintf("%q", s)
	}
	cut := limit
	for cut > 0 && s[cut]&0xc0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return fmt.Sprintf("%q... (%d bytes)", s[:cut], len(s))
}
