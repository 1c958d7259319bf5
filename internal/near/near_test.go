package near

import (
	"slices"
	"testing"
)

// TestNearest checks suggestions, ties and words too far to suggest.
func TestNearest(t *testing.T) {
	names := []string{"Attack", "Walk", "Wait", "Retreat", "IsEnemyNear"}
	for w, want := range map[string]string{
		"Atack":       "Attack",
		"Attakc":      "Attack", // two edits for a word of six
		"Wlk":         "Walk",
		"Wa":          "",     // two edits for a word of two: too far
		"Waik":        "Walk", // Walk and Wait are both one edit away: the first wins
		"IsEnemyNaer": "IsEnemyNear",
		"Fly":         "",
		"Attack":      "Attack", // itself, at distance 0
	} {
		if got := Nearest(w, slices.Values(names)); got != want {
			t.Errorf("Nearest(%q) = %q, want %q", w, got, want)
		}
	}
	if got := Nearest("abcdefghijklmnopqrstuvwxyz", slices.Values([]string{"abcdefghijklmnopqrstuvwxyy"})); got != "" {
		t.Errorf("a word over 24 bytes got %q", got)
	}
}

// TestDistance checks the edit distance on known pairs and its symmetry.
func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"flaw", "lawn", 2}, {"same", "same", 0}} {
		if got := Distance(c.a, c.b); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
		if got := Distance(c.b, c.a); got != c.d {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.b, c.a, got, c.d)
		}
	}
}
