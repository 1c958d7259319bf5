package battleship

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// memorySeeds are the runs whose first games the memory tests play.
var memorySeeds = []uint64{1, 5, 9}

// undoPoints are the turns at which the memory tests step a game back 10
// turns, and the turns they step back.
var undoPoints, undoBack = []int{15, 30, 45}, 10

// turnText is everything a turn did: its intents and their signals, the
// shot, the answer, the signal the answer gave, and the bot's saved state
// after it (its tree and memory).
func turnText(t *testing.T, tr Turn) string {
	t.Helper()
	state, err := tr.Bot.State()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%v %v %v %v %x", tr.Ticks, tr.Shot, tr.Answer, tr.Signal, state)
}

// newMemoryGame returns game 0 of run seed for bot name, with no shot
// fired.
func newMemoryGame(t *testing.T, name string, seed uint64) *Game {
	t.Helper()
	bs, ps := GameSeeds(seed, 0)
	board, err := NewBoard(DefaultConfig(), bs)
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewBot(name, ps)
	if err != nil {
		t.Fatal(err)
	}
	return NewGame(board, b)
}

// playTurns plays n turns of g.
func playTurns(t *testing.T, g *Game, n int) {
	t.Helper()
	for range n {
		if _, err := g.PlayTurn(); err != nil {
			t.Fatal(err)
		}
	}
}

// sameGameOn plays games got and want on to their ends, and checks that
// got's turns from turn `from` (from 0) on are exactly want's.
func sameGameOn(t *testing.T, what string, got, want *Game, from int) {
	t.Helper()
	if err := got.Play(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := want.Play(); err != nil {
		t.Fatalf("%s: the game to compare with: %v", what, err)
	}
	g, w := got.Turns(), want.Turns()
	for i := from; i < max(len(g), len(w)); i++ {
		if i >= len(g) || i >= len(w) {
			t.Fatalf("%s: %d turns, want %d", what, len(g), len(w))
		}
		if a, b := turnText(t, g[i]), turnText(t, w[i]); a != b {
			t.Fatalf("%s: turn %d is\n  %s\nwant\n  %s", what, i+1, a, b)
		}
	}
}

// fromVersion returns a bot that has nothing of b but its tree version: a
// new bot of b's strategy, started from another seed, given b's version.
// Whatever b kept outside its version is lost.
func fromVersion(b Bot) Bot {
	fresh := b.strategy.start(0x5eed)
	if b.strategy.stepped != nil {
		// A stepped version steps on its own machine, whose agent reads
		// the game through b's context (buffers, no memory of its own).
		fresh.steps, fresh.ctx = b.steps, b.ctx
	} else {
		fresh.tree = b.tree
	}
	return fresh
}

// TestMemoryUndoPlaysOn plays each bot's game, and at turns 15, 30 and 45
// steps it back 10 turns to the kept version (and the board as it was),
// keeping nothing of the bot but that version, and plays on: every turn
// to the end must be the one that an untouched copy of the game, played
// on from the same turn, makes.
func TestMemoryUndoPlaysOn(t *testing.T) {
	for _, name := range Names() {
		for _, seed := range memorySeeds {
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				full := newMemoryGame(t, name, seed)
				if err := full.Play(); err != nil {
					t.Fatal(err)
				}
				tried := 0
				for _, at := range undoPoints {
					if at > len(full.Turns()) {
						continue
					}
					tried++
					back := at - undoBack
					untouched := newMemoryGame(t, name, seed)
					playTurns(t, untouched, back)

					g := newMemoryGame(t, name, seed)
					playTurns(t, g, at)
					if err := g.Undo(undoBack); err != nil {
						t.Fatal(err)
					}
					g.bot = fromVersion(g.bot)
					sameGameOn(t, fmt.Sprintf("undone at turn %d to turn %d", at, back), g, untouched, back)
				}
				if tried == 0 {
					t.Fatalf("the game has %d turns, fewer than %d", len(full.Turns()), undoPoints[0])
				}
			})
		}
	}
}

// TestMemorySaveRestore saves each bot's version mid-game (Bot.State),
// restores it into a new bot (RestoreBot), and plays on from the same
// board: every turn to the end must be the one the game played on makes.
func TestMemorySaveRestore(t *testing.T) {
	for _, name := range Names() {
		for _, seed := range memorySeeds {
			t.Run(fmt.Sprintf("%s/seed%d", name, seed), func(t *testing.T) {
				for _, at := range undoPoints {
					want := newMemoryGame(t, name, seed)
					if err := want.Play(); err != nil {
						t.Fatal(err)
					}
					if at > len(want.Turns()) {
						continue
					}
					g := newMemoryGame(t, name, seed)
					playTurns(t, g, at)
					state, err := g.Bot().State()
					if err != nil {
						t.Fatal(err)
					}
					restored, err := RestoreBot(name, state)
					if err != nil {
						t.Fatal(err)
					}
					if again, err := restored.State(); err != nil || !bytes.Equal(again, state) {
						t.Fatalf("turn %d: the restored bot saves %x, %v; want %x", at, again, err, state)
					}
					g.bot = restored
					sameGameOn(t, fmt.Sprintf("restored at turn %d", at), g, want, at)
				}
			})
		}
	}
}

// TestMemoryKeys checks what each bot remembers in the course of a game,
// by key: the generator, and the hits and shots of its own handler.
func TestMemoryKeys(t *testing.T) {
	want := map[string][]string{
		"A": {"battleship.rng"},
		"B": {"battleship.last_shot", "battleship.rng"},
		"C": {"battleship.anchor", "battleship.last_hit", "battleship.rng"},
		"D": {"battleship.anchor", "battleship.last_hit", "battleship.rng"},
		"E": {"battleship.rng", "battleship.target"},
	}
	for _, name := range Names() {
		g := newMemoryGame(t, name, 1)
		if err := g.Play(); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, tr := range g.Turns() {
			for k := range tr.Bot.Memory().All() {
				seen[k] = true
			}
		}
		// The direction is forgotten at every miss: it may be gone by
		// the end, but it was there while narrowing down.
		if name == "C" || name == "D" {
			want[name] = append(want[name], "battleship.direction")
		}
		keys := slices.Sorted(maps.Keys(seen))
		slices.Sort(want[name])
		if !slices.Equal(keys, want[name]) {
			t.Errorf("bot %s remembers %v, want %v", name, keys, want[name])
		}
	}
}

// TestMemoryRestoreBotErrors checks RestoreBot's refusals.
func TestMemoryRestoreBotErrors(t *testing.T) {
	c, err := NewBot("C", 1)
	if err != nil {
		t.Fatal(err)
	}
	state, err := c.State()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RestoreBot("Z", state); err == nil || !strings.Contains(err.Error(), "no bot") {
		t.Errorf("bot Z: %v", err)
	}
	if _, err := RestoreBot("C", state[:len(state)-3]); err == nil || !strings.HasPrefix(err.Error(), "battleship: bot C: ") {
		t.Errorf("cut state: %v", err)
	}
	if _, err := RestoreBot("A", state); !errors.Is(err, bt.ErrWrongDefinition) {
		t.Errorf("C's state as A's: %v, want ErrWrongDefinition", err)
	}
	e, _ := NewBot("E", 1)
	es, err := e.State()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RestoreBot("E", es); err != nil {
		t.Errorf("E: %v", err)
	}
	if _, err := RestoreBot("E", state); !errors.Is(err, bt.ErrWrongDefinition) && (err == nil || !strings.Contains(err.Error(), "stepped")) {
		t.Errorf("C's state as E's: %v", err)
	}
}

// TestMemoryPointText checks the text form of points in memory.
func TestMemoryPointText(t *testing.T) {
	for _, p := range []Point{{0, 0}, {9, 9}, {25, 0}, {26, 99}, {99, 41}} {
		text, err := p.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var q Point
		if err := q.UnmarshalText(text); err != nil || q != p {
			t.Errorf("%v: %s reads back as %v, %v", p, text, q, err)
		}
	}
	if _, err := (Point{-1, 2}).MarshalText(); err == nil {
		t.Error("a point off the board saved")
	}
	for _, bad := range []string{"", "A", "1", "A0", "a1", "A1x", "A-1", "AAAAAAAA1", "A99999999999999999999"} {
		var q Point
		if err := q.UnmarshalText([]byte(bad)); err == nil || !strings.Contains(err.Error(), "want column letters") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
