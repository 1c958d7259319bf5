package btcpp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/internal/corpusfile"
)

// The conformance test replays the corpus of BehaviorTree.CPP 4.10.0
// recordings (its README describes the format): every case is built and
// ticked through the public API, with the corpus's scripted leaves
// registered as Go leaves, and compared with what the library did.

// btCase is one case of the corpus.
type btCase struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	XML    string `json:"xml"`
	Main   *string
	Leaves map[string]struct {
		Kind  string                    `json:"kind"`
		Ports [][]string                `json:"ports"`
		Out   map[string]map[string]any `json:"out"`
	} `json:"leaves"`
	Script map[string][]string `json:"script"`
	BB     map[string]any      `json:"bb"`
	Enums  map[string]json.Number
	Ticks  int    `json:"ticks"`
	Tick   string `json:"tick"`
	Budget *int   `json:"budget"`
	Error  *struct {
		Type string `json:"type"`
		What string `json:"what"`
	} `json:"error"`
	Nodes [][]any          `json:"nodes"`
	Trees [][]any          `json:"trees"`
	Trace []map[string]any `json:"trace"`
}

// conformanceCorpusFile returns the corpus file: $BTCPP_CORPUS, or the shared copy
// beside the module.
func conformanceCorpusFile() string {
	if f := os.Getenv("BTCPP_CORPUS"); f != "" {
		return f
	}
	return "../../shared/btcpp/btcpp-4.jsonl.gz"
}

// readConformanceCases reads the corpus, numbers as json.Number (README §6.1:
// the type of an initial entry follows the JSON text).
func readConformanceCases(t testing.TB, file string) []btCase {
	zr, err := corpusfile.Open(file)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			t.Skipf("no corpus at %s (set BTCPP_CORPUS)", file)
		}
		t.Fatal(err)
	}
	defer zr.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	var cases []btCase
	for sc.Scan() {
		var c btCase
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&c); err != nil {
			t.Fatalf("%s: line %d: %v", file, len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// mismatch is the first difference of a case.
type mismatch struct {
	tick      int // -1 for the build
	field     string
	want, got any
}

func (m *mismatch) String() string {
	w, _ := json.Marshal(m.want)
	g, _ := json.Marshal(m.got)
	where := "build"
	if m.tick >= 0 {
		where = fmt.Sprintf("tick %d", m.tick)
	}
	return fmt.Sprintf("%s, %s: want %s, got %s", where, m.field, w, g)
}

// driver is the corpus driver's side of a case: the scripted leaves' call
// counters and the calls of the current tick.
type driver struct {
	c      *btCase
	counts map[string]int
	calls  []any
}

// next returns the next scripted status of leaf id (README §1 Cycling).
func (d *driver) next(id string) Status {
	k := d.counts[id]
	d.counts[id]++
	list := d.c.Script[id]
	if len(list) == 0 {
		return Success
	}
	s, _ := parseStatus(list[k%len(list)])
	return s
}

// leafPort is a declared port of a scripted leaf.
type leafPort struct {
	dir       PortDir
	name, typ string
}

// call is one call of a scripted leaf (README §2): read the inputs, take
// the scripted status, record the event, write the outputs.
func (d *driver) call(c *Call, event, id string, ports []leafPort, out map[string]map[string]any) (Status, error) {
	read := map[string]any{}
	var inputs map[string]any
	for _, p := range ports {
		if p.dir == Out {
			continue
		}
		if inputs == nil {
			inputs = map[string]any{}
		}
		var v any
		var err error
		switch p.typ {
		case "int":
			var i int
			i, err = c.Int(p.name)
			v = int64(i)
		case "double":
			var f float64
			f, err = c.Float(p.name)
			v = f
		case "bool":
			v, err = c.Bool(p.name)
		default:
			v, err = c.String(p.name)
		}
		if err != nil {
			inputs[p.name] = nil
			continue
		}
		read[p.name] = v
		inputs[p.name] = eventValue(v)
	}
	st := d.next(id)
	ev := []any{event, c.Index(), st.String()}
	if inputs != nil {
		ev = append(ev, inputs)
	}
	d.calls = append(d.calls, ev)
	for _, p := range ports {
		if p.dir == In {
			continue
		}
		rule, ok := out[p.name]
		if !ok {
			continue
		}
		v, ok, err := ruleValue(rule, read)
		if err != nil {
			return Idle, err
		}
		if !ok {
			continue
		}
		w, err := convertOut(v, p.typ)
		if err != nil {
			return Idle, err
		}
		if err := c.Set(p.name, w); err != nil {
			return Idle, err
		}
	}
	return st, nil
}

// eventValue is a read value as the corpus records it.
func eventValue(v any) any {
	if f, ok := v.(float64); ok {
		switch {
		case math.IsInf(f, 1):
			return "inf"
		case math.IsInf(f, -1):
			return "-inf"
		case math.IsNaN(f):
			return "nan"
		}
	}
	return v
}

// ruleValue computes an out rule's value; ok is false when an input it
// names failed to read.
func ruleValue(rule map[string]any, read map[string]any) (v any, ok bool, err error) {
	if in, has := rule["port"]; has {
		v, ok := read[in.(string)]
		return v, ok, nil
	}
	if lit, has := rule["lit"]; has {
		if n, isNum := lit.(json.Number); isNum {
			if !strings.ContainsAny(string(n), ".eE") {
				i, _ := n.Int64()
				return i, true, nil
			}
			f, _ := n.Float64()
			return f, true, nil
		}
		return lit, true, nil
	}
	if terms, has := rule["add"]; has {
		sum := 0.0
		for _, term := range terms.([]any) {
			switch x := term.(type) {
			case json.Number:
				f, _ := x.Float64()
				sum += f
			case string:
				v, ok := read[x]
				if !ok {
					return nil, false, nil
				}
				switch y := v.(type) {
				case int64:
					sum += float64(y)
				case float64:
					sum += y
				case bool:
					if y {
						sum++
					}
				case string:
					f, n, _ := strtod(y, true)
					if n == 0 {
						return nil, false, &Error{Type: StdLogicError, Node: -1, Msg: "stod"} // std::stod's what()
					}
					sum += f
				}
			}
		}
		return sum, true, nil
	}
	return nil, false, fmt.Errorf("unknown out rule %v", rule)
}

// convertOut converts a rule's value to the output port's type (the
// driver's rules, README §2).
func convertOut(v any, typ string) (any, error) {
	logic := func(msg string) error { return &Error{Type: StdLogicError, Node: -1, Msg: msg} }
	switch typ {
	case "int":
		switch x := v.(type) {
		case int64:
			return int(x), nil
		case float64:
			r := math.Round(x)
			if r < math.MinInt32 || r > math.MaxInt32 || math.IsNaN(r) {
				return nil, logic("out of range")
			}
			return int(r), nil
		case bool:
			if x {
				return 1, nil
			}
			return 0, nil
		case string:
			i, ok := strtol(x)
			if !ok || i < math.MinInt32 || i > math.MaxInt32 {
				return nil, logic("stoi") // std::stoi's what()
			}
			return int(i), nil
		}
	case "double":
		switch x := v.(type) {
		case int64:
			return float64(x), nil
		case float64:
			return x, nil
		case bool:
			if x {
				return 1.0, nil
			}
			return 0.0, nil
		case string:
			f, n, _ := strtod(x, true)
			if n == 0 {
				return nil, logic("stod") // std::stod's what()
			}
			return f, nil
		}
	case "bool":
		switch x := v.(type) {
		case int64:
			return x != 0, nil
		case float64:
			return x != 0, nil
		case bool:
			return x, nil
		case string:
			return x == "true", nil
		}
	default:
		switch x := v.(type) {
		case int64:
			return fmt.Sprint(x), nil
		case float64:
			return formatDouble(x), nil
		case bool:
			if x {
				return "1", nil
			}
			return "0", nil
		case string:
			return x, nil
		}
	}
	return nil, fmt.Errorf("cannot convert %T to %s", v, typ)
}

// strtol reads a leading integer as C's strtol: white space, a sign, the
// longest run of decimal digits.
func strtol(s string) (int64, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r') {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var n int64
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if n < 1<<40 {
			n = n*10 + int64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, false
	}
	if neg {
		n = -n
	}
	return n, true
}

// register registers the case's scripted leaves in f.
func (d *driver) register(f *Factory) error {
	for id, l := range d.c.Leaves {
		var ports []leafPort
		var decl []Port
		for _, p := range l.Ports {
			lp := leafPort{name: p[1], typ: p[2]}
			switch p[0] {
			case "out":
				lp.dir = Out
			case "inout":
				lp.dir = InOut
			}
			port := Port{Name: p[1], Dir: lp.dir, Type: p[2]}
			if len(p) > 3 {
				port = port.WithDefault(p[3])
			}
			ports = append(ports, lp)
			decl = append(decl, port)
		}
		out := l.Out
		var err error
		switch l.Kind {
		case "action":
			err = f.RegisterAction(id, Action{
				OnStart:   func(c *Call) (Status, error) { return d.call(c, "start", id, ports, out) },
				OnRunning: func(c *Call) (Status, error) { return d.call(c, "run", id, ports, out) },
				OnHalted:  func(c *Call) { d.calls = append(d.calls, []any{"halt", c.Index()}) },
			}, decl...)
		case "sync":
			err = f.RegisterSync(id, func(c *Call) (Status, error) { return d.call(c, "tick", id, ports, out) }, decl...)
		case "condition":
			err = f.RegisterCondition(id, func(c *Call) (Status, error) { return d.call(c, "tick", id, ports, out) }, decl...)
		default:
			err = fmt.Errorf("unknown leaf kind %q", l.Kind)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// errorType returns the type of a library error.
func errorType(err error) (ErrorType, int) {
	var e *Error
	if errors.As(err, &e) {
		return e.Type, e.Node
	}
	return "(not an *Error)", -1
}

// replayStats counts what a replay compared.
type replayStats struct {
	ticks, calls int
	// texts counts the errors whose message the corpus records (all but
	// the driver's budget and terminate); textsOK those whose What is
	// the library's, textKnown those that differ as knownWhatDifference
	// accepts; textMiss lists the others.
	texts, textsOK, textKnown int
	textMiss                  []string
}

// cmpWhat compares the message of err with the library's, want, as
// recorded in case id (the driver's own errors, budget and terminate,
// excepted).
func (s *replayStats) cmpWhat(id string, typ string, want any, err error) {
	w, ok := want.(string)
	if !ok || typ == string(ErrBudget) || typ == string(Terminate) {
		return
	}
	s.texts++
	got := what(err)
	switch {
	case got == w:
		s.textsOK++
	case knownWhatDifference(got, w):
		s.textKnown++
	default:
		s.textMiss = append(s.textMiss, fmt.Sprintf("%s: %q, want %q", id, got, w))
	}
}

// knownWhatDifference reports whether our message got differs from the
// library's want in one of the ways we accept:
//   - a build with two ports whose types clash names one of them, and the
//     library another: it checks a node's ports in the order of its
//     std::unordered_map of ports, which we do not reproduce;
//   - an <include> read without a file system (Parse rather than
//     ParseFS) says so, where the library, which reads the disk, says
//     that the file is not found.
func knownWhatDifference(got, want string) bool {
	const clash = "The creation of the tree failed because the port ["
	if strings.HasPrefix(got, clash) && strings.HasPrefix(want, clash) {
		return true
	}
	return strings.Contains(got, "no file system to read it from") && strings.Contains(want, "XML_ERROR_FILE_NOT_FOUND")
}

// runBTCPPCase replays c and returns its first mismatch, or nil.
func runBTCPPCase(c *btCase, stats *replayStats) *mismatch {
	d := &driver{c: c, counts: map[string]int{}}
	f := NewFactory()
	if err := d.register(f); err != nil {
		return &mismatch{tick: -1, field: "leaves", want: nil, got: err.Error()}
	}
	for name, v := range c.Enums {
		i, _ := v.Int64()
		f.Enum(name, int(i))
	}
	var opts []Option
	for k, v := range c.BB {
		opts = append(opts, WithEntry(k, v))
	}
	if c.Budget != nil {
		opts = append(opts, WithTickBudget(*c.Budget))
	} else {
		opts = append(opts, WithTickBudget(1000))
	}
	main := ""
	if c.Main != nil {
		main = *c.Main
	}
	var tree *Tree
	doc, err := f.Parse(c.XML)
	if err == nil {
		tree, err = doc.Build(main, opts...)
	}
	if c.Error != nil || err != nil {
		want := "(none)"
		if c.Error != nil {
			want = c.Error.Type
		}
		got := "(none)"
		if err != nil {
			typ, _ := errorType(err)
			got = string(typ)
		}
		if want != got {
			detail := got
			if err != nil {
				detail = got + ": " + err.Error()
			}
			return &mismatch{tick: -1, field: "error", want: want, got: detail}
		}
		stats.cmpWhat(c.ID, want, c.Error.What, err)
		return nil
	}
	// nodes and trees
	var nodes [][]any
	for _, n := range tree.Nodes() {
		nodes = append(nodes, []any{n.ID, n.Name, n.Parent, n.UID, n.Path})
	}
	if m := cmpField(-1, "nodes", c.Nodes, nodes); m != nil {
		return m
	}
	var trees [][]any
	for _, s := range tree.Scopes() {
		trees = append(trees, []any{s.TreeID, s.Path})
	}
	if m := cmpField(-1, "trees", c.Trees, trees); m != nil {
		return m
	}
	once := c.Tick == "once"
	// Every version, and the driver's counters before each tick, to tick
	// the old versions again afterwards.
	versions := []*Tree{tree}
	var counters []map[string]int
	for i := 0; i < c.Ticks && i < len(c.Trace); i++ {
		counters = append(counters, maps.Clone(d.counts))
		next, m, stop := checkTick(c, d, versions[i], i, once, stats)
		if m != nil {
			return m
		}
		stats.ticks++
		stats.calls += len(d.calls)
		versions = append(versions, next)
		if stop {
			break
		}
	}
	// Persistence: every version still shows what it showed, and ticking
	// an old version again (newest first, with the driver's counters as
	// they were) gives the same tick again.
	for i := len(counters) - 1; i >= 0; i-- {
		if m := checkState(i, c.Trace[i], versions[i+1]); m != nil {
			m.field = "version kept: " + m.field
			return m
		}
		d.counts = maps.Clone(counters[i])
		if _, m, _ := checkTick(c, d, versions[i], i, once, nil); m != nil {
			m.field = "old version ticked again: " + m.field
			return m
		}
	}
	return nil
}

// checkTick ticks v (tick i of c) and compares it with the trace; stop
// is true when the tick threw. A thrown error's message is compared into
// stats unless stats is nil.
func checkTick(c *btCase, d *driver, v *Tree, i int, once bool, stats *replayStats) (next *Tree, m *mismatch, stop bool) {
	want := c.Trace[i]
	d.calls = []any{}
	var res Status
	var err error
	if once {
		next, res, err = v.TickOnce()
	} else {
		next, res, err = v.Tick()
	}
	if we, ok := want["error"].(map[string]any); ok {
		if err == nil {
			return nil, &mismatch{tick: i, field: "error", want: we["type"], got: "(none), result " + res.String()}, true
		}
		typ, node := errorType(err)
		if string(typ) != we["type"] {
			return nil, &mismatch{tick: i, field: "error.type", want: we["type"], got: string(typ) + ": " + err.Error()}, true
		}
		if typ == NodeExecutionError {
			if m := cmpField(i, "error.node", we["node"], node); m != nil {
				return nil, m, true
			}
		}
		if stats != nil {
			stats.cmpWhat(fmt.Sprintf("%s tick %d", c.ID, i), string(typ), we["what"], err)
		}
	} else {
		if err != nil {
			return nil, &mismatch{tick: i, field: "error", want: "(none)", got: err.Error()}, true
		}
		if m := cmpField(i, "result", want["result"], res.String()); m != nil {
			return nil, m, true
		}
		if once {
			if m := cmpField(i, "root_ticks", want["root_ticks"], next.RootTicks()); m != nil {
				return nil, m, true
			}
		}
	}
	if m := cmpField(i, "calls", want["calls"], d.calls); m != nil {
		return nil, m, true
	}
	if m := checkState(i, want, next); m != nil {
		return nil, m, true
	}
	return next, nil, err != nil
}

// checkState compares a version's node statuses and blackboard with the
// trace entry of tick i.
func checkState(i int, want map[string]any, v *Tree) *mismatch {
	if m := cmpField(i, "status", want["status"], v.String()); m != nil {
		return m
	}
	var bb []any
	for s := range v.Scopes() {
		m := map[string]any{}
		for _, e := range v.Entries(s) {
			m[e.Key] = []any{e.Declared, e.Value.Type(), e.Value.jsonValue()}
		}
		bb = append(bb, m)
	}
	return cmpField(i, "bb", want["bb"], bb)
}

// cmpField compares a recorded value with ours, numbers as numbers and
// strings type-strictly.
func cmpField(tick int, field string, want, got any) *mismatch {
	if !reflect.DeepEqual(normJSON(want), normJSON(got)) {
		return &mismatch{tick: tick, field: field, want: want, got: got}
	}
	return nil
}

// normJSON turns every number into a float64 and every list into []any.
func normJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return string(x)
		}
		return f
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case float64:
		return x
	case []any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = normJSON(x[i])
		}
		return out
	case [][]any:
		out := make([]any, len(x))
		for i := range x {
			out[i] = normJSON(x[i])
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normJSON(e)
		}
		return out
	}
	return v
}

func TestBTCPPConformance(t *testing.T) {
	file := conformanceCorpusFile()
	cases := readConformanceCases(t, file)
	ok := 0
	var first []string
	var stats replayStats
	for i := range cases {
		c := &cases[i]
		if m := runBTCPPCase(c, &stats); m != nil {
			if len(first) < 5 {
				first = append(first, fmt.Sprintf("case %s %s: %s", c.ID, c.Name, m))
			}
			continue
		}
		ok++
	}
	t.Logf("btcpp conformance: %d/%d cases match (%s); %d ticks and %d leaf calls compared", ok, len(cases), file, stats.ticks, stats.calls)
	// Error messages: README §9 does not require them to match, so a
	// corpus of one's own only logs them; the public one must match but
	// for the known differences.
	t.Logf("btcpp conformance: %d/%d error messages are the library's (%d differ as expected)", stats.textsOK, stats.texts, stats.textKnown)
	if n := len(stats.textMiss); n > 0 {
		report := t.Errorf
		if os.Getenv("BTCPP_CORPUS") != "" {
			report = t.Logf
		}
		report("%d error messages are not the library's; the first:\n%s", n, strings.Join(stats.textMiss[:min(n, 5)], "\n"))
	}
	if os.Getenv("BTCPP_CORPUS") == "" && ok == len(cases) && (len(cases) != 1630 || stats.ticks != 13398 || stats.calls != 11769) {
		// The corpus README's figures: a replay that matches must have
		// compared all of them.
		t.Errorf("the corpus has 1630 cases, 13398 ticks and 11769 leaf calls; compared %d, %d, %d", len(cases), stats.ticks, stats.calls)
	}
	if ok != len(cases) {
		t.Errorf("%d cases differ; the first:\n%s", len(cases)-ok, strings.Join(first, "\n"))
	}
}
