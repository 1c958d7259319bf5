//go:build linux

package peers

import (
	"fmt"
	"os"
	"runtime"
	"testing"
	"time"

	ours "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/btcpp"
)

// TestInterleavedBTCPP measures workloads (a) and (b) as BehaviorTree.CPP
// XML (package btcpp) against our stepped engine and go-behaviortree, the
// three interleaved in slices of a few milliseconds and timed by the
// measuring thread's CPU time, as TestInterleavedRatios does. It runs
// only with PEERS_INTERLEAVE set (a number of rounds) and logs, per
// workload, the medians of btcpp's, stepped's and the peer's ns per tick
// and of btcpp/stepped and btcpp/peer, as a row of a Markdown table.
func TestInterleavedBTCPP(t *testing.T) {
	rounds := 0
	fmt.Sscan(os.Getenv("PEERS_INTERLEAVE"), &rounds)
	if rounds <= 0 {
		t.Skip("set PEERS_INTERLEAVE to a number of rounds to run it")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	type workload struct {
		name                 string
		btcpp, stepped, peer func(k int)
	}
	btcppTicker := func(v *btcpp.Tree) func(int) {
		return func(k int) {
			for range k {
				var err error
				if v, _, err = v.Tick(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	steppedTicker := func(def ours.Node[func() bool]) func(int) {
		s, err := ours.NewStepped(def, oursAgent)
		if err != nil {
			t.Fatal(err)
		}
		return func(k int) {
			for range k {
				if s, err = s.Step(); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	wa, sa, pa := &workloadA{}, &workloadA{}, &workloadA{}
	rb, sb, pb := newResults(), newResults(), newResults()
	peerA, peerB := peerTreeA(pa), peerTreeB(pb)
	loads := []workload{
		{"(a)", btcppTicker(btcppTree(t, btcppXMLA, map[string]func() bool{"TopLeft": wa.TopLeft, "GoRight": wa.GoRight, "NextRow": wa.NextRow})),
			steppedTicker(oursTreeA(sa)), func(k int) {
				for range k {
					peerA.Tick()
				}
			}},
		{"(b)", btcppTicker(btcppTree(t, btcppXMLB(), map[string]func() bool{"Next": rb.next})),
			steppedTicker(oursTreeB(sb)), func(k int) {
				for range k {
					peerB.Tick()
				}
			}},
	}
	for _, w := range loads {
		k := 1
		for threadCPU(func() { w.btcpp(k) }) < 4*time.Millisecond && k < 1<<22 {
			k *= 2
		}
		var b, s, p, bs, bp []float64
		for range rounds {
			x := float64(threadCPU(func() { w.btcpp(k) })) / float64(k)
			y := float64(threadCPU(func() { w.stepped(k) })) / float64(k)
			z := float64(threadCPU(func() { w.peer(k) })) / float64(k)
			b, s, p = append(b, x), append(s, y), append(p, z)
			bs, bp = append(bs, x/y), append(bp, x/z)
		}
		t.Logf("| %s | %.1f | %.1f | %.1f | %.2f | %.2f |", w.name, median(b), median(s), median(p), median(bs), median(bp))
	}
}
