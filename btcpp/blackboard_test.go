package btcpp

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// jsonNum is a JSON number as json.Decoder.UseNumber gives it.
func jsonNum(s string) json.Number { return json.Number(s) }

// dumpOf returns scope's dump entry for key, or nil.
func dumpOf(b *board, scope int, key string) []any {
	d, ok := b.dump()[scope][key]
	if !ok {
		return nil
	}
	return d[:]
}

func eqDump(got []any, want ...any) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range want {
		w := want[i]
		if x, ok := w.(int); ok {
			w = int64(x)
		}
		if got[i] != w {
			return false
		}
	}
	return true
}

// TestSetInitial: §6.1's initial bb, decoded with UseNumber.
func TestSetInitial(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"i": 2, "d": 2.0, "e": 1e3, "E": 1E3, "n": -7, "s": "x", "t": true, "f": false, "big": 5000000000}`))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	b := newBoard()
	for k, v := range m {
		if err := b.setInitial(k, v); err != nil {
			t.Fatalf("%s: %v", k, err)
		}
	}
	cases := []struct {
		key  string
		want []any
	}{
		{"i", []any{"int", "int", 2}},
		{"d", []any{"double", "double", 2.0}},
		{"e", []any{"double", "double", 1000.0}},
		{"E", []any{"double", "double", 1000.0}},
		{"n", []any{"int", "int", -7}},
		{"s", []any{"any", "string", "x"}},
		{"t", []any{"bool", "bool", true}},
		{"f", []any{"bool", "bool", false}},
		{"big", []any{"int", "int", int64(5000000000)}},
	}
	for _, c := range cases {
		if got := dumpOf(b, 0, c.key); !eqDump(got, c.want...) {
			t.Errorf("%s: %v, want %v", c.key, got, c.want)
		}
		if s := b.seq(0, c.key); s != 1 {
			t.Errorf("%s: write counter %d, want 1 (the initial bb is a write)", c.key, s)
		}
	}
	if err := b.setInitial("bad", nil); errType(err) != RuntimeError {
		t.Errorf("setInitial(nil): %v, want a RuntimeError", err)
	}
}

// TestDumpForms: empty values, bools, doubles, inf and nan as the corpus
// writes them.
func TestDumpForms(t *testing.T) {
	b := newBoard()
	b.createEntry(0, "ei", "int")
	b.createEntry(0, "ea", "any")
	b.set(0, "pinf", DoubleValue(math.Inf(1)), "double")
	b.set(0, "ninf", DoubleValue(math.Inf(-1)), "double")
	b.set(0, "nan", DoubleValue(math.NaN()), "double")
	b.set(0, "b", BoolValue(true), "bool")
	cases := []struct {
		key  string
		want []any
	}{
		{"ei", []any{"int", "int", nil}},
		{"ea", []any{"any", "any", nil}},
		{"pinf", []any{"double", "double", "inf"}},
		{"ninf", []any{"double", "double", "-inf"}},
		{"nan", []any{"double", "double", "nan"}},
		{"b", []any{"bool", "bool", true}},
	}
	for _, c := range cases {
		if got := dumpOf(b, 0, c.key); !eqDump(got, c.want...) {
			t.Errorf("%s: %v, want %v", c.key, got, c.want)
		}
		if s := b.seq(0, c.key); (c.key[0] == 'e') != (s == 0) {
			t.Errorf("%s: write counter %d (createEntry starts at 0, a set counts 1)", c.key, s)
		}
	}
}

// TestSet: every branch of §6.1's set, one row each.
func TestSet(t *testing.T) {
	type row struct {
		name  string
		setup func(b *board)
		key   string
		v     Value
		T     string
		err   ErrorType
		dump  []any // of key afterwards in the root
	}
	typedInt := func(b *board) { b.setInitial("k", jsonNum("3")) }
	rows := []row{
		{name: "new key: declared v's type", key: "k", v: IntValue(5, "int"), T: "int", dump: []any{"int", "int", 5}},
		{name: "new key, T string: declared any", key: "k", v: StringValue("s"), T: "string", dump: []any{"any", "string", "s"}},
		{name: "new key, T Any, string: declared string", key: "k", v: StringValue("s"), T: "Any", dump: []any{"string", "string", "s"}},
		{name: "new key, T Any, empty: declared none", key: "k", v: emptyValue("none"), T: "Any", dump: []any{"none", "none", nil}},
		{name: "@k sets the root", key: "@k", v: IntValue(5, "int"), T: "int", dump: []any{"int", "int", 5}},
		{name: "untyped any becomes T", setup: func(b *board) { b.createEntry(0, "k", "any") }, key: "k", v: DoubleValue(1.5), T: "double", dump: []any{"double", "double", 1.5}},
		{name: "untyped any becomes Any", setup: func(b *board) { b.createEntry(0, "k", "any") }, key: "k", v: IntValue(1, "int"), T: "Any", dump: []any{"Any", "int", 1}},
		{name: "untyped Any becomes string", setup: func(b *board) { b.createEntry(0, "k", "Any") }, key: "k", v: StringValue("x"), T: "string", dump: []any{"string", "string", "x"}},
		{name: "typed, same type", setup: typedInt, key: "k", v: IntValue(4, "int"), T: "int", dump: []any{"int", "int", 4}},
		{name: "typed int, T string parses", setup: typedInt, key: "k", v: StringValue("12"), T: "string", dump: []any{"int", "int", 12}},
		{name: "typed int, T string fails", setup: typedInt, key: "k", v: StringValue("x"), T: "string", err: LogicError, dump: []any{"int", "int", 3}},
		{name: "typed int, double 3.0 exact", setup: typedInt, key: "k", v: DoubleValue(3.0), T: "double", dump: []any{"int", "int", 3}},
		{name: "typed int, double 3.5", setup: typedInt, key: "k", v: DoubleValue(3.5), T: "double", err: LogicError, dump: []any{"int", "int", 3}},
		{name: "typed int, int64 beyond 32 bits", setup: typedInt, key: "k", v: IntValue(1<<40, "int64"), T: "int64", err: LogicError, dump: []any{"int", "int", 3}},
		{name: "typed int, T Any int: replaces", setup: typedInt, key: "k", v: IntValue(9, "int"), T: "Any", dump: []any{"int", "int", 9}},
		{name: "typed int, T Any double: type change", setup: typedInt, key: "k", v: DoubleValue(9), T: "Any", err: LogicError, dump: []any{"int", "int", 3}},
		{name: "typed int, T Any int64: type change", setup: typedInt, key: "k", v: IntValue(9, "int64"), T: "Any", err: LogicError, dump: []any{"int", "int", 3}},
		{name: "copy rule: type name kept", setup: typedInt, key: "k", v: IntValue(7, "int64"), T: "int", dump: []any{"int", "int", 7}},
		{name: "copy rule: empty stored value becomes v", setup: func(b *board) { b.createEntry(0, "k", "int") }, key: "k", v: IntValue(7, "int64"), T: "int", dump: []any{"int", "int64", 7}},
		{name: "copy rule: bool entry", setup: func(b *board) { b.setInitial("k", false) }, key: "k", v: BoolValue(true), T: "bool", dump: []any{"bool", "bool", true}},
		{name: "copy rule: double into double", setup: func(b *board) { b.setInitial("k", jsonNum("1.5")) }, key: "k", v: IntValue(2, "int"), T: "int", dump: []any{"double", "double", 2.0}},
		{name: "typed string, T int: error", setup: func(b *board) { b.createEntry(0, "k", "string") }, key: "k", v: IntValue(2, "int"), T: "int", err: LogicError, dump: []any{"string", "string", nil}},
	}
	for _, r := range rows {
		b := newBoard()
		if r.setup != nil {
			r.setup(b)
		}
		before := b.seq(0, strings.TrimPrefix(r.key, "@"))
		err := b.set(0, r.key, r.v, r.T)
		if errType(err) != r.err {
			t.Errorf("%s: error %v, want %q", r.name, err, r.err)
		}
		if got := dumpOf(b, 0, strings.TrimPrefix(r.key, "@")); !eqDump(got, r.dump...) {
			t.Errorf("%s: %v, want %v", r.name, got, r.dump)
		}
		after := b.seq(0, strings.TrimPrefix(r.key, "@"))
		if (r.err == "") != (after == before+1) {
			t.Errorf("%s: write counter %d -> %d", r.name, before, after)
		}
	}
	// Number into number of the other representation that is not exact:
	// the copy rule fails (std::runtime_error) when the type check passed.
	b := newBoard()
	b.createEntry(0, "k", "double")
	b.set(0, "k", IntValue(2, "int64"), "double") // an empty entry takes v as is
	err := b.set(0, "k", DoubleValue(2.5), "double")
	if errType(err) != StdRuntimeError {
		t.Errorf("a double with a fraction into an int-like value by the copy rule: %v, want std::runtime_error", err)
	}
}

// TestScopes: §6.1's createEntry and lookup through scopes (§6.2).
func TestScopes(t *testing.T) {
	b := newBoard()
	b.setInitial("outer", jsonNum("1"))
	b.setInitial("g", "root")
	sub := b.addScope(scopeInfo{TreeID: "S", Path: "S", Parent: 0, Remap: map[string]string{"p": "outer", "r": "@g", "q": "fresh"}})
	auto := b.addScope(scopeInfo{TreeID: "A", Path: "A", Parent: 0, Auto: true})
	nested := b.addScope(scopeInfo{TreeID: "N", Path: "S/N", Parent: sub, Remap: map[string]string{"x": "p"}})

	lookups := []struct {
		scope int
		key   string
		found bool
		at    int // scope that stores it
		name  string
	}{
		{sub, "p", true, 0, "outer"},      // explicit remapping
		{sub, "r", true, 0, "g"},          // remapped to {@g}: the parent resolves @ as root
		{sub, "outer", false, 0, ""},      // no auto-remapping
		{sub, "@outer", true, 0, "outer"}, // @ is always the root
		{auto, "outer", true, 0, "outer"}, // auto-remapping
		{auto, "_outer", false, 0, ""},    // not for private keys
		{nested, "x", true, 0, "outer"},   // two levels
		{nested, "p", false, 0, ""},
	}
	for _, c := range lookups {
		s, i, ok := b.find(c.scope, c.key)
		if ok != c.found || (ok && (s != c.at || b.scopes[s].entries[i].key != c.name)) {
			t.Errorf("lookup(%d, %q) = scope %d, ok %v; want %v in scope %d as %q", c.scope, c.key, s, ok, c.found, c.at, c.name)
		}
	}

	// createEntry follows remapping: q -> fresh is created in the parent.
	if err := b.createEntry(sub, "q", "int"); err != nil {
		t.Fatal(err)
	}
	if !eqDump(dumpOf(b, 0, "fresh"), "int", "int", nil) {
		t.Errorf("createEntry through a remapping: root fresh = %v", dumpOf(b, 0, "fresh"))
	}
	// auto-remapping creates in the parent, except private keys.
	b.createEntry(auto, "a1", "double")
	b.createEntry(auto, "_a2", "double")
	if dumpOf(b, 0, "a1") == nil || dumpOf(b, auto, "_a2") == nil {
		t.Error("createEntry with auto-remapping: a1 must be in the root, _a2 in the subtree")
	}
	// @k goes to the root; two @ are an error.
	b.createEntry(sub, "@rk", "bool")
	if !eqDump(dumpOf(b, 0, "rk"), "bool", "bool", nil) {
		t.Errorf("createEntry(@rk): %v", dumpOf(b, 0, "rk"))
	}
	if err := b.createEntry(sub, "@a@b", "int"); errType(err) != LogicError {
		t.Errorf("createEntry with two @: %v, want LogicError", err)
	}
	// A remapping to {@k} creates an entry literally named @k in the parent.
	sub2 := b.addScope(scopeInfo{Parent: 0, Remap: map[string]string{"w": "@wk"}})
	b.createEntry(sub2, "w", "int")
	if dumpOf(b, 0, "@wk") == nil || dumpOf(b, 0, "wk") != nil {
		t.Error("createEntry through a {@wk} remapping must create '@wk' in the parent")
	}
	if _, ok := b.lookup(sub2, "w"); ok {
		t.Error("lookups never find the '@wk' entry")
	}
	// Reusing an entry: the same type or an untyped side is fine; two typed
	// types that differ are a LogicError.
	if err := b.createEntry(0, "outer", "any"); err != nil {
		t.Errorf("createEntry(outer, any) on an int entry: %v", err)
	}
	if err := b.createEntry(0, "outer", "double"); errType(err) != LogicError {
		t.Errorf("createEntry(outer, double) on an int entry: %v, want LogicError", err)
	}
	// set on a key remapped to an existing parent entry stores v as is.
	if err := b.set(sub, "p", StringValue("text"), "string"); err != nil {
		t.Fatal(err)
	}
	if !eqDump(dumpOf(b, 0, "outer"), "int", "string", "text") {
		t.Errorf("set through a remapping (no conversion): %v", dumpOf(b, 0, "outer"))
	}
	// unset: own scope only.
	b.unset(auto, "a1")
	if dumpOf(b, 0, "a1") == nil {
		t.Error("unset must not follow auto-remapping")
	}
	b.unset(0, "a1")
	if dumpOf(b, 0, "a1") != nil {
		t.Error("unset in the own scope")
	}
	b.unset(0, "never") // absent: nothing
}

// TestSubtreeLiteral: §6.2's literal remappings.
func TestSubtreeLiteral(t *testing.T) {
	cases := []struct {
		raw  string
		want []any
	}{
		{"5", []any{"int", "int", 5}},
		{"-5", []any{"int", "int", -5}},
		{"2147483647", []any{"int", "int", 2147483647}},
		{"2147483648", []any{"int64", "int64", int64(2147483648)}},
		{"2.5", []any{"double", "double", 2.5}},
		{"1e3", []any{"double", "double", 1000.0}},
		{"txt", []any{"any", "string", "txt"}},
		{"5x", []any{"any", "string", "5x"}},
		{"", []any{"any", "string", ""}},
	}
	for _, c := range cases {
		b := newBoard()
		sub := b.addScope(scopeInfo{Parent: 0, Auto: true})
		b.setLiteral(sub, "x", c.raw)
		if got := dumpOf(b, sub, "x"); !eqDump(got, c.want...) {
			t.Errorf("literal %q: %v, want %v", c.raw, got, c.want)
		}
		if dumpOf(b, 0, "x") != nil {
			t.Errorf("literal %q: stored in the parent despite _autoremap", c.raw)
		}
	}
}

// TestDeclareRef: §6.2's build-time entries of {k} ports.
func TestDeclareRef(t *testing.T) {
	b := newBoard()
	b.setInitial("i", jsonNum("1"))
	b.setInitial("s", "x")
	b.createEntry(0, "str", "string")
	cases := []struct {
		port, raw, typ string
		err            ErrorType
		key            string
		decl           string
	}{
		{"in", "{new}", "int", "", "new", "int"},
		{"in", " {sp} ", "double", "", "sp", "double"},
		{"val", "{=}", "bool", "", "val", "bool"},
		{"in", "{i}", "int", "", "i", "int"},
		{"in", "{i}", "double", RuntimeError, "i", "int"},
		{"in", "{i}", "any", "", "i", "int"},
		{"in", "{s}", "double", "", "s", "any"},
		{"in", "{str}", "int", "", "str", "string"}, // an existing string entry never clashes
		{"in", "{u}", "uint", "", "u", "uint"},
		{"in", "{a}", "any", "", "a", "any"},
		{"in", "{t}", "string", "", "t", "string"},
		{"in", "lit", "int", "", "", ""},
		{"in", "{}", "int", "", "", ""},
	}
	for _, c := range cases {
		err := b.declareRef(0, c.port, c.raw, c.typ)
		if errType(err) != c.err {
			t.Errorf("%s=%q (%s): %v, want %q", c.port, c.raw, c.typ, err, c.err)
		}
		if c.key == "" {
			continue
		}
		if e, ok := b.lookup(0, c.key); !ok || e.declared != c.decl {
			t.Errorf("%s=%q (%s): entry %v %v, want declared %s", c.port, c.raw, c.typ, e, ok, c.decl)
		}
	}
}

// deepCopy is the plain model of a new version: a board that shares
// nothing with b (every scope and entry copied, a token of its own).
func deepCopy(b *board) *board {
	nb := &board{info: b.info, tok: newToken()}
	for _, sd := range b.scopes {
		nd := &scopeData{owner: nb.tok}
		for _, e := range sd.entries {
			c := *e
			c.owner = nb.tok
			nd.entries = append(nd.entries, &c)
		}
		nb.scopes = append(nb.scopes, nd)
	}
	return nb
}

// TestPersistence: random writes on clones of random versions, the same
// writes on deep copies (the plain model). Every new version equals its
// model, and every old version's dump stays what it was.
func TestPersistence(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	b := newBoard()
	sub := b.addScope(scopeInfo{Parent: 0, Remap: map[string]string{"p": "k1"}})
	auto := b.addScope(scopeInfo{Parent: sub, Auto: true})
	type version struct {
		b, model *board
		dump     []map[string][3]any
	}
	versions := []version{{b, deepCopy(b), b.dump()}}
	keys := []string{"k0", "k1", "k2", "p", "_x", "@k3"}
	scopes := []int{0, sub, auto}
	for step := 0; step < 400; step++ {
		from := versions[r.Intn(len(versions))]
		nb, model := from.b.clone(), deepCopy(from.model)
		for w := r.Intn(4); w >= 0; w-- {
			scope, key := scopes[r.Intn(len(scopes))], keys[r.Intn(len(keys))]
			op, n := r.Intn(5), r.Intn(100)
			for _, x := range []*board{nb, model} {
				switch op {
				case 0:
					x.set(scope, key, IntValue(int64(n), "int"), "int")
				case 1:
					x.set(scope, key, StringValue(fmt.Sprint(n%9)), "string")
				case 2:
					x.unset(scope, key)
				case 3:
					x.createEntry(scope, key, "double")
				case 4:
					if s, _ := parseScript(key + " := " + fmt.Sprint(n%9)); s != nil {
						s.eval(x, scope, nil)
					}
				}
			}
		}
		d := nb.dump()
		if want := model.dump(); !reflect.DeepEqual(d, want) {
			t.Fatalf("step %d: the clone differs from the plain model:\n got %v\nwant %v", step, d, want)
		}
		for sc := range nb.scopes {
			for _, k := range keys {
				if nb.seq(sc, k) != model.seq(sc, k) {
					t.Fatalf("step %d: write counter of %s in scope %d: %d, model %d", step, k, sc, nb.seq(sc, k), model.seq(sc, k))
				}
			}
		}
		versions = append(versions, version{nb, model, d})
		if step%50 == 0 || step == 399 {
			for i, v := range versions {
				if got := v.b.dump(); !reflect.DeepEqual(got, v.dump) {
					t.Fatalf("step %d: version %d changed:\n got %v\nwant %v", step, i, got, v.dump)
				}
			}
		}
	}
}

// TestCloneIsolation: writes to a clone (even the first write after an
// entry was inserted in place) never show in the origin, and the origin's
// model is unchanged.
func TestCloneIsolation(t *testing.T) {
	b := newBoard()
	b.setInitial("x", jsonNum("1"))
	old := map[string][3]any{}
	for k, v := range b.dump()[0] {
		old[k] = v
	}
	c := b.clone()
	if _, err := runScript(c, "x := 2; y := 3; x += 1", nil); err != nil {
		t.Fatal(err)
	}
	c.unset(0, "x")
	if got := b.dump()[0]; !reflect.DeepEqual(got, old) {
		t.Errorf("origin changed: %v, want %v", got, old)
	}
	if _, ok := c.lookup(0, "x"); ok {
		t.Error("the clone's unset did not happen")
	}
}

// TestSeq: TIMED.md §8's write counter.
func TestSeq(t *testing.T) {
	b := newBoard()
	if b.seq(0, "x") != 0 {
		t.Error("absent: 0")
	}
	b.createEntry(0, "x", "int")
	if b.seq(0, "x") != 0 {
		t.Error("createEntry starts at 0")
	}
	b.set(0, "x", IntValue(1, "int"), "int")
	b.set(0, "x", IntValue(1, "int"), "int") // the same value still counts
	if b.seq(0, "x") != 2 {
		t.Errorf("two writes: %d", b.seq(0, "x"))
	}
	b.set(0, "x", StringValue("bad"), "string") // a failed write does not count
	runScript(b, "x := 1; x = 2; x += 1; x -= 1; x *= 1; x /= 1", nil)
	if b.seq(0, "x") != 8 {
		t.Errorf("after six script writes: %d, want 8", b.seq(0, "x"))
	}
	if ok, _ := b.setBlackboard(0, "x", "5"); !ok || b.seq(0, "x") != 9 {
		t.Errorf("SetBlackboard counts: %d", b.seq(0, "x"))
	}
	b.createEntry(0, "empty", "int")
	if ok, _ := b.setBlackboard(0, "x", "{empty}"); ok || b.seq(0, "x") != 9 {
		t.Errorf("a SetBlackboard that returns FAILURE does not count: %d", b.seq(0, "x"))
	}
	b.unset(0, "x")
	b.createEntry(0, "x", "int")
	if b.seq(0, "x") != 0 {
		t.Error("a new entry starts again from 0")
	}
}

// BenchmarkClone: the cost of a version's board.
func BenchmarkClone(bm *testing.B) {
	b := newBoard()
	for i := 0; i < 8; i++ {
		b.addScope(scopeInfo{Parent: 0})
	}
	bm.ReportAllocs()
	for i := 0; i < bm.N; i++ {
		_ = b.clone()
	}
}

// FuzzBoardOps: any sequence of blackboard operations (keys with @ and _,
// remapped and auto-remapped scopes, clones) never panics, every error is
// an *Error, and each clone stays equal to a deep copy given the same
// operations while the versions it came from do not change.
func FuzzBoardOps(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("set @k; clone; unset _x; := p"))
	f.Fuzz(func(t *testing.T, ops []byte) {
		if len(ops) > 300 {
			ops = ops[:300]
		}
		keys := []string{"k", "@k", "p", "_x", "@", "", "@@k", "q"}
		b := newBoard()
		b.setInitial("k", jsonNum("1"))
		sub := b.addScope(scopeInfo{Parent: 0, Remap: map[string]string{"p": "k", "q": "@r"}})
		b.addScope(scopeInfo{Parent: sub, Auto: true})
		model := deepCopy(b)
		var old []*board
		var oldDumps [][]map[string][3]any
		check := func(err error) {
			if err != nil {
				if _, ok := err.(*Error); !ok {
					t.Fatalf("error %v is not an *Error", err)
				}
			}
		}
		for i := 0; i+1 < len(ops); i += 2 {
			op, arg := ops[i], ops[i+1]
			scope := int(arg>>6) % 3
			key := keys[int(arg)%len(keys)]
			if op%8 == 7 { // a new version
				old = append(old, b)
				oldDumps = append(oldDumps, b.dump())
				b, model = b.clone(), deepCopy(model)
				continue
			}
			for _, x := range []*board{b, model} {
				switch op % 8 {
				case 0:
					check(x.set(scope, key, IntValue(int64(arg), "int"), "int"))
				case 1:
					check(x.set(scope, key, StringValue(string(rune('a'+arg%3))), "string"))
				case 2:
					check(x.set(scope, key, DoubleValue(float64(arg)/4), "Any"))
				case 3:
					x.unset(scope, key)
				case 4:
					check(x.createEntry(scope, key, []string{"int", "any", "Any", "string"}[arg%4]))
				case 5:
					_, err := x.setBlackboard(scope, key, []string{"1", "{k}", "{p}", "x"}[arg%4])
					check(err)
				case 6:
					if s, err := parseScript("k += 1; _x := k .. 'a'; q := 2"); err == nil {
						_, err := s.eval(x, scope, nil)
						check(err)
					}
				}
			}
			if !reflect.DeepEqual(b.dump(), model.dump()) {
				t.Fatalf("op %d: the board differs from its deep copy:\n%v\n%v", i/2, b.dump(), model.dump())
			}
		}
		for i, o := range old {
			if !reflect.DeepEqual(o.dump(), oldDumps[i]) {
				t.Fatalf("version %d changed", i)
			}
		}
	})
}

// TestWithEntryGoTypes: WithEntry takes every Go integer and float type
// and a Value; an unsigned value above MaxInt64 and another type are
// errors naming the key and the Go type.
func TestWithEntryGoTypes(t *testing.T) {
	d, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><AlwaysSuccess/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{int8(1), int16(2), int32(3), int64(4), uint(5), uint8(6), uint16(7), uint32(8), uint64(9), float32(1.5), 2.5, IntValue(7, "int"), StringValue("s")} {
		if _, err := d.Build("", WithEntry("k", v)); err != nil {
			t.Errorf("%T %v: %v", v, v, err)
		}
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{uint64(1 << 63), `"k"`},
		{[]int{1}, "[]int"},
	} {
		_, err := d.Build("", WithEntry("k", c.v))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "JSON") {
			t.Errorf("%T: got %v, want an error saying %s", c.v, err, c.want)
		}
	}
}
