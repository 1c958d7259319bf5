package peers

// Our benchmarks of the workloads of workload_test.go, with the stepped
// engine of github.com/zipbt/behaviortree: one iteration is one Step of the
// root, which returns a new version (the old one stays valid).

import (
	"testing"

	ours "github.com/zipbt/behaviortree"
)

// oursAgent runs leaves that are the workload's plain functions.
var oursAgent = ours.Agent[func() bool]{Action: func(fn func() bool) ours.Result {
	if fn() {
		return ours.ResultSuccess
	}
	return ours.ResultFailure
}}

// oursTreeA builds workload (a).
func oursTreeA(w *workloadA) ours.Node[func() bool] {
	return ours.Root(ours.Sequence(
		ours.Leaf(w.TopLeft),
		ours.Repeat(ours.Select(ours.Leaf(w.GoRight), ours.Leaf(w.NextRow))),
	))
}

// oursTreeB builds workload (b).
func oursTreeB(r *results) ours.Node[func() bool] {
	return ours.Root(buildTreeB(
		func(int) ours.Node[func() bool] { return ours.Leaf(r.next) },
		ours.Select[func() bool],
		ours.Sequence[func() bool],
	))
}

func benchOurs(b *testing.B, def ours.Node[func() bool], calls func() int) {
	t, err := ours.NewStepped(def, oursAgent)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if t, err = t.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(calls())/float64(b.N), "calls/op")
}

// BenchmarkStepA is workload (a) on our stepped engine.
func BenchmarkStepA(b *testing.B) {
	w := &workloadA{}
	benchOurs(b, oursTreeA(w), w.calls)
}

// BenchmarkStepB is workload (b) on our stepped engine.
func BenchmarkStepB(b *testing.B) {
	r := newResults()
	benchOurs(b, oursTreeB(r), func() int { return r.calls })
}

// TestOursWorkloads checks that our trees do what the workloads say.
func TestOursWorkloads(t *testing.T) {
	w := &workloadA{}
	a, err := ours.NewStepped(oursTreeA(w), oursAgent)
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		if a, err = a.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if w.calls() != 1101 || a.State() != ours.StateRunning {
		t.Errorf("(a): %d calls in 1000 steps, running %v; want 1101, true", w.calls(), a.State() == ours.StateRunning)
	}
	r := newResults()
	b, err := ours.NewStepped(oursTreeB(r), oursAgent)
	if err != nil {
		t.Fatal(err)
	}
	for range 10000 {
		if b, err = b.Step(); err != nil {
			t.Fatal(err)
		}
		if b.State() == ours.StateRunning {
			t.Fatal("(b) did not complete in one step")
		}
	}
	if per := float64(r.calls) / 10000; per < treeBExpectedCalls-1 || per > treeBExpectedCalls+1 {
		t.Errorf("(b): %.2f calls per step, want about %.2f", per, treeBExpectedCalls)
	}
}
