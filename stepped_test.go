package behaviortree

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/testlong"
)

func TestStartRefusesSteppedKinds(t *testing.T) {
	for _, c := range []struct {
		def  Node[string]
		want string
	}{
		{Sequence(Leaf("a"), Wait[string](10*time.Millisecond)), "behaviortree.Start: node 2 (wait): the Value/Succeed/Fail style cannot run it (a stepped kind: use NewStepped)"},
		{Root(Leaf("a")), "behaviortree.Start: node 0 (root): the Value/Succeed/Fail style cannot run it"},
		{Select(Leaf("a").With(attr.While("ok"))), "behaviortree.Start: node 1 (leaf with guards or callbacks): the Value/Succeed/Fail style cannot run it"},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.HasPrefix(s, c.want) {
					t.Errorf("Start(%v) panicked with %v, want %q", c.def, r, c.want)
				}
			}()
			Start(c.def)
		}()
	}
}

func TestNewSteppedRefuses(t *testing.T) {
	ag := Agent[string]{Action: func(string) Result { return ResultSuccess }}
	for _, c := range []struct {
		def  Node[string]
		ag   Agent[string]
		want string
	}{
		{Root(RepeatN(2, Leaf("a"))), ag, "behaviortree.NewStepped: node 1 (repeat_n): the stepped style cannot run it (a Value/Succeed/Fail kind: use Start)"},
		{Root(RepeatUntilFail(Leaf("a"))), ag, "node 1 (repeat_until_fail): the stepped style cannot run it"},
		{Root(Sequence(Leaf("a"), Root(Leaf("b")))), ag, "a root can only be the top"},
		{Root(Condition("c")), ag, "has conditions or guards but the agent has no Condition"},
		{Root(Leaf("a")), Agent[string]{}, "has actions but the agent has no Action"},
		{Root(Leaf("a").With(attr.Exit("x"))), ag, "has exit callbacks but the agent has no Exit"},
	} {
		_, err := NewStepped(c.def, c.ag)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewStepped(%v): %v, want %q", c.def, err, c.want)
		}
	}
	deep := Leaf("a")
	for range maxSteppedDepth {
		deep = Negate(deep)
	}
	if _, err := NewStepped(deep, ag); err == nil || !strings.Contains(err.Error(), "deeper than") {
		t.Errorf("a tree of depth %d: %v", maxSteppedDepth+1, err)
	}
}

func TestConstructorPanicsStepped(t *testing.T) {
	for _, c := range []struct {
		f    func()
		want string
	}{
		{func() { Wait[int](-time.Millisecond) }, "behaviortree.Wait: -1ms is out of range [0, 2147483647 ms]"},
		{func() { Wait[int](300) }, "behaviortree.Wait: 300ns is not a whole number of milliseconds"},
		{func() { Wait[int](1 << 31 * time.Millisecond) }, "behaviortree.Wait: 596h31m23.648s is out of range"},
		{func() { WaitRange[int](0, 1500*time.Microsecond) }, "behaviortree.WaitRange: 1.5ms is not a whole number of milliseconds"},
		{func() { WaitRange[int](2*time.Millisecond, time.Millisecond) }, "behaviortree.Wait: wait: duration minimum 2 is more than maximum 1"},
		{func() { RepeatRange(3, 1, Leaf(1)) }, "behaviortree.Repeat: repeat: iterations minimum 3 is more than maximum 1"},
		{func() { Lotto([]int{1}, Leaf(1), Leaf(2)) }, "behaviortree.Lotto: lotto has 2 children but 1 weights"},
		{func() { Lotto([]int{1, -1}, Leaf(1), Leaf(2)) }, "behaviortree.Lotto: lotto: weights[1] must be >= 0"},
		{func() { Parallel[int]() }, "behaviortree.Parallel: no children"},
		{func() { attr.Entry(1).ThenSucceed() }, "attr.Attr.ThenSucceed: entry is not a guard"},
		{func() { Leaf(1).With(attr.While(1), attr.While(2)) }, "behaviortree.Node.With: two while attributes"},
		{func() { Leaf(1).With(attr.Attr[int]{}) }, "behaviortree.Node.With: zero Attr"},
		{func() { Leaf(1).With(attr.Attr[int]{Kind: 9}) }, "behaviortree.Node.With: unknown attr.Kind 9"},
		{func() { Leaf(1).With(attr.Attr[int]{Kind: attr.KindEntry, Value: 2, SucceedOnAbort: true}) }, "behaviortree.Node.With: SucceedOnAbort on entry, which is not a guard"},
	} {
		func() {
			defer func() {
				r := recover()
				if s, _ := r.(string); !strings.HasPrefix(s, c.want) {
					t.Errorf("panicked with %v, want %q", r, c.want)
				}
			}()
			c.f()
		}()
	}
}

// TestAgentPanics: a panicking agent function or an invalid result is an
// error naming the node, and the previous version stays valid.
func TestAgentPanics(t *testing.T) {
	boom := errors.New("boom")
	mode := ""
	agent := Agent[string]{
		Action: func(v string) Result {
			switch {
			case v == "bad" && mode == "panic":
				panic(boom)
			case v == "bad" && mode == "status":
				return Result{Status: 7}
			case v == "bad" && mode == "async":
				return Result{Status: Success, Async: NewAsync()}
			}
			return ResultSuccess
		},
		Condition: func(string) bool {
			if mode == "guard" {
				panic("guard down")
			}
			return true
		},
	}
	def := Root(Sequence(Leaf("ok"), Leaf("bad").With(attr.While("g"))))
	tr, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ mode, want string }{
		{"panic", "node 3 (bad): action panicked: boom"},
		{"status", "node 3 (bad): action returned an invalid status 7"},
		{"async", "node 3 (bad): action returned an Async result with status success"},
		{"guard", "node 3 (bad): while guard panicked: guard down"},
	} {
		mode = c.mode
		got, err := tr.Step()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.mode, err, c.want)
		}
		if c.mode == "panic" && !errors.Is(err, boom) {
			t.Errorf("the error does not wrap the panic value")
		}
		if got.State() != StateReady || tr.State() != StateReady {
			t.Errorf("%s: versions changed: %v %v", c.mode, got.State(), tr.State())
		}
	}
	mode = ""
	done, err := tr.Step()
	if err != nil || done.State() != StateSucceeded {
		t.Errorf("after the errors, the tree steps to %v, %v", done.State(), err)
	}
}

// TestSteppedPersistence: old versions are untouched by later steps and
// step again to the same versions (own generator, turn clock).
func TestSteppedPersistence(t *testing.T) {
	calls := 0
	agent := Agent[string]{
		Action:    func(string) Result { calls++; return []Result{ResultSuccess, ResultFailure, ResultRunning}[calls%3] },
		Condition: func(string) bool { return calls%4 != 0 },
	}
	def := Root(Repeat(Lotto([]int{1, 0, 3},
		Sequence(Leaf("a"), WaitRange[string](100*time.Millisecond, 900*time.Millisecond)),
		Retry(Leaf("b")).With(attr.Until("enemy")),
		Parallel(Leaf("c"), Wait[string](250*time.Millisecond)))))
	tr, err := NewStepped(def, agent, WithSeed(42), WithTurnClock(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	var versions []Stepped[string]
	var states [][]State
	snapshot := func(s Stepped[string]) []State {
		var out []State
		for info := range s.Nodes() {
			out = append(out, info.State)
		}
		return out
	}
	for range 200 {
		versions = append(versions, tr)
		states = append(states, snapshot(tr))
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	for i, v := range versions {
		if got := snapshot(v); !equalStates(got, states[i]) {
			t.Fatalf("version %d changed: %v, was %v", i, got, states[i])
		}
	}
	// Replaying from version 50 with the same agent answers gives the same versions.
	calls = 49 // not the same calls: just check determinism of the draws on one step
	a, _ := versions[50].Step()
	calls = 49
	b, _ := versions[50].Step()
	if !equalStates(snapshot(a), snapshot(b)) {
		t.Errorf("the same version stepped twice with the same answers differs")
	}
}

func equalStates(a, b []State) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAsyncOldVersion: an old version stepped again behaves as it did,
// whatever was settled since: a look that saw the result pending sees it
// pending again, and the result enters at the first look no version had
// made; an unsettled result keeps the node running without calls.
func TestAsyncOldVersion(t *testing.T) {
	var pending *Async
	calls := 0
	agent := Agent[string]{Action: func(string) Result {
		calls++
		pending = NewAsync()
		return pending.Result()
	}}
	tr, err := NewStepped(Root(Leaf("load")), agent)
	if err != nil {
		t.Fatal(err)
	}
	tr, _ = tr.Step()
	if tr.State() != StateRunning || calls != 1 || pending.ID() != 1 {
		t.Fatalf("state %v after %d calls, id %d", tr.State(), calls, pending.ID())
	}
	still, _ := tr.Step()
	if still.State() != StateRunning || calls != 1 {
		t.Fatalf("unsettled: state %v after %d calls", still.State(), calls)
	}
	if !pending.Fail() || pending.Succeed() {
		t.Fatal("an Async settles once")
	}
	for range 2 {
		again, _ := tr.Step()
		if again.State() != StateRunning || calls != 1 {
			t.Fatalf("settled after its step: the old version stepped again gives %v after %d calls, want RUNNING as before", again.State(), calls)
		}
	}
	for range 2 {
		done, _ := still.Step()
		if done.State() != StateFailed || calls != 1 {
			t.Fatalf("settled: state %v after %d calls", done.State(), calls)
		}
	}
	// The line replayed from tr: the second look sees the result.
	again, _ := tr.Step()
	if done, _ := again.Step(); done.State() != StateFailed {
		t.Fatalf("replayed: %v", done.State())
	}
	// A reset throws the result away: the action is called again.
	again, _ = tr.Reset().Step()
	if again.State() != StateRunning || calls != 2 || pending.ID() != 2 {
		t.Fatalf("after reset: state %v after %d calls, id %d", again.State(), calls, pending.ID())
	}
}

func TestFunctionsAgentUnknownName(t *testing.T) {
	def, err := parseMistreevous([]byte(`[{"type":"root","child":{"type":"sequence","children":[
		{"type":"action","call":"Walk","args":[{"$":"speed"}]},
		{"type":"condition","call":"Near","entry":{"call":"Hello"}}]}}]`))
	if err != nil {
		t.Fatal(err)
	}
	fns := Functions{
		Actions:    map[string]func([]any) Result{"Walk": func(args []any) Result { return ResultSuccess }},
		Conditions: map[string]func([]any) bool{"Near": func([]any) bool { return true }},
	}
	fns.Property = func(name string) any { return 2.5 }
	if _, err := fns.Agent(def); err == nil || !strings.Contains(err.Error(), `node 3 (condition): no entry callback function named "Hello"`) {
		t.Errorf("got %v", err)
	}
	var got []any
	fns.Actions["Walk"] = func(args []any) Result { got = args; return ResultSuccess }
	fns.Callbacks = map[string]func([]any){"Hello": func([]any) {}}
	ag, err := fns.Agent(def)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := NewStepped(def, ag)
	if err != nil {
		t.Fatal(err)
	}
	if tr, err = tr.Step(); err != nil || tr.State() != StateSucceeded || len(got) != 1 || got[0] != 2.5 {
		t.Errorf("step: %v %v, args %v", tr.State(), err, got)
	}
}

func TestParseMistreevousErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`[{"type":"root","child":{"type":"sequence","children":[{"type":"action","call":"A"},{"type":"action","call":"A"},
			{"type":"lotto","weights":[1,2],"children":[{"type":"action","call":"A"},{"type":"action","call":"B"},{"type":"action","call":"C"}]}]}}]`,
			"behaviortree: [0].child.children[2]: lotto has 3 children but 2 weights"},
		{`[{"type":"root","child":{"type":"branch","ref":"X"}}]`, `[0].child: branch to an unknown root "X"`},
		{`[{"type":"root","child":{"type":"branch","ref":"X"}},{"type":"root","id":"X","child":{"type":"branch","ref":"X"}}]`, `[1].child: branch to "X" makes a cycle`},
		{`[{"type":"root","child":{"type":"repeat","iterations":-1,"child":{"type":"action","call":"A"}}}]`, "[0].child.iterations: iterations must be an integer"},
		{`[{"type":"root","child":{"type":"wait","duration":[5,1]}}]`, "[0].child.duration: duration minimum 5 is more than maximum 1"},
		{`[{"type":"root","child":{"type":"action"}}]`, "[0].child: needs a call"},
		{`[{"type":"root","child":{"type":"action","call":"A","args":[[1]]}}]`, "[0].child.args[0]: an argument must be"},
		{`[{"type":"root","child":{"type":"flip"}}]`, "[0].child: flip needs a child"},
		{`[{"type":"root","child":{"type":"sequence","children":[]}}]`, "[0].child.children: sequence needs at least one child"},
		{`[{"type":"root","id":"X","child":{"type":"action","call":"A"}}]`, "no main root"},
		{`[{"type":"root","child":{"type":"action","call":"A","while":{"call":"C","succeedOnAbort":1}}}]`, "[0].child.while.succeedOnAbort: succeedOnAbort must be a boolean"},
		{`[{"type":"root","child":{"type":"action","call":"A","color":"red"}}]`, `[0].child: action has no field "color"`},
		{`[{"type":"root","child":{"type":"branch","ref":"X","while":{"call":"C"}}}]`, "[0].child: branch cannot have attributes"},
		{`[1,`, "invalid JSON"},
	} {
		_, err := parseMistreevous([]byte(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %q", c.in, err, c.want)
		}
	}
	deep := strings.Repeat(`{"type":"flip","child":`, maxMistreevousDepth) + `{"type":"action","call":"A"}` + strings.Repeat("}", maxMistreevousDepth)
	if _, err := parseMistreevous([]byte(`[{"type":"root","child":` + deep + `}]`)); err == nil || !strings.Contains(err.Error(), "deeper than") {
		t.Errorf("deep: %v", err)
	}
	// Branches that double at each level exceed the node limit.
	var b strings.Builder
	b.WriteString(`[{"type":"root","child":{"type":"branch","ref":"R0"}}`)
	for i := range 25 {
		b.WriteString(`,{"type":"root","id":"R` + itoa(i) + `","child":{"type":"sequence","children":[{"type":"branch","ref":"R` + itoa(i+1) + `"},{"type":"branch","ref":"R` + itoa(i+1) + `"}]}}`)
	}
	b.WriteString(`,{"type":"root","id":"R25","child":{"type":"action","call":"A"}}]`)
	if _, err := parseMistreevous([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "more than 1048576 nodes") {
		t.Errorf("doubling: %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestMistreevousRoundTrip(t *testing.T) {
	cases := readMistreevousCorpus(t, "testdata/mistreevous-4.3.1.jsonl.gz")
	// The first 100 cases by default, 300 with BT_LONG=1.
	for _, c := range cases[:testlong.Pick(100, 300)] {
		def, err := parseMistreevous(c.Definition)
		if err != nil {
			t.Fatal(err)
		}
		out, err := marshalMistreevous(def)
		if err != nil {
			t.Fatal(err)
		}
		again, err := parseMistreevous(out)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.ID, err, out)
		}
		out2, _ := marshalMistreevous(again)
		if string(out) != string(out2) {
			t.Fatalf("%s: round trip differs", c.ID)
		}
		// The written form (branches expanded) replays the case too.
		c2 := c
		c2.Definition = out
		if d := runMistreevousCase(&c2, false); d != "" {
			t.Fatalf("%s from the written form: %s", c.ID, d)
		}
	}
}

func TestSteppedString(t *testing.T) {
	d := Root(Sequence(Condition("c"), WaitRange[string](1*time.Millisecond, 5*time.Millisecond), Lotto([]int{0, 2}, Leaf("a"), Leaf("b")).With(attr.While("w")),
		RetryCount(3, Leaf("x")), Parallel(Wait[string](5*time.Millisecond), WaitForever[string]())))
	want := "root(sequence(condition(c), wait[1,5], lotto[0,2](a, b), retry[3](x), parallel(wait[5], wait)))"
	if got := d.String(); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	tr, err := NewStepped(d, Agent[string]{Action: func(string) Result { return ResultRunning }, Condition: func(string) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for info := range tr.Nodes() {
		names = append(names, info.Name)
	}
	if got := strings.Join(names, ","); got != "ROOT,SEQUENCE,c,WAIT 1ms-5ms,LOTTO [0,2],a,b,RETRY 3x,x,PARALLEL,WAIT 5ms,WAIT" {
		t.Errorf("names: %s", got)
	}
}
