package behaviortree_test

import (
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
)

// TestPictureType checks that a node's Type, when set, is drawn instead
// of its Kind's word by the three writers, that the shape still follows
// the Kind, and that a node without a Type draws its Kind's word as
// before, in the same picture.
func TestPictureType(t *testing.T) {
	plain := bt.Picture{Nodes: []bt.PictureNode{
		{Parent: -1, Kind: kind.Select},
		{Parent: 0, Depth: 1, Kind: kind.Leaf, Label: "open"},
	}}
	typed := bt.Picture{Nodes: []bt.PictureNode{
		{Parent: -1, Kind: kind.Select, Type: "Fallback"},
		{Parent: 0, Depth: 1, Kind: kind.Leaf, Label: "open"},
	}}
	write := map[string]func(bt.Picture, *strings.Builder) error{
		"ascii":   func(p bt.Picture, b *strings.Builder) error { return p.WriteText(b, bt.ASCII) },
		"unicode": func(p bt.Picture, b *strings.Builder) error { return p.WriteText(b, bt.Unicode) },
		"dot":     func(p bt.Picture, b *strings.Builder) error { return p.WriteDOT(b) },
		"mermaid": func(p bt.Picture, b *strings.Builder) error { return p.WriteMermaid(b) },
	}
	word := plain.Nodes[0].Word() // the select's word in every picture
	for name, w := range write {
		var pb, tb strings.Builder
		if err := w(plain, &pb); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := w(typed, &tb); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p, ty := pb.String(), tb.String()
		if !strings.Contains(ty, "Fallback") || strings.Contains(ty, word) {
			t.Errorf("%s: the typed root is not drawn as Fallback:\n%s", name, ty)
		}
		if !strings.Contains(p, word) || strings.Contains(p, "Fallback") {
			t.Errorf("%s: the untyped root is not drawn as %s:\n%s", name, word, p)
		}
		// Only the name changes: the same text with the name swapped.
		if got := strings.ReplaceAll(ty, "Fallback", word); got != p {
			t.Errorf("%s: the typed picture differs from the plain one by more than the name:\n%s\nvs\n%s", name, ty, p)
		}
	}
}

// TestPictureTypeCleaned checks that a Type with a newline or a quote
// cannot break a line of text or the syntax of DOT and Mermaid.
func TestPictureTypeCleaned(t *testing.T) {
	p := bt.Picture{Nodes: []bt.PictureNode{{Parent: -1, Kind: kind.Leaf, Type: "A\n\"B\"]"}}}
	var b strings.Builder
	if err := p.WriteText(&b, bt.ASCII); err != nil {
		t.Fatal(err)
	}
	if strings.Count(b.String(), "\n") != 1 {
		t.Errorf("a Type with a newline broke the line: %q", b.String())
	}
	b.Reset()
	if err := p.WriteMermaid(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), `"B"`) || strings.Contains(b.String(), "]\"") {
		t.Errorf("a Type's quotes reached the Mermaid syntax:\n%s", b.String())
	}
	b.Reset()
	if err := p.WriteDOT(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `\"B\"`) {
		t.Errorf("a Type's quotes are not escaped in DOT:\n%s", b.String())
	}
}
