//go:build linux

package peers

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
	"unsafe"

	ours "github.com/zipbt/behaviortree"
)

// TestInterleavedRatios measures ours against the peer on every shape with
// the two interleaved in short slices, by the CPU time of the measuring
// thread: on a machine that other work keeps busy, wall-clock benchmarks
// run at different moments see different loads, where slices a few
// milliseconds apart see the same, and the thread's CPU time leaves out
// the time it waited for a core. It runs only with PEERS_INTERLEAVE set
// (a number of rounds; 0 or unset skips it) and logs, for each shape, the
// medians over the rounds of ours', the peer's and the floor's ns per
// tick, of ours/peer, and of ours and the peer as multiples of the floor,
// as a row of a Markdown table: shape, ours ns, peer ns, ours/peer,
// ours/floor, peer/floor, floor ns, then ours as a multiple of the agent
// floor and the agent floor's ns. PEERS_SHAPES, a regular expression,
// keeps only the shapes whose names it matches.
//
// The floor replays the recorded calls against the oracle itself, as the
// issue that set the target of 3 defines it; the agent floor replays them
// through our Agent's functions (agentFloorTicker), which our tree calls:
// the floor plus what the harness's agent adds to each call (its
// translation of the oracle's answer into a Result or a bool, one call
// more), which no engine given that agent can skip.
func TestInterleavedRatios(t *testing.T) {
	rounds := 0
	fmt.Sscan(os.Getenv("PEERS_INTERLEAVE"), &rounds)
	if rounds <= 0 {
		t.Skip("set PEERS_INTERLEAVE to a number of rounds to run it")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var shapes []shape
	for _, h := range sweepHeights {
		shapes = append(shapes, sweepShape(h))
	}
	shapes = append(shapes, wideConditionsShape(), wideRunningShape(), npcShape(), deepShape(), guardedShape(), parallelShape(),
		sweepShape(5), tasksShape())
	only, err := regexp.Compile(os.Getenv("PEERS_SHAPES"))
	if err != nil {
		t.Fatalf("PEERS_SHAPES: %v", err)
	}
	for i := range shapes {
		s := &shapes[i]
		if !only.MatchString(s.name) {
			continue
		}
		checkSame(t, s)
		ours := oursTicker(t, s)
		peer := peerTicker(t, s)
		tr := floorFor(t, s)
		floor := floorTicker(s, tr)
		agentFloor := agentFloorTicker(t, s, tr)
		// Ticks per slice: about 4 ms of ours.
		k := 1
		for threadCPU(func() { ours(k) }) < 4*time.Millisecond && k < 1<<22 {
			k *= 2
		}
		var o, p, f, r, of, pf, af, oaf []float64
		for range rounds {
			a := float64(threadCPU(func() { ours(k) })) / float64(k)
			b := float64(threadCPU(func() { peer(k) })) / float64(k)
			c := float64(threadCPU(func() { floor(k) })) / float64(k)
			d := float64(threadCPU(func() { agentFloor(k) })) / float64(k)
			o, p, f, af = append(o, a), append(p, b), append(f, c), append(af, d)
			r, of, pf, oaf = append(r, a/b), append(of, a/c), append(pf, b/c), append(oaf, a/d)
		}
		t.Logf("| %s | %.1f | %.1f | %.2f | %.2f | %.1f | %.1f | %.2f | %.1f |", s.name, median(o), median(p), median(r), median(of), median(pf), median(f), median(oaf), median(af))
	}
}

// oursTicker returns a function that ticks our tree of s n times.
func oursTicker(tb testing.TB, s *shape) func(n int) {
	o := newOracle(s, 1)
	tr := newOurs(tb, s, o.call)
	return func(n int) {
		var err error
		for range n {
			if tr, err = tr.Step(); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// peerTicker returns a function that ticks the peer's tree of s n times.
func peerTicker(tb testing.TB, s *shape) func(n int) {
	o := newOracle(s, 1)
	root := newPeer(s, o.call)
	return func(n int) {
		for range n {
			if _, err := root.Tick(); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// floorTicker returns a function that replays n ticks of tr, the calls of
// our tree of s, against an oracle, as benchFloor does.
func floorTicker(s *shape, tr *trace) func(n int) {
	o := newOracle(s, 1)
	reset := tr.resetter(o)
	reset()
	ticks, k := len(tr.ticks), 0
	return func(n int) {
		sink := 0
		for range n {
			if k == ticks {
				reset()
				k = 0
			}
			start, end := tr.tickRange(k)
			for _, id := range tr.ids[start:end] {
				sink += int(o.call(int(id)))
			}
			k++
		}
		floorSink = sink
	}
}

// agentFloorTicker is floorTicker through our Agent of the oracle
// (oursAgentFor): each recorded call is the Agent's Condition for a
// condition or a guard of s, its Action for an action, as our tree makes
// it (the choice is one predictable branch a call, as it is a tree's). It
// checks first, once, that the replay gets the recorded answers. Its loop
// is floorTicker's written out again on purpose: the floor is the issue's
// yardstick, and a helper for the ticks' bookkeeping (a replay type's
// next, cost 124, not inlined) would add a call a tick to the floor's loop
// and so lower every ratio against it.
func agentFloorTicker(tb testing.TB, s *shape, tr *trace) func(n int) {
	o := newOracle(s, 1)
	reset := tr.resetter(o)
	reset()
	agent := oursAgentFor(o.call)
	isCond := conditionIDs(s.root, nil)
	ticks, k := len(tr.ticks), 0
	for i := range ticks {
		start, end := tr.tickRange(i)
		for j, id := range tr.ids[start:end] {
			want := tr.answers[start+j]
			if int(id) < len(isCond) && isCond[id] {
				if got := agent.Condition(int(id)); got != (want == answerSuccess) {
					tb.Fatalf("agent floor: tick %d call %d: condition %d answered %v; recorded %d", i, j, id, got, want)
				}
				continue
			}
			wantStatus := ours.Running
			switch want {
			case answerSuccess:
				wantStatus = ours.Success
			case answerFailure:
				wantStatus = ours.Failure
			}
			if got := agent.Action(int(id)); got.Status != wantStatus {
				tb.Fatalf("agent floor: tick %d call %d: action %d answered %v; recorded %d", i, j, id, got.Status, want)
			}
		}
	}
	reset()
	return func(n int) {
		sink := 0
		for range n {
			if k == ticks {
				reset()
				k = 0
			}
			start, end := tr.tickRange(k)
			for _, id := range tr.ids[start:end] {
				if int(id) < len(isCond) && isCond[id] {
					if agent.Condition(int(id)) {
						sink++
					}
				} else {
					sink += int(agent.Action(int(id)).Status)
				}
			}
			k++
		}
		floorSink = sink
	}
}

// conditionIDs returns is, grown and marked at the leaf ids of n's
// conditions and guards: the ids our tree calls the Agent's Condition
// for.
func conditionIDs(n *shapeNode, is []bool) []bool {
	mark := func(id int) {
		for len(is) <= id {
			is = append(is, false)
		}
		is[id] = true
	}
	if n.kind == kindCondition {
		mark(n.id)
	}
	if n.guard >= 0 {
		mark(n.guard)
	}
	for _, c := range n.children {
		is = conditionIDs(c, is)
	}
	return is
}

// threadCPU returns the CPU time that f takes on the calling thread
// (locked to it by the caller).
func threadCPU(f func()) time.Duration {
	before := rusageThread()
	f()
	return rusageThread() - before
}

// rusageThread returns the calling thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID, to the nanosecond; getrusage counts in ticks).
func rusageThread() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3 /* CLOCK_THREAD_CPUTIME_ID */, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic(errno)
	}
	return time.Duration(ts.Nano())
}

func median(x []float64) float64 {
	x = slices.Clone(x)
	slices.Sort(x)
	return x[len(x)/2]
}
