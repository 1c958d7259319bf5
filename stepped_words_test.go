package behaviortree

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
)

// BT_FLAT_WORDS sets flatWordsMax for a test run: 0 stores the words of
// every tree that has some in a trie, so that the whole suite (the
// conformance corpora, the differential tests) runs on tries.
func init() {
	if v, ok := os.LookupEnv("BT_FLAT_WORDS"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			panic("BT_FLAT_WORDS: not a count of words: " + v)
		}
		flatWordsMax = int32(n)
	}
}

// TestSteppedTrieAgreesWithFlat steps the same tree with its words in a
// trie and in one array, from every version again (a branch), and checks
// that both give the same versions and that no step changed an older one.
func TestSteppedTrieAgreesWithFlat(t *testing.T) {
	trie, err := savedCompatTree()
	if err != nil {
		t.Fatal(err)
	}
	saved := flatWordsMax
	flatWordsMax = 1 << 30
	flat, err := savedCompatTree()
	flatWordsMax = saved
	if err != nil {
		t.Fatal(err)
	}
	if !trie.m.p.trie || flat.m.p.trie {
		t.Fatalf("trie %t and flat %t: want a trie and an array", trie.m.p.trie, flat.m.p.trie)
	}
	var versions []Stepped[int]
	var bytes []string
	for step := range 60 {
		a, err := trie.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := flat.MarshalBinary()
		if string(a) != string(b) {
			t.Fatalf("step %d: the trie's version differs from the array's", step)
		}
		versions, bytes = append(versions, trie), append(bytes, string(a))
		if trie, err = trie.Step(); err != nil {
			t.Fatal(err)
		}
		if flat, err = flat.Step(); err != nil {
			t.Fatal(err)
		}
		if step%7 == 3 {
			trie, flat = trie.Reset(), flat.Reset()
		}
	}
	for _, v := range versions { // branches from every old version
		for range 3 {
			if v, err = v.Step(); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, v := range versions {
		if got, _ := v.MarshalBinary(); string(got) != bytes[i] {
			t.Errorf("version %d changed after later steps", i)
		}
	}
}

// TestSteppedTrieRetained: a version of a tree of 65,537 nodes whose step
// changes a few states keeps the path it changed, not a copy of all the
// 2,049 words (16 KiB) of its states.
func TestSteppedTrieRetained(t *testing.T) {
	def, agent := sizedSequences(15)
	tr, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	per := retainedPerVersion(t, tr, 4000)
	t.Logf("retained per version: %.0f B", per)
	if per > 1024 {
		t.Errorf("a version keeps %.0f B, want <= 1 KiB", per)
	}
}

// TestSteppedTrieLeafTable steps versions of a trie in a random order (the
// machine's table of leaves is then the root's that the step before made,
// or another's, to fill again), and the same versions of the array, and
// checks that they agree; then steps versions of a trie from several
// goroutines at once (each step without the table makes its own), and
// checks that each gives what a step of it alone gives.
func TestSteppedTrieLeafTable(t *testing.T) {
	trie, err := savedCompatTree()
	if err != nil {
		t.Fatal(err)
	}
	saved := flatWordsMax
	flatWordsMax = 1 << 30
	flat, err := savedCompatTree()
	flatWordsMax = saved
	if err != nil {
		t.Fatal(err)
	}
	if !trie.m.p.trie || flat.m.p.trie {
		t.Fatalf("trie %t and flat %t: want a trie and an array", trie.m.p.trie, flat.m.p.trie)
	}
	tries, flats := []Stepped[int]{trie}, []Stepped[int]{flat}
	rng := rand.New(rand.NewPCG(5, 7))
	for step := range 300 {
		i := len(tries) - 1 // the newest, mostly
		if rng.IntN(3) == 0 {
			i = rng.IntN(len(tries))
		}
		a, b := tries[i], flats[i]
		if step%11 == 5 {
			a, b = a.Reset(), b.Reset()
		} else {
			if a, err = a.Step(); err != nil {
				t.Fatal(err)
			}
			if b, err = b.Step(); err != nil {
				t.Fatal(err)
			}
		}
		x, err := a.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		y, _ := b.MarshalBinary()
		if string(x) != string(y) {
			t.Fatalf("step %d, of version %d: the trie's version differs from the array's", step, i)
		}
		tries, flats = append(tries, a), append(flats, b)
	}

	// Concurrent steps, with an agent that answers by the leaf alone.
	def, _ := sizedSequences(12)
	agent := Agent[int]{Action: func(v int) Result {
		return []Result{ResultSuccess, ResultRunning, ResultRunning, ResultFailure}[v*7%4]
	}}
	v, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	if !v.m.p.trie {
		t.Fatal("sizedSequences(12): want its words in a trie")
	}
	versions := []Stepped[int]{v}
	for range 40 {
		if v, err = v.Step(); err != nil {
			t.Fatal(err)
		}
		versions = append(versions, v)
	}
	want := make([]string, len(versions))
	for i, v := range versions {
		next, err := v.Step()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := next.MarshalBinary()
		want[i] = string(b)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 4*len(versions))
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 3 * len(versions) {
				i := (k*(g+1) + g) % len(versions)
				next, err := versions[i].Step()
				if err != nil {
					errs <- err.Error()
					return
				}
				if b, _ := next.MarshalBinary(); string(b) != want[i] {
					errs <- fmt.Sprintf("goroutine %d: a step of version %d differs from its step alone", g, i)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestTrieChunksAllocs steps a tree whose words are in a trie and which
// completes every tick with random answers (each step writes states all
// over its words, and the new version keeps them): the copies of the
// trie's nodes come from chunks of four steps' copies, so that a step
// allocates less than once on average (it allocated a chunk of leaves and
// one of inner nodes at every step when a chunk held one step's copies).
func TestTrieChunksAllocs(t *testing.T) {
	x := uint64(0x2545F4914F6CDD1D)
	def := balancedTree(12, false)
	tr, err := NewStepped(def, Agent[int]{Action: func(int) Result {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		if x&1 == 0 {
			return ResultSuccess
		}
		return ResultFailure
	}})
	if err != nil {
		t.Fatal(err)
	}
	if p := def.n.sprog.Load(); !p.trie {
		t.Skip("the words are not in a trie (BT_FLAT_WORDS)")
	}
	for range 20 {
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	var ms0, ms1 runtime.MemStats
	const steps = 2000
	runtime.ReadMemStats(&ms0)
	for range steps {
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&ms1)
	if n := float64(ms1.Mallocs-ms0.Mallocs) / steps; n >= 1 {
		t.Errorf("%.2f allocations a step, want fewer than 1", n)
	} else {
		t.Logf("%.2f allocations a step", n)
	}
}
