package behaviortree

import (
	"strconv"
	"testing"
)

// memory16 returns a memory of 16 int keys, and its keys.
func memory16() (Memory, []string) {
	var m Memory
	keys := make([]string, 16)
	for i := range keys {
		keys[i] = "key" + strconv.Itoa(i)
		m = m.Set(keys[i], i*1000)
	}
	return m, keys
}

// BenchmarkMemoryGet reads a key of a memory of 16 keys.
func BenchmarkMemoryGet(b *testing.B) {
	m, keys := memory16()
	b.ReportAllocs()
	n := 0
	for i := range b.N {
		v, _ := m.Get(keys[i&15])
		n += v.(int)
	}
	sinkInt = n
}

// BenchmarkMemorySet sets a key of a memory of 16 keys to a new int.
func BenchmarkMemorySet(b *testing.B) {
	m, keys := memory16()
	b.ReportAllocs()
	var out Memory
	for i := range b.N {
		out = m.Set(keys[i&15], i)
	}
	sinkMemory = out
}

var (
	sinkInt    int
	sinkMemory Memory
)

// workloadAMemory is workload (a) with an agent of memory forms, which
// writes the count of GoRight calls to memory when write is set (one write
// on most steps).
func workloadAMemory(write bool) (Node[int], Agent[int]) {
	def, plain, _ := workloadA()
	act := plain.Action
	gr := NewKey[int]("goRight")
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

func TestMemoryRetainedPerVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 200,000 versions")
	}
	def, agent := workloadAMemory(true)
	s, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	s = s.WithMemory(Memory{}.Set("goRight", 1000)) // past the small ints Go keeps boxed
	per := retainedPerVersion(t, s, 200_000)
	t.Logf("retained per version, writing one int key a step: %.1f B", per)
	if per > 200 {
		t.Errorf("a version keeps %.1f B, want <= 200", per)
	}
}
