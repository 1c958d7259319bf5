package viewer_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/btcpp"
	"github.com/zipbt/behaviortree/viewer"
)

// btcppTree builds a BehaviorTree.CPP tree whose action runs once, then
// succeeds.
func btcppTree(t *testing.T, xml string) *btcpp.Tree {
	t.Helper()
	f := btcpp.NewFactory()
	err := f.RegisterAction("Walk", btcpp.Action{
		OnStart:   func(*btcpp.Call) (btcpp.Status, error) { return btcpp.Running, nil },
		OnRunning: func(*btcpp.Call) (btcpp.Status, error) { return btcpp.Success, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := f.Parse(xml)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := doc.Build("")
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestMonitorBTCPP follows a feed of BehaviorTree.CPP versions: the
// reset names the nodes by their XML types with their ports, each step
// carries the version's states, focus and blackboard scopes, and a
// version of another built tree starts the page over.
func TestMonitorBTCPP(t *testing.T) {
	m := viewer.NewMonitor(viewer.MonitorOptions{})
	feed := viewer.NewBTCPPFeed(m, "xml")
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	s := openStream(t, srv, 0)
	if e := s.next(t); e.name != "trees" {
		t.Fatalf("first event %s", e.name)
	}
	var r resetJSON
	if e := s.next(t); e.name != "reset" || json.Unmarshal([]byte(e.data), &r) != nil || len(r.Steps) != 0 {
		t.Fatalf("an empty feed's reset: %s %s", e.name, e.data)
	}
	xml := `<root BTCPP_format="4" main_tree_to_execute="M"><BehaviorTree ID="M"><Sequence>
<Script code="x := 1" _onSuccess="done := 'yes'"/><Walk/><SubTree ID="S" name="sub"/></Sequence></BehaviorTree>
<BehaviorTree ID="S"><Script code="y := 2"/></BehaviorTree></root>`
	v := btcppTree(t, xml)
	feed.Publish(v)
	if e := s.next(t); e.name != "reset" || json.Unmarshal([]byte(e.data), &r) != nil || len(r.Steps) != 1 {
		t.Fatalf("the first version's reset: %s %s", e.name, e.data)
	}
	if got := fmt.Sprintf("%v|%v|%v|%v|%v|%v", r.Nodes[0][1], r.Nodes[1][1], r.Nodes[1][2], r.Nodes[1][4], r.Nodes[3][1], r.Nodes[3][3]); got != `Sequence|Script|[code="x := 1"]|_onSuccess="done := 'yes'"|SubTree|S "sub"` {
		t.Errorf("nodes %v", r.Nodes)
	}
	for k := 1; k <= 2; k++ {
		next, _, err := v.Tick()
		if err != nil {
			t.Fatal(err)
		}
		v = next
		feed.Publish(v)
		var st stepJSON
		if e := s.next(t); e.name != "step" || json.Unmarshal([]byte(e.data), &st) != nil {
			t.Fatalf("event %s %s, want a step", e.name, e.data)
		}
		p := v.Picture()
		var states []bt.State
		var focus []int
		for i, nd := range p.Nodes {
			states = append(states, nd.State)
			if nd.Focus {
				focus = append(focus, i)
			}
		}
		if want := fullStates(states, focus); st.Step != want || st.Label != fmt.Sprintf("version %d returned %v", k, v.Status()) {
			t.Errorf("tick %d: step %+v, want %s", k, st, want)
		}
		mem := ""
		if st.Mem != nil {
			mem = fmt.Sprint(*st.Mem)
		}
		switch k {
		case 1:
			if mem != `[[done "yes" (string)] [x 1 (int64)]]` {
				t.Errorf("tick 1: memory %s", mem)
			}
		case 2:
			if !strings.Contains(mem, `[sub/y 2 (int64)]`) {
				t.Errorf("tick 2: memory %s", mem)
			}
		}
	}
	feed.Publish(btcppTree(t, xml)) // another Build: the page starts over
	if e := s.next(t); e.name != "reset" || json.Unmarshal([]byte(e.data), &r) != nil || len(r.Steps) != 1 || r.Steps[0].N != 3 {
		t.Fatalf("after another Build: %s %s, want a reset at version 3", e.name, e.data)
	}
}
