package behaviortree_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// signal is how a game follows a History of trees: it pushes the current
// version given each status in turn; Running makes no version.
func signal[L any](h bt.History[bt.Tree[L]], ss ...bt.Status) bt.History[bt.Tree[L]] {
	for _, s := range ss {
		if s != bt.Running {
			h = h.Push(h.Current().Signal(s))
		}
	}
	return h
}

// signalsOf returns the signals that made h's versions up to the current
// one.
func signalsOf[L any](h bt.History[bt.Tree[L]]) []bt.Status {
	var out []bt.Status
	for v := range h.All() {
		if s := v.LastSignal(); s != bt.Running {
			out = append(out, s)
		}
	}
	return out
}

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
	for i, c := range firstCases(loadConformance(t), 400) {
		h := bt.NewHistory(bt.Start(c.Tree, bt.WithSeed(1)))
		for k, s := range statuses(c.Signals) {
			next := signal(h, s)
			if u := next.Undo(); u.Current() != h.Current() || u.Pos() != h.Pos() {
				t.Fatalf("case %d step %d: Undo after Signal is not the identity", i, k)
			}
			if r := next.Undo().Redo(); r.Current() != next.Current() || r.Pos() != next.Pos() {
				t.Fatalf("case %d step %d: Redo after Undo is not the identity", i, k)
			}
			if next.Current().Value() != c.Values[k+1] {
				t.Fatalf("case %d step %d: value %q, want %q", i, k, next.Current().Value(), c.Values[k+1])
			}
			h = next
		}
		replayed := bt.Replay(c.Tree, 1, signalsOf(h))
		if replayed.Pos() != h.Pos() {
			t.Fatalf("case %d: replay has %d signals, live %d", i, replayed.Pos(), h.Pos())
		}
		var live []bt.Tree[string]
		for v := range h.All() {
			live = append(live, v)
		}
		k := 0
		for v := range replayed.All() {
			if !v.Equal(live[k]) {
				t.Fatalf("case %d: replayed version %d differs from the live one", i, k)
			}
			k++
		}
	}
}

// TestHistoryBranching checks that a signal after Undo drops the redo tail
// of that value only.
func TestHistoryBranching(t *testing.T) {
	h := bt.NewHistory(bt.Start(bt.Sequence(bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c"))))
	abc := signal(h, bt.Success, bt.Success) // at c
	back := abc.Undo()                       // at b, c redoable
	branch := signal(back, bt.Failure)       // b fails: the tree starts over at a
	if branch.CanRedo() || branch.Current().Value() != "a" || branch.Pos() != 2 {
		t.Fatalf("branch: redo %v, value %q, pos %d", branch.CanRedo(), branch.Current().Value(), branch.Pos())
	}
	if !back.CanRedo() || back.Redo().Current().Value() != "c" {
		t.Fatal("the older History lost its redo tail")
	}
	if abc.Current().Value() != "c" || abc.Pos() != 2 {
		t.Fatal("the oldest History changed")
	}
	if fmt.Sprint(signalsOf(branch)) != "[success failure]" || fmt.Sprint(signalsOf(abc)) != "[success success]" {
		t.Fatalf("signals %v and %v", signalsOf(branch), signalsOf(abc))
	}
	// No-ops return the receiver itself.
	start := bt.NewHistory(bt.Start(bt.Leaf("x")))
	if start.Undo() != start || start.Redo() != start {
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
			h = signal(h, statusOf(sig[i%len(sig)]))
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
		h = signal(h, statusOf(sig[i&(1<<16-1)]))
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
		h bt.History[bt.Tree[string]]
		m model
	}
	var all []kept
	h := bt.NewHistory(bt.Start(def))
	m := model{versions: []bt.Tree[string]{h.Current()}}
	check := func(step int, h bt.History[bt.Tree[string]], m model) {
		t.Helper()
		if !h.Current().Equal(m.versions[m.pos]) || h.Pos() != m.pos || h.Len() != len(m.versions) {
			t.Fatalf("step %d: current, Pos or Len differs (pos %d, len %d; model %d, %d)",
				step, h.Pos(), h.Len(), m.pos, len(m.versions))
		}
		if h.CanUndo() != (m.pos > 0) || h.CanRedo() != (m.pos+1 < len(m.versions)) {
			t.Fatalf("step %d: CanUndo/CanRedo differ", step)
		}
		i := 0
		for v := range h.All() {
			if !v.Equal(m.versions[i]) {
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
		switch op := r.IntN(21); {
		case op < 18:
			s := []bt.Status{bt.Success, bt.Failure}[r.IntN(2)]
			next := m.versions[m.pos].Signal(s)
			m = model{versions: append(append([]bt.Tree[string]{}, m.versions[:m.pos+1]...), next), pos: m.pos + 1}
			h = signal(h, s)
		case op < 19:
			for k := r.IntN(20); k > 0 && m.pos > 0; k-- {
				m.pos--
				h = h.Undo()
			}
		case op < 20:
			for k := r.IntN(20); k > 0 && m.pos+1 < len(m.versions); k-- {
				m.pos++
				h = h.Redo()
			}
		default: // go on from an older value: its next slot may be taken
			if len(all) > 0 && r.IntN(4) == 0 {
				k := all[r.IntN(len(all))]
				h, m = k.h, k.m
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

// TestHistoryLongBranches grows a History past 32*32 chunks of versions,
// so that its index of chunks is three levels deep, then branches it from
// random points with up to three thousand signals each, and checks every
// branch, and the trunk, against slices of versions.
func TestHistoryLongBranches(t *testing.T) {
	def := balanced(4)
	const n = 40000
	r := rand.New(rand.NewPCG(9, 9))
	trunk := []bt.Tree[string]{bt.Start(def)}
	h := bt.NewHistory(trunk[0])
	for len(trunk) < n {
		h = signal(h, statusOf(r.IntN(2) == 0))
		trunk = append(trunk, h.Current())
	}
	check := func(what string, h bt.History[bt.Tree[string]], want []bt.Tree[string]) {
		t.Helper()
		if h.Len() != len(want) || h.Pos() != len(want)-1 || !h.Current().Equal(want[len(want)-1]) {
			t.Fatalf("%s: Len %d, Pos %d, want %d versions", what, h.Len(), h.Pos(), len(want))
		}
		i := 0
		for v := range h.All() {
			if !v.Equal(want[i]) {
				t.Fatalf("%s: version %d differs", what, i)
			}
			i++
		}
	}
	check("trunk", h, trunk)
	type branch struct {
		h    bt.History[bt.Tree[string]]
		want []bt.Tree[string]
	}
	var branches []branch
	for trial := 0; trial < 40; trial++ {
		from := r.IntN(n)
		b := h
		for b.Pos() > from {
			b = b.Undo()
		}
		if !b.Current().Equal(trunk[from]) {
			t.Fatalf("branch %d: version %d after Undo differs", trial, from)
		}
		want := append([]bt.Tree[string]{}, trunk[:from+1]...)
		for k := 1 + r.IntN(3000); k > 0; k-- {
			s := statusOf(r.IntN(2) == 0)
			b = signal(b, s)
			want = append(want, want[len(want)-1].Signal(s))
		}
		check(fmt.Sprintf("branch %d from %d", trial, from), b, want)
		branches = append(branches, branch{b, want})
	}
	check("trunk after the branches", h, trunk)
	for i, b := range branches {
		check(fmt.Sprintf("branch %d at the end", i), b.h, b.want)
	}
}

// TestHistoryPosAndLen checks that Pos is the current version's index and
// Len the number of versions, redo tail included.
func TestHistoryPosAndLen(t *testing.T) {
	h := bt.NewHistory(bt.Start(balanced(3)))
	check := func(what string, h bt.History[bt.Tree[string]], pos, n int) {
		t.Helper()
		if h.Pos() != pos || h.Len() != n {
			t.Errorf("%s: Pos %d, Len %d; want %d, %d", what, h.Pos(), h.Len(), pos, n)
		}
	}
	check("new", h, 0, 1)
	three := signal(h, bt.Success, bt.Failure, bt.Success)
	check("three signals", three, 3, 4)
	check("undone", three.Undo(), 2, 4)
	check("undone twice, redone", three.Undo().Undo().Redo(), 2, 4)
	check("undone and branched", signal(three.Undo().Undo(), bt.Failure), 2, 3)
	check("the older value", three, 3, 4)
}

// TestReplayInvalidSignal checks that Replay refuses a status that is not
// Success, Failure or Running, with a precise message.
func TestReplayInvalidSignal(t *testing.T) {
	def := balanced(3)
	got := func() (msg any) {
		defer func() { msg = recover() }()
		bt.Replay(def, 1, []bt.Status{bt.Success, bt.Running, bt.Status(3)})
		return nil
	}()
	if want := "behaviortree.Replay: invalid Status(3) at index 2"; got != want {
		t.Errorf("panic %v, want %q", got, want)
	}
}

// TestHistoryConcurrentSignals appends, from many goroutines at once, to
// shared History values: at a chunk's frontier, behind it, and undone. Run
// with -race. Every result must hold the versions its own signals made,
// and no shared value may change.
func TestHistoryConcurrentSignals(t *testing.T) {
	def := balanced(4)
	start := bt.NewHistory(bt.Start(def))
	for i := 0; i < 31*33+20; i++ { // into the second chunk of the second index node

		start = signal(start, statusOf(i%3 != 0))
	}
	shared := []bt.History[bt.Tree[string]]{start, start, start.Undo(), start.Undo().Undo().Undo().Undo().Undo().Undo().Undo().Undo().Undo().Undo()}
	versions := func(h bt.History[bt.Tree[string]]) []bt.Tree[string] {
		var out []bt.Tree[string]
		for v := range h.All() {
			out = append(out, v)
		}
		return out
	}
	same := func(a, b []bt.Tree[string]) bool {
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if !a[i].Equal(b[i]) {
				return false
			}
		}
		return true
	}
	const workers = 8
	for round := 0; round < 30; round++ {
		before := make([][]bt.Tree[string], len(shared))
		for i, h := range shared {
			before[i] = versions(h)
		}
		type result struct {
			from    int
			signals []bt.Status
			got     bt.History[bt.Tree[string]]
		}
		results := make([]result, workers)
		var wg sync.WaitGroup
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(round), uint64(w)))
				res := result{from: r.IntN(len(shared))}
				res.got = shared[res.from]
				for k := 1 + r.IntN(70); k > 0; k-- {
					s := statusOf(r.IntN(2) == 0)
					res.got = signal(res.got, s)
					res.signals = append(res.signals, s)
				}
				results[w] = res
			}(w)
		}
		wg.Wait()
		for i, h := range shared {
			if !same(versions(h), before[i]) {
				t.Fatalf("round %d: shared History %d changed", round, i)
			}
		}
		var next []bt.History[bt.Tree[string]]
		for w, res := range results {
			want := append([]bt.Tree[string]{}, before[res.from]...)
			for _, s := range res.signals {
				want = append(want, want[len(want)-1].Signal(s))
			}
			if !same(versions(res.got), want) || res.got.Len() != len(want) {
				t.Fatalf("round %d, worker %d: the versions differ from its own signals'", round, w)
			}
			next = append(next, res.got)
			if w%3 == 0 {
				next = append(next, res.got.Undo().Undo())
			}
		}
		shared = next
	}
}

// A History keeps every version: undo a move, try another, and the old line
// is still there in the older History value.
func ExampleHistory() {
	plan := bt.Sequence(bt.Leaf("scout"), bt.Leaf("attack"), bt.Leaf("retreat"))
	h := bt.NewHistory(bt.Start(plan))
	h = h.Push(h.Current().Succeed()) // scouting worked: now attack
	attacked := h.Push(h.Current().Succeed())
	fmt.Println(attacked.Current().Value(), attacked.Pos())

	undone := attacked.Undo()                      // back before the attack
	failed := undone.Push(undone.Current().Fail()) // this time it fails: the plan starts over
	fmt.Println(failed.Current().Value(), failed.Pos())
	fmt.Println(attacked.Current().Value(), attacked.Pos()) // unchanged
	for v := range failed.All() {
		fmt.Print(v.Value(), " ")
	}
	fmt.Println()
	// Output:
	// retreat 2
	// scout 2
	// retreat 2
	// scout attack scout
}

// TestHistorySignalAt: a History keeps the versions that Tree.SignalAt
// makes from any leaf of a running parallel's frontier, and undoes them.
func TestHistorySignalAt(t *testing.T) {
	def := bt.Sequence(bt.Parallel(bt.Leaf("move"), bt.Leaf("scan")), bt.Leaf("report"))
	h := bt.NewHistory(bt.Start(def))
	second := func(tr bt.Tree[string]) bt.Focus[string] {
		var fs []bt.Focus[string]
		for f := range tr.Frontier() {
			fs = append(fs, f)
		}
		if len(fs) != 2 {
			t.Fatalf("frontier %v, want 2 leaves", fs)
		}
		return fs[1]
	}
	f := second(h.Current())
	if f.Value() != "scan" {
		t.Fatalf("second leaf %q", f.Value())
	}
	scanned, err := h.Current().SignalAt(f, bt.Success) // scan ends; move still runs
	if err != nil {
		t.Fatal(err)
	}
	h1 := h.Push(scanned)
	if h1.Len() != 2 || h1.Pos() != 1 {
		t.Fatalf("after SignalAt: len %d pos %d", h1.Len(), h1.Pos())
	}
	if got := frontier(h1.Current()); got != "move" {
		t.Fatalf("after scan succeeded the frontier is %v, want [move]", got)
	}
	if h.Len() != 1 {
		t.Fatal("Push changed its receiver")
	}
	// A focus of an older version is refused.
	if _, err := h1.Current().SignalAt(f, bt.Success); err == nil {
		t.Errorf("signalling a stale focus: no error")
	}
	h3 := signal(h1, bt.Success) // move succeeds: the parallel succeeds, report is next
	if v := h3.Current().Value(); v != "report" {
		t.Errorf("then Succeed: at %q, want report", v)
	}
	if u := h3.Undo(); frontier(u.Current()) != "move" {
		t.Errorf("undo: frontier %v", frontier(u.Current()))
	}
}
