package behaviortree

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The compile's memory (stepped_compile.go, stepped_fresh.go): shapes of
// about 2^20 places that stress it, and what compiling them costs.

// compileShape is a definition of about 2^20 places: build returns a
// function that compiles it afresh, past its cache.
type compileShape struct {
	name  string
	build func() func() (any, int, error)
}

// compiler returns a function that compiles def afresh and returns the
// program and its places.
func compiler[L any](def Node[L]) func() (any, int, error) {
	return func() (any, int, error) {
		p, err := compileStepped(def.n)
		if err != nil {
			return nil, 0, err
		}
		return p, len(p.nodes), nil
	}
}

// balancedShape returns a balanced tree of alternating selects and
// sequences, height h, under a Root: 2^(h+1) places.
func balancedShape(h int) Node[int] {
	var build func(h, first int) Node[int]
	build = func(h, first int) Node[int] {
		if h == 0 {
			return Leaf(first)
		}
		l, r := build(h-1, first), build(h-1, first+1<<(h-1))
		if h%2 == 0 {
			return Select(l, r)
		}
		return Sequence(l, r)
	}
	return Root(build(h, 0))
}

// chainShape returns a chain of depth sequences, each of width-1 leaves
// and the next sequence (the last one leaves only), under a Root: a leaf's
// failure completes every sequence above it.
func chainShape(depth, width int) Node[int] {
	kids := make([]Node[int], width)
	for i := range kids {
		kids[i] = Leaf(i)
	}
	n := Sequence(kids...)
	for range depth - 1 {
		kids = kids[:width-1]
		n = Sequence(append(kids, n)...)
	}
	return Root(n)
}

// wideShape returns one select of k leaves under a Root.
func wideShape(k int) Node[int] {
	kids := make([]Node[int], k)
	for i := range kids {
		kids[i] = Leaf(i)
	}
	return Root(Select(kids...))
}

// branchBomb returns an MDSL text of branches b0 .. b(levels-1), each
// referencing the next fan times, the last one fan actions.
func branchBomb(levels, fan int) string {
	var b strings.Builder
	b.WriteString("root { branch [b0] }\n")
	for l := range levels {
		fmt.Fprintf(&b, "root [b%d] { selector {", l)
		for i := range fan {
			if l == levels-1 {
				fmt.Fprintf(&b, " action [a%d]", i)
			} else {
				fmt.Fprintf(&b, " branch [b%d]", l+1)
			}
		}
		b.WriteString(" } }\n")
	}
	return b.String()
}

// bombShape is the tree of branchBomb(4, 31), as mdsl.Parse reads it (a
// Node[Call], as bt runs it): 954,306 places from 1.6 KB of text.
func bombShape() Node[Call] {
	def, err := parseMDSL("bomb.mdsl", []byte(branchBomb(4, 31)))
	if err != nil {
		panic(err)
	}
	return def
}

var compileShapes = []compileShape{
	{"balanced", func() func() (any, int, error) { return compiler(balancedShape(19)) }},
	{"chain", func() func() (any, int, error) { return compiler(chainShape(4000, 262)) }},
	{"wide", func() func() (any, int, error) { return compiler(wideShape(1<<20 - 2)) }},
	{"bomb", func() func() (any, int, error) { return compiler(bombShape()) }},
}

// compileCost calls compile and returns the places,
// the bytes it allocated (measured with the collector off: an upper
// bound of what the compile adds to the heap at its peak) and the peak of
// the live heap above what it was before, sampled while it compiles with
// the collector on.
func compileCost(t testing.TB, compile func() (any, int, error)) (places int, allocated, peak uint64) {
	t.Helper()
	var ms runtime.MemStats
	old := debug.SetGCPercent(-1)
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	p, places, err := compile()
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&ms)
	allocated = ms.TotalAlloc - before
	p = nil
	debug.SetGCPercent(old)

	runtime.GC()
	runtime.ReadMemStats(&ms)
	base := ms.HeapAlloc
	var max atomic.Uint64
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > max.Load() {
				max.Store(ms.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	p, _, err = compile()
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > max.Load() {
		max.Store(ms.HeapAlloc)
	}
	close(done)
	<-stopped
	runtime.KeepAlive(p)
	if err != nil {
		t.Fatal(err)
	}
	if m := max.Load(); m > base {
		peak = m - base
	}
	return places, allocated, peak
}

// BenchmarkCompileMemory compiles each shape and reports the bytes per
// place that the compile allocates and its sampled peak heap.
func BenchmarkCompileMemory(b *testing.B) {
	for _, sh := range compileShapes {
		b.Run(sh.name, func(b *testing.B) {
			compile := sh.build()
			var places int
			var allocated, peak uint64
			b.ResetTimer()
			for range b.N {
				places, allocated, peak = compileCost(b, compile)
			}
			b.ReportMetric(float64(places), "places")
			b.ReportMetric(float64(allocated)/float64(places), "alloc-B/place")
			b.ReportMetric(float64(peak)/float64(places), "peak-B/place")
			b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
		})
	}
}

// doubled returns a tree of 2^(k+1)-1 places built from k Sequences of
// two references to the same subtree: O(k) memory, however many places.
func doubled(k int) Node[int] {
	n := Leaf(0)
	for range k {
		n = Sequence(n, n)
	}
	return n
}

// TestSteppedNodeLimit: NewStepped compiles a tree of maxSteppedNodes
// nodes, refuses one of a node more with an error that names the limit
// and the tree's size, and refuses a tree of tens of millions of places
// before it allocates for them.
func TestSteppedNodeLimit(t *testing.T) {
	if maxSteppedNodes < maxMistreevousNodes {
		t.Fatalf("maxSteppedNodes = %d, less than maxMistreevousNodes = %d: a parsed tree may not run", maxSteppedNodes, maxMistreevousNodes)
	}
	agent := Agent[int]{Action: func(int) Result { return ResultSuccess }}
	half := doubled(18) // 2^19-1 places
	over := []struct {
		name string
		def  Node[int]
		size int
	}{
		{"one more", Root(Sequence(half, half, Leaf(1))), maxSteppedNodes + 1},
		{"doubled 24 times, implicit root", doubled(24), 1<<25 - 1},
		{"doubled 25 times", Root(doubled(25)), 1 << 26},
	}
	for _, c := range over {
		if c.def.Size() != c.size {
			t.Fatalf("%s: the definition has %d nodes, want %d", c.name, c.def.Size(), c.size)
		}
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		_, err := NewStepped(c.def, agent)
		runtime.ReadMemStats(&ms)
		if err == nil {
			t.Fatalf("%s: NewStepped of %d nodes: no error", c.name, c.size)
		}
		want := fmt.Sprintf("behaviortree.NewStepped: the tree has %d nodes, more than maxSteppedNodes (%d)", c.size, maxSteppedNodes)
		if err.Error() != want {
			t.Errorf("%s: NewStepped: %q, want %q", c.name, err, want)
		}
		if a := ms.TotalAlloc - before; a > 64<<10 {
			t.Errorf("%s: NewStepped allocated %d bytes before refusing", c.name, a)
		}
	}
	if testing.Short() || compileRace {
		t.Skip("compiling 2^20 places is slow")
	}
	// At the limit, with and without an explicit root: it runs.
	for _, def := range []Node[int]{Root(Sequence(half, half)), Sequence(half, half, Leaf(1))} {
		if def.Size() != maxSteppedNodes {
			t.Fatalf("the definition has %d nodes, want %d", def.Size(), maxSteppedNodes)
		}
		tr, err := NewStepped(def, agent)
		if err != nil {
			t.Fatalf("NewStepped of maxSteppedNodes nodes: %v", err)
		}
		if tr, err = tr.Step(); err != nil || tr.State() != StateSucceeded {
			t.Fatalf("Step: %v, %v; want SUCCEEDED", tr.State(), err)
		}
	}
}

// TestSteppedCompileMemory compiles each shape of about 2^20 places and
// checks that the compile allocates at most a small constant per place
// (measured with the collector off, so it bounds the compile's peak heap
// whatever the collector does).
func TestSteppedCompileMemory(t *testing.T) {
	if testing.Short() || compileRace {
		t.Skip("compiling 2^20 places is slow")
	}
	// The program's arrays by node, and the moves' budget (movesPerPlace),
	// with a margin; before the budget, these shapes took thousands.
	const bound = 400
	for _, sh := range compileShapes {
		places, allocated, _ := compileCost(t, sh.build())
		if per := float64(allocated) / float64(places); per > bound {
			t.Errorf("%s: compiling %d places allocated %d bytes, %.0f a place; want at most %d", sh.name, places, allocated, per, bound)
		} else {
			t.Logf("%s: %d places, %.0f bytes a place", sh.name, places, per)
		}
	}
}
