package behaviortree

import (
	"bufio"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// cycleAgent answers action and condition calls by name, cycling through
// the given answers.
func cycleAgent(actions map[string][]Result, conds map[string][]bool) Agent[string] {
	n := map[string]int{}
	return Agent[string]{
		Action: func(v string) Result {
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
	def := Root(Sequence(Leaf("A"), Wait[string](250*time.Millisecond), Condition("C")))
	agent := cycleAgent(map[string][]Result{"A": {ResultRunning, ResultSuccess}}, map[string][]bool{"C": {false, true}})
	tr, err := NewStepped(def, agent, WithTurnClock(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	var s Stats[string]
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
	want := []NodeStats{
		{ID: 0, Name: "ROOT", Ticks: 8, Successes: 1, Failures: 1, Running: 6},
		{ID: 1, Name: "SEQUENCE", Ticks: 8, Successes: 1, Failures: 1, Running: 6},
		{ID: 2, Name: "A", Ticks: 4, Successes: 2, Running: 2},
		{ID: 3, Name: "WAIT 250ms", Ticks: 6, Successes: 2, Running: 4},
		{ID: 4, Name: "C", Ticks: 2, Successes: 1, Failures: 1},
	}
	var got []NodeStats
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
	if n := s.Node(5); n != (NodeStats{ID: 5}) {
		t.Errorf("Node(5) of a 5-node tree = %+v, want zero counts", n)
	}
}

// TestStatsGuardAbort: a guard that stops a running sequence fails it in
// the step; the guard's condition calls are not the nodes' updates, and
// the aborted child, left READY, is not updated.
func TestStatsGuardAbort(t *testing.T) {
	def := Root(Sequence(Leaf("A")).With(While("G")))
	step := 0
	agent := Agent[string]{
		Action:    func(string) Result { return ResultRunning },
		Condition: func(string) bool { return step == 1 }, // G holds in the first step only
	}
	tr, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	var s Stats[string]
	for range 2 {
		step++
		if tr, err = tr.StepWith(s.Observe); err != nil {
			t.Fatal(err)
		}
		s.EndStep(tr)
	}
	want := []NodeStats{
		{ID: 0, Name: "ROOT", Ticks: 2, Failures: 1, Running: 1},
		{ID: 1, Name: "SEQUENCE", Ticks: 2, Failures: 1, Running: 1},
		{ID: 2, Name: "A", Ticks: 1, Running: 1},
	}
	for i, w := range want {
		if n := s.Node(i); n != w {
			t.Errorf("Node(%d) = %+v, want %+v", i, n, w)
		}
	}
}

// TestStatsRandomTrees steps random trees with random answers, resets now
// and then, and checks that the root, which every step updates, has a tick
// per step, and successes and failures as many as the steps that
// completed the tree; every leaf has a tick per call at least, a
// condition node a result per tick, and every node as many successes and
// failures as changes to SUCCEEDED and FAILED, and results that add up to
// its ticks.
func TestStatsRandomTrees(t *testing.T) {
	ran := 0
	for seed := range uint64(300) {
		r := rand.New(rand.NewPCG(seed, 7))
		budget, names := 12, 0
		def := Root(randomSteppedTree(r, 0, &budget, &names))
		x := seed | 1
		var log strings.Builder
		agent, err := quietAgent(def, &x, &log)
		if err != nil {
			t.Fatal(err)
		}
		tr, err := NewStepped(def, agent, WithTurnClock(50*time.Millisecond), WithSeed(seed))
		if err != nil {
			continue
		}
		var s Stats[Call]
		calls := make([]int, tr.Len())
		ends := make([][2]int, tr.Len()) // changes to SUCCEEDED, to FAILED
		steps, completed, running := 0, 0, 0
		events := func(e Event[Call]) {
			if (e.Kind == EventAction || e.Kind == EventCondition && !e.Guard) && e.Node < len(calls) {
				calls[e.Node]++
			}
			if e.Kind == EventState && e.To == StateSucceeded {
				ends[e.Node][0]++
			}
			if e.Kind == EventState && e.To == StateFailed {
				ends[e.Node][1]++
			}
			s.Observe(e)
		}
		failed := false
		for range 60 {
			if r.IntN(15) == 0 {
				tr = tr.ResetWith(s.Observe)
				continue
			}
			next, err := tr.StepWith(events)
			if err != nil {
				if !errors.Is(err, ErrEmptyInverter) {
					t.Fatalf("seed %d: %v", seed, err)
				}
				failed = true
				break
			}
			tr = next
			s.EndStep(tr)
			steps++
			switch tr.State() {
			case StateSucceeded, StateFailed:
				completed++
			case StateRunning:
				running++
			}
		}
		if failed {
			continue
		}
		ran++
		root := s.Node(0)
		if root.Ticks != steps || root.Successes+root.Failures != completed || root.Running != running {
			t.Fatalf("seed %d: root %+v, want %d ticks, %d completed, %d running\n%s", seed, root, steps, completed, running, def)
		}
		for info := range tr.Nodes() {
			n := s.Node(info.ID)
			if n.Successes+n.Failures+n.Running != n.Ticks {
				t.Fatalf("seed %d: node %d: %+v results do not add up to its ticks\n%s", seed, info.ID, n, def)
			}
			// A leaf is updated without a call when it waits for an async
			// result, or when its guard fails it; a condition always
			// completes.
			if n.Ticks < calls[info.ID] || info.Kind == KindCondition && n.Ticks != n.Successes+n.Failures {
				t.Fatalf("seed %d: node %d (%s): %+v, %d calls\n%s", seed, info.ID, info.Name, n, calls[info.ID], def)
			}
			if n.Successes != ends[info.ID][0] || n.Failures != ends[info.ID][1] {
				t.Fatalf("seed %d: node %d (%s): %+v, %v changes to SUCCEEDED and FAILED\n%s", seed, info.ID, info.Name, n, ends[info.ID], def)
			}
		}
	}
	if ran < 100 {
		t.Fatalf("only %d random trees ran", ran)
	}
}

// TestLoggerLines checks a line of each kind, the memory and reset lines
// included, which bt run's trees do not make, and that a write error is
// kept by a bufio.Writer.
func TestLoggerLines(t *testing.T) {
	tr, err := NewStepped(Root(Leaf("A")), Agent[string]{Action: func(string) Result { return ResultSuccess }})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	log := NewLogger(&b, tr)
	for _, e := range []Event[string]{
		{Kind: EventState, Node: 1, From: StateReady, To: StateRunning},
		{Kind: EventAction, Node: 1, Value: "A", Result: NewAsync().Result()},
		{Kind: EventAction, Node: 1, Value: "A", Result: ResultFailure},
		{Kind: EventCondition, Node: 1, Value: "C", Holds: true, Guard: true},
		{Kind: EventEntry, Value: "E"},
		{Kind: EventStep, Value: "S"},
		{Kind: EventExit, Value: "X", Succeeded: true},
		{Kind: EventMemory, Node: 1, Key: "k", Old: nil, New: 2.5},
		{Kind: EventReset},
		{Kind: EventState, Node: 7, From: StateRunning, To: StateReady},
		{Kind: EventKind(9), Node: 1},
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
	log = NewLogger(bw, tr)
	for range 3 {
		log(Event[string]{Kind: EventReset})
	}
	if err := bw.Flush(); err == nil {
		t.Fatal("Flush after a failed write: no error")
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// TestEventStrings checks EventKind.String and Event.String.
func TestEventStrings(t *testing.T) {
	var kinds []string
	for k := range EventKind(9) {
		kinds = append(kinds, k.String())
	}
	if got, want := strings.Join(kinds, " "), "state action condition entry step exit reset memory EventKind(8)"; got != want {
		t.Errorf("kinds %s, want %s", got, want)
	}
	for _, c := range []struct {
		e    Event[string]
		want string
	}{
		{Event[string]{Kind: EventState, Node: 2, From: StateReady, To: StateRunning}, "node 2: READY -> RUNNING"},
		{Event[string]{Kind: EventAction, Node: 2, Value: "A", Result: ResultRunning}, "node 2: action A -> running"},
		{Event[string]{Kind: EventAction, Node: 2, Value: "A", Result: NewAsync().Result()}, "node 2: action A -> async"},
		{Event[string]{Kind: EventCondition, Node: 3, Value: "C"}, "node 3: condition C -> false"},
		{Event[string]{Kind: EventCondition, Node: 3, Value: "G", Holds: true, Guard: true}, "node 3: condition G -> true (guard)"},
		{Event[string]{Kind: EventEntry, Node: 1, Value: "E"}, "node 1: entry E"},
		{Event[string]{Kind: EventStep, Node: 1, Value: "S"}, "node 1: step S"},
		{Event[string]{Kind: EventExit, Node: 1, Value: "X", Aborted: true}, "node 1: exit X (succeeded false, aborted true)"},
		{Event[string]{Kind: EventMemory, Node: 2, Key: "hp", Old: 3, New: nil}, `node 2: memory "hp": 3 -> <nil>`},
		{Event[string]{Kind: EventReset}, "reset"},
		{Event[string]{Kind: EventKind(200), Node: 4}, "node 4: EventKind(200)"},
	} {
		if got := c.e.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.e, got, c.want)
		}
	}
}
