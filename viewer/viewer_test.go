package viewer_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/battleship"
	"github.com/zipbt/behaviortree/memory"
	"github.com/zipbt/behaviortree/viewer"
)

// page is the data of a written page, as the JavaScript reads it.
type page struct {
	Title   string `json:"title"`
	Replays []struct {
		Title  string           `json:"title"`
		Nodes  [][5]any         `json:"nodes"`
		Steps  []string         `json:"steps"`
		Labels map[int]string   `json:"labels"`
		Events map[int][]string `json:"events"`
		Sig    string           `json:"sig"`
		Board  *struct {
			Cols, Rows int
			Ships      [][]int
		} `json:"board"`
		Shots []*[4]any           `json:"shots"`
		Mem   map[int][][2]string `json:"mem"`
	} `json:"replays"`
}

var dataRE = regexp.MustCompile(`(?s)<script type="application/json" id="bt-data">(.*?)</script>`)

func readPage(t *testing.T, html string) page {
	t.Helper()
	m := dataRE.FindStringSubmatch(html)
	if m == nil {
		t.Fatal("no data in the page")
	}
	var p page
	if err := json.Unmarshal([]byte(m[1]), &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// decode rebuilds each step's state letters and focus from the deltas,
// as viewer.js does.
func decode(t *testing.T, n int, steps []string) (states, focus []string) {
	t.Helper()
	st := bytes.Repeat([]byte{'i'}, n)
	for k, s := range steps {
		delta, f, _ := strings.Cut(s, "|")
		num := 0
		for i := 0; i < len(delta); i++ {
			c := delta[i]
			if c >= '0' && c <= '9' {
				num = num*10 + int(c-'0')
				continue
			}
			if num >= n || !strings.ContainsRune("irsf", rune(c)) {
				t.Fatalf("step %d: bad delta %q", k, s)
			}
			st[num], num = c, 0
		}
		states = append(states, string(st))
		focus = append(focus, f)
	}
	return states, focus
}

// letters returns the page's letters of states.
func letters(states []bt.State) string {
	b := make([]byte, len(states))
	for i, s := range states {
		b[i] = viewer.Letter(s)
	}
	return string(b)
}

// history is a History with an undo in it: 40 signals, 10 undone, 15
// others.
func history() bt.History[bt.Tree[string]] {
	def := bt.Sequence(bt.Leaf("top_left"), bt.RepeatUntilFail(bt.Select(bt.Leaf("go_right"), bt.Leaf("beginning_of_next_row"))))
	h := bt.NewHistory(bt.Start(def))
	for i := 0; i < 40; i++ {
		h = h.Push(h.Current().Signal([]bt.Status{bt.Success, bt.Success, bt.Failure}[i%3]))
	}
	for i := 0; i < 10; i++ {
		h = h.Undo()
	}
	for i := 0; i < 15; i++ {
		h = h.Push(h.Current().Signal([]bt.Status{bt.Failure, bt.Success}[i%2]))
	}
	return h
}

func TestWriteHistory(t *testing.T) {
	h := history()
	var b bytes.Buffer
	if err := viewer.WriteHistory(&b, "history <test> & \"more\"", h); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if !strings.Contains(html, "<title>history &lt;test&gt; &amp; &#34;more&#34;</title>") {
		t.Error("the title is not escaped")
	}
	p := readPage(t, html)
	if len(p.Replays) != 1 || len(p.Replays[0].Steps) != h.Len() {
		t.Fatalf("%d replays, %d steps; want 1 and %d", len(p.Replays), len(p.Replays[0].Steps), h.Len())
	}
	r := p.Replays[0]
	states, focus := decode(t, len(r.Nodes), r.Steps)
	k := 0
	for v := range h.All() {
		want, f := v.NodeStates(nil)
		if states[k] != letters(want) || focus[k] != strconv.Itoa(f) {
			t.Errorf("step %d: %s focus %s, want %s focus %d", k, states[k], focus[k], letters(want), f)
		}
		k++
	}
	if r.Nodes[4][1] != "action" || r.Nodes[4][3] != "go_right" || r.Nodes[3][0] != float64(2) {
		t.Errorf("nodes %v", r.Nodes)
	}
	k = 0
	for v := range h.All() {
		want := map[bt.Status]byte{bt.Running: '-', bt.Success: 's', bt.Failure: 'f'}[v.LastSignal()]
		if r.Sig[k] != want {
			t.Errorf("step %d: signal %c, want %c", k, r.Sig[k], want)
		}
		if ended := v.Status() != bt.Running; ended != (len(r.Events[k]) == 1) {
			t.Errorf("step %d: status %v, events %q", k, v.Status(), r.Events[k])
		}
		k++
	}
	if len(r.Labels) != 0 {
		t.Errorf("labels %v", r.Labels)
	}
}

func TestPageIsSelfContained(t *testing.T) {
	var b bytes.Buffer
	if err := viewer.WriteHistory(&b, "h", history()); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, bad := range []string{"<link", " src=", "@import", "url(", "fetch(", "XMLHttpRequest", "https://"} {
		if strings.Contains(html, bad) {
			t.Errorf("the page has %q", bad)
		}
	}
	if n := strings.Count(html, "http://"); n != strings.Count(html, "http://www.w3.org/2000/svg") {
		t.Error("the page names a URL other than the SVG namespace")
	}
	if !strings.Contains(html, "default-src 'none'") {
		t.Error("no Content-Security-Policy forbidding the network")
	}
	if len(html) > 60_000 {
		t.Errorf("a page of a 56-step history has %d bytes", len(html))
	}
}

func TestLabelsCannotEscapeTheScript(t *testing.T) {
	def := bt.Select(bt.Leaf("</script><script>alert(1)</script>"), bt.Leaf("{{JS}} {{DATA}}"))
	var b bytes.Buffer
	if err := viewer.WriteHistory(&b, "{{CSS}}", bt.NewHistory(bt.Start(def)).Push(bt.Start(def).Fail())); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if strings.Count(html, "<script") != 2 || strings.Count(html, "</script>") != 2 {
		t.Errorf("a label opened or closed a script element")
	}
	p := readPage(t, html)
	if p.Replays[0].Nodes[1][3] != "</script><script>alert(1)</script>" || p.Replays[0].Nodes[2][3] != "{{JS}} {{DATA}}" || p.Title != "{{CSS}}" {
		t.Errorf("labels did not survive: %v", p.Replays[0].Nodes)
	}
}

func TestSteppedReplay(t *testing.T) {
	def := bt.Sequence(bt.Leaf("a"), bt.Parallel(bt.Wait[string](30*time.Millisecond), bt.Leaf("b")))
	calls := 0
	agent := bt.Agent[string]{Action: func(v string) bt.Result {
		calls++
		if v == "b" && calls%3 != 0 {
			return bt.ResultRunning
		}
		return bt.ResultSuccess
	}}
	st, err := bt.NewStepped(def, agent, bt.WithTurnClock(10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	versions := []bt.Stepped[string]{st}
	events := [][]bt.Event[string]{nil}
	for i := 0; i < 12; i++ {
		var evs []bt.Event[string]
		st, err = st.StepWith(func(e bt.Event[string]) { evs = append(evs, e) })
		if err != nil {
			t.Fatal(err)
		}
		versions = append(versions, st)
		events = append(events, evs)
	}
	r, err := viewer.SteppedReplay("stepped", versions, events)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := viewer.Write(&b, "stepped", r); err != nil {
		t.Fatal(err)
	}
	p := readPage(t, b.String()).Replays[0]
	states, focus := decode(t, len(p.Nodes), p.Steps)
	for k, v := range versions {
		pic := v.Picture()
		want, wantFocus := "", []string{}
		for i, nd := range pic.Nodes {
			want += string(viewer.Letter(nd.State))
			if nd.Focus {
				wantFocus = append(wantFocus, strconv.Itoa(i))
			}
		}
		if states[k] != want || focus[k] != strings.Join(wantFocus, ",") {
			t.Errorf("step %d: %s|%s, want %s|%s", k, states[k], focus[k], want, strings.Join(wantFocus, ","))
		}
	}
	if p.Nodes[0][1] != "root" || !strings.Contains(strings.Join(p.Events[1], "\n"), "node 2 (action a): action a returned success") {
		t.Errorf("nodes %v, events %q", p.Nodes[:1], p.Events[1])
	}
}

func TestReplayErrors(t *testing.T) {
	def := bt.Select(bt.Leaf("a"), bt.Leaf("b"))
	r, err := viewer.NewReplay("x", def.Picture())
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]viewer.Step{
		"states":      {States: make([]bt.State, 2)},
		"bad state":   {States: []bt.State{0, 7, 0}},
		"focus":       {States: make([]bt.State, 3), Focus: []int{3}},
		"no board":    {States: make([]bt.State, 3), Shot: &viewer.Shot{Answer: "miss"}},
		"answer":      {States: make([]bt.State, 3), Shot: &viewer.Shot{Answer: "boom"}},
		"negative fo": {States: make([]bt.State, 3), Focus: []int{-1}},
	} {
		if err := r.Add(s); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := r.SetBoard(3, 3, [][][2]int{{{3, 0}}}); err == nil {
		t.Error("a ship off the board: no error")
	}
	if err := r.SetBoard(0, 3, nil); err == nil {
		t.Error("an empty board: no error")
	}
	if err := viewer.Write(&bytes.Buffer{}, "x", r); err == nil {
		t.Error("a replay without steps: no error")
	}
	if err := viewer.Write(&bytes.Buffer{}, "x"); err == nil {
		t.Error("no replay: no error")
	}
	if _, err := viewer.NewReplay("x", bt.Picture{}); err == nil {
		t.Error("an empty layout: no error")
	}
	if err := r.Add(viewer.Step{States: make([]bt.State, 3)}); err != nil {
		t.Fatal(err)
	}
	if err := viewer.Write(failWriter{}, "x", r); !errors.Is(err, errFull) {
		t.Errorf("error %v does not wrap the writer's", err)
	}
	other := bt.NewHistory(bt.Start(bt.Select(bt.Leaf("a"), bt.Leaf("b"))))
	if _, err := viewer.TreesReplay("x", def, other.All()); err == nil {
		t.Error("versions of another definition: no error")
	}
}

type failWriter struct{}

var errFull = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errFull }

func readRecord(t *testing.T) []viewer.BattleshipGame {
	t.Helper()
	f, err := os.Open("testdata/game.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	games, err := viewer.ReadBattleship(f)
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
	if err := viewer.WriteBattleship(&b, games); err != nil {
		t.Fatal(err)
	}
	p := readPage(t, b.String())
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
		_, focus := decode(t, len(r.Nodes), r.Steps)
		for k, turn := range g.Turns {
			f, _ := strconv.Atoi(focus[k+1])
			if got, want := r.Nodes[f][3], turn.Ticks[len(turn.Ticks)-1].Intent; got != want {
				t.Fatalf("game %d turn %d: focus on %v, want %s", i, k+1, got, want)
			}
		}
	}
}

func TestBattleshipRecordMismatch(t *testing.T) {
	for name, spoil := range map[string]func(g *viewer.BattleshipGame){
		"intent": func(g *viewer.BattleshipGame) { g.Turns[3].Ticks[0].Intent = "go_left" },
		"state": func(g *viewer.BattleshipGame) {
			for _, o := range g.Turns {
				if o.State != g.Turns[5].State {
					g.Turns[5].State = o.State
					return
				}
			}
		},
		"saved":   func(g *viewer.BattleshipGame) { g.Turns[5].State = "AAAA" },
		"answer":  func(g *viewer.BattleshipGame) { g.Turns[0].Answer, g.Turns[0].Ship = "hit", 0 },
		"signal":  func(g *viewer.BattleshipGame) { g.Turns[1].Signal = "maybe" },
		"number":  func(g *viewer.BattleshipGame) { g.Turns[2].Turn = 9 },
		"shot":    func(g *viewer.BattleshipGame) { g.Turns[2].Shot = [2]int{10, 0} },
		"bot":     func(g *viewer.BattleshipGame) { g.Bot = "Z" },
		"fleet":   func(g *viewer.BattleshipGame) { g.Fleet = []int{50} },
		"nothing": func(g *viewer.BattleshipGame) { g.Turns[4].Ticks = nil },
	} {
		games := readRecord(t)
		g := games[3]
		spoil(&g)
		if _, err := viewer.BattleshipReplay(g); err == nil {
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
		if _, err := viewer.ReadBattleship(strings.NewReader(rec)); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestWriteShotHistogram(t *testing.T) {
	series := []viewer.Series{
		{Name: "bot A <random>", Shots: []int{95, 97, 99, 98, 96, 97}},
		{Name: "bot D", Shots: []int{40, 42, 55, 61, 42}},
	}
	var b bytes.Buffer
	if err := viewer.WriteShotHistogram(&b, "shots & bots", series); err != nil {
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
	wide := []viewer.Series{{Name: "w", Shots: []int{0, 1000}}}
	b.Reset()
	if err := viewer.WriteShotHistogram(&b, "wide", wide); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), `class="bar"`); n != 2 || !strings.Contains(b.String(), "1 game took 986 to 1002 shots") {
		t.Errorf("%d bars for a wide range:\n%s", n, b.String())
	}
	for name, s := range map[string][]viewer.Series{
		"none":     nil,
		"no games": {{Name: "x"}},
		"negative": {{Name: "x", Shots: []int{-1}}},
	} {
		if err := viewer.WriteShotHistogram(&bytes.Buffer{}, "x", s); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if err := viewer.WriteShotHistogram(failWriter{}, "x", series); !errors.Is(err, errFull) {
		t.Errorf("error %v does not wrap the writer's", err)
	}
}

// memoryAt returns the memory listing of step k of a page's replay, as
// viewer.js resolves it: the last one recorded at or before k.
func memoryAt(mem map[int][][2]string, k int) ([][2]string, bool) {
	for ; k >= 0; k-- {
		if l, ok := mem[k]; ok {
			return l, true
		}
	}
	return nil, false
}

// TestBattleshipMemory checks that every step of each bot's game lists the
// bot's memory after the turn, the keys and values its versions hold.
func TestBattleshipMemory(t *testing.T) {
	games := append(readRecord(t), readSteppedRecord(t))
	var b bytes.Buffer
	if err := viewer.WriteBattleship(&b, games); err != nil {
		t.Fatal(err)
	}
	p := readPage(t, b.String())
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
			got, _ := memoryAt(mem, k)
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

// TestMemoryCannotEscapeTheScript checks that memory keys and values are
// data in the page, never markup.
func TestMemoryCannotEscapeTheScript(t *testing.T) {
	def := bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))
	v := bt.Start(def)
	h := bt.NewHistory(v)
	h = h.Push(v.WithMemory(memory.Map{}.Set("</script><b>key</b>", "<img src=x onerror=alert(1)>")).Succeed())
	var b bytes.Buffer
	if err := viewer.WriteHistory(&b, "memory", h); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	if strings.Count(html, "<script") != 2 || strings.Count(html, "</script>") != 2 || strings.Contains(html, "<img") {
		t.Errorf("a memory key or value made markup")
	}
	l, ok := memoryAt(readPage(t, html).Replays[0].Mem, 1)
	if !ok || len(l) != 1 || l[0] != [2]string{"</script><b>key</b>", `"<img src=x onerror=alert(1)>"`} {
		t.Errorf("step 1's memory is %v", l)
	}
	// A history without memory has no memory panel.
	b.Reset()
	if err := viewer.WriteHistory(&b, "no memory", bt.NewHistory(v).Push(v.Succeed())); err != nil {
		t.Fatal(err)
	}
	if p := readPage(t, b.String()); p.Replays[0].Mem != nil {
		t.Errorf("memory %v in a history without memory", p.Replays[0].Mem)
	}
}
