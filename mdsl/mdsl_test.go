package mdsl

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/corpusfile"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mistreevous"
)

// mdslCase is the part of a corpus case that the MDSL tests read.
type mdslCase struct {
	ID         string          `json:"id"`
	Definition json.RawMessage `json:"definition"`
	MDSL       string          `json:"mdsl"`
}

func readMDSLCorpus(t testing.TB) []mdslCase {
	zr, err := corpusfile.Open(mistreevousCorpus())
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	var cases []mdslCase
	for sc.Scan() {
		var c mdslCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// mistreevousCorpus returns the corpus file: $MISTREEVOUS_CORPUS, or the
// testdata copy.
func mistreevousCorpus() string {
	if f := os.Getenv("MISTREEVOUS_CORPUS"); f != "" {
		return f
	}
	return "../testdata/mistreevous-4.3.1.jsonl.gz"
}

// mdslDiff returns the first structural difference between a and b, or "".
func mdslDiff[L any](a, b bt.Node[L]) string {
	type pair struct {
		a, b bt.Node[L]
		path string
	}
	stack := []pair{{a, b, "root"}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := p.a, p.b
		xv, carries := x.Leaf()
		yv, _ := y.Leaf()
		switch {
		case x.Kind() != y.Kind():
			return fmt.Sprintf("%s: kind %s, want %s", p.path, x.Kind(), y.Kind())
		case x.Len() != y.Len():
			return fmt.Sprintf("%s: %d children, want %d", p.path, x.Len(), y.Len())
		case !reflect.DeepEqual(x.Params(), y.Params()):
			return fmt.Sprintf("%s: params %+v, want %+v", p.path, x.Params(), y.Params())
		case carries && !reflect.DeepEqual(xv, yv):
			return fmt.Sprintf("%s: leaf %#v, want %#v", p.path, xv, yv)
		case !reflect.DeepEqual(x.Attrs(), y.Attrs()):
			return fmt.Sprintf("%s: attrs %#v, want %#v", p.path, x.Attrs(), y.Attrs())
		}
		for i := range x.Len() {
			stack = append(stack, pair{x.Child(i), y.Child(i), fmt.Sprintf("%s.%d", p.path, i)})
		}
	}
	return ""
}

// TestMDSLCorpus checks every corpus case: its mdsl text parses to a tree
// equal to its JSON definition; the canonical print of that tree parses
// back to an equal tree; the canonical reformatting of the text is stable
// and parses to an equal tree. (The root package's TestMDSLCorpusReplays
// replays the trees read from MDSL.)
func TestMDSLCorpus(t *testing.T) {
	cases := readMDSLCorpus(t)
	parsed, printed, formatted := 0, 0, 0
	fail := func(format string, args ...any) {
		if t.Failed() && testing.Short() {
			return
		}
		t.Errorf(format, args...)
	}
	for _, c := range cases {
		want, err := mistreevous.Parse(c.Definition)
		if err != nil {
			t.Fatalf("%s: definition: %v", c.ID, err)
		}
		got, err := Parse(c.ID+".mdsl", []byte(c.MDSL))
		if err != nil {
			fail("%s: %v", c.ID, err)
			continue
		}
		if d := mdslDiff(got, want); d != "" {
			fail("%s: MDSL and JSON differ: %s", c.ID, d)
			continue
		}
		gj, err1 := mistreevous.Marshal(got)
		wj, err2 := mistreevous.Marshal(want)
		if err1 != nil || err2 != nil || string(gj) != string(wj) {
			fail("%s: MarshalMistreevous differs: %v %v\n%s\n%s", c.ID, err1, err2, gj, wj)
			continue
		}
		parsed++
		out, err := Format(got)
		if err != nil {
			fail("%s: Format: %v", c.ID, err)
			continue
		}
		back, err := Parse("printed", out)
		if err != nil {
			fail("%s: printed text does not parse: %v\n%s", c.ID, err, out)
			continue
		}
		if d := mdslDiff(back, got); d != "" {
			fail("%s: printed text parses differently: %s\n%s", c.ID, d, out)
			continue
		}
		if again, err := Format(back); err != nil || string(again) != string(out) {
			fail("%s: printing is not stable: %v\n%s\n%s", c.ID, err, out, again)
			continue
		}
		printed++
		src, err := FormatSource(c.ID, []byte(c.MDSL))
		if err != nil {
			fail("%s: FormatSource: %v", c.ID, err)
			continue
		}
		src2, err := FormatSource(c.ID, src)
		if err != nil || string(src2) != string(src) {
			fail("%s: formatting is not stable: %v\n%s\n---\n%s", c.ID, err, src, src2)
			continue
		}
		if back, err := Parse("formatted", src); err != nil || mdslDiff(back, got) != "" {
			fail("%s: formatted text parses differently: %v\n%s", c.ID, err, src)
			continue
		}
		formatted++
	}
	t.Logf("MDSL corpus (%s): %d/%d parse equal to their JSON definition, %d/%d print and parse back, %d/%d reformat stably",
		mistreevousCorpus(), parsed, len(cases), printed, len(cases), formatted, len(cases))
}

// TestMDSLErrors checks messages and positions of errors, and the quoted
// line with its caret.
func TestMDSLErrors(t *testing.T) {
	tests := []struct {
		src, want string // want: "LINE:COL: message" prefix of the first line
	}{
		{"root {\n    repeat {\n        action [A]\n        action [B]\n    }\n}", "4:9: repeat takes one child, got 2"},
		{"root { flip { } }", "1:8: flip takes one child, got none"},
		{"root { sequence { } }", "1:8: sequence needs at least one child, got none"},
		{"root { branch [X] }", `1:8: branch to an unknown root "X"`},
		{"root { branch [A] }\nroot [A] { branch [B] }\nroot [B] { branch [A] }", `3:12: branch to "A" makes a cycle`},
		{"root { wait [1, 2, 3] }", "1:13: wait takes [n] or [min, max], got 3 numbers"},
		{"root { repeat [3, 1] { action [A] } }", "1:15: repeat minimum 3 is more than maximum 1"},
		{"root { repeat [1.5] { action [A] } }", "1:16: repeat arguments must be integers, got number 1.5"},
		{"root { retry [1e3] { action [A] } }", "1:15: retry arguments must be integers, got number 1000"},
		{"root { lotto [-1] { action [A] } }", "1:15: lotto arguments must be integers from 0 to 2147483647, got number -1"},
		{"root { lotto [1, 2] { action [A] } }", "1:14: lotto has 1 children but 2 weights"},
		{"root { action [A, B] }", "1:19: invalid action argument value 'B', must be string, number, boolean, agent property reference or null"},
		{"root { condition [C] while(D, E) }", "1:31: invalid while argument value 'E'"},
		{"root { action [1] }", "1:16: action needs a function name first, got number 1"},
		{"root { action }", "1:8: action needs a function name: action [Name]"},
		{"root { action [A, 0x10] }", "1:19: number 0x10: hexadecimal, octal and binary numbers are not supported"},
		{"root { action [A, Infinity] }", "1:19: number Infinity: not a finite number"},
		{"root { action [A, @@0@@] }", "1:19: @@0@@ is reserved"},
		{"root {\n  sequence {\n    action [A]\n  selector {\n    action [B]\n  }", "2:3: sequence is never closed: a '}' is missing"},
		{"root { action [A] } }", "1:21: unexpected '}': no node is open"},
		{`root { action [A, "abc] }`, "1:19: unterminated string"},
		{`root { action [A, x"abc"] }`, "1:20: a string cannot touch the word before it"},
		{`root { action [A, "abc"x] }`, "1:24: a word cannot touch the string before it"},
		{"root { /* x", "1:8: unterminated comment"},
		{"root { action [A, 1 }", "1:21: want ',' or ']' in an argument list, got '}'"},
		{"root { action [A", "1:15: unclosed '[': want ']'"},
		{"root { action [A] while(C) while(D) }", "1:28: duplicate while attribute"},
		{"root { action [A] entry(E) then succeed }", "1:28: then must follow a while or until guard"},
		{"root { action [A] while(C) then maybe }", "1:33: want succeed or fail after then"},
		{"root { action [A] while }", "1:19: while needs a function name: while(Name)"},
		{"root { sequence { root { action [A] } } }", "1:19: a root cannot be inside another node"},
		{"sequence { action [A] }", "1:1: sequence outside a root"},
		{"root { jump [A] }", `1:8: unexpected "jump": want a node`},
		{"root { sequence [1] { action [A] } }", "1:17: sequence takes no arguments"},
		{"root { action [A] }\nroot { action [B] }", "2:1: a second main root (without a name); the first is on line 1"},
		{"root [A] { action [A] }", "1:1: no main root: one root must have no name"},
		{"root { action [A] }\nroot [S] { action [A] }\nroot [S] { action [B] }", `3:6: root "S" is defined twice (first on line 2)`},
		{"root { branch [S] while(C) }\nroot [S] { action [A] }", "1:19: branch takes no attributes"},
		{"root { branch [S, T] }", "1:15: branch takes one name argument: branch [Name]"},
		{"root [\"S\"] { action [A] }", "1:6: root takes one name argument: root [Name]"},
		{"root { repeat_n [1] { action [A] } }", "1:17: repeat_n needs a count of at least 2, got 1"},
		{"root { random_weighted [1] { action [A] action [B] } }", "1:24: random_weighted has 2 children but 1 weights"},
		{"root { random_weighted { action [A] } }", "1:8: random_weighted has 1 children but 0 weights"},
		{"root { action [A, \"\xff\"] }", "1:20: invalid UTF-8"},
		{"", "1:1: no root"},
		{"root { threshold [1] { action [A] } }", "1:18: threshold takes two counts: threshold [success, failure]"},
		{"root { threshold [3, 1] { action [A] action [B] } }", "1:18: threshold: success count 3 is not 1 to 2"},
		{"root { action [A] } /* unused */ root [U] { flip { } }", "1:45: flip takes one child, got none"},
		{"root { action [A] }\nroot [U] { branch [Missing] }", `2:12: branch to an unknown root "Missing"`},
		{"root { ab/* c */cd/* d */[x] }", `1:8: unexpected "abcd"`},
		{"root { a//* c */*b [x] }", "1:8: removing a comment leaves '/*' in this word"},
	}
	for _, tc := range tests {
		_, err := Parse("t.mdsl", []byte(tc.src))
		if err == nil {
			t.Errorf("%q: no error, want %s", tc.src, tc.want)
			continue
		}
		var me *Error
		if !errors.As(err, &me) {
			t.Errorf("%q: %T is not an *Error", tc.src, err)
			continue
		}
		first, _, _ := strings.Cut(err.Error(), "\n")
		if !strings.HasPrefix(first, "t.mdsl:"+tc.want) {
			t.Errorf("%q:\n got %s\nwant t.mdsl:%s", tc.src, first, tc.want)
		}
		lines := strings.Split(err.Error(), "\n")
		if len(lines) != 3 {
			t.Errorf("%q: %d lines, want 3", tc.src, len(lines))
			continue
		}
		if col := strings.Index(lines[2], "^") + 1; len(me.Source) == len([]rune(me.Source)) && col != me.Col {
			t.Errorf("%q: caret at column %d, want %d", tc.src, col, me.Col)
		}
	}
	// The whole message: position, line, caret (tabs kept).
	_, err := Parse("bot.mdsl", []byte("root {\n\trepeat {\n\t\taction [A]\n\t\taction [B]\n\t}\n}"))
	want := "bot.mdsl:4:3: repeat takes one child, got 2\n\t\taction [B]\n\t\t^"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// A leaf function's error is placed at the leaf and wrapped.
	errBad := errors.New("no such move")
	_, err = ParseFunc("l.mdsl", []byte("root {\n  sequence { action [ok] action [\"bad move\"] }\n}"), func(s string) (string, error) {
		if s == "bad move" {
			return "", errBad
		}
		return s, nil
	})
	if !errors.Is(err, errBad) || !strings.HasPrefix(err.Error(), `l.mdsl:2:34: leaf "bad move": no such move`) {
		t.Errorf("leaf error: %v", err)
	}
	// Leaves of ParseFunc are one name or string.
	for src, want := range map[string]string{
		"root { action [a, b] }":        "1:19: action takes one leaf (an identifier or a string), got 2 arguments",
		"root { action [1] }":           "1:16: a leaf must be an identifier or a string, got number 1",
		"root { action [a] while($p) }": "1:25: a leaf must be an identifier or a string, got $p",
	} {
		_, err := ParseFunc("l.mdsl", []byte(src), func(s string) (string, error) { return s, nil })
		if err == nil || !strings.HasPrefix(err.Error(), "l.mdsl:"+want) {
			t.Errorf("%q: got %v, want %s", src, err, want)
		}
	}
}

// TestMDSLValues checks the values Mistreevous reads: numbers, strings,
// keywords in any case, comments anywhere.
func TestMDSLValues(t *testing.T) {
	src := "/* c */ROOT{SEQUENCE{Action(A,1e3,.5,+1,-0,5.,-2.5,true,false,null,$p_1,\"a\\\"b\",\"\\\\t\",\"x/**/\")" +
		" CONDITION[C]uNtIl[D]THEN Succeed ſequence{ﬂip{action[a/* split */b]}}}}"
	src = strings.Replace(src, `"x/**/"`, `"x"`, 1)
	n, err := Parse("v.mdsl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := bt.Root(bt.Sequence(
		bt.Leaf(bt.Call{Name: "A", Args: []any{1000.0, 0.5, 1.0, 0.0, 5.0, -2.5, true, false, nil, bt.Property("p_1"), `a"b`, `\\t`, "x"}}),
		bt.Condition(bt.Call{Name: "C"}).With(attr.Until(bt.Call{Name: "D"}).ThenSucceed()),
		bt.Sequence(bt.Negate(bt.Leaf(bt.Call{Name: "ab"}))),
	))
	if d := mdslDiff(n, want); d != "" {
		t.Fatal(d)
	}
	out, err := Format(n)
	if err != nil {
		t.Fatal(err)
	}
	const canonical = `root {
    sequence {
        action [A, 1000, 0.5, 1, -0, 5, -2.5, true, false, null, $p_1, "a\"b", "\\t", "x"]
        condition [C] until(D) then succeed
        sequence {
            flip {
                action [ab]
            }
        }
    }
}
`
	if string(out) != canonical {
		t.Errorf("got\n%s\nwant\n%s", out, canonical)
	}
	// Values without a text form are errors, not wrong texts.
	for _, c := range []bt.Call{{Name: "a b"}, {Name: "1"}, {Name: "null"}, {Name: ""}, {Name: "A", Args: []any{math.NaN()}},
		{Name: "A", Args: []any{`"a"b"`}}, {Name: "A", Args: []any{"a/*b"}}, {Name: "A", Args: []any{`a\`}}, {Name: "A", Args: []any{bt.Property("1x")}}, {Name: "A", Args: []any{3}}} {
		if out, err := Format(bt.Leaf(c)); err == nil {
			t.Errorf("%#v: printed %s", c, out)
		}
	}
	if _, err := Format(bt.Sequence(bt.Root(bt.Leaf(bt.Call{Name: "A"})))); err == nil {
		t.Error("a root below the top printed")
	}
}

// TestMDSLKeywords checks the keyword table against the table of kinds.
func TestMDSLKeywords(t *testing.T) {
	seen := map[string]kind.Kind{}
	for k := kind.Kind(0); !strings.HasPrefix(k.String(), "Kind("); k++ {
		kw := keywords[k]
		if k == kind.Custom {
			if kw != "" {
				t.Errorf("custom nodes have keyword %q", kw)
			}
			continue
		}
		if kw == "" {
			t.Errorf("%s has no MDSL keyword", k)
			continue
		}
		if m := k.Mistreevous(); m != "" && m != kw {
			t.Errorf("%s: keyword %q, but Mistreevous calls it %q", k, kw, m)
		}
		if j, dup := seen[kw]; dup {
			t.Errorf("%s and %s share keyword %q", j, k, kw)
		}
		seen[kw] = k
		if got, nodeKind, ok := keywordOf([]byte(strings.ToUpper(kw))); !ok || got != kw || nodeKind != k {
			t.Errorf("keywordOf(%q) = %q, %v, %v", strings.ToUpper(kw), got, nodeKind, ok)
		}
	}
}

// TestMDSLFixtures checks that the texts in testdata/mdsl parse (bad.mdsl
// excepted), print back to equal trees, and are in canonical form or
// reformat stably.
func TestMDSLFixtures(t *testing.T) {
	files, _ := filepath.Glob("../testdata/mdsl/*.mdsl")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	id := func(s string) (string, error) { return s, nil }
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n, err := ParseFunc(f, src, id)
		if filepath.Base(f) == "bad.mdsl" {
			if err == nil {
				t.Errorf("%s parses", f)
			}
			continue
		}
		if err != nil {
			if _, err2 := Parse(f, src); err2 != nil {
				t.Errorf("%s: %v", f, err2)
			}
			continue
		}
		out, err := FormatFunc(n, id)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		back, err := ParseFunc(f, out, id)
		if err != nil || mdslDiff(back, n) != "" {
			t.Errorf("%s: printed text parses differently: %v\n%s", f, err, out)
		}
		fs, err := FormatSource(f, src)
		if err != nil {
			t.Errorf("%s: %v", f, err)
		}
		if fs2, _ := FormatSource(f, fs); !bytes.Equal(fs, fs2) {
			t.Errorf("%s: formatting is not stable", f)
		}
	}
}

// BenchmarkParseMDSL parses a generated 10,000-node text; it reports MB/s
// and allocations per node.
func BenchmarkParseMDSL(b *testing.B) {
	src, nodes := mdslBenchText(10000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n, err := Parse("bench.mdsl", src)
		if err != nil || n.Size() != nodes {
			b.Fatal(err, n.Size(), nodes)
		}
	}
	b.StopTimer()
	allocs := testing.AllocsPerRun(3, func() { Parse("bench.mdsl", src) })
	b.ReportMetric(allocs/float64(nodes), "allocs/node")
}

// mdslBenchText returns a text of about n nodes in the corpus's style:
// composites of three to five children, actions with arguments, guards and
// callbacks, and the number of nodes of its tree.
func mdslBenchText(n int) ([]byte, int) {
	var b bytes.Buffer
	b.WriteString("root {\n    sequence {\n")
	count := 2
	kinds := []string{"sequence", "selector", "parallel", "race", "all", "lotto"}
	for i := 0; count < n; i++ {
		fmt.Fprintf(&b, "        %s while(C%d) {\n", kinds[i%len(kinds)], i%7)
		count++
		for j := 0; j < 4 && count < n; j++ {
			switch j {
			case 0:
				fmt.Fprintf(&b, "            action [A%d, %d, \"arg %d\", true] entry(E%d)\n", i%13, j, i, j)
			case 1:
				fmt.Fprintf(&b, "            condition [C%d, $prop]\n", i%5)
			case 2:
				fmt.Fprintf(&b, "            wait [%d, %d]\n", i, i+100)
			default:
				fmt.Fprintf(&b, "            repeat [3] {\n                action [A%d] exit(X1)\n            }\n", i%11)
				count++
			}
			count++
		}
		b.WriteString("        }\n")
	}
	b.WriteString("    }\n}\n")
	return b.Bytes(), count
}

// TestMDSLFluentKinds reads and prints the FluentBehaviourTree kinds:
// reactive nodes with zero or more children, the parallel's counts in
// Fluent's order (fail, succeed), and the childless inverter.
func TestMDSLFluentKinds(t *testing.T) {
	src := `root {
    reactive_sequence {
        reactive_selector {
        }
        reactive_parallel [-1, 2] {
            action [A]
            empty_inverter
        }
    }
}
`
	n, err := Parse("fluent.mdsl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	par := n.Child(0).Child(1)
	if p := par.Params(); par.Kind() != kind.ReactiveParallel || p.Failure != -1 || p.Success != 2 {
		t.Fatalf("reactive_parallel [-1, 2] reads as %v %+v", par.Kind(), p)
	}
	out, err := Format(n)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != src {
		t.Errorf("printed\n%s\nwant\n%s", out, src)
	}
	if _, err := Parse("bad.mdsl", []byte("root { reactive_parallel [1] { action [A] } }")); err == nil ||
		!strings.Contains(err.Error(), "reactive_parallel takes two counts: reactive_parallel [fail, succeed]") {
		t.Errorf("one count: error %v", err)
	}
}

// TestErrorTerminalSafe: an error's file name, message and quoted source
// line show control characters quoted (ESC, BEL, NUL, U+2028, invalid
// UTF-8), and its caret stays under the column.
func TestErrorTerminalSafe(t *testing.T) {
	const name = "x\x1bc\x1b]0;pwned\a\x00\u2028"
	src := "root { repeat { action [\"" + name + "\"] action [B] } }\nroot [\xff] { action [A] }\n"
	errs := Check("f\x1b\xff.mdsl", []byte(src))
	if len(errs) < 2 {
		t.Fatalf("%d errors, want 2 or more: %v", len(errs), errs)
	}
	for _, e := range errs {
		msg := e.Error()
		for _, r := range msg {
			if r < 0x20 && r != '\n' && r != '\t' || r == 0x2028 || r == utf8.RuneError {
				t.Fatalf("the error holds %U raw:\n%q", r, msg)
			}
		}
		if !strings.HasPrefix(msg, `f\x1b\xff.mdsl:`) {
			t.Errorf("the file name is not quoted: %q", msg)
		}
	}
	lines := strings.Split(errs[0].Error(), "\n")
	if !strings.Contains(lines[1], `x\x1bc\x1b]0;pwned\a\x00\u2028`) {
		t.Errorf("the source line does not show the name quoted: %q", lines[1])
	}
	// The caret is under "action [B]", which the quoting moved right.
	if i := strings.Index(lines[2], "^"); i < 0 || !strings.HasPrefix(lines[1][i:], "action [B]") {
		t.Errorf("caret at %d:\n%s\n%s", i, lines[1], lines[2])
	}
}
