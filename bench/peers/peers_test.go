package peers

// Benchmarks of the peer github.com/joeycumines/go-behaviortree at v1.11.0
// (see go.mod), on the workloads of workload_test.go, and the tests that
// check the workloads do what they claim. One benchmark iteration is one tick
// of the root.
//
// Our own benchmarks of the same workloads, BenchmarkStepA, BenchmarkStepB
// and BenchmarkFluentTick3, go in ours_test.go, so that
// "go test -bench . -benchmem" shows both side by side by name.

import (
	"errors"
	"math"
	"testing"

	bt "github.com/joeycumines/go-behaviortree"
)

// peerAction returns a go-behaviortree leaf that succeeds when fn returns true
// and fails otherwise.
func peerAction(fn func() bool) bt.Node {
	return bt.New(func([]bt.Node) (bt.Status, error) {
		if fn() {
			return bt.Success, nil
		}
		return bt.Failure, nil
	})
}

// errRepeatChildren is returned by peerRepeat when it has not exactly one
// child.
var errRepeatChildren = errors.New("repeat: want exactly one child")

// peerRepeat is the repeat-forever decorator that go-behaviortree lacks, with
// Mistreevous's semantics for a repeat without a count: each tick runs one
// iteration of the child; a child that succeeds will be ticked afresh on the
// next tick and the repeat stays running; a child that fails fails the repeat.
func peerRepeat(children []bt.Node) (bt.Status, error) {
	if len(children) != 1 {
		return bt.Failure, errRepeatChildren
	}
	status, err := children[0].Tick()
	switch {
	case err != nil:
		return bt.Failure, err
	case status == bt.Failure:
		return bt.Failure, nil
	}
	return bt.Running, nil
}

// peerTreeA builds workload (a) with go-behaviortree. The sequence is
// memorized, so that once TopLeft has succeeded each tick resumes at the
// running repeat (go-behaviortree's Sequence alone would call TopLeft on
// every tick). Mistreevous's root is a pass-through, so the sequence is the
// root.
func peerTreeA(w *workloadA) bt.Node {
	return bt.New(bt.Memorize(bt.Sequence),
		peerAction(w.TopLeft),
		bt.New(peerRepeat,
			bt.New(bt.Selector,
				peerAction(w.GoRight),
				peerAction(w.NextRow),
			),
		),
	)
}

// peerTreeB builds workload (b) with go-behaviortree, whose Selector and
// Sequence keep no memory: the whole tree completes on every tick.
func peerTreeB(r *results) bt.Node {
	return buildTreeB(
		func(int) bt.Node { return peerAction(r.next) },
		func(children ...bt.Node) bt.Node { return bt.New(bt.Selector, children...) },
		func(children ...bt.Node) bt.Node { return bt.New(bt.Sequence, children...) },
	)
}

// peerFluent3 builds the FluentTick3 tree with go-behaviortree: a memoryless
// sequence of fluentLeaves leaves that succeed. It counts leaf calls in *calls.
func peerFluent3(calls *int) bt.Node {
	leaves := make([]bt.Node, fluentLeaves)
	for i := range leaves {
		leaves[i] = peerAction(func() bool {
			*calls++
			return true
		})
	}
	return bt.New(bt.Sequence, leaves...)
}

// BenchmarkPeerStepA measures one step (one tick of the root) of workload (a)
// with go-behaviortree.
func BenchmarkPeerStepA(b *testing.B) {
	var w workloadA
	root := peerTreeA(&w)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if status, err := root.Tick(); err != nil || status != bt.Running {
			b.Fatalf("tick: %v, %v; want running", status, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(w.calls())/float64(b.N), "calls/op")
}

// BenchmarkPeerStepB measures one step (one tick of the root, which completes
// the whole tree) of workload (b) with go-behaviortree.
func BenchmarkPeerStepB(b *testing.B) {
	r := newResults()
	root := peerTreeB(r)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if status, err := root.Tick(); err != nil || status == bt.Running {
			b.Fatalf("tick: %v, %v; want success or failure", status, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(r.calls)/float64(b.N), "calls/op")
}

// BenchmarkPeerFluentTick3 measures one tick of a memoryless sequence of three
// succeeding leaves with go-behaviortree.
func BenchmarkPeerFluentTick3(b *testing.B) {
	var calls int
	root := peerFluent3(&calls)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if status, err := root.Tick(); err != nil || status != bt.Success {
			b.Fatalf("tick: %v, %v; want success", status, err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
}

// workloadSteps is the number of steps the workload tests take.
const workloadSteps = 1000

// TestPeerWorkloadA checks that workload (a), as built for go-behaviortree,
// stays running and makes 1.10 action calls per step: TopLeft once, then one
// GoRight per step and one NextRow per ten steps.
func TestPeerWorkloadA(t *testing.T) {
	var w workloadA
	root := peerTreeA(&w)
	for step := range workloadSteps {
		if status, err := root.Tick(); err != nil || status != bt.Running {
			t.Fatalf("step %d: %v, %v; want running", step, status, err)
		}
	}
	want := workloadA{topLeft: 1, goRight: workloadSteps, nextRow: workloadSteps / goRightFailEvery}
	if w != want {
		t.Fatalf("calls after %d steps: %+v; want %+v", workloadSteps, w, want)
	}
	// Per step, not counting the one TopLeft call of the first step.
	if got := float64(w.goRight+w.nextRow) / workloadSteps; got != 1.10 {
		t.Errorf("repeat iterations make %v action calls per step; want 1.10", got)
	}
	// All calls, TopLeft included: 1101/1000, which is 1.10 to two places.
	if got := float64(w.calls()) / workloadSteps; math.Round(got*100) != 110 {
		t.Errorf("%v action calls per step; want 1.10", got)
	}
}

// TestPeerWorkloadB checks that workload (b), as built for go-behaviortree,
// completes on every tick, calls at least one and at most every action per
// tick, and averages about 41 action calls per tick.
func TestPeerWorkloadB(t *testing.T) {
	r := newResults()
	root := peerTreeB(r)
	var outcomes [2]int // failures, successes
	for step := range workloadSteps {
		before := r.calls
		status, err := root.Tick()
		if err != nil || status == bt.Running {
			t.Fatalf("step %d: %v, %v; want success or failure", step, status, err)
		}
		if n := r.calls - before; n < 1 || n > treeBLeaves {
			t.Fatalf("step %d: %d action calls; want 1 to %d", step, n, treeBLeaves)
		}
		if status == bt.Success {
			outcomes[1]++
		} else {
			outcomes[0]++
		}
	}
	avg := float64(r.calls) / workloadSteps
	if math.Abs(avg-treeBExpectedCalls) > 2 {
		t.Errorf("%v action calls per tick; want about %.1f", avg, treeBExpectedCalls)
	}
	// The root selector succeeds with probability about 0.10; both outcomes
	// must occur, or the stream is not 50/50.
	if outcomes[0] == 0 || outcomes[1] == 0 {
		t.Errorf("outcomes (failures, successes) = %v; want both", outcomes)
	}
}

// TestResults checks that the result stream of workload (b) is deterministic
// and close to 50/50.
func TestResults(t *testing.T) {
	a, b := newResults(), newResults()
	successes := 0
	const n = 100000
	for i := range n {
		x := a.next()
		if x != b.next() {
			t.Fatalf("call %d: two streams from the same seed differ", i)
		}
		if x {
			successes++
		}
	}
	if math.Abs(float64(successes)/n-0.5) > 0.01 {
		t.Errorf("%d successes in %d calls; want about half", successes, n)
	}
}

// TestTreeBShape checks the shape of workload (b): treeBLeaves leaves, in
// order, under composites that alternate from a selector at the root.
func TestTreeBShape(t *testing.T) {
	type node struct {
		kind     string
		leaf     int
		children []*node
	}
	composite := func(kind string) func(children ...*node) *node {
		return func(children ...*node) *node { return &node{kind: kind, children: children} }
	}
	root := buildTreeB(func(i int) *node { return &node{kind: "action", leaf: i} },
		composite("selector"), composite("sequence"))
	next := 0
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		if n.kind == "action" {
			if depth != treeBHeight || n.leaf != next {
				t.Fatalf("leaf %d at depth %d; want leaf %d at depth %d", n.leaf, depth, next, treeBHeight)
			}
			next++
			return
		}
		want := "selector"
		if depth%2 == 1 {
			want = "sequence"
		}
		if n.kind != want || len(n.children) != 2 {
			t.Fatalf("depth %d: %s with %d children; want %s with 2", depth, n.kind, len(n.children), want)
		}
		for _, c := range n.children {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	if next != treeBLeaves {
		t.Fatalf("%d leaves; want %d", next, treeBLeaves)
	}
}
