package playground

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/btcpp"
)

// xmlSrc is a BehaviorTree.CPP tree with a condition, an action, a
// script and a SubTree whose scope has an entry of its own.
const xmlSrc = `<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main">
  <Sequence>
    <Script code="x := 1"/>
    <Fallback>
      <IsOpen/>
      <Walk speed="{x}"/>
    </Fallback>
    <SubTree ID="Sub" name="inner"/>
  </Sequence>
</BehaviorTree>
<BehaviorTree ID="Sub"><Script code="y := 'here'"/></BehaviorTree>
<TreeNodesModel><Condition ID="IsOpen"/></TreeNodesModel>
</root>`

// parseXMLDef reads a BehaviorTree.CPP text for the page, as bt play
// does (without includes).
func parseXMLDef(_ string, src []byte) (Definition, error) {
	text := string(src)
	models := btcpp.NewFactory().LeafModels(text, nil, "")
	return Definition{BTCPP: &BTCPPTree{Leaves: models, Build: func(f *btcpp.Factory, opts ...btcpp.Option) (*btcpp.Tree, error) {
		doc, err := f.Parse(text)
		if err != nil {
			return nil, err
		}
		return doc.Build("", opts...)
	}}}, nil
}

// xmlOracle ticks xmlSrc with the library directly, with leaves that
// give the answers in turn, and returns each version's states and focus
// as the page shows them.
func xmlOracle(t *testing.T, answers ...string) []string {
	t.Helper()
	f := btcpp.NewFactory()
	k := 0
	next := func() string { k++; return answers[k-1] }
	status := map[string]btcpp.Status{"success": btcpp.Success, "failure": btcpp.Failure, "running": btcpp.Running, "true": btcpp.Success, "false": btcpp.Failure}
	if err := f.RegisterCondition("IsOpen", func(*btcpp.Call) (btcpp.Status, error) { return status[next()], nil }); err != nil {
		t.Fatal(err)
	}
	act := func(*btcpp.Call) (btcpp.Status, error) { return status[next()], nil }
	if err := f.RegisterAction("Walk", btcpp.Action{OnStart: act, OnRunning: act}, btcpp.InOutPort("speed", "any")); err != nil {
		t.Fatal(err)
	}
	doc, err := f.Parse(xmlSrc)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := doc.Build("")
	if err != nil {
		t.Fatal(err)
	}
	var shown []string
	for k < len(answers) {
		if tree, _, err = tree.TickOnce(); err != nil {
			t.Fatal(err)
		}
		s, f := letters(tree.Picture())
		shown = append(shown, fmt.Sprint(s, f))
	}
	return shown
}

// TestBTCPP: a BehaviorTree.CPP tree in the page: the page answers its
// leaves (conditions true or false, actions success, failure or running),
// each step is the library's tickOnce, undo branches, the memory lists
// the blackboard scopes and cannot be edited, and the export is a replay
// page of the XML types.
func TestBTCPP(t *testing.T) {
	c := newClient(t, xmlSrc, Config{Parse: parseXMLDef})
	st := c.state()
	if st.Engine != "btcpp" || st.Error != nil {
		t.Fatalf("engine %q, error %+v", st.Engine, st.Error)
	}
	if len(st.Nodes) == 0 || st.Nodes[1][1] != "Script" || st.Nodes[2][1] != "Fallback" {
		t.Errorf("nodes %v: want the XML types", st.Nodes)
	}
	st = c.post("/api/step", "")
	if st.Ask == nil || st.Ask.Kind != "condition" || st.Ask.Name != "IsOpen" {
		t.Fatalf("first question %+v, want the condition IsOpen", st.Ask)
	}
	st = c.post("/api/answer", `{"value":"false"}`)
	if st.Ask == nil || st.Ask.Kind != btcppAction || st.Ask.Name != "Walk" || fmt.Sprint(st.Ask.Choices) != "[success failure running]" || !strings.Contains(st.Ask.Text, `speed="1"`) {
		t.Fatalf("second question %+v, want the action Walk with its port", st.Ask)
	}
	c.refused("POST", "/api/answer", `{"value":"async"}`, http.StatusConflict, nil)
	st = c.post("/api/answer", `{"value":"running"}`)
	want := xmlOracle(t, "false", "running")
	if st.Ask != nil || shownOf(st) != want[0] {
		t.Errorf("after step 1: ask %+v, shown %s, want %s", st.Ask, shownOf(st), want[0])
	}
	if fmt.Sprint(st.Version.Memory) != "[[x 1 (int64)]]" {
		t.Errorf("memory %v, want x", st.Version.Memory)
	}
	st = c.answerAll(nil, "success")
	want = xmlOracle(t, "false", "running", "success")
	if shownOf(st) != want[1] || fmt.Sprint(st.Version.Memory) != `[[inner/y "here" (string)] [x 1 (int64)]]` {
		t.Errorf("after step 2: shown %s, want %s; memory %v", shownOf(st), want[1], st.Version.Memory)
	}
	// Undo, and another answer: a branch.
	c.post("/api/undo", "")
	st = c.answerAll(nil, "failure")
	want = xmlOracle(t, "false", "running", "failure")
	if shownOf(st) != want[1] || len(st.Timeline) != 4 {
		t.Errorf("branch: shown %s, want %s; %d versions", shownOf(st), want[1], len(st.Timeline))
	}
	if msg := c.refused("POST", "/api/memory", `{"key":"x","value":3}`, http.StatusConflict, nil); !strings.Contains(msg, "BehaviorTree.CPP blackboard") {
		t.Errorf("memory edit: %s", msg)
	}
	if code, _ := c.do("GET", "/api/save", nil, nil); code == http.StatusOK {
		t.Errorf("save: %d, want a refusal", code)
	}
	code, page := c.do("GET", "/api/export", nil, nil)
	if code != http.StatusOK || !bytes.Contains(page, []byte(`"Fallback"`)) || !bytes.Contains(page, []byte(`"1 (int64)"`)) {
		t.Errorf("export: %d", code)
	}
}

// TestBTCPPScript: the script answers the leaves by ID.
func TestBTCPPScript(t *testing.T) {
	c := newClient(t, xmlSrc, Config{Parse: parseXMLDef, Script: &Script{Actions: map[string][]string{"Walk": {"running", "success"}}, Conditions: map[string][]bool{"IsOpen": {false}}}})
	want := xmlOracle(t, "false", "running", "success", "false", "running")
	for i := range want {
		st := c.post("/api/step", "")
		if st.Ask != nil || shownOf(st) != want[i] {
			t.Errorf("step %d: ask %+v, shown %s, want %s", i+1, st.Ask, shownOf(st), want[i])
		}
	}
}

// TestBTCPPError: a tree that does not build is shown with its line and
// column.
func TestBTCPPError(t *testing.T) {
	c := newClient(t, "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"A\">\n  <Repeat num_cycles=\"x\"><AlwaysSuccess/></Repeat>\n</BehaviorTree></root>", Config{Parse: parseXMLDef})
	st := c.state()
	if st.Engine != "" || st.Error == nil || st.Error.Line != 3 || st.Error.Col != 11 {
		t.Errorf("engine %q, error %+v: want 3:11", st.Engine, st.Error)
	}
}
