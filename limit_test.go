package behaviortree_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// This file holds the tabulated limit of the Value/Succeed/Fail style: every
// reachable state of a compiled definition numbered, with its leaf's value
// and, per signal, the number of the state it leads to. A signal is then one
// table load, which no engine that keeps a version's state can beat by much;
// BenchmarkLimit and TestLimitInterleaved measure the engine beside it.

// table is the tabulated form of a definition.
type table[L any] struct {
	value  []L            // value[s]: the focused leaf's value in state s
	next   [][2]int32     // next[s][1]: the state after Succeed; next[s][0]: after Fail
	status [][2]bt.Status // status[s][o]: the Status of the version that signal makes
}

// maxTableStates bounds the exploration: the trees tabulated here have a few
// hundred states.
const maxTableStates = 1 << 20

// tabulate explores every state reachable from Start(def) by Succeed and
// Fail, numbering them in the order it finds them (Start's is 0). It fails
// for a definition whose versions carry state that bt.StateKey does not
// describe (random, custom or parallel nodes), and past maxTableStates.
func tabulate[L any](def bt.Node[L]) (*table[L], error) {
	start := bt.Start(def)
	key, ok := bt.StateKey(start)
	if !ok {
		return nil, fmt.Errorf("tabulate: state 0: a version with extra state cannot be tabulated")
	}
	ids := map[any]int32{key: 0}
	states := []bt.Tree[L]{start}
	tab := &table[L]{}
	for s := 0; s < len(states); s++ {
		t := states[s]
		tab.value = append(tab.value, t.Value())
		var next [2]int32
		var status [2]bt.Status
		for o, u := range [2]bt.Tree[L]{t.Fail(), t.Succeed()} {
			k, ok := bt.StateKey(u)
			if !ok {
				return nil, fmt.Errorf("tabulate: state %d: a version with extra state cannot be tabulated", s)
			}
			id, seen := ids[k]
			if !seen {
				if len(states) == maxTableStates {
					return nil, fmt.Errorf("tabulate: more than %d states", maxTableStates)
				}
				id = int32(len(states))
				ids[k] = id
				states = append(states, u)
			}
			next[o], status[o] = id, u.Status()
		}
		tab.next = append(tab.next, next)
		tab.status = append(tab.status, status)
	}
	return tab, nil
}

// TestTabulatedLimit checks that the table of each benchmark tree says what
// the engine does, value and status, along a long random run of signals.
func TestTabulatedLimit(t *testing.T) {
	for _, tc := range []struct {
		name string
		def  bt.Node[string]
	}{
		{"AI B", aiB()},
		{"balanced depth 8", balanced(8)},
		{"RepeatN counters", bt.Sequence(bt.Leaf("a"), bt.RepeatN(3, bt.Select(bt.Leaf("b"), bt.RepeatN(2, bt.Leaf("c")))))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := tabulate(tc.def)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d states", len(tab.value))
			r := rand.New(rand.NewPCG(31, 3))
			tree, s := bt.Start(tc.def), int32(0)
			for i := 0; i < 100000; i++ {
				if got, want := tab.value[s], tree.Value(); got != want {
					t.Fatalf("signal %d: table says %q, engine %q", i, got, want)
				}
				o := r.IntN(2)
				if o == 1 {
					tree = tree.Succeed()
				} else {
					tree = tree.Fail()
				}
				if got, want := tab.status[s][o], tree.Status(); got != want {
					t.Fatalf("signal %d: table's status %v, engine's %v", i, got, want)
				}
				s = tab.next[s][o]
			}
		})
	}
}

// TestTabulateRefuses checks that a definition with random draws is not
// tabulated: its states are more than its focus.
func TestTabulateRefuses(t *testing.T) {
	if _, err := tabulate(bt.Random(bt.Leaf("a"), bt.Leaf("b"))); err == nil {
		t.Error("tabulate of a Random: no error")
	}
}

// limitPair is one benchmark beside its tabulated limit: tree(n) and
// table(n) each do n ops, one op being Value() plus one signal, or the table
// loads in their place, and carry their state over to the next call.
type limitPair struct {
	name        string
	tree, table func(n int)
}

// limitPairs returns (a) and (b), as BenchmarkAIB and BenchmarkBalanced8
// run them, each beside its table.
func limitPairs(tb testing.TB) []limitPair {
	ai, err := tabulate(aiB())
	if err != nil {
		tb.Fatal(err)
	}
	bal, err := tabulate(balanced(8))
	if err != nil {
		tb.Fatal(err)
	}
	aiTree, aiGoRights := bt.Start(aiB()), 0
	aiState, aiTabGoRights := int32(0), 0
	balTree, balState, balSig := bt.Start(balanced(8)), int32(0), bits(1<<16)
	balI, balTabI := 0, 0
	return []limitPair{{
		name: "AIB",
		tree: func(n int) {
			tree, goRights := aiTree, aiGoRights
			for i := 0; i < n; i++ {
				v := tree.Value()
				if v == "go_right" {
					goRights++
					if goRights%10 == 0 {
						tree = tree.Fail()
						continue
					}
				}
				tree = tree.Succeed()
			}
			sinkString = tree.Value()
			aiTree, aiGoRights = tree, goRights
		},
		table: func(n int) {
			s, goRights := aiState, aiTabGoRights
			for i := 0; i < n; i++ {
				v := ai.value[s]
				if v == "go_right" {
					goRights++
					if goRights%10 == 0 {
						s = ai.next[s][0]
						continue
					}
				}
				s = ai.next[s][1]
			}
			sinkString = ai.value[s]
			aiState, aiTabGoRights = s, goRights
		},
	}, {
		name: "Balanced8",
		tree: func(n int) {
			tree, sig, j := balTree, balSig, balI
			for i := 0; i < n; i++ {
				sinkString = tree.Value()
				if sig[(i+j)&(1<<16-1)] {
					tree = tree.Succeed()
				} else {
					tree = tree.Fail()
				}
			}
			balTree, balI = tree, j+n
		},
		table: func(n int) {
			s, sig, j := balState, balSig, balTabI
			for i := 0; i < n; i++ {
				sinkString = bal.value[s]
				if sig[(i+j)&(1<<16-1)] {
					s = bal.next[s][1]
				} else {
					s = bal.next[s][0]
				}
			}
			balState, balTabI = s, j+n
		},
	}}
}

// BenchmarkLimit measures the benchmarks (a) and (b) (BenchmarkAIB,
// BenchmarkBalanced8) beside their tabulated limit, in one run: the same
// handler and signals, with table loads in place of Value and the signal.
// Run it with -count to interleave the two:
//
//	go test -run '^$' -bench Limit -count 6
//
// On a busy machine, TestLimitInterleaved (limit_linux_test.go) is steadier.
func BenchmarkLimit(b *testing.B) {
	for _, p := range limitPairs(b) {
		b.Run(p.name+"/tree", func(b *testing.B) {
			b.ReportAllocs()
			p.tree(b.N)
		})
		b.Run(p.name+"/table", func(b *testing.B) {
			b.ReportAllocs()
			p.table(b.N)
		})
	}
}
