package peers

// Our benchmark of FluentTick3 (workload_test.go): a FluentBehaviourTree
// sequence of fluentLeaves succeeding leaves, built with our FluentBuilder
// and ticked with Stepped.Tick, one tick per iteration, side by side with
// BenchmarkPeerFluentTick3 (go-behaviortree's memoryless Sequence).

import (
	"testing"

	ours "github.com/zipbt/behaviortree"
)

// oursFluent3 builds the FluentTick3 tree with our FluentBuilder, counting
// leaf calls in *calls.
func oursFluent3(calls *int) (ours.Node[ours.Fluent], error) {
	ok := func(ours.TimeData) ours.Status {
		*calls++
		return ours.Success
	}
	b := ours.NewFluentBuilder().Sequence("seq")
	for range fluentLeaves {
		b.Do("ok", ok)
	}
	return b.End().Build()
}

// BenchmarkFluentTick3 measures one tick of a memoryless sequence of three
// succeeding leaves with our FluentBuilder's tree.
func BenchmarkFluentTick3(b *testing.B) {
	var calls int
	def, err := oursFluent3(&calls)
	if err != nil {
		b.Fatal(err)
	}
	t, err := ours.NewFluent(def)
	if err != nil {
		b.Fatal(err)
	}
	td := ours.TimeData{DeltaTime: 0.016666668}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if t, err = t.Tick(td); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if t.State() != ours.StateSucceeded {
		b.Fatalf("state %v; want SUCCEEDED", t.State())
	}
	b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
}

// TestOursFluent3 checks that our FluentTick3 tree succeeds at every tick
// with one call of each leaf.
func TestOursFluent3(t *testing.T) {
	var calls int
	def, err := oursFluent3(&calls)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ours.NewFluent(def)
	if err != nil {
		t.Fatal(err)
	}
	for tick := range 100 {
		if tr, err = tr.Tick(ours.TimeData{DeltaTime: 0.5}); err != nil || tr.State() != ours.StateSucceeded {
			t.Fatalf("tick %d: %v, %v; want SUCCEEDED", tick, tr.State(), err)
		}
	}
	if calls != 100*fluentLeaves {
		t.Errorf("%d calls in 100 ticks; want %d", calls, 100*fluentLeaves)
	}
}
