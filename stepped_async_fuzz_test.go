package behaviortree_test

import (
	"bytes"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// asyncFuzzTree is a tree whose actions "a" and "b" return async results
// and whose "c" writes memory, run by an agent that keeps what it
// returned in calls.
func asyncFuzzTree(tb testing.TB, calls *[]*bt.Async) bt.Stepped[string] {
	tb.Helper()
	agent := bt.Agent[string]{MemoryAction: func(v string, b *bt.Blackboard) bt.Result {
		if v == "c" {
			n, _ := b.Get("n")
			k, _ := n.(int)
			b.Set("n", k+1)
			return bt.ResultSuccess
		}
		a := bt.NewAsync()
		*calls = append(*calls, a)
		return a.Result()
	}}
	def := bt.Root(bt.Parallel(bt.Leaf("a"), bt.Sequence(bt.Leaf("c"), bt.Leaf("b")), bt.Leaf("a")))
	tr, err := bt.NewStepped(def, agent)
	if err != nil {
		tb.Fatal(err)
	}
	return tr
}

// FuzzRestoreSteppedAsync restores damaged saves of versions with async
// results, pending and settled: never a panic; a state that restores
// saves back to the same bytes, and steps.
func FuzzRestoreSteppedAsync(f *testing.F) {
	var calls []*bt.Async
	tr := asyncFuzzTree(f, &calls)
	v := tr
	for i := range 6 {
		b, err := v.MarshalBinary()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		if v, err = v.Step(); err != nil {
			f.Fatal(err)
		}
		if i == 2 {
			calls[0].Succeed()
			calls[1].Fail()
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var calls []*bt.Async
		r, err := asyncFuzzTree(t, &calls).Restore(data)
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
		for _, a := range r.Pending() {
			a.Succeed()
		}
		for range 3 {
			if r, err = r.Step(); err != nil {
				t.Fatalf("a restored version does not step: %v", err)
			}
			if _, err := r.MarshalBinary(); err != nil {
				t.Fatalf("a version reached does not save: %v", err)
			}
		}
	})
}
