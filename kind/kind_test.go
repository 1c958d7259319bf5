package kind_test

import (
	"fmt"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
)

// TestString checks that every kind has a distinct snake_case name and that
// a value past the last kind prints as Kind(N).
func TestString(t *testing.T) {
	seen := map[string]kind.Kind{}
	k := kind.Leaf
	for ; k <= kind.EmptyInverter; k++ {
		s := k.String()
		if s == "" || strings.ToLower(s) != s || strings.Contains(s, " ") {
			t.Errorf("Kind(%d).String() = %q, want a snake_case name", uint8(k), s)
		}
		if o, dup := seen[s]; dup {
			t.Errorf("kinds %d and %d are both %q", uint8(o), uint8(k), s)
		}
		seen[s] = k
	}
	if got, want := k.String(), fmt.Sprintf("Kind(%d)", uint8(k)); got != want {
		t.Errorf("the kind past the last prints as %q, want %q", got, want)
	}
}

// Walking a definition, a renderer or exporter switches on each node's Kind.
func ExampleKind() {
	def := bt.Sequence(
		bt.Condition[string]("hungry"),
		bt.RepeatCount(3, bt.Leaf("eat")),
	)
	for n := range def.Preorder() {
		v, _ := n.Leaf()
		switch n.Kind() {
		case kind.Condition:
			fmt.Println("ask", v)
		case kind.Leaf:
			fmt.Println("do", v)
		case kind.Repeat:
			fmt.Println(n.Kind(), n.Params().Min, "times:")
		}
	}
	// Output:
	// ask hungry
	// repeat 3 times:
	// do eat
}
