package peers

// Our benchmark of FluentTick3 (workload_test.go): a FluentBehaviourTree
// sequence of fluentLeaves succeeding leaves, built with our fluent.Builder
// and ticked with Stepped.Tick, one tick per iteration, side by side with
// BenchmarkPeerFluentTick3 (go-behaviortree's memoryless Sequence).

import (
	"testing"
	"time"

	ours "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/fluent"
)

// oursFluent3 builds the FluentTick3 tree with our fluent.Builder, counting
// leaf calls in *calls.
func oursFluent3(calls *int) (ours.Node[ours.Fluent], error) {
	ok := func(ours.TimeData) ours.Status {
		*calls++
		return ours.Success
	}
	b := fluent.NewBuilder().Sequence("seq")
	for range fluentLeaves {
		b.Do("ok", ok)
	}
	return b.End().Build()
}

// BenchmarkFluentTick3 measures one tick of a memoryless sequence of three
// succeeding leaves with our fluent.Builder's tree.
func BenchmarkFluentTick3(b *testing.B) {
	var calls int
	def, err := oursFluent3(&calls)
	if err != nil {
		b.Fatal(err)
	}
	t := benchFluent(b, def)
	if t.State() != ours.StateSucceeded {
		b.Fatalf("state %v; want SUCCEEDED", t.State())
	}
	b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
}

// benchFluent ticks a Fluent tree of def b.N times, timed, and returns the
// last version.
func benchFluent(b *testing.B, def ours.Node[ours.Fluent]) ours.Stepped[ours.Fluent] {
	t, err := fluent.New(def)
	if err != nil {
		b.Fatal(err)
	}
	td := ours.TimeData{DeltaTime: time.Second / 60}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if t, err = t.Tick(td); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	return t
}

// TestOursFluent3 checks that our FluentTick3 tree succeeds at every tick
// with one call of each leaf.
func TestOursFluent3(t *testing.T) {
	var calls int
	def, err := oursFluent3(&calls)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := fluent.New(def)
	if err != nil {
		t.Fatal(err)
	}
	for tick := range 100 {
		if tr, err = tr.Tick(ours.TimeData{DeltaTime: 500 * time.Millisecond}); err != nil || tr.State() != ours.StateSucceeded {
			t.Fatalf("tick %d: %v, %v; want SUCCEEDED", tick, tr.State(), err)
		}
	}
	if calls != 100*fluentLeaves {
		t.Errorf("%d calls in 100 ticks; want %d", calls, 100*fluentLeaves)
	}
}

// oursFluent256 builds workload (b)'s tree (workload_test.go) with our
// fluent.Builder: memoryless selectors and sequences over treeBLeaves
// leaves, each answering the next result of r.
func oursFluent256(r *results) (ours.Node[ours.Fluent], error) {
	leaf := func(ours.TimeData) ours.Status {
		if r.next() {
			return ours.Success
		}
		return ours.Failure
	}
	b := fluent.NewBuilder()
	var build func(height int)
	build = func(height int) {
		if height == 0 {
			b.Do("leaf", leaf)
			return
		}
		if (treeBHeight-height)%2 == 0 {
			b.Selector("selector")
		} else {
			b.Sequence("sequence")
		}
		build(height - 1)
		build(height - 1)
		b.End()
	}
	build(treeBHeight)
	return b.Build()
}

// BenchmarkFluentTick256 measures one tick of workload (b)'s tree built
// with our fluent.Builder, side by side with BenchmarkPeerStepB
// (go-behaviortree's Sequence and Selector are memoryless too).
func BenchmarkFluentTick256(b *testing.B) {
	r := newResults()
	def, err := oursFluent256(r)
	if err != nil {
		b.Fatal(err)
	}
	benchFluent(b, def)
	b.ReportMetric(float64(r.calls)/float64(b.N), "calls/op")
}

// TestOursFluent256 checks that our fluent.Builder's tree of workload (b)
// completes at every tick, with about 41 leaf calls per tick, as
// go-behaviortree's does.
func TestOursFluent256(t *testing.T) {
	r := newResults()
	def, err := oursFluent256(r)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := fluent.New(def)
	if err != nil {
		t.Fatal(err)
	}
	for tick := range workloadSteps {
		if tr, err = tr.Tick(ours.TimeData{}); err != nil || tr.State() == ours.StateRunning {
			t.Fatalf("tick %d: %v, %v; want a completed tree", tick, tr.State(), err)
		}
	}
	if per := float64(r.calls) / workloadSteps; per < 39 || per > 43.5 {
		t.Errorf("%.2f calls per tick, want about 41.25", per)
	}
}
