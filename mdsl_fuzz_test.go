package behaviortree

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// FuzzMDSL checks that any text gives a tree or an *MDSLError, never a
// panic, and that whatever parses, in either leaf mode, prints and parses
// back to an equal tree, with a stable print; the same for the source
// formatter. Seeds: testdata/fuzz/FuzzMDSL.
func FuzzMDSL(f *testing.F) {
	f.Add([]byte("root { action [A] }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		n, err := ParseMDSL("fuzz.mdsl", src)
		checkMDSLErr(t, err)
		checkMDSLAsReference(t, src, n, err)
		if err == nil && n.Size() <= 1<<14 {
			out, err := FormatMDSL(n)
			if err != nil {
				t.Fatalf("parsed but does not print: %v", err)
			}
			back, err := ParseMDSL("printed", out)
			if err != nil {
				t.Fatalf("printed text does not parse: %v\n%s", err, out)
			}
			if d := mdslDiff(back, n); d != "" {
				t.Fatalf("printed text parses differently: %s\n%s", d, out)
			}
			if again, _ := FormatMDSL(back); string(again) != string(out) {
				t.Fatalf("printing is not stable:\n%s\n%s", out, again)
			}
		}
		ln, err := ParseMDSLFunc("fuzz.mdsl", src, func(s string) (string, error) {
			if s == "bad" {
				return "", errors.New("bad leaf")
			}
			return s, nil
		})
		checkMDSLErr(t, err)
		if err == nil && ln.Size() <= 1<<14 {
			out, err := FormatMDSLFunc(ln, func(s string) (string, error) { return s, nil })
			if err != nil {
				t.Fatalf("parsed but does not print: %v", err)
			}
			back, err := ParseMDSLFunc("printed", out, func(s string) (string, error) { return s, nil })
			if err != nil {
				t.Fatalf("printed text does not parse: %v\n%s", err, out)
			}
			if d := mdslDiff(back, ln); d != "" {
				t.Fatalf("printed text parses differently: %s\n%s", d, out)
			}
		}
		if len(src) > 1<<12 {
			return
		}
		fs, err := FormatMDSLSource("fuzz.mdsl", src)
		checkMDSLErr(t, err)
		if err != nil {
			return
		}
		fs2, err := FormatMDSLSource("formatted", fs)
		if err != nil || string(fs2) != string(fs) {
			t.Fatalf("formatting is not stable: %v\n%s\n---\n%s", err, fs, fs2)
		}
	})
}

// checkMDSLErr checks that err is nil or a well-formed *MDSLError of
// bounded size.
func checkMDSLErr(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var me *MDSLError
	if !errors.As(err, &me) {
		t.Fatalf("error is not an *MDSLError: %T %v", err, err)
	}
	if me.Line < 1 || me.Col < 1 || me.Msg == "" {
		t.Fatalf("bad position or message: %+v", me)
	}
	s := err.Error()
	if len(s) > 2000 {
		t.Fatalf("error of %d bytes", len(s))
	}
	if strings.Count(s, "\n") != 2 || !strings.HasSuffix(s, "^") {
		t.Fatalf("error without a quoted line and caret: %q", s)
	}
}

// checkMDSLAsReference checks that ParseMDSL's result n, err for src, with
// its subtrees built while it reads, is what building the whole syntax
// tree afterwards gives: the same tree, or the same error.
func checkMDSLAsReference(t *testing.T, src []byte, n Node[Call], err error) {
	t.Helper()
	p := newMParser("fuzz.mdsl", src, mmodeCall, false)
	want, werr := Node[Call]{}, p.parse()
	if werr == nil {
		want, werr = buildMDSL(p, mdslCall)
	}
	switch {
	case (err == nil) != (werr == nil):
		t.Fatalf("ParseMDSL: error %v, building afterwards: %v", err, werr)
	case err != nil:
		var me, we *MDSLError
		if !errors.As(err, &me) || !errors.As(werr, &we) || *me != *we {
			t.Fatalf("ParseMDSL: error %#v, building afterwards: %#v", err, werr)
		}
	default:
		if d := mdslDiff(n, want); d != "" {
			t.Fatalf("ParseMDSL's tree differs from the one built afterwards: %s", d)
		}
	}
}

// TestMDSLBuildWhileReading checks texts where building subtrees of the
// main root while reading could go wrong against building the whole
// syntax tree afterwards (checkMDSLAsReference): the depth limit reached
// inside the main root, branches to roots defined before and after it,
// cycles, a second main root, and the node limit reached through
// branches.
func TestMDSLBuildWhileReading(t *testing.T) {
	deep := func(levels int, leaf string) string {
		return strings.Repeat("sequence {\n", levels) + leaf + strings.Repeat("}\n", levels)
	}
	var double strings.Builder // 2^21 places once expanded
	double.WriteString("root { branch [B0] }\n")
	for i := 0; i < 21; i++ {
		fmt.Fprintf(&double, "root [B%d] { sequence { branch [B%d] branch [B%d] } }\n", i, i+1, i+1)
	}
	double.WriteString("root [B21] { action [A] }\n")
	cases := []struct{ src, err string }{
		{"root { sequence { action [A] " + deep(MaxMistreevousDepth-2, "action [A]\n") + " } }", "deeper than"},
		{"root { " + deep(MaxMistreevousDepth-1, "action [A]\n") + " }", "deeper than"},
		{"root { sequence { action [A] " + deep(MaxMistreevousDepth-3, "action [B] wait") + " } }", ""},
		{"root { sequence { action [A] " + deep(10, "branch [X]\n") + " } }\nroot [X] { " + deep(MaxMistreevousDepth-13, "action [B]") + " }", ""},
		{"root { sequence { action [A] " + deep(10, "branch [X]\n") + " } }\nroot [X] { " + deep(MaxMistreevousDepth-12, "action [B]") + " }", "deeper than"},
		{"root [X] { sequence { action [A] branch [Y] } }\nroot { sequence { action [A] entry(E) branch [X] wait [5] } }\nroot [Y] { condition [C] }", ""},
		{"root [X] { sequence { action [A] branch [X] } }\nroot { sequence { action [A] branch [X] } }", "cycle"},
		{"root { sequence { action [A] branch [Z] action [B] } }", "unknown root"},
		{"root { sequence { action [A] } }\nroot { action [B] }", "second main root"},
		{"root { sequence { action [A] } }\nroot [X] { action [B] }\nroot [X] { action [B] }", "defined twice"},
		{"root [X] { action [B] }", "no main root"},
		{double.String(), "more than"},
		{"root { sequence { action [A] } action [B] }", "takes one child"},
	}
	for _, c := range cases {
		n, err := ParseMDSL("fuzz.mdsl", []byte(c.src))
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%.60q: error %v, want %q", c.src, err, c.err)
		}
		checkMDSLAsReference(t, []byte(c.src), n, err)
	}
}
