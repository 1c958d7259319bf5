//go:build linux

package peers

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
)

// TestInterleavedHistoryKeep measures what keeping every version in a
// History adds to a tick, as TestInterleavedRatios measures the
// shapes: slices of plain ticks and of ticks through a History,
// interleaved, by the CPU time of the measuring thread (the garbage
// collector's background work on other threads is left out; its assists
// on this thread are in). The tree is the root package's
// BenchmarkHistoryKeep's: a sequence of 64 actions that each run
// three ticks, then succeed (65 nodes). It runs only with
// PEERS_INTERLEAVE set (a number of rounds) and logs the medians of the
// tick, the tick and push, and their difference, in ns, and of what a
// store of each version into a slice allocated and written beforehand
// adds to the tick.
func TestInterleavedHistoryKeep(t *testing.T) {
	rounds := 0
	fmt.Sscan(os.Getenv("PEERS_INTERLEAVE"), &rounds)
	if rounds <= 0 {
		t.Skip("set PEERS_INTERLEAVE to a number of rounds to run it")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var kids []bt.Node[int]
	for i := range 64 {
		kids = append(kids, bt.Leaf(i))
	}
	count := make([]int, 64)
	agent := bt.Agent[int]{Action: func(v int) bt.Result {
		count[v]++
		if count[v]%4 == 0 {
			return bt.ResultSuccess
		}
		return bt.ResultRunning
	}}
	tr, err := bt.NewStepped(bt.Root(bt.Sequence(kids...)), agent)
	if err != nil {
		t.Fatal(err)
	}
	v, h := tr, bt.NewHistory(tr)
	step := func(n int) {
		for range n {
			if v, err = v.Step(); err != nil {
				t.Fatal(err)
			}
		}
	}
	keep := func(n int) {
		for range n {
			next, err := h.Current().Step()
			if err != nil {
				t.Fatal(err)
			}
			h = h.Push(next)
		}
	}
	k := 1
	for threadCPU(func() { step(k) }) < 4*time.Millisecond && k < 1<<22 {
		k *= 2
	}
	// The same versions stored in a slice whose memory was allocated and
	// written before: what keeping a version costs without the growth of
	// the heap (fresh pages, the collector's work as the heap doubles).
	w := tr
	warm := make([]bt.Stepped[int], rounds*k)
	for i := range warm {
		warm[i] = tr
	}
	j := 0
	store := func(n int) {
		for range n {
			if w, err = w.Step(); err != nil {
				t.Fatal(err)
			}
			warm[j] = w
			j++
		}
	}
	var s, p, d, ws []float64
	for range rounds {
		a := float64(threadCPU(func() { step(k) })) / float64(k)
		b := float64(threadCPU(func() { keep(k) })) / float64(k)
		c := float64(threadCPU(func() { store(k) })) / float64(k)
		s, p, d, ws = append(s, a), append(p, b), append(d, b-a), append(ws, c-a)
	}
	t.Logf("tick %.1f ns, tick and push %.1f ns, added by the push %.1f ns; added by a store into memory written before %.1f ns (medians of %d rounds of %d ticks; %d versions kept)", median(s), median(p), median(d), median(ws), rounds, k, h.Len())
}
