package behaviortree_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// aiB is benchmark (a), the seed's AI B.
func aiB() bt.Node[string] {
	n, err := bt.ParseJSON[string]([]byte(`{"type":"sequence","children":["top_left",{"type":"repeat_until_fail","children":[{"type":"select","children":["go_right","beginning_of_next_row"]}]}]}`))
	if err != nil {
		panic(err)
	}
	return n
}

// balanced returns benchmark (b): levels levels of inner nodes with fan-out
// 2, the root a Select, levels alternating Select and Sequence, and leaves
// l0, l1, ... from left to right.
func balanced(levels int) bt.Node[string] {
	nodes := make([]bt.Node[string], 1<<levels)
	for i := range nodes {
		nodes[i] = bt.Leaf(fmt.Sprintf("l%d", i))
	}
	for level := levels - 1; level >= 0; level-- {
		up := make([]bt.Node[string], len(nodes)/2)
		for i := range up {
			if level%2 == 0 {
				up[i] = bt.Select(nodes[2*i], nodes[2*i+1])
			} else {
				up[i] = bt.Sequence(nodes[2*i], nodes[2*i+1])
			}
		}
		nodes = up
	}
	return nodes[0]
}

// bits returns a fixed-seed 50/50 pseudo-random signal array.
func bits(n int) []bool {
	r := rand.New(rand.NewPCG(2026, 12))
	out := make([]bool, n)
	for i := range out {
		out[i] = r.IntN(2) == 0
	}
	return out
}

var sinkString string

// BenchmarkAIB is (a): one op is Value() plus one signal; the handler always
// succeeds, except that every 10th go_right fails.
func BenchmarkAIB(b *testing.B) {
	tree := bt.Start(aiB())
	goRights := 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		v := tree.Value()
		if v == "go_right" {
			goRights++
			if goRights%10 == 0 {
				tree = tree.Fail()
				continue
			}
		}
		tree = tree.Succeed()
	}
	sinkString = tree.Value()
}

// BenchmarkBalanced8 is (b): the balanced depth-8 tree under fixed-seed
// 50/50 signals.
func BenchmarkBalanced8(b *testing.B) {
	tree := bt.Start(balanced(8))
	sig := bits(1 << 16)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sinkString = tree.Value()
		if sig[i&(1<<16-1)] {
			tree = tree.Succeed()
		} else {
			tree = tree.Fail()
		}
	}
}

// BenchmarkBattleshipC drives the seed's AI C with a fixed script of
// answers: two misses and a hit while guessing, then a hit (no signal), a
// miss, two hits and a sunk while narrowing down. Running stands for "leave
// the tree as it is".
func BenchmarkBattleshipC(b *testing.B) {
	c := bt.Sequence(bt.Leaf("random_guess"), bt.Select(
		bt.Select(bt.Leaf("go_right"), bt.Leaf("go_left")),
		bt.Select(bt.Leaf("go_up"), bt.Leaf("go_down"))))
	script := []bt.Status{bt.Failure, bt.Failure, bt.Success, bt.Running, bt.Failure, bt.Running, bt.Running, bt.Success}
	tree := bt.Start(c)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sinkString = tree.Value()
		tree = tree.Signal(script[i%len(script)])
	}
}

// thousand returns a 1,023-node tree for the Start and JSON benchmarks: the
// balanced tree with 9 levels of inner nodes.
func thousand() bt.Node[string] { return balanced(9) }

// BenchmarkStart1000 starts a 1,023-node tree (after its first Start, which
// compiles the definition once).
func BenchmarkStart1000(b *testing.B) {
	n := thousand()
	bt.Start(n)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sinkString = bt.Start(n).Value()
	}
}

// BenchmarkFirstStart1000 is the one-time cost of a definition's first
// Start: building and compiling a fresh 1,023-node tree.
func BenchmarkFirstStart1000(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sinkString = bt.Start(thousand()).Value()
	}
}

// BenchmarkUnmarshal1000 reads a 1,023-node definition from JSON.
func BenchmarkUnmarshal1000(b *testing.B) {
	data, err := json.Marshal(thousand())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		var n bt.Node[string]
		if err := json.Unmarshal(data, &n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWideSelect compares a signal in a Select of 2 with one in a
// Select of 100,000: the width must not matter.
func BenchmarkWideSelect(b *testing.B) {
	for _, width := range []int{2, 100000} {
		b.Run(fmt.Sprint(width), func(b *testing.B) {
			vals := make([]string, width)
			for i := range vals {
				vals[i] = "x"
			}
			n := bt.Sequence(bt.Leaf("a"), bt.Select(leaves(vals...)...))
			tree := bt.Start(n).Succeed()
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkString = tree.Fail().Value() // first child of the wide Select fails
			}
		})
	}
}

// BenchmarkCountedAndDrawn is (b)'s signals on a tree whose moves are not
// all static: RepeatN counters and Random draws, which a signal works out
// at run time past the compiled leaf moves.
func BenchmarkCountedAndDrawn(b *testing.B) {
	tree := bt.Start(bt.Sequence(
		bt.RepeatN(3, bt.Select(bt.Leaf("a"), bt.Leaf("b"))),
		bt.Random(bt.Leaf("c"), bt.Sequence(bt.Leaf("d"), bt.Leaf("e"))),
		bt.RepeatUntilFail(bt.Sequence(bt.Leaf("f"), bt.RepeatN(2, bt.Leaf("g"))))), bt.WithSeed(7))
	sig := bits(1 << 16)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sinkString = tree.Value()
		if sig[i&(1<<16-1)] {
			tree = tree.Succeed()
		} else {
			tree = tree.Fail()
		}
	}
}

// BenchmarkValue measures Value alone.
func BenchmarkValue(b *testing.B) {
	tree := bt.Start(balanced(8))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		sinkString = tree.Value()
	}
}

// BenchmarkRetainedVersions keeps 1,000,000 successive versions of (b) in a
// slice and reports the heap they hold, per version, as B/version.
func BenchmarkRetainedVersions(b *testing.B) {
	const count = 1000000
	sig := bits(1 << 16)
	for i := 0; i < b.N; i++ {
		perVersion := retainedBytes(count, sig)
		b.ReportMetric(perVersion, "B/version")
	}
}

// retainedBytes returns the heap held by count successive versions of (b),
// kept in a slice, per version.
func retainedBytes(count int, sig []bool) float64 {
	def := balanced(8)
	bt.Start(def) // compile outside the measurement
	return heapPerItem(count, func() any {
		versions := make([]bt.Tree[string], count)
		tree := bt.Start(def)
		for i := range versions {
			versions[i] = tree
			tree = tree.Signal(statusOf(sig[i%len(sig)]))
		}
		return versions
	})
}

// heapPerItem returns the heap that what build returns holds, divided by
// count: HeapAlloc after GC with it, less HeapAlloc after GC before.
func heapPerItem(count int, build func() any) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	kept := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(kept)
	return float64(after.HeapAlloc-before.HeapAlloc) / float64(count)
}

// statusOf maps a signal bit to Success (true) or Failure.
func statusOf(ok bool) bt.Status {
	if ok {
		return bt.Success
	}
	return bt.Failure
}

// TestRetainedMemory logs the retained-versions figures, in a slice and in
// a History, and checks them against the 80-bytes-per-version budget.
func TestRetainedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates about 100 MB")
	}
	for _, tc := range []struct {
		name    string
		measure func(int, []bool) float64
	}{{"a slice", retainedBytes}, {"a History", historyBytes}} {
		per := tc.measure(1000000, bits(1<<16))
		t.Logf("1,000,000 versions of the balanced depth-8 tree in %s: %.1f bytes per version", tc.name, per)
		if per > 80 {
			t.Errorf("%s: %.1f bytes per version, budget 80", tc.name, per)
		}
	}
}

// BenchmarkUnmarshal131071 reads a 131,071-node definition (16 levels of
// inner nodes) from JSON: a large tree must read in well under a second.
func BenchmarkUnmarshal131071(b *testing.B) {
	data, err := json.Marshal(balanced(16))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer() // building and marshalling the tree is not part of it
	for i := 0; i < b.N; i++ {
		if _, err := bt.ParseJSON[string](data); err != nil {
			b.Fatal(err)
		}
	}
}
