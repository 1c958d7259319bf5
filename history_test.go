package behaviortree_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

func statuses(sig string) []bt.Status {
	out := make([]bt.Status, len(sig))
	for i, s := range sig {
		out[i] = map[rune]bt.Status{'s': bt.Success, 'f': bt.Failure, 'r': bt.Running}[s]
	}
	return out
}

// TestHistoryLaws checks, over the conformance trees: Undo after a signal
// is the identity; Redo after Undo is too; Replay equals the live run.
func TestHistoryLaws(t *testing.T) {
	for i, c := range loadConformance(t)[:400] {
		h := bt.NewHistory(bt.Start(c.Tree, bt.WithSeed(1)))
		for k, s := range statuses(c.Signals) {
			next := h.Signal(s)
			if u := next.Undo(); u.Current() != h.Current() || u.Len() != h.Len() {
				t.Fatalf("case %d step %d: Undo after Signal is not the identity", i, k)
			}
			if r := next.Undo().Redo(); r.Current() != next.Current() || r.Len() != next.Len() {
				t.Fatalf("case %d step %d: Redo after Undo is not the identity", i, k)
			}
			if next.Current().Value() != c.Values[k+1] {
				t.Fatalf("case %d step %d: value %q, want %q", i, k, next.Current().Value(), c.Values[k+1])
			}
			h = next
		}
		replayed := bt.Replay(c.Tree, 1, h.Signals())
		if replayed.Len() != h.Len() {
			t.Fatalf("case %d: replay has %d signals, live %d", i, replayed.Len(), h.Len())
		}
		var live []bt.Tree[string]
		for v := range h.All() {
			live = append(live, v)
		}
		k := 0
		for v, s := range replayed.All() {
			if !v.Equal(live[k]) || s != live[k].LastSignal() {
				t.Fatalf("case %d: replayed version %d differs from the live one", i, k)
			}
			k++
		}
	}
}

// TestHistoryBranching checks that a signal after Undo drops the redo tail
// of that value only.
func TestHistoryBranching(t *testing.T) {
	h := bt.NewHistory(bt.Start(bt.Sequence(bt.Leaves("a", "b", "c")...)))
	abc := h.Succeed().Succeed() // at c
	back := abc.Undo()           // at b, c redoable
	branch := back.Fail()        // b fails: the tree starts over at a
	if branch.CanRedo() || branch.Current().Value() != "a" || branch.Len() != 2 {
		t.Fatalf("branch: redo %v, value %q, len %d", branch.CanRedo(), branch.Current().Value(), branch.Len())
	}
	if !back.CanRedo() || back.Redo().Current().Value() != "c" {
		t.Fatal("the older History lost its redo tail")
	}
	if abc.Current().Value() != "c" || abc.Len() != 2 {
		t.Fatal("the oldest History changed")
	}
	if fmt.Sprint(branch.Signals()) != "[success failure]" || fmt.Sprint(abc.Signals()) != "[success success]" {
		t.Fatalf("signals %v and %v", branch.Signals(), abc.Signals())
	}
	// No-ops return the receiver itself.
	start := bt.NewHistory(bt.Start(bt.Leaf("x")))
	if start.Undo() != start || start.Redo() != start || start.Signal(bt.Running) != start {
		t.Fatal("a no-op did not return the receiver")
	}
}

// historyBytes returns the heap held by a History of count successive
// versions, per version.
func historyBytes(count int, sig []bool) float64 {
	def := balanced(8)
	bt.Start(def)
	return heapPerItem(count, func() any {
		h := bt.NewHistory(bt.Start(def))
		for i := 1; i < count; i++ {
			h = h.Signal(statusOf(sig[i%len(sig)]))
		}
		return h
	})
}

// BenchmarkHistorySignal appends one signal to a History.
func BenchmarkHistorySignal(b *testing.B) {
	h := bt.NewHistory(bt.Start(balanced(8)))
	sig := bits(1 << 16)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h = h.Signal(statusOf(sig[i&(1<<16-1)]))
	}
}

// BenchmarkHistoryRetained reports the History memory figure as B/version.
func BenchmarkHistoryRetained(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.ReportMetric(historyBytes(1000000, bits(1<<16)), "B/version")
	}
}

// TestHistoryAgainstModel drives Histories with random Signal, Undo and
// Redo, across many chunk boundaries, against a plain slice model, and
// keeps every History value made to check that none ever changes.
func TestHistoryAgainstModel(t *testing.T) {
	type model struct {
		versions []bt.Tree[string]
		pos      int
	}
	def := balanced(4)
	r := rand.New(rand.NewPCG(77, 1))
	type kept struct {
		h bt.History[string]
		m model
	}
	var all []kept
	h := bt.NewHistory(bt.Start(def))
	m := model{versions: []bt.Tree[string]{h.Current()}}
	check := func(step int, h bt.History[string], m model) {
		t.Helper()
		if !h.Current().Equal(m.versions[m.pos]) || h.Len() != m.pos {
			t.Fatalf("step %d: current or Len differs (len %d, model %d)", step, h.Len(), m.pos)
		}
		if h.CanUndo() != (m.pos > 0) || h.CanRedo() != (m.pos+1 < len(m.versions)) {
			t.Fatalf("step %d: CanUndo/CanRedo differ", step)
		}
		i := 0
		for v, s := range h.All() {
			if !v.Equal(m.versions[i]) || s != m.versions[i].LastSignal() {
				t.Fatalf("step %d: All differs at %d", step, i)
			}
			i++
		}
		if i != m.pos+1 {
			t.Fatalf("step %d: All gave %d versions, want %d", step, i, m.pos+1)
		}
	}
	longest := 0
	for step := 0; step < 3000; step++ {
		longest = max(longest, len(m.versions))
		switch op := r.IntN(20); {
		case op < 18:
			s := []bt.Status{bt.Success, bt.Failure}[r.IntN(2)]
			next := m.versions[m.pos].Signal(s)
			m = model{versions: append(append([]bt.Tree[string]{}, m.versions[:m.pos+1]...), next), pos: m.pos + 1}
			h = h.Signal(s)
		case op < 19:
			for k := r.IntN(20); k > 0 && m.pos > 0; k-- {
				m.pos--
				h = h.Undo()
			}
		default:
			for k := r.IntN(20); k > 0 && m.pos+1 < len(m.versions); k-- {
				m.pos++
				h = h.Redo()
			}
		}
		check(step, h, m)
		if step%10 == 0 {
			all = append(all, kept{h, m})
		}
	}
	for i, k := range all {
		check(-i, k.h, k.m)
	}
	if longest < 5*32 {
		t.Fatalf("the timeline never grew past %d versions: chunks were not exercised", longest)
	}
	t.Logf("longest timeline: %d versions", longest)
}

// A History keeps every version: undo a move, try another, and the old line
// is still there in the older History value.
func ExampleHistory() {
	plan := bt.Sequence(bt.Leaves("scout", "attack", "retreat")...)
	h := bt.NewHistory(bt.Start(plan))
	h = h.Succeed() // scouting worked: now attack
	attacked := h.Succeed()
	fmt.Println(attacked.Current().Value(), attacked.Len())

	undone := attacked.Undo() // back before the attack
	failed := undone.Fail()   // this time it fails: the plan starts over
	fmt.Println(failed.Current().Value(), failed.Signals())
	fmt.Println(attacked.Current().Value(), attacked.Signals()) // unchanged
	// Output:
	// retreat 2
	// scout [success failure]
	// retreat [success success]
}
