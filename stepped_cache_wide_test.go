package behaviortree

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/testlong"
)

// This file holds the step cache of trees of 33 to 64 nodes (a wide
// cache: two-word start keys, two-word ends) to the rules.

// randomCacheTree draws a definition of the kinds that keep no extra
// words (so that a tree of 33 to 64 nodes gets a wide step cache), with
// guards and callbacks now and then; next numbers the leaves' values.
func randomCacheTree(r *rand.Rand, depth int, budget, next *int) Node[int] {
	val := func() int { *next++; return *next }
	*budget--
	var nd Node[int]
	if depth >= 6 || *budget <= 0 || r.IntN(10) < min(depth, 2) {
		if r.IntN(4) == 0 {
			nd = Condition(val())
		} else {
			nd = Leaf(val())
		}
	} else {
		kids := func(lo int) []Node[int] {
			out := make([]Node[int], lo+r.IntN(5-lo))
			for i := range out {
				out[i] = randomCacheTree(r, depth+1, budget, next)
			}
			return out
		}
		one := func() Node[int] { return randomCacheTree(r, depth+1, budget, next) }
		switch r.IntN(16) {
		case 0, 1, 2:
			nd = Sequence(kids(1)...)
		case 3, 4, 5:
			nd = Select(kids(1)...)
		case 6:
			nd = Parallel(kids(1)...)
		case 7:
			nd = Race(kids(1)...)
		case 8:
			nd = All(kids(1)...)
		case 9:
			nd = []Node[int]{Repeat(one()), Retry(one())}[r.IntN(2)]
		case 10:
			nd = []Node[int]{Negate(one()), AlwaysSucceed(one()), AlwaysFail(one())}[r.IntN(3)]
		case 11, 12:
			nd = ReactiveSequence(kids(1)...)
		case 13, 14:
			nd = ReactiveSelect(kids(1)...)
		default:
			nd = ReactiveParallel(r.IntN(4)-1, r.IntN(4)-1, kids(1)...)
		}
	}
	var as []attr.Attr[int]
	if r.IntN(7) == 0 {
		g := attr.While(val())
		if r.IntN(2) == 0 {
			g = attr.Until(val())
		}
		if r.IntN(3) == 0 {
			g = g.ThenSucceed()
		}
		as = append(as, g)
	}
	if r.IntN(10) == 0 {
		as = append(as, []attr.Attr[int]{attr.Entry(val()), attr.OnStep(val()), attr.Exit(val())}[r.IntN(3)])
	}
	if len(as) > 0 {
		nd = nd.With(as...)
	}
	return nd
}

// wideCacheDef draws, from seed, a definition that gets a wide step
// cache, and returns it with its compiled program; ok is false when the
// draw has fewer than 33 or more than 64 nodes. Each call makes a new
// definition, with a program (and a cache) of its own.
func wideCacheDef(t *testing.T, seed uint64) (Node[int], *sprogram[int], bool) {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 0xCAC4E))
	// Each part with a budget of its own, so that the nodes of the second
	// state word (32 to 63) are inner nodes too, not only the leaves that
	// the first part's budget ran out on.
	next := 0
	parts := make([]Node[int], 2+r.IntN(2))
	for i := range parts {
		budget := 6 + r.IntN(14)
		parts[i] = randomCacheTree(r, 1, &budget, &next)
	}
	top := []func(...Node[int]) Node[int]{Sequence[int], Select[int], ReactiveSequence[int], ReactiveSelect[int], Parallel[int], All[int]}
	def := Root(top[r.IntN(len(top))](parts...))
	p, err := steppedCompiled(def.n)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	if n := len(p.nodes); n < 33 || n > 64 {
		return def, p, false
	}
	if p.cache == nil || !p.cache.wide {
		t.Fatalf("seed %d: a tree of %d nodes without extra words has no wide step cache", seed, len(p.nodes))
	}
	return def, p, true
}

// wideTrace steps a fresh tree of def steps times with the agent's answers
// drawn from seed, by Step or (events) StepWith, with resets and steps of
// earlier versions (undo) now and then, and returns, for each step, the
// agent's calls, the node states and the saved version.
func wideTrace(t *testing.T, def Node[int], seed uint64, steps int, events, async bool) string {
	t.Helper()
	var calls []string
	x := seed | 1
	tr, err := NewStepped(def, cacheAgent(&x, &calls, async))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	history := []Stepped[int]{tr}
	var b strings.Builder
	for i := range steps {
		switch k := r.IntN(40); {
		case k == 0:
			tr = tr.Reset()
		case k < 4:
			tr = history[r.IntN(len(history))] // step an earlier version again
		}
		if events {
			tr, err = tr.StepWith(func(Event[int]) {})
		} else {
			tr, err = tr.Step()
		}
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		history = append(history, tr)
		b.WriteString(strings.Join(calls, ","))
		calls = calls[:0]
		b.WriteByte(' ')
		for n := range tr.size() {
			b.WriteByte('0' + byte(tr.NodeState(n)))
		}
		data, err := tr.MarshalBinary()
		if err != nil {
			t.Fatalf("step %d: save: %v", i, err)
		}
		fmt.Fprintf(&b, " %x\n", data)
	}
	return b.String()
}

// TestStepCacheWideMatchesRules steps random trees of 33 to 64 nodes with
// the wide step cache on (kept on however much it misses), with it
// switched off, and with events (the rules): the agent's calls, the
// states and the saved versions must be the same, step by step, also when
// earlier versions are stepped again and with async results.
func TestStepCacheWideMatchesRules(t *testing.T) {
	trees, steps := testlong.Pick(60, 600), testlong.Pick(400, 2000)
	tested, hits, seed := 0, 0, uint64(0)
	for tested < trees {
		seed++
		on, pOn, ok := wideCacheDef(t, seed)
		if !ok {
			continue
		}
		off, pOff, _ := wideCacheDef(t, seed)
		if pOn == pOff {
			t.Fatal("two draws share a program: the cache cannot be on in one and off in the other")
		}
		pOn.cache.pinned = true
		pOff.cache.off.Store(true)
		async := seed%3 == 0
		want := wideTrace(t, off, seed, steps, true, async)
		if got := wideTrace(t, off, seed, steps, false, async); got != want {
			t.Fatalf("seed %d (%d nodes): with the cache off, Step differs from StepWith\n%s", seed, len(pOn.nodes), on)
		}
		if got := wideTrace(t, on, seed, steps, false, async); got != want {
			g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
			for i := range min(len(g), len(w)) {
				if g[i] != w[i] {
					t.Fatalf("seed %d (%d nodes): step %d through the wide cache differs from the rules:\n got %s\nwant %s\n%s", seed, len(pOn.nodes), i, g[i], w[i], on)
				}
			}
			t.Fatalf("seed %d: the traces differ in length", seed)
		}
		if pOn.cache.roots.Load() > 0 {
			hits++
		}
		tested++
	}
	t.Logf("%d trees of 33 to 64 nodes (seeds 1 to %d), %d with start keys kept", tested, seed, hits)
	if hits < trees/2 {
		t.Errorf("only %d of %d trees kept anything in their wide cache: the test does not exercise it", hits, trees)
	}
}

// TestStepCacheWideConcurrent steps versions of one wide definition from
// many goroutines at once, each with its own agent, while they fill the
// shared cache; each must see what the rules give (run it with -race).
func TestStepCacheWideConcurrent(t *testing.T) {
	var def Node[int]
	for seed := uint64(1); ; seed++ {
		d, _, ok := wideCacheDef(t, seed)
		if ok {
			def = d
			break
		}
	}
	const workers, steps = 6, 300
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
			t.Errorf("worker %d: without events the steps differ from the rules", w)
		}
	}
}

// TestStepCacheWideNoAlloc: a step of a 48-node tree whose steps repeat
// goes through the wide cache and allocates nothing (the one-word cache
// allocates nothing either), where a step by the rules that changes a
// state copies the version's two words.
func TestStepCacheWideNoAlloc(t *testing.T) {
	var pairs []Node[int]
	for i := range 15 {
		pairs = append(pairs, Sequence(Condition(2*i), Leaf(2*i+1)))
	}
	def := Root(Select(append(pairs, Leaf(99))...)) // 48 nodes
	p, err := steppedCompiled(def.n)
	if err != nil {
		t.Fatal(err)
	}
	if p.cache == nil || !p.cache.wide {
		t.Fatalf("a tree of %d nodes without extra words has no wide step cache", len(p.nodes))
	}
	turn := 0
	agent := Agent[int]{
		Action:    func(v int) Result { turn++; return [...]Result{ResultRunning, ResultRunning, ResultSuccess}[turn%3] },
		Condition: func(v int) bool { return v == 20 },
	}
	tr, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	for range 100 { // fill the cache
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(300, func() { tr, err = tr.Step() }); n != 0 || err != nil {
		t.Errorf("a step through the wide cache made %v allocations (error %v), want 0", n, err)
	}
}

// TestStepCacheWideSwitchesOff: the wide cache of a tree of 64 nodes (32
// actions) under random answers fills, keeps missing and switches itself
// off, as the one-word cache does; the steps stay what the rules give.
func TestStepCacheWideSwitchesOff(t *testing.T) {
	def := balancedShape(5) // 32 actions, 63 nodes and the root
	p, err := steppedCompiled(def.n)
	if err != nil {
		t.Fatal(err)
	}
	if p.cache == nil || !p.cache.wide {
		t.Fatalf("a tree of %d nodes without extra words has no wide step cache", len(p.nodes))
	}
	checkSwitchesOff(t, def, p.cache, "wide cache")
}
