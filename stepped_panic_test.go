package behaviortree_test

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// gameCodeWithNilMap is an agent function with a bug: it writes to a nil
// map.
func gameCodeWithNilMap(scores map[string]int) bool {
	scores["shots"]++
	return true
}

// TestStepPanicError: an agent function that panics makes the step return
// a *PanicError that keeps the node, the function, the panic value and the
// stack: one line with %v, the stack (naming the function that panicked)
// with %+v, and the panic value through errors.As when it is an error. It
// holds both for a step by the engine's rules (with events) and for one
// that the step cache answers (a small tree stepped without events, once
// its state is cached).
func TestStepPanicError(t *testing.T) {
	broken := false
	agent := bt.Agent[string]{
		Action: func(string) bt.Result { return bt.ResultSuccess },
		Condition: func(v string) bool {
			if broken && v == "hit" {
				var scores map[string]int
				return gameCodeWithNilMap(scores)
			}
			return true
		},
	}
	def := bt.Root(bt.Sequence(bt.Leaf("aim"), bt.Condition("hit"), bt.Leaf("fire")))
	tr, err := bt.NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 { // the cache now has the tree's start states
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	broken = true
	for _, c := range []struct {
		name string
		step func() (bt.Stepped[string], error)
	}{
		{"rules", func() (bt.Stepped[string], error) { return tr.StepWith(func(bt.Event[string]) {}) }},
		{"cache", tr.Step},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.step()
			var pe *bt.PanicError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T), want a *PanicError", err, err)
			}
			if pe.Node != 3 || pe.Name != "hit" || pe.Call != "condition" {
				t.Errorf("PanicError names node %d (%s), %s; want node 3 (hit), condition", pe.Node, pe.Name, pe.Call)
			}
			var re runtime.Error
			if !errors.As(err, &re) || re != pe.Value {
				t.Errorf("the panic value %v (%T) is not the error's cause", pe.Value, pe.Value)
			}
			one := fmt.Sprintf("%v", err)
			if strings.Contains(one, "\n") || one != err.Error() {
				t.Errorf("%%v is not the one-line error: %q", one)
			}
			if want := "behaviortree.Stepped.Step: node 3 (hit): condition panicked: assignment to entry in nil map"; one != want {
				t.Errorf("error %q, want %q", one, want)
			}
			full := fmt.Sprintf("%+v", err)
			if !strings.HasPrefix(full, one+"\n") || !strings.Contains(full, "gameCodeWithNilMap") {
				t.Errorf("%%+v does not print the stack of the panic:\n%s", full)
			}
			if !strings.Contains(string(pe.Stack), "gameCodeWithNilMap") {
				t.Errorf("the stack does not name the function that panicked:\n%s", pe.Stack)
			}
		})
	}
}

// TestPanicErrorUnwrap: a PanicError unwraps to its value when it is an
// error, and to nil when it is not.
func TestPanicErrorUnwrap(t *testing.T) {
	boom := errors.New("boom")
	if e := (&bt.PanicError{Node: 1, Value: boom}); !errors.Is(e, boom) || e.Unwrap() != boom {
		t.Errorf("a PanicError of %v does not unwrap to it", boom)
	}
	if e := (&bt.PanicError{Node: 1, Value: "boom"}); e.Unwrap() != nil {
		t.Errorf("a PanicError of a string unwraps to %v", e.Unwrap())
	}
	e := &bt.PanicError{Node: -1, Value: 42, Stack: []byte("goroutine 1 [running]:\n")}
	if got, want := e.Error(), "behaviortree.Stepped.Step: the engine panicked: 42"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if got, want := fmt.Sprintf("%+v", e), e.Error()+"\ngoroutine 1 [running]:\n"; got != want {
		t.Errorf("%%+v = %q, want %q", got, want)
	}
	if got, want := fmt.Sprintf("%q", e), fmt.Sprintf("%q", e.Error()); got != want {
		t.Errorf("%%q = %s, want %s", got, want)
	}
}
