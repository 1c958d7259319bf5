package behaviortree

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/zipbt/behaviortree/attr"
)

// cacheAgent answers from the xorshift state *x and logs its calls in
// *calls: actions succeed, fail or run (and, with async, now and then give
// an async result, settled or not); conditions hold two times in three.
func cacheAgent(x *uint64, calls *[]string, async bool) Agent[int] {
	next := func() uint64 {
		*x ^= *x << 13
		*x ^= *x >> 7
		*x ^= *x << 17
		return *x
	}
	return Agent[int]{
		Action: func(v int) Result {
			r := next() % 7
			*calls = append(*calls, fmt.Sprintf("a%d:%d", v, r))
			switch {
			case r == 6 && async:
				return NewAsync().Result()
			case r == 5 && async:
				a := NewAsync()
				a.Succeed()
				return a.Result()
			case r < 3:
				return ResultSuccess
			case r < 5:
				return ResultFailure
			}
			return ResultRunning
		},
		Condition: func(v int) bool {
			ok := next()%3 != 0
			*calls = append(*calls, fmt.Sprintf("c%d:%v", v, ok))
			return ok
		},
		Entry:  func(v int) { *calls = append(*calls, fmt.Sprintf("entry%d", v)) },
		OnStep: func(v int) { *calls = append(*calls, fmt.Sprintf("step%d", v)) },
		Exit: func(v int, succeeded, aborted bool) {
			*calls = append(*calls, fmt.Sprintf("exit%d:%v:%v", v, succeeded, aborted))
		},
	}
}

// cacheTrace steps a fresh tree of def n times, with events (the general
// rules) or without (the step cache), and returns the calls and the node
// states after each step.
func cacheTrace(t *testing.T, def Node[int], seed uint64, n int, events, async bool) string {
	t.Helper()
	var calls []string
	x := seed | 1
	tr, err := NewStepped(def, cacheAgent(&x, &calls, async))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for range n {
		if events {
			tr, err = tr.StepWith(func(Event[int]) {})
		} else {
			tr, err = tr.Step()
		}
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(strings.Join(calls, ","))
		calls = calls[:0]
		b.WriteByte(' ')
		for i := range tr.size() {
			b.WriteByte('0' + byte(tr.NodeState(i)))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// guardedPatrol is a small tree with guards, callbacks, a parallel and
// conditions: every kind of call the step cache keeps.
func guardedPatrol() Node[int] {
	return Root(Select(
		Sequence(Condition(10), Repeat(Sequence(Leaf(1), Leaf(2).With(attr.Entry(20), attr.Exit(21))))).With(attr.While(11)),
		Parallel(Leaf(3), Leaf(4).With(attr.OnStep(22))),
		Leaf(5),
	))
}

// TestStepCacheConcurrent steps versions of one definition from many
// goroutines at once, each with its own agent, while they fill the shared
// step cache; each must see what the general rules give (run it with
// -race).
func TestStepCacheConcurrent(t *testing.T) {
	def := guardedPatrol()
	const workers, steps = 8, 300
	want := make([]string, workers)
	for w := range workers {
		want[w] = cacheTrace(t, def, uint64(w+1), steps, true, w%2 == 0)
	}
	got := make([]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[w] = cacheTrace(t, def, uint64(w+1), steps, false, w%2 == 0)
		}()
	}
	wg.Wait()
	for w := range workers {
		if got[w] != want[w] {
			t.Errorf("worker %d: without events the steps differ from the general rules", w)
		}
	}
	p, _ := steppedCompiled(def.n)
	if p.cache == nil || p.cache.roots.Load() == 0 {
		t.Fatal("the step cache kept nothing")
	}
}

// TestStepCacheBound steps a small tree with very many states: the cache
// fills to its bound, and the steps stay what the general rules give.
func TestStepCacheBound(t *testing.T) {
	var kids []Node[int]
	for i := range 15 {
		kids = append(kids, Leaf(i))
	}
	def := Root(Repeat(All(kids...)))
	p, _ := steppedCompiled(def.n)
	p.cache.pinned = true // compare the cache with the rules all along, though it misses much
	for seed := range uint64(3) {
		want := cacheTrace(t, def, seed+1, 2000, true, false)
		if got := cacheTrace(t, def, seed+1, 2000, false, false); got != want {
			t.Fatalf("seed %d: without events the steps differ from the general rules", seed)
		}
	}
	nodes, roots := p.cache.nodes.Load(), p.cache.roots.Load()
	t.Logf("step cache: %d start words, %d calls counted", roots, nodes)
	if roots > cacheStartSlots*3/4 || nodes > cacheMaxCalls {
		t.Errorf("the step cache grew past its bound: %d start words, %d calls", roots, nodes)
	}
	if nodes < cacheMaxCalls/2 && roots < cacheStartSlots/2 {
		t.Errorf("the step cache did not fill (%d start words, %d calls): the test does not reach the bound", roots, nodes)
	}
}

// TestStepCachePanic: an action that panics during a step taken from the
// cache makes the step return an error naming the node, and the version
// stepped is still valid.
func TestStepCachePanic(t *testing.T) {
	boom := errors.New("boom")
	fail := false
	agent := Agent[int]{Action: func(v int) Result {
		if fail && v == goRight {
			panic(boom)
		}
		return ResultSuccess
	}}
	def, _, _ := workloadA()
	tr, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	p, _ := steppedCompiled(def.n)
	if p.cache.lookup(tr.small) == nil {
		t.Fatal("the version's start word is not in the step cache")
	}
	before := tr.small
	fail = true
	next, err := tr.Step()
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "node 5 (1): action panicked") {
		t.Fatalf("error %v, want the panic of node 5's action", err)
	}
	if next != tr || tr.small != before {
		t.Fatal("a failed step changed the version")
	}
	fail = false
	if _, err := tr.Step(); err != nil {
		t.Fatalf("the version no longer steps: %v", err)
	}
}

// BenchmarkStepManyStates is a small tree whose states rarely repeat: the
// step cache's worst case, where most steps miss or replay.
func BenchmarkStepManyStates(b *testing.B) {
	var kids []Node[int]
	for i := range 15 {
		kids = append(kids, Leaf(i))
	}
	x := uint64(1)
	agent := Agent[int]{Action: func(int) Result {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return Result{Status: Status(x % 3)}
	}}
	benchStepped(b, Root(Repeat(All(kids...))), agent)
}

// randomAgent answers every action from a seeded xorshift64 stream:
// success or failure, each with probability 1/2.
func randomAgent(seed uint64) Agent[int] {
	x := seed | 1
	return Agent[int]{Action: func(int) Result {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if x>>63 == 0 {
			return ResultSuccess
		}
		return ResultFailure
	}}
}

// repeatedSweeps is a small tree (31 nodes with the root) that never
// completes: a repeat of an All of four balanced trees of 4 actions.
// Under random answers its states after a step, and so its start keys,
// are many: its step cache fills and keeps missing.
func repeatedSweeps() Node[int] {
	var sweeps []Node[int]
	for i := range 4 {
		b := 4 * i
		sweeps = append(sweeps, Select(Sequence(Leaf(b), Leaf(b+1)), Sequence(Leaf(b+2), Leaf(b+3))))
	}
	return Root(Repeat(All(sweeps...)))
}

// TestStepCacheSwitchesOff: under random answers the step cache of a
// small tree whose start keys keep changing fills and then keeps missing;
// it switches itself off, and the steps stay what the rules give. A
// workload whose steps repeat (workload (a)) keeps its cache.
func TestStepCacheSwitchesOff(t *testing.T) {
	def := repeatedSweeps()
	p, err := steppedCompiled(def.n)
	if err != nil {
		t.Fatal(err)
	}
	checkSwitchesOff(t, def, p.cache, "cache")

	defA, agentA, _ := workloadA()
	a, err := NewStepped(defA, agentA)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 * cacheWindow {
		if a, err = a.Step(); err != nil {
			t.Fatal(err)
		}
	}
	pa, _ := steppedCompiled(defA.n)
	if pa.cache.off.Load() {
		t.Error("workload (a)'s cache switched off, though its steps repeat")
	}
}

// TestStepCacheCompletedKey: the steps from a completed root all start
// from one key, READY's (startKey): a tree of 16 actions under random
// answers, which completes at every step in one of many states, keeps one
// trie, which holds every path of its calls; its cache stays on, and its
// steps are what the rules give. A step whose tries are full counts as the
// cache's, though every start key is in it: the same tree of 32 actions,
// whose paths do not fit, switches its wide cache off.
func TestStepCacheCompletedKey(t *testing.T) {
	def := balancedShape(4) // 16 actions, 31 nodes and the root: small, cached
	p, err := steppedCompiled(def.n)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewStepped(def, randomAgent(7))
	if err != nil {
		t.Fatal(err)
	}
	for range 20 * cacheWindow {
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if n := p.cache.roots.Load(); n != 1 || p.cache.off.Load() || p.cache.filled.Load() {
		t.Errorf("%d start keys (off %v, filled %v), want 1 (on, not filled)", n, p.cache.off.Load(), p.cache.filled.Load())
	}
	for seed := range uint64(3) {
		want := cacheTrace(t, def, seed+1, 500, true, false)
		if got := cacheTrace(t, def, seed+1, 500, false, false); got != want {
			t.Fatalf("seed %d: the steps through the cache differ from the rules", seed)
		}
	}
	wide := balancedShape(5)
	pw, err := steppedCompiled(wide.n)
	if err != nil {
		t.Fatal(err)
	}
	checkSwitchesOff(t, wide, pw.cache, "wide cache")
	if n := pw.cache.roots.Load(); n != 1 {
		t.Errorf("the 32 actions' cache has %d start keys, want 1", n)
	}
}

// BenchmarkStepCacheWorst is the step cache's worst case: a small tree
// (16 actions) that never completes and whose answers are random, so that
// its start words and answers keep changing and its tries keep missing. "pinned" keeps the
// cache on whatever it costs, "adaptive" is what the engine does (the
// cache switches itself off), "off" has no cache from the start.
func BenchmarkStepCacheWorst(b *testing.B) {
	for _, mode := range []string{"pinned", "adaptive", "off"} {
		b.Run(mode, func(b *testing.B) {
			def := repeatedSweeps()
			p, err := steppedCompiled(def.n)
			if err != nil {
				b.Fatal(err)
			}
			p.cache.pinned = mode == "pinned"
			p.cache.off.Store(mode == "off")
			benchStepped(b, def, randomAgent(1))
		})
	}
}

// checkSwitchesOff steps def under random answers until its cache c
// switches itself off (failing the test if it never does within 200
// windows), then checks that steps by the rules, as they then are, give
// the calls and states that steps with events give. what names the cache
// in messages.
func checkSwitchesOff(t *testing.T, def Node[int], c *stepCache[int], what string) {
	t.Helper()
	tr, err := NewStepped(def, randomAgent(7))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 * cacheWindow {
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
		if c.off.Load() {
			t.Logf("switched off after %d steps (%d start keys, %d calls kept)", i+1, c.roots.Load(), c.nodes.Load())
			break
		}
	}
	if !c.off.Load() {
		t.Fatalf("the %s of a tree under random answers is still on (%d start keys, %d calls kept)", what, c.roots.Load(), c.nodes.Load())
	}
	// Once off, steps take the rules: the same calls and states as with events.
	for seed := range uint64(3) {
		want := cacheTrace(t, def, seed+1, 500, true, false)
		if got := cacheTrace(t, def, seed+1, 500, false, false); got != want {
			t.Fatalf("seed %d: with the %s off the steps differ from the rules", seed, what)
		}
	}
}
