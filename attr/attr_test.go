package attr_test

import (
	"fmt"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
)

// TestKindString checks each kind's Mistreevous name, and a value that is
// no kind.
func TestKindString(t *testing.T) {
	want := map[attr.Kind]string{attr.KindWhile: "while", attr.KindUntil: "until", attr.KindEntry: "entry", attr.KindOnStep: "step", attr.KindExit: "exit", 0: "Kind(0)", attr.KindExit + 1: "Kind(6)"}
	for k, w := range want {
		if got := k.String(); got != w {
			t.Errorf("Kind(%d).String() = %q, want %q", uint8(k), got, w)
		}
	}
}

// TestThenSucceed checks that ThenSucceed marks a guard and refuses a
// callback with a message naming it, leaving the callback as it was.
func TestThenSucceed(t *testing.T) {
	g := attr.Until("enemy near")
	if s := g.ThenSucceed(); !s.SucceedOnAbort || s.Kind != attr.KindUntil || s.Value != "enemy near" || g.SucceedOnAbort {
		t.Errorf("Until(...).ThenSucceed() = %+v (guard now %+v)", s, g)
	}
	e := attr.Exit("wipe")
	defer func() {
		if r := recover(); r != "attr.Attr.ThenSucceed: exit is not a guard" {
			t.Errorf("Exit(...).ThenSucceed() panicked with %v", r)
		}
		if e.SucceedOnAbort {
			t.Error("the refused callback changed")
		}
	}()
	e.ThenSucceed()
}

// A guard stops a running action when its condition no longer holds; an
// exit callback hears how the node ended.
func ExampleWhile() {
	hungry := true
	agent := bt.Agent[string]{
		Action:    func(a string) bt.Result { fmt.Println(a); return bt.ResultRunning },
		Condition: func(c string) bool { return hungry },
		Exit: func(v string, succeeded, aborted bool) {
			fmt.Println(v, "succeeded:", succeeded, "aborted:", aborted)
		},
	}
	def := bt.Leaf("eat").With(attr.While("hungry"), attr.Exit("wipe"))
	t, _ := bt.NewStepped(def, agent)
	t, _ = t.Step()
	hungry = false
	t, _ = t.Step()
	fmt.Println(t.State())
	// Output:
	// eat
	// wipe succeeded: false aborted: true
	// FAILED
}
