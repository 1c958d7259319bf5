package behaviortree

import (
	"testing"

	"github.com/zipbt/behaviortree/memory"
)

// workloadAMemory is workload (a) with an agent of memory forms, which
// writes the count of GoRight calls to memory when write is set (one write
// on most steps).
func workloadAMemory(write bool) (Node[int], Agent[int]) {
	def, plain, _ := workloadA()
	act := plain.Action
	gr := memory.NewKey[int]("goRight")
	return def, Agent[int]{MemoryAction: func(v int, b *Blackboard) Result {
		if write && v == goRight {
			n, _ := gr.Get(b)
			gr.Put(b, n+1)
		}
		return act(v)
	}}
}

// BenchmarkStepAMemory is workload (a) through an agent of memory forms
// that does not write: the cost of the Blackboard.
func BenchmarkStepAMemory(b *testing.B) {
	def, agent := workloadAMemory(false)
	benchStepped(b, def, agent)
}

// BenchmarkStepAMemoryWrite is workload (a) writing one int key to memory
// at each GoRight call.
func BenchmarkStepAMemoryWrite(b *testing.B) {
	def, agent := workloadAMemory(true)
	benchStepped(b, def, agent)
}

// BenchmarkStepAMemoryKept is workload (a) with a memory of one key that
// no step writes: a step keeps the version's memory without allocating,
// as long as withExtra sees that it is the same Map (==, shared storage).
func BenchmarkStepAMemoryKept(b *testing.B) {
	def, agent := workloadAMemory(false)
	s, err := NewStepped(def, agent)
	if err != nil {
		b.Fatal(err)
	}
	s = s.WithMemory(memory.Map{}.Set("goRight", 1000))
	b.ReportAllocs()
	for range b.N {
		if s, err = s.Step(); err != nil {
			b.Fatal(err)
		}
	}
}

func TestMemoryRetainedPerVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 200,000 versions")
	}
	def, agent := workloadAMemory(true)
	s, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	s = s.WithMemory(memory.Map{}.Set("goRight", 1000)) // past the small ints Go keeps boxed
	per := retainedPerVersion(t, s, 200_000)
	t.Logf("retained per version, writing one int key a step: %.1f B", per)
	if per > 200 {
		t.Errorf("a version keeps %.1f B, want <= 200", per)
	}
}
