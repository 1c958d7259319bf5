package replay_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/battleship/replay"
	"github.com/zipbt/behaviortree/internal/viewertest"
)

// readSteppedRecord reads testdata/game_e.jsonl: a game of bot E, on the
// stepped engine, as the battleship command records it.
func readSteppedRecord(t *testing.T) replay.Game {
	t.Helper()
	f, err := os.Open("testdata/game_e.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := replay.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 1 || games[0].Bot != "E" {
		t.Fatalf("%d games in the record, want one of bot E", len(games))
	}
	return games[0]
}

// TestWriteBattleshipStepped draws a game of bot E, whose tree is stepped
// (bug: BattleshipReplay panicked on it, calling Tree().Root() on a bot
// with no Elixir-style tree). Each turn shows the stepped version with the
// focus on the action that fired, the shot, and the agent's calls.
func TestWriteBattleshipStepped(t *testing.T) {
	g := readSteppedRecord(t)
	var b bytes.Buffer
	if err := replay.Write(&b, []replay.Game{g}); err != nil {
		t.Fatal(err)
	}
	p := viewertest.ReadPage(t, b.String())
	if len(p.Replays) != 1 {
		t.Fatalf("%d replays", len(p.Replays))
	}
	r := p.Replays[0]
	if len(r.Nodes) != 11 || r.Nodes[0][1] != "root" || r.Nodes[2][3] != "target" || r.Nodes[2][4] != "while(target_afloat)" {
		t.Fatalf("the layout is not bot E's tree: %v", r.Nodes)
	}
	if len(r.Steps) != len(g.Turns)+1 || r.Board == nil || r.Board.Cols != g.Cols || len(r.Board.Ships) != len(g.Fleet) {
		t.Fatalf("%d steps for %d turns, board %+v", len(r.Steps), len(g.Turns), r.Board)
	}
	if !strings.HasPrefix(r.Labels[0], "start: bot E on a 10x10 board") {
		t.Errorf("start label %q", r.Labels[0])
	}
	states, focus := viewertest.Decode(t, len(r.Nodes), r.Steps)
	if states[0] != strings.Repeat("i", len(r.Nodes)) {
		t.Errorf("the start is %s, want every node ready", states[0])
	}
	targeted := false
	for k, turn := range g.Turns {
		s := r.Shots[k+1]
		if s == nil || s[0] != float64(turn.Shot[0]) || s[1] != float64(turn.Shot[1]) || s[2] != turn.Answer[:1] {
			t.Fatalf("turn %d: shot %v, want %v %s", k+1, s, turn.Shot, turn.Answer)
		}
		fired := turn.Ticks[len(turn.Ticks)-1].Intent
		f, err := strconv.Atoi(focus[k+1])
		if err != nil {
			t.Fatalf("turn %d: focus %q, want one node", k+1, focus[k+1])
		}
		if got := r.Nodes[f][3]; got != fired {
			t.Fatalf("turn %d: focus on %v, want %s", k+1, got, fired)
		}
		// The firing action is running (target) or has completed the tree.
		if st := states[k+1][f]; st == 'i' || (fired == "target") != (st == 'r') {
			t.Errorf("turn %d: the firing action %s is %c", k+1, fired, st)
		}
		targeted = targeted || fired == "target"
		ev := r.Events[k+1]
		if len(ev) < len(turn.Ticks) {
			t.Fatalf("turn %d: events %q for %d intents", k+1, ev, len(turn.Ticks))
		}
		for j, tick := range turn.Ticks[:len(turn.Ticks)-1] {
			if !strings.Contains(ev[j], " "+tick.Intent+": ") {
				t.Errorf("turn %d: event %d is %q, want intent %s", k+1, j+1, ev[j], tick.Intent)
			}
		}
		if want := "action " + fired + ": fire at "; !strings.HasPrefix(ev[len(turn.Ticks)-1], want) {
			t.Errorf("turn %d: event %q, want %q...", k+1, ev[len(turn.Ticks)-1], want)
		}
	}
	if !targeted {
		t.Error("no turn of the record targets a ship")
	}
	if !strings.Contains(strings.Join(r.Events[1], "\n"), "since the start: node 0 (root): READY -> SUCCEEDED") {
		t.Errorf("turn 1's events lack the root's change: %q", r.Events[1])
	}
}

// TestBattleshipSteppedMismatch checks that a record of bot E that does
// not match its replay is an error naming the turn, never a panic.
func TestBattleshipSteppedMismatch(t *testing.T) {
	for name, c := range map[string]struct {
		spoil func(g *replay.Game)
		want  string
	}{
		"intent":      {func(g *replay.Game) { g.Turns[3].Ticks[1].Intent = "parity_pays" }, "turn 4: the record's intent 2"},
		"tick signal": {func(g *replay.Game) { g.Turns[3].Ticks[0].Signal = "success" }, "turn 4: the record's intent 1"},
		"one intent more": {func(g *replay.Game) {
			g.Turns[2].Ticks = append(g.Turns[2].Ticks, g.Turns[2].Ticks[0])
		}, "turn 3: the record has 5 intents"},
		"state":   {func(g *replay.Game) { g.Turns[5].State = g.Turns[11].State }, "turn 6: the saved state is not"},
		"saved":   {func(g *replay.Game) { g.Turns[5].State = "!!" }, "turn 6: the saved state: "},
		"answer":  {func(g *replay.Game) { g.Turns[0].Answer, g.Turns[0].Ship = "hit", 0 }, "turn 1: the answer hit (ship 0)"},
		"signal":  {func(g *replay.Game) { g.Turns[1].Signal = "maybe" }, `turn 2: the record's signal is "maybe"`},
		"number":  {func(g *replay.Game) { g.Turns[2].Turn = 9 }, "turn 3: numbered 9"},
		"shot":    {func(g *replay.Game) { g.Turns[2].Shot = [2]int{10, 0} }, "turn 3: the record's shot is [10 0]"},
		"nothing": {func(g *replay.Game) { g.Turns[4].Ticks = nil }, "turn 5: no intents"},
		"turn after the end": {func(g *replay.Game) {
			g.Turns = append(g.Turns, g.Turns[len(g.Turns)-1])
			g.Turns[len(g.Turns)-1].Turn = len(g.Turns)
		}, "the game is over"},
		"board": {func(g *replay.Game) { g.Cols = 0 }, "replay.NewReplay: "},
	} {
		t.Run(name, func(t *testing.T) {
			g := readSteppedRecord(t)
			c.spoil(&g)
			_, err := replay.NewReplay(g)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one with %q", err, c.want)
			}
		})
	}
}

// TestBattleshipReplayNeverPanics replays records of an Elixir-style bot
// and of the stepped bot E with random fields spoilt: each replay is a
// Replay or an error naming a turn or the setup, never a panic.
func TestBattleshipReplayNeverPanics(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	bases := []replay.Game{readRecord(t)[3], readSteppedRecord(t)}
	intents := []string{"random_guess", "go_right", "target", "target_afloat", "open_hit", "hunt_parity", "", "nope"}
	signals := []string{"running", "success", "failure", "", "maybe"}
	answers := []string{"miss", "hit", "sunk", ""}
	for k := 0; k < 400; k++ {
		base := bases[k%2]
		g := base
		g.Turns = slices.Clone(base.Turns)
		for range 1 + rng.IntN(3) {
			i := rng.IntN(len(g.Turns))
			tr := g.Turns[i]
			tr.Ticks = slices.Clone(tr.Ticks)
			switch rng.IntN(8) {
			case 0:
				if len(tr.Ticks) > 0 {
					tr.Ticks[rng.IntN(len(tr.Ticks))].Intent = intents[rng.IntN(len(intents))]
				}
			case 1:
				if len(tr.Ticks) > 0 {
					tr.Ticks[rng.IntN(len(tr.Ticks))].Signal = signals[rng.IntN(len(signals))]
				}
			case 2:
				tr.Ticks = tr.Ticks[:rng.IntN(len(tr.Ticks)+1)]
			case 3:
				tr.Shot = [2]int{rng.IntN(14) - 2, rng.IntN(14) - 2}
			case 4:
				tr.Answer, tr.Ship = answers[rng.IntN(len(answers))], rng.IntN(8)-2
			case 5:
				tr.Signal = signals[rng.IntN(len(signals))]
			case 6:
				// Another turn's state, cut: states differ in length now
				// that they carry the bot's memory.
				other := g.Turns[rng.IntN(len(g.Turns))].State
				tr.State = other[:rng.IntN(len(other)+1)]
			case 7:
				g.Turns = g.Turns[:i+1]
				tr.Turn = rng.IntN(len(g.Turns) + 2)
			}
			g.Turns[i] = tr
		}
		r, err := replay.NewReplay(g)
		switch {
		case err == nil && r == nil:
			t.Fatalf("case %d: no replay and no error", k)
		case err != nil && !strings.HasPrefix(err.Error(), "replay.NewReplay: turn "):
			t.Fatalf("case %d: error %q names no turn", k, err)
		}
	}
	for _, g := range bases {
		if _, err := replay.NewReplay(g); err != nil {
			t.Errorf("bot %s: %v", g.Bot, err)
		}
	}
}
