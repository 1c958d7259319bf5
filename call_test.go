package behaviortree

import (
	"reflect"
	"testing"

	"github.com/zipbt/behaviortree/kind"
)

// TestFunctionsArgsAreCopies: a handler that writes to its args changes
// neither the definition nor what the next call (of any version) gets.
func TestFunctionsArgsAreCopies(t *testing.T) {
	def, err := parseMDSL("args", []byte(`root { sequence { action [Hit, 3, "left"] condition [Near, true] action [Hit, 3, "left"] } }`))
	if err != nil {
		t.Fatal(err)
	}
	var seen [][]any
	vandal := func(args []any) {
		seen = append(seen, append([]any(nil), args...))
		for i := range args {
			args[i] = "vandalised"
		}
	}
	fns := Functions{
		Actions:    map[string]func([]any) Result{"Hit": func(args []any) Result { vandal(args); return ResultSuccess }},
		Conditions: map[string]func([]any) bool{"Near": func(args []any) bool { vandal(args); return true }},
	}
	ag, err := fns.Agent(def)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewStepped(def, ag)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // the second step may replay a cached path
		if _, err := tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	want := [][]any{{3.0, "left"}, {true}, {3.0, "left"}, {3.0, "left"}, {true}, {3.0, "left"}}
	if !reflect.DeepEqual(seen, want) {
		t.Errorf("the handlers got %v, want %v", seen, want)
	}
	for c := range def.Preorder() {
		if c.n.kind == kind.Leaf || c.n.kind == kind.Condition {
			for _, a := range c.n.leaf.Args {
				if a == "vandalised" {
					t.Fatalf("the definition's %s was changed by a handler: %v", c.n.leaf.Name, c.n.leaf.Args)
				}
			}
		}
	}
}
