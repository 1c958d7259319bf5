package battleship

import (
	"slices"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mdsl"
)

func text(v Intent) (string, error) { return string(v), nil }

// TestTreeTexts checks that each bot's embedded MDSL text reads back as
// the tree its Go file builds: the same structure, parameters and leaves.
func TestTreeTexts(t *testing.T) {
	for _, tc := range []struct {
		name string
		tree bt.Node[Intent]
	}{{"A", TreeA}, {"B", TreeB}, {"C", TreeC}, {"D", TreeD}, {"E", TreeE}} {
		src, err := TreeText(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ParseTree("bot_"+tc.name+".mdsl", src)
		if err != nil {
			t.Fatalf("bot %s: %v", tc.name, err)
		}
		if tc.tree.Kind() != kind.Root {
			got = got.Child(0) // the Value/Succeed/Fail bots run the root's child
		}
		// The canonical text shows attributes (guards) too, which String
		// does not.
		gotText, err := mdsl.FormatFunc(got, text)
		if err != nil {
			t.Fatal(err)
		}
		wantText, err := mdsl.FormatFunc(tc.tree, text)
		if err != nil {
			t.Fatal(err)
		}
		if string(gotText) != string(wantText) || got.Fingerprint() != tc.tree.Fingerprint() ||
			!slices.Equal(leafValues(got), leafValues(tc.tree)) {
			t.Errorf("bot %s: the MDSL text reads as\n%s\nwant\n%s", tc.name, gotText, wantText)
		}
	}
	if _, err := TreeText("F"); err == nil {
		t.Error(`TreeText("F"): no error`)
	}
}

// leafValues returns the values of n's action leaves, left to right.
func leafValues[L any](n bt.Node[L]) []L {
	var out []L
	for c := range n.Preorder() {
		if v, ok := c.Leaf(); ok && c.Kind() == kind.Leaf {
			out = append(out, v)
		}
	}
	return out
}
