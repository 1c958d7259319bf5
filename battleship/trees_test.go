package battleship

import (
	"slices"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

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
		if tc.tree.Kind() != bt.KindRoot {
			got = got.Child(0) // the Value/Succeed/Fail bots run the root's child
		}
		if got.String() != tc.tree.String() || got.Fingerprint() != tc.tree.Fingerprint() ||
			!slices.Equal(slices.Collect(got.LeafValues()), slices.Collect(tc.tree.LeafValues())) {
			t.Errorf("bot %s: the MDSL text reads as\n%v\nwant\n%v", tc.name, got, tc.tree)
		}
	}
	if _, err := TreeText("F"); err == nil {
		t.Error(`TreeText("F"): no error`)
	}
}
