package mdsl

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/testlong"
	"github.com/zipbt/behaviortree/mistreevous"
)

// FuzzMDSL checks that any text gives a tree or an *Error, never a
// panic, and that whatever parses, in either leaf mode, prints and parses
// back to an equal tree, with a stable print; the same for the source
// formatter. Seeds: testdata/fuzz/FuzzMDSL.
func FuzzMDSL(f *testing.F) {
	f.Add([]byte("root { action [A] }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		n, err := Parse("fuzz.mdsl", src)
		checkMDSLErr(t, err)
		checkMDSLAsReference(t, src, n, err)
		// Check reports nothing for a text that parses, and at most 50
		// errors; reading as Parse does, it reports Parse's error.
		if errs := Check("fuzz.mdsl", src); err == nil && errs != nil || len(errs) > 50 {
			t.Fatalf("Parse: %v; Check: %d errors, the first %v", err, len(errs), errs[0])
		}
		if err != nil && len(Check("fuzz.mdsl", src)) == 0 {
			// bt check trusts Check alone: none means a reader takes it.
			if _, err2 := ParseFunc("fuzz.mdsl", src, func(s string) (string, error) { return s, nil }); err2 != nil {
				t.Fatalf("Check reports nothing, but Parse says %v and ParseFunc %v", err, err2)
			}
		}
		if err != nil {
			found := false
			for _, e := range check("fuzz.mdsl", src, modeCall) {
				found = found || e.Error() == err.Error()
			}
			if !found {
				t.Fatalf("Parse's error %v is not among Check's %v", err, checkLines(check("fuzz.mdsl", src, modeCall)))
			}
		}
		if err == nil && n.Size() <= 1<<14 {
			out, err := Format(n)
			if err != nil {
				t.Fatalf("parsed but does not print: %v", err)
			}
			back, err := Parse("printed", out)
			if err != nil {
				t.Fatalf("printed text does not parse: %v\n%s", err, out)
			}
			if d := mdslDiff(back, n); d != "" {
				t.Fatalf("printed text parses differently: %s\n%s", d, out)
			}
			if again, _ := Format(back); string(again) != string(out) {
				t.Fatalf("printing is not stable:\n%s\n%s", out, again)
			}
		}
		ln, err := ParseFunc("fuzz.mdsl", src, func(s string) (string, error) {
			if s == "bad" {
				return "", errors.New("bad leaf")
			}
			return s, nil
		})
		checkMDSLErr(t, err)
		if err == nil && ln.Size() <= 1<<14 {
			out, err := FormatFunc(ln, func(s string) (string, error) { return s, nil })
			if err != nil {
				t.Fatalf("parsed but does not print: %v", err)
			}
			back, err := ParseFunc("printed", out, func(s string) (string, error) { return s, nil })
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
		fs, err := FormatSource("fuzz.mdsl", src)
		checkMDSLErr(t, err)
		if err != nil {
			return
		}
		fs2, err := FormatSource("formatted", fs)
		if err != nil || string(fs2) != string(fs) {
			t.Fatalf("formatting is not stable: %v\n%s\n---\n%s", err, fs, fs2)
		}
	})
}

// checkMDSLErr checks that err is nil or a well-formed *Error of
// bounded size.
func checkMDSLErr(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var me *Error
	if !errors.As(err, &me) {
		t.Fatalf("error is not an *Error: %T %v", err, err)
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

// checkMDSLAsReference checks that Parse's result n, err for src, with
// its subtrees built while it reads, is what building the whole syntax
// tree afterwards gives: the same tree, or the same error.
func checkMDSLAsReference(t *testing.T, src []byte, n bt.Node[bt.Call], err error) {
	t.Helper()
	p := newParser("fuzz.mdsl", src, modeCall, false)
	want, werr := bt.Node[bt.Call]{}, p.parse()
	if werr == nil {
		want, werr = build(p, callOf)
	}
	switch {
	case (err == nil) != (werr == nil):
		t.Fatalf("Parse: error %v, building afterwards: %v", err, werr)
	case err != nil:
		var me, we *Error
		if !errors.As(err, &me) || !errors.As(werr, &we) || *me != *we {
			t.Fatalf("Parse: error %#v, building afterwards: %#v", err, werr)
		}
	default:
		if d := mdslDiff(n, want); d != "" {
			t.Fatalf("Parse's tree differs from the one built afterwards: %s", d)
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
		{"root { sequence { action [A] " + deep(mistreevous.MaxDepth-2, "action [A]\n") + " } }", "deeper than"},
		{"root { " + deep(mistreevous.MaxDepth-1, "action [A]\n") + " }", "deeper than"},
		{"root { sequence { action [A] " + deep(mistreevous.MaxDepth-3, "action [B] wait") + " } }", ""},
		{"root { sequence { action [A] " + deep(10, "branch [X]\n") + " } }\nroot [X] { " + deep(mistreevous.MaxDepth-13, "action [B]") + " }", ""},
		{"root { sequence { action [A] " + deep(10, "branch [X]\n") + " } }\nroot [X] { " + deep(mistreevous.MaxDepth-12, "action [B]") + " }", "deeper than"},
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
		n, err := Parse("fuzz.mdsl", []byte(c.src))
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%.60q: error %v, want %q", c.src, err, c.err)
		}
		checkMDSLAsReference(t, []byte(c.src), n, err)
	}
}

// TestMDSLBuildNamedWhileReading checks texts where building the subtrees
// of named roots while reading could go wrong against building the whole
// syntax tree afterwards (checkMDSLAsReference): deep named roots reached
// at various depths, one level short of the depth limit, at it and one
// past it, unused named roots, named roots reached twice or through other
// named roots, and errors inside named roots. redo says that the first
// reading, building named roots' nodes early, meets a node built early
// too deep (so that Parse reads again to place the error).
func TestMDSLBuildNamedWhileReading(t *testing.T) {
	const m = mistreevous.MaxDepth
	deep := func(levels int, leaf string) string {
		return strings.Repeat("sequence {\n", levels) + leaf + "\n" + strings.Repeat("}\n", levels)
	}
	named := func(name, body string) string { return "root [" + name + "] {\n" + body + "}\n" }
	type tcase = namedCase
	var cases []tcase
	// Branch [X] at depth k+2, X a chain of l sequences and a leaf: its
	// deepest node is at depth k+2+l.
	// Branches at the shallowest and deepest places by default; three
	// depths between them too with BT_LONG=1.
	for _, k := range testlong.Pick([]int{0, m - 4}, []int{0, 1, 7, m / 2, m - 4}) {
		for delta := -1; delta <= 1; delta++ {
			l := m - k - 2 + delta
			main := "root {\n" + deep(k, "branch [X]") + "}\n"
			x := named("X", deep(l, "action [B]"))
			// A branch among siblings built early, and the deepest node
			// after a shallower sibling.
			y := named("X", "sequence {\naction [P]\n"+deep(1, "action [Q]")+deep(l-1, "action [R]\naction [S]")+"condition [T]\n}\n")
			err := ""
			if delta > 0 {
				err = "deeper than"
			}
			// The chain's leaf is built early when the parser meets it no
			// deeper than the limit, as if X were the main root.
			redo := delta > 0 && l+2 <= m
			cases = append(cases, tcase{main + x, err, redo}, tcase{x + main, err, redo}, tcase{y + main, err, redo})
			// X's child holds a branch, so it is kept, but the chain below
			// it is built early.
			z := named("X", "sequence {\n"+deep(l-1, "action [Q]")+"branch [Y]\n}\n") + named("Y", "action [Y]\n")
			cases = append(cases, tcase{main + z, err, redo && l-1+3 <= m})
		}
	}
	chain := func(l int) string { return named("X", deep(l, "action [B]")) }
	cases = append(cases,
		// Unused named roots, as deep as the parser takes: built at depth 1.
		tcase{"root { action [A] }\n" + chain(m-2), "", false},
		tcase{"root { action [A] }\n" + chain(m-1), "", false},
		tcase{chain(m-1) + "root { action [A] }\n" + named("Y", deep(m-1, "action [C]")), "", false},
		// Reached twice, at depths 3 and 13: first shallow, then one
		// level too deep (the builder's check of a built root) or at the
		// limit.
		tcase{"root { sequence {\nbranch [X]\n" + deep(10, "branch [X]") + "} }\n" + chain(m-12), "deeper than", false},
		tcase{"root { sequence {\nbranch [X]\n" + deep(10, "branch [X]") + "} }\n" + chain(m-13), "", false},
		// First deep, then shallow: the first is too deep, or fits.
		tcase{"root { sequence {\n" + deep(10, "branch [X]") + "branch [X]\n} }\n" + chain(m-12), "deeper than", true},
		tcase{"root { sequence {\n" + deep(10, "branch [X]") + "branch [X]\n} }\n" + chain(m-13), "", false},
		// Through another named root: main -> Y at depth 3, X at 3+1+5.
		tcase{"root { sequence { action [A] branch [Y] } }\n" + named("Y", "sequence {\naction [A]\n"+deep(5, "branch [X]")+"}\n") + chain(m-9), "", false},
		tcase{"root { sequence { action [A] branch [Y] } }\n" + named("Y", "sequence {\naction [A]\n"+deep(5, "branch [X]")+"}\n") + chain(m-8), "deeper than", true},
		// A too deep node built early, then an error in the main root,
		// and the other way round.
		tcase{"root { sequence {\n" + deep(10, "branch [X]") + "branch [Nope]\n} }\n" + chain(m-12), "deeper than", true},
		tcase{"root { sequence {\nbranch [Nope]\n" + deep(10, "branch [X]") + "} }\n" + chain(m-12), "unknown root", false},
		// Errors inside named roots, after nodes built early.
		tcase{"root { branch [X] }\n" + named("X", "sequence {\n"+deep(5, "action [A]")+"branch [Nope]\n}\n"), "unknown root", false},
		tcase{"root { action [A] }\n" + named("X", "sequence {\n"+deep(5, "action [A]")+"branch [Nope]\n}\n"), "unknown root", false},
		tcase{"root { branch [X] }\n" + named("X", "sequence {\naction [A]\n"+deep(3, "action [B]")+"branch [Y]\n}\n") + named("Y", "sequence {\n"+deep(2, "action [C]")+"branch [X]\n}\n"), "cycle", false},
		tcase{"root { branch [X] }\n" + named("X", "sequence { sequence { action [A] } flip { action [B] action [C] } }\n"), "takes one child", false},
		tcase{"root { branch [X] }\n" + named("X", "sequence { sequence { action [A] } }\n") + named("X", "action [B]\n"), "defined twice", false},
		tcase{named("X", "sequence { sequence { action [A] } }\n") + "root { branch [X] }\nroot { action [B] }\n", "second main root", false},
		tcase{named("X", "sequence { sequence { action [A] } }\n"), "no main root", false},
		tcase{"root { branch [X] }\n" + named("X", "sequence { sequence { action [A] } random_weighted [1, 2] { action [B] } }\n"), "weights", false},
	)
	// The node limit, reached through branches to a root built early (a
	// million nodes: with BT_LONG=1).
	if testlong.Enabled() {
		cases = append(cases, manyBranchCases()...)
	}

	for _, c := range cases {
		n, err := Parse("fuzz.mdsl", []byte(c.src))
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%.60q: error %v, want %q", c.src, err, c.err)
		}
		if _, first := parse("fuzz.mdsl", []byte(c.src), false); (first == errTooDeep) != c.redo {
			t.Errorf("%.60q: building named roots' nodes early gives %v, want a node built early too deep: %v", c.src, first, c.redo)
		}
		checkMDSLAsReference(t, []byte(c.src), n, err)
	}
}

// namedCase is a case of TestMDSLBuildNamedWhileReading: a text, the error
// it gives ("" for none), and whether building a named root's nodes early
// meets a node too deep.
type namedCase struct {
	src, err string
	redo     bool
}

// manyBranchCases returns the cases at the node limit, reached through
// branches to a root built early: one past it and one within.
func manyBranchCases() []namedCase {
	var cases []namedCase
	var many strings.Builder
	many.WriteString("root { sequence {\n")
	for i := 0; i <= mistreevous.MaxNodes/1000; i++ {
		many.WriteString("branch [W]\n")
	}
	many.WriteString("} }\nroot [W] { sequence {\n")
	for i := 0; i < 999; i++ {
		fmt.Fprintf(&many, "action [A%d]\n", i)
	}
	many.WriteString("} }\n")
	cases = append(cases, namedCase{many.String(), "more than", false})
	// One node fewer in W: 1+1+1048*1000 = 1048002 nodes, within the limit.
	return append(cases, namedCase{strings.Replace(many.String(), "action [A0]\n", "", 1), "", false})
}
