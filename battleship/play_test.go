package battleship

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// setup is a generated game setup.
type setup struct {
	Config
	BoardSeed, BotSeed uint64
}

func (s setup) String() string {
	return fmt.Sprintf("%dx%d fleet %v board seed %d bot seed %d", s.Cols, s.Rows, s.Fleet, s.BoardSeed, s.BotSeed)
}

// genSetup draws boards from 5x5 to 15x15 with fleets of 1 to 6 ships of
// lengths 1 to 5, using at most half the board.
var genSetup = gopter.CombineGens(
	gen.IntRange(5, 15), gen.IntRange(5, 15),
	gen.SliceOfN(6, gen.IntRange(1, 5)), gen.IntRange(1, 6),
	gen.UInt64(), gen.UInt64(),
).Map(func(v []interface{}) setup {
	c := Config{Cols: v[0].(int), Rows: v[1].(int)}
	total := 0
	for _, l := range v[2].([]int)[:v[3].(int)] {
		if total+l <= c.Cells()/2 {
			c.Fleet = append(c.Fleet, l)
			total += l
		}
	}
	return setup{Config: c, BoardSeed: v[4].(uint64), BotSeed: v[5].(uint64)}
})

// TestEveryBotFinishesEveryGame: over random boards and fleets, every bot
// sinks the fleet within cols × rows shots, never guesses off the board or
// at a played cell (the game would refuse it, failing Play), and always
// produces a guess within maxTicks.
//
// To reproduce a failure, set PROPTEST_SEED to the seed it printed, which is
// gopter.DefaultTestParametersWithSeed(seed).
func TestEveryBotFinishesEveryGame(t *testing.T) {
	seed := int64(20261201)
	if s := os.Getenv("PROPTEST_SEED"); s != "" {
		seed, _ = strconv.ParseInt(s, 10, 64)
	}
	params := gopter.DefaultTestParametersWithSeed(seed)
	params.MinSuccessfulTests = 150
	t.Logf("gopter seed %d", seed)
	props := gopter.NewProperties(params)
	for _, name := range Names() {
		props.Property("bot "+name+" finishes every game", prop.ForAll(func(s setup) string {
			board, err := NewBoard(s.Config, s.BoardSeed)
			if err != nil {
				return "setup: " + err.Error()
			}
			g := NewGame(board, bot(name, s.BotSeed))
			if err := g.Play(); err != nil {
				return err.Error()
			}
			if !g.Over() || g.Shots() > s.Cells() {
				return fmt.Sprintf("over %v after %d shots on %d cells", g.Over(), g.Shots(), s.Cells())
			}
			for i, turn := range g.Turns() {
				if len(turn.Ticks) > maxTicks {
					return fmt.Sprintf("turn %d took %d ticks", i+1, len(turn.Ticks))
				}
			}
			return ""
		}, genSetup))
	}
	props.TestingRun(t)
}

// playGame plays game i of a run seeded with seed for bot name on c, on a
// board and in a game of its own.
func playGame(t testing.TB, c Config, name string, seed uint64, i int) *Game {
	t.Helper()
	bs, ps := GameSeeds(seed, i)
	board, err := NewBoard(c, bs)
	if err != nil {
		t.Fatal(err)
	}
	g := NewGame(board, bot(name, ps))
	if err := g.Play(); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestSameSeedSameGame checks that seeds fix a game.
func TestSameSeedSameGame(t *testing.T) {
	for _, name := range Names() {
		a := playGame(t, DefaultConfig(), name, 5, 3)
		b := playGame(t, DefaultConfig(), name, 5, 3)
		c := playGame(t, DefaultConfig(), name, 6, 3)
		if shots(a) != shots(b) {
			t.Errorf("bot %s: one seed, two games", name)
		}
		if name != "B" && shots(a) == shots(c) {
			t.Errorf("bot %s: two seeds, one game", name)
		}
	}
}

func shots(g *Game) string {
	s := ""
	for _, t := range g.Turns() {
		s += t.Shot.String()
	}
	return s
}

// TestPlayManyIsPlayGame checks that the engine's reused buffers play the
// same games as fresh boards and games, on one worker and on several.
func TestPlayManyIsPlayGame(t *testing.T) {
	c := Config{Cols: 9, Rows: 7, Fleet: []int{4, 3, 2, 1}}
	for _, name := range Names() {
		for _, workers := range []int{1, 3} {
			got, err := PlayMany(c, name, 11, 700, workers, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range []int{0, 1, 255, 256, 699} {
				if want := playGame(t, c, name, 11, i).Shots(); got[i] != want {
					t.Errorf("bot %s, %d workers, game %d: %d shots, want %d", name, workers, i, got[i], want)
				}
			}
		}
	}
}

// TestHistoryAndUndo checks that the retained bot versions replay exactly:
// stepping back and playing on repeats the same turns, and kept versions
// are unchanged by later play.
func TestHistoryAndUndo(t *testing.T) {
	for _, name := range Names() {
		g := playGame(t, DefaultConfig(), name, 9, 0)
		full := shots(g)
		turns := g.Turns()
		values := make([]Intent, len(turns))
		ticks := make([]string, len(turns))
		for i, tr := range turns {
			values[i] = tr.Bot.Intent()
			ticks[i] = fmt.Sprint(tr.Ticks)
		}
		back := len(turns) / 2
		if err := g.Undo(back); err != nil {
			t.Fatal(err)
		}
		if len(g.Turns()) != len(turns)-back || g.Shots() != len(turns)-back {
			t.Fatalf("bot %s: after Undo(%d): %d turns, %d shots", name, back, len(g.Turns()), g.Shots())
		}
		if want := turns[len(turns)-back-1].Bot; g.Bot() != want {
			t.Errorf("bot %s: after Undo the bot is not the version kept with turn %d", name, len(turns)-back)
		}
		if err := g.Play(); err != nil {
			t.Fatal(err)
		}
		if shots(g) != full {
			t.Errorf("bot %s: the game replayed differently after Undo", name)
		}
		for i, tr := range turns {
			if tr.Bot.Intent() != values[i] || fmt.Sprint(tr.Ticks) != ticks[i] {
				t.Fatalf("bot %s: turn %d's kept version changed", name, i+1)
			}
		}
		if err := g.Undo(len(g.Turns()) + 1); err == nil {
			t.Error("Undo past the start did not fail")
		}
	}
}
