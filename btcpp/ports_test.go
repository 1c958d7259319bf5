package btcpp

import (
	"math"
	"testing"
)

// TestIsRef: "{k}" with spaces around the braces, at least 3 characters.
func TestIsRef(t *testing.T) {
	cases := []struct {
		raw, port string
		key       string
		ok        bool
	}{
		{"{k}", "p", "k", true},
		{" {k} ", "p", "k", true},
		{"{=}", "p", "p", true},
		{"{@k}", "p", "@k", true},
		{"{}", "p", "", false},
		{" {} ", "p", "", false},
		{"k", "p", "", false},
		{"{k", "p", "", false},
		{"\t{k}", "p", "", false}, // only spaces are trimmed
		{"", "p", "", false},
	}
	for _, c := range cases {
		key, ok := refKey(c.raw, c.port)
		if ok != c.ok || key != c.key {
			t.Errorf("refKey(%q) = %q, %v; want %q, %v", c.raw, key, ok, c.key, c.ok)
		}
	}
}

// TestParseLiteral: §6.3's literal parsing and TIMED.md §0's unsigned.
func TestParseLiteral(t *testing.T) {
	cases := []struct {
		raw, typ string
		ok       bool
		w        want
	}{
		{"12", "int", true, want{"int", 12}},
		{"12x", "int", true, want{"int", 12}}, // the leading integer
		{"-3", "int", true, want{"int", -3}},
		{" 3", "int", false, want{}},
		{"+3", "int", false, want{}},
		{"x", "int", false, want{}},
		{"", "int", false, want{}},
		{"2147483647", "int", true, want{"int", 2147483647}},
		{"2147483648", "int", false, want{}}, // must fit 32 bits
		{"-2147483648", "int", true, want{"int", -2147483648}},
		{"0x10", "int", true, want{"int", 0}},
		{"2.5", "double", true, dbl(2.5)},
		{"2.5abc", "double", true, dbl(2.5)}, // the leading double
		{" 2.5", "double", true, dbl(2.5)},   // strtod skips white space
		{"1e3", "double", true, dbl(1000)},
		{"inf", "double", true, dbl(math.Inf(1))},
		{"-Infinity", "double", true, dbl(math.Inf(-1))},
		{"nan", "double", true, dbl(math.NaN())},
		{"abc", "double", false, want{}},
		{"1e999", "double", false, want{}}, // out of range
		{"true", "bool", true, want{"bool", true}},
		{"TRUE", "bool", true, want{"bool", true}},
		{"True", "bool", true, want{"bool", true}},
		{"1", "bool", true, want{"bool", true}},
		{"false", "bool", true, want{"bool", false}},
		{"FALSE", "bool", true, want{"bool", false}},
		{"False", "bool", true, want{"bool", false}},
		{"0", "bool", true, want{"bool", false}},
		{"yes", "bool", false, want{}},
		{"tRue", "bool", false, want{}},
		{"2", "bool", false, want{}},
		{"txt", "string", true, want{"string", "txt"}},
		{"", "string", true, want{"string", ""}},
		{"100", "uint", true, want{"uint", 100}},
		{"100ms", "uint", true, want{"uint", 100}},
		{"4294967295", "uint", true, want{"uint", int64(4294967295)}},
		{"4294967296", "uint", false, want{}},
		{"-1", "uint", false, want{}},
		{" 1", "uint", false, want{}},
		{"+1", "uint", false, want{}},
		{"abc", "uint", false, want{}},
		{"SUCCESS", "NodeStatus", true, want{"NodeStatus", 2}}, // BT's enum
		{"IDLE", "NodeStatus", true, want{"NodeStatus", 0}},
		{"success", "NodeStatus", false, want{}},
	}
	for _, c := range cases {
		v, ok := parseLiteral(c.raw, c.typ)
		if ok != c.ok {
			t.Errorf("parseLiteral(%q, %s) ok = %v, want %v", c.raw, c.typ, ok, c.ok)
			continue
		}
		if ok {
			c.w.check(t, c.typ+" "+c.raw, v)
		}
	}
}

// TestReadPort: §6.3 from entries.
func TestReadPort(t *testing.T) {
	b := newBoard()
	b.setInitial("i", jsonNum("3"))
	b.setInitial("d", jsonNum("2.5"))
	b.setInitial("d3", jsonNum("3.0"))
	b.setInitial("s", "12")
	b.setInitial("t", true)
	b.setInitial("two", jsonNum("2"))
	b.setInitial("neg", jsonNum("-1"))
	b.setInitial("ms", "100ms")
	b.setInitial("st", "SKIPPED")
	b.set(0, "big", IntValue(1<<40, "int64"), "int64")
	b.createEntry(0, "e", "int")
	cases := []struct {
		raw, typ string
		ok       bool
		w        want
	}{
		{"{missing}", "int", false, want{}},
		{"{e}", "int", false, want{}}, // empty value
		{"{i}", "int", true, want{"int", 3}},
		{"{i}", "double", true, dbl(3)},
		{"{i}", "string", true, want{"string", "3"}},
		{"{d}", "string", true, want{"string", "2.500000"}},
		{"{d}", "any", true, want{"string", "2.500000"}},
		{"{t}", "string", true, want{"string", "1"}},
		{"{d}", "int", false, want{}}, // a fraction
		{"{d3}", "int", true, want{"int", 3}},
		{"{big}", "int", false, want{}}, // out of range
		{"{big}", "double", true, dbl(1 << 40)},
		{"{s}", "int", true, want{"int", 12}}, // a string is parsed
		{"{s}", "bool", false, want{}},
		{"{s}", "string", true, want{"string", "12"}},
		{"{i}", "bool", false, want{}}, // 3 is not 0/1
		{"{t}", "bool", true, want{"bool", true}},
		{"{d}", "bool", true, want{"bool", true}}, // double: non-zero
		{"{two}", "uint", true, want{"uint", 2}},
		{"{neg}", "uint", false, want{}}, // a number must lie in 0…4294967295
		{"{big}", "uint", false, want{}},
		{"{d3}", "uint", true, want{"uint", 3}},
		{"{d}", "uint", false, want{}},
		{"{ms}", "uint", true, want{"uint", 100}}, // a string is parsed like a literal
		{"{two}", "NodeStatus", true, want{"NodeStatus", "SUCCESS"}},
		{"7", "int", true, want{"int", 7}},
		{"7", "any", true, want{"string", "7"}},
		{"FAILURE", "NodeStatus", true, want{"NodeStatus", "FAILURE"}}, // a read gives the name
		{"{st}", "NodeStatus", true, want{"NodeStatus", "SKIPPED"}},
		{"{s}", "NodeStatus", false, want{}},
		{"{=}", "int", true, want{"int", 3}}, // the port is named i
	}
	for _, c := range cases {
		v, ok := b.readPort(0, "i", c.raw, c.typ)
		if ok != c.ok {
			t.Errorf("read %q as %s: ok = %v, want %v", c.raw, c.typ, ok, c.ok)
			continue
		}
		if ok {
			c.w.check(t, c.raw+" as "+c.typ, v)
		}
	}
}

// TestWritePort: §6.4.
func TestWritePort(t *testing.T) {
	b := newBoard()
	if err := b.writePort(0, "out", "literal", "int", IntValue(1, "int")); err != nil {
		t.Errorf("a literal port: the write is silently ignored, got %v", err)
	}
	if len(b.dump()[0]) != 0 {
		t.Error("a literal port must not write")
	}
	b.writePort(0, "out", "{o}", "int", IntValue(1, "int"))
	b.writePort(0, "out", "{=}", "string", StringValue("s"))
	b.writePort(0, "out2", "{a}", "any", StringValue("s"))
	if !eqDump(dumpOf(b, 0, "o"), "int", "int", 1) || !eqDump(dumpOf(b, 0, "out"), "any", "string", "s") || !eqDump(dumpOf(b, 0, "a"), "any", "string", "s") {
		t.Errorf("writes: %v", b.dump())
	}
	if err := b.writePort(0, "out", "{o}", "double", DoubleValue(1.5)); errType(err) != LogicError {
		t.Errorf("a double 1.5 into an int entry: %v, want LogicError", err)
	}
}

// TestSetBlackboard: every sentence of §5.3's SetBlackboard.
func TestSetBlackboard(t *testing.T) {
	type row struct {
		name      string
		setup     func(b *board)
		key, val  string
		ok        bool
		err       ErrorType
		dumpKey   string
		dump      []any
		extraKey  string
		extraDump []any
	}
	init := func(kv ...any) func(*board) {
		return func(b *board) {
			for i := 0; i < len(kv); i += 2 {
				b.setInitial(kv[i].(string), kv[i+1])
			}
		}
	}
	rows := []row{
		{name: "literal into a new key: declared string", key: "n", val: "5", ok: true, dumpKey: "n", dump: []any{"string", "string", "5"}},
		{name: "literal into an int entry: parsed", setup: init("x", jsonNum("3")), key: "x", val: "12", ok: true, dumpKey: "x", dump: []any{"int", "int", 12}},
		{name: "bad literal into an int entry", setup: init("x", jsonNum("3")), key: "x", val: "abc", err: LogicError, dumpKey: "x", dump: []any{"int", "int", 3}},
		{name: "literal into a double entry", setup: init("d", jsonNum("1.5")), key: "d", val: "2.5", ok: true, dumpKey: "d", dump: []any{"double", "double", 2.5}},
		{name: "literal into a bool entry", setup: init("b", false), key: "b", val: "true", ok: true, dumpKey: "b", dump: []any{"bool", "bool", true}},
		{name: "literal into an any entry: empty", setup: init("s", "a"), key: "s", val: "word", ok: true, dumpKey: "s", dump: []any{"Any", "none", nil}},
		{name: "literal into a string entry", setup: func(b *board) { b.createEntry(0, "s", "string") }, key: "s", val: "w", ok: true, dumpKey: "s", dump: []any{"string", "string", "w"}},
		{name: "literal into an Any entry: error", setup: func(b *board) { b.createEntry(0, "s", "Any") }, key: "s", val: "w", err: LogicError},
		{name: "{src} into a new key: src's declared type", setup: init("x", jsonNum("3")), key: "t", val: "{x}", ok: true, dumpKey: "t", dump: []any{"int", "int", 3}},
		{name: "{src} missing: error", key: "t", val: "{nope}", err: RuntimeError},
		{name: "{src} empty: FAILURE, the key is created", setup: func(b *board) { b.createEntry(0, "m", "any") }, key: "q", val: "{m}", ok: false, dumpKey: "q", dump: []any{"any", "any", nil}},
		{name: "{src} string into an int entry: parsed", setup: init("x", jsonNum("3"), "s", "7"), key: "x", val: "{s}", ok: true, dumpKey: "x", dump: []any{"int", "int", 7}},
		{name: "{src} int into an any entry: Any", setup: init("x", jsonNum("3"), "s", "a"), key: "s", val: "{x}", ok: true, dumpKey: "s", dump: []any{"Any", "int", 3}},
		{name: "{src} double into an int entry: type change", setup: init("x", jsonNum("3"), "d", jsonNum("1.5")), key: "x", val: "{d}", err: LogicError},
		{name: "{=} is {value}", setup: init("value", jsonNum("4")), key: "o", val: "{=}", ok: true, dumpKey: "o", dump: []any{"int", "int", 4}},
		{name: "output_key {k} names the key", setup: init("k", "target"), key: "{k}", val: "1", ok: true, dumpKey: "target", dump: []any{"string", "string", "1"}},
		{name: "output_key {k} missing: error", key: "{k}", val: "1", err: RuntimeError},
		{name: "output_key {k} empty: error", setup: func(b *board) { b.createEntry(0, "k", "any") }, key: "{k}", val: "1", err: RuntimeError},
		{name: "@key writes the root", key: "@r", val: "1", ok: true, dumpKey: "r", dump: []any{"string", "string", "1"}},
	}
	for _, r := range rows {
		b := newBoard()
		if r.setup != nil {
			r.setup(b)
		}
		ok, err := b.setBlackboard(0, r.key, r.val)
		if errType(err) != r.err || (err == nil && ok != r.ok) {
			t.Errorf("%s: %v, %v; want %v, %q", r.name, ok, err, r.ok, r.err)
			continue
		}
		if r.dumpKey != "" {
			if got := dumpOf(b, 0, r.dumpKey); !eqDump(got, r.dump...) {
				t.Errorf("%s: %s = %v, want %v", r.name, r.dumpKey, got, r.dump)
			}
		}
	}
	// Through a {@g} remapping (the corpus's s1-00090): the destination is
	// the root's g (declared any), so the value becomes empty, and set
	// creates '@g' (declared none) in the parent; a typed write then clashes.
	b := newBoard()
	b.setInitial("g", "a")
	sub := b.addScope(scopeInfo{Parent: 0, Remap: map[string]string{"k": "@g"}})
	if ok, err := b.setBlackboard(sub, "k", "word"); !ok || err != nil {
		t.Fatalf("SetBlackboard through {@g}: %v, %v", ok, err)
	}
	if !eqDump(dumpOf(b, 0, "@g"), "none", "none", nil) || !eqDump(dumpOf(b, 0, "g"), "any", "string", "a") {
		t.Errorf("after SetBlackboard through {@g}: %v", b.dump())
	}
	if err := b.writePort(sub, "out", "{k}", "int", IntValue(5, "int")); errType(err) != LogicError {
		t.Errorf("a typed write to an entry declared none: %v, want LogicError", err)
	}
}

// TestStrtod: C's strtod and std::from_chars.
func TestStrtod(t *testing.T) {
	cases := []struct {
		s     string
		cMode bool
		f     float64
		n     int
		ok    bool
	}{
		{"2.5x", false, 2.5, 3, true},
		{" 3", false, 0, 0, false},
		{" 3", true, 3, 2, true},
		{"+3", false, 0, 0, false},
		{"+3", true, 3, 2, true},
		{"0x10", true, 16, 4, true},
		{"0x10", false, 0, 1, true},
		{"1e", false, 1, 1, true},
		{"1e+", false, 1, 1, true},
		{".5", false, 0.5, 2, true},
		{"5.", false, 5, 2, true},
		{"-inf", false, math.Inf(-1), 4, true},
		{"nan(12)x", false, math.NaN(), 7, true},
		{"1e-400", false, 0, 0, false},
		{"0e-400", false, 0, 6, true},
		{"", false, 0, 0, false},
		{"-", false, 0, 0, false},
	}
	for _, c := range cases {
		f, n, ok := strtod(c.s, c.cMode)
		same := f == c.f || (math.IsNaN(f) && math.IsNaN(c.f))
		if ok != c.ok || (ok && (n != c.n || !same)) {
			t.Errorf("strtod(%q, %v) = %v, %d, %v; want %v, %d, %v", c.s, c.cMode, f, n, ok, c.f, c.n, c.ok)
		}
	}
}
