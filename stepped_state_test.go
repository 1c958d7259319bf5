package behaviortree

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zipbt/behaviortree/attr"
)

func TestSteppedSaveRestore(t *testing.T) {
	calls := 0
	agent := Agent[string]{
		Action: func(v string) Result {
			calls++
			return []Result{ResultSuccess, ResultRunning, ResultFailure}[(calls+len(v))%3]
		},
		Condition: func(string) bool { calls++; return calls%5 != 0 },
	}
	def := Root(Repeat(Sequence(
		Lotto([]int{2, 0, 1}, RepeatRange(1, 3, Leaf("a")), RetryCount(2, Leaf("bb")), WaitRange[string](100*time.Millisecond, 300*time.Millisecond)),
		Parallel(Leaf("c"), Wait[string](200*time.Millisecond)).With(attr.While("calm")),
	)))
	tr, err := NewStepped(def, agent, WithSeed(7), WithTurnClock(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	for step := range 300 {
		data, err := tr.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		back, err := tr.Restore(data)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		// Both go on alike from the same agent answers.
		saved := calls
		next1, err1 := tr.Step()
		calls = saved
		next2, err2 := back.Step()
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		a, _ := next1.MarshalBinary()
		b, _ := next2.MarshalBinary()
		if string(a) != string(b) {
			t.Fatalf("step %d: the restored version steps differently", step)
		}
		tr = next1
	}
	data, _ := tr.MarshalBinary()
	// Damaged input: every truncation and many bit flips are errors or
	// valid versions, never panics.
	for i := range len(data) {
		if _, err := tr.Restore(data[:i]); err == nil {
			t.Errorf("truncated at %d: no error", i)
		}
		for bit := range 8 {
			d := append([]byte(nil), data...)
			d[i] ^= 1 << bit
			if v, err := tr.Restore(d); err == nil {
				for range 5 {
					if v, err = v.Step(); err != nil {
						break
					}
				}
			}
		}
	}
	other, _ := NewStepped(Root(Leaf("x")), agent)
	if _, err := other.Restore(data); !errors.Is(err, ErrWrongDefinition) {
		t.Errorf("another definition: %v", err)
	}
}

// TestSteppedSaveAsync: a version with a pending async result saves, and
// the restored version settles it by its id; a settled one saves with its
// result, and with the looks that still see it pending, so that the
// restored version has the future of the one saved.
func TestSteppedSaveAsync(t *testing.T) {
	var calls []*Async
	agent := Agent[string]{Action: func(string) Result {
		a := NewAsync()
		calls = append(calls, a)
		return a.Result()
	}}
	tr, _ := NewStepped(Root(Sequence(Leaf("load"), Leaf("aim"))), agent)
	tr, _ = tr.Step()
	for _, save := range []func(Stepped[string]) ([]byte, error){Stepped[string].MarshalBinary, Stepped[string].MarshalJSON} {
		data, err := save(tr)
		if err != nil {
			t.Fatal(err)
		}
		restored, err := tr.Restore(data)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := restored.Async(calls[0].ID() + 1); ok {
			t.Fatal("Async found an id that is not pending")
		}
		a, ok := restored.Async(calls[0].ID())
		if !ok || a == calls[0] || a.ID() != calls[0].ID() {
			t.Fatalf("restored: the async result of id %d: %v", calls[0].ID(), ok)
		}
		n := 0
		for node, b := range restored.Pending() {
			if node != 2 || b != a {
				t.Fatalf("Pending: node %d", node)
			}
			n++
		}
		if n != 1 {
			t.Fatalf("Pending: %d results", n)
		}
		next, _ := restored.Step()
		if next.State() != StateRunning {
			t.Fatalf("unsettled after the restore: %v", next.State())
		}
		a.Succeed()
		next, err = next.Step()
		if err != nil || next.NodeState(2) != StateSucceeded || len(calls) != 2 || calls[1].ID() != 2 {
			t.Fatalf("settled after the restore: %v, %d calls (%v)", next.NodeState(2), len(calls), err)
		}
		calls = calls[:1]
	}
	if _, ok := calls[0].Settled(); ok {
		t.Fatal("settling the restored result settled the first")
	}
	// Settled after a step that saw it pending: the saved version keeps
	// that look pending.
	later, _ := tr.Step()
	calls[0].Succeed()
	data, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := tr.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []State{StateRunning, StateSucceeded} {
		var got, orig Stepped[string]
		got, _ = restored.Step()
		orig, _ = tr.Step()
		if got.NodeState(2) != want || orig.NodeState(2) != want {
			t.Fatalf("step %d: restored %v, original %v, want %v", i, got.NodeState(2), orig.NodeState(2), want)
		}
		restored, tr = got, orig
	}
	if next, _ := later.Step(); next.NodeState(2) != StateSucceeded {
		t.Fatalf("the version after the look that saw it pending: %v", next.NodeState(2))
	}
}

// TestSteppedRestoreBadAsync: a damaged async section is an error naming
// the byte, never a panic.
func TestSteppedRestoreBadAsync(t *testing.T) {
	agent := Agent[string]{Action: func(string) Result { return NewAsync().Result() }}
	tr, _ := NewStepped(Root(Leaf("load")), agent)
	tr, _ = tr.Step()
	data, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	sec := len(data) - 5 // the last id, the count, the node, the id, the result
	for _, c := range []struct {
		name string
		edit func([]byte) []byte
	}{
		{"truncated", func(b []byte) []byte { return b[:len(b)-1] }},
		{"zero last id", func(b []byte) []byte { b[sec] = 0; return b }},
		{"id above the last", func(b []byte) []byte { b[sec+3] = 9; return b }},
		{"not an action", func(b []byte) []byte { b[sec+2] = 0; return b }},
		{"bad result", func(b []byte) []byte { b[sec+4] = 7; return b }},
		{"data after", func(b []byte) []byte { return append(b, 1, 2) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := c.edit(append([]byte(nil), data...))
			if _, err := tr.Restore(b); err == nil {
				t.Fatal("no error")
			}
			if _, err := tr.Restore(b); err != nil && c.name != "data after" && c.name != "truncated" && !strings.Contains(err.Error(), "async results, byte ") {
				t.Fatalf("error %v does not name the byte", err)
			}
		})
	}
}
