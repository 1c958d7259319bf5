package behaviortree_test

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/fluent"
)

// steppedForHistory returns a stepped tree whose agent is pure, so that
// stepping a version again gives the same version: its changes come from
// lotto draws (the version's own generator), a turn-clock wait and retry
// counts.
func steppedForHistory(t *testing.T) bt.Stepped[string] {
	t.Helper()
	def := bt.Root(bt.Repeat(bt.Sequence(
		bt.Lotto(nil, bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c")),
		bt.Wait[string](250*time.Millisecond),
		bt.Select(bt.RetryCount(2, bt.Leaf("fail")), bt.Leaf("a")),
	)))
	agent := bt.Agent[string]{Action: func(v string) bt.Result {
		if v == "fail" {
			return bt.ResultFailure
		}
		return bt.ResultSuccess
	}}
	st, err := bt.NewStepped(def, agent, bt.WithTurnClock(100*time.Millisecond), bt.WithSeed(7))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func saved(t *testing.T, s bt.Stepped[string]) []byte {
	t.Helper()
	b, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSteppedHistoryModel applies random steps, resets, undos and redos to
// a History of stepped versions and to a plain model (a slice of versions
// and a position), keeping every History value, and checks at the end that
// every kept value still holds exactly the versions it held.
func TestSteppedHistoryModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	h := bt.NewHistory(steppedForHistory(t))
	m := steppedModel{versions: [][]byte{saved(t, h.Current())}}
	type kept struct {
		h bt.History[bt.Stepped[string]]
		m steppedModel
	}
	var all []kept
	for op := 0; op < 2000; op++ {
		switch r := rng.IntN(10); {
		case r < 6:
			next, err := h.Current().Step()
			if err != nil {
				t.Fatal(err)
			}
			want, _ := m.versionAt(t, h).Step()
			m.versions = append(append([][]byte{}, m.versions[:m.pos+1]...), saved(t, want))
			m.pos++
			h = h.Push(next)
		case r < 7:
			h = h.Push(h.Current().Reset())
			m.versions = append(append([][]byte{}, m.versions[:m.pos+1]...), saved(t, m.versionAt(t, h).Reset()))
			m.pos++
		case r < 9:
			h = h.Undo()
			m.pos = max(0, m.pos-1)
		default:
			h = h.Redo()
			m.pos = min(len(m.versions)-1, m.pos+1)
		}
		if h.Pos() != m.pos || h.Len() != len(m.versions) {
			t.Fatalf("op %d: Pos %d Len %d, model %d %d", op, h.Pos(), h.Len(), m.pos, len(m.versions))
		}
		if !bytes.Equal(saved(t, h.Current()), m.versions[m.pos]) {
			t.Fatalf("op %d: the current version differs from the model's", op)
		}
		if op%10 == 0 {
			all = append(all, kept{h, m})
		}
	}
	for k, v := range all {
		i := 0
		for s := range v.h.All() {
			if !bytes.Equal(saved(t, s), v.m.versions[i]) {
				t.Fatalf("kept value %d: version %d changed", k, i)
			}
			i++
		}
		if i != v.m.pos+1 {
			t.Fatalf("kept value %d: All gave %d versions, want %d", k, i, v.m.pos+1)
		}
	}
}

// steppedModel is the plain model of a History of stepped versions: its versions, saved,
// and the position.
type steppedModel struct {
	versions [][]byte
	pos      int
}

// versionAt returns the model's current version, restored against h's
// definition.
func (m steppedModel) versionAt(t *testing.T, h bt.History[bt.Stepped[string]]) bt.Stepped[string] {
	t.Helper()
	s, err := h.Current().Restore(m.versions[m.pos])
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSteppedHistoryTick(t *testing.T) {
	var seen []time.Duration
	def := bt.Sequence(bt.Leaf(bt.Fluent{Name: "walk", Do: func(td bt.TimeData) bt.Status {
		seen = append(seen, td.DeltaTime)
		return bt.Success
	}}))
	tree, err := fluent.New(def)
	if err != nil {
		t.Fatal(err)
	}
	h := bt.NewHistory(tree)
	var events int
	next, err := h.Current().TickWith(bt.TimeData{DeltaTime: 500 * time.Millisecond}, func(bt.Event[bt.Fluent]) { events++ })
	if err != nil {
		t.Fatal(err)
	}
	h = h.Push(next)
	if next, err = h.Current().Tick(bt.TimeData{DeltaTime: 250 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	h = h.Push(next)
	if h.Len() != 3 || events == 0 || len(seen) != 2 || seen[0] != 500*time.Millisecond || seen[1] != 250*time.Millisecond {
		t.Fatalf("%d versions, %d events, deltas %v", h.Len(), events, seen)
	}
	if u := h.Undo(); u.Pos() != 1 || !u.CanRedo() {
		t.Errorf("undo: at %d", u.Pos())
	}
}

// BenchmarkSteppedHistoryKeep is the cost of keeping every version of a
// stepped tree of 65 nodes (a sequence of 64 actions that each run 3
// ticks, then succeed): "step" keeps none, "slice" appends each to a
// slice, "history" pushes each to a History. The difference to "step" is
// what keeping a version costs.
func BenchmarkSteppedHistoryKeep(b *testing.B) {
	var kids []bt.Node[int]
	for i := range 64 {
		kids = append(kids, bt.Leaf(i))
	}
	def := bt.Root(bt.Sequence(kids...))
	count := make([]int, 64)
	agent := bt.Agent[int]{Action: func(v int) bt.Result {
		count[v]++
		if count[v]%4 == 0 {
			return bt.ResultSuccess
		}
		return bt.ResultRunning
	}}
	t, err := bt.NewStepped(def, agent)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("step", func(b *testing.B) {
		b.ReportAllocs()
		v := t
		for range b.N {
			if v, err = v.Step(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("slice", func(b *testing.B) {
		b.ReportAllocs()
		vs := []bt.Stepped[int]{t}
		for range b.N {
			v, err := vs[len(vs)-1].Step()
			if err != nil {
				b.Fatal(err)
			}
			vs = append(vs, v)
		}
	})
	b.Run("history", func(b *testing.B) {
		b.ReportAllocs()
		h := bt.NewHistory(t)
		for range b.N {
			v, err := h.Current().Step()
			if err != nil {
				b.Fatal(err)
			}
			h = h.Push(v)
		}
	})
}
