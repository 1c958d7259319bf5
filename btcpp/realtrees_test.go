package btcpp

import (
	"fmt"
	"testing"
)

// Tests of forms that trees written by real projects use, each pinned to
// the rule of BehaviorTree.CPP 4.10 it follows.

// TestAutoremapValue: a SubTree's _autoremap is read with
// convertFromString<bool>: the eight bool spellings turn auto-remapping
// on or off, and any other value is a RuntimeError when the SubTree is
// built.
func TestAutoremapValue(t *testing.T) {
	const xml = `<root BTCPP_format="4" main_tree_to_execute="M">
  <BehaviorTree ID="M"><Sequence><Script code="x := 1"/><SubTree ID="S" _autoremap="%s"/></Sequence></BehaviorTree>
  <BehaviorTree ID="S"><ScriptCondition code="x == 1"/></BehaviorTree>
</root>`
	for _, c := range []struct {
		value string
		want  Status // Success: remapped; a missing x is a tick error
		bad   bool   // a build error
	}{
		{"true", Success, false}, {"1", Success, false}, {"TRUE", Success, false}, {"True", Success, false},
		{"false", Idle, false}, {"0", Idle, false}, {"FALSE", Idle, false}, {"False", Idle, false},
		{"yes", Idle, true}, {"", Idle, true}, {"true ", Idle, true}, {"on", Idle, true}, {"{=}", Idle, true},
	} {
		f := NewFactory()
		doc, err := f.Parse(fmt.Sprintf(xml, c.value))
		if err != nil {
			t.Fatalf("%q: parse: %v", c.value, err)
		}
		tree, err := doc.Build("")
		if c.bad {
			if typ, _ := errorType(err); typ != RuntimeError {
				t.Errorf("_autoremap=%q: build error %v, want a RuntimeError", c.value, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("_autoremap=%q: build: %v", c.value, err)
			continue
		}
		_, res, err := tree.Tick()
		switch {
		case c.want == Success && (err != nil || res != Success):
			t.Errorf("_autoremap=%q: %v %v, want SUCCESS (x remapped)", c.value, res, err)
		case c.want == Idle && err == nil:
			t.Errorf("_autoremap=%q: %v, want the error of a missing x (not remapped)", c.value, res)
		}
	}
}
