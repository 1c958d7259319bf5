package behaviortree

import (
	"errors"
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

func TestSteppedSavePendingAsync(t *testing.T) {
	agent := Agent[string]{Action: func(string) Result { return NewAsync().Result() }}
	tr, _ := NewStepped(Root(Leaf("load")), agent)
	tr, _ = tr.Step()
	if _, err := tr.MarshalBinary(); !errors.Is(err, ErrPendingAsync) {
		t.Errorf("got %v, want ErrPendingAsync", err)
	}
}
