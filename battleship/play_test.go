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
// produces a guess within MaxTicks.
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
	for _, name := range Names {
		props.Property("bot "+name+" finishes every game", prop.ForAll(func(s setup) string {
			board, err := NewBoard(s.Config, s.BoardSeed)
			if err != nil {
				return "setup: " + err.Error()
			}
			bot, _ := New(name, s.BotSeed)
			g := NewGame(board, bot)
			if err := g.Play(); err != nil {
				return err.Error()
			}
			if !g.Over() || g.Sea().Shots() > s.Cells() {
				return fmt.Sprintf("over %v after %d shots on %d cells", g.Over(), g.Sea().Shots(), s.Cells())
			}
			for i, turn := range g.Turns() {
				if len(turn.Steps) > MaxTicks {
					return fmt.Sprintf("turn %d took %d ticks", i, len(turn.Steps))
				}
			}
			return ""
		}, genSetup))
	}
	props.TestingRun(t)
}

// TestSameSeedSameGame checks that seeds fix a game.
func TestSameSeedSameGame(t *testing.T) {
	for _, name := range Names {
		a, err := PlayGame(DefaultConfig(), name, 5, 3)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := PlayGame(DefaultConfig(), name, 5, 3)
		c, _ := PlayGame(DefaultConfig(), name, 6, 3)
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

// TestHistoryAndUndo checks that the retained bot versions replay exactly:
// stepping back and playing on repeats the same turns, and kept versions
// are unchanged by later play.
func TestHistoryAndUndo(t *testing.T) {
	for _, name := range Names {
		g, err := PlayGame(DefaultConfig(), name, 9, 0)
		if err != nil {
			t.Fatal(err)
		}
		full := shots(g)
		turns := append([]Turn(nil), g.Turns()...)
		values := make([]Intent, len(turns))
		for i, tr := range turns {
			values[i] = tr.Before.Tree().Value()
		}
		back := len(turns) / 2
		if err := g.Undo(back); err != nil {
			t.Fatal(err)
		}
		if len(g.Turns()) != len(turns)-back || g.Sea().Shots() != len(turns)-back {
			t.Fatalf("bot %s: after Undo(%d): %d turns, %d shots", name, back, len(g.Turns()), g.Sea().Shots())
		}
		if err := g.Play(); err != nil {
			t.Fatal(err)
		}
		if shots(g) != full {
			t.Errorf("bot %s: the game replayed differently after Undo", name)
		}
		for i, tr := range turns {
			if tr.Before.Tree().Value() != values[i] {
				t.Fatalf("bot %s: turn %d's kept version changed", name, i)
			}
		}
		// Each turn's tree is the previous turn's, advanced: the history
		// links up.
		for i := 1; i < len(turns); i++ {
			if turns[i].Before.Tree() != turns[i-1].After.Tree() {
				t.Fatalf("bot %s: turn %d does not start where turn %d ended", name, i, i-1)
			}
		}
		if err := g.Undo(len(g.Turns()) + 1); err == nil {
			t.Error("Undo past the start did not fail")
		}
	}
}

// TestStatistics plays 2,000 games per bot on 10x10 with the standard fleet
// and a fixed seed, logs the figures, and checks them for sense: C and D
// far better than A and B, and A near random fire's median of about 97.
func TestStatistics(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 8,000 games")
	}
	means := map[string]float64{}
	for _, name := range Names {
		s, err := PlayMany(DefaultConfig(), name, 1, 2000, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		sum := Summarize(s)
		means[name] = sum.Mean
		t.Logf("bot %s: mean %.2f median %d p90 %d max %d", name, sum.Mean, sum.Median, sum.P90, sum.Max)
		if name == "A" && (sum.Median < 94 || sum.Median > 99) {
			t.Errorf("bot A median %d, want about 97", sum.Median)
		}
	}
	for _, smart := range []string{"C", "D"} {
		for _, dumb := range []string{"A", "B"} {
			if means[smart] > means[dumb]-15 {
				t.Errorf("bot %s (mean %.1f) is not far better than %s (%.1f)", smart, means[smart], dumb, means[dumb])
			}
		}
	}
}
