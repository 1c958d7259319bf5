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

// bombShape is the tree of branchBomb(4, 31), as ParseMDSL reads it (a
// Node[Call], as bt runs it): 954,306 places from 1.6 KB of text.
func bombShape() Node[Call] {
	def, err := ParseMDSL("bomb.mdsl", []byte(branchBomb(4, 31)))
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
