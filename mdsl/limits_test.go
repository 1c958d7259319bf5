package mdsl

import (
	"bytes"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/testlong"
	"github.com/zipbt/behaviortree/mistreevous"
)

// deepMDSL returns an MDSL text of a chain of depth nodes below the root
// (flip decorators over one action), written without indentation.
func deepMDSL(depth int) []byte {
	var b bytes.Buffer
	b.WriteString("root {\n")
	for range depth - 1 {
		b.WriteString("flip {\n")
	}
	b.WriteString("action [A]\n")
	for range depth - 1 {
		b.WriteString("}\n")
	}
	b.WriteString("}\n")
	return b.Bytes()
}

// TestMDSLDeepTreeRoundTrips formats the deepest tree the parser takes and
// parses the canonical text back: the indentation stops growing past
// maxIndentLevel levels, so the text stays far below MaxBytes, and
// lines up to that depth are indented as before.
func TestMDSLDeepTreeRoundTrips(t *testing.T) {
	src := deepMDSL(mistreevous.MaxDepth - 1)
	n, err := Parse("deep.mdsl", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []struct {
		name string
		f    func() ([]byte, error)
	}{
		{"Format", func() ([]byte, error) { return Format(n) }},
		{"FormatSource", func() ([]byte, error) { return FormatSource("deep.mdsl", src) }},
	} {
		out, err := format.f()
		if err != nil {
			t.Fatalf("%s: %v", format.name, err)
		}
		if lines := bytes.Count(out, []byte("\n")); len(out) > len(src)+lines*4*maxIndentLevel {
			t.Errorf("%s: %d bytes from %d: more indentation than %d levels", format.name, len(out), len(src), maxIndentLevel)
		}
		back, err := Parse("formatted", out)
		if err != nil {
			t.Fatalf("%s: the canonical text does not parse: %.300v", format.name, err)
		}
		if d := mdslDiff(back, n); d != "" {
			t.Fatalf("%s: parses back differently: %s", format.name, d)
		}
		lines := strings.Split(string(out), "\n")
		if want := strings.Repeat("    ", 5) + "flip {"; lines[5] != want {
			t.Errorf("%s: line 6 is %q, want %q", format.name, lines[5], want)
		}
		if want := strings.Repeat("    ", maxIndentLevel) + "flip {"; lines[maxIndentLevel+100] != want {
			t.Errorf("%s: line %d is %q, want %q", format.name, maxIndentLevel+101, lines[maxIndentLevel+100], want)
		}
	}
}

// limitTree returns bt.Root(bt.Sequence(X, X, pads...)) of exactly
// mistreevous.MaxNodes+extra nodes, X a sequence of shared leaves, so that
// it takes little memory although every place is a node of its own in a
// text.
func limitTree(extra int) bt.Node[bt.Call] {
	leaf := bt.Leaf(bt.Call{Name: "A"})
	half := make([]bt.Node[bt.Call], mistreevous.MaxNodes/2-2)
	for i := range half {
		half[i] = leaf
	}
	x := bt.Sequence(half...) // 2^19 - 1 nodes
	kids := []bt.Node[bt.Call]{x, x}
	for 2+2*x.Size()+len(kids)-2 < mistreevous.MaxNodes+extra {
		kids = append(kids, leaf)
	}
	return bt.Root(bt.Sequence(kids...))
}

// TestTextFormatsNodeLimit checks that mistreevous.MaxNodes, counting every
// node of the tree written or read, the root included, is one limit for
// Format, Parse, MarshalMistreevous and ParseMistreevous: each
// takes a tree at the limit and refuses one node more.
func TestTextFormatsNodeLimit(t *testing.T) {
	testlong.Skip(t, "trees of a million nodes through four formats")
	at, past := limitTree(0), limitTree(1)
	if at.Size() != mistreevous.MaxNodes || past.Size() != mistreevous.MaxNodes+1 {
		t.Fatalf("sizes %d and %d", at.Size(), past.Size())
	}
	over := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "more than 1048576 nodes") {
			t.Errorf("%s one node past the limit: error %.200v", what, err)
		}
	}
	if _, err := Format(past); true {
		over("Format", err)
	}
	if _, err := Format(past.Child(0)); true {
		over("Format of a non-root (printed inside a root)", err)
	}
	if _, err := mistreevous.Marshal(past); true {
		over("MarshalMistreevous", err)
	}
	if _, err := mistreevous.Marshal(past.Child(0)); true {
		over("MarshalMistreevous of a non-root (written inside a root)", err)
	}
	// Through branches: the text is small, the tree one past the limit.
	branches := "root {\n    sequence {\n        branch [X]\n        branch [X]\n        action [A]\n    }\n}\n\nroot [X] {\n    sequence {\n" +
		strings.Repeat("        action [A]\n", mistreevous.MaxNodes/2-2) + "    }\n}\n"
	if _, err := Parse("branches.mdsl", []byte(branches)); true {
		over("Parse through branches", err)
	}

	text, err := Format(at)
	if err != nil {
		t.Fatalf("Format at the limit: %v", err)
	}
	n, err := Parse("at.mdsl", text)
	if err != nil || n.Size() != mistreevous.MaxNodes {
		t.Fatalf("Parse at the limit: %v", err)
	}
	n = bt.Node[bt.Call]{}
	one := []byte("    sequence {\n")
	i := bytes.Index(text, one) + len(one)
	text = append(text[:i:i], append([]byte("        action [A]\n"), text[i:]...)...)
	if _, err := Parse("past.mdsl", text); true {
		over("Parse", err)
	}
	text = nil

	js, err := mistreevous.Marshal(at)
	if err != nil {
		t.Fatalf("MarshalMistreevous at the limit: %v", err)
	}
	if n, err = mistreevous.Parse(js); err != nil || n.Size() != mistreevous.MaxNodes {
		t.Fatalf("ParseMistreevous at the limit: %v", err)
	}
	n = bt.Node[bt.Call]{}
	one = []byte(`"children":[`)
	i = bytes.Index(js, one) + len(one)
	js = append(js[:i:i], append([]byte(`{"type":"action","call":"A"},`), js[i:]...)...)
	if _, err := mistreevous.Parse(js); true {
		over("ParseMistreevous", err)
	}
}

// TestMDSLFlatWhenIndentedTooLong formats a tree of many deep chains whose
// indented text would be longer than MaxBytes: the canonical form is
// then printed without indentation, and parses back.
func TestMDSLFlatWhenIndentedTooLong(t *testing.T) {
	testlong.Skip(t, "a tree of a million nodes")
	chain := bt.Leaf(bt.Call{Name: "A"})
	for range 19 {
		chain = bt.Negate(chain)
	}
	kids := make([]bt.Node[bt.Call], (mistreevous.MaxNodes-2)/20)
	for i := range kids {
		kids[i] = chain
	}
	def := bt.Root(bt.Sequence(kids...))
	out, err := Format(def)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) > MaxBytes || bytes.Contains(out, []byte("\n ")) {
		t.Fatalf("%d bytes, indented: %v", len(out), bytes.Contains(out, []byte("\n ")))
	}
	back, err := Parse("flat.mdsl", out)
	if err != nil {
		t.Fatalf("%.300v", err)
	}
	if back.Size() != def.Size() {
		t.Fatalf("%d nodes back, want %d", back.Size(), def.Size())
	}
}
