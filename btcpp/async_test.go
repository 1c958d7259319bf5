package btcpp

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// asyncXML runs an action that waits for an Async under a reactive
// sequence whose condition reads the entry keep, then a second action.
const asyncXML = `<root BTCPP_format="4">
<BehaviorTree ID="Main">
  <ReactiveSequence>
    <ScriptCondition code="keep == 1"/>
    <Sequence>
      <Wait/>
      <Done/>
    </Sequence>
  </ReactiveSequence>
</BehaviorTree>
</root>`

// waitNode is the Wait action's preorder index in asyncXML.
const waitNode = 3

// asyncRig counts the calls of asyncXML's leaves and keeps the Asyncs
// that Wait awaits, in the order of its starts.
type asyncRig struct {
	mu                         sync.Mutex
	asyncs                     []*bt.Async
	starts, runnings, halts, d int
}

// last returns the Async of Wait's last start.
func (r *asyncRig) last() *bt.Async {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.asyncs[len(r.asyncs)-1]
}

// build builds asyncXML with keep set to 1.
func (r *asyncRig) build(t testing.TB) *Tree {
	t.Helper()
	f := NewFactory()
	err := f.RegisterAction("Wait", Action{
		OnStart: func(c *Call) (Status, error) {
			a := bt.NewAsync()
			r.mu.Lock()
			r.starts++
			r.asyncs = append(r.asyncs, a)
			r.mu.Unlock()
			return c.Await(a)
		},
		OnRunning: func(*Call) (Status, error) {
			r.mu.Lock()
			r.runnings++
			r.mu.Unlock()
			return Running, nil
		},
		OnHalted: func(*Call) {
			r.mu.Lock()
			r.halts++
			r.mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.RegisterSync("Done", func(*Call) (Status, error) {
		r.mu.Lock()
		r.d++
		r.mu.Unlock()
		return Success, nil
	}); err != nil {
		t.Fatal(err)
	}
	doc, err := f.Parse(asyncXML)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := doc.Build("Main", WithEntry("keep", 1))
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// mustTick ticks v and fails the test on error.
func mustTick(t testing.TB, v *Tree) (*Tree, Status) {
	t.Helper()
	next, res, err := v.Tick()
	if err != nil {
		t.Fatal(err)
	}
	return next, res
}

// pending returns the nodes of v.Pending.
func pending(v *Tree) []int {
	var ns []int
	for n := range v.Pending() {
		ns = append(ns, n)
	}
	return ns
}

// TestAwaitStepSettleStep: the action's start takes the Async; ticks
// before the settlement stay RUNNING without calling OnRunning; the tick
// after it completes the action with the settlement's result.
func TestAwaitStepSettleStep(t *testing.T) {
	for _, settle := range []struct {
		name string
		do   func(*bt.Async) bool
		want Status
	}{{"succeed", (*bt.Async).Succeed, Success}, {"fail", (*bt.Async).Fail, Failure}} {
		r := &asyncRig{}
		v, res := mustTick(t, r.build(t))
		a := r.last()
		if res != Running || a.ID() != 1 {
			t.Fatalf("%s: first tick: %v, id %d; want RUNNING, 1", settle.name, res, a.ID())
		}
		if ns := pending(v); len(ns) != 1 || ns[0] != waitNode {
			t.Fatalf("%s: pending nodes %v, want [%d]", settle.name, ns, waitNode)
		}
		if got, ok := v.Async(1); !ok || got != a {
			t.Fatalf("%s: Async(1) = %p, %v; want the Async taken", settle.name, got, ok)
		}
		v, res = mustTick(t, v)
		if res != Running {
			t.Fatalf("%s: tick before the settlement: %v", settle.name, res)
		}
		settle.do(a)
		v, res = mustTick(t, v)
		if res != settle.want || r.runnings != 0 || r.starts != 1 {
			t.Errorf("%s: tick after: %v, OnRunning %d times, OnStart %d; want %v, 0, 1", settle.name, res, r.runnings, r.starts, settle.want)
		}
		if wantDone := map[Status]int{Success: 1, Failure: 0}[settle.want]; r.d != wantDone {
			t.Errorf("%s: Done ran %d times, want %d", settle.name, r.d, wantDone)
		}
		if ns := pending(v); len(ns) != 0 {
			t.Errorf("%s: still pending: %v", settle.name, ns)
		}
		if _, ok := v.Async(1); ok {
			t.Errorf("%s: Async(1) found after completion", settle.name)
		}
	}
	var none *Tree
	if _, ok := none.Async(1); ok || len(pending(none)) != 0 {
		t.Error("a nil Tree waits for an Async")
	}
}

// TestAwaitKeptVersionsReplay: versions kept from before the settlement,
// ticked again, see it pending at the looks that had seen it pending and
// then the result, as the root package's Async says; the kept versions do
// not change.
func TestAwaitKeptVersionsReplay(t *testing.T) {
	r := &asyncRig{}
	v1, _ := mustTick(t, r.build(t)) // takes the Async
	a := r.last()
	v2, _ := mustTick(t, v1) // look 1: pending
	v3, _ := mustTick(t, v2) // look 2: pending
	a.Succeed()
	v4, res := mustTick(t, v3) // look 3: the result
	if res != Success {
		t.Fatalf("the tick after the settlement: %v", res)
	}
	// Ticked again, v1 sees looks 1 and 2 pending, then 3 settled.
	w, res := mustTick(t, v1)
	for i, want := range []Status{Running, Running, Success} {
		if i > 0 {
			w, res = mustTick(t, w)
		}
		if res != want {
			t.Errorf("v1 ticked again, tick %d: %v, want %v", i+1, res, want)
		}
	}
	if _, res := mustTick(t, v3); res != Success {
		t.Errorf("v3 ticked again: %v, want SUCCESS (look 3 saw the result)", res)
	}
	for i, v := range []*Tree{v1, v2, v3} {
		if ns := pending(v); len(ns) != 1 || v.String() != v1.String() {
			t.Errorf("kept version %d changed: %s, pending %v", i+1, v.String(), ns)
		}
	}
	if len(pending(v4)) != 0 || r.starts != 1 {
		t.Errorf("v4 pending %v, starts %d", pending(v4), r.starts)
	}
}

// TestAwaitConcurrentLooks ticks one version from many goroutines while
// another settles its Async: every tick of the same look gives the same
// result, and a later tick of the line sees the settlement.
func TestAwaitConcurrentLooks(t *testing.T) {
	for round := 0; round < 20; round++ {
		r := &asyncRig{}
		v1, _ := mustTick(t, r.build(t))
		a := r.last()
		results := make([]Status, 16)
		var wg sync.WaitGroup
		for g := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, res, err := v1.Tick()
				if err != nil {
					t.Error(err)
				}
				results[g] = res
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.Succeed()
		}()
		wg.Wait()
		for g, res := range results {
			if res != results[0] {
				t.Fatalf("round %d: goroutine %d saw %v, goroutine 0 %v", round, g, res, results[0])
			}
		}
		v, res := mustTick(t, v1)
		if res != results[0] {
			t.Fatalf("round %d: v1 ticked once more: %v, want %v", round, res, results[0])
		}
		if res == Running {
			if _, res = mustTick(t, v); res != Success {
				t.Fatalf("round %d: the tick after: %v", round, res)
			}
		}
	}
}

// TestAwaitHalt: a halt throws the Async away and calls OnHalted: a
// reactive sequence whose condition fails, and Tree.Halt.
func TestAwaitHalt(t *testing.T) {
	r := &asyncRig{}
	v1, _ := mustTick(t, r.build(t))
	a := r.last()
	v, err := v1.SetEntry(0, "keep", IntValue(0, "int"))
	if err != nil {
		t.Fatal(err)
	}
	v, res := mustTick(t, v)
	if res != Failure || r.halts != 1 {
		t.Fatalf("condition failed: %v, OnHalted %d times; want FAILURE, 1", res, r.halts)
	}
	if ns := pending(v); len(ns) != 0 || v.pend != nil {
		t.Errorf("after the halt: pending %v, list %v", ns, v.pend)
	}
	a.Succeed()
	v, err = v.SetEntry(0, "keep", IntValue(1, "int"))
	if err != nil {
		t.Fatal(err)
	}
	v, res = mustTick(t, v)
	if res != Running || r.starts != 2 || r.last() == a {
		t.Errorf("restarted: %v, %d starts; want RUNNING, a new Async", res, r.starts)
	}
	if b, ok := v.Async(2); !ok || b != r.last() {
		t.Errorf("the new Async is not id 2: %v", ok)
	}
	// v1 still waits for a.
	if got, ok := v1.Async(1); !ok || got != a {
		t.Error("the kept version lost its Async")
	}
	h, err := v.Halt()
	if err != nil {
		t.Fatal(err)
	}
	if len(pending(h)) != 0 || r.halts != 2 {
		t.Errorf("Tree.Halt: pending %v, OnHalted %d times", pending(h), r.halts)
	}
}

// TestAwaitSaveRestore: a pending Async is saved by its id and settled
// through the restored version; a result settled before the save keeps
// the looks that saw it pending.
func TestAwaitSaveRestore(t *testing.T) {
	r := &asyncRig{}
	v0 := r.build(t)
	v1, _ := mustTick(t, v0)
	v2, _ := mustTick(t, v1)
	id := r.last().ID()
	data, err := v2.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	again := (&asyncRig{}).build(t)
	rv, err := again.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	b, ok := rv.Async(id)
	if !ok || b == r.last() || b.ID() != id {
		t.Fatalf("restored: Async(%d) = %v, a new one of that id expected", id, ok)
	}
	if out, err := rv.MarshalBinary(); err != nil || !bytes.Equal(out, data) {
		t.Errorf("saved again: %v, same bytes %v", err, bytes.Equal(out, data))
	}
	w, res := mustTick(t, rv)
	if res != Running {
		t.Errorf("restored, not settled: %v", res)
	}
	b.Fail()
	if _, res := mustTick(t, w); res != Failure {
		t.Errorf("restored, settled: %v, want FAILURE", res)
	}
	// rv's own next look had seen it pending: it still does.
	if _, res := mustTick(t, rv); res != Running {
		t.Errorf("restored version ticked again: %v, want RUNNING", res)
	}

	// Settled after v2's look 1 saw it pending and v3's look 2 saw it
	// done: v1 saved and restored sees it pending once, then done.
	r.last().Succeed()
	if _, res := mustTick(t, v2); res != Success {
		t.Fatalf("v2's tick after the settlement: %v", res)
	}
	data, err = v1.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	rv, err = v0.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	w, res = mustTick(t, rv)
	if res != Running {
		t.Errorf("restored v1, first tick: %v, want RUNNING", res)
	}
	if _, res := mustTick(t, w); res != Success {
		t.Errorf("restored v1, second tick: %v, want SUCCESS", res)
	}
	// The id count goes on from the save.
	rv2, err := v0.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	if rv2.ids != v1.ids || rv2.ids == 0 {
		t.Errorf("restored last id %d, saved %d", rv2.ids, v1.ids)
	}
}

// TestAwaitRestoreErrors: an async section naming a node that is not a
// running action, or an id above the last, is refused at its byte.
func TestAwaitRestoreErrors(t *testing.T) {
	r := &asyncRig{}
	v0 := r.build(t)
	v1, _ := mustTick(t, v0)
	data, err := v1.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The section is the last 5 bytes: last id 1, 1 entry, node 3, id 1,
	// pending.
	sec := len(data) - 5
	if !bytes.Equal(data[sec:], []byte{1, 1, waitNode, 1, 0}) {
		t.Fatalf("the async section is % x", data[sec:])
	}
	for _, c := range []struct {
		at  int
		b   byte
		msg string
	}{
		{sec + 2, 2, "not a running stateful action"},
		{sec + 3, 2, "above the last id"},
		{sec + 4, 3, "result 3"},
		{sec, 0, "last id is 0"},
	} {
		d := bytes.Clone(data)
		d[c.at] = c.b
		_, err := v0.Restore(d)
		var se *StateError
		if !errors.As(err, &se) || se.Offset != c.at || !bytes.Contains([]byte(se.Msg), []byte(c.msg)) {
			t.Errorf("byte %d set to %d: %v, want a *StateError at that byte saying %q", c.at, c.b, err, c.msg)
		}
	}
}

// TestAwaitErrors: Await outside a stateful action's OnStart or
// OnRunning, twice, with nil, or followed by a status other than RUNNING
// is a LogicError, and nothing is taken.
func TestAwaitErrors(t *testing.T) {
	cases := map[string]func(f *Factory) error{
		"sync": func(f *Factory) error {
			return f.RegisterSync("Leaf", func(c *Call) (Status, error) { return c.Await(bt.NewAsync()) })
		},
		"condition": func(f *Factory) error {
			return f.RegisterCondition("Leaf", func(c *Call) (Status, error) { return c.Await(bt.NewAsync()) })
		},
		"nil": func(f *Factory) error {
			return f.RegisterAction("Leaf", Action{OnStart: func(c *Call) (Status, error) { return c.Await(nil) }})
		},
		"twice": func(f *Factory) error {
			return f.RegisterAction("Leaf", Action{OnStart: func(c *Call) (Status, error) {
				c.Await(bt.NewAsync())
				return c.Await(bt.NewAsync())
			}})
		},
		"success after": func(f *Factory) error {
			return f.RegisterAction("Leaf", Action{OnStart: func(c *Call) (Status, error) {
				c.Await(bt.NewAsync())
				return Success, nil
			}})
		},
	}
	for name, reg := range cases {
		f := NewFactory()
		if err := reg(f); err != nil {
			t.Fatal(err)
		}
		doc, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><Leaf/></BehaviorTree></root>`)
		if err != nil {
			t.Fatal(err)
		}
		v, err := doc.Build("M")
		if err != nil {
			t.Fatal(err)
		}
		nv, _, err := v.Tick()
		var e *Error
		found := false
		for err != nil {
			if errors.As(err, &e) && e.Type == LogicError {
				found = true
				break
			}
			err = errors.Unwrap(err)
		}
		if !found {
			t.Errorf("%s: %v, want a LogicError", name, err)
		}
		if nv.ids != 0 || nv.pend != nil {
			t.Errorf("%s: an Async was taken", name)
		}
	}
}

// TestAwaitNoTickCache: a tree with a stateful action has no tick cache
// (its ticks depend on what its Asyncs are), so every tick takes the
// rules; and a tick that only looks makes a new version, not a twin of
// the one before.
func TestAwaitNoTickCache(t *testing.T) {
	r := &asyncRig{}
	v := r.build(t)
	if v.p.cache != nil {
		t.Fatal("a tree with a stateful action has a tick cache")
	}
	before := rulesTicks.Load()
	v1, _ := mustTick(t, v)
	v2, _ := mustTick(t, v1)
	if n := rulesTicks.Load() - before; n < 2 {
		t.Errorf("%d ticks by the rules, want 2", n)
	}
	if v2 == v1 || v2.pend == v1.pend || v2.pend.looks != 1 || v1.pend.looks != 0 {
		t.Errorf("a look made no new version: looks %d then %d", v1.pend.looks, v2.pend.looks)
	}
}

// asyncSaves returns a first version of asyncXML and saves of its
// versions with async results: pending (one look made or none), settled
// with one look still pending, and completed.
func asyncSaves(t testing.TB) (*Tree, [][]byte) {
	r := &asyncRig{}
	v0 := r.build(t)
	v1, _ := mustTick(t, v0)
	v2, _ := mustTick(t, v1)
	var out [][]byte
	save := func(v *Tree) {
		data, err := v.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	save(v1)
	save(v2)
	r.last().Succeed()
	v3, _ := mustTick(t, v2)
	save(v1)
	save(v3)
	return v0, out
}

// TestAsyncFuzzSeed checks that the fuzz corpus holds the saves of
// asyncSaves: a pending result and a settled one with a look to go.
func TestAsyncFuzzSeed(t *testing.T) {
	_, saves := asyncSaves(t)
	for i, name := range []string{"async-pending", "async-settled"} {
		want := saves[2*i]
		b, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzRestore", name))
		if err != nil {
			t.Fatal(err)
		}
		if os.Getenv("BTCPP_WRITE_SEEDS") != "" {
			b = []byte(fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", want))
			if err := os.WriteFile(filepath.Join("testdata", "fuzz", "FuzzRestore", name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", want); string(b) != got {
			t.Errorf("%s: the seed is not the save of asyncSaves (BTCPP_WRITE_SEEDS=1 writes it)", name)
		}
	}
}
