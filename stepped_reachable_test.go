package behaviortree

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/testlong"
)

// withStates returns the saved form of t (a fresh version) with the given
// node states, and the extras words set as extras says (node: its two
// words), whether or not the engine can reach them.
func withStates[L any](t *testing.T, tr Stepped[L], states map[int]State, extras map[int][2]uint64) []byte {
	t.Helper()
	v := tr
	p := v.m.p
	w := append([]uint64(nil), v.wordsOf()...)
	for i, st := range states {
		if p.small {
			v.small |= uint64(st) << (2 * uint(i))
		} else {
			w[i>>5] |= uint64(st) << (2 * uint(i&31))
		}
	}
	for i, x := range extras {
		s := p.nodes[i].slot
		w[p.sw+2*s], w[p.sw+2*s+1] = x[0], x[1]
	}
	v.words = wordsFrom(p, w)
	data, err := v.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRestoreUnreachable: Restore refuses states that no steps reach,
// naming the node and what is wrong.
func TestRestoreUnreachable(t *testing.T) {
	const (
		R = StateReady
		U = StateRunning
		S = StateSucceeded
		F = StateFailed
	)
	a, b, c := Leaf("a"), Leaf("b"), Leaf("c")
	cases := []struct {
		name   string
		def    Node[string]
		states map[int]State
		extras map[int][2]uint64
		want   string // in the error
	}{
		{"ready root over succeeded children", Root(Sequence(a, b)), map[int]State{1: S, 2: S, 3: S},
			nil, "node 0 (ROOT) cannot be READY: its child 1 is SUCCEEDED"},
		{"ready root over succeeded reactive children", Root(ReactiveSequence(Negate(a), ReactiveSelect(b, c))), map[int]State{1: S, 2: S, 3: F, 4: S, 5: S},
			nil, "node 0 (ROOT) cannot be READY: its child 1 is SUCCEEDED"},
		{"ready sequence over a running child", Root(Select(Sequence(a, b), c)), map[int]State{0: U, 1: U, 3: U},
			nil, "node 1 (SELECTOR) cannot be RUNNING: its child 2, the one that decides, is READY"},
		{"completed sequence over a running child", Root(Sequence(a, b)), map[int]State{0: S, 1: S, 2: S, 3: U},
			nil, "node 1 (SEQUENCE) cannot be SUCCEEDED: its child 3, the one that decides, is RUNNING"},
		{"running sequence without a running child", Root(Sequence(a, b)), map[int]State{0: U, 1: U, 2: S, 3: S},
			nil, "node 1 (SEQUENCE) cannot be RUNNING: its child 3, the one that decides, is SUCCEEDED"},
		{"sequence gone on after a failure", Root(Sequence(a, b)), map[int]State{0: F, 1: F, 2: F, 3: S},
			nil, "node 1 (SEQUENCE) cannot be FAILED: its child 3, after child 2 that decided, is SUCCEEDED"},
		{"running flip over a completed child", Root(Negate(a)), map[int]State{0: U, 1: U, 2: S},
			nil, "node 1 (FLIP) cannot be RUNNING: its child 2 is SUCCEEDED"},
		{"flip that did not flip", Root(Negate(a)), map[int]State{0: S, 1: S, 2: S},
			nil, "node 1 (FLIP) cannot be SUCCEEDED: its child 2 is SUCCEEDED"},
		{"running condition", Root(Condition("c")), map[int]State{0: U, 1: U},
			nil, "node 1 (c) cannot be RUNNING: a condition completes at its update"},
		{"completed parallel over a running child", Root(Parallel(a, b)), map[int]State{0: S, 1: S, 2: S, 3: U},
			nil, "node 1 (PARALLEL) cannot be SUCCEEDED: 0 children are READY, 1 RUNNING, 1 SUCCEEDED and 0 FAILED (completed, no child runs)"},
		{"running parallel with a ready child", Root(Parallel(a, b)), map[int]State{0: U, 1: U, 2: U},
			nil, "node 1 (PARALLEL) cannot be RUNNING: 1 children are READY"},
		{"running race with a success", Root(Race(a, b)), map[int]State{0: U, 1: U, 2: U, 3: S},
			nil, "(running, but it succeeds at 1 succeeded)"},
		{"running parallel with a failure", Root(Parallel(a, b)), map[int]State{0: U, 1: U, 2: U, 3: F},
			nil, "(running, but it fails at 1 failed)"},
		{"failed race with a success", Root(Race(a, b)), map[int]State{0: F, 1: F, 2: F, 3: S},
			nil, "(failed, which needs 2 failed)"},
		{"succeeded parallel with a failure", Root(Parallel(a, b)), map[int]State{0: S, 1: S, 2: S, 3: F},
			nil, "(succeeded, which needs 2 succeeded)"},
		{"failed all with a success", Root(All(a, b)), map[int]State{0: F, 1: F, 2: F, 3: S},
			nil, "(failed, every child failed)"},
		{"lotto with two children started", Root(Lotto(nil, a, b)), map[int]State{0: U, 1: U, 2: U, 3: S},
			map[int][2]uint64{1: {0, 0}}, "node 1 (LOTTO) cannot be RUNNING: 2 of its 2 children are not READY, not 1"},
		{"lotto running another child than its pick", Root(Lotto(nil, a, b)), map[int]State{0: U, 1: U, 3: U},
			map[int][2]uint64{1: {0, 0}}, "node 1 (LOTTO) cannot be RUNNING: it picked child 0 of its children, but child 1 (node 3) runs"},
		{"running repeat over a failed child", Root(Repeat(a)), map[int]State{0: U, 1: U, 2: F},
			nil, "node 1 (REPEAT) cannot be RUNNING: its child 2 is FAILED"},
		{"repeat forever that succeeded", Root(Repeat(a)), map[int]State{0: S, 1: S, 2: S},
			nil, "node 1 (REPEAT) cannot be SUCCEEDED: it has no count to reach"},
		{"repeat running past its count", Root(RepeatCount(2, a)), map[int]State{0: U, 1: U, 2: U},
			map[int][2]uint64{1: {2, 2}}, "node 1 (REPEAT 2x) cannot be RUNNING: its count 2 reached 2, but its child 2 runs"},
		{"retry stopped on a failure", Root(RetryCount(2, a)), map[int]State{0: S, 1: S, 2: F},
			nil, "node 1 (RETRY 2x) cannot be SUCCEEDED: its child 2 is FAILED"},
		{"failed wait", Root(Wait[string](100 * time.Millisecond)), map[int]State{0: F, 1: F},
			nil, "node 1 (WAIT 100ms) cannot be FAILED: a wait without a guard never fails"},
		{"reactive parallel short of its count", Root(ReactiveParallel(0, 2, a, b)), map[int]State{0: S, 1: S, 2: S, 3: U},
			nil, "node 1 (REACTIVE_PARALLEL) cannot be SUCCEEDED: 1 children succeeded and 0 failed, which make it RUNNING"},
		{"reactive parallel with a ready child", Root(ReactiveParallel(1, 1, a, b)), map[int]State{0: U, 1: U, 2: U},
			nil, "node 1 (REACTIVE_PARALLEL) cannot be RUNNING: 1 of its children are READY"},
		{"empty reactive sequence that failed", Root(ReactiveSequence[string]()), map[int]State{0: F, 1: F},
			nil, "node 1 (REACTIVE_SEQUENCE) cannot be FAILED: it has no children"},
		{"empty inverter that ran", Root(EmptyInverter[string]()), map[int]State{0: S, 1: S},
			nil, "node 1 (EMPTY_INVERTER) cannot be SUCCEEDED: an empty inverter's update fails the step"},
		{"in a big tree", Root(Sequence(bigSeq(40), a)), map[int]State{42: S},
			nil, "node 2 (SEQUENCE) cannot be READY: its child 42 is SUCCEEDED"},
	}
	agent := Agent[string]{Action: func(string) Result { return ResultSuccess }, Condition: func(string) bool { return true }}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := NewStepped(c.def, agent, WithSeed(1))
			if err != nil {
				t.Fatal(err)
			}
			data := withStates(t, tr, c.states, c.extras)
			_, err = tr.Restore(data)
			if err == nil {
				t.Fatalf("Restore accepted the states %v", c.states)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "behaviortree.Stepped.Restore: node ") {
				t.Fatalf("got %q, want it to have %q", err, c.want)
			}
		})
	}
}

// bigSeq is a sequence of n actions.
func bigSeq(n int) Node[string] {
	var kids []Node[string]
	for i := range n {
		kids = append(kids, Leaf(fmt.Sprint("x", i)))
	}
	return Sequence(kids...)
}

// randomSteppedTree draws a definition of every kind the stepped engine
// runs, with guards and callbacks now and then, for
// TestRestoreReachable; names numbers the functions it calls.
func randomSteppedTree(r *rand.Rand, depth int, budget, names *int) Node[Call] {
	name := func(prefix string) Call {
		*names++
		return Call{Name: fmt.Sprint(prefix, *names)}
	}
	*budget--
	var nd Node[Call]
	if depth >= 5 || *budget <= 0 || r.IntN(10) < min(depth, 3) {
		switch x := r.IntN(40); {
		case x < 24:
			nd = Leaf(name("act"))
		case x < 30:
			nd = Condition(name("cond"))
		case x < 33:
			nd = Wait[Call](time.Duration(r.IntN(3)*50) * time.Millisecond)
		case x < 36:
			nd = WaitRange[Call](0, 150*time.Millisecond)
		case x < 38:
			nd = WaitForever[Call]()
		default:
			nd = EmptyInverter[Call]()
		}
	} else {
		kids := func(lo int) []Node[Call] {
			out := make([]Node[Call], lo+r.IntN(4-lo))
			for i := range out {
				out[i] = randomSteppedTree(r, depth+1, budget, names)
			}
			return out
		}
		one := func() Node[Call] { return randomSteppedTree(r, depth+1, budget, names) }
		switch r.IntN(17) {
		case 0:
			nd = Sequence(kids(1)...)
		case 1:
			nd = Select(kids(1)...)
		case 2:
			nd = Parallel(kids(1)...)
		case 3:
			nd = Race(kids(1)...)
		case 4:
			nd = All(kids(1)...)
		case 5:
			k := kids(1)
			var ws []int
			if r.IntN(2) == 0 {
				for range k {
					ws = append(ws, r.IntN(3))
				}
			}
			nd = Lotto(ws, k...)
		case 6:
			nd = []Node[Call]{Repeat(one()), RepeatCount(r.IntN(3), one()), RepeatRange(0, 3, one())}[r.IntN(3)]
		case 7:
			nd = []Node[Call]{Retry(one()), RetryCount(r.IntN(3), one()), RetryRange(1, 3, one())}[r.IntN(3)]
		case 8:
			nd = Negate(one())
		case 9:
			nd = AlwaysSucceed(one())
		case 10:
			nd = AlwaysFail(one())
		case 11, 12:
			nd = ReactiveSequence(kids(0)...)
		case 13, 14:
			nd = ReactiveSelect(kids(0)...)
		default:
			nd = ReactiveParallel(r.IntN(5)-1, r.IntN(5)-1, kids(0)...)
		}
	}
	var as []attr.Attr[Call]
	if r.IntN(6) == 0 {
		g := attr.While(name("while"))
		if r.IntN(2) == 0 {
			g = attr.Until(name("until"))
		}
		if r.IntN(3) == 0 {
			g = g.ThenSucceed()
		}
		as = append(as, g)
	}
	if r.IntN(10) == 0 {
		as = append(as, []attr.Attr[Call]{attr.Entry(name("entry")), attr.OnStep(name("step")), attr.Exit(name("exit"))}[r.IntN(3)])
	}
	if len(as) > 0 {
		nd = nd.With(as...)
	}
	return nd
}

// stepsSaveAndRestore steps def with random answers from seed (actions
// that succeed, fail, run or give an async result; conditions and guards
// that hold or not), by Step and by StepWith in turn, with resets now and
// then, and checks that every version reached saves and restores to the
// same version, and that Step and StepWith go on alike from it. It
// returns the number of versions restored.
func stepsSaveAndRestore(t *testing.T, what string, def Node[Call], seed uint64, steps int) int {
	t.Helper()
	x := seed | 1
	var log strings.Builder
	agent, err := quietAgent(def, &x, &log)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	tr, err := NewStepped(def, agent, WithTurnClock(50*time.Millisecond), WithSeed(seed))
	if err != nil {
		return 0 // deeper than the engine runs, or another kind it refuses
	}
	r := rand.New(rand.NewPCG(seed, 1))
	restored := 0
	for step := range steps {
		data, err := tr.MarshalBinary()
		if err == nil {
			back, err := tr.Restore(data)
			if err != nil {
				t.Fatalf("%s, seed %d, step %d: a reached version does not restore: %v\n%s", what, seed, step, err, def)
			}
			again, _ := back.MarshalBinary()
			if !bytes.Equal(again, data) {
				t.Fatalf("%s, seed %d, step %d: restored and saved again: %x, want %x", what, seed, step, again, data)
			}
			restored++
			// From the restored version, Step and StepWith call the agent
			// alike and reach the same version.
			saved := x
			log.Reset()
			quiet, errQ := back.Step()
			logQ := log.String()
			x = saved
			log.Reset()
			loud, errL := back.StepWith(func(Event[Call]) {})
			if logL := log.String(); logL != logQ || fmt.Sprint(errQ) != fmt.Sprint(errL) || steppedStates(quiet) != steppedStates(loud) {
				t.Fatalf("%s, seed %d, step %d: Step and StepWith differ:\ncalls %s\n   vs %s\nerror %v vs %v\nstates %s vs %s\n%s", what, seed, step, logQ, logL, errQ, errL, steppedStates(quiet), steppedStates(loud), def)
			}
			x = saved
		}
		var next Stepped[Call]
		err = nil
		switch k := r.IntN(20); {
		case k == 0:
			next = tr.Reset()
		case k < 10:
			next, err = tr.Step()
		default:
			next, err = tr.StepWith(func(Event[Call]) {})
		}
		if err != nil {
			if errors.Is(err, ErrEmptyInverter) {
				next = tr.Reset()
			} else {
				t.Fatalf("%s, seed %d, step %d: %v", what, seed, step, err)
			}
		}
		tr = next
	}
	return restored
}

// steppedStates is every node's state, a digit each, and the saved form.
func steppedStates(v Stepped[Call]) string {
	var b strings.Builder
	for i := range v.size() {
		b.WriteByte('0' + byte(v.NodeState(i)))
	}
	if data, err := v.MarshalBinary(); err == nil {
		fmt.Fprintf(&b, " %x", data)
	}
	return b.String()
}

// TestRestoreReachable: the reachability check of Restore refuses no
// version that steps reach, in random trees of every kind, the MDSL
// examples and the trees of the Mistreevous corpus, with random answers.
// RESTORE_REACHABLE_SEEDS sets how many random trees it steps (default
// 2000, 200 with -short).
func TestRestoreReachable(t *testing.T) {
	// By default a sample: 300 random trees, 5 seeds of each MDSL file
	// and every 5th Mistreevous case; BT_LONG=1 runs them all.
	seeds := testlong.Pick(300, 2000)
	if testing.Short() {
		seeds = 200
	}
	if s := os.Getenv("RESTORE_REACHABLE_SEEDS"); s != "" {
		fmt.Sscan(s, &seeds)
	}
	total := 0
	for seed := range uint64(seeds) {
		r := rand.New(rand.NewPCG(seed, 2))
		budget, names := 2+r.IntN(60), 0
		def := Root(randomSteppedTree(r, 0, &budget, &names))
		total += stepsSaveAndRestore(t, fmt.Sprint("random tree ", seed), def, seed, 60)
	}
	files, _ := filepath.Glob("testdata/mdsl/*.mdsl")
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		def, err := parseMDSL(file, src)
		if err != nil {
			continue // bad.mdsl
		}
		for seed := range uint64(testlong.Pick(5, 20)) {
			total += stepsSaveAndRestore(t, file, def, seed, 60)
		}
	}
	cases := readMistreevousCorpus(t, mistreevousCorpus())
	for i := 0; i < len(cases); i += testlong.Stride(5) {
		def, err := parseMistreevous(cases[i].Definition)
		if err != nil {
			continue
		}
		for seed := range uint64(3) {
			total += stepsSaveAndRestore(t, "mistreevous case "+cases[i].ID, def, seed, 40)
		}
	}
	t.Logf("%d reached versions saved and restored", total)
}

// TestRestoreLongCounts: Restore refuses a count written in more bytes
// than MarshalBinary writes it in, which would not save back to the same
// bytes (the case FuzzRestoreStepped found: no words as 0x80 0x00).
func TestRestoreLongCounts(t *testing.T) {
	tr, err := NewStepped(Root(Leaf("a")), Agent[string]{Action: func(string) Result { return ResultRunning }})
	if err != nil {
		t.Fatal(err)
	}
	data, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Restore(data); err != nil {
		t.Fatal(err)
	}
	// magic, fingerprint, node count (1 byte), states (8), word count (1).
	if len(data) != 4+8+1+8+1 {
		t.Fatalf("saved %d bytes: %x", len(data), data)
	}
	long := func(at int) []byte {
		d := append([]byte(nil), data[:at]...)
		d = append(d, data[at]|0x80, 0)
		return append(d, data[at+1:]...)
	}
	for _, c := range []struct {
		at   int
		want string
	}{{12, "damaged node count"}, {21, "damaged word count"}} {
		if _, err := tr.Restore(long(c.at)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("count at %d in two bytes: got %v, want %q", c.at, err, c.want)
		}
	}
}
