package btcpp

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// fuzzFormatFactory registers the leaves that FuzzFormat's texts may use:
// an action, a sync action and a condition, with ports of each direction.
func fuzzFormatFactory(t testing.TB) *Factory {
	f := NewFactory()
	ok := func(*Call) (Status, error) { return Success, nil }
	if err := f.RegisterAction("A", Action{OnStart: ok}, InputPort("goal", "int").WithDefault("3"), OutputPort("out", "string")); err != nil {
		t.Fatal(err)
	}
	if err := f.RegisterSync("S", ok, InOutPort("x", "double")); err != nil {
		t.Fatal(err)
	}
	if err := f.RegisterCondition("C", ok, InputPort("flag", "bool")); err != nil {
		t.Fatal(err)
	}
	f.Enum("RED", 1)
	return f
}

// FuzzFormat checks the document writer on any text the reader takes:
// the canonical XML reads back, writes again to the same bytes, and
// builds the same main tree (or fails the same way) as the text it came
// from.
func FuzzFormat(f *testing.F) {
	for _, s := range []string{
		`<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence><A goal="{g}"/><C flag="true"/><S x="{x}"/></Sequence></BehaviorTree></root>`,
		`<root BTCPP_format="4" main_tree_to_execute="M"><BehaviorTree ID="M"><Fallback _skipIf="x > 2"><SubTree ID="T" g="{g}" _autoremap="true"/><Script code="x := RED"/></Fallback></BehaviorTree><BehaviorTree ID="T"><ReactiveSequence><C flag="{flag}"/><A out="{o}"/></ReactiveSequence></BehaviorTree><TreeNodesModel><SubTree ID="T"><input_port name="g" default="7"/></SubTree></TreeNodesModel></root>`,
		`<root BTCPP_format="4"><!-- c --><BehaviorTree><Repeat num_cycles="2"><Timeout msec="10"><Action ID="A"/></Timeout></Repeat></BehaviorTree></root>`,
		`<root><BehaviorTree ID="X"><Switch2 variable="{v}" case_1="1" case_2="RED"><A/><S/><C/></Switch2></BehaviorTree></root>`,
	} {
		f.Add(s)
	}
	if paths, _ := filepath.Glob("testdata/*.xml"); len(paths) > 0 {
		for _, p := range paths {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(string(b))
			}
		}
	}
	fac := fuzzFormatFactory(f)
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := fac.Parse(src)
		if err != nil {
			return
		}
		out, err := doc.Format()
		if err != nil {
			t.Fatalf("Format of a document that parsed: %v", err)
		}
		back, err := fac.Parse(string(out))
		if err != nil {
			t.Fatalf("the canonical XML does not read back: %v\n%s", err, out)
		}
		again, err := back.Format()
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("written again differently (%v):\n%s\n%s", err, out, again)
		}
		if a, b := buildOf(doc, ""), buildOf(back, ""); !reflect.DeepEqual(a, b) {
			t.Fatalf("builds differently:\n%+v\n%+v\n%s", a, b, out)
		}
	})
}
