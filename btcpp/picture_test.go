package btcpp

import (
	"slices"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	btkind "github.com/zipbt/behaviortree/kind"
)

// pictureXML has a control, decorators with ports, a script, pre- and
// post-condition attributes, a named node, a condition and a SubTree
// with a remapping and _autoremap.
const pictureXML = `<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main">
  <Sequence name="main seq">
    <Script code="x := 1" _onSuccess="done := true"/>
    <Repeat num_cycles="3">
      <Fallback>
        <IsOpen _skipIf="x &gt; 5"/>
        <Walk speed="{x}"/>
      </Fallback>
    </Repeat>
    <SubTree ID="Sub" name="inner" y="{x}" _autoremap="true"/>
  </Sequence>
</BehaviorTree>
<BehaviorTree ID="Sub"><AlwaysSuccess/></BehaviorTree>
</root>`

// pictureTree builds pictureXML and ticks it once: IsOpen fails and Walk
// runs.
func pictureTree(t *testing.T) *Tree {
	t.Helper()
	f := NewFactory()
	if err := f.RegisterCondition("IsOpen", func(*Call) (Status, error) { return Failure, nil }); err != nil {
		t.Fatal(err)
	}
	if err := f.RegisterAction("Walk", Action{OnStart: func(*Call) (Status, error) { return Running, nil }}, InputPort("speed", "int")); err != nil {
		t.Fatal(err)
	}
	doc, err := f.Parse(pictureXML)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := doc.Build("")
	if err != nil {
		t.Fatal(err)
	}
	next, st, err := tree.Tick()
	if err != nil || st != Running {
		t.Fatalf("tick: %v, %v", st, err)
	}
	return next
}

func TestPictureNodes(t *testing.T) {
	tree := pictureTree(t)
	p := tree.Picture()
	if len(p.Nodes) != tree.Len() {
		t.Fatalf("%d nodes drawn for %d", len(p.Nodes), tree.Len())
	}
	byType := map[string]bt.PictureNode{}
	for i, nd := range p.Nodes {
		info := tree.Nodes()[i]
		if nd.Parent != info.Parent || nd.Type != info.ID {
			t.Errorf("node %d: parent %d type %q, want %d %q", i, nd.Parent, nd.Type, info.Parent, info.ID)
		}
		byType[nd.Type] = nd
	}
	want := []struct {
		typ, label, params, attrs string
		kind                      btkind.Kind
		state                     bt.State
		focus                     bool
	}{
		{"Sequence", "main seq", "", "", btkind.Sequence, bt.StateRunning, false},
		{"Script", "", `[code="x := 1"]`, `_onSuccess="done := true"`, btkind.Leaf, bt.StateSucceeded, false},
		{"Repeat", "", "[num_cycles=3]", "", btkind.Repeat, bt.StateRunning, false},
		{"Fallback", "", "", "", btkind.Select, bt.StateRunning, false},
		{"IsOpen", "", "", `_skipIf="x > 5"`, btkind.Condition, bt.StateFailed, false},
		{"Walk", "", "[speed={x}]", "", btkind.Leaf, bt.StateRunning, true},
		{"SubTree", `Sub "inner"`, "[y={x}]", "_autoremap=true", btkind.Root, bt.StateReady, false},
		{"AlwaysSuccess", "", "", "", btkind.Leaf, bt.StateReady, false},
	}
	for _, w := range want {
		nd, ok := byType[w.typ]
		if !ok {
			t.Errorf("no node of type %s", w.typ)
			continue
		}
		if nd.Label != w.label || nd.Params != w.params || nd.Attrs != w.attrs || nd.Kind != w.kind || nd.State != w.state || nd.Focus != w.focus {
			t.Errorf("%s: got label %q params %q attrs %q kind %v state %v focus %v, want %q %q %q %v %v %v",
				w.typ, nd.Label, nd.Params, nd.Attrs, nd.Kind, nd.State, nd.Focus, w.label, w.params, w.attrs, w.kind, w.state, w.focus)
		}
	}
}

// TestPictureWriters draws the picture with the three writers and checks
// that each shows the types, ports, attributes and states.
func TestPictureWriters(t *testing.T) {
	p := pictureTree(t).Picture()
	var ascii, dot, mermaid strings.Builder
	if err := p.WriteText(&ascii, bt.ASCII); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteDOT(&dot); err != nil {
		t.Fatal(err)
	}
	if err := p.WriteMermaid(&mermaid); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(ascii.String(), "\n"), "\n")
	if len(lines) != len(p.Nodes) {
		t.Fatalf("ASCII: %d lines for %d nodes:\n%s", len(lines), len(p.Nodes), ascii.String())
	}
	for _, want := range []string{"[>] Sequence main seq", "[+] Script[code=\"x := 1\"] _onSuccess=\"done := true\"",
		"[>] Repeat[num_cycles=3]", "[x] IsOpen _skipIf=\"x > 5\"", "[>] Walk[speed={x}]  <- focus", "SubTree[y={x}] Sub \"inner\" _autoremap=true"} {
		if !strings.Contains(ascii.String(), want) {
			t.Errorf("ASCII lacks %q:\n%s", want, ascii.String())
		}
	}
	for _, want := range []string{`Repeat[num_cycles=3]`, `Walk[speed={x}]`, `shape=house`, `shape=ellipse`} {
		if !strings.Contains(dot.String(), want) {
			t.Errorf("DOT lacks %q:\n%s", want, dot.String())
		}
	}
	running := false
	for _, l := range strings.Split(mermaid.String(), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "class" && f[2] == "running" {
			running = slices.Contains(strings.Split(f[1], ","), "n5")
		}
	}
	if !running {
		t.Errorf("Mermaid: Walk (n5) is not in the class running:\n%s", mermaid.String())
	}
	if strings.Contains(dot.String(), "repeat") || strings.Contains(dot.String(), "select") {
		t.Errorf("DOT names a kind instead of a type:\n%s", dot.String())
	}
	for _, want := range []string{"Fallback", "IsOpen", "Repeat#91;num_cycles=3#93;", "n0 --> n1"} {
		if !strings.Contains(mermaid.String(), want) {
			t.Errorf("Mermaid lacks %q:\n%s", want, mermaid.String())
		}
	}
}

// TestPictureOldVersion checks that a picture is of its version: the
// first version is all ready, whatever its successors did.
func TestPictureOldVersion(t *testing.T) {
	f := NewFactory()
	doc, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence><AlwaysSuccess/><AlwaysFailure/></Sequence></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	first, err := doc.Build("")
	if err != nil {
		t.Fatal(err)
	}
	next, _, err := first.Tick()
	if err != nil {
		t.Fatal(err)
	}
	for i, nd := range first.Picture().Nodes {
		if nd.State != bt.StateReady || nd.Focus {
			t.Errorf("first version, node %d: %v focus %v", i, nd.State, nd.Focus)
		}
	}
	// Every node drawn with its own status (a tree that ended is IDLE
	// again).
	for i, nd := range next.Picture().Nodes {
		if want := pictureState(next.NodeStatus(i)); nd.State != want {
			t.Errorf("node %d: drawn %v, status %v", i, nd.State, next.NodeStatus(i))
		}
	}
}
