package battleship

import (
	"math"
	"slices"
	"testing"
)

// TestPlayRange checks that stretches of a run played by PlayRange have
// the shot counts of the same games played by PlayMany, and that a range
// past MaxInt is an error.
func TestPlayRange(t *testing.T) {
	c := Config{Cols: 6, Rows: 6, Fleet: []int{3, 2}}
	for _, name := range Names() {
		all, err := PlayMany(c, name, 7, 700, 2, nil)
		if err != nil {
			t.Fatal(err)
		}
		var joined []int
		for _, span := range [][2]int{{0, 1}, {1, 299}, {300, 0}, {300, 400}} {
			got, err := PlayRange(c, name, 7, span[0], span[1], 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != span[1] {
				t.Fatalf("bot %s: %d shot counts for %d games", name, len(got), span[1])
			}
			joined = append(joined, got...)
		}
		if !slices.Equal(joined, all) {
			t.Errorf("bot %s: the stretches differ from the run", name)
		}
	}
	for _, span := range [][2]int{{-1, 5}, {0, -1}, {math.MaxInt - 3, 5}} {
		if _, err := PlayRange(c, "a", 7, span[0], span[1], 1, nil); err == nil {
			t.Errorf("PlayRange from %d, %d games: no error", span[0], span[1])
		}
	}
}
