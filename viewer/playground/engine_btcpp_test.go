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
// the blackboard scopes (set through /api/blackboard, not /api/memory),
// and the export is a replay page of the XML types.
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
	if msg := c.refused("POST", "/api/memory", `{"key":"x","value":3}`, http.StatusConflict, nil); !strings.Contains(msg, "/api/blackboard") {
		t.Errorf("memory edit: %s", msg)
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

// TestBTCPPSaveLoad: a saved version loads back as a new version with the
// same states and blackboard, and ticks on as the saved one; a save of
// another tree, of another engine, or damaged, is refused and adds no
// version.
func TestBTCPPSaveLoad(t *testing.T) {
	c := newClient(t, xmlSrc, Config{Parse: parseXMLDef})
	c.answerAll(nil, "false", "running")
	saved := c.state()
	code, data := c.do("GET", "/api/save", nil, nil)
	if code != http.StatusOK || len(data) == 0 {
		t.Fatalf("save: %d %q", code, data)
	}
	c.post("/api/goto", `{"id":0}`)
	st := c.post("/api/load", string(data))
	if st.Version.ID != 2 || st.Timeline[2].Parent != 0 || st.Version.Label != "loaded" || shownOf(st) != shownOf(saved) || fmt.Sprint(st.Version.Memory) != fmt.Sprint(saved.Version.Memory) {
		t.Fatalf("loaded: version %d (after %d) %q, %s %v; want %s %v", st.Version.ID, st.Timeline[st.Version.ID].Parent, st.Version.Label, shownOf(st), st.Version.Memory, shownOf(saved), saved.Version.Memory)
	}
	a := c.answerAll(nil, "success")
	c.post("/api/goto", `{"id":1}`)
	b := c.answerAll(nil, "success")
	if shownOf(a) != shownOf(b) || fmt.Sprint(a.Version.Memory) != fmt.Sprint(b.Version.Memory) {
		t.Errorf("the loaded version ticked to %s %v, the saved one to %s %v", shownOf(a), a.Version.Memory, shownOf(b), b.Version.Memory)
	}
	n := len(c.state().Timeline)
	other := newClient(t, strings.Replace(xmlSrc, `<SubTree ID="Sub" name="inner"/>`, "", 1), Config{Parse: parseXMLDef})
	_, odata := other.do("GET", "/api/save", nil, nil)
	if msg := c.refused("POST", "/api/load", string(odata), http.StatusConflict, nil); !strings.Contains(msg, "loading the saved state") || !strings.Contains(msg, btcpp.ErrWrongTree.Error()) {
		t.Errorf("another tree's state: %s", msg)
	}
	mdsl := newClient(t, "root { action [X] }", Config{})
	_, mdata := mdsl.do("GET", "/api/save", nil, nil)
	if msg := c.refused("POST", "/api/load", string(mdata), http.StatusConflict, nil); !strings.Contains(msg, "not of a BehaviorTree.CPP tree") {
		t.Errorf("an MDSL tree's state: %s", msg)
	}
	if msg := c.refused("POST", "/api/load", string(data[:len(data)-1]), http.StatusConflict, nil); !strings.Contains(msg, "loading the saved state") {
		t.Errorf("a truncated state: %s", msg)
	}
	if got := len(c.state().Timeline); got != n {
		t.Errorf("refused loads added versions: %d, was %d", got, n)
	}
}

// TestBTCPPBlackboard: /api/blackboard sets an entry of a scope with a
// type (or the JSON value's), as a new version that the next tick reads,
// and unsets a scope's own entry; an unknown scope, type or value, a type
// change of a typed entry, and trailing data are refused and add no
// version.
func TestBTCPPBlackboard(t *testing.T) {
	c := newClient(t, xmlSrc, Config{Parse: parseXMLDef})
	st := c.state()
	if fmt.Sprint(st.Scopes) != "[ inner]" {
		t.Errorf("scopes %q, want the main tree's and inner", st.Scopes)
	}
	c.answerAll(nil, "false", "running")
	c.answerAll(nil, "success")
	st = c.post("/api/blackboard", `{"scope":"inner","key":"y","type":"int","value":7}`)
	if st.Version.ID != 3 || st.Version.Label != "blackboard: inner/y = 7 (int)" || fmt.Sprint(st.Version.Memory) != "[[inner/y 7 (int)] [x 1 (int64)]]" {
		t.Fatalf("after setting inner/y: version %d %q, memory %v", st.Version.ID, st.Version.Label, st.Version.Memory)
	}
	// The value's own type; an untyped entry takes the type given, and a
	// string into a typed entry is parsed as its type.
	c.post("/api/blackboard", `{"key":"z","value":2.5}`)
	c.post("/api/blackboard", `{"scope":"","key":"x","type":"int64","value":40}`)
	st = c.post("/api/blackboard", `{"scope":"","key":"x","type":"string","value":"41"}`)
	if fmt.Sprint(st.Version.Memory) != "[[inner/y 7 (int)] [x 41 (int64)] [z 2.500000 (double)]]" {
		t.Errorf("memory %v", st.Version.Memory)
	}
	// The tick reads the blackboard set: x typed string makes the
	// Script's x := 1 throw, as in BehaviorTree.CPP.
	c.post("/api/goto", `{"id":2}`)
	st = c.post("/api/blackboard", `{"key":"x","type":"string","value":"one"}`)
	if msg := c.refused("POST", "/api/step", "", http.StatusConflict, nil); !strings.Contains(msg, "Error assigning a value to entry [x] with type [std::string]") {
		t.Errorf("the step after x = \"one\": %s", msg)
	}
	st = c.post("/api/blackboard", `{"key":"x","value":null}`)
	if st.Version.Label != "blackboard: x unset" || fmt.Sprint(st.Version.Memory) != `[[inner/y "here" (string)]]` {
		t.Errorf("unset x: %q %v", st.Version.Label, st.Version.Memory)
	}
	st = c.post("/api/blackboard", `{"key":"x","type":"int64","value":1}`)
	n := len(st.Timeline)
	for _, c2 := range []struct{ body, want string }{
		{`{"scope":"nowhere","key":"x","value":1}`, `no blackboard scope "nowhere": the scopes are "", "inner"`},
		{`{"key":"x","type":"float","value":1}`, `unknown type "float"`},
		{`{"key":"x","type":"int","value":"one"}`, `an int value is a number, not "one"`},
		{`{"key":"x","type":"int","value":2.5}`, `an int value is an integer`},
		{`{"key":"x","type":"int","value":3000000000}`, `an int value is an integer from -2147483648 to 2147483647`},
		{`{"key":"x","type":"bool","value":1}`, `a bool value is a boolean`},
		{`{"key":"x","value":[1]}`, `a value is a number, a boolean, a string, or null`},
		{`{"key":"x","type":"double","value":2.5}`, `LogicError`},
		{`{"key":"","value":1}`, `key must not be empty`},
		{`{"key":"x"}`, `no value`},
		{`{"key":"nothing","value":null}`, `stores no entry "nothing"`},
		{`{"key":"x","type":"int","value":null}`, `takes no type`},
	} {
		if msg := c.refused("POST", "/api/blackboard", c2.body, http.StatusConflict, nil); !strings.Contains(msg, c2.want) {
			t.Errorf("%s: %s, want %q", c2.body, msg, c2.want)
		}
	}
	for _, body := range []string{`{"key":"x","value":1} {}`, `{"key":"x","value":1,"extra":0}`, `{"key":`} {
		c.refused("POST", "/api/blackboard", body, http.StatusBadRequest, nil)
	}
	if got := len(c.state().Timeline); got != n {
		t.Errorf("refused edits added versions: %d, was %d", got, n)
	}
	// An MDSL tree has no scopes.
	m := newClient(t, "root { action [X] }", Config{})
	if msg := m.refused("POST", "/api/blackboard", `{"key":"x","value":1}`, http.StatusConflict, nil); !strings.Contains(msg, "only a BehaviorTree.CPP tree") {
		t.Errorf("MDSL: %s", msg)
	}
}
