package behaviortree_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/fluent"
)

// This file replays the corpus recorded from the real FluentBehaviourTree
// (testdata/fluent-behaviour-tree.jsonl.gz, or the file FLUENT_CORPUS
// names): every case's program is built with package fluent's Builder and
// its tree ticked, with the same leaf calls in the same
// order, the same deltas seen, and the same status or error at every tick;
// builder errors must be the same exception, message and call. Cases where
// the C# builder silently accepts a likely mistake that we refuse (the
// package doc's departures) must give our stricter error instead, at the
// call where we refuse.

// fluentCase is one line of the corpus.
type fluentCase struct {
	ID         string                       `json:"id"`
	Name       string                       `json:"name"`
	Program    []json.RawMessage            `json:"program"`
	Subtrees   map[string][]json.RawMessage `json:"subtrees"`
	Actions    map[string][]string          `json:"actions"`
	Conditions map[string][]bool            `json:"conditions"`
	Deltas     []float64                    `json:"deltas"`
	Ticks      int                          `json:"ticks"`
	Trace      []struct {
		Calls  [][]any       `json:"calls"`
		Status string        `json:"status"`
		Error  *fluentExcept `json:"error"`
	} `json:"trace"`
	Error *fluentExcept `json:"error"`
}

// fluentExcept is a C# exception of the corpus.
type fluentExcept struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	At      int    `json:"at"`
}

// fluentCall is one builder call: ["Parallel", "p", 1, 2], ["Splice", null].
type fluentCall struct {
	op, name      string
	null          bool // Splice of null
	fail, succeed int
}

func parseFluentCall(raw json.RawMessage) (fluentCall, error) {
	var parts []any
	if err := json.Unmarshal(raw, &parts); err != nil || len(parts) == 0 {
		return fluentCall{}, fmt.Errorf("bad call %s: %v", raw, err)
	}
	c := fluentCall{}
	c.op, _ = parts[0].(string)
	if len(parts) > 1 {
		if parts[1] == nil {
			c.null = true
		} else {
			c.name, _ = parts[1].(string)
		}
	}
	if c.op == "Parallel" {
		if len(parts) != 4 {
			return c, fmt.Errorf("bad Parallel call %s", raw)
		}
		c.fail, c.succeed = int(parts[2].(float64)), int(parts[3].(float64))
	}
	return c, nil
}

// fluentLeafCall is one leaf call seen while ticking.
type fluentLeafCall struct {
	name   string
	result any // a status string for Do, a bool for Condition
	delta  float32
}

// fluentReplay replays one case.
type fluentReplay struct {
	c     *fluentCase
	count map[string]int
	calls []fluentLeafCall
	cache map[string]bt.Node[bt.Fluent]
}

// buildFailure is where a build failed: which program ("" for the main
// one, or a subtree's name), the index of the call, and the error.
type buildFailure struct {
	prog string
	at   int
	err  error
}

var statusNames = map[string]bt.Status{"Success": bt.Success, "Failure": bt.Failure, "Running": bt.Running}

func (r *fluentReplay) do(name string) func(bt.TimeData) bt.Status {
	return func(td bt.TimeData) bt.Status {
		list := r.c.Actions[name]
		k := r.count[name]
		r.count[name]++
		s := list[k%len(list)]
		r.calls = append(r.calls, fluentLeafCall{name, s, float32(td.DeltaTime.Seconds())})
		return statusNames[s]
	}
}

func (r *fluentReplay) cond(name string) func(bt.TimeData) bool {
	return func(td bt.TimeData) bool {
		list := r.c.Conditions[name]
		k := r.count[name]
		r.count[name]++
		v := list[k%len(list)]
		r.calls = append(r.calls, fluentLeafCall{name, v, float32(td.DeltaTime.Seconds())})
		return v
	}
}

// exec runs the builder calls of program prog ("" for the main one) on a
// fresh builder and returns the value of the last Build.
func (r *fluentReplay) exec(prog string, raw []json.RawMessage) (bt.Node[bt.Fluent], *buildFailure) {
	b := fluent.NewBuilder()
	var result bt.Node[bt.Fluent]
	for i, rc := range raw {
		c, err := parseFluentCall(rc)
		if err != nil {
			return result, &buildFailure{prog, i, err}
		}
		switch c.op {
		case "Sequence":
			b.Sequence(c.name)
		case "Selector":
			b.Selector(c.name)
		case "Parallel":
			b.Parallel(c.name, c.fail, c.succeed)
		case "Inverter":
			b.Inverter(c.name)
		case "Do":
			b.Do(c.name, r.do(c.name))
		case "Condition":
			b.Condition(c.name, r.cond(c.name))
		case "Splice":
			var tree bt.Node[bt.Fluent]
			if !c.null {
				if t, ok := r.cache[c.name]; ok {
					tree = t
				} else {
					sub, ok := r.c.Subtrees[c.name]
					if !ok {
						return result, &buildFailure{prog, i, fmt.Errorf("no subtree %q", c.name)}
					}
					t, f := r.exec(c.name, sub)
					if f != nil {
						return result, f
					}
					r.cache[c.name] = t
					tree = t
				}
			}
			b.Splice(tree)
		case "End":
			b.End()
		case "Build":
			t, err := b.Build()
			if err == nil {
				result = t
			}
		default:
			return result, &buildFailure{prog, i, fmt.Errorf("unknown call %q", c.op)}
		}
		if err := b.Err(); err != nil {
			return result, &buildFailure{prog, i, err}
		}
	}
	return result, nil
}

// departure is where our builder refuses a program that the C# builder
// accepts: program prog ("" for the main one), call at, and what: "open"
// (Build with open nodes), "second" (a second top-level tree) or "again"
// (a second Build).
type departure struct {
	prog, what string
	at         int
	mainAt     int // the call of the main program where it shows
}

// fluentDeparture finds the first departure in program prog, independently
// of the builder: it follows the builder's stack depth, whether a node was
// ended, and whether Build was called. It stops at the first call that the
// C# builder rejects (those cases are the corpus's errors).
func fluentDeparture(c *fluentCase, prog string, raw []json.RawMessage, seen map[string]*departure) *departure {
	depth, ended, built := 0, false, false
	for i, rc := range raw {
		call, _ := parseFluentCall(rc)
		switch call.op {
		case "Sequence", "Selector", "Parallel", "Inverter":
			if depth == 0 && ended {
				return &departure{prog: prog, what: "second", at: i, mainAt: i}
			}
			depth++
		case "Splice":
			if call.null {
				return nil
			}
			d, ok := seen[call.name]
			if !ok {
				d = fluentDeparture(c, call.name, c.Subtrees[call.name], seen)
				seen[call.name] = d
			}
			if d != nil {
				dd := *d
				dd.mainAt = i
				return &dd
			}
		case "End":
			if depth == 0 {
				return nil
			}
			depth--
			ended = true
		case "Build":
			switch {
			case !ended:
				return nil
			case depth > 0:
				return &departure{prog: prog, what: "open", at: i, mainAt: i}
			case built:
				return &departure{prog: prog, what: "again", at: i, mainAt: i}
			}
			built = true
		}
	}
	return nil
}

// departureMethods are the builder methods at which each departure shows.
var departureMethods = map[string]string{"open": "Build", "again": "Build", "second": "Sequence Selector Parallel Inverter"}

// fluentRun is how checkFluentCase runs a tree.
type fluentRun int

const (
	fluentPure fluentRun = iota
	fluentEvents
	fluentAgent
)

// checkFluentCase replays one case and returns its first difference, or
// "" when it matches.
//
// How the tree runs: run is fluentPure (fluent.New, ticked with Tick: the
// pure evaluation of memoryless trees, calling the leaves' functions
// directly), fluentEvents (fluent.New, and every tick a TickWith with an
// events function, which makes the engine use its general rules) or
// fluentAgent (bt.NewStepped with fluent.Agent, ticked with Tick: the pure
// evaluation, calling the leaves through the agent). The answers must be
// the same.
func checkFluentCase(c *fluentCase, run fluentRun) string {
	r := &fluentReplay{c: c, count: map[string]int{}, cache: map[string]bt.Node[bt.Fluent]{}}
	tree, failed := r.exec("", c.Program)
	if len(r.calls) > 0 {
		return "building called a leaf"
	}
	dep := fluentDeparture(c, "", c.Program, map[string]*departure{})
	if dep != nil && c.Error != nil && (c.Error.At < dep.mainAt || c.Error.At == dep.mainAt && dep.prog == "") {
		dep = nil // the C# builder throws first
	}
	var fe fluent.Error
	switch {
	case dep != nil:
		if failed == nil {
			return fmt.Sprintf("built, but we refuse the program (%s at call %d of %q)", dep.what, dep.at, dep.prog)
		}
		if !errors.As(failed.err, &fe) || !fe.Strict || fe.Exception != "" {
			return fmt.Sprintf("error %v; want our strict refusal (%s)", failed.err, dep.what)
		}
		if failed.prog != dep.prog || failed.at != dep.at || fe.Call != dep.at || !strings.Contains(departureMethods[dep.what], fe.Method) {
			return fmt.Sprintf("strict error %v at call %d of %q; want the %s refusal at call %d of %q", failed.err, failed.at, failed.prog, dep.what, dep.at, dep.prog)
		}
		return ""
	case c.Error != nil:
		if failed == nil {
			return fmt.Sprintf("built; want %s %q at call %d", c.Error.Type, c.Error.Message, c.Error.At)
		}
		if !errors.As(failed.err, &fe) || fe.Strict || fe.Exception != c.Error.Type || fe.Message != c.Error.Message ||
			failed.prog != "" || failed.at != c.Error.At || fe.Call != c.Error.At {
			return fmt.Sprintf("error %v at call %d of %q; want %s %q at call %d", failed.err, failed.at, failed.prog, c.Error.Type, c.Error.Message, c.Error.At)
		}
		return ""
	case failed != nil:
		return fmt.Sprintf("error %v at call %d of %q; want a tree", failed.err, failed.at, failed.prog)
	case tree.IsZero():
		return "no tree"
	}
	t, err := fluent.New(tree)
	if run == fluentAgent {
		t, err = bt.NewStepped(tree, fluent.Agent())
	}
	if err != nil {
		return fmt.Sprintf("New: %v", err)
	}
	if len(c.Trace) != c.Ticks || len(c.Deltas) == 0 {
		return "bad case: trace and ticks disagree"
	}
	for k := range c.Ticks {
		want := c.Trace[k]
		r.calls = r.calls[:0]
		td := bt.TimeData{DeltaTime: fluentDelta(c.Deltas[k%len(c.Deltas)])}
		var next bt.Stepped[bt.Fluent]
		var err error
		if run == fluentEvents {
			next, err = t.TickWith(td, func(bt.Event[bt.Fluent]) {})
		} else {
			next, err = t.Tick(td)
		}
		if len(r.calls) != len(want.Calls) {
			return fmt.Sprintf("tick %d: %d leaf calls %v; want %d %v", k, len(r.calls), r.calls, len(want.Calls), want.Calls)
		}
		for j, got := range r.calls {
			w := want.Calls[j]
			if len(w) != 3 || got.name != w[0] || got.result != w[1] || float64(got.delta) != float64(float32(w[2].(float64))) {
				return fmt.Sprintf("tick %d: call %d is %v; want %v", k, j, got, w)
			}
		}
		switch {
		case want.Error != nil:
			if err == nil {
				return fmt.Sprintf("tick %d: status %v; want %s %q", k, status(next.State()), want.Error.Type, want.Error.Message)
			}
			// The one exception of a tick is an Inverter without a child.
			if !errors.Is(err, bt.ErrEmptyInverter) || want.Error.Type != fluent.ApplicationException || bt.ErrEmptyInverter.Error() != want.Error.Message {
				return fmt.Sprintf("tick %d: error %v; want %s %q", k, err, want.Error.Type, want.Error.Message)
			}
			if next != t {
				return fmt.Sprintf("tick %d: a failed tick changed the version", k)
			}
		case err != nil:
			return fmt.Sprintf("tick %d: error %v; want %s", k, err, want.Status)
		default:
			if got := status(next.State()); got != statusNames[want.Status] {
				return fmt.Sprintf("tick %d: status %v; want %s", k, got, want.Status)
			}
		}
		t = next
	}
	return ""
}

// readFluentCorpus reads a corpus file, gzipped or not.
func readFluentCorpus(t *testing.T, file string) []*fluentCase {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rd io.Reader = bytes.NewReader(data)
	if len(data) >= 2 && data[0] == 0x1f && data[1] == 0x8b {
		zr, err := gzip.NewReader(rd)
		if err != nil {
			t.Fatal(err)
		}
		rd = zr
	}
	sc := bufio.NewScanner(rd)
	sc.Buffer(nil, 1<<26)
	var cases []*fluentCase
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		c := new(fluentCase)
		if err := json.Unmarshal(sc.Bytes(), c); err != nil {
			t.Fatalf("%s:%d: %v", file, line, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestFluentConformance replays every case of the FluentBehaviourTree
// corpus, or of the file that FLUENT_CORPUS names.
func TestFluentConformance(t *testing.T) {
	file := "testdata/fluent-behaviour-tree.jsonl.gz"
	if f := os.Getenv("FLUENT_CORPUS"); f != "" {
		file = f
	}
	cases := readFluentCorpus(t, file)
	if len(cases) == 0 {
		t.Fatalf("%s: no cases", file)
	}
	match := 0
	first := ""
	for _, c := range cases {
		if d := checkFluentCase(c, fluentPure); d != "" {
			if first == "" {
				first = fmt.Sprintf("%s %s: %s", c.ID, c.Name, d)
			}
			continue
		}
		match++
	}
	t.Logf("fluent conformance: %d/%d cases match (%s)", match, len(cases), file)
	if first != "" {
		t.Errorf("%d cases differ; the first: %s", len(cases)-match, first)
	}
}

// TestFluentConformanceGeneralRules replays the corpus with events, so
// through the engine's general rules for the reactive kinds rather than
// the pure evaluation, and with fluent.Agent run by bt.NewStepped, so
// without fluent.New's direct calls of the leaves.
func TestFluentConformanceGeneralRules(t *testing.T) {
	for _, c := range readFluentCorpus(t, "testdata/fluent-behaviour-tree.jsonl.gz") {
		if d := checkFluentCase(c, fluentEvents); d != "" {
			t.Fatalf("events: %s %s: %s", c.ID, c.Name, d)
		}
		if d := checkFluentCase(c, fluentAgent); d != "" {
			t.Fatalf("fluent.Agent: %s %s: %s", c.ID, c.Name, d)
		}
	}
}

// TestFluentConformanceCanFail checks that the replay sees a changed
// status, leaf result, delta and builder error.
func TestFluentConformanceCanFail(t *testing.T) {
	cases := readFluentCorpus(t, "testdata/fluent-behaviour-tree.jsonl.gz")
	byID := map[string]*fluentCase{}
	for _, c := range cases {
		byID[c.ID] = c
	}
	tamper := map[string]func(c *fluentCase){
		"status": func(c *fluentCase) { c.Trace[1].Status = "Running" },
		"result": func(c *fluentCase) { c.Trace[0].Calls[0][1] = "Failure" },
		"delta":  func(c *fluentCase) { c.Trace[0].Calls[1][2] = 0.25 },
		"calls":  func(c *fluentCase) { c.Trace[0].Calls = c.Trace[0].Calls[:1] },
	}
	for what, f := range tamper {
		c := *byID["f1-00000"]
		c.Trace = append(c.Trace[:0:0], c.Trace...)
		c.Trace[0].Calls = [][]any{append([]any(nil), c.Trace[0].Calls[0]...), append([]any(nil), c.Trace[0].Calls[1]...)}
		f(&c)
		if d := checkFluentCase(&c, fluentPure); d == "" {
			t.Errorf("a changed %s matches", what)
		}
	}
	c := *byID["f1-00056"]
	e := *c.Error
	e.Message = "something else"
	c.Error = &e
	if d := checkFluentCase(&c, fluentPure); d == "" {
		t.Error("a changed builder error matches")
	}
}

// status is the Status that a tree's state stands for in
// FluentBehaviourTree: READY and RUNNING are Running.
func status(s bt.State) bt.Status {
	switch s {
	case bt.StateSucceeded:
		return bt.Success
	case bt.StateFailed:
		return bt.Failure
	}
	return bt.Running
}

// fluentDelta returns the corpus's deltaTime, a float32 of seconds, as a
// Duration, to the nearest nanosecond: a leaf that reads it back as
// float32(td.DeltaTime.Seconds()) sees the corpus's value exactly (the
// test checks every call's).
func fluentDelta(seconds float64) time.Duration {
	return time.Duration(math.Round(float64(float32(seconds)) * 1e9))
}
