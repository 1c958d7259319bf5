package behaviortree_test

import (
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/fluent"
)

// fluentTick3 builds a FluentBehaviourTree sequence of three leaves that
// succeed, counting their calls in *calls.
func fluentTick3(calls *int) (bt.Node[bt.Fluent], error) {
	ok := func(bt.TimeData) bt.Status {
		*calls++
		return bt.Success
	}
	return fluent.NewBuilder().Sequence("seq").Do("a", ok).Do("b", ok).Do("c", ok).End().Build()
}

// fluentTree256 builds a balanced binary tree of 256 action leaves whose
// composite levels alternate selector (at the root) and sequence; each
// leaf call takes the next result of a seeded xorshift64 stream (success
// or failure, half and half), as workload (b) of bench/peers does.
func fluentTree256(calls *int) (bt.Node[bt.Fluent], error) {
	x := uint64(0x9E3779B97F4A7C15)
	leaf := func(bt.TimeData) bt.Status {
		*calls++
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if x>>63 != 0 {
			return bt.Success
		}
		return bt.Failure
	}
	b := fluent.NewBuilder()
	var build func(height int)
	build = func(height int) {
		if height == 0 {
			b.Do("leaf", leaf)
			return
		}
		if (8-height)%2 == 0 {
			b.Selector("sel")
		} else {
			b.Sequence("seq")
		}
		build(height - 1)
		build(height - 1)
		b.End()
	}
	build(8)
	return b.Build()
}

func benchFluent(b *testing.B, build func(*int) (bt.Node[bt.Fluent], error)) {
	var calls int
	def, err := build(&calls)
	if err != nil {
		b.Fatal(err)
	}
	t, err := fluent.New(def)
	if err != nil {
		b.Fatal(err)
	}
	td := bt.TimeData{DeltaTime: time.Second / 60}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if t, err = t.Tick(td); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
}

// BenchmarkFluentTick3 measures one tick of a FluentBehaviourTree sequence
// of three succeeding leaves.
func BenchmarkFluentTick3(b *testing.B) { benchFluent(b, fluentTick3) }

// BenchmarkFluentTick256 measures one tick of the 256-leaf balanced tree,
// which completes at every tick.
func BenchmarkFluentTick256(b *testing.B) { benchFluent(b, fluentTree256) }
