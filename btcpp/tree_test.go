package btcpp

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"sync"
	"testing"
	"time"
)

// pureXML uses memory (SequenceWithMemory, RetryUntilSuccessful, Delay,
// Parallel), subtrees and the blackboard; its Go leaves are functions of
// their ports, so a version ticked again must do the same again.
const pureXML = `<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main">
  <SequenceWithMemory>
    <Script code="n := n + 1"/>
    <Parallel success_count="1">
      <Busy v="{n}"/>
      <Delay delay_msec="200"><Inc in="{n}" out="{m}"/></Delay>
    </Parallel>
    <RetryUntilSuccessful num_attempts="3">
      <Odd v="{k}" _post="k := k + 1"/>
    </RetryUntilSuccessful>
    <SubTree ID="Sub" x="{n}"/>
  </SequenceWithMemory>
</BehaviorTree>
<BehaviorTree ID="Sub">
  <Fallback><Odd v="{x}"/><Script code="x += 10"/></Fallback>
</BehaviorTree>
</root>`

// pureFactory registers pureXML's leaves.
func pureFactory(t testing.TB) *Factory {
	f := NewFactory()
	busy := Action{
		OnStart: func(*Call) (Status, error) { return Running, nil },
		OnRunning: func(c *Call) (Status, error) {
			v, err := c.Int("v")
			if err != nil {
				return Idle, err
			}
			if v%3 == 0 {
				return Success, nil
			}
			return Running, nil
		},
	}
	inc := func(c *Call) (Status, error) {
		v, err := c.Int("in")
		if err != nil {
			return Idle, err
		}
		return Success, c.Set("out", v+1)
	}
	odd := func(c *Call) (Status, error) {
		v, err := c.Int("v")
		if err != nil {
			return Failure, nil
		}
		if v%2 == 1 {
			return Success, nil
		}
		return Failure, nil
	}
	for _, err := range []error{
		f.RegisterAction("Busy", busy, InputPort("v", "int")),
		f.RegisterSync("Inc", inc, InputPort("in", "int"), OutputPort("out", "int")),
		f.RegisterCondition("Odd", odd, InputPort("v", "int")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return f
}

// verSnap is what a version shows.
type verSnap struct {
	res    Status
	err    string
	status string
	bb     [][]Entry
}

func takeSnap(v *Tree, res Status, err error) verSnap {
	s := verSnap{res: res, status: v.String()}
	if err != nil {
		s.err = err.Error()
	}
	for i := range v.Scopes() {
		s.bb = append(s.bb, v.Entries(i))
	}
	return s
}

func buildPure(t testing.TB) *Tree {
	doc, err := pureFactory(t).Parse(pureXML)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := doc.Build("", WithEntry("n", 0), WithEntry("k", 0), WithTurnClock(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// TestOldVersionTickedAgain ticks a tree 30 times, then ticks every old
// version again, newest first: each gives the version it gave the first
// time, and no version changed meanwhile.
func TestOldVersionTickedAgain(t *testing.T) {
	versions := []*Tree{buildPure(t)}
	var first []verSnap
	for i := 0; i < 30; i++ {
		next, res, err := versions[i].Tick()
		if err != nil {
			t.Fatalf("tick %d: %v", i, err)
		}
		first = append(first, takeSnap(next, res, err))
		versions = append(versions, next)
	}
	statuses := map[Status]bool{}
	for _, s := range first {
		statuses[s.res] = true
	}
	if len(statuses) < 2 {
		t.Fatalf("the tree always returns %v: the test checks nothing", statuses)
	}
	for i := len(first) - 1; i >= 0; i-- {
		if got := takeSnap(versions[i+1], versions[i+1].Status(), nil); !reflect.DeepEqual(got, first[i]) {
			t.Errorf("version %d changed:\n got  %+v\n want %+v", i+1, got, first[i])
		}
		next, res, err := versions[i].Tick()
		if got := takeSnap(next, res, err); !reflect.DeepEqual(got, first[i]) {
			t.Errorf("tick %d again:\n got  %+v\n want %+v", i, got, first[i])
		}
	}
}

// TestVersionsConcurrently ticks one version from many goroutines: they
// all get the same next version.
func TestVersionsConcurrently(t *testing.T) {
	v := buildPure(t)
	for i := 0; i < 5; i++ {
		v, _, _ = v.Tick()
	}
	want := func() verSnap { n, r, err := v.Tick(); return takeSnap(n, r, err) }()
	var wg sync.WaitGroup
	got := make([]verSnap, 8)
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := v
			var r Status
			var err error
			n, r, err = n.Tick()
			got[g] = takeSnap(n, r, err)
		}()
	}
	wg.Wait()
	for g := range got {
		if !reflect.DeepEqual(got[g], want) {
			t.Errorf("goroutine %d: got %+v, want %+v", g, got[g], want)
		}
	}
}

func TestRegisterErrors(t *testing.T) {
	ok := func(*Call) (Status, error) { return Success, nil }
	for _, c := range []struct {
		name string
		reg  func(f *Factory) error
	}{
		{"built-in ID", func(f *Factory) error { return f.RegisterSync("Sequence", ok) }},
		{"SubTree", func(f *Factory) error { return f.RegisterSync("SubTree", ok) }},
		{"invalid ID", func(f *Factory) error { return f.RegisterSync("a b", ok) }},
		{"empty ID", func(f *Factory) error { return f.RegisterCondition("", ok) }},
		{"duplicate", func(f *Factory) error {
			if err := f.RegisterSync("X", ok); err != nil {
				return nil
			}
			return f.RegisterSync("X", ok)
		}},
		{"port type", func(f *Factory) error { return f.RegisterSync("X", ok, InputPort("p", "float")) }},
		{"port name", func(f *Factory) error { return f.RegisterSync("X", ok, InputPort("_p", "int")) }},
		{"reserved port", func(f *Factory) error { return f.RegisterSync("X", ok, InputPort("name", "int")) }},
		{"two ports", func(f *Factory) error { return f.RegisterSync("X", ok, InputPort("p", "int"), OutputPort("p", "int")) }},
		{"nil OnStart", func(f *Factory) error { return f.RegisterAction("X", Action{}) }},
		{"nil func", func(f *Factory) error { return f.RegisterSync("X", nil) }},
	} {
		var e *Error
		if err := c.reg(NewFactory()); !errors.As(err, &e) {
			t.Errorf("%s: got %v, want an *Error", c.name, err)
		}
	}
}

// TestCallErrors checks the leaf handle: a port that cannot be read, a
// value the blackboard does not hold, and an output the XML does not map.
func TestCallErrors(t *testing.T) {
	f := NewFactory()
	var log []string
	err := f.RegisterSync("Probe", func(c *Call) (Status, error) {
		_, e1 := c.Int("i")
		_, e2 := c.Float("missing")
		e3 := c.Set("o", []int{1})
		e4 := c.Set("unmapped", 3)
		e5 := c.Set("i", 3)
		log = append(log, fmt.Sprintln(e1 != nil, e2 != nil, e3 != nil, e4 == nil, e5 != nil, c.Name(), c.ID(), c.Path(), c.Index()))
		return Success, nil
	}, InputPort("i", "int"), InputPort("missing", "double"), OutputPort("o", "int"), OutputPort("unmapped", "int"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree ID="T"><Probe name="p" i="{nothing}" o="{o}" unmapped="7"/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := doc.Build("")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tree.Tick(); err != nil {
		t.Fatal(err)
	}
	if want := "true true true true true p Probe p 0\n"; len(log) != 1 || log[0] != want {
		t.Errorf("got %q, want %q", log, want)
	}
}

// TestNodesAndScopes checks Nodes, Scopes and Get on a tree with a
// subtree.
func TestNodesAndScopes(t *testing.T) {
	tree := buildPure(t)
	nodes := tree.Nodes()
	if len(nodes) != tree.Len() {
		t.Fatalf("Nodes has %d, Len %d", len(nodes), tree.Len())
	}
	var sub *NodeInfo
	for i := range nodes {
		if nodes[i].ID == "SubTree" {
			sub = &nodes[i]
		}
		if nodes[i].Index != i || nodes[i].UID != i+1 || nodes[i].Parent >= i {
			t.Errorf("node %d: %+v", i, nodes[i])
		}
	}
	if sub == nil || sub.Path != "Sub::"+fmt.Sprint(sub.UID) || sub.Scope != 0 {
		t.Fatalf("the SubTree node: %+v", sub)
	}
	scopes := tree.Scopes()
	if len(scopes) != 2 || scopes[0] != (ScopeInfo{"Main", ""}) || scopes[1] != (ScopeInfo{"Sub", sub.Path}) {
		t.Errorf("scopes %+v", scopes)
	}
	if last := nodes[len(nodes)-1]; last.Scope != 1 {
		t.Errorf("the subtree's last node is in scope %d", last.Scope)
	}
	v, ok := tree.Get("n")
	if i, isInt := v.Int(); !ok || !isInt || i != 0 {
		t.Errorf("Get(n) = %v, %v", v, ok)
	}
	if _, ok := tree.Get("absent"); ok {
		t.Error("Get(absent) found it")
	}
}

// TestTickBudget checks that TickOnce stops at the budget.
func TestTickBudget(t *testing.T) {
	doc, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="T"><Repeat num_cycles="-1"><AlwaysSuccess/></Repeat></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := doc.Build("", WithTickBudget(50))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tree.TickOnce()
	var e *Error
	if !errors.As(err, &e) || e.Type != ErrBudget {
		t.Fatalf("got %v, want a budget error", err)
	}
	next, res, err := tree.Tick()
	if err != nil || res != Running || next.RootTicks() != 1 {
		t.Errorf("Tick: %v %v %d, want RUNNING after one root tick", res, err, next.RootTicks())
	}
}

// TestHalt halts a running tree: the running action gets OnHalted, every
// node's _onHalted runs (in preorder, the root first and twice, as
// haltTree does), every node is IDLE, and the old version is unchanged.
func TestHalt(t *testing.T) {
	f := NewFactory()
	var halted []int
	err := f.RegisterAction("Run", Action{
		OnStart:  func(*Call) (Status, error) { return Running, nil },
		OnHalted: func(c *Call) { halted = append(halted, c.Index()) },
	})
	if err != nil {
		t.Fatal(err)
	}
	doc, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree ID="T">
<Sequence _onHalted="log := log .. 'S'"><AlwaysSuccess _onHalted="log := log .. 'A'"/><Run _onHalted="log := log .. 'R'"/></Sequence>
</BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	v0, err := doc.Build("", WithEntry("log", ""))
	if err != nil {
		t.Fatal(err)
	}
	v1, res, err := v0.Tick()
	if err != nil || res != Running || v1.String() != "RSR" && v1.String() != "RIR" {
		t.Fatalf("tick: %v %v %s", res, err, v1)
	}
	v2, err := v1.Halt()
	if err != nil {
		t.Fatal(err)
	}
	if v2.String() != "III" {
		t.Errorf("after Halt: %s, want III", v2)
	}
	if len(halted) != 1 || halted[0] != 2 {
		t.Errorf("OnHalted calls: %v, want [2]", halted)
	}
	// halt(root): its children reset (Run halted: R), then the root's
	// _onHalted (S); then every node in preorder: S, A, R.
	if log, _ := v2.Get("log"); log.String() != "RSSAR" {
		t.Errorf("_onHalted order: %q, want RSSAR", log.String())
	}
	if log, _ := v1.Get("log"); log.String() != "" || v1.NodeStatus(2) != Running {
		t.Errorf("the old version changed: log %q, %s", log.String(), v1)
	}
}

// BenchmarkTick measures one tick of a 12-node tree with a subtree,
// starting again from the first version every 64 ticks.
func BenchmarkTick(b *testing.B) {
	v0 := buildPure(b)
	v := v0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		next, _, err := v.Tick()
		if err != nil {
			b.Fatal(err)
		}
		v = next
		if i%64 == 63 {
			v = v0 // the first version, as it was
		}
	}
}

// TestClockSaturates: a delta that would overflow the clock leaves it at
// the largest Duration.
func TestClockSaturates(t *testing.T) {
	d, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><Delay delay_msec="10"><AlwaysSuccess/></Delay></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := d.Build("", WithDeltaTime(func() time.Duration { return math.MaxInt64 }))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		tr, _, err = tr.Tick()
		if err != nil {
			t.Fatal(err)
		}
		if c := tr.Clock(); c < 0 {
			t.Fatalf("tick %d: clock %v", i, c)
		}
	}
	if c := tr.Clock(); c != math.MaxInt64 {
		t.Errorf("clock %v, want %v", c, time.Duration(math.MaxInt64))
	}
}

// TestNilAndRange: NodeStatus out of range panics with a precise message;
// Tick on a nil Tree and Build on a nil Document return errors.
func TestNilAndRange(t *testing.T) {
	d, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><AlwaysSuccess/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := d.Build("")
	if err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if r := recover(); r != "btcpp: Tree.NodeStatus: node 7 out of range [0, 1)" {
				t.Errorf("panic %v", r)
			}
		}()
		tr.NodeStatus(7)
	}()
	var nt *Tree
	if _, _, err := nt.Tick(); err == nil {
		t.Error("Tick on a nil Tree: no error")
	}
	var nd *Document
	if _, err := nd.Build(""); err == nil {
		t.Error("Build on a nil Document: no error")
	}
}
