package observe_test

import (
	"bufio"
	"errors"
	"math/rand"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/observe"
	"github.com/zipbt/behaviortree/proptest"
)

// cycleAgent answers action and condition calls by name, cycling through
// the given answers.
func cycleAgent(actions map[string][]bt.Result, conds map[string][]bool) bt.Agent[string] {
	n := map[string]int{}
	return bt.Agent[string]{
		Action: func(v string) bt.Result {
			r := actions[v][n[v]%len(actions[v])]
			n[v]++
			return r
		},
		Condition: func(v string) bool {
			c := conds[v][n[v]%len(conds[v])]
			n[v]++
			return c
		},
	}
}

// TestStatsHandComputed checks the counts of a small tree over eight steps
// against counts worked out by hand: the wait runs over two steps of the
// turn clock that make no event for it, and still count.
func TestStatsHandComputed(t *testing.T) {
	def := bt.Root(bt.Sequence(bt.Leaf("A"), bt.Wait[string](250*time.Millisecond), bt.Condition("C")))
	agent := cycleAgent(map[string][]bt.Result{"A": {bt.ResultRunning, bt.ResultSuccess}}, map[string][]bool{"C": {false, true}})
	tr, err := bt.NewStepped(def, agent, bt.WithTurnClock(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	var s observe.Stats[string]
	var states []string
	for range 8 {
		tr, err = tr.StepWith(s.Observe)
		if err != nil {
			t.Fatal(err)
		}
		s.EndStep(tr)
		states = append(states, tr.State().String())
	}
	// Steps: A runs; A succeeds and the wait starts; the wait runs; the
	// wait ends and C fails the tree; then the same with C holding.
	if got, want := strings.Join(states, " "), "RUNNING RUNNING RUNNING FAILED RUNNING RUNNING RUNNING SUCCEEDED"; got != want {
		t.Fatalf("tree states %s, want %s", got, want)
	}
	want := []observe.NodeStats{
		{ID: 0, Name: "ROOT", Updates: 8, Successes: 1, Failures: 1, Running: 6},
		{ID: 1, Name: "SEQUENCE", Updates: 8, Successes: 1, Failures: 1, Running: 6},
		{ID: 2, Name: "A", Updates: 4, Successes: 2, Running: 2},
		{ID: 3, Name: "WAIT 250ms", Updates: 6, Successes: 2, Running: 4},
		{ID: 4, Name: "C", Updates: 2, Successes: 1, Failures: 1},
	}
	var got []observe.NodeStats
	for n := range s.All() {
		got = append(got, n)
	}
	if len(got) != len(want) {
		t.Fatalf("All yields %d nodes, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("All: node %d: %+v, want %+v", i, got[i], want[i])
		}
		if n := s.Node(i); n != want[i] {
			t.Errorf("Node(%d) = %+v, want %+v", i, n, want[i])
		}
	}
	if n := s.Node(5); n != (observe.NodeStats{ID: 5}) {
		t.Errorf("Node(5) of a 5-node tree = %+v, want zero counts", n)
	}
}

// TestStatsGuardAbort: a guard that stops a running sequence fails it in
// the step; the guard's condition calls are not the nodes' updates, and
// the aborted child, left READY, is not updated.
func TestStatsGuardAbort(t *testing.T) {
	def := bt.Root(bt.Sequence(bt.Leaf("A")).With(attr.While("G")))
	step := 0
	agent := bt.Agent[string]{
		Action:    func(string) bt.Result { return bt.ResultRunning },
		Condition: func(string) bool { return step == 1 }, // G holds in the first step only
	}
	tr, err := bt.NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	var s observe.Stats[string]
	for range 2 {
		step++
		if tr, err = tr.StepWith(s.Observe); err != nil {
			t.Fatal(err)
		}
		s.EndStep(tr)
	}
	want := []observe.NodeStats{
		{ID: 0, Name: "ROOT", Updates: 2, Failures: 1, Running: 1},
		{ID: 1, Name: "SEQUENCE", Updates: 2, Failures: 1, Running: 1},
		{ID: 2, Name: "A", Updates: 1, Running: 1},
	}
	for i, w := range want {
		if n := s.Node(i); n != w {
			t.Errorf("Node(%d) = %+v, want %+v", i, n, w)
		}
	}
}

// randomAgent answers every call from r: actions succeed, fail, run or
// give an async result (settled at once, or never); conditions and guards
// hold two times in three.
func randomAgent(r *rand.Rand) bt.Agent[string] {
	nop := func(string) {}
	return bt.Agent[string]{
		Action: func(string) bt.Result {
			if x := r.Intn(9); x < 7 {
				return []bt.Result{bt.ResultSuccess, bt.ResultFailure, bt.ResultRunning}[x%3]
			} else if x == 7 {
				a := bt.NewAsync()
				a.Succeed()
				return a.Result()
			}
			return bt.NewAsync().Result()
		},
		Condition: func(string) bool { return r.Intn(3) != 0 },
		Entry:     nop,
		OnStep:    nop,
		Exit:      func(string, bool, bool) {},
	}
}

// TestStatsRandomTrees steps random trees (package proptest's, with
// guards and callbacks) with random answers, resets now and then, and
// checks that the root, which every step updates, has an update per step,
// and successes and failures as many as the steps that completed the
// tree; every leaf has an update per call at least, a condition node a
// result per update, and every node as many successes and failures as
// changes to SUCCEEDED and FAILED, and results that add up to its updates.
func TestStatsRandomTrees(t *testing.T) {
	trees := proptest.SteppedTree[string](gen.OneConstOf("a", "b", "c"), proptest.Config{})
	ran := 0
	for seed := range int64(300) {
		params := gopter.DefaultGenParameters().WithSize(12)
		params.Rng = rand.New(rand.NewSource(seed))
		v, ok := trees(params).Retrieve()
		if !ok {
			continue
		}
		def := v.(bt.Node[string])
		r := params.Rng
		tr, err := bt.NewStepped(def, randomAgent(r), bt.WithTurnClock(50*time.Millisecond), bt.WithSeed(uint64(seed)))
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, def)
		}
		var s observe.Stats[string]
		n := len(tr.Picture().Nodes)
		calls := make([]int, n)
		ends := make([][2]int, n) // changes to SUCCEEDED, to FAILED
		steps, completed, running := 0, 0, 0
		events := func(e bt.Event[string]) {
			if (e.Kind == bt.EventAction || e.Kind == bt.EventCondition && !e.Guard) && e.Node < len(calls) {
				calls[e.Node]++
			}
			if e.Kind == bt.EventState && e.To == bt.StateSucceeded {
				ends[e.Node][0]++
			}
			if e.Kind == bt.EventState && e.To == bt.StateFailed {
				ends[e.Node][1]++
			}
			s.Observe(e)
		}
		for range 60 {
			if r.Intn(15) == 0 {
				tr = tr.ResetWith(s.Observe)
				continue
			}
			if tr, err = tr.StepWith(events); err != nil {
				t.Fatalf("seed %d: %v\n%s", seed, err, def)
			}
			s.EndStep(tr)
			steps++
			switch tr.State() {
			case bt.StateSucceeded, bt.StateFailed:
				completed++
			case bt.StateRunning:
				running++
			}
		}
		ran++
		root := s.Node(0)
		if root.Updates != steps || root.Successes+root.Failures != completed || root.Running != running {
			t.Fatalf("seed %d: root %+v, want %d updates, %d completed, %d running\n%s", seed, root, steps, completed, running, def)
		}
		for info := range tr.Nodes() {
			n := s.Node(info.ID)
			if n.Successes+n.Failures+n.Running != n.Updates {
				t.Fatalf("seed %d: node %d: %+v results do not add up to its updates\n%s", seed, info.ID, n, def)
			}
			// A leaf is updated without a call when it waits for an async
			// result, or when its guard fails it; a condition always
			// completes.
			if n.Updates < calls[info.ID] || info.Kind == kind.Condition && n.Updates != n.Successes+n.Failures {
				t.Fatalf("seed %d: node %d (%s): %+v, %d calls\n%s", seed, info.ID, info.Name, n, calls[info.ID], def)
			}
			if n.Successes != ends[info.ID][0] || n.Failures != ends[info.ID][1] {
				t.Fatalf("seed %d: node %d (%s): %+v, %v changes to SUCCEEDED and FAILED\n%s", seed, info.ID, info.Name, n, ends[info.ID], def)
			}
		}
	}
	if ran < 250 {
		t.Fatalf("only %d random trees ran", ran)
	}
}

// TestLoggerLines checks a line of each kind, the memory and reset lines
// included, which bt run's trees do not make, and that a write error is
// kept by a bufio.Writer.
func TestLoggerLines(t *testing.T) {
	tr, err := bt.NewStepped(bt.Root(bt.Leaf("A")), bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultSuccess }})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	log := observe.NewLogger(&b, tr)
	for _, e := range []bt.Event[string]{
		{Kind: bt.EventState, Node: 1, From: bt.StateReady, To: bt.StateRunning},
		{Kind: bt.EventAction, Node: 1, Value: "A", Result: bt.NewAsync().Result()},
		{Kind: bt.EventAction, Node: 1, Value: "A", Result: bt.ResultFailure},
		{Kind: bt.EventCondition, Node: 1, Value: "C", Holds: true, Guard: true},
		{Kind: bt.EventEntry, Value: "E"},
		{Kind: bt.EventOnStep, Value: "S"},
		{Kind: bt.EventExit, Value: "X", Succeeded: true},
		{Kind: bt.EventMemory, Node: 1, Key: "k", Old: nil, New: 2.5},
		{Kind: bt.EventReset},
		{Kind: bt.EventState, Node: 7, From: bt.StateRunning, To: bt.StateReady},
		{Kind: bt.EventKind(9), Node: 1},
	} {
		log(e)
	}
	want := "  node 1 A: READY -> RUNNING\n  action A -> async\n  action A -> failure\n  condition C -> true\n" +
		"  entry E\n  step S\n  exit X (succeeded true, aborted false)\n  memory \"k\": <nil> -> 2.5\n  reset\n" +
		"  node 7 : RUNNING -> READY\n  node 1: EventKind(9)\n"
	if b.String() != want {
		t.Fatalf("logged\n%s\nwant\n%s", b.String(), want)
	}
	bw := bufio.NewWriterSize(failWriter{}, 16)
	log = observe.NewLogger(bw, tr)
	for range 3 {
		log(bt.Event[string]{Kind: bt.EventReset})
	}
	if err := bw.Flush(); err == nil {
		t.Fatal("Flush after a failed write: no error")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestStatsAnotherTree checks that a version of another tree, even one of
// as many nodes, starts the counts again with that tree's names.
func TestStatsAnotherTree(t *testing.T) {
	agent := cycleAgent(map[string][]bt.Result{"A": {bt.ResultSuccess}, "B": {bt.ResultFailure}}, nil)
	a, err := bt.NewStepped(bt.Root(bt.Leaf("A")), agent)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bt.NewStepped(bt.Root(bt.Leaf("B")), agent)
	if err != nil {
		t.Fatal(err)
	}
	var s observe.Stats[string]
	for range 2 {
		next, err := a.StepWith(s.Observe)
		if err != nil {
			t.Fatal(err)
		}
		s.EndStep(next)
	}
	if n := s.Node(1); n != (observe.NodeStats{ID: 1, Name: "A", Updates: 2, Successes: 2}) {
		t.Fatalf("after two steps of A: %+v", n)
	}
	next, err := b.StepWith(s.Observe)
	if err != nil {
		t.Fatal(err)
	}
	s.EndStep(next)
	if n := s.Node(1); n != (observe.NodeStats{ID: 1, Name: "B", Updates: 1, Failures: 1}) {
		t.Errorf("after a step of B: %+v, want B's one failure only", n)
	}
}

// TestStatsAcrossRestore checks that the counts carry on over versions of
// one definition that were saved and restored, or reset.
func TestStatsAcrossRestore(t *testing.T) {
	def := bt.Root(bt.Leaf("A"))
	agent := cycleAgent(map[string][]bt.Result{"A": {bt.ResultSuccess}}, nil)
	tr, err := bt.NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	var s observe.Stats[string]
	step := func(v bt.Stepped[string]) bt.Stepped[string] {
		t.Helper()
		next, err := v.StepWith(s.Observe)
		if err != nil {
			t.Fatal(err)
		}
		s.EndStep(next)
		return next
	}
	tr = step(tr)
	data, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := bt.RestoreStepped(def, agent, data)
	if err != nil {
		t.Fatal(err)
	}
	step(restored)
	step(tr.Reset())
	if n := s.Node(1); n != (observe.NodeStats{ID: 1, Name: "A", Updates: 3, Successes: 3}) {
		t.Errorf("after a step, a step of the restored version and one of a reset: %+v, want 3 successes", n)
	}
}

// TestLoggerTerminalSafe: names, values and memory written by the logger
// show control characters quoted (ESC, BEL, NUL, U+2028, invalid UTF-8),
// never raw.
func TestLoggerTerminalSafe(t *testing.T) {
	const name = "x\x1bc\x1b]0;pwned\a\x00\u2028\xff"
	const quoted = `x\x1bc\x1b]0;pwned\a\x00\u2028\xff`
	tr, err := bt.NewStepped(bt.Root(bt.Leaf(name)), bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultSuccess }})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	log := observe.NewLogger(&b, tr)
	for _, e := range []bt.Event[string]{
		{Kind: bt.EventState, Node: 1, From: bt.StateReady, To: bt.StateRunning},
		{Kind: bt.EventAction, Node: 1, Value: name, Result: bt.ResultFailure},
		{Kind: bt.EventCondition, Node: 1, Value: name, Holds: true},
		{Kind: bt.EventEntry, Value: name},
		{Kind: bt.EventOnStep, Value: name},
		{Kind: bt.EventExit, Value: name},
		{Kind: bt.EventMemory, Node: 1, Key: name, Old: name, New: []string{name}},
	} {
		log(e)
	}
	out := b.String()
	for _, r := range out {
		if r < 0x20 && r != '\n' || r == 0x2028 || r == utf8.RuneError {
			t.Fatalf("the log holds %U raw:\n%q", r, out)
		}
	}
	if n := strings.Count(out, quoted); n < 8 {
		t.Errorf("the name shows quoted %d times, want 8 or more:\n%s", n, out)
	}
}
