package viewer_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/fluent"
	"github.com/zipbt/behaviortree/internal/viewertest"
	"github.com/zipbt/behaviortree/viewer"
)

// checkPictures checks a page's replay against the versions it shows:
// each step's states and running tips are the version's Picture's, and
// its label says the step and the tree's state.
func checkPictures[L any](t *testing.T, html string, versions []bt.Stepped[L]) {
	t.Helper()
	p := viewertest.ReadPage(t, html).Replays[0]
	if len(p.Steps) != len(versions) {
		t.Fatalf("%d steps for %d versions", len(p.Steps), len(versions))
	}
	states, focus := viewertest.Decode(t, len(p.Nodes), p.Steps)
	for k, v := range versions {
		want, wantFocus := "", []string{}
		for i, nd := range v.Picture().Nodes {
			want += string(viewer.Letter(nd.State))
			if nd.Focus {
				wantFocus = append(wantFocus, strconv.Itoa(i))
			}
		}
		if states[k] != want || focus[k] != strings.Join(wantFocus, ",") {
			t.Errorf("step %d: %s|%s, want %s|%s", k, states[k], focus[k], want, strings.Join(wantFocus, ","))
		}
		if !strings.Contains(p.Labels[k], v.State().String()) {
			t.Errorf("step %d: label %q does not say the tree is %v", k, p.Labels[k], v.State())
		}
	}
}

// TestWriteHistoryStepped draws a History of stepped versions, with an
// undo in it: the page shows the line from the start to the current one.
func TestWriteHistoryStepped(t *testing.T) {
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
	h := bt.NewHistory(st)
	for i := 0; i < 10; i++ {
		next, err := h.Current().Step()
		if err != nil {
			t.Fatal(err)
		}
		h = h.Push(next)
		if i == 6 {
			h = h.Undo().Undo()
		}
	}
	var b bytes.Buffer
	if err := viewer.WriteHistory(&b, "stepped history", h); err != nil {
		t.Fatal(err)
	}
	var line []bt.Stepped[string]
	for v := range h.All() {
		line = append(line, v)
	}
	checkPictures(t, b.String(), line)
}

// TestWriteHistoryFluent draws a History of Fluent trees: stepped trees of
// Fluent leaves, as fluent.New makes them.
func TestWriteHistoryFluent(t *testing.T) {
	energy := 2
	def, err := fluent.NewBuilder().
		Selector("root").
		Sequence("work").
		Condition("rested", func(bt.TimeData) bool { return energy > 0 }).
		Do("dig", func(bt.TimeData) bt.Status { energy--; return bt.Running }).
		End().
		Do("sleep", func(bt.TimeData) bt.Status { energy = 2; return bt.Success }).
		End().
		Build()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := fluent.New(def)
	if err != nil {
		t.Fatal(err)
	}
	h := bt.NewHistory(tr)
	for range 5 {
		next, err := h.Current().Tick(bt.TimeData{DeltaTime: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		h = h.Push(next)
	}
	var b bytes.Buffer
	if err := viewer.WriteHistory(&b, "fluent history", h); err != nil {
		t.Fatal(err)
	}
	var line []bt.Stepped[bt.Fluent]
	for v := range h.All() {
		line = append(line, v)
	}
	checkPictures(t, b.String(), line)
	labels := map[any]bool{}
	for _, nd := range viewertest.ReadPage(t, b.String()).Replays[0].Nodes {
		labels[nd[3]] = true
	}
	if !labels["rested"] || !labels["dig"] || !labels["sleep"] {
		t.Errorf("the page's nodes are labelled %v, want the leaves' names", labels)
	}
}

// TestHistoryReplayOtherDefinition checks that a History whose versions
// are of two definitions is refused, stepped or not.
func TestHistoryReplayOtherDefinition(t *testing.T) {
	agent := bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultSuccess }}
	one, err := bt.NewStepped(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")), agent)
	if err != nil {
		t.Fatal(err)
	}
	two, err := bt.NewStepped(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")), agent) // equal, but another definition
	if err != nil {
		t.Fatal(err)
	}
	if _, err := viewer.HistoryReplay("x", bt.NewHistory(one).Push(two)); err == nil || !strings.Contains(err.Error(), "version 1 is of another definition") {
		t.Errorf("stepped: got %v", err)
	}
	a, b := bt.Start(bt.Select(bt.Leaf("a"), bt.Leaf("b"))), bt.Start(bt.Select(bt.Leaf("a"), bt.Leaf("b")))
	if _, err := viewer.HistoryReplay("x", bt.NewHistory(a).Push(b)); err == nil || !strings.Contains(err.Error(), "version 1 is of another definition") {
		t.Errorf("trees: got %v", err)
	}
}
