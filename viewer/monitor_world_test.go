package viewer_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/viewer"
)

// worldStepJSON is a step event with the world the program published.
type worldStepJSON struct {
	N      uint64       `json:"n"`
	Events []string     `json:"events"`
	Text   string       `json:"text"`
	World  []string     `json:"world"`
	Grid   *viewer.Grid `json:"grid"`
}

type endJSON struct {
	N      uint64 `json:"n"`
	Result string `json:"result"`
	Closed bool   `json:"closed"`
}

// TestMonitorWorld publishes versions with a world: the reset and the
// steps carry each version's grid, text and events, bounded; End and
// Close send an "end" event, and a version published after Close is
// ignored.
func TestMonitorWorld(t *testing.T) {
	m := viewer.NewMonitor(viewer.MonitorOptions{Keep: 10})
	feed := viewer.NewTreeFeed[string](m, "game")
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)

	v := bt.Start(bt.Sequence(bt.Leaf("aim"), bt.Leaf("fire")))
	first := viewer.World{Text: "turn 0", Grid: &viewer.Grid{Cols: 3, Rows: 2, Cells: "oo....", Last: -1}}
	if err := feed.PublishWith(v, first); err != nil {
		t.Fatal(err)
	}
	s := openStream(t, srv, 0)
	if e := s.next(t); e.name != "trees" {
		t.Fatalf("first event %s, want trees", e.name)
	}
	e := s.next(t)
	var r struct {
		Steps []worldStepJSON `json:"steps"`
	}
	if e.name != "reset" || json.Unmarshal([]byte(e.data), &r) != nil || len(r.Steps) != 1 {
		t.Fatalf("event %s %s, want a reset of one version", e.name, e.data)
	}
	if g := r.Steps[0].Grid; g == nil || *g != *first.Grid || r.Steps[0].Text != first.Text {
		t.Errorf("the reset's version %+v, want the world %+v", r.Steps[0], first)
	}

	long := strings.Repeat("é", 10000)
	events := make([]string, 100)
	for i := range events {
		events[i] = "fire at A1: hit"
	}
	events[0] = long
	second := viewer.World{Text: long, Events: events, Grid: &viewer.Grid{Cols: 3, Rows: 2, Cells: "xo....", Last: 0}}
	if err := feed.PublishWith(v.Succeed(), second); err != nil {
		t.Fatal(err)
	}
	second.Grid.Cells = "kk...." // the feed keeps its own copy
	e = s.next(t)
	var st worldStepJSON
	if e.name != "step" || json.Unmarshal([]byte(e.data), &st) != nil {
		t.Fatalf("event %s %s, want a step", e.name, e.data)
	}
	if st.Grid == nil || st.Grid.Cells != "xo...." || st.Grid.Last != 0 {
		t.Errorf("step grid %+v, want the board as published", st.Grid)
	}
	if len(st.Text) >= len(long) || !strings.HasPrefix(long, strings.TrimSuffix(st.Text, "…")) {
		t.Errorf("step text of %d bytes, want a prefix of the %d published", len(st.Text), len(long))
	}
	if len(st.World) >= len(events) || len(st.World[0]) >= len(long) || st.World[1] != events[1] {
		t.Errorf("step's world events: %d lines, the first of %d bytes; want fewer than the %d published, cut", len(st.World), len(st.World[0]), len(events))
	}

	feed.End("sunk 2 ships in 2 shots")
	e = s.next(t)
	var end endJSON
	if e.name != "end" || json.Unmarshal([]byte(e.data), &end) != nil || end.N != 2 || end.Result != "sunk 2 ships in 2 shots" || end.Closed {
		t.Fatalf("event %s %s, want the end after version 1", e.name, e.data)
	}
	feed.Close()
	e = s.next(t)
	if e.name != "end" || json.Unmarshal([]byte(e.data), &end) != nil || !end.Closed || end.N != 2 {
		t.Fatalf("event %s %s, want the feed closed", e.name, e.data)
	}
	feed.Publish(v)
	if feed.Len() != 2 {
		t.Errorf("Len %d after a Publish on a closed feed, want 2", feed.Len())
	}
}

// TestMonitorWorldInvalid checks that PublishWith refuses grids that are
// not boards, and publishes nothing then.
func TestMonitorWorldInvalid(t *testing.T) {
	m := viewer.NewMonitor(viewer.MonitorOptions{Keep: 4})
	feed := viewer.NewTreeFeed[string](m, "game")
	v := bt.Start(bt.Leaf[string]("aim"))
	for _, g := range []viewer.Grid{
		{Cols: 0, Rows: 2, Cells: "", Last: -1},
		{Cols: 200, Rows: 200, Cells: strings.Repeat(".", 40000), Last: -1},
		{Cols: 2, Rows: 2, Cells: "...", Last: -1},
		{Cols: 2, Rows: 2, Cells: "..<.", Last: -1},
		{Cols: 2, Rows: 2, Cells: "....", Last: 4},
	} {
		if err := feed.PublishWith(v, viewer.World{Grid: &g}); err == nil || !strings.Contains(err.Error(), "grid") {
			t.Errorf("PublishWith of grid %dx%d %q last %d: error %v, want one about the grid", g.Cols, g.Rows, g.Cells, g.Last, err)
		}
	}
	if feed.Len() != 0 {
		t.Errorf("Len %d after refused publishes, want 0", feed.Len())
	}
}
