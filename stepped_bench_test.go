package behaviortree

import (
	"runtime"
	"testing"

	"github.com/zipbt/behaviortree/attr"
)

// The workloads of issue 10, as in bench/peers/workload_test.go.

// Workload (a): root { sequence { action [TopLeft] repeat { selector {
// action [GoRight] action [NextRow] } } } }, every 10th GoRight failing.
const (
	topLeft = iota
	goRight
	nextRow
)

func workloadA() (Node[int], Agent[int], *int) {
	def := Root(Sequence(Leaf(topLeft), Repeat(Select(Leaf(goRight), Leaf(nextRow)))))
	calls := new(int)
	gr := 0
	agent := Agent[int]{Action: func(v int) Result {
		*calls++
		if v == goRight {
			gr++
			if gr%10 == 0 {
				return ResultFailure
			}
		}
		return ResultSuccess
	}}
	return def, agent, calls
}

// Workload (b): a balanced selector/sequence tree of height 8 over 256
// actions with 50/50 results from a seeded xorshift64.
func workloadB() (Node[int], Agent[int], *int) {
	var build func(height, first int) Node[int]
	build = func(height, first int) Node[int] {
		if height == 0 {
			return Leaf(first)
		}
		half := 1 << (height - 1)
		l, r := build(height-1, first), build(height-1, first+half)
		if (8-height)%2 == 0 {
			return Select(l, r)
		}
		return Sequence(l, r)
	}
	x := uint64(0x9E3779B97F4A7C15)
	calls := new(int)
	agent := Agent[int]{Action: func(int) Result {
		*calls++
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if x>>63 != 0 {
			return ResultSuccess
		}
		return ResultFailure
	}}
	return Root(build(8, 0)), agent, calls
}

// workloadGuarded: a patrol guarded by an enemy check: root { selector {
// sequence while(Calm) { repeat { sequence { action Walk action Look } } }
// action Fight } }, Calm false one step in 20 (which aborts the patrol).
func workloadGuarded() (Node[int], Agent[int]) {
	const walk, look, fight, calm = 0, 1, 2, 3
	def := Root(Select(
		Sequence(Repeat(Sequence(Leaf(walk), Leaf(look)))).With(attr.While(calm)),
		Leaf(fight)))
	n := 0
	agent := Agent[int]{
		Action: func(v int) Result {
			if v == walk {
				return ResultRunning
			}
			return ResultSuccess
		},
		Condition: func(int) bool { n++; return n%20 != 0 },
	}
	return def, agent
}

// workloadParallel: four workers in a parallel under a repeat, each
// running for a few steps: root { repeat { parallel { action W0 .. W3 } } }.
func workloadParallel() (Node[int], Agent[int]) {
	def := Root(Repeat(Parallel(Leaf(0), Leaf(1), Leaf(2), Leaf(3))))
	var count [4]int
	agent := Agent[int]{Action: func(v int) Result {
		count[v]++
		if count[v]%(v+2) == 0 {
			return ResultSuccess
		}
		return ResultRunning
	}}
	return def, agent
}

func benchStepped(b *testing.B, def Node[int], agent Agent[int]) {
	t, err := NewStepped(def, agent)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		t, err = t.Step()
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepA is workload (a): one b.N iteration is one Step.
func BenchmarkStepA(b *testing.B) {
	def, agent, calls := workloadA()
	benchStepped(b, def, agent)
	b.ReportMetric(float64(*calls)/float64(b.N), "calls/step")
}

// BenchmarkStepB is workload (b): one b.N iteration is one Step.
func BenchmarkStepB(b *testing.B) {
	def, agent, calls := workloadB()
	benchStepped(b, def, agent)
	b.ReportMetric(float64(*calls)/float64(b.N), "calls/step")
}

// BenchmarkStepAEvents is workload (a) with every event delivered.
func BenchmarkStepAEvents(b *testing.B) {
	def, agent, _ := workloadA()
	t, err := NewStepped(def, agent)
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	fn := func(Event[int]) { n++ }
	b.ReportAllocs()
	for range b.N {
		if t, err = t.StepWith(fn); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n)/float64(b.N), "events/step")
}

// BenchmarkStepGuarded is a guarded patrol, aborted one step in 20.
func BenchmarkStepGuarded(b *testing.B) {
	def, agent := workloadGuarded()
	benchStepped(b, def, agent)
}

// BenchmarkStepParallel is a repeated parallel of four running actions.
func BenchmarkStepParallel(b *testing.B) {
	def, agent := workloadParallel()
	benchStepped(b, def, agent)
}

func TestSteppedWorkloads(t *testing.T) {
	def, agent, calls := workloadA()
	tr, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	for range 1000 {
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if *calls != 1+1000+100 || tr.State() != StateRunning {
		t.Errorf("workload (a): %d calls in 1000 steps, state %v; want 1101, RUNNING", *calls, tr.State())
	}
	def, agent, calls = workloadB()
	if tr, err = NewStepped(def, agent); err != nil {
		t.Fatal(err)
	}
	for range 10000 {
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
		if tr.State() == StateRunning {
			t.Fatal("workload (b) did not complete")
		}
	}
	if per := float64(*calls) / 10000; per < 39 || per > 43.5 {
		t.Errorf("workload (b): %.2f calls per step, want about 41.26", per)
	}
}

// retainedPerVersion keeps n versions made by stepping first, in a slice
// allocated for them, and returns the heap bytes per version: the slice's
// share (the version values) plus what they point to.
func retainedPerVersion(t *testing.T, first Stepped[int], n int) float64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	versions := make([]Stepped[int], n)
	cur := first
	var err error
	for i := range versions {
		if cur, err = cur.Step(); err != nil {
			t.Fatal(err)
		}
		versions[i] = cur
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(versions)
	return float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / float64(n)
}

func TestSteppedRetainedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates a million versions")
	}
	def, agent, _ := workloadA()
	a, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	perA := retainedPerVersion(t, a, 1_000_000)
	def, agent, _ = workloadB()
	b, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	perB := retainedPerVersion(t, b, 200_000)
	t.Logf("retained per version: (a) %.1f B, (b) %.1f B", perA, perB)
	if perA > 48 {
		t.Errorf("workload (a) keeps %.1f B per version, want <= 48", perA)
	}
	if perB > 256 {
		t.Errorf("workload (b) keeps %.1f B per version, want <= 256", perB)
	}
}
