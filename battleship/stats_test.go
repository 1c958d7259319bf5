package battleship

import (
	"fmt"
	"slices"
	"testing"
)

// stats are the figures of a run of games: mean, nearest-rank median and
// 90th percentile, and maximum shots.
type stats struct {
	mean             float64
	median, p90, max int
}

func (s stats) String() string {
	return fmt.Sprintf("mean %.2f median %d p90 %d max %d", s.mean, s.median, s.p90, s.max)
}

// statsOf plays n games of a run seeded with seed for bot name on c.
func statsOf(t *testing.T, c Config, name string, seed uint64, n int) stats {
	t.Helper()
	shots, err := PlayMany(c, name, seed, n, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(shots)
	total := 0
	for _, v := range shots {
		total += v
	}
	rank := func(p float64) int { return shots[int(p*float64(n)+0.999999)-1] }
	return stats{float64(total) / float64(n), rank(0.5), rank(0.9), shots[n-1]}
}

// TestStatisticsE plays 5,000 games of E and of D on 10x10 with the
// standard fleet and seed 1, logs the table, and checks E's figures
// exactly (they fix its behaviour), and that E is never worse than D on
// any percentile. The strength targets of issue 14 (mean and median at
// most 42, p90 at most 55, max at most 70) are logged beside the figures,
// with the reference figures of simple probability density, which are not
// ours.
//
// Without -short, and without the race detector (under which its 15,000
// more games take minutes; CI's plain go test ./... plays them), it also
// plays three other seeds, whose means must stay within one shot of seed
// 1's: E is not tuned to a seed.
func TestStatisticsE(t *testing.T) {
	const games = 5000
	c := DefaultConfig()
	e, d := statsOf(t, c, "E", 1, games), statsOf(t, c, "D", 1, games)
	t.Logf("%d games on 10x10, fleet %v, seed 1", games, c.Fleet)
	t.Logf("  bot D:  %v", d)
	t.Logf("  bot E:  %v", e)
	t.Logf("  reference, simple probability density (not ours): mean 44.40 median 43 p90 58 max 70")
	t.Logf("  issue 14's targets: mean <= 42, median <= 42, p90 <= 55, max <= 70: mean %v, median %v, p90 %v, max %v",
		e.mean <= 42, e.median <= 42, e.p90 <= 55, e.max <= 70)
	if want := "mean 44.11 median 44 p90 56 max 64"; e.String() != want {
		t.Errorf("bot E: %v, want %s", e, want)
	}
	if e.mean > d.mean || e.median > d.median || e.p90 > d.p90 || e.max > d.max {
		t.Errorf("bot E (%v) is worse than D (%v) on some figure", e, d)
	}
	if testing.Short() || raceOn {
		t.Log("other seeds skipped (-short or -race)")
		return
	}
	for _, seed := range []uint64{2, 3, 4} {
		s := statsOf(t, c, "E", seed, games)
		t.Logf("  bot E, seed %d: %v", seed, s)
		if s.mean < e.mean-1 || s.mean > e.mean+1 {
			t.Errorf("seed %d: mean %.2f is more than one shot from seed 1's %.2f", seed, s.mean, e.mean)
		}
	}
}
