package battleship

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// TestTreesAreTheSeeds compares each bot's tree with the seed
// documentation's, written out as JSON.
func TestTreesAreTheSeeds(t *testing.T) {
	h := `{"type":"random","children":[{"type":"select","children":["go_right","go_left"]},{"type":"select","children":["go_left","go_right"]}]}`
	v := `{"type":"random","children":[{"type":"select","children":["go_up","go_down"]},{"type":"select","children":["go_down","go_up"]}]}`
	adj := `{"type":"random","children":[{"type":"select","children":[` + h + `,` + v + `]},{"type":"select","children":[` + v + `,` + h + `]}]}`
	tests := []struct {
		name string
		tree bt.Node[Intent]
		want string
	}{
		{"A", TreeA, `{"type":"sequence","children":["random_guess"]}`},
		{"B", TreeB, `{"type":"sequence","children":["top_left",{"type":"repeat_until_fail","children":[{"type":"select","children":["go_right","beginning_of_next_row"]}]}]}`},
		{"C", TreeC, `{"type":"sequence","children":["random_guess",{"type":"select","children":[{"type":"select","children":["go_right","go_left"]},{"type":"select","children":["go_up","go_down"]}]}]}`},
		{"D", TreeD, `{"type":"sequence","children":["random_guess",` + adj +
			`,{"type":"repeat_until_fail","children":[{"type":"sequence","children":["check_for_collateral_damage",{"type":"always_succeed","children":[` + adj + `]}]}]}]}`},
	}
	for _, tc := range tests {
		got, err := json.Marshal(tc.tree)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != tc.want {
			t.Errorf("tree %s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
}

// view builds a View from rows of ".oX#" characters.
func view(rows ...string) *View {
	v := new(View)
	v.reset(len(rows[0]), len(rows), []int{2})
	for y, r := range rows {
		for x, c := range r {
			if c != '.' {
				v.set(y*v.Cols+x, map[rune]Cell{'o': Miss, 'X': Hit, '#': Sunk}[c])
			}
		}
	}
	return v
}

// bot returns a new bot of the given name, seeded with seed.
func bot(name string, seed uint64) Bot {
	b, err := NewBot(name, seed)
	if err != nil {
		panic(err)
	}
	return b
}

// at advances a tree until its value is intent, by failing, or panics.
func at(t bt.Tree[Intent], intent Intent, signals ...bt.Status) bt.Tree[Intent] {
	for _, s := range signals {
		t = t.Signal(s)
	}
	if t.Value() != intent {
		panic(fmt.Sprintf("tree at %s, want %s", t.Value(), intent))
	}
	return t
}

// TestHandlerRules is a table of situations and the signal each must give.
func TestHandlerRules(t *testing.T) {
	hit, miss, sunk := Answer{Kind: AnswerHit, Ship: 0}, Answer{Kind: AnswerMiss, Ship: -1}, Answer{Kind: AnswerSunk, Ship: 0}
	c := bot("C", 1)
	narrowing := c
	narrowing.tree = at(c.tree, goRight, bt.Success)
	narrowing.startNarrowing(Point{1, 1})
	tests := []struct {
		name   string
		bot    Bot
		answer Answer
		want   bt.Status
	}{
		{"A: a miss fails", bot("A", 1), miss, bt.Failure},
		{"A: a hit succeeds", bot("A", 1), hit, bt.Success},
		{"B: every shot succeeds", bot("B", 1), miss, bt.Success},
		{"C guessing: a miss fails", c, miss, bt.Failure},
		{"C guessing: a hit succeeds", c, hit, bt.Success},
		{"C guessing: a sunk ship leaves the tree", c, sunk, bt.Running},
		{"C narrowing: a hit leaves the tree", narrowing, hit, bt.Running},
		{"C narrowing: a miss fails", narrowing, miss, bt.Failure},
		{"C narrowing: a sunk ship succeeds", narrowing, sunk, bt.Success},
		{"D guessing: a sunk ship leaves the tree", bot("D", 1), sunk, bt.Running},
	}
	for _, tc := range tests {
		before := tc.bot.Tree()
		after := tc.bot
		got := after.hear(Point{1, 1}, tc.answer)
		if got != tc.want {
			t.Errorf("%s: signal %v, want %v", tc.name, got, tc.want)
		}
		// Running leaves the tree where it is; the memory may change (a
		// hit narrowing down is remembered as the last hit).
		if tc.want == bt.Running && after.Tree().WithMemory(before.Memory()) != before {
			t.Errorf("%s: the tree changed", tc.name)
		}
		if tc.bot.Tree() != before {
			t.Errorf("%s: hearing changed the original's tree", tc.name)
		}
	}
}

// TestDecideRules checks what bots do with intents they cannot carry out.
func TestDecideRules(t *testing.T) {
	// B at the end of a row: go_right is off the board, so it fails and
	// beginning_of_next_row shoots the next row's first cell.
	b := bot("B", 1)
	b.tree = at(b.tree, goRight, bt.Success)
	remember(&b, lastShotKey, Point{2, 0})
	var ticks []Tick
	shot, err := b.decide(view("ooo", "...", "..."), &ticks)
	if err != nil {
		t.Fatal(err)
	}
	if shot != (Point{0, 1}) || len(ticks) != 2 || ticks[0] != (Tick{goRight, bt.Failure}) {
		t.Errorf("B: shot %v after %v, want A2 after failing go_right", shot, ticks)
	}

	// C narrowing at the right edge: go_right fails, go_left starts again
	// from the first hit, stepping over hits already made.
	c := bot("C", 1)
	c.tree = at(c.tree, goRight, bt.Success)
	c.startNarrowing(Point{2, 1})
	ticks = nil
	shot, err = c.decide(view("...", ".XX", "..."), &ticks)
	if err != nil {
		t.Fatal(err)
	}
	if shot != (Point{0, 1}) || ticks[0] != (Tick{goRight, bt.Failure}) || ticks[1].Intent != goLeft {
		t.Errorf("C: shot %v after %v, want A2 going left", shot, ticks)
	}
}

// TestCollateralDamage plays D into a sink with a stray hit beside it.
func TestCollateralDamage(t *testing.T) {
	d := bot("D", 3)
	// Walk the tree to check_for_collateral_damage: a random hit, then a
	// sunk ship from check_adjacent.
	d.tree = d.tree.Succeed() // random_guess hit
	d.tree = d.tree.Succeed() // check_adjacent: sunk
	if d.tree.Value() != checkForCollateralDamage {
		t.Fatalf("tree at %s", d.tree.Value())
	}
	again := d
	var ticks []Tick
	shot, err := d.decide(view("##.", "..X", "..."), &ticks)
	if err != nil {
		t.Fatal(err)
	}
	if ticks[0] != (Tick{checkForCollateralDamage, bt.Success}) {
		t.Fatalf("ticks %v", ticks)
	}
	if abs(shot.X-2)+abs(shot.Y-1) != 1 {
		t.Errorf("shot %v is not next to the collateral hit C2", shot)
	}
	// No collateral damage: the check fails and random guessing resumes.
	ticks = nil
	if _, err = again.decide(view("##.", "...", "..."), &ticks); err != nil {
		t.Fatal(err)
	}
	if ticks[0] != (Tick{checkForCollateralDamage, bt.Failure}) || ticks[1].Intent != randomGuess {
		t.Errorf("ticks %v, want a failed check then a random guess", ticks)
	}
}

func abs(x int) int { return max(x, -x) }

// TestFireRules checks the game's answers and refusals.
func TestFireRules(t *testing.T) {
	b, err := NewBoard(Config{Cols: 4, Rows: 1, Fleet: []int{2}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var s sea
	s.reset(b)
	if _, err := s.fire(Point{4, 0}); !errors.Is(err, errShot) {
		t.Errorf("off board: %v", err)
	}
	cells := b.Ships[0].Cells
	if a, _ := s.fire(cells[0]); a.Kind != AnswerHit {
		t.Errorf("first cell: %v", a)
	}
	if _, err := s.fire(cells[0]); !errors.Is(err, errShot) {
		t.Errorf("played: %v", err)
	}
	if s.shots != 1 {
		t.Errorf("refused shots counted: %d", s.shots)
	}
	if a, _ := s.fire(cells[1]); a.Kind != AnswerSunk || s.sunk != 1 {
		t.Errorf("second cell: %v, sunk %d", a, s.sunk)
	}
}

// TestConfigErrors checks setups that cannot work.
func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		c    Config
		want string
	}{
		{"too long", Config{5, 5, []int{6}}, "battleship: ship 1 of length 6 does not fit a 5x5 board"},
		{"too many", Config{3, 3, []int{3, 3, 3, 1}}, "battleship: the fleet has 10 cells, more than the 9 of a 3x3 board"},
		{"empty", Config{3, 3, nil}, "battleship: the fleet is empty"},
		{"zero ship", Config{3, 3, []int{0}}, "battleship: ship 1 has length 0; lengths must be at least 1"},
		{"no board", Config{0, 3, []int{1}}, "battleship: board 0x3: each side must be 1 to 100"},
	}
	for _, tc := range tests {
		if _, err := NewBoard(tc.c, 1); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	// A fleet that fills the board exactly is placed, by backtracking.
	for seed := uint64(0); seed < 20; seed++ {
		b, err := NewBoard(Config{3, 3, []int{3, 2, 2, 2}}, seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for y := 0; y < 3; y++ {
			for x := 0; x < 3; x++ {
				if b.ShipAt(Point{x, y}) < 0 {
					t.Fatalf("seed %d: (%d,%d) is water on a full board", seed, x, y)
				}
			}
		}
	}
}

// TestTurnErrors checks that a stuck bot, or one that fires a shot the game
// refuses, is an error that leaves the game unchanged.
func TestTurnErrors(t *testing.T) {
	board, err := NewBoard(Config{Cols: 3, Rows: 3, Fleet: []int{2}}, 1)
	if err != nil {
		t.Fatal(err)
	}
	stuck := strategy{name: "S", tree: TreeA,
		act:  func(*Bot, *View) move { return failIntent() },
		hear: func(*Bot, Point, Answer) bt.Status { return bt.Success }}
	wild := strategy{name: "W", tree: TreeA,
		act:  func(*Bot, *View) move { return shootAt(Point{3, 0}) },
		hear: func(*Bot, Point, Answer) bt.Status { return bt.Success }}
	for _, tc := range []struct {
		s    *strategy
		want string
	}{
		{&stuck, "battleship: bot S at turn 1: no shot named in 64 ticks (the tree is at random_guess)"},
		{&wild, "battleship: bot W at turn 1: shot refused: D1 is off the 3x3 board"},
	} {
		g := NewGame(board, tc.s.start(1))
		start := g.Bot()
		if _, err := g.PlayTurn(); err == nil || err.Error() != tc.want {
			t.Errorf("got %v, want %q", err, tc.want)
		}
		if len(g.Turns()) != 0 || g.Shots() != 0 || g.Bot() != start || len(g.ticks) != 0 {
			t.Errorf("bot %s: the failed turn changed the game", tc.s.name)
		}
	}
}
