package behaviortree

import (
	"bytes"
	"strings"
	"testing"
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
// mdslMaxIndent levels, so the text stays far below MaxMDSLBytes, and
// lines up to that depth are indented as before.
func TestMDSLDeepTreeRoundTrips(t *testing.T) {
	src := deepMDSL(MaxMistreevousDepth - 1)
	n, err := ParseMDSL("deep.mdsl", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []struct {
		name string
		f    func() ([]byte, error)
	}{
		{"FormatMDSL", func() ([]byte, error) { return FormatMDSL(n) }},
		{"FormatMDSLSource", func() ([]byte, error) { return FormatMDSLSource("deep.mdsl", src) }},
	} {
		out, err := format.f()
		if err != nil {
			t.Fatalf("%s: %v", format.name, err)
		}
		if lines := bytes.Count(out, []byte("\n")); len(out) > len(src)+lines*4*mdslMaxIndent {
			t.Errorf("%s: %d bytes from %d: more indentation than %d levels", format.name, len(out), len(src), mdslMaxIndent)
		}
		back, err := ParseMDSL("formatted", out)
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
		if want := strings.Repeat("    ", mdslMaxIndent) + "flip {"; lines[mdslMaxIndent+100] != want {
			t.Errorf("%s: line %d is %q, want %q", format.name, mdslMaxIndent+101, lines[mdslMaxIndent+100], want)
		}
	}
}
