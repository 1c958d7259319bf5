package viewer_test

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/viewertest"
	"github.com/zipbt/behaviortree/memory"
	"github.com/zipbt/behaviortree/viewer"
)

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
	p := viewertest.ReadPage(t, html)
	if len(p.Replays) != 1 || len(p.Replays[0].Steps) != h.Len() {
		t.Fatalf("%d replays, %d steps; want 1 and %d", len(p.Replays), len(p.Replays[0].Steps), h.Len())
	}
	r := p.Replays[0]
	states, focus := viewertest.Decode(t, len(r.Nodes), r.Steps)
	k := 0
	for v := range h.All() {
		want, f := v.NodeStates(nil), v.FocusIndex()
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
	p := viewertest.ReadPage(t, html)
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
	p := viewertest.ReadPage(t, b.String()).Replays[0]
	states, focus := viewertest.Decode(t, len(p.Nodes), p.Steps)
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
	l, ok := viewertest.MemoryAt(viewertest.ReadPage(t, html).Replays[0].Mem, 1)
	if !ok || len(l) != 1 || l[0] != [2]string{"</script><b>key</b>", `"<img src=x onerror=alert(1)>"`} {
		t.Errorf("step 1's memory is %v", l)
	}
	// A history without memory has no memory panel.
	b.Reset()
	if err := viewer.WriteHistory(&b, "no memory", bt.NewHistory(v).Push(v.Succeed())); err != nil {
		t.Fatal(err)
	}
	if p := viewertest.ReadPage(t, b.String()); p.Replays[0].Mem != nil {
		t.Errorf("memory %v in a history without memory", p.Replays[0].Mem)
	}
}
