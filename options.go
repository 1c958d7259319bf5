package behaviortree

import "time"

// Option configures a tree: [Start], [NewStepped] and fluent.New take
// them. [WithSeed] serves both styles; [WithRandom], [WithDeltaTime] and
// [WithTurnClock] are for stepped trees, and Start panics when given one.
type Option func(*config)

// config is what the options set.
type config struct {
	seed        uint64
	seeded      bool
	random      func() float64 // stepped: nil for the version's own generator
	delta       func() float64 // stepped: seconds per update; nil for the wall clock
	steppedOnly string         // the first stepped-only option given, for Start's panic
}

// setSteppedOnly records that a stepped-only option was given.
func (c *config) setSteppedOnly(name string) {
	if c.steppedOnly == "" {
		c.steppedOnly = name
	}
}

// WithSeed seeds the tree's random state, which is kept in every version,
// so that the same version given the same input draws the same. A
// Value/Succeed/Fail tree's Random and RandomWeighted nodes (and custom
// nodes, through their Context's Rand) draw from it; a stepped tree's lotto
// draws and ranged repeats, retries and waits do. Two trees started from
// the same definition with the same seed, and given the same signals or
// answers, go through the same versions. Without it (and, for a stepped
// tree, without [WithRandom]), Start and NewStepped draw a fresh seed.
func WithSeed(seed uint64) Option {
	return func(c *config) { c.seed, c.seeded = seed, true }
}

// WithRandom makes a stepped tree draw from random (which must return
// values in [0, 1): Mistreevous's random option) instead of its own
// generator: lotto draws, and the counts and durations of ranged repeats,
// retries and waits. The tree then no longer decides its draws by itself:
// stepping an old version again calls random again.
func WithRandom(random func() float64) Option {
	return func(c *config) { c.random = random; c.setSteppedOnly("WithRandom") }
}

// WithDeltaTime makes a stepped tree's waits advance by delta() at each
// update (Mistreevous's getDeltaTime) instead of reading the wall clock:
// a clock of the game's own, such as the time its frame took. Without it,
// or [WithTurnClock], a wait that [Stepped.Tick] starts counts the ticks'
// DeltaTime, and one that [Stepped.Step] starts reads the wall clock, as
// Mistreevous does without getDeltaTime. A delta is counted as Mistreevous counts
// getDeltaTime's seconds: its Seconds, times 1000, added as a float64.
func WithDeltaTime(delta func() time.Duration) Option {
	return func(c *config) {
		c.delta = func() float64 { return delta().Seconds() }
		c.setSteppedOnly("WithDeltaTime")
	}
}

// WithTurnClock makes a stepped tree's waits advance by turn at each
// update: a turn-based clock, under which a version stepped again behaves
// the same. A wait counts the update that starts it: with a turn of
// 100 ms, a wait of 300 ms succeeds in the third step that updates it (see
// ExampleWithTurnClock).
func WithTurnClock(turn time.Duration) Option {
	s := turn.Seconds()
	return func(c *config) {
		c.delta = func() float64 { return s }
		c.setSteppedOnly("WithTurnClock")
	}
}
