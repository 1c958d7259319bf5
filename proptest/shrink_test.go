package proptest

import (
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// TestShrinkKeepsWeights is the regression test of the shrinker reading
// prefix sums as weights: random_weighted[3,1,5] without its first child
// must shrink to random_weighted[1,5], not [4,9].
func TestShrinkKeepsWeights(t *testing.T) {
	l := bt.Leaf[string]
	n := bt.RandomWeighted(bt.WithWeight(3, l("a")), bt.WithWeight(1, l("b")), bt.WithWeight(5, l("c")))
	want := map[string]bool{
		"random_weighted[1,5](b, c)":      false,
		"random_weighted[3,5](a, c)":      false,
		"random_weighted[3,1](a, b)":      false,
		"random_weighted[1,1,1](a, b, c)": false,
	}
	shrink := shrinkTree[string](n)
	for {
		v, ok := shrink()
		if !ok {
			break
		}
		s := v.(bt.Node[string]).String()
		if _, listed := want[s]; listed {
			want[s] = true
		}
	}
	for s, seen := range want {
		if !seen {
			t.Errorf("no shrink to %s", s)
		}
	}
}
