package peers

// This file defines the workloads, independently of any library, so that the
// peers' benchmarks (peers_test.go) and ours (ours_test.go, to come) run
// exactly the same actions with exactly the same results. Each library's
// benchmark wraps these plain functions into its own leaf type.

import (
	// The library is not benchmarked yet (its stepped engine does not exist),
	// but importing it keeps the require and replace of go.mod live, so that
	// "go mod tidy" leaves them in place and ours_test.go can use them.
	_ "github.com/zipbt/behaviortree"
)

// Workload (a):
//
//	root { sequence { action [TopLeft] repeat { selector { action [GoRight] action [NextRow] } } } }
//
// TopLeft and NextRow always succeed. GoRight fails on every goRightFailEvery-th
// call and succeeds otherwise. So after the first step, which also calls
// TopLeft, each step runs one iteration of the repeat: the selector calls
// GoRight, and NextRow too when GoRight fails, which is 1 + 1/10 = 1.10 action
// calls per step. The repeat never ends, and the tree stays running.
const goRightFailEvery = 10

// workloadA holds the actions of workload (a) and counts their calls.
type workloadA struct {
	topLeft, goRight, nextRow int
}

// TopLeft is the action TopLeft: it always succeeds.
func (w *workloadA) TopLeft() bool {
	w.topLeft++
	return true
}

// GoRight is the action GoRight: it fails on every goRightFailEvery-th call.
func (w *workloadA) GoRight() bool {
	w.goRight++
	return w.goRight%goRightFailEvery != 0
}

// NextRow is the action NextRow: it always succeeds.
func (w *workloadA) NextRow() bool {
	w.nextRow++
	return true
}

// calls returns the number of action calls so far.
func (w *workloadA) calls() int { return w.topLeft + w.goRight + w.nextRow }

// Workload (b): a balanced binary tree of height treeBHeight whose
// composite levels alternate selector and sequence, starting with a selector at
// the root, and whose treeBLeaves leaves are actions. Each action call takes
// the next result of one shared, seeded xorshift64 stream: success or failure
// with probability 1/2, independent of the wall clock and identical for every
// library, since they all call the leaves in the same order. With synchronous
// actions the whole tree completes on every tick; the expected number of
// action calls per tick is treeBExpectedCalls.
const (
	treeBHeight = 8
	treeBLeaves = 1 << treeBHeight
	// treeBSeed seeds the result stream of workload (b).
	treeBSeed uint64 = 0x9E3779B97F4A7C15
	// treeBExpectedCalls is the expected number of action calls per tick of
	// workload (b) when each result is success with probability 1/2.
	treeBExpectedCalls = 41.255973023608846
)

// results is the deterministic 50/50 result stream of workload (b). It also
// counts the calls made.
type results struct {
	x     uint64
	calls int
}

// newResults returns the result stream of workload (b), from its seed.
func newResults() *results { return &results{x: treeBSeed} }

// next returns the result of the next action call: true (success) or false
// (failure), each with probability 1/2.
func (r *results) next() bool {
	r.calls++
	x := r.x
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	r.x = x
	return x>>63 != 0
}

// buildTreeB builds the tree of workload (b) with one library's constructors:
// leaf returns the i-th action (0 ≤ i < treeBLeaves, left to right), and
// selector and sequence return a composite of two children.
func buildTreeB[N any](leaf func(i int) N, selector, sequence func(children ...N) N) N {
	var build func(height, first int) N
	build = func(height, first int) N {
		if height == 0 {
			return leaf(first)
		}
		half := 1 << (height - 1)
		left, right := build(height-1, first), build(height-1, first+half)
		// The root (height treeBHeight) is a selector; levels alternate below it.
		if (treeBHeight-height)%2 == 0 {
			return selector(left, right)
		}
		return sequence(left, right)
	}
	return build(treeBHeight, 0)
}

// FluentTick3: a memoryless sequence of fluentLeaves leaves, each succeeding,
// ticked once per iteration.
const fluentLeaves = 3
