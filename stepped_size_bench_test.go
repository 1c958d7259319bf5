package behaviortree

import (
	"fmt"
	"testing"
)

// sizedSequences returns a balanced tree of sequences of the given height
// under a repeat (2^(height+1)+1 nodes), whose actions each run three
// steps and then succeed: a step changes the states of a few nodes, on
// one path, of a tree of any size.
func sizedSequences(height int) (Node[int], Agent[int]) {
	var build func(h, first int) Node[int]
	build = func(h, first int) Node[int] {
		if h == 0 {
			return Leaf(first)
		}
		half := 1 << (h - 1)
		return Sequence(build(h-1, first), build(h-1, first+half))
	}
	count := make([]uint8, 1<<height)
	agent := Agent[int]{Action: func(v int) Result {
		count[v]++
		if count[v]%4 == 0 {
			return ResultSuccess
		}
		return ResultRunning
	}}
	return Root(Repeat(build(height, 0))), agent
}

// BenchmarkStepSize steps trees of growing size in which a step changes a
// few node states: B/op is what a version costs beyond the work.
func BenchmarkStepSize(b *testing.B) {
	for _, h := range []int{5, 8, 12, 15} {
		def, agent := sizedSequences(h)
		t, err := NewStepped(def, agent)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("nodes=%d", t.size()), func(b *testing.B) {
			b.ReportAllocs()
			v := t
			for range b.N {
				if v, err = v.Step(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
