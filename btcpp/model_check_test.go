package btcpp

import (
	"strings"
	"testing"
	"testing/fstest"
)

// modelFactory registers the leaves of the model tests.
func modelFactory(t *testing.T) *Factory {
	t.Helper()
	f := NewFactory()
	ok := func(*Call) (Status, error) { return Success, nil }
	if err := f.RegisterCondition("Near", ok, InputPort("distance", "int").WithDefault("3")); err != nil {
		t.Fatal(err)
	}
	if err := f.RegisterAction("Move", Action{OnStart: ok}, InOutPort("target", "double"), OutputPort("done", "bool")); err != nil {
		t.Fatal(err)
	}
	return f
}

// TestCheckModelsCanonical: the canonical XML's <TreeNodesModel>, written
// from the registrations, agrees with them.
func TestCheckModelsCanonical(t *testing.T) {
	f := modelFactory(t)
	doc, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence><Near/><Move target="{t}" done="{d}"/></Sequence></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := doc.Format()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "<TreeNodesModel>") {
		t.Fatalf("no model written:\n%s", out)
	}
	if errs := f.CheckModels(string(out), nil, ""); len(errs) != 0 {
		t.Errorf("the canonical XML's model disagrees with its registrations: %v\n%s", errs, out)
	}
}

// TestCheckModels: each disagreement is reported at its element, and
// included documents are checked too.
func TestCheckModels(t *testing.T) {
	f := modelFactory(t)
	src := `<root BTCPP_format="4">
  <include path="more.xml"/>
  <TreeNodesModel>
    <Action ID="Near">
      <input_port name="distance" type="std::string"/>
      <input_port name="extra"/>
    </Action>
    <Action ID="Move">
      <input_port name="target" type="double"/>
      <output_port name="done" type="bool"/>
    </Action>
    <Action ID="Unknown"><input_port name="x"/></Action>
  </TreeNodesModel>
</root>`
	fsys := fstest.MapFS{"more.xml": {Data: []byte(`<root BTCPP_format="4">
<TreeNodesModel>
  <Condition ID="Move"/>
</TreeNodesModel>
</root>`)}}
	var got []string
	for _, err := range f.CheckModels(src, fsys, ".") {
		got = append(got, err.Error())
	}
	want := []string{
		"4:5: RuntimeError: the model declares Near as <Action>, but it is registered as a condition",
		"5:7: RuntimeError: the port [distance] of Near has the type [std::string] in the model, [int] in its registration",
		"5:7: RuntimeError: the port [distance] of Near has no default in the model, the default [3] in its registration",
		"6:7: RuntimeError: the model declares the port [extra] of Near, which its registration does not",
		"9:7: RuntimeError: the port [target] of Move is input_port in the model, inout_port in its registration",
		"3:3: RuntimeError: the model declares Move as <Condition>, but it is registered as an action",
		"3:3: RuntimeError: the model of Move does not declare its port [target]",
		"3:3: RuntimeError: the model of Move does not declare its port [done]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Without the file system, the include is not read.
	if n := len(f.CheckModels(src, nil, "")); n != 5 {
		t.Errorf("without fsys: %d errors, want 5", n)
	}
}
