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

// TestInternalAsyncSeam checks that InternalAsync gives an Async its id
// and answers its looks as a step and a save do for hook.Module, and does
// nothing for the zero Seam.
func TestInternalAsyncSeam(t *testing.T) {
	zero := firstArg4(bt.InternalAsync)
	a := bt.NewAsync()
	a.Succeed()
	for _, op := range []hook.AsyncOp{hook.AsyncTake, hook.AsyncLook, hook.AsyncFixed} {
		if r, n := bt.InternalAsync(zero, a, op, 7); r != bt.Running || n != 0 {
			t.Errorf("zero Seam, op %d: %v, %d; want Running, 0", op, r, n)
		}
	}
	if a.ID() != 0 {
		t.Errorf("zero Seam: the id is %d, want 0", a.ID())
	}

	b := bt.NewAsync()
	bt.InternalAsync(hook.Module, b, hook.AsyncTake, 3)
	bt.InternalAsync(hook.Module, b, hook.AsyncTake, 4)
	if b.ID() != 3 {
		t.Errorf("hook.Module: the id is %d, want 3 (the first take's)", b.ID())
	}
	// Looks 1 and 2 see it pending; settled, look 2 again still does,
	// look 3 (the first made after) sees it, and so does every later one.
	for j := uint64(1); j <= 2; j++ {
		if r, _ := bt.InternalAsync(hook.Module, b, hook.AsyncLook, j); r != bt.Running {
			t.Errorf("look %d before the settlement: %v", j, r)
		}
	}
	b.Fail()
	if r, d := bt.InternalAsync(hook.Module, b, hook.AsyncFixed, 1); r != bt.Failure || d != 2 {
		t.Errorf("fixed from look 1: %v, %d; want Failure, 2", r, d)
	}
	for j, want := range map[uint64]bt.Status{2: bt.Running, 3: bt.Failure, 9: bt.Failure} {
		if r, _ := bt.InternalAsync(hook.Module, b, hook.AsyncLook, j); r != want {
			t.Errorf("look %d after the settlement: %v, want %v", j, r, want)
		}
	}
}

// firstArg4 is firstArg for a function of four parameters and two results.
func firstArg4[S, A, B, C, R1, R2 any](func(S, A, B, C) (R1, R2)) S {
	var s S
	return s
}
