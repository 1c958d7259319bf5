package main

import (
	"fmt"
	"testing"

	"github.com/zipbt/behaviortree/battleship"
)

// TestStatistics plays 2,000 games per bot on 10x10 with the standard fleet
// and seed 1, and checks the figures exactly: they fix the bots' behaviour,
// board placement and the trees' random draws, so that a change to any of
// them shows here. It also checks them for sense: C and D far better than
// A and B, and A near random fire's median of about 97.
func TestStatistics(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 10,000 games")
	}
	want := map[string]string{
		"A": "mean 95.41 median 97 p90 100 max 100",
		"B": "mean 88.41 median 91 p90 99 max 100",
		"C": "mean 63.25 median 63 p90 83 max 100",
		"D": "mean 60.07 median 59 p90 81 max 100",
		"E": "mean 44.13 median 44 p90 56 max 64",
	}
	means := map[string]float64{}
	for _, name := range battleship.Names() {
		s, err := battleship.PlayMany(battleship.DefaultConfig(), name, 1, 2000, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		sum := summarize(s)
		means[name] = sum.mean
		got := fmt.Sprintf("mean %.2f median %d p90 %d max %d", sum.mean, sum.median, sum.p90, sum.max)
		t.Logf("bot %s: %s", name, got)
		if got != want[name] {
			t.Errorf("bot %s: %s, want %s", name, got, want[name])
		}
	}
	if means["E"] > means["D"]-10 {
		t.Errorf("bot E (mean %.1f) is not far better than D (%.1f)", means["E"], means["D"])
	}
	for _, smart := range []string{"C", "D"} {
		for _, dumb := range []string{"A", "B"} {
			if means[smart] > means[dumb]-15 {
				t.Errorf("bot %s (mean %.1f) is not far better than %s (%.1f)", smart, means[smart], dumb, means[dumb])
			}
		}
	}
}

// TestSummarize checks the nearest-rank percentiles on a small sample.
func TestSummarize(t *testing.T) {
	got := summarize([]int{5, 1, 4, 2, 3, 10, 9, 8, 7, 6})
	want := summary{games: 10, mean: 5.5, median: 5, p90: 9, min: 1, max: 10}
	if got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
	if (summarize(nil) != summary{}) {
		t.Error("an empty sample has figures")
	}
}
