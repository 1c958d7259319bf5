package behaviortree_test

import (
	"slices"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/hook"
)

// firstArg returns the zero value of f's first parameter: how code outside
// this module, which cannot name hook.Seam, can still come by a Seam.
func firstArg[S, A, B, R any](func(S, A, B) R) S {
	var s S
	return s
}

// TestInternalFillSeam checks that InternalFill writes a just-built node
// in place for this module's Seam, and leaves the node untouched for the
// only other Seam a caller outside the module can make, the zero one.
func TestInternalFillSeam(t *testing.T) {
	fill := hook.Fill[string]{Name: "n", Attrs: []attr.Attr[string]{attr.While("c"), attr.Exit("x")}}

	zero := firstArg(bt.InternalFill[string])
	if zero.Valid() {
		t.Fatal("the zero Seam is valid")
	}
	shared := bt.Leaf("a")
	parent := bt.Sequence(shared)
	if got := bt.InternalFill(zero, shared, fill); got.Name() != "" || len(got.Attrs()) != 0 {
		t.Errorf("zero Seam: name %q, attributes %v: the node was written", got.Name(), got.Attrs())
	}
	if c := parent.Child(0); c.Name() != "" || len(c.Attrs()) != 0 {
		t.Errorf("zero Seam: the shared child has name %q, attributes %v", c.Name(), c.Attrs())
	}
	if startRefuses(parent) {
		t.Error("zero Seam: Start refuses the untouched tree")
	}

	fresh := bt.InternalFill(hook.Module, bt.Leaf("a"), fill)
	want := bt.Leaf("a").With(fill.Attrs...)
	if fresh.Name() != fill.Name || !slices.Equal(fresh.Attrs(), want.Attrs()) {
		t.Errorf("hook.Module: name %q, attributes %v; want %q, %v", fresh.Name(), fresh.Attrs(), fill.Name, want.Attrs())
	}
	if !startRefuses(fresh) {
		t.Error("hook.Module: Start takes a leaf with attributes, which only the stepped style runs")
	}
	if got := bt.InternalFill(hook.Module, bt.Node[string]{}, fill); !got.IsZero() {
		t.Error("the zero Node is filled")
	}
}

// startRefuses reports whether Start panics for def (a stepped definition).
func startRefuses(def bt.Node[string]) (refused bool) {
	defer func() { refused = recover() != nil }()
	bt.Start(def)
	return false
}

// TestInternalNewFluentSeam checks that InternalNewFluent with the zero
// Seam is NewStepped with the agent given, and with hook.Module is
// fluent.New: it runs a tree whose leaf takes the Blackboard with the
// agent of memory forms.
func TestInternalNewFluentSeam(t *testing.T) {
	def := bt.Root(bt.ReactiveSequence(bt.Leaf(bt.Fluent{Name: "a", DoWith: func(*bt.Blackboard) bt.Result { return bt.Result{Status: bt.Success} }})))
	var plain, memory int
	a := bt.Agent[bt.Fluent]{Action: func(bt.Fluent) bt.Result { plain++; return bt.Result{Status: bt.Success} }}
	ma := bt.Agent[bt.Fluent]{MemoryAction: func(bt.Fluent, *bt.Blackboard) bt.Result { memory++; return bt.Result{Status: bt.Success} }}
	for _, c := range []struct {
		name          string
		seam          hook.Seam
		plain, memory int
	}{{"zero Seam", hook.Seam{}, 1, 0}, {"hook.Module", hook.Module, 0, 1}} {
		plain, memory = 0, 0
		tr, err := bt.InternalNewFluent(c.seam, def, a, ma, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if tr, err = tr.Step(); err != nil || tr.State() != bt.StateSucceeded {
			t.Fatalf("%s: step: %v, %v", c.name, tr.State(), err)
		}
		if plain != c.plain || memory != c.memory {
			t.Errorf("%s: the agent's Action ran %d times, the memory agent's %d; want %d, %d", c.name, plain, memory, c.plain, c.memory)
		}
	}
}
