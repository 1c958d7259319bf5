package behaviortree

import (
	"math"
	"testing"
)

// cacheTrieNodes counts the nodes of every trie in mo.
func cacheTrieNodes[L any](mo *stepCache[L]) int {
	count := 0
	var walk func(e *cachedCall[L])
	walk = func(e *cachedCall[L]) {
		count++
		for k := range e.next {
			if c := e.next[k].Load(); c != nil {
				walk(c)
			}
		}
	}
	for i := range mo.slots {
		if e := mo.slots[i].Load(); e != nil {
			walk(e)
		}
	}
	return count
}

// TestStepCacheBoundHolds fills the step cache of a small tree whose steps
// rarely repeat, then drives it through many more misses, inside tries and
// at new start words: the cache's counter and its tries must stay within
// the bound, also once the counter is near the largest int32 (where it
// would be after as many refused adds).
func TestStepCacheBoundHolds(t *testing.T) {
	var sels []Node[int]
	for i := range 7 {
		sels = append(sels, Select(Leaf(3*i), Leaf(3*i+1), Leaf(3*i+2)))
	}
	def := Root(Parallel(sels...))
	var calls []string
	x := uint64(12345)
	tr, err := NewStepped(def, cacheAgent(&x, &calls, false))
	if err != nil {
		t.Fatal(err)
	}
	mo := tr.m.cache
	if mo == nil {
		t.Fatal("the tree has no step cache")
	}
	mo.pinned = true // it misses much: keep it on, to drive it past its bound
	step := func(n int) {
		t.Helper()
		for range n {
			calls = calls[:0]
			if tr, err = tr.Step(); err != nil {
				t.Fatal(err)
			}
		}
	}
	step(20000)
	full, nodes := mo.nodes.Load(), cacheTrieNodes(mo)
	t.Logf("filled: counter %d, %d trie nodes, %d start words", full, nodes, mo.roots.Load())
	if full > cacheMaxCalls || nodes > cacheMaxCalls {
		t.Errorf("the cache grew past its bound of %d calls: counter %d, %d trie nodes", cacheMaxCalls, full, nodes)
	}
	if full < cacheMaxCalls-64 {
		t.Fatalf("the cache did not fill (counter %d of %d): the test does not reach the bound", full, cacheMaxCalls)
	}
	step(3000)
	if got := mo.nodes.Load(); got != full {
		t.Errorf("refused adds changed the counter: %d, was %d", got, full)
	}
	if got := cacheTrieNodes(mo); got != nodes {
		t.Errorf("a full cache grew: %d trie nodes, was %d", got, nodes)
	}
	// Where the counter would be after about 2^31 refused adds.
	mo.nodes.Store(math.MaxInt32 - 100)
	step(3000)
	if got := cacheTrieNodes(mo); got != nodes {
		t.Errorf("past the int32 limit the cache grew: %d trie nodes, bound %d (counter %d)", got, cacheMaxCalls, mo.nodes.Load())
	}
	if got := mo.nodes.Load(); got < 0 {
		t.Errorf("the counter wrapped: %d", got)
	}
}
