package behaviortree_test

import (
	"bytes"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// fuzzStepped is the definition FuzzRestoreStepped restores states of: every
// kind that keeps something between steps (lotto picks, repeat and retry
// counts, wait progress), guards, and more than 32 nodes, so that states
// live in the word array.
func fuzzStepped(t testing.TB) bt.Stepped[string] {
	t.Helper()
	var kids []bt.Node[string]
	for range 8 {
		kids = append(kids, bt.Sequence(bt.Leaf("a"), bt.Leaf("r")))
	}
	def := bt.Root(bt.Parallel(
		bt.Lotto([]int{0, 2, 1}, bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("r")),
		bt.RepeatRange(1, 4, bt.Sequence(bt.Leaf("a"), bt.WaitRange[string](50, 400))),
		bt.RetryCount(3, bt.Leaf("b")).With(bt.While("c")),
		bt.All(kids...),
		bt.Race(bt.Wait[string](300), bt.Condition("c")),
	))
	agent := bt.Agent[string]{
		Action: func(v string) bt.Result {
			switch v {
			case "a":
				return bt.ResultSuccess
			case "b":
				return bt.ResultFailure
			}
			return bt.ResultRunning
		},
		Condition: func(v string) bool { return v == "c" },
	}
	s, err := bt.NewStepped(def, agent, bt.WithTurnClock(0.1), bt.WithRandomSeed(3))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// FuzzRestoreStepped restores arbitrary bytes as a stepped version: never a
// panic; what restores saves back to the same bytes and can be stepped
// without a panic.
func FuzzRestoreStepped(f *testing.F) {
	s := fuzzStepped(f)
	v := s
	for i := range 12 {
		b, err := v.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		if v, err = v.Step(); err != nil {
			f.Fatal(err)
		}
		if i == 6 {
			v = v.Reset()
		}
	}
	f.Add([]byte("BTS\x02"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := s.Restore(data)
		if err != nil {
			return
		}
		back, err := r.MarshalBinary()
		if err != nil {
			t.Fatalf("a restored version does not save: %v", err)
		}
		if !bytes.Equal(back, data) {
			t.Fatalf("restored and saved again:\n got %x\nwant %x", back, data)
		}
		for range 5 {
			if r, err = r.Step(); err != nil {
				t.Fatalf("a restored version does not step: %v", err)
			}
		}
	})
}
