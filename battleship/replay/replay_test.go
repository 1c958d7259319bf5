package replay_test

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/battleship"
	"github.com/zipbt/behaviortree/battleship/replay"
	"github.com/zipbt/behaviortree/internal/viewertest"
)

type failWriter struct{}

var errFull = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errFull }

func readRecord(t *testing.T) []replay.Game {
	t.Helper()
	f, err := os.Open("testdata/game.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := replay.Read(f)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

func TestWriteBattleship(t *testing.T) {
	games := readRecord(t)
	if len(games) != 4 {
		t.Fatalf("%d games in the record, want 4", len(games))
	}
	var b bytes.Buffer
	if err := replay.Write(&b, games); err != nil {
		t.Fatal(err)
	}
	p := viewertest.ReadPage(t, b.String())
	if len(p.Replays) != 4 {
		t.Fatalf("%d replays", len(p.Replays))
	}
	for i, r := range p.Replays {
		g := games[i]
		if len(r.Steps) != len(g.Turns)+1 || r.Board == nil || r.Board.Cols != g.Cols || len(r.Board.Ships) != len(g.Fleet) {
			t.Fatalf("game %d: %d steps for %d turns, board %+v", i, len(r.Steps), len(g.Turns), r.Board)
		}
		for k, turn := range g.Turns {
			s := r.Shots[k+1]
			if s == nil || s[0] != float64(turn.Shot[0]) || s[1] != float64(turn.Shot[1]) || s[2] != turn.Answer[:1] {
				t.Fatalf("game %d turn %d: shot %v, want %v %s", i, k+1, s, turn.Shot, turn.Answer)
			}
		}
		if r.Shots[0] != nil {
			t.Errorf("game %d: a shot at the start", i)
		}
		// At each turn the focus is the leaf whose intent fired.
		_, focus := viewertest.Decode(t, len(r.Nodes), r.Steps)
		for k, turn := range g.Turns {
			f, _ := strconv.Atoi(focus[k+1])
			if got, want := r.Nodes[f][3], turn.Ticks[len(turn.Ticks)-1].Intent; got != want {
				t.Fatalf("game %d turn %d: focus on %v, want %s", i, k+1, got, want)
			}
		}
	}
}

func TestBattleshipRecordMismatch(t *testing.T) {
	for name, spoil := range map[string]func(g *replay.Game){
		"intent": func(g *replay.Game) { g.Turns[3].Ticks[0].Intent = "go_left" },
		"state": func(g *replay.Game) {
			for _, o := range g.Turns {
				if o.State != g.Turns[5].State {
					g.Turns[5].State = o.State
					return
				}
			}
		},
		"saved":   func(g *replay.Game) { g.Turns[5].State = "AAAA" },
		"answer":  func(g *replay.Game) { g.Turns[0].Answer, g.Turns[0].Ship = "hit", 0 },
		"signal":  func(g *replay.Game) { g.Turns[1].Signal = "maybe" },
		"number":  func(g *replay.Game) { g.Turns[2].Turn = 9 },
		"shot":    func(g *replay.Game) { g.Turns[2].Shot = [2]int{10, 0} },
		"bot":     func(g *replay.Game) { g.Bot = "Z" },
		"fleet":   func(g *replay.Game) { g.Fleet = []int{50} },
		"nothing": func(g *replay.Game) { g.Turns[4].Ticks = nil },
	} {
		games := readRecord(t)
		g := games[3]
		spoil(&g)
		if _, err := replay.NewReplay(g); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestReadBattleshipErrors(t *testing.T) {
	raw, err := os.ReadFile("testdata/game.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	for name, rec := range map[string]string{
		"empty":        "",
		"no header":    lines[1],
		"cut":          strings.Join(lines[:10], ""),
		"damaged":      lines[0] + "{nope\n",
		"unknown":      lines[0] + `{"turn":1,"extra":2}` + "\n",
		"header twice": lines[0] + lines[0],
		"not ours":     strings.Replace(lines[0], `"battleship"`, `"chess"`, 1),
	} {
		if _, err := replay.Read(strings.NewReader(rec)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestWriteShotHistogram(t *testing.T) {
	series := []replay.Series{
		{Name: "bot A <random>", Shots: []int{95, 97, 99, 98, 96, 97}},
		{Name: "bot D", Shots: []int{40, 42, 55, 61, 42}},
	}
	var b bytes.Buffer
	if err := replay.WriteShotHistogram(&b, "shots & bots", series); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName xml.Name
		Groups  []struct {
			Name  string `xml:"data-name,attr"`
			Rects []struct {
				Height float64 `xml:"height,attr"`
				Title  string  `xml:"title"`
			} `xml:"rect"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not well-formed XML: %v\n%s", err, b.String())
	}
	if doc.XMLName.Local != "svg" || len(doc.Groups) != 2 || doc.Groups[0].Name != "bot A <random>" {
		t.Fatalf("svg %+v", doc)
	}
	// Bins of one shot (99-40+1 <= 60): A has 5 distinct counts, D 4.
	if len(doc.Groups[0].Rects) != 5 || len(doc.Groups[1].Rects) != 4 {
		t.Errorf("%d and %d bars, want 5 and 4", len(doc.Groups[0].Rects), len(doc.Groups[1].Rects))
	}
	// The tallest bar is D's 42 (2 games of 5, the largest share).
	tallest := ""
	h := 0.0
	for _, g := range doc.Groups {
		for _, r := range g.Rects {
			if r.Height > h {
				h, tallest = r.Height, r.Title
			}
		}
	}
	if tallest != "bot D: 2 games took 42 shots" {
		t.Errorf("tallest bar %q", tallest)
	}
	if !strings.Contains(b.String(), "mean 97.0, median 97") {
		t.Error("no statistics for A")
	}
	wide := []replay.Series{{Name: "w", Shots: []int{0, 1000}}}
	b.Reset()
	if err := replay.WriteShotHistogram(&b, "wide", wide); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `class="bar"`); n != 2 || !strings.Contains(b.String(), "1 game took 986 to 1002 shots") {
		t.Errorf("%d bars for a wide range:\n%s", n, b.String())
	}
	for name, s := range map[string][]replay.Series{
		"none":     nil,
		"no games": {{Name: "x"}},
		"negative": {{Name: "x", Shots: []int{-1}}},
	} {
		if err := replay.WriteShotHistogram(&bytes.Buffer{}, "x", s); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := replay.WriteShotHistogram(failWriter{}, "x", series); !errors.Is(err, errFull) {
		t.Errorf("error %v does not wrap the writer's", err)
	}
}

// TestBattleshipMemory checks that every step of each bot's game lists the
// bot's memory after the turn, the keys and values its versions hold.
func TestBattleshipMemory(t *testing.T) {
	games := append(readRecord(t), readSteppedRecord(t))
	var b bytes.Buffer
	if err := replay.Write(&b, games); err != nil {
		t.Fatal(err)
	}
	p := viewertest.ReadPage(t, b.String())
	for gi, g := range games {
		mem := p.Replays[gi].Mem
		if len(mem) == 0 {
			t.Fatalf("bot %s: no memory in the page", g.Bot)
		}
		board, err := battleship.NewBoard(battleship.Config{Cols: g.Cols, Rows: g.Rows, Fleet: g.Fleet}, g.BoardSeed)
		if err != nil {
			t.Fatal(err)
		}
		bot, err := battleship.NewBot(g.Bot, g.BotSeed)
		if err != nil {
			t.Fatal(err)
		}
		game := battleship.NewGame(board, bot)
		if err := game.Play(); err != nil {
			t.Fatal(err)
		}
		changes := 0
		for k := 0; k <= len(g.Turns); k++ {
			m := bot.Memory()
			if k > 0 {
				m = game.Turns()[k-1].Bot.Memory()
			}
			var want [][2]string
			for key, v := range m.All() {
				text := fmt.Sprint(v)
				if s, ok := v.(string); ok {
					text = strconv.Quote(s)
				}
				want = append(want, [2]string{key, text})
			}
			got, _ := viewertest.MemoryAt(mem, k)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("bot %s step %d: memory %v, want %v", g.Bot, k, got, want)
			}
			if _, ok := mem[k]; ok {
				changes++
			}
		}
		if changes < 2 {
			t.Errorf("bot %s: the memory changed at %d steps", g.Bot, changes)
		}
	}
}
