package behaviortree

import (
	"fmt"
	"slices"
	"strings"
	"testing"
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
			for seed := range uint64(3) {
				for _, async := range []bool{false, true} {
					checkDirectMoves(t, fmt.Sprintf("%s, trie %v, seed %d, async %v", name, trie, seed, async), def, 11*seed+3, async)
				}
			}
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
	defer directMovesOff.Store(false)
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

func checkDirectMoves(t *testing.T, name string, def Node[int], seed uint64, async bool) {
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
	for i := range steps {
		s := seed*1000 + uint64(i)
		var want string
		for k, l := range lines {
			versions[k] = append(versions[k], l.tr)
			var got string
			l.tr, got = l.step(l.tr, s)
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
