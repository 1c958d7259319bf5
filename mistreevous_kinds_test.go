package behaviortree

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// TestMarshalMistreevousNamesKindWithoutForm writes the shipped sample of
// every Elixir kind as Mistreevous JSON: the error is a *DefinitionError
// naming the first node that no JSON form holds (the threshold), its kind
// and its place, with no encoding/json wrapping; a tree whose kinds only
// the Elixir JSON form holds says so.
func TestMarshalMistreevousNamesKindWithoutForm(t *testing.T) {
	src, err := os.ReadFile("testdata/mdsl/elixir_kinds.mdsl")
	if err != nil {
		t.Fatal(err)
	}
	str, err := ParseMDSLFunc("elixir_kinds.mdsl", src, func(s string) (string, error) { return s, nil })
	if err != nil {
		t.Fatal(err)
	}
	def := callsOf(str)
	_, err = MarshalMistreevous(def)
	var de *DefinitionError
	if !errors.As(err, &de) {
		t.Fatalf("error %v is not a *DefinitionError", err)
	}
	if de.Path != "[0].child.children[3]" || !strings.Contains(de.Msg, "threshold") || !strings.Contains(de.Msg, "neither") || strings.Contains(err.Error(), "json:") {
		t.Errorf("error %q (path %q): want the threshold at [0].child.children[3], with no JSON form", err, de.Path)
	}
	_, err = MarshalMistreevous(def.Child(0).Child(0))
	if !errors.As(err, &de) || de.Path != "[0].child" || !strings.Contains(de.Msg, "repeat_n") || !strings.Contains(de.Msg, "MarshalJSON") {
		t.Errorf("repeat_n: error %v, want its place and a pointer to MarshalJSON", err)
	}
}

// callsOf returns a tree of string leaves as a tree of Calls without
// arguments.
func callsOf(n Node[string]) Node[Call] {
	nd := n.n
	if nd.kind == KindLeaf {
		return Leaf(Call{Name: nd.leaf})
	}
	kids := make([]Node[Call], len(nd.children))
	for i, c := range nd.children {
		kids[i] = callsOf(Node[string]{c})
	}
	out, err := Build(nd.kind, n.Params(), kids...)
	if err != nil {
		panic(err)
	}
	return out
}
