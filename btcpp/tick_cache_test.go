package btcpp

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// cacheOut is what one tick showed: its result and error, the calls it
// made, and the version it made, saved.
type cacheOut struct {
	res   Status
	err   string
	calls string
	save  []byte
	shown string
}

// tickBoth ticks v through the cache, then by the rules, with the same
// answers, and returns both outcomes and the cached next version.
func tickBoth(t *testing.T, lt *lawTree, v *Tree, seed uint64, log *strings.Builder) (*Tree, cacheOut, cacheOut) {
	t.Helper()
	one := func(off bool) (*Tree, cacheOut) {
		tickCacheOff = off
		defer func() { tickCacheOff = false }()
		log.Reset()
		lt.o.at(v, seed)
		var next *Tree
		var res Status
		var err error
		if lt.once {
			next, res, err = v.TickOnce()
		} else {
			next, res, err = v.Tick()
		}
		out := cacheOut{res: res, calls: log.String(), shown: next.String()}
		if err != nil {
			out.err = err.Error()
		}
		data, merr := next.MarshalBinary()
		if merr != nil {
			t.Fatal(merr)
		}
		out.save = data
		return next, out
	}
	next, cached := one(false)
	_, rules := one(true)
	return next, cached, rules
}

// TestCacheSameAsRules: the tick cache makes the same calls and the same
// versions (byte for byte) as the rules, on random closed trees whose Go
// leaves answer at random every status, an error, or a status that is
// none of the five, and whose scripts, SetBlackboard and ports read and
// write the blackboard. Each tree is ticked along a random walk that
// often goes back to older versions, so that the tries are walked, missed
// and extended.
func TestCacheSameAsRules(t *testing.T) {
	o := &oracle{}
	var log strings.Builder
	f := NewFactory()
	answer := func(choices ...Status) LeafFunc {
		return func(c *Call) (Status, error) {
			fmt.Fprintf(&log, "%d,", c.Index())
			s := o.next(choices...)
			switch s {
			case Status(9):
				return Failure, fmt.Errorf("a leaf's error")
			case Status(8):
				if _, err := c.Int("v"); err != nil {
					return Failure, nil
				}
				return Success, nil
			}
			return s, nil
		}
	}
	for _, err := range []error{
		f.RegisterCondition("C", answer(Success, Failure, Success, Failure, Skipped, Running, Idle, Status(7), Status(9))),
		f.RegisterSync("Y", answer(Success, Failure, Success, Failure, Skipped)),
		f.RegisterCondition("R", answer(Status(8), Status(8), Failure), InputPort("v", "int")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	leaves := []string{`<C/>`, `<Y/>`, `<Y/>`, `<R v="{n}"/>`, `<R v="4"/>`, `<AlwaysSuccess/>`, `<AlwaysFailure/>`,
		`<Script code="n := n + 1"/>`, `<Script code="n := 0"/>`, `<SetBlackboard output_key="k" value="v"/>`,
		`<ScriptCondition code="n > 1"/>`, `<C _skipIf="n == 2"/>`, `<Y _onSuccess="m := 1"/>`}
	composites := []string{"Sequence", "Sequence", "Fallback", "Fallback", "ReactiveSequence", "ReactiveFallback",
		"SequenceWithMemory", "AsyncSequence", "Inverter", "ForceSuccess", "KeepRunningUntilFailure",
		`Repeat num_cycles="2"`, `Repeat num_cycles="-1"`, `RetryUntilSuccessful num_attempts="-1"`,
		"IfThenElse", `Parallel success_count="1"`, "ParallelAll"}
	rnd := uint64(77)
	next := func(n int) int {
		rnd ^= rnd << 13
		rnd ^= rnd >> 7
		rnd ^= rnd << 17
		return int(rnd % uint64(n))
	}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth == 0 || next(3) == 0 {
			return leaves[next(len(leaves))]
		}
		c := composites[next(len(composites))]
		name, _, _ := strings.Cut(c, " ")
		kids := 1 + next(3)
		switch name {
		case "Inverter", "ForceSuccess", "KeepRunningUntilFailure", "Repeat", "RetryUntilSuccessful":
			kids = 1
		case "IfThenElse":
			kids = 2 + next(2)
		}
		s := "<" + c + ">"
		for i := 0; i < kids; i++ {
			s += gen(depth - 1)
		}
		return s + "</" + name + ">"
	}
	closed, hits, ticks := 0, 0, 0
	for tree := 0; tree < 300; tree++ {
		src := `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>` + gen(4) + `</Sequence></BehaviorTree></root>`
		doc, err := f.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		v0, err := doc.Build("", WithEntry("n", 0))
		if err != nil {
			t.Fatal(err)
		}
		if v0.p.cache == nil {
			continue
		}
		closed++
		lt := &lawTree{name: src, v0: v0, o: o, once: tree%2 == 1}
		vs := []*Tree{v0}
		v := v0
		for k := 0; k < 60; k++ {
			if next(4) == 0 {
				v = vs[next(len(vs))]
			}
			before := rulesTicks.Load()
			nv, cached, rules := tickBoth(t, lt, v, uint64(next(3)), &log)
			if rulesTicks.Load() == before+1 {
				hits++ // only the rules' own run took the rules
			}
			ticks++
			if !reflect.DeepEqual(cached, rules) {
				t.Fatalf("%s\ntick %d: cache %+v\nrules %+v", src, k+1, cached, rules)
			}
			vs = append(vs, nv)
			v = nv
		}
	}
	t.Logf("%d closed trees of 300, %d of %d ticks answered by the cache", closed, hits, ticks)
	if closed < 100 || hits < ticks/4 {
		t.Errorf("the test reaches the cache too little: %d closed trees, %d hits of %d ticks", closed, hits, ticks)
	}
}

// TestCacheConcurrent: goroutines ticking the versions of one tree at
// once through its cache get what the rules give.
func TestCacheConcurrent(t *testing.T) {
	f := NewFactory()
	byIndex := func(c *Call) (Status, error) {
		return []Status{Success, Failure, Success}[c.Index()%3], nil
	}
	if err := f.RegisterCondition("C", byIndex); err != nil {
		t.Fatal(err)
	}
	src := `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>
	  <Fallback><C/><C/></Fallback>
	  <Repeat num_cycles="-1"><Fallback><C/><Inverter><C/></Inverter><C/></Fallback></Repeat>
	</Sequence></BehaviorTree></root>`
	doc, err := f.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	run := func(v *Tree) []string {
		var out []string
		for i := 0; i < 50; i++ {
			var res Status
			var err error
			if v, res, err = v.Tick(); err != nil {
				t.Error(err)
				return nil
			}
			out = append(out, fmt.Sprint(res, v.String()))
		}
		return out
	}
	v0, err := doc.Build("")
	if err != nil {
		t.Fatal(err)
	}
	if v0.p.cache == nil {
		t.Fatal("the tree is not closed")
	}
	tickCacheOff = true
	want := run(v0)
	tickCacheOff = false
	var wg sync.WaitGroup
	got := make([][]string, 4)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[g] = run(v0)
		}()
	}
	wg.Wait()
	for g := range got {
		if !reflect.DeepEqual(got[g], want) {
			t.Errorf("goroutine %d: %v, want %v", g, got[g], want)
		}
	}
}

// TestClosedProgram: which trees have a tick cache.
func TestClosedProgram(t *testing.T) {
	f := NewFactory()
	noop := func(*Call) (Status, error) { return Success, nil }
	for _, err := range []error{
		f.RegisterSync("S", noop, InputPort("in", "int"), OutputPort("out", "int")),
		f.RegisterAction("A", Action{OnStart: noop}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		body   string
		closed bool
	}{
		{`<S/>`, true},
		{`<S in="{x}"/>`, true},
		{`<S out="3"/>`, true},
		{`<S out="{x}"/>`, false}, // what the leaf writes is not its answer
		{`<A/>`, false},
		{`<Script code="x := x + 1"/>`, true},
		{`<Delay delay_msec="10"><S/></Delay>`, false},
		{`<WasEntryUpdated entry="x"/>`, false},
		{`<Sequence>` + strings.Repeat(`<S/>`, cacheMaxNodes) + `</Sequence>`, false},
	} {
		doc, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree ID="T">` + c.body + `</BehaviorTree></root>`)
		if err != nil {
			t.Fatal(err)
		}
		v, err := doc.Build("", WithEntry("x", 1))
		if err != nil {
			t.Fatal(err)
		}
		if got := v.p.cache != nil; got != c.closed {
			t.Errorf("%s: closed %v, want %v", c.body, got, c.closed)
		}
	}
}

// TestQuietTwinSameAsNew: the versions that ticks return from the ring of
// quiet twins show, save and tick on as the versions allocated anew would,
// on random trees whose Go leaves answer at random (the tick cache off),
// ticked along a walk that goes back to older versions.
func TestQuietTwinSameAsNew(t *testing.T) {
	o := &oracle{}
	f := NewFactory()
	answer := func(choices ...Status) LeafFunc {
		return func(*Call) (Status, error) { return o.next(choices...), nil }
	}
	for _, err := range []error{
		f.RegisterCondition("C", answer(Success, Failure, Running)),
		f.RegisterSync("Y", answer(Success, Failure)),
		f.RegisterAction("A", Action{OnStart: answer(Running, Success), OnRunning: answer(Running, Success, Failure)}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	leaves := []string{`<C/>`, `<Y/>`, `<Y/>`, `<A/>`, `<AlwaysSuccess/>`, `<Script code="n := 1"/>`}
	composites := []string{"Sequence", "Fallback", "ReactiveSequence", "ReactiveFallback", "SequenceWithMemory", "Inverter"}
	rnd := uint64(91)
	next := func(n int) int {
		rnd ^= rnd << 13
		rnd ^= rnd >> 7
		rnd ^= rnd << 17
		return int(rnd % uint64(n))
	}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth == 0 || next(3) == 0 {
			return leaves[next(len(leaves))]
		}
		c := composites[next(len(composites))]
		kids := 1 + next(3)
		if c == "Inverter" {
			kids = 1
		}
		s := "<" + c + ">"
		for i := 0; i < kids; i++ {
			s += gen(depth - 1)
		}
		return s + "</" + c + ">"
	}
	type out struct {
		s         shown
		save      []byte
		status    Status
		rootTicks int
	}
	shared, total := 0, 0
	for tree := 0; tree < 200; tree++ {
		src := `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>` + gen(4) + `</Sequence></BehaviorTree></root>`
		doc, err := f.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		v0, err := doc.Build("", WithEntry("n", 0))
		if err != nil {
			t.Fatal(err)
		}
		lt := &lawTree{name: src, v0: v0, o: o, once: tree%2 == 1}
		run := func(off bool) []out {
			ringOff, tickCacheOff = off, true
			defer func() { ringOff, tickCacheOff = false, false }()
			var outs []out
			vs := []*Tree{v0}
			v := v0
			for k := 0; k < 20; k++ {
				if k%5 == 4 {
					v = vs[k/2]
				}
				nv, s := lt.tickWith(v, uint64(tree)*31+uint64(k%3))
				data, err := nv.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				for _, u := range vs {
					if u == nv && !off {
						shared++
						break
					}
				}
				outs = append(outs, out{s, data, nv.Status(), nv.RootTicks()})
				vs = append(vs, nv)
				v = nv
			}
			return outs
		}
		want, got := run(true), run(false)
		total += len(got)
		for k := range want {
			if !reflect.DeepEqual(want[k], got[k]) {
				t.Fatalf("%s\ntick %d: new %+v, ring %+v", src, k+1, want[k], got[k])
			}
		}
	}
	t.Logf("%d of %d ticks returned a version made before", shared, total)
	if shared < total/10 {
		t.Errorf("only %d of %d ticks returned a version made before", shared, total)
	}
}
