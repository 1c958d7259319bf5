package mistreevous_test

import (
	"errors"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mistreevous"
)

// TestMarshalNamesKindWithoutForm writes a tree of every Elixir kind (the
// tree of testdata/mdsl/elixir_kinds.mdsl) as Mistreevous JSON: the error
// is a *DefinitionError naming the first node that no JSON form holds (the
// threshold), its kind and its place, with no encoding/json wrapping; a
// tree whose kinds only the Elixir JSON form holds says so.
func TestMarshalNamesKindWithoutForm(t *testing.T) {
	a := func(name string) bt.Node[bt.Call] { return bt.Leaf(bt.Call{Name: name}) }
	def := bt.Root(bt.Sequence(
		bt.RepeatN(3, a("look around")),
		bt.Random(a("left"), a("right")),
		bt.RandomWeighted(bt.WithWeight(1, bt.Negate(a("hide"))), bt.WithWeight(3, bt.RepeatUntilSucceed(a("search")))),
		bt.Threshold(-1, 1, a("north"), a("south")),
		bt.AlwaysSucceed(bt.AlwaysFail(a("give up"))),
	))
	_, err := mistreevous.Marshal(def)
	var de *bt.DefinitionError
	if !errors.As(err, &de) {
		t.Fatalf("error %v is not a *DefinitionError", err)
	}
	if de.Path != "[0].child.children[3]" || !strings.Contains(de.Msg, "threshold") || !strings.Contains(de.Msg, "neither") || strings.Contains(err.Error(), "json:") {
		t.Errorf("error %q (path %q): want the threshold at [0].child.children[3], with no JSON form", err, de.Path)
	}
	_, err = mistreevous.Marshal(def.Child(0).Child(0))
	if !errors.As(err, &de) || de.Path != "[0].child" || !strings.Contains(de.Msg, "repeat_n") || !strings.Contains(de.Msg, "MarshalJSON") {
		t.Errorf("repeat_n: error %v, want its place and a pointer to MarshalJSON", err)
	}
}

// TestLimitsMatchTheEngine checks that every tree within the limits runs
// on the stepped engine: MaxDepth levels compile (the root package's
// TestLimitsMatchMistreevous checks MaxNodes); a
// level more does not.
func TestLimitsMatchTheEngine(t *testing.T) {
	agent := bt.Agent[bt.Call]{Action: func(bt.Call) bt.Result { return bt.ResultSuccess }}
	deep := func(depth int) bt.Node[bt.Call] {
		n := bt.Leaf(bt.Call{Name: "A"})
		for range depth - 2 {
			n = bt.Negate(n)
		}
		return bt.Root(n)
	}
	if _, err := bt.NewStepped(deep(mistreevous.MaxDepth), agent); err != nil {
		t.Errorf("a tree of depth MaxDepth: %v", err)
	}
	if _, err := bt.NewStepped(deep(mistreevous.MaxDepth+1), agent); err == nil {
		t.Errorf("a tree of depth MaxDepth+1 runs: the limit is below the engine's")
	}
	if _, err := mistreevous.Marshal(deep(mistreevous.MaxDepth)); err != nil {
		t.Errorf("marshal, depth MaxDepth: %v", err)
	}
	if _, err := mistreevous.Marshal(deep(mistreevous.MaxDepth + 1)); err == nil || !strings.Contains(err.Error(), "deeper than") {
		t.Errorf("marshal, depth MaxDepth+1: %v", err)
	}
}
