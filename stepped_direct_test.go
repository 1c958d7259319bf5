package behaviortree

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/zipbt/behaviortree/internal/testlong"
)

// directTrees returns trees too big for the step cache whose fresh
// evaluation takes moves from the top of a region: random trees of
// movable kinds with some that end a region, and the shapes that complete
// every tick (a wide select of conditions, a balanced sweep, reactive
// sequences of conditions guarding an action).
func directTrees() map[string]func() Node[int] {
	trees := map[string]func() Node[int]{
		"wide conditions": func() Node[int] {
			var kids []Node[int]
			for i := range 300 {
				kids = append(kids, Condition(i))
			}
			return Root(Select(kids...))
		},
		"sweep": func() Node[int] {
			var build func(h, first int) Node[int]
			build = func(h, first int) Node[int] {
				if h == 0 {
					if first%5 == 0 {
						return Condition(first)
					}
					return Leaf(first)
				}
				l, r := build(h-1, first), build(h-1, first+1<<(h-1))
				if h%2 == 0 {
					return Select(l, r)
				}
				return Sequence(l, r)
			}
			return Root(build(8, 0))
		},
		"guarded actions": func() Node[int] {
			var seqs []Node[int]
			for g := range 6 {
				var kids []Node[int]
				for i := range 16 {
					kids = append(kids, Condition(100*g+i))
				}
				kids = append(kids, Leaf(100*g+50))
				seqs = append(seqs, ReactiveSequence(kids...))
			}
			return Root(Select(seqs...))
		},
		"decorated": func() Node[int] {
			var kids []Node[int]
			for i := range 40 {
				switch i % 4 {
				case 0:
					kids = append(kids, Negate(Sequence(Leaf(i), Condition(1000+i))))
				case 1:
					kids = append(kids, AlwaysFail(Select(Condition(i), Leaf(1000+i))))
				case 2:
					kids = append(kids, AlwaysSucceed(Leaf(i)))
				default:
					kids = append(kids, ReactiveSelect(Condition(i), Negate(Leaf(1000+i))))
				}
			}
			return Root(Sequence(Select(kids[:20]...), Select(kids[20:]...)))
		},
	}
	for i, size := range []int{100, 150, 400, 900, 2500} {
		seed := uint64(0x9E3779B97F4A7C15) * uint64(i+1)
		trees[fmt.Sprintf("random %d", size)] = func() Node[int] { x := seed; return randomMovable(&x, size) }
	}
	return trees
}

// TestDirectMovesMatchRules steps each of directTrees, its words in an
// array and in a trie, three ways side by side with the same answers:
// with the direct moves, with them switched off, and with events (the
// general rules). The calls, the states and the saved bytes must be the
// same at every step; then every version of each line is stepped again
// (versions are persistent: a step never changes the version it steps),
// which must give the same again and leave the version as it was.
func TestDirectMovesMatchRules(t *testing.T) {
	for name, build := range directTrees() {
		for _, trie := range []bool{false, true} {
			saved := flatWordsMax
			if trie {
				flatWordsMax = 0
			} else {
				flatWordsMax = 1 << 30
			}
			def := build()
			_, err := NewStepped(def, cacheAgent(new(uint64), new([]string), false))
			flatWordsMax = saved
			if err != nil {
				t.Fatal(err)
			}
			if p := def.n.sprog.Load(); p.trie != trie || p.cache != nil || len(p.moves) == 0 && !strings.HasPrefix(name, "random") {
				t.Fatalf("%s: trie %v, cache %v, %d moves: want trie %v, no cache, moves", name, p.trie, p.cache != nil, len(p.moves), trie)
			}
			for seed := range testlong.Pick(uint64(1), 3) {
				for _, async := range []bool{false, true} {
					checkDirectMoves(t, fmt.Sprintf("%s, trie %v, seed %d, async %v", name, trie, seed, async), def, 11*seed+3, async, false)
				}
			}
			checkDirectMoves(t, fmt.Sprintf("%s, trie %v, steady", name, trie), def, 5, false, true)
		}
	}
}

// directLine is one way of stepping a tree: its agent's answers come from
// x, and its calls go to calls.
type directLine struct {
	x     uint64
	calls []string
	tr    Stepped[int]
	off   bool // the direct moves switched off
	rules bool // with events
}

// step steps v (l.tr if v is nil) with l's agent and way, the answers
// drawn from seed, and returns the version and a line for the comparison:
// the calls, the error, the states and the saved bytes.
func (l *directLine) step(v Stepped[int], seed uint64) (Stepped[int], string) {
	l.x, l.calls = seed|1, l.calls[:0]
	directMovesOff.Store(l.off)
	reuseWordsOff.Store(l.off)
	defer directMovesOff.Store(false)
	defer reuseWordsOff.Store(false)
	var nv Stepped[int]
	var err error
	if l.rules {
		nv, err = v.StepWith(func(Event[int]) {})
	} else {
		nv, err = v.Step()
	}
	data, merr := nv.MarshalBinary()
	var b strings.Builder
	fmt.Fprintf(&b, "%s | %v | %s | %x %v", strings.Join(l.calls, ","), err, stateString(nv), data, merr)
	return nv, b.String()
}

// stateString writes the states of t's nodes, one digit each.
func stateString(t Stepped[int]) string {
	b := make([]byte, t.size())
	for i := range b {
		b[i] = '0' + byte(t.NodeState(i))
	}
	return string(b)
}

// checkDirectMoves steps def 60 times three ways (directLine), with the
// answers of seed, or (steady) the same answers at every step, which
// make a tree that completes at every step end each step in the same
// states: the steps of flat words then share the words of the version
// they step (keepWords), which is checked too.
func checkDirectMoves(t *testing.T, name string, def Node[int], seed uint64, async, steady bool) {
	t.Helper()
	lines := []*directLine{{}, {off: true}, {rules: true}}
	for _, l := range lines {
		tr, err := NewStepped(def, cacheAgent(&l.x, &l.calls, async))
		if err != nil {
			t.Fatal(err)
		}
		l.tr = tr
	}
	versions := make([][]Stepped[int], len(lines))
	const steps = 60
	shared := 0 // steps of the first way that share the words of the version they step
	for i := range steps {
		s := seed*1000 + uint64(i)
		if steady {
			s = seed
		}
		var want string
		for k, l := range lines {
			versions[k] = append(versions[k], l.tr)
			var got string
			prev := l.tr
			l.tr, got = l.step(l.tr, s)
			if done := prev.State() >= StateSucceeded; done && !prev.m.p.trie && l.tr.words != nil {
				// The step cleared the states and wrote them again: it
				// shares the words of prev when they are the same, with
				// reuse on, and never with it off.
				same, share := slices.Equal(prev.wordsOf(), l.tr.wordsOf()), l.tr.words == prev.words
				switch {
				case k == 1 && share:
					t.Fatalf("%s, step %d: with reuse off, a step shares the words of the version it steps", name, i)
				case k != 1 && same != share:
					t.Fatalf("%s, step %d, way %d: the words are the same %v, shared %v", name, i, k, same, share)
				case k == 0 && share:
					shared++
				}
			}
			if k == 0 {
				want = got
			} else if got != want {
				t.Fatalf("%s, step %d: way %d gives\n%s\nwant\n%s", name, i, k, got, want)
			}
		}
		if i%17 == 9 {
			for _, l := range lines {
				l.tr = l.tr.Reset()
			}
		}
	}
	if steady && !def.n.sprog.Load().trie && strings.HasPrefix(name, "wide") && shared == 0 {
		t.Errorf("%s: no step shared the words of the version it stepped", name)
	}
	// Every version of every line again, each with other answers.
	for i := range steps {
		s := seed*7777 + uint64(i)
		var want string
		for k, l := range lines {
			v := versions[k][i]
			before, _ := v.MarshalBinary()
			_, got := l.step(v, s)
			if after, _ := v.MarshalBinary(); !slices.Equal(before, after) {
				t.Fatalf("%s: way %d: stepping version %d changed it", name, k, i)
			}
			if k == 0 {
				want = got
			} else if got != want {
				t.Fatalf("%s, version %d again: way %d gives\n%s\nwant\n%s", name, i, k, got, want)
			}
		}
	}
}

// TestReuseWordsConcurrent steps versions of big trees, flat and in a
// trie, from several goroutines at once, with an agent that answers by
// the leaf alone (so that most steps end in the states of the version
// they step, and share its words, and the others copy trie nodes into
// chunks): each step must give what a step of that version alone gives,
// and no version may change (run it with -race).
func TestReuseWordsConcurrent(t *testing.T) {
	for _, trie := range []bool{false, true} {
		saved := flatWordsMax
		if trie {
			flatWordsMax = 0
		} else {
			flatWordsMax = 1 << 30
		}
		x := uint64(0x51ED)
		def := randomMovable(&x, 600)
		agent := Agent[int]{
			Action: func(v int) Result {
				return []Result{ResultSuccess, ResultRunning, ResultFailure, ResultSuccess, ResultFailure}[v*7%5]
			},
			Condition: func(v int) bool { return v%3 != 0 },
		}
		v, err := NewStepped(def, agent)
		flatWordsMax = saved
		if err != nil {
			t.Fatal(err)
		}
		versions := []Stepped[int]{v}
		for i := range 60 {
			if i%13 == 7 {
				v = v.Reset()
			} else if v, err = v.Step(); err != nil {
				t.Fatal(err)
			}
			versions = append(versions, v)
		}
		saves := make([]string, len(versions))
		want := make([]string, len(versions))
		for i, v := range versions {
			b, _ := v.MarshalBinary()
			saves[i] = string(b)
			next, err := v.Step()
			if err != nil {
				t.Fatal(err)
			}
			b, _ = next.MarshalBinary()
			want[i] = string(b)
		}
		var wg sync.WaitGroup
		errs := make(chan string, 4*len(versions))
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range 5 * len(versions) {
					i := (k*(g+1) + g) % len(versions)
					next, err := versions[i].Step()
					if err != nil {
						errs <- err.Error()
						return
					}
					if b, _ := next.MarshalBinary(); string(b) != want[i] {
						errs <- fmt.Sprintf("trie %v, goroutine %d: a step of version %d differs from its step alone", trie, g, i)
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
		for i, v := range versions {
			if b, _ := v.MarshalBinary(); string(b) != saves[i] {
				t.Errorf("trie %v: version %d changed", trie, i)
			}
		}
	}
}
