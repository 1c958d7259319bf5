package battleship

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// fleetOf returns n ships of length l.
func fleetOf(n, l int) []int {
	f := make([]int, n)
	for i := range f {
		f[i] = l
	}
	return f
}

// TestConfigLimits checks the limits on boards and fleets (bug: 10,000
// ships on 100x100 took 33 s and 5.4 GB to place).
func TestConfigLimits(t *testing.T) {
	tests := []struct {
		name string
		c    Config
		want string
	}{
		{"10,000 ships", Config{100, 100, fleetOf(10000, 1)}, "battleship: the fleet has 10000 ships, more than the limit of 100"},
		{"101 ships", Config{100, 100, fleetOf(101, 1)}, "battleship: the fleet has 101 ships, more than the limit of 100"},
		{"101 columns", Config{101, 10, []int{1}}, "battleship: board 101x10: each side must be 1 to 100"},
		{"huge rows", Config{10, 1 << 30, []int{1}}, "battleship: board 10x1073741824: each side must be 1 to 100"},
	}
	for _, tc := range tests {
		if _, err := NewBoard(tc.c, 1); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	var b Board
	if work, err := b.reset(Config{100, 100, fleetOf(10000, 1)}, 1, placeBudget); err == nil || work != 0 {
		t.Errorf("over the limit: %d units of work (%v), want none", work, err)
	}
}

// TestPlacementWork places the largest legal setups and checks, by
// counting, that the work stays well inside the budget, and that the
// buffers stay proportional to the cells.
func TestPlacementWork(t *testing.T) {
	tests := []struct {
		name     string
		c        Config
		maxWork  int
		seedsFor int
	}{
		{"100 ships of 1", Config{100, 100, fleetOf(100, 1)}, 2_000_000, 3},
		{"100 ships of 100: a full board", Config{100, 100, fleetOf(100, 100)}, 4_000_000, 3},
		{"100 ships of 50", Config{100, 100, fleetOf(100, 50)}, 4_000_000, 3},
		{"100 ships of 10 on 40x40", Config{40, 40, fleetOf(100, 10)}, 4_000_000, 3},
		{"the classic game", DefaultConfig(), 5_000, 20},
	}
	for _, tc := range tests {
		for seed := uint64(0); seed < uint64(tc.seedsFor); seed++ {
			var b Board
			work, err := b.reset(tc.c, seed, placeBudget)
			if err != nil {
				t.Fatalf("%s, seed %d: %v", tc.name, seed, err)
			}
			if seed == 0 {
				t.Logf("%s: %d units of work", tc.name, work)
			}
			if work > tc.maxWork {
				t.Errorf("%s, seed %d: %d units of work, want at most %d", tc.name, seed, work, tc.maxWork)
			}
			if cells := tc.c.Cells(); cap(b.spots) > 2*cells || cap(b.at) > cells || len(b.levels) != len(tc.c.Fleet) {
				t.Errorf("%s: buffers of %d spots and %d cells for %d cells", tc.name, cap(b.spots), cap(b.at), cells)
			}
			checkBoard(t, &b)
		}
	}
}

// checkBoard checks that every ship lies straight on the board, no two
// overlap, and ShipAt agrees.
func checkBoard(t *testing.T, b *Board) {
	t.Helper()
	seen := map[Point]int{}
	for i, s := range b.Ships {
		if len(s.Cells) != b.Fleet[i] {
			t.Fatalf("ship %d has %d cells, want %d", i+1, len(s.Cells), b.Fleet[i])
		}
		for k, p := range s.Cells {
			if p.X < 0 || p.Y < 0 || p.X >= b.Cols || p.Y >= b.Rows || b.ShipAt(p) != i {
				t.Fatalf("ship %d: cell %v is off the board or not its own", i+1, p)
			}
			if j, ok := seen[p]; ok {
				t.Fatalf("ships %d and %d overlap at %v", j+1, i+1, p)
			}
			seen[p] = i
			if d := p.X - s.Cells[0].X + p.Y - s.Cells[0].Y; k > 0 && (d != k || (p.X != s.Cells[0].X && p.Y != s.Cells[0].Y)) {
				t.Fatalf("ship %d is not straight: %v", i+1, s.Cells)
			}
		}
	}
}

// TestPlacementBudget checks that a fleet that cannot be placed, though
// its area fits, ends with an error when the budget runs out, having done
// no more than the budget's work (plus one shuffle), and that a board
// placed again in the same buffers is placed the same as a fresh one.
func TestPlacementBudget(t *testing.T) {
	// Fourteen ships of 7 on 10x10: each row and column holds at most one.
	c := Config{10, 10, fleetOf(14, 7)}
	var b Board
	const budget = 200_000
	work, err := b.reset(c, 1, budget)
	if err == nil || !strings.Contains(err.Error(), "within the search budget") {
		t.Fatalf("got %v, want the search budget's error", err)
	}
	if work > budget+2*c.Cells() {
		t.Errorf("%d units of work for a budget of %d", work, budget)
	}
	if strings.Contains(err.Error(), "7 7 7") {
		t.Errorf("the error echoes the fleet: %v", err)
	}
	for seed := uint64(0); seed < 50; seed++ {
		fresh, err := NewBoard(DefaultConfig(), seed)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.reset(DefaultConfig(), seed, placeBudget); err != nil {
			t.Fatal(err)
		}
		for i := range fresh.Ships {
			if fresh.Ships[i].Cells[0] != b.Ships[i].Cells[0] || fresh.Ships[i].Cells[1] != b.Ships[i].Cells[1] {
				t.Fatalf("seed %d: ship %d placed at %v in reused buffers, %v fresh", seed, i+1, b.Ships[i].Cells, fresh.Ships[i].Cells)
			}
		}
	}
}

// TestPointString checks board coordinates.
func TestPointString(t *testing.T) {
	for p, want := range map[Point]string{{0, 0}: "A1", {9, 9}: "J10", {25, 0}: "Z1", {26, 1}: "AA2", {99, 99}: "CV100", {-1, 0}: "(-1,0)"} {
		if got := p.String(); got != want {
			t.Errorf("%#v: %s, want %s", p, got, want)
		}
	}
}

// TestShuffleIsStdlib checks that shuffleSpots makes the order that
// rand.Rand.Shuffle makes from the same state, so that boards stay what
// they were.
func TestShuffleIsStdlib(t *testing.T) {
	for n := 0; n < 300; n += 7 {
		a, b := make([]int32, n), make([]int32, n)
		for i := range a {
			a[i], b[i] = int32(i), int32(i)
		}
		var p, q rand.PCG
		p.Seed(uint64(n), 3)
		q.Seed(uint64(n), 3)
		shuffleSpots(a, &p)
		rand.New(&q).Shuffle(n, func(i, j int) { b[i], b[j] = b[j], b[i] })
		if !slices.Equal(a, b) || p != q {
			t.Fatalf("n=%d: %v, want %v", n, a, b)
		}
	}
}
