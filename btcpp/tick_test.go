package btcpp

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The corpus does not check the timed nodes (Delay, Timeout, Sleep) nor
// WaitValueUpdate and some corners of TryCatch; these tests check them
// against TIMED.md: §5 (the deterministic mapping onto a clock that
// advances only between ticks), §7 (what the probe of the C++ library
// showed) and §8.

// scenario is a tree ticked with scripted leaves (the corpus driver's,
// README §2) on a turn clock.
type scenario struct {
	name   string
	xml    string
	leaves map[string]string   // ID -> "action", "sync" or "condition"
	script map[string][]string // ID -> statuses, cycled
	bb     map[string]any
	turn   time.Duration
	once   bool
	show   string // a root key whose value ends each line (" key=value")
	// want is one line per tick: the result (or "error TYPE@node"), then
	// after " | " the calls ("start 2 RUNNING", "halt 2", ...), and with
	// once " x2" for two root executions.
	want []string
}

// run builds and ticks s and returns its lines.
func (s *scenario) run(t *testing.T) []string {
	t.Helper()
	c := &btCase{Script: s.script}
	d := &driver{c: c, counts: map[string]int{}}
	c.Leaves = map[string]struct {
		Kind  string                    `json:"kind"`
		Ports [][]string                `json:"ports"`
		Out   map[string]map[string]any `json:"out"`
	}{}
	for id, k := range s.leaves {
		l := c.Leaves[id]
		l.Kind = k
		c.Leaves[id] = l
	}
	f := NewFactory()
	if err := d.register(f); err != nil {
		t.Fatal(err)
	}
	opts := []Option{WithTurnClock(s.turn)}
	for k, v := range s.bb {
		opts = append(opts, WithEntry(k, v))
	}
	doc, err := f.Parse(s.xml)
	if err != nil {
		t.Fatalf("%s: parse: %v", s.name, err)
	}
	tree, err := doc.Build("", opts...)
	if err != nil {
		t.Fatalf("%s: build: %v", s.name, err)
	}
	var lines []string
	for range s.want {
		d.calls = nil
		var res Status
		if s.once {
			tree, res, err = tree.TickOnce()
		} else {
			tree, res, err = tree.Tick()
		}
		line := res.String()
		if err != nil {
			typ, node := errorType(err)
			line = fmt.Sprintf("error %s@%d", typ, node)
		}
		var calls []string
		for _, c := range d.calls {
			var parts []string
			for _, x := range c.([]any) {
				parts = append(parts, fmt.Sprint(x))
			}
			calls = append(calls, strings.Join(parts, " "))
		}
		line += " | " + strings.Join(calls, "; ")
		if s.once && err == nil {
			line += fmt.Sprintf(" x%d", tree.RootTicks())
		}
		if want := s.turn * time.Duration(len(lines)); tree.Clock() != want {
			t.Errorf("%s: tick %d at %v, want %v", s.name, len(lines), tree.Clock(), want)
		}
		if s.show != "" {
			v, _ := tree.Get(s.show)
			line += fmt.Sprintf(" %s=%s", s.show, v.String())
		}
		lines = append(lines, line)
		if err != nil {
			break
		}
	}
	return lines
}

func (s *scenario) check(t *testing.T) {
	t.Helper()
	got := s.run(t)
	for i := range s.want {
		g := "(none)"
		if i < len(got) {
			g = got[i]
		}
		if g != s.want[i] {
			t.Errorf("%s: tick %d:\n got  %s\n want %s", s.name, i, g, s.want[i])
		}
	}
}

func root(body string) string {
	return `<root BTCPP_format="4"><BehaviorTree ID="Main">` + body + `</BehaviorTree></root>`
}

func TestDelay(t *testing.T) {
	act := map[string]string{"A": "action"}
	for _, s := range []scenario{{
		// TIMED.md §7: Delay 300, 100 ms steps: ticks 0–2 RUNNING with the
		// child untouched, the child starts in tick 3, SUCCESS in tick 4,
		// a new wait in tick 5.
		name: "delay 300", xml: root(`<Delay delay_msec="300"><A/></Delay>`), leaves: act,
		script: map[string][]string{"A": {"RUNNING", "SUCCESS"}}, turn: 100 * time.Millisecond,
		want: []string{"RUNNING | ", "RUNNING | ", "RUNNING | ", "RUNNING | start 1 RUNNING", "SUCCESS | run 1 SUCCESS", "RUNNING | "},
	}, {
		// §5: 250 ms → k+3; 301 ms → k+4.
		name: "delay 250", xml: root(`<Delay delay_msec="250"><A/></Delay>`), leaves: act, turn: 100 * time.Millisecond,
		want: []string{"RUNNING | ", "RUNNING | ", "RUNNING | ", "SUCCESS | start 1 SUCCESS"},
	}, {
		name: "delay 301", xml: root(`<Delay delay_msec="301"><A/></Delay>`), leaves: act, turn: 100 * time.Millisecond,
		want: []string{"RUNNING | ", "RUNNING | ", "RUNNING | ", "RUNNING | ", "SUCCESS | start 1 SUCCESS"},
	}, {
		// §5: 0 ms → k+1, even with Δ = 0.
		name: "delay 0", xml: root(`<Delay delay_msec="0"><A/></Delay>`), leaves: act, turn: 0,
		want: []string{"RUNNING | ", "SUCCESS | start 1 SUCCESS"},
	}, {
		// §5: with Δ = 0 a timer of more than 0 ms never fires.
		name: "delay no time", xml: root(`<Delay delay_msec="10"><A/></Delay>`), leaves: act, turn: 0,
		want: []string{"RUNNING | ", "RUNNING | ", "RUNNING | "},
	}, {
		// §7: a child that returns SKIPPED, RUNNING, SUCCESS (100 ms
		// delay, 120 ms steps): tick 1 SKIPPED with the Delay still
		// RUNNING, tick 2 the child starts again without a new wait.
		name: "delay skipped child", xml: root(`<Delay delay_msec="100"><A/></Delay>`), leaves: act,
		script: map[string][]string{"A": {"SKIPPED", "RUNNING", "SUCCESS"}}, turn: 120 * time.Millisecond,
		want: []string{"RUNNING | ", "SKIPPED | start 1 SKIPPED", "RUNNING | start 1 RUNNING", "SUCCESS | run 1 SUCCESS"},
	}, {
		// §7: halted by a ReactiveSequence whose condition fails in tick
		// 2; tick 3 restarts it, and with 200 ms at 100 ms steps the child
		// runs in tick 5.
		name: "delay halted", xml: root(`<ReactiveSequence><C/><Delay delay_msec="200"><A/></Delay></ReactiveSequence>`),
		leaves: map[string]string{"A": "action", "C": "condition"},
		script: map[string][]string{"C": {"SUCCESS", "SUCCESS", "FAILURE", "SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS"}, "A": {"RUNNING"}}, turn: 100 * time.Millisecond,
		want: []string{"RUNNING | tick 1 SUCCESS", "RUNNING | tick 1 SUCCESS", "FAILURE | tick 1 FAILURE",
			"RUNNING | tick 1 SUCCESS", "RUNNING | tick 1 SUCCESS", "RUNNING | tick 1 SUCCESS; start 3 RUNNING"},
	}, {
		// §5 and §7: with tickOnce the firing sets the wake-up flag, so
		// tick 3 executes the root twice.
		name: "delay once", xml: root(`<Delay delay_msec="300"><A/></Delay>`), leaves: act,
		script: map[string][]string{"A": {"RUNNING"}}, turn: 100 * time.Millisecond, once: true,
		want: []string{"RUNNING |  x1", "RUNNING |  x1", "RUNNING |  x1", "RUNNING | start 1 RUNNING; run 1 RUNNING x2", "RUNNING | run 1 RUNNING x1"},
	}, {
		// §0 and §7: the port is read on every tick; a missing one is a
		// NodeExecutionError at the Delay; "100ms" reads as 100.
		name: "delay no port", xml: root(`<Sequence><Delay><A/></Delay></Sequence>`), leaves: act, turn: time.Millisecond,
		want: []string{"error NodeExecutionError@1 | "},
	}, {
		name: "delay 100ms", xml: root(`<Delay delay_msec="100ms"><A/></Delay>`), leaves: act, turn: 50 * time.Millisecond,
		want: []string{"RUNNING | ", "RUNNING | ", "SUCCESS | start 1 SUCCESS"},
	}, {
		// §7: {d} with a string "100" in the blackboard works.
		name: "delay from string", xml: root(`<Delay delay_msec="{d}"><A/></Delay>`), leaves: act, turn: 100 * time.Millisecond,
		bb:   map[string]any{"d": "100"},
		want: []string{"RUNNING | ", "SUCCESS | start 1 SUCCESS"},
	}} {
		s.check(t)
	}
}

func TestTimeout(t *testing.T) {
	for _, s := range []scenario{{
		// TIMED.md §7: Timeout 300 over an always-RUNNING child, 100 ms
		// steps: the child is ticked in 0, 1, 2, halted before tick 3
		// (the halt is the first call of tick 3), tick 3 FAILURE without
		// ticking it, tick 4 restarts.
		name: "timeout 300", xml: root(`<Timeout msec="300"><A/></Timeout>`), leaves: map[string]string{"A": "action"},
		script: map[string][]string{"A": {"RUNNING"}}, turn: 100 * time.Millisecond,
		want: []string{"RUNNING | start 1 RUNNING", "RUNNING | run 1 RUNNING", "RUNNING | run 1 RUNNING",
			"FAILURE | halt 1", "RUNNING | start 1 RUNNING"},
	}, {
		// §7: Timeout 150 over Sequence[A ok, B running]: B (and the
		// Sequence) halted at 150 ms, tick 2 FAILURE.
		name: "timeout sequence", xml: root(`<Timeout msec="150"><Sequence><A/><B/></Sequence></Timeout>`),
		leaves: map[string]string{"A": "action", "B": "action"},
		script: map[string][]string{"A": {"SUCCESS"}, "B": {"RUNNING"}}, turn: 100 * time.Millisecond,
		want: []string{"RUNNING | start 2 SUCCESS; start 3 RUNNING", "RUNNING | run 3 RUNNING", "FAILURE | halt 3"},
	}, {
		// §2: a child that completes before the deadline cancels the timer.
		name: "timeout completes", xml: root(`<Timeout msec="300"><A/></Timeout>`), leaves: map[string]string{"A": "action"},
		script: map[string][]string{"A": {"RUNNING", "RUNNING", "SUCCESS", "RUNNING"}}, turn: 100 * time.Millisecond,
		want: []string{"RUNNING | start 1 RUNNING", "RUNNING | run 1 RUNNING", "SUCCESS | run 1 SUCCESS", "RUNNING | start 1 RUNNING",
			"RUNNING | run 1 RUNNING"},
	}, {
		// §2: the timer halts the child from its thread: an _onHalted
		// that throws there terminates the C++ process.
		name: "timeout halt throws", xml: root(`<Timeout msec="100"><A _onHalted="nothing = 1"/></Timeout>`), leaves: map[string]string{"A": "action"},
		script: map[string][]string{"A": {"RUNNING"}}, turn: 100 * time.Millisecond,
		want: []string{"RUNNING | start 1 RUNNING", "error terminate@-1 | halt 1"},
	}, {
		// §2: 0 ms never times out.
		name: "timeout 0", xml: root(`<Timeout msec="0"><A/></Timeout>`), leaves: map[string]string{"A": "action"},
		script: map[string][]string{"A": {"RUNNING"}}, turn: time.Second,
		want: []string{"RUNNING | start 1 RUNNING", "RUNNING | run 1 RUNNING", "RUNNING | run 1 RUNNING"},
	}, {
		// §7: with tickOnce, tick 3's FAILURE has one execution and the
		// flag outlives it: tick 4 (the restart, RUNNING) has two.
		name: "timeout once", xml: root(`<Timeout msec="300"><A/></Timeout>`), leaves: map[string]string{"A": "action"},
		script: map[string][]string{"A": {"RUNNING"}}, turn: 100 * time.Millisecond, once: true,
		want: []string{"RUNNING | start 1 RUNNING x1", "RUNNING | run 1 RUNNING x1", "RUNNING | run 1 RUNNING x1",
			"FAILURE | halt 1 x1", "RUNNING | start 1 RUNNING; run 1 RUNNING x2"},
	}, {
		// §2: a child that is not RUNNING when the timer fires (SKIPPED)
		// is left alone, and this activation never times out.
		name: "timeout skipped child", xml: root(`<Timeout msec="100"><A/></Timeout>`), leaves: map[string]string{"A": "action"},
		script: map[string][]string{"A": {"SKIPPED", "SKIPPED", "RUNNING", "RUNNING", "RUNNING", "RUNNING"}}, turn: 100 * time.Millisecond,
		want: []string{"SKIPPED | start 1 SKIPPED", "SKIPPED | start 1 SKIPPED", "RUNNING | start 1 RUNNING", "RUNNING | run 1 RUNNING"},
	}} {
		s.check(t)
	}
}

func TestSleep(t *testing.T) {
	for _, s := range []scenario{{
		// TIMED.md §7: Sleep 250 at 100 ms steps: SUCCESS in tick 3.
		name: "sleep 250", xml: root(`<Sleep msec="250"/>`), turn: 100 * time.Millisecond,
		want: []string{"RUNNING | ", "RUNNING | ", "RUNNING | ", "SUCCESS | "},
	}, {
		name: "sleep 0", xml: root(`<Sleep msec="0"/>`), turn: 100 * time.Millisecond,
		want: []string{"SUCCESS | "},
	}, {
		name: "sleep no port", xml: root(`<Sequence><Sleep/></Sequence>`), turn: 100 * time.Millisecond,
		want: []string{"error NodeExecutionError@1 | "},
	}, {
		// §7: Sequence[Sleep 300, running A] with tickOnce: tick 3 has two
		// root executions.
		name: "sleep once", xml: root(`<Sequence><Sleep msec="300"/><A/></Sequence>`), leaves: map[string]string{"A": "action"},
		script: map[string][]string{"A": {"RUNNING"}}, turn: 100 * time.Millisecond, once: true,
		want: []string{"RUNNING |  x1", "RUNNING |  x1", "RUNNING |  x1", "RUNNING | start 2 RUNNING; run 2 RUNNING x2"},
	}, {
		// §6.4: a Sleep halted and restarted in the same tick (the
		// condition fails once in tick 1) gets a new full wait: with
		// 300 ms at 100 ms steps it succeeds in tick 4.
		name: "sleep restarted", xml: root(`<RetryUntilSuccessful num_attempts="-1"><ReactiveSequence><C/><Sleep msec="300"/></ReactiveSequence></RetryUntilSuccessful>`),
		leaves: map[string]string{"C": "condition"},
		script: map[string][]string{"C": {"SUCCESS", "FAILURE", "SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS"}}, turn: 100 * time.Millisecond,
		want: []string{"RUNNING | tick 2 SUCCESS", "RUNNING | tick 2 FAILURE; tick 2 SUCCESS", "RUNNING | tick 2 SUCCESS",
			"RUNNING | tick 2 SUCCESS", "SUCCESS | tick 2 SUCCESS"},
	}} {
		s.check(t)
	}
}

// TestTimedBuildErrors checks TIMED.md §0's build-time rules of the
// unsigned ports.
func TestTimedBuildErrors(t *testing.T) {
	for _, c := range []struct {
		xml  string
		bb   map[string]any
		want ErrorType
	}{
		{root(`<Delay delay_msec="-1"><AlwaysSuccess/></Delay>`), nil, LogicError},
		{root(`<Timeout msec="abc"><AlwaysSuccess/></Timeout>`), nil, LogicError},
		{root(`<Sleep msec="4294967296"/>`), nil, LogicError},
		{root(`<Delay delay_msec="{d}"><AlwaysSuccess/></Delay>`), map[string]any{"d": 100}, RuntimeError},
	} {
		doc, err := NewFactory().Parse(c.xml)
		if err == nil {
			var opts []Option
			for k, v := range c.bb {
				opts = append(opts, WithEntry(k, v))
			}
			_, err = doc.Build("", opts...)
		}
		var e *Error
		if !errors.As(err, &e) || e.Type != c.want {
			t.Errorf("%s: got %v, want a %s", c.xml, err, c.want)
		}
	}
}

// TestTimerOrder checks §5's order of simultaneous firings: a Timeout
// that halts a subtree cancels the timers in it, which then do not fire.
func TestTimerOrder(t *testing.T) {
	s := scenario{
		name: "timeout cancels delay",
		xml:  root(`<Timeout msec="100"><Sequence><Delay delay_msec="100"><A/></Delay></Sequence></Timeout>`),
		// The Timeout was armed first (tick 0, before the Delay), so it
		// fires first and halts the Delay, whose timer is cancelled.
		leaves: map[string]string{"A": "action"}, turn: 100 * time.Millisecond, once: true,
		want: []string{"RUNNING |  x1", "FAILURE |  x1", "RUNNING |  x2"},
	}
	s.check(t)
}

func TestWaitValueUpdate(t *testing.T) {
	// TIMED.md §8: the child runs in the tick of each write and is resumed
	// without a check while RUNNING; otherwise RUNNING (stored like any
	// result, no wake-up flag).
	s := scenario{
		name:   "wait value update",
		xml:    root(`<Sequence><Script code="w := w + 1" _skipIf="w >= 1 &amp;&amp; w &lt; 3"/><WaitValueUpdate entry="{w}"><A/></WaitValueUpdate></Sequence>`),
		leaves: map[string]string{"A": "action"},
		script: map[string][]string{"A": {"RUNNING", "SUCCESS"}},
		bb:     map[string]any{"w": 0},
		// tick 0: w := 1 (a write) → the child starts, RUNNING.
		// tick 1: the Script is skipped; the child is resumed without a check.
		// tick 2: the Sequence restarts; no write → RUNNING without the child.
		want: []string{"RUNNING | start 3 RUNNING", "SUCCESS | run 3 SUCCESS", "RUNNING | ", "RUNNING | "},
	}
	s.check(t)
}

func TestTryCatchHalt(t *testing.T) {
	// TIMED.md §8: catch_on_halt runs the catch child when the TryCatch is
	// halted while running: observed [halt A, start C → RUNNING, halt C].
	s := scenario{
		name:   "catch on halt",
		xml:    root(`<ReactiveSequence><K/><TryCatch catch_on_halt="true"><A/><C/></TryCatch></ReactiveSequence>`),
		leaves: map[string]string{"K": "condition", "A": "action", "C": "action"},
		script: map[string][]string{"K": {"SUCCESS", "FAILURE"}, "A": {"RUNNING"}, "C": {"RUNNING"}},
		want:   []string{"RUNNING | tick 1 SUCCESS; start 3 RUNNING", "FAILURE | tick 1 FAILURE; halt 3; start 4 RUNNING; halt 4"},
	}
	s.check(t)
}

func TestLoops(t *testing.T) {
	act := map[string]string{"A": "action"}
	for _, s := range []scenario{{
		// TIMED.md §8: one element per tick, RUNNING three times, then
		// if_empty on the 4th tick.
		name: "loop int", xml: root(`<LoopInt queue="1;2;3" value="{v}"><A/></LoopInt>`), leaves: act, show: "v",
		want: []string{"RUNNING | start 1 SUCCESS v=1", "RUNNING | start 1 SUCCESS v=2", "RUNNING | start 1 SUCCESS v=3",
			"SUCCESS |  v=3", "RUNNING | start 1 SUCCESS v=1"},
	}, {
		// A running child keeps its element until it completes; a FAILURE
		// ends the activation, and the next one starts from the first.
		name: "loop running child", xml: root(`<LoopDouble queue="0.5;1.5" value="{v}" if_empty="FAILURE"><A/></LoopDouble>`),
		leaves: act, show: "v", script: map[string][]string{"A": {"RUNNING", "SUCCESS", "FAILURE", "SUCCESS"}},
		want: []string{"RUNNING | start 1 RUNNING v=0.500000", "RUNNING | run 1 SUCCESS v=0.500000",
			"FAILURE | start 1 FAILURE v=1.500000", "RUNNING | start 1 SUCCESS v=0.500000"},
	}, {
		// if_empty="IDLE" is stored as the result: an error outside the
		// tick, so the parent's NodeExecutionError.
		name: "loop idle", xml: root(`<Sequence><LoopBool queue="" value="{v}" if_empty="IDLE"><A/></LoopBool></Sequence>`), leaves: act,
		want: []string{"error NodeExecutionError@0 | "},
	}, {
		// A {k} queue: parsed when the activation starts; the entry's
		// later content is ignored, but an entry that was removed fails.
		name: "loop from entry",
		xml:  root(`<Sequence><LoopString queue="{q}" value="{v}"><Sequence><Script code="q := 'x;y'"/><UnsetBlackboard key="q" _skipIf="v != 'b'"/></Sequence></LoopString></Sequence>`),
		bb:   map[string]any{"q": "a;b;c"}, show: "v",
		want: []string{"RUNNING |  v=a", "RUNNING |  v=b", "error NodeExecutionError@1 |  v=b"},
	}} {
		s.check(t)
	}
}

// TestScriptFromEntry checks Script and Precondition whose code is a
// blackboard reference: read and parsed again when it changes.
func TestScriptFromEntry(t *testing.T) {
	for _, s := range []scenario{{
		name: "script from entry",
		xml:  root(`<Sequence><Script code="{c}"/><Script code="c := 'n := n * 2'"/></Sequence>`),
		bb:   map[string]any{"c": "n := n + 1", "n": 1}, show: "n",
		want: []string{"SUCCESS |  n=2", "SUCCESS |  n=4", "SUCCESS |  n=8"},
	}, {
		name: "precondition from entry",
		xml:  root(`<Sequence><Precondition if="{c}" else="SKIPPED"><Script code="n := n + 1"/></Precondition><Script code="c := 'n &lt; 3'"/></Sequence>`),
		bb:   map[string]any{"c": "true", "n": 0}, show: "n",
		want: []string{"SUCCESS |  n=1", "SUCCESS |  n=2", "SUCCESS |  n=3", "SUCCESS |  n=3"},
	}, {
		name: "script entry does not parse",
		xml:  root(`<Sequence><Script code="c := '1 +'"/><Script code="{c}"/></Sequence>`),
		bb:   map[string]any{"c": "1"},
		want: []string{"error NodeExecutionError@2 | "},
	}} {
		s.check(t)
	}
}
