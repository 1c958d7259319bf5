package btcpp

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// runScript parses and evaluates src on b's root scope.
func runScript(b *board, src string, enums map[string]int64) (Value, error) {
	s, err := parseScript(src)
	if err != nil {
		return Value{}, err
	}
	return s.eval(b, 0, enums)
}

// errType returns the *Error type of err ("" for nil).
func errType(err error) ErrorType {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Type
	}
	return "not *Error"
}

// want describes an expected value: its type name and its JSON form.
type want struct {
	typ string
	val any
}

func (w want) check(t *testing.T, what string, v Value) {
	t.Helper()
	if v.Type() != w.typ {
		t.Errorf("%s: type %q, want %q (value %v)", what, v.Type(), w.typ, v.jsonValue())
		return
	}
	got := v.jsonValue()
	if f, ok := w.val.(float64); ok && math.IsNaN(f) {
		if got != "nan" {
			t.Errorf("%s: %v, want nan", what, got)
		}
		return
	}
	switch x := w.val.(type) {
	case int:
		w.val = int64(x)
	case float64:
		if math.IsInf(x, 1) {
			w.val = "inf"
		} else if math.IsInf(x, -1) {
			w.val = "-inf"
		}
	}
	if got != w.val {
		t.Errorf("%s: %v (%T), want %v (%T)", what, got, got, w.val, w.val)
	}
}

func dbl(f float64) want { return want{"double", f} }

// TestLexNumbers: §8.1's numbers, and the malformed ones that fail to parse.
func TestLexNumbers(t *testing.T) {
	good := []struct {
		src string
		w   want
	}{
		{"7", want{"int64", 7}},
		{"0x1F", want{"int64", 31}},
		{"0X1f", want{"int64", 31}},
		{"1.5", dbl(1.5)},
		{"2e3", dbl(2000)},
		{"1.5e-2", dbl(0.015)},
		{"1E+2", dbl(100)},
		{"true", dbl(1)},
		{"false", dbl(0)},
		{"'a b'", want{"string", "a b"}},
		{"''", want{"string", ""}},
		{"1..2", want{"string", "12"}}, // 1 then .. then 2: concat of two numbers is empty, see below
	}
	for _, c := range good[:len(good)-1] {
		v, err := runScript(newBoard(), c.src, nil)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		c.w.check(t, c.src, v)
	}
	// "1..2" is 1 .. 2 (two numbers: an empty value, no error by itself).
	toks, err := lex("1..2")
	if err != nil || len(toks) != 4 || toks[0].kind != tInt || toks[1].op != opConcat || toks[2].kind != tInt {
		t.Errorf("lex(1..2) = %v, %v; want 1 .. 2", toks, err)
	}
	bad := []string{"1.", "1.e3", "2e", "2e+", "0x", "0xG", "3foo", "3_", "0x1Fg", "'abc", "1 # 2", ".5", "99999999999999999999", "a $ b", "\"s\""}
	for _, src := range bad {
		_, err := parseScript(src)
		if err == nil {
			t.Errorf("%q parsed; want a parse error", src)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || e.Type != RuntimeError || e.Line != 1 || e.Col < 1 {
			t.Errorf("%q: error %#v; want a RuntimeError with a position", src, err)
		}
	}
}

// TestParseErrorPosition: a parse error says the line and column inside the
// script.
func TestParseErrorPosition(t *testing.T) {
	cases := []struct {
		src       string
		line, col int
	}{
		{"x := 1;\n  y := 2.;", 2, 8},
		{"a := 'x", 1, 6},
		{"x := (1 + 2", 1, 12},
		{"1 + 2 := 3", 1, 7},
		{"x := 1 y := 2", 1, 8},
		{"", 1, 1},
		{" ; ;", 1, 5},
		{"a ? b", 1, 6},
		{"x := )", 1, 6},
	}
	for _, c := range cases {
		_, err := parseScript(c.src)
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%q: %v, want an *Error", c.src, err)
			continue
		}
		if e.Line != c.line || e.Col != c.col {
			t.Errorf("%q: error at %d:%d (%v), want %d:%d", c.src, e.Line, e.Col, e, c.line, c.col)
		}
		if prefix := fmt.Sprintf("%d:%d: RuntimeError: ", c.line, c.col); !strings.HasPrefix(e.Error(), prefix) {
			t.Errorf("%q: message %q does not start with %q", c.src, e.Error(), prefix)
		}
	}
}

// TestPrecedence: §8.2's binding powers, chained comparisons and the
// right-nesting ternary.
func TestPrecedence(t *testing.T) {
	cases := []struct {
		src string
		w   want
	}{
		{"1 + 2 * 3", dbl(7)},
		{"(1 + 2) * 3", dbl(9)},
		{"10 - 4 - 3", dbl(3)},  // left-associative
		{"64 / 4 / 2", dbl(8)},  // left-associative
		{"-2 * 3", dbl(-6)},     // prefix binds tighter
		{"- 1 + 2", dbl(1)},     // (-1) + 2
		{"!0 + 1", dbl(2)},      // (!0) + 1
		{"~0 & 7", dbl(7)},      // (~0) & 7
		{"1 | 2 & 3", dbl(3)},   // 1 | (2 & 3)
		{"6 ^ 3 & 1", dbl(7)},   // 6 ^ (3 & 1)
		{"1 + 2 == 3", dbl(1)},  // (1+2) == 3
		{"3 & 1 == 1", dbl(1)},  // (3&1) == 1: & binds tighter than ==
		{"1 < 2 < 3", dbl(1)},   // chained: pairwise
		{"3 > 2 > 1", dbl(1)},   // chained: C would say (1) > 1 = false
		{"1 < 3 < 2", dbl(0)},   // second pair fails
		{"2 == 2 == 2", dbl(1)}, // chained ==
		{"1 < 2 == 2", dbl(1)},  // mixed chain
		{"1 || 0 && 0", dbl(1)}, // && binds tighter than ||
		{"0 && 1 || 1", dbl(1)}, // (0&&1) || 1
		{"1 ? 5 : 0 ? 6 : 7", want{"int64", 5}},
		{"0 ? 5 : 0 ? 6 : 7", want{"int64", 7}},
		{"0 ? 5 : 1 ? 6 : 7", want{"int64", 6}},
		{"1 ? 0 ? 8 : 9 : 7", want{"int64", 9}}, // the middle is a whole expression
		{"0 || 1 ? 2 : 3", want{"int64", 2}},    // (0||1) ? 2 : 3
		{"1 ? 2 : 0 || 3", want{"int64", 2}},
		{"0 ? 2 : 0 || 1", dbl(1)},                    // after ':' binds || (6 > 4)
		{"'a' .. 1 + 2", want{"string", "a3.000000"}}, // .. and + share 16, left-assoc: ('a' .. 1) + 2 fails; see below
	}
	for _, c := range cases[:len(cases)-1] {
		v, err := runScript(newBoard(), c.src, nil)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		c.w.check(t, c.src, v)
	}
	// ('a' .. 1) + 2 is a string plus a number: an error.
	if _, err := runScript(newBoard(), "'a' .. 1 + 2", nil); errType(err) != RuntimeError {
		t.Errorf("'a' .. 1 + 2: %v, want RuntimeError (left-associative at 16)", err)
	}
	// Assignments are right-associative; their right side is a whole
	// expression.
	b := newBoard()
	v, err := runScript(b, "a := b := 1 + 2 * 3", nil)
	if err != nil {
		t.Fatal(err)
	}
	want{"double", 7.0}.check(t, "a := b := 1 + 2 * 3", v)
	for _, k := range []string{"a", "b"} {
		e, ok := b.lookup(0, k)
		if !ok {
			t.Fatalf("%s not created", k)
		}
		want{"double", 7.0}.check(t, k, e.value)
	}
	// Statements: the script's value is the last one; extra ';' allowed.
	v, err = runScript(newBoard(), ";; x := 1; ; y := x + 1;;", nil)
	if err != nil {
		t.Fatal(err)
	}
	dbl(2).check(t, "last statement", v)
}

// TestOperators: §8.3, one row per rule.
func TestOperators(t *testing.T) {
	setup := func() *board {
		b := newBoard()
		b.setInitial("i", jsonNum("3"))
		b.setInitial("d", jsonNum("2.5"))
		b.setInitial("s", "txt")
		b.setInitial("t", true)
		b.setInitial("n", jsonNum("0"))
		b.createEntry(0, "e", "int") // empty
		return b
	}
	nan := math.NaN()
	cases := []struct {
		src string
		w   want
		err ErrorType
	}{
		{src: "i", w: want{"int", 3}},     // an int entry gives an int
		{src: "t", w: want{"bool", true}}, // a bool entry a bool
		{src: "d", w: dbl(2.5)},
		{src: "2 + 3", w: dbl(5)}, // two integers: a double
		{src: "i + 1", w: dbl(4)},
		{src: "7 / 2", w: dbl(3.5)},
		{src: "1 / 0", w: dbl(math.Inf(1))},
		{src: "-1 / 0", w: dbl(math.Inf(-1))},
		{src: "0 / 0", w: dbl(nan)},
		{src: "'a' + 'b'", w: want{"string", "ab"}},
		{src: "'a' + 1", err: RuntimeError},
		{src: "'a' - 'b'", err: RuntimeError},
		{src: "'a' .. 'b'", w: want{"string", "ab"}},
		{src: "'a' .. 7", w: want{"string", "a7"}},
		{src: "1.25 .. 'x'", w: want{"string", "1.250000x"}},
		{src: "i .. 'x'", w: want{"string", "3x"}},
		{src: "t .. 'x'", w: want{"string", "1x"}},
		{src: "1 .. 2", w: want{"none", nil}},    // two numbers: an empty value, no error by itself
		{src: "(1 .. 2) + 1", err: RuntimeError}, // the empty value fails in an operator
		{src: "x := 1 .. 2", err: RuntimeError},  // and in :=
		{src: "6 & 3", w: dbl(2)},
		{src: "6 | 3", w: dbl(7)},
		{src: "6 ^ 3", w: dbl(5)},
		{src: "6.0 & 3", w: dbl(2)},
		{src: "6.5 & 3", err: RuntimeError}, // a fraction
		{src: "'a' & 1", err: RuntimeError},
		{src: "1 && 2.5", w: dbl(1)},
		{src: "1 && 0.0", w: dbl(0)},
		{src: "2 && 1", err: RuntimeError}, // integers only 0 and 1
		{src: "i || 1", err: RuntimeError},
		{src: "'a' && 1", err: RuntimeError},
		{src: "0 && (x := 1)", w: dbl(0)}, // no short-circuit: checked below
		{src: "-i", w: dbl(-3)},
		{src: "!0", w: dbl(1)},
		{src: "!2", w: dbl(0)}, // no 0/1 restriction
		{src: "!0.5", w: dbl(0)},
		{src: "~5", w: dbl(-6)},
		{src: "~2.7", w: dbl(-3)}, // truncated toward zero
		{src: "~-2.7", w: dbl(1)},
		{src: "-'a'", err: RuntimeError},
		{src: "!'a'", err: RuntimeError},
		{src: "~'a'", err: RuntimeError},
		{src: "-e", err: RuntimeError},
		{src: "e + 1", err: RuntimeError},
		{src: "e == 1", err: RuntimeError},
		{src: "missing", err: RuntimeError},
		{src: "1 == 1 + 1e-7", w: dbl(1)}, // tolerance 1.1920929e-07
		{src: "1 == 1 + 2e-7", w: dbl(0)},
		{src: "1 != 1 + 1e-7", w: dbl(0)},
		{src: "0/0 < 1", w: dbl(1)}, // NaN: < > <= >= all true
		{src: "0/0 > 1", w: dbl(1)},
		{src: "0/0 <= 1", w: dbl(1)},
		{src: "0/0 >= 1", w: dbl(1)},
		{src: "0/0 == 0/0", w: dbl(0)},
		{src: "0/0 != 0/0", w: dbl(1)},
		{src: "'abc' < 'abd'", w: dbl(1)},
		{src: "'b' > 'abc'", w: dbl(1)},
		{src: "'a' == 'a'", w: dbl(1)},
		{src: "'2.5x' == 2.5", w: dbl(1)}, // the leading number
		{src: "'3 ' == 3", w: dbl(1)},
		{src: "'1e1' == 10", w: dbl(1)},
		{src: "'true' == 1", w: dbl(1)},
		{src: "0 == 'false'", w: dbl(1)},
		{src: "' 3' == 3", err: StdRuntimeError}, // no leading spaces
		{src: "'' == 0", err: StdRuntimeError},
		{src: "'abc' == 0", err: StdRuntimeError},
		{src: "'RED' == 2", w: dbl(1)}, // an enum name
		{src: "RED", w: dbl(2)},        // an enum identifier: double
		{src: "RED + 1", w: dbl(3)},
		{src: "'0' ? 1 : 2", w: want{"int64", 2}},
		{src: "'2x' ? 1 : 2", w: want{"int64", 1}},
		{src: "'abc' ? 1 : 2", err: StdRuntimeError},
		{src: "0.5 ? 1 : 2", w: want{"int64", 1}},
		{src: "1 ? 3 : missing", w: want{"int64", 3}}, // only the chosen branch
		{src: "e ? 1 : 2", err: StdRuntimeError},      // Any::cast of an empty value
		{src: "1 < 0 < missing", w: dbl(0)},           // a chain stops at the first false pair
		{src: "1 < 2 < missing", err: RuntimeError},
		{src: "s", w: want{"string", "txt"}},
	}
	enums := map[string]int64{"RED": 2}
	for _, c := range cases {
		v, err := runScript(setup(), c.src, enums)
		if c.err != "" {
			if errType(err) != c.err {
				t.Errorf("%q: error %v (%s), want %s", c.src, err, errType(err), c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		c.w.check(t, c.src, v)
	}
	// Both sides of && and || are always evaluated.
	b := setup()
	if _, err := runScript(b, "0 && (x := 1); 1 || (y := 0)", nil); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"x", "y"} {
		if _, ok := b.lookup(0, k); !ok {
			t.Errorf("%s was not assigned: && and || must not short-circuit", k)
		}
	}
}

// TestAssignments: the store rules of §8.3.
func TestAssignments(t *testing.T) {
	type row struct {
		name   string
		setup  func(b *board)
		src    string
		err    ErrorType
		key    string
		decl   string // the entry afterwards
		w      want
		seqInc uint64
	}
	initial := func(k string, v any) func(*board) { return func(b *board) { b.setInitial(k, v) } }
	declared := func(k, d string) func(*board) {
		return func(b *board) {
			if err := b.createEntry(0, k, d); err != nil {
				panic(err)
			}
		}
	}
	rows := []row{
		{name: "w := 3 stores int64", src: "w := 3", key: "w", decl: "any", w: want{"int64", 3}},
		{name: "y := x keeps int", setup: initial("x", jsonNum("3")), src: "y := x", key: "y", decl: "any", w: want{"int", 3}},
		{name: "= on a missing key", src: "w = 3", err: RuntimeError},
		{name: "= on an existing key", setup: initial("x", jsonNum("3")), src: "x = 4", key: "x", decl: "int", w: want{"int", 4}},
		{name: "int64 into int keeps int", setup: initial("x", jsonNum("3")), src: "x := 9", key: "x", decl: "int", w: want{"int", 9}},
		{name: "empty int entry takes int64 as is", setup: declared("n", "int"), src: "n := 9", key: "n", decl: "int", w: want{"int64", 9}},
		{name: "double 4.0 into int", setup: initial("x", jsonNum("3")), src: "x := 4.0", key: "x", decl: "int", w: want{"int", 4}},
		{name: "double 0.5 into int fails", setup: initial("x", jsonNum("3")), src: "x := 0.5", err: RuntimeError, key: "x", decl: "int", w: want{"int", 3}},
		{name: "int into double", setup: initial("d", jsonNum("2.5")), src: "d := 3", key: "d", decl: "double", w: dbl(3)},
		{name: "string into int entry parses", setup: initial("x", jsonNum("3")), src: "x := '12'", key: "x", decl: "int", w: want{"int", 12}},
		{name: "bad string into int entry", setup: initial("x", jsonNum("3")), src: "x := 'abc'", err: RuntimeError},
		{name: "string into empty bool entry", setup: declared("b", "bool"), src: "b := 'true'", key: "b", decl: "bool", w: want{"bool", true}},
		{name: "string into empty string entry", setup: declared("s", "string"), src: "s := 'q'", key: "s", decl: "string", w: want{"string", "q"}},
		{name: "string into double entry", setup: initial("d", jsonNum("2.5")), src: "d := '1.5'", key: "d", decl: "double", w: dbl(1.5)},
		{name: "string into any number: double", src: "v := 1; v := '7'", key: "v", decl: "any", w: dbl(7)},
		{name: "string into any number: bad", src: "v := 1; v := 'x'", err: StdRuntimeError},
		{name: "string into any number: enum", src: "v := 1; v := 'RED'", key: "v", decl: "any", w: dbl(2)},
		{name: "number into any string", src: "v := 'a'; v := 1", err: RuntimeError},
		{name: "string into any string", src: "v := 'a'; v := 'b'", key: "v", decl: "any", w: want{"string", "b"}},
		{name: "string into Any fails", setup: declared("a", "Any"), src: "a := 'x'", err: RuntimeError},
		{name: "number into empty Any", setup: declared("a", "Any"), src: "a := 1", key: "a", decl: "Any", w: want{"int64", 1}},
		{name: "bool entry: int64 1 keeps bool", setup: initial("t", false), src: "t := 1", key: "t", decl: "bool", w: want{"bool", true}},
		{name: "value of := is the stored value", setup: initial("x", jsonNum("3")), src: "x := 4.0", key: "x", decl: "int", w: want{"int", 4}},
		{name: "+= on int stays int", setup: initial("x", jsonNum("3")), src: "x += 1", key: "x", decl: "int", w: want{"int", 4}},
		{name: "+= 0.5 on int fails", setup: initial("x", jsonNum("3")), src: "x += 0.5", err: StdRuntimeError},
		{name: "-= 0.5 on int fails", setup: initial("x", jsonNum("3")), src: "x -= 0.5", err: StdRuntimeError},
		{name: "*= on double", setup: initial("d", jsonNum("2.5")), src: "d *= 2", key: "d", decl: "double", w: dbl(5)},
		{name: "/= on double", setup: initial("d", jsonNum("2.5")), src: "d /= 2", key: "d", decl: "double", w: dbl(1.25)},
		{name: "/= 2 on int 3 fails", setup: initial("x", jsonNum("3")), src: "x /= 2", err: StdRuntimeError},
		{name: "x *= x reaches 2^32", setup: initial("x", jsonNum("65536")), src: "x *= x", key: "x", decl: "int", w: want{"int", int64(4294967296)}},
		{name: "x *= x past int64", setup: initial("x", jsonNum("4294967296")), src: "x *= x", err: StdRuntimeError},
		{name: "+= on a missing key", src: "z += 1", err: RuntimeError},
		{name: "+= on an empty entry", setup: declared("e", "int"), src: "e += 1", err: RuntimeError},
		{name: "+= string append", setup: initial("s", "ab"), src: "s += 'c'", key: "s", decl: "any", w: want{"string", "abc"}},
		{name: "-= string", setup: initial("s", "ab"), src: "s -= 'c'", err: RuntimeError},
		{name: "+= string on a number", setup: initial("x", jsonNum("3")), src: "x += 'c'", err: StdRuntimeError},
		{name: "+= number on a string", setup: initial("s", "ab"), src: "s += 1", err: RuntimeError},
		{name: ":= keeps the empty entry when e fails", src: "q := missing", err: RuntimeError, key: "q", decl: "any", w: want{"any", nil}},
		{name: "@ only starts a name", src: "@@k := 1", err: RuntimeError},
		{name: ":= @k into the root", src: "@k := 1", key: "k", decl: "any", w: want{"int64", 1}},
		{name: "empty uint entry takes int64 100", setup: declared("u", "uint"), src: "u := 100", key: "u", decl: "uint", w: want{"int64", 100}},
		{name: "string into empty uint entry parses", setup: declared("u", "uint"), src: "u := '7ms'", key: "u", decl: "uint", w: want{"uint", 7}},
		{name: "string into a NodeStatus entry: the enum", setup: declared("st", "NodeStatus"), src: "st := 'FAILURE'", key: "st", decl: "NodeStatus", w: want{"NodeStatus", 3}},
		{name: "assignment to an enum name writes the entry", src: "RED := 5", key: "RED", decl: "any", w: want{"int64", 5}},
	}
	enums := map[string]int64{"RED": 2}
	for _, r := range rows {
		b := newBoard()
		if r.setup != nil {
			r.setup(b)
		}
		before := b.seq(0, r.key)
		_, err := runScript(b, r.src, enums)
		if errType(err) != r.err {
			t.Errorf("%s: %q: error %v (%s), want %q", r.name, r.src, err, errType(err), r.err)
			continue
		}
		if r.key == "" {
			continue
		}
		e, ok := b.lookup(0, r.key)
		if !ok {
			t.Errorf("%s: entry %s missing", r.name, r.key)
			continue
		}
		if e.declared != r.decl {
			t.Errorf("%s: declared %q, want %q", r.name, e.declared, r.decl)
		}
		r.w.check(t, r.name, e.value)
		if r.err == "" && e.seq <= before {
			t.Errorf("%s: write counter %d, was %d: a write must count", r.name, e.seq, before)
		}
		if r.err != "" && e.seq != before {
			t.Errorf("%s: write counter %d, was %d: a failed write must not count", r.name, e.seq, before)
		}
	}
}

// TestScriptScopes: := creates through remapping and auto-remapping; the
// {@k} remapping makes the lookup after := fail with a LogicError.
func TestScriptScopes(t *testing.T) {
	b := newBoard()
	sub := b.addScope(scopeInfo{TreeID: "S", Path: "S", Parent: 0, Remap: map[string]string{"p": "outer", "g": "@gk"}})
	auto := b.addScope(scopeInfo{TreeID: "A", Path: "A", Parent: 0, Auto: true})
	eval := func(scope int, src string) error {
		s, err := parseScript(src)
		if err != nil {
			return err
		}
		_, err = s.eval(b, scope, nil)
		return err
	}
	if err := eval(sub, "p := 1; local := 2"); err != nil {
		t.Fatal(err)
	}
	if e, ok := b.lookup(0, "outer"); !ok || e.value.i != 1 {
		t.Errorf("p := 1 in a remapped scope: root outer = %v, %v", e, ok)
	}
	if _, ok := b.index(sub, "local"); !ok {
		t.Error("local := 2: not in the subtree's own scope")
	}
	if err := eval(auto, "shared := 1; _private := 2"); err != nil {
		t.Fatal(err)
	}
	if _, ok := b.index(0, "shared"); !ok {
		t.Error("auto-remapped := must create in the parent")
	}
	if _, ok := b.index(auto, "_private"); !ok {
		t.Error("a key starting with _ is not auto-remapped")
	}
	err := eval(sub, "g := 1")
	if errType(err) != LogicError {
		t.Errorf("g := 1 with g remapped to {@gk}: %v, want LogicError", err)
	}
	if _, ok := b.index(0, "@gk"); !ok {
		t.Error("the {@k} remapping creates an entry literally named @gk in the parent")
	}
}

// TestScriptBool: §8.4.
func TestScriptBool(t *testing.T) {
	cases := []struct {
		v    Value
		want bool
		err  ErrorType
	}{
		{DoubleValue(0), false, ""},
		{DoubleValue(0.5), true, ""},
		{DoubleValue(math.NaN()), true, ""},
		{IntValue(0, "int64"), false, ""},
		{IntValue(1, "int"), true, ""},
		{BoolValue(true), true, ""},
		{IntValue(2, "int64"), false, StdRuntimeError},
		{IntValue(-1, "int"), false, StdRuntimeError},
		{StringValue("1"), false, StdRuntimeError},
		{Value{}, false, StdRuntimeError},
	}
	for _, c := range cases {
		got, err := scriptBool(c.v)
		if errType(err) != c.err || (err == nil && got != c.want) {
			t.Errorf("scriptBool(%s %v) = %v, %v; want %v, %s", c.v.Type(), c.v.jsonValue(), got, err, c.want, c.err)
		}
	}
}

// TestSwitchEqual: §5.1's string equality.
func TestSwitchEqual(t *testing.T) {
	enums := map[string]int64{"RED": 2}
	cases := []struct {
		a, b string
		want bool
	}{
		{"x", "x", true},
		{"1", "01", true},
		{"1", "1.0", true},
		{"1.0", "1.00000001", true},
		{"1", "2", false},
		{"RED", "2", true},
		{"RED", "2.0", true},
		{"1x", "1", false},
		{" 1", "1", false},
		{"", "0", false},
		{"abc", "abd", false},
		{"-3", "-3.0", true},
	}
	for _, c := range cases {
		if got := switchEqual(c.a, c.b, enums); got != c.want {
			t.Errorf("switchEqual(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// FuzzParseScript: parsing never panics, and evaluating what parsed never
// panics.
func FuzzParseScript(f *testing.F) {
	for _, s := range []string{"x := 1", "a > 3 && b == 'ok'", "1 ? 5 : 0 ? 6 : 7", "x += 'a'; y := x .. 2",
		"~-2.7 | 0x1F ^ 3", "@k := 1; k *= 1e300", "a < b < c", "((1))", "'abc", "1..2", "x = y = z"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := parseScript(src)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Line < 1 || e.Col < 1 {
				t.Fatalf("%q: error without a position: %v", src, err)
			}
			return
		}
		b := newBoard()
		b.setInitial("a", jsonNum("4"))
		b.setInitial("b", "ok")
		b.setInitial("x", jsonNum("1.5"))
		b.createEntry(0, "e", "int")
		for i := 0; i < 2; i++ {
			if _, err := s.eval(b, 0, map[string]int64{"RED": 2}); err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("%q: error is not an *Error: %v", src, err)
				}
			}
		}
	})
}

// BenchmarkScriptIncrement: x := x + 1 on a board with x.
func BenchmarkScriptIncrement(bm *testing.B) {
	b := newBoard()
	b.setInitial("x", jsonNum("0"))
	s, err := parseScript("x := x + 1")
	if err != nil {
		bm.Fatal(err)
	}
	bm.ReportAllocs()
	bm.ResetTimer()
	for i := 0; i < bm.N; i++ {
		if _, err := s.eval(b, 0, nil); err != nil {
			bm.Fatal(err)
		}
	}
}

// BenchmarkScriptCondition: a > 3 && b == 'ok'.
func BenchmarkScriptCondition(bm *testing.B) {
	b := newBoard()
	b.setInitial("a", jsonNum("4"))
	b.setInitial("b", "ok")
	s, err := parseScript("a > 3 && b == 'ok'")
	if err != nil {
		bm.Fatal(err)
	}
	bm.ReportAllocs()
	bm.ResetTimer()
	for i := 0; i < bm.N; i++ {
		if _, err := s.eval(b, 0, nil); err != nil {
			bm.Fatal(err)
		}
	}
}

// BenchmarkScriptIncrementClone: x := x + 1 on a fresh clone each time (one
// version per tick): the cost of the first write to a scope.
func BenchmarkScriptIncrementClone(bm *testing.B) {
	b := newBoard()
	b.setInitial("x", jsonNum("0"))
	for i := 0; i < 7; i++ {
		b.setInitial(string(rune('a'+i)), jsonNum("1"))
	}
	s, err := parseScript("x := x + 1")
	if err != nil {
		bm.Fatal(err)
	}
	bm.ReportAllocs()
	bm.ResetTimer()
	for i := 0; i < bm.N; i++ {
		b = b.clone()
		if _, err := s.eval(b, 0, nil); err != nil {
			bm.Fatal(err)
		}
	}
}
