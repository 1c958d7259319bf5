package behaviortree

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/corpusfile"
	"github.com/zipbt/behaviortree/kind"
)

// mcase is one case of the Mistreevous corpus (testdata/README of
// /work/shared/mistreevous: one JSON object per line).
type mcase struct {
	ID         string              `json:"id"`
	Name       string              `json:"name"`
	Definition json.RawMessage     `json:"definition"`
	Actions    map[string][]string `json:"actions"`
	Conditions map[string][]bool   `json:"conditions"`
	Random     []float64           `json:"random"`
	Delta      []float64           `json:"delta"`
	Steps      int                 `json:"steps"`
	Resets     []int               `json:"resets"`
	Nodes      [][]any             `json:"nodes"`
	Trace      []struct {
		Events []any  `json:"events"`
		State  string `json:"state"`
		NR     int    `json:"nr"`
		ND     int    `json:"nd"`
	} `json:"trace"`
}

// mistreevousCorpus returns the corpus file: $MISTREEVOUS_CORPUS, or the
// testdata copy.
func mistreevousCorpus() string {
	if f := os.Getenv("MISTREEVOUS_CORPUS"); f != "" {
		return f
	}
	return "testdata/mistreevous-4.3.1.jsonl.gz"
}

func readMistreevousCorpus(t testing.TB, file string) []mcase {
	return readCorpus[mcase](t, file)
}

// corpora caches readCorpus's results by file and type: five tests read
// the same corpus, and decoding it costs seconds under the race detector.
var corpora sync.Map // corpusKey -> any ([]T)

type corpusKey struct {
	file string
	typ  reflect.Type
}

// readCorpus reads a gzipped JSON Lines corpus, one T per line. Each call
// returns its own slice (a copy of the cached one): a test may change the
// cases' fields, not what their maps and slices hold.
func readCorpus[T any](t testing.TB, file string) []T {
	key := corpusKey{file, reflect.TypeFor[T]()}
	if c, ok := corpora.Load(key); ok {
		return slices.Clone(c.([]T))
	}
	cases := decodeCorpus[T](t, file)
	corpora.Store(key, cases)
	return slices.Clone(cases)
}

// decodeCorpus reads a JSON Lines corpus, gzipped or not, one T per line.
func decodeCorpus[T any](t testing.TB, file string) []T {
	zr, err := corpusfile.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	var cases []T
	for sc.Scan() {
		var c T
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: line %d: %v", file, len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// runMistreevousCase replays c and returns the first difference, or "".
//
// Quiet, it steps without events, as most callers do, which takes the
// engine's fast paths: the agent's functions then log their calls, which
// must be the trace's calls in order (entry and step callbacks both as
// "callback"), and every node's state after each step must be the one
// that the trace's state changes so far give.
func runMistreevousCase(c *mcase, quiet bool) string {
	def, err := parseMistreevous(c.Definition)
	if err != nil {
		return "parse: " + err.Error()
	}
	counts := map[string]int{}
	var events []any
	fns := Functions{
		Actions:    map[string]func([]any) Result{},
		Conditions: map[string]func([]any) bool{},
		Callbacks:  map[string]func([]any){},
		Exits:      map[string]func([]any, bool, bool){},
	}
	for name, list := range c.Actions {
		fns.Actions[name] = func(args []any) Result {
			k := counts[name]
			counts[name]++
			if quiet {
				events = append(events, []any{"action", name, append([]any{}, args...), list[k%len(list)]})
			}
			switch list[k%len(list)] {
			case "success":
				return ResultSuccess
			case "failure":
				return ResultFailure
			case "running":
				return ResultRunning
			case "async-success":
				a := NewAsync()
				a.Succeed()
				return a.Result()
			case "async-failure":
				a := NewAsync()
				a.Fail()
				return a.Result()
			}
			panic("unknown scripted result " + list[k%len(list)])
		}
	}
	for name, list := range c.Conditions {
		fns.Conditions[name] = func(args []any) bool {
			k := counts[name]
			counts[name]++
			if quiet {
				events = append(events, []any{"condition", name, append([]any{}, args...), list[k%len(list)]})
			}
			return list[k%len(list)]
		}
	}
	// Callbacks and actions or conditions the script does not list.
	for n := range def.Preorder() {
		if n.n.attrs == nil {
			continue
		}
		for _, a := range n.Attrs() {
			name := a.Value.Name
			switch a.Kind {
			case attr.KindEntry, attr.KindOnStep:
				fns.Callbacks[name] = func(args []any) {
					if quiet {
						events = append(events, []any{"callback", name, append([]any{}, args...)})
					}
				}
			case attr.KindExit:
				fns.Exits[name] = func(args []any, succeeded, aborted bool) {
					if quiet {
						events = append(events, []any{"exit", name, append([]any{}, args...), map[string]any{"succeeded": succeeded, "aborted": aborted}})
					}
				}
			}
		}
	}
	agent, err := fns.Agent(def)
	if err != nil {
		return "agent: " + err.Error()
	}
	nr, nd := 0, 0
	tree, err := NewStepped(def, agent,
		WithRandom(func() float64 { r := c.Random[nr%len(c.Random)]; nr++; return r }),
		withDeltaSeconds(func() float64 { d := c.Delta[nd%len(c.Delta)]; nd++; return d }))
	if err != nil {
		return "build: " + err.Error()
	}
	// The expanded tree.
	i := 0
	for info := range tree.Nodes() {
		if i >= len(c.Nodes) {
			return fmt.Sprintf("nodes: more than %d", len(c.Nodes))
		}
		want := c.Nodes[i]
		got := []any{kinds[info.Kind].mistreevous, float64(info.Parent), info.Name}
		if info.Kind == kind.Leaf {
			got[0] = "action"
		}
		if !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("nodes[%d]: got %v, want %v", i, got, want)
		}
		i++
	}
	if i != len(c.Nodes) {
		return fmt.Sprintf("nodes: got %d, want %d", i, len(c.Nodes))
	}
	emit := func(e Event[Call]) { events = append(events, eventJSON(e)) }
	if quiet {
		emit = nil
	}
	resets := map[int]bool{}
	for _, r := range c.Resets {
		resets[r] = true
	}
	states := make([]string, len(c.Nodes)) // quiet: each node's state, from the trace
	for s := 0; s < c.Steps; s++ {
		events = events[:0]
		if resets[s] {
			tree = tree.ResetWith(emit)
		}
		tree, err = tree.StepWith(emit)
		if err != nil {
			return fmt.Sprintf("step %d: %v", s, err)
		}
		want := c.Trace[s]
		wantEvents := want.Events
		if quiet {
			wantEvents = quietEvents(want.Events, states)
		}
		for j := range max(len(events), len(wantEvents)) {
			var g, w any = "(none)", "(none)"
			if j < len(events) {
				g = events[j]
			}
			if j < len(wantEvents) {
				w = wantEvents[j]
			}
			if !reflect.DeepEqual(g, w) {
				gj, _ := json.Marshal(g)
				wj, _ := json.Marshal(w)
				return fmt.Sprintf("step %d, event %d: got %s, want %s", s, j, gj, wj)
			}
		}
		if quiet {
			i := 0
			for info := range tree.Nodes() {
				if got := info.State.String(); got != states[i] && !(got == "READY" && states[i] == "") {
					return fmt.Sprintf("step %d: node %d is %s, want %s", s, i, got, states[i])
				}
				i++
			}
		}
		if got := tree.State().String(); got != want.State {
			return fmt.Sprintf("step %d: state %s, want %s", s, got, want.State)
		}
		if nr != want.NR || nd != want.ND {
			return fmt.Sprintf("step %d: nr/nd %d/%d, want %d/%d", s, nr, nd, want.NR, want.ND)
		}
	}
	return ""
}

// quietEvents returns the agent calls of a step's trace events, with entry
// and step callbacks as "callback", and applies its state changes to
// states.
func quietEvents(trace []any, states []string) []any {
	var calls []any
	for _, e := range trace {
		e := e.([]any)
		switch e[0] {
		case "node":
			states[int(e[1].(float64))] = e[3].(string)
		case "reset":
		case "entry", "step":
			calls = append(calls, []any{"callback", e[1], e[2]})
		default:
			calls = append(calls, e)
		}
	}
	return calls
}

// eventJSON is an event as the corpus writes it, decoded.
func eventJSON(e Event[Call]) any {
	args := func() []any {
		out := make([]any, len(e.Value.Args))
		copy(out, e.Value.Args)
		return out
	}
	switch e.Kind {
	case EventState:
		return []any{"node", float64(e.Node), e.From.String(), e.To.String()}
	case EventAction:
		r := map[Status]string{Success: "success", Failure: "failure", Running: "running"}[e.Result.Status]
		if e.Result.Async != nil {
			s, _ := e.Result.Async.Settled()
			r = "async-" + map[Status]string{Success: "success", Failure: "failure", Running: "pending"}[s]
		}
		return []any{"action", e.Value.Name, args(), r}
	case EventCondition:
		return []any{"condition", e.Value.Name, args(), e.Holds}
	case EventEntry:
		return []any{"entry", e.Value.Name, args()}
	case EventOnStep:
		return []any{"step", e.Value.Name, args()}
	case EventExit:
		return []any{"exit", e.Value.Name, args(), map[string]any{"succeeded": e.Succeeded, "aborted": e.Aborted}}
	case EventReset:
		return []any{"reset"}
	}
	return []any{"unknown", float64(e.Kind)}
}

func TestMistreevousConformance(t *testing.T) {
	file := mistreevousCorpus()
	cases := readMistreevousCorpus(t, file)
	// The two passes run side by side (they only read the cases).
	for _, quiet := range []bool{false, true} {
		name := "events"
		if quiet {
			name = "quiet"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			mistreevousPass(t, file, cases, quiet)
		})
	}
}

// mistreevousPass replays every case of the Mistreevous corpus, with events
// or quiet (without them: the agent's calls and the node states), and
// logs how many match.
func mistreevousPass(t *testing.T, file string, cases []mcase, quiet bool) {
	ok := 0
	var first string
	for i := range cases {
		c := &cases[i]
		if d := runMistreevousCase(c, quiet); d != "" {
			if first == "" {
				first = fmt.Sprintf("case %s %s: %s", c.ID, c.Name, d)
			}
			continue
		}
		ok++
	}
	if quiet {
		t.Logf("mistreevous conformance without events: %d/%d cases match (%s)", ok, len(cases), file)
	} else {
		t.Logf("mistreevous conformance: %d/%d cases match (%s)", ok, len(cases), file)
	}
	if first != "" {
		t.Errorf("quiet %v: %d cases differ; the first: %s", quiet, len(cases)-ok, first)
	}
}
