package mdsl

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// checkLines returns "LINE:COL: MSG" of each error.
func checkLines(errs []*Error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg))
	}
	return out
}

// TestCheckReportsEveryError checks a text with errors of each sort:
// Check reports them all, in the order of the text, with the nearest
// keyword for misspelt ones; Parse reports the first.
func TestCheckReportsEveryError(t *testing.T) {
	src := `root {
    selector {
        sequnce {
            action [A]
        }
        flip {
            action [A]
            action [B]
        }
        repeat [x] { action [C] }
        branch [Nowhere]
        wait [5, 1]
        action [D] whle(E)
        lotto [1, 2] { action [F] }
        paralel { action [G] }
    }
}
`
	want := []string{
		`3:9: unexpected "sequnce": want a node; did you mean sequence?`,
		`8:13: flip takes one child, got 2`,
		`10:17: repeat arguments must be integers, got 'x'`,
		`11:9: branch to an unknown root "Nowhere"`,
		`12:14: wait minimum 5 is more than maximum 1`,
		`13:20: unexpected "whle": want a node; did you mean while?`,
		`14:15: lotto has 1 children but 2 weights`,
		`15:9: unexpected "paralel": want a node; did you mean parallel?`,
	}
	got := checkLines(Check("x.mdsl", []byte(src)))
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	_, err := Parse("x.mdsl", []byte(src))
	if err == nil || !strings.HasPrefix(err.Error(), "x.mdsl:"+want[0]) {
		t.Errorf("Parse: %v", err)
	}
	// The quoted line is the text's own, not the mended one.
	if errs := Check("x.mdsl", []byte(src)); len(errs) < 4 || !strings.Contains(errs[3].Error(), "branch [Nowhere]\n        ^") {
		t.Errorf("the branch error quotes %q", errs[3].Source)
	}
}

// TestCheckFindsParsesError checks, for each text of TestMDSLErrors and
// the fixtures, that Check reports Parse's error, and nothing for a text
// Parse reads.
func TestCheckFindsParsesError(t *testing.T) {
	texts := []string{
		"root {\n    repeat {\n        action [A]\n        action [B]\n    }\n}", "root { flip { } }", "root { sequence { } }",
		"root { branch [X] }", "root { branch [A] }\nroot [A] { branch [B] }\nroot [B] { branch [A] }", "root { wait [1, 2, 3] }",
		"root { repeat [3, 1] { action [A] } }", "root { lotto [1, 2] { action [A] } }", "root { action [A, B] }",
		"root { action }", "root { action [A, 0x10] }", "root {\n  sequence {\n    action [A]\n  selector {\n    action [B]\n  }",
		"root { action [A] } }", `root { action [A, "abc] }`, "root { /* x", "root { action [A, 1 }", "root { action [A",
		"root { sequence { action [A] } }", "root { branch [S] }\nroot [S] { wait }", "sequence { action [A] }", "",
	}
	for _, src := range texts {
		errs := Check("t", []byte(src))
		_, err := Parse("t", []byte(src))
		if err == nil {
			if errs != nil {
				t.Errorf("%q: Parse reads it, Check reports %v", src, checkLines(errs))
			}
			continue
		}
		found := false
		for _, e := range errs {
			found = found || e.Error() == err.Error()
		}
		if !found {
			t.Errorf("%q: Parse's error %q is not among Check's %q", src, err, checkLines(errs))
		}
	}
}

// TestCheckBounded checks that Check stops at 50 errors.
func TestCheckBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("root {\n    sequence {\n")
	for i := range 200 {
		fmt.Fprintf(&b, "        acton [A%d]\n", i)
	}
	b.WriteString("    }\n}\n")
	errs := Check("many.mdsl", []byte(b.String()))
	if len(errs) != 50 {
		t.Fatalf("%d errors, want 50", len(errs))
	}
	for i, e := range errs {
		if e.Line != 3+i || !strings.Contains(e.Msg, "did you mean action?") {
			t.Fatalf("error %d: %v", i, e)
		}
	}
}

// TestNearestKeyword checks the suggestions, and that far words get none.
func TestNearestKeyword(t *testing.T) {
	for w, want := range map[string]string{
		"sequnce": "sequence", "SELECTR": "selector", "condtion": "condition", "acton": "action", "repeat_untill_fail": "repeat_until_fail",
		"brach": "branch", "whle": "while", "fli": "flip", "xyzzy": "", "go_right": "",
	} {
		if got := nearestKeyword(w); got != want {
			t.Errorf("nearestKeyword(%q) = %q, want %q", w, got, want)
		}
	}
}

// TestCheckNoRedundantNoRoot: a text whose roots are all wrong gets their
// errors, not also "no root" once they are mended away.
func TestCheckNoRedundantNoRoot(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"root [not-main-root] {\n    action [A]\n}\n", "1:1: no main root: one root must have no name"},
		{"root { }\n", "1:1: root takes one child, got none"},
		{"root {\n}\nroot [b] { action [A] }\n", "1:1: root takes one child, got none"},
	} {
		got := checkLines(Check("t.mdsl", []byte(c.src)))
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%q: %q, want only %q", c.src, got, c.want)
		}
	}
	// A text with no root at all still says so.
	if got := checkLines(Check("t.mdsl", []byte("\n"))); len(got) != 1 || !strings.Contains(got[0], "no root") {
		t.Errorf("an empty text: %q", got)
	}
}

// TestCaretNonASCII: on a line with non-ASCII text, the column counts
// bytes (as Go's compilers count them) and the caret stands under the
// character as a terminal shows the line: East Asian wide characters
// take two columns, a combining accent none, other characters one.
func TestCaretNonASCII(t *testing.T) {
	for _, c := range []struct {
		before string // the line before "action [B]", which is the error
		wide   int    // the width of its non-ASCII characters on a terminal, counted by hand
	}{
		{`root { repeat { action ["名前"] `, 4},
		{`root { repeat { action ["héllo"] `, 1},
		{`root { repeat { action ["héllo"] `, 0},
		{`root { repeat { action ["ｆｕｌｌ"] `, 8},
		{`root { repeat { action ["한국어 🎲"] `, 6 + 2},
		{"root { repeat {\taction [\"名\"]\t", 2},
	} {
		ascii := 0 // a tab stands for itself in the caret line: one character
		for _, b := range []byte(c.before) {
			if b < 0x80 {
				ascii++
			}
		}
		want := ascii + c.wide
		src := c.before + "action [B] } }\n"
		errs := Check("t.mdsl", []byte(src))
		if len(errs) != 1 {
			t.Fatalf("%q: %v", src, errs)
		}
		e := errs[0]
		if e.Col != len(c.before)+1 {
			t.Errorf("%q: column %d, want %d (bytes)", src, e.Col, len(c.before)+1)
		}
		lines := strings.Split(e.Error(), "\n")
		caret := lines[2]
		if !strings.HasSuffix(caret, "^") || strings.Trim(caret[:len(caret)-1], " \t") != "" {
			t.Fatalf("%q: caret line %q", src, caret)
		}
		n := utf8.RuneCountInString(caret) - 1
		if strings.Count(caret, "\t") != strings.Count(c.before, "\t") {
			t.Errorf("%q: the caret line has not the line's tabs: %q", src, caret)
		}
		if n != want {
			t.Errorf("%q: caret after %d characters, want %d\n%s\n%s", src, n, want, lines[1], caret)
		}
	}
}
