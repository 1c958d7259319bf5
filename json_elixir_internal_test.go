package behaviortree

import (
	"testing"

	"github.com/zipbt/behaviortree/kind"
)

// TestMarshalRefusesKindsOutsideTheElixirForm marks a kind as outside the
// Elixir JSON form, as the table does for kinds added later, and checks
// that MarshalJSON refuses it with its place and that ParseJSON does not
// know its name.
func TestMarshalRefusesKindsOutsideTheElixirForm(t *testing.T) {
	def := Sequence(Leaf("a"), Select(Leaf("b"), Negate(Leaf("c"))))
	saved := kinds[kind.Negate]
	kinds[kind.Negate].elixir = false
	defer func() { kinds[kind.Negate] = saved }()
	_, err := def.MarshalJSON()
	if err == nil || err.Error() != "behaviortree: children[1].children[1]: negate node has no JSON form" {
		t.Errorf("got %v", err)
	}
	for name, k := range kindByName {
		if !kinds[k].elixir && k != kind.Negate {
			t.Errorf("ParseJSON reads %q, a kind outside the Elixir form", name)
		}
	}
}

// TestShortPath checks how error messages show long paths.
func TestShortPath(t *testing.T) {
	for _, tc := range []struct {
		depth int
		want  string
	}{
		{1, "children[0]"},
		{8, "children[0].children[1].children[2].children[3].children[4].children[5].children[6].children[7]"},
		{9, "children[0].children[1].children[2].children[3]...(1 more)...children[5].children[6].children[7].children[8]"},
		{5000, "children[0].children[1].children[2].children[3]...(4992 more)...children[6].children[7].children[8].children[9]"},
	} {
		path := make([]int, tc.depth)
		for i := range path {
			path[i] = i % 10
		}
		if got := shortPath(formatPath(path)); got != tc.want {
			t.Errorf("depth %d: got %q, want %q", tc.depth, got, tc.want)
		}
	}
}
