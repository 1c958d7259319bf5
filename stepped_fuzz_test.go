package behaviortree_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
)

// fuzzScript is the agent's answers for one step of FuzzRestoreStepped:
// each call of an action or condition takes the next byte (an action
// succeeds, fails or runs by the byte modulo 3, a condition holds for an
// odd byte); once they run out, an action named "a" succeeds, "b" fails
// and any other runs, and only "c" holds. Every call is logged.
type fuzzScript struct {
	answers []byte
	log     strings.Builder
}

func (s *fuzzScript) next() (byte, bool) {
	if len(s.answers) == 0 {
		return 0, false
	}
	b := s.answers[0]
	s.answers = s.answers[1:]
	return b, true
}

func (s *fuzzScript) agent() bt.Agent[string] {
	return bt.Agent[string]{
		Action: func(v string) bt.Result {
			r := bt.ResultRunning
			if b, ok := s.next(); ok {
				r = []bt.Result{bt.ResultSuccess, bt.ResultFailure, bt.ResultRunning}[b%3]
			} else if v == "a" {
				r = bt.ResultSuccess
			} else if v == "b" {
				r = bt.ResultFailure
			}
			fmt.Fprintf(&s.log, "%s:%v,", v, r.Status)
			return r
		},
		Condition: func(v string) bool {
			ok := v == "c"
			if b, more := s.next(); more {
				ok = b%2 == 1
			}
			fmt.Fprintf(&s.log, "%s:%v,", v, ok)
			return ok
		},
		Entry:  func(v string) { fmt.Fprintf(&s.log, "entry %s,", v) },
		OnStep: func(v string) { fmt.Fprintf(&s.log, "step %s,", v) },
		Exit:   func(v string, ok, aborted bool) { fmt.Fprintf(&s.log, "exit %s %v %v,", v, ok, aborted) },
	}
}

// fuzzDef is a definition FuzzRestoreStepped restores states of, and the
// script its agent answers from.
type fuzzDef struct {
	s      bt.Stepped[string]
	script *fuzzScript
}

// fuzzStepped returns the definitions FuzzRestoreStepped restores states
// of: every kind that keeps something between steps (lotto picks, repeat
// and retry counts, wait progress), guards, and more than 32 nodes, so
// that states live in the word array; a small tree of reactive subtrees,
// whose versions Step evaluates afresh and through the step cache; and a
// big one of reactive subtrees among other kinds, with guards and
// callbacks.
func fuzzStepped(t testing.TB) []fuzzDef {
	t.Helper()
	var kids []bt.Node[string]
	for range 8 {
		kids = append(kids, bt.Sequence(bt.Leaf("a"), bt.Leaf("r")))
	}
	big := bt.Root(bt.Parallel(
		bt.Lotto([]int{0, 2, 1}, bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("r")),
		bt.RepeatRange(1, 4, bt.Sequence(bt.Leaf("a"), bt.WaitRange[string](50*time.Millisecond, 400*time.Millisecond))),
		bt.RetryCount(3, bt.Leaf("b")).With(attr.While("c")),
		bt.All(kids...),
		bt.Race(bt.Wait[string](300*time.Millisecond), bt.Condition("c")),
	))
	reactive := bt.Root(bt.ReactiveSequence(
		bt.Negate(bt.Leaf("a")),
		bt.ReactiveSelect(bt.Condition("c"), bt.Sequence(bt.Leaf("a"), bt.Leaf("r"))),
		bt.ReactiveParallel(1, 2, bt.Leaf("a"), bt.Leaf("b"), bt.AlwaysFail(bt.Leaf("r"))),
		bt.Select(bt.Leaf("b"), bt.ReactiveSequence[string](), bt.Leaf("r")),
		bt.AlwaysSucceed(bt.ReactiveSelect(bt.Leaf("r"), bt.Negate(bt.Condition("c")))),
	))
	var mixed []bt.Node[string]
	for i := range 4 {
		mixed = append(mixed, bt.Sequence(
			bt.ReactiveSelect(bt.Condition("c"), bt.Leaf("r"), bt.Negate(bt.Leaf("a"))),
			bt.Repeat(bt.ReactiveSequence(bt.Leaf("a"), bt.Leaf("r"))).With(attr.Until(fmt.Sprint("u", i))),
			bt.ReactiveParallel(-1, 1, bt.Leaf("r"), bt.Leaf("b")).With(attr.Entry(fmt.Sprint("in", i)), attr.Exit(fmt.Sprint("out", i))),
		))
	}
	mixedDef := bt.Root(bt.Select(
		bt.All(mixed[0], mixed[1]),
		bt.Race(mixed[2], bt.ReactiveSequence(mixed[3], bt.Leaf("a")).With(attr.While("c").ThenSucceed())),
	))
	var defs []fuzzDef
	for _, def := range []bt.Node[string]{big, reactive, mixedDef} {
		script := new(fuzzScript)
		s, err := bt.NewStepped(def, script.agent(), bt.WithTurnClock(100*time.Millisecond), bt.WithSeed(3))
		if err != nil {
			t.Fatal(err)
		}
		defs = append(defs, fuzzDef{s, script})
	}
	return defs
}

// step steps v with the given answers, by Step (quiet) or StepWith
// (with events), and returns the new version, the agent's calls and the
// error.
func (d fuzzDef) step(v bt.Stepped[string], answers []byte, quiet bool) (bt.Stepped[string], string, error) {
	d.script.answers = answers
	d.script.log.Reset()
	var err error
	if quiet {
		v, err = v.Step()
	} else {
		v, err = v.StepWith(func(bt.Event[string]) {})
	}
	return v, d.script.log.String(), err
}

// nodeStates is every node's state, a digit each.
func nodeStates(v bt.Stepped[string]) string {
	var b strings.Builder
	for info := range v.Nodes() {
		b.WriteByte('0' + byte(info.State))
	}
	return b.String()
}

// FuzzRestoreStepped restores arbitrary bytes as a stepped version of one
// of the fuzzStepped definitions: never a panic; what restores saves back
// to the same bytes; stepped a few times with the fuzzed answers, Step and
// StepWith call the agent alike and reach the same versions, and every
// version reached saves and restores to the same version.
func FuzzRestoreStepped(f *testing.F) {
	defs := fuzzStepped(f)
	for which, d := range defs {
		for _, answers := range [][]byte{nil, []byte("\x00\x01\x02"), []byte("\x02\x02\x01\x00\x05\x04\x03\x02\x01")} {
			v := d.s
			for i := range 12 {
				b, err := v.MarshalBinary()
				if err != nil {
					f.Fatal(err)
				}
				f.Add(uint8(which), b, answers)
				if v, _, err = d.step(v, answers, true); err != nil {
					f.Fatal(err)
				}
				if i == 6 {
					v = v.Reset()
				}
			}
		}
	}
	f.Add(uint8(0), []byte("BTS\x02"), []byte(nil))
	f.Fuzz(func(t *testing.T, which uint8, data, answers []byte) {
		d := defs[int(which)%len(defs)]
		r, err := d.s.Restore(data)
		if err != nil {
			return
		}
		back, err := r.MarshalBinary()
		if err != nil {
			t.Fatalf("a restored version does not save: %v", err)
		}
		if !bytes.Equal(back, data) {
			t.Fatalf("restored and saved again:\n got %x\nwant %x", back, data)
		}
		for i := range 5 {
			// Each step answers from another point of the answers.
			a := answers
			if len(a) > 0 {
				a = a[i*3%len(a):]
			}
			quiet, qlog, qerr := d.step(r, a, true)
			loud, llog, lerr := d.step(r, a, false)
			if fmt.Sprint(qerr) != fmt.Sprint(lerr) || qlog != llog || nodeStates(quiet) != nodeStates(loud) {
				t.Fatalf("step %d from %s: Step and StepWith differ:\ncalls %s\n   vs %s\nerror %v\n   vs %v\nstates %s\n    vs %s", i, nodeStates(r), qlog, llog, qerr, lerr, nodeStates(quiet), nodeStates(loud))
			}
			if qerr != nil {
				t.Fatalf("step %d: a restored version does not step: %v", i, qerr)
			}
			for _, v := range []bt.Stepped[string]{quiet, loud} {
				saved, err := v.MarshalBinary()
				if err != nil {
					t.Fatalf("step %d: a version reached does not save: %v", i, err)
				}
				again, err := d.s.Restore(saved)
				if err != nil {
					t.Fatalf("step %d from %s: a version reached (%s) does not restore: %v", i, nodeStates(r), nodeStates(v), err)
				}
				if b, _ := again.MarshalBinary(); !bytes.Equal(b, saved) || nodeStates(again) != nodeStates(v) {
					t.Fatalf("step %d: restored %s as %s", i, nodeStates(v), nodeStates(again))
				}
			}
			if !bytes.Equal(mustSave(t, quiet), mustSave(t, loud)) {
				t.Fatalf("step %d from %s: Step and StepWith reach the same states but other extras", i, nodeStates(r))
			}
			r = quiet
		}
	})
}

func mustSave(t *testing.T, v bt.Stepped[string]) []byte {
	t.Helper()
	b, err := v.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}
