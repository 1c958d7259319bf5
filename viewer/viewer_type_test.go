package viewer_test

import (
	"bytes"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/viewertest"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/viewer"
)

// TestReplayNodeType checks that the page names a node by its Type when
// the picture sets one (a node of another format, such as
// BehaviorTree.CPP's Fallback), and by its Kind's word otherwise.
func TestReplayNodeType(t *testing.T) {
	layout := bt.Picture{Nodes: []bt.PictureNode{
		{Parent: -1, Kind: kind.Select, Type: "Fallback"},
		{Parent: 0, Depth: 1, Kind: kind.Leaf, Label: "open"},
	}}
	r, err := viewer.NewReplay("typed", layout)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Add(viewer.Step{States: []bt.State{bt.StateRunning, bt.StateRunning}, Focus: []int{1}}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := viewer.Write(&b, "typed", r); err != nil {
		t.Fatal(err)
	}
	p := viewertest.ReadPage(t, b.String())
	nodes := p.Replays[0].Nodes
	if nodes[0][1] != "Fallback" || nodes[1][1] != layout.Nodes[1].Word() || nodes[1][3] != "open" {
		t.Errorf("nodes %v: want Fallback, then %s open", nodes, layout.Nodes[1].Word())
	}
}
