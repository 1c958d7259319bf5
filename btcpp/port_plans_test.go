package btcpp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// planFragments are the pieces of the random port texts: every form the
// literal parsers take or refuse (signs, white space, decimal, hexadecimal
// and out-of-range numbers, inf and nan, bools, NodeStatus names), braces
// and the blackboard's keys (planBoard), "=" for {=}.
var planFragments = []string{
	"", "0", "1", "7", "-", "+", " ", "\t", "\n", ".", "e", "E", "e-", "x", "0x", "p", "P",
	"12", "-3", "2.5", "1e3", "1e999", "1e-400", "4.9e-324", "0x1p3", "0x.8", "0X1P-2",
	"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999",
	"inf", "-inf", "INF", "Infinity", "infinity", "nan", "NaN", "nan(123)", "nan(", "-nan",
	"true", "false", "TRUE", "FALSE", "True", "False", "tRue", "yes",
	"IDLE", "RUNNING", "SUCCESS", "FAILURE", "SKIPPED", "success",
	"{", "}", "{}", "{=}", "=", "@", "{k}", " {k} ", "{@k}", "{ k}",
	"k", "big", "neg", "d", "di", "dn", "dinf", "dneg", "s", "sx", "st", "sb", "sd", "b", "u", "e", "p", "r", "nope",
	"abc", "é", "_x",
}

// planText returns a random port text made of planFragments, sometimes in
// braces with spaces around.
func planText(r *rand.Rand) string {
	var sb strings.Builder
	for n := r.IntN(4); n >= 0; n-- {
		sb.WriteString(planFragments[r.IntN(len(planFragments))])
	}
	s := sb.String()
	switch r.IntN(6) {
	case 0:
		s = "{" + s + "}"
	case 1:
		s = strings.Repeat(" ", r.IntN(3)) + "{" + s + "}" + strings.Repeat(" ", r.IntN(3))
	}
	return s
}

// planBoard returns a blackboard whose root scope holds entries of every
// kind of value (and an empty one, e), and a second scope that remaps r to
// k and is autoremapped to the root.
func planBoard(t *testing.T) *board {
	b := newBoard()
	set := func(key string, v Value, typ string) {
		if err := b.set(0, key, v, typ); err != nil {
			t.Fatal(err)
		}
	}
	set("k", IntValue(7, "int"), "int")
	set("big", IntValue(1<<40, "int64"), "int64")
	set("neg", IntValue(-5, "int"), "int")
	set("d", DoubleValue(2.5), "double")
	set("di", DoubleValue(3), "double")
	set("dn", DoubleValue(math.NaN()), "double")
	set("dinf", DoubleValue(math.Inf(1)), "double")
	set("dneg", DoubleValue(-1e10), "double")
	set("s", StringValue("42"), "string")
	set("sx", StringValue("hello"), "string")
	set("st", StringValue("SUCCESS"), "string")
	set("sb", StringValue("true"), "string")
	set("sd", StringValue(" 1.5e2x"), "string")
	set("b", BoolValue(true), "bool")
	set("u", IntValue(math.MaxUint32, "uint"), "uint")
	set("p", IntValue(1, "int"), "int")
	if err := b.createEntry(0, "e", "int"); err != nil {
		t.Fatal(err)
	}
	b.addScope(scopeInfo{TreeID: "T", Parent: 0, Remap: map[string]string{"r": "k"}, Auto: true})
	return b
}

// sameValue reports whether a and b are the same Value, bit for bit.
func sameValue(a, b Value) bool {
	return a.s == b.s && a.i == b.i && math.Float64bits(a.f) == math.Float64bits(b.f) && a.kind == b.kind && a.tc == b.tc
}

// planReadTypes are the types a port is read with: a Call's, the
// built-ins', and those parseLiteral knows besides ("any", "Any", and an
// unknown name, read as a string).
var planReadTypes = []string{"int", "double", "string", "bool", "NodeStatus", "uint", "int64", "any", "Any", "Pose"}

// TestPortPlanSameReads: for random port texts, in both scopes, with every
// read type, a plan's read (readPlan) gives what the read from the raw
// text (board.readPort) gives: the same value and the same ok; the plan's
// reference is refKey's; the built-ins' literal shortcuts (readInt,
// readStatus) agree with the reads.
func TestPortPlanSameReads(t *testing.T) {
	b := planBoard(t)
	r := rand.New(rand.NewPCG(1, 2))
	texts := append([]string{}, planFragments...)
	for len(texts) < 30000 {
		texts = append(texts, planText(r))
	}
	oks := map[string]int{}
	for _, raw := range texts {
		pl := planOf("p", raw)
		if pl.bits&pHas == 0 || pl.raw != raw || pl.name != "p" {
			t.Fatalf("%q: plan %+v", raw, pl)
		}
		key, ref := refKey(raw, "p")
		if ref != (pl.bits&pRef != 0) || (ref && key != pl.key) {
			t.Errorf("%q: plan reference %q %v, refKey %q %v", raw, pl.key, pl.bits&pRef != 0, key, ref)
		}
		for scope := 0; scope < 2; scope++ {
			for _, typ := range planReadTypes {
				want, wok := b.readPort(scope, "p", raw, typ)
				got, gok := b.readPlan(scope, &pl, typ)
				if wok != gok || !sameValue(want, got) {
					t.Errorf("%q as %s in scope %d: plan %+v %v, raw text %+v %v", raw, typ, scope, got, gok, want, wok)
				}
				if wok {
					oks[typ]++
				}
			}
		}
		if !ref {
			want, wok := parseLiteral(raw, "int")
			if got, gok := pl.i, pl.bits&pInt != 0; gok != wok || (wok && got != want.i) {
				t.Errorf("%q: readInt's literal %d %v, parseLiteral %d %v", raw, got, gok, want.i, wok)
			}
			want, wok = parseLiteral(raw, "NodeStatus")
			ws, wsok := parseStatus(raw)
			if gok := pl.bits&pStatus != 0; gok != wok || gok != wsok || (gok && (int64(pl.st) != want.i || Status(pl.st) != ws)) {
				t.Errorf("%q: readStatus's literal %v %v, parseLiteral %d %v, parseStatus %v %v", raw, Status(pl.st), gok, want.i, wok, ws, wsok)
			}
		}
	}
	// The texts exercise both outcomes of every read type.
	for _, typ := range planReadTypes {
		if n := oks[typ]; typ != "Any" && (n == 0 || n == 2*len(texts)) {
			t.Errorf("read as %s: %d of %d reads succeed", typ, n, 2*len(texts))
		}
	}
	t.Logf("%d texts; successful reads by type: %v", len(texts), oks)
}

// oldRaw, oldRead and the old* reads are the reads of a Call as they were
// before port plans: the XML value or the default found by name, the raw
// text read by board.readPort.
func oldRaw(c *Call, port string) (string, bool) {
	nd := c.t.node(c.n)
	if v, ok := nd.attrs[port]; ok {
		return v, true
	}
	if p, ok := nd.k.port(port); ok && p.HasDefault {
		return p.Default, true
	}
	return "", false
}

func oldRead(c *Call, port, typ string) (Value, error) {
	raw, ok := oldRaw(c, port)
	var v Value
	if ok {
		v, ok = c.t.bb.readPort(c.t.node(c.n).scope, port, raw, typ)
	}
	if !ok {
		return Value{}, newError(RuntimeError, "node %q: cannot read port [%s] as %s", c.t.p.nodes[c.n].path, port, typ)
	}
	return v, nil
}

func oldInt(c *Call, port string) (int, error) {
	v, err := oldRead(c, port, "int")
	if err != nil {
		return 0, err
	}
	i, ok := valueInt(v)
	if !ok {
		return 0, newError(RuntimeError, "node %q: port [%s] is not an int", c.t.p.nodes[c.n].path, port)
	}
	return int(i), nil
}

func oldFloat(c *Call, port string) (float64, error) {
	v, err := oldRead(c, port, "double")
	if err != nil {
		return 0, err
	}
	f, ok := valueFloat(v)
	if !ok {
		return math.NaN(), newError(RuntimeError, "node %q: port [%s] is not a double", c.t.p.nodes[c.n].path, port)
	}
	return f, nil
}

func oldString(c *Call, port string) (string, error) {
	v, err := oldRead(c, port, "string")
	if err != nil {
		return "", err
	}
	s, ok := valueString(v)
	if !ok {
		return "", newError(RuntimeError, "node %q: port [%s] is not a string", c.t.p.nodes[c.n].path, port)
	}
	return s, nil
}

func oldBool(c *Call, port string) (bool, error) {
	v, err := oldRead(c, port, "bool")
	if err != nil {
		return false, err
	}
	b, ok := valueBool(v)
	if !ok {
		return false, newError(RuntimeError, "node %q: port [%s] is not a bool", c.t.p.nodes[c.n].path, port)
	}
	return b, nil
}

// oldSet is Call.Set as it was: the port's declaration found by name, the
// write through board.writePort with the raw text.
func oldSet(c *Call, port string, v any) error {
	if p, ok := c.t.node(c.n).k.port(port); !ok || p.Dir == In {
		return newError(RuntimeError, "node %q: [%s] is not an output port", c.t.p.nodes[c.n].path, port)
	}
	val, typ, err := goValue(v)
	if err != nil {
		return fmt.Errorf("node %q: port [%s]: %w", c.t.p.nodes[c.n].path, port, err)
	}
	raw, ok := oldRaw(c, port)
	if !ok {
		return nil
	}
	return c.t.bb.writePort(c.t.node(c.n).scope, port, raw, typ, val)
}

// result is one read or write through a Call: its value as text and its
// error.
func result[T any](v T, err error) string {
	if err != nil {
		return fmt.Sprintf("error %T %q", err, err.Error())
	}
	if f, ok := any(v).(float64); ok {
		return fmt.Sprintf("%T %x", v, math.Float64bits(f))
	}
	return fmt.Sprintf("%T %v", v, v)
}

// planPorts are the ports of the leaf of TestPortPlanCalls: every type,
// every direction, with and without a default (a literal or a reference).
var planPorts = []Port{
	InputPort("i", "int").WithDefault("7"),
	InputPort("f", "double"),
	InputPort("s", "string").WithDefault("{k}"),
	InputPort("b", "bool"),
	InputPort("a", "any").WithDefault("x"),
	InputPort("p", "any").WithDefault("{=}"),
	OutputPort("o", "int"),
	InOutPort("io", "string").WithDefault("{sx}"),
	OutputPort("od", "any").WithDefault("{=}"),
}

var planSets = []any{3, int64(1) << 40, 2.5, "SUCCESS", "12", true, Value{}, []int{1}}

// TestPortPlanCalls: in random trees (leaves whose ports the XML sets to
// random texts, the blackboard set up with entries of every kind), every
// read (Int, Float, String, Bool) of every port of the leaf, an absent
// port and a port neither declared nor set gives the value and the error
// (type and text) that the reads before port plans give; so does Set, on
// every port with every kind of value.
func TestPortPlanCalls(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	esc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\t", "&#9;", "\n", "&#10;")
	var reads, built int
	trees := 3000
	if testing.Short() {
		trees = 500
	}
	for tree := 0; tree < trees; tree++ {
		f := NewFactory()
		var mismatch []string
		leaf := func(c *Call) (Status, error) {
			for _, port := range []string{"i", "f", "s", "b", "a", "p", "o", "io", "od", "zz"} {
				check := func(what, got, want string) {
					reads++
					if got != want {
						mismatch = append(mismatch, fmt.Sprintf("%s(%s) = %s, before plans %s", what, port, got, want))
					}
				}
				check("Int", result(c.Int(port)), result(oldInt(c, port)))
				check("Float", result(c.Float(port)), result(oldFloat(c, port)))
				check("String", result(c.String(port)), result(oldString(c, port)))
				check("Bool", result(c.Bool(port)), result(oldBool(c, port)))
				v := planSets[r.IntN(len(planSets))]
				// The old write first: the new one writes the same value
				// over it, which must fail or not as it did.
				want := result(0, oldSet(c, port, v))
				check(fmt.Sprintf("Set %#v", v), result(0, c.Set(port, v)), want)
			}
			return Success, nil
		}
		if err := f.RegisterSync("L", leaf, planPorts...); err != nil {
			t.Fatal(err)
		}
		var attrs strings.Builder
		for _, p := range planPorts {
			if r.IntN(3) == 0 {
				continue
			}
			// A text the build's literal check takes (one in a few tries).
			text := planText(r)
			for try := 0; try < 50 && literalChecked(p.Type); try++ {
				if len(text) >= 3 && text[0] == '{' && text[len(text)-1] == '}' {
					break
				}
				if _, ok := parseLiteral(text, p.Type); ok {
					break
				}
				text = planText(r)
			}
			fmt.Fprintf(&attrs, ` %s="%s"`, p.Name, esc.Replace(text))
		}
		src := fmt.Sprintf(`<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence><L%s/><SubTree ID="S" r="{k}" _autoremap="true"/></Sequence></BehaviorTree>
<BehaviorTree ID="S"><L%s name="in"/></BehaviorTree></root>`, attrs.String(), attrs.String())
		d, err := f.Parse(src)
		if err != nil {
			continue
		}
		tr, err := d.Build("M", WithEntry("k", 7), WithEntry("d", 2.5), WithEntry("sx", "hello"), WithEntry("st", "FAILURE"), WithEntry("b", true), WithEntry("big", int64(1)<<40))
		if err != nil {
			continue
		}
		built++
		for tick := 0; tick < 2; tick++ {
			if tr, _, err = tr.Tick(); err != nil {
				t.Fatalf("%s: tick: %v", src, err)
			}
		}
		if len(mismatch) > 0 {
			t.Fatalf("%s:\n%s", src, strings.Join(mismatch, "\n"))
		}
	}
	if built < trees/4 {
		t.Errorf("only %d of %d trees built", built, trees)
	}
	t.Logf("%d trees built of %d; %d reads and writes compared", built, trees, reads)
}

// TestPortPlanErrors: the errors of a Call's reads and writes, by the
// port's value.
func TestPortPlanErrors(t *testing.T) {
	f := NewFactory()
	type read struct{ port, typ, want string }
	reads := []read{
		{"i", "int", ""},
		{"i", "double", ""},
		{"t", "int", `node "L::2": cannot read port [t] as int`},   // text
		{"t", "bool", `node "L::2": cannot read port [t] as bool`}, // text
		{"t", "string", ""},
		{"e", "int", `node "L::2": cannot read port [e] as int`},   // an empty entry
		{"z", "int", `node "L::2": cannot read port [z] as int`},   // neither set nor defaulted
		{"zz", "int", `node "L::2": cannot read port [zz] as int`}, // not a port
		{"big", "int", `node "L::2": cannot read port [big] as int`},
		{"big", "double", ""},
		{"d", "int", `node "L::2": cannot read port [d] as int`},
		{"d", "bool", ""},
		{"w", "int", ""}, // a default
	}
	var got []string
	leaf := func(c *Call) (Status, error) {
		for _, rd := range reads {
			var err error
			switch rd.typ {
			case "int":
				_, err = c.Int(rd.port)
			case "double":
				_, err = c.Float(rd.port)
			case "string":
				_, err = c.String(rd.port)
			case "bool":
				_, err = c.Bool(rd.port)
			}
			got = append(got, result(0, err))
		}
		got = append(got, result(0, c.Set("t", 1)), result(0, c.Set("zz", 1)), result(0, c.Set("o", []int{})), result(0, c.Set("o", "x")), result(0, c.Set("o", 5)))
		return Success, nil
	}
	ports := []Port{InputPort("i", "int"), InputPort("t", "string"), InputPort("e", "int"), InputPort("z", "int"),
		InputPort("big", "any"), InputPort("d", "any"), InputPort("w", "int").WithDefault("-12"), OutputPort("o", "int")}
	if err := f.RegisterSync("L", leaf, ports...); err != nil {
		t.Fatal(err)
	}
	d, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence><L i="12" t="abc" e="{e}" big="{big}" d="{d}" o="{o}"/></Sequence></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := d.Build("", WithEntry("big", int64(1)<<40), WithEntry("d", 2.5))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tr.Tick(); err != nil {
		t.Fatal(err)
	}
	for i, rd := range reads {
		want := result(0, nil)
		if rd.want != "" {
			want = result(0, error(newError(RuntimeError, "%s", rd.want)))
		}
		if got[i] != want {
			t.Errorf("read [%s] as %s: %s, want %s", rd.port, rd.typ, got[i], want)
		}
	}
	sets := got[len(reads):]
	wantSets := []string{
		result(0, error(newError(RuntimeError, `node "L::2": [t] is not an output port`))),
		result(0, error(newError(RuntimeError, `node "L::2": [zz] is not an output port`))),
		result(0, fmt.Errorf(`node "L::2": port [o]: %w`, newError(RuntimeError, "a value of Go type []int cannot be written to the blackboard (int, int64, float64, string or bool)"))),
	}
	for i, w := range wantSets {
		if sets[i] != w {
			t.Errorf("Set %d: %s, want %s", i, sets[i], w)
		}
	}
	if !strings.HasPrefix(sets[3], "error ") || sets[4] != result(0, nil) {
		t.Errorf("Set o to \"x\": %s (want an error); to 5: %s (want none)", sets[3], sets[4])
	}
}

// TestPortPlanLookup: with any number of ports (scanned, or sorted and
// searched by halves), every port set in the XML or declared has its plan,
// whose raw value is the XML's, else the default, and no other name has
// one.
func TestPortPlanLookup(t *testing.T) {
	for n := 0; n <= 2*plansSortedAt+1; n++ {
		f := NewFactory()
		var ports []Port
		var attrs strings.Builder
		for i := 0; i < n; i++ {
			name := fmt.Sprintf("p%c%d", 'z'-i, i) // not in sorted order
			p := InputPort(name, "string")
			if i%3 == 0 {
				p = p.WithDefault("def" + name)
			}
			ports = append(ports, p)
			if i%2 == 0 {
				fmt.Fprintf(&attrs, ` %s="xml%s"`, name, name)
			}
		}
		leaf := func(c *Call) (Status, error) { return Success, nil }
		if err := f.RegisterSync("L", leaf, ports...); err != nil {
			t.Fatal(err)
		}
		d, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence><L` + attrs.String() + `/><L/></Sequence></BehaviorTree></root>`)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := d.Build("")
		if err != nil {
			t.Fatal(err)
		}
		for node := 1; node <= 2; node++ {
			for i, p := range ports {
				want, has := "", false
				if node == 1 && i%2 == 0 {
					want, has = "xml"+p.Name, true
				} else if p.HasDefault {
					want, has = p.Default, true
				}
				pl := tr.p.plan(node, p.Name)
				if pl == nil || pl.name != p.Name || pl.raw != want || (pl.bits&pHas != 0) != has || pl.bits&pDeclared == 0 {
					t.Errorf("%d ports, node %d: plan of %s %+v, want raw %q has %v", n, node, p.Name, pl, want, has)
				}
			}
			for _, absent := range []string{"", "p", "pz0x", "zz", "name"} {
				if pl := tr.p.plan(node, absent); pl != nil {
					t.Errorf("%d ports, node %d: plan of %q %+v", n, node, absent, pl)
				}
			}
		}
		if len(tr.p.plans) != cap(tr.p.plans) {
			t.Errorf("%d ports: %d plans, capacity %d", n, len(tr.p.plans), cap(tr.p.plans))
		}
		if pl := tr.p.plan(0, "p"); pl != nil {
			t.Errorf("the Sequence has a plan %+v", pl)
		}
	}
}

// TestPortPlanCount: the count that sizes a program's plans (planCount) is
// exact for every tree of the conformance corpus that builds (as for those
// of TestPortPlanLookup): the build allocates them once.
func TestPortPlanCount(t *testing.T) {
	cases := readConformanceCases(t, conformanceCorpusFile())
	built, plans := 0, 0
	for i := range cases {
		c := &cases[i]
		d := &driver{c: c, counts: map[string]int{}}
		f := NewFactory()
		if err := d.register(f); err != nil {
			continue
		}
		main := ""
		if c.Main != nil {
			main = *c.Main
		}
		doc, err := f.Parse(c.XML)
		if err != nil {
			continue
		}
		var opts []Option
		for k, v := range c.BB {
			opts = append(opts, WithEntry(k, v))
		}
		tr, err := doc.Build(main, opts...)
		if err != nil {
			continue
		}
		built++
		plans += len(tr.p.plans)
		if len(tr.p.plans) != cap(tr.p.plans) {
			t.Errorf("case %s %s: %d plans, capacity %d", c.ID, c.Name, len(tr.p.plans), cap(tr.p.plans))
		}
	}
	if built == 0 || plans == 0 {
		t.Fatalf("%d trees built, %d plans", built, plans)
	}
	t.Logf("%d corpus trees built, %d plans", built, plans)
}
