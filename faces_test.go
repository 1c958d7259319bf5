package behaviortree_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
)

// facesDef is a stepped tree with counts, a lotto, a wait and a guard, so
// that its versions differ in states, extras and the random state.
func facesDef() bt.Node[string] {
	return bt.Root(bt.Sequence(
		bt.Leaf("a").With(attr.While("c")),
		bt.RepeatCount(2, bt.Lotto([]int{1, 2}, bt.Leaf("b"), bt.Leaf("x"))),
		bt.Wait[string](10*time.Millisecond),
	))
}

// facesAgent answers every action from the script in turn (Success when
// it runs out), writes the count of calls to memory, and holds every
// condition.
func facesAgent(script []bt.Status) bt.Agent[string] {
	n := 0
	return bt.Agent[string]{
		MemoryAction: func(v string, b *bt.Blackboard) bt.Result {
			s := bt.Success
			if n < len(script) {
				s = script[n]
			}
			n++
			b.Set("calls", float64(n))
			return bt.Result{Status: s}
		},
		Condition: func(string) bool { return true },
	}
}

// facesRun steps a new tree of def steps times with the given script and seed.
func facesRun(t *testing.T, def bt.Node[string], script []bt.Status, seed uint64, steps int) []bt.Stepped[string] {
	t.Helper()
	tr, err := bt.NewStepped(def, facesAgent(script), bt.WithSeed(seed), bt.WithTurnClock(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	vs := []bt.Stepped[string]{tr}
	for i := 0; i < steps; i++ {
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, tr)
	}
	return vs
}

// TestSteppedEqual: versions of separate identical runs are Equal, step
// by step; a restored save is Equal to what was saved; versions that
// differ in states, memory, seed or definition are not.
func TestSteppedEqual(t *testing.T) {
	def := facesDef()
	script := []bt.Status{bt.Running, bt.Success, bt.Success, bt.Running, bt.Success}
	a := facesRun(t, def, script, 3, 12)
	b := facesRun(t, def, script, 3, 12)
	for i := range a {
		if !a[i].Equal(b[i]) || !b[i].Equal(a[i]) {
			t.Fatalf("step %d: separate identical runs are not Equal", i)
		}
		if !a[i].Equal(a[i]) {
			t.Fatalf("step %d: a version is not Equal to itself", i)
		}
		s, err := a[i].Save()
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.RestoreStepped(def, facesAgent(nil), bt.WithTurnClock(5*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Equal(a[i]) {
			t.Fatalf("step %d: the restored save is not Equal to the version saved", i)
		}
	}
	differ := 0
	for i := 1; i < len(a); i++ {
		if a[i].NodeStates(nil) == nil {
			t.Fatal("no node states")
		}
		if !a[i].Equal(a[i-1]) {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("no step changed the version")
	}
	if a[1].Equal(a[1].WithMemory(a[0].Memory())) {
		t.Error("versions with different memories are Equal")
	}
	if a[0].Equal(a[0].WithMemory(a[1].Memory())) {
		t.Error("versions with different memories are Equal")
	}
	other := facesRun(t, facesDef(), script, 3, 1)
	if a[0].Equal(other[0]) {
		t.Error("versions of two definitions are Equal")
	}
	seeded := facesRun(t, def, script, 4, 0)
	if a[0].Equal(seeded[0]) {
		t.Error("versions with different random states are Equal")
	}
	failing := facesRun(t, def, []bt.Status{bt.Failure}, 3, 1)
	if a[1].Equal(failing[1]) {
		t.Error("a running and a failed version are Equal")
	}
}

// TestSteppedStatusAndNodeStates: Stepped.Status tells the root's outcome
// as Tree.Status does, and NodeStates gives what NodeState gives, without
// allocating into a long enough buffer.
func TestSteppedStatusAndNodeStates(t *testing.T) {
	for _, script := range [][]bt.Status{
		{bt.Running, bt.Success, bt.Success, bt.Success},
		{bt.Success, bt.Failure},
	} {
		vs := facesRun(t, facesDef(), script, 1, 10)
		ended := 0
		var buf []bt.State
		for i, v := range vs {
			want := bt.Running
			switch v.State() {
			case bt.StateSucceeded:
				want = bt.Success
			case bt.StateFailed:
				want = bt.Failure
			}
			if v.Status() != want {
				t.Errorf("step %d: state %v, Status %v", i, v.State(), v.Status())
			}
			if want != bt.Running {
				ended++
			}
			buf = v.NodeStates(buf)
			for j := range buf {
				if buf[j] != v.NodeState(j) {
					t.Fatalf("step %d: NodeStates[%d] = %v, NodeState %v", i, j, buf[j], v.NodeState(j))
				}
			}
		}
		if ended == 0 {
			t.Errorf("script %v: the tree never ended", script)
		}
		v := vs[len(vs)-1]
		if n := testing.AllocsPerRun(100, func() { buf = v.NodeStates(buf) }); n != 0 {
			t.Errorf("NodeStates with a long enough buffer allocates %v times", n)
		}
	}
	tr := bt.Start(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")))
	if tr.Status() != bt.Running {
		t.Errorf("Start: Status %v", tr.Status())
	}
	if tr = tr.Succeed().Succeed(); tr.Status() != bt.Success {
		t.Errorf("after the root succeeded: Status %v", tr.Status())
	}
}

// savedFingerprint returns the fingerprint in the JSON form of s.
func savedFingerprint[L any](t *testing.T, s bt.Saved[L]) string {
	t.Helper()
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var j struct{ Fingerprint string }
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	return j.Fingerprint
}

// TestFingerprintOfSaves: Node.Fingerprint is what a save of the
// definition carries, in each style.
func TestFingerprintOfSaves(t *testing.T) {
	stepped := []bt.Node[string]{
		bt.Root(bt.Sequence(bt.Leaf("a").With(attr.While("c")), bt.Wait[string](10*time.Millisecond))),
		facesDef(),
		bt.Sequence(bt.Leaf("a"), bt.Retry(bt.Leaf("b"))),
	}
	for _, def := range stepped {
		tr, err := bt.NewStepped(def, facesAgent(nil), bt.WithTurnClock(time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
		s, err := tr.Save()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := savedFingerprint(t, s), fmt.Sprintf("%016x", def.Fingerprint()); got != want {
			t.Errorf("%v: a stepped save carries %s, Fingerprint is %s", def, got, want)
		}
	}
	trees := []bt.Node[string]{
		bt.Sequence(bt.Leaf("a"), bt.RepeatN(2, bt.Leaf("b"))),
		bt.Select(bt.Leaf("a"), bt.Leaf("b")),
		bt.RandomWeighted(bt.WithWeight(3, bt.Leaf("a")), bt.WithWeight(1, bt.Leaf("b"))),
	}
	for _, def := range trees {
		s, err := bt.Start(def, bt.WithSeed(1)).Succeed().Save()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := savedFingerprint(t, s), fmt.Sprintf("%016x", def.Fingerprint()); got != want {
			t.Errorf("%v: a Tree save carries %s, Fingerprint is %s", def, got, want)
		}
	}
}

// TestSteppedEqualAsync: versions waiting for async results are Equal
// when they wait at the same nodes by the same ids, with the same results
// (a restored save, whose Async is another, included), and not when the
// results differ.
func TestSteppedEqualAsync(t *testing.T) {
	def := bt.Root(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")))
	start := func() (bt.Stepped[string], *[]*bt.Async) {
		var as []*bt.Async
		ag := bt.Agent[string]{Action: func(string) bt.Result {
			a := bt.NewAsync()
			as = append(as, a)
			return a.Result()
		}}
		tr, err := bt.NewStepped(def, ag)
		if err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if tr, err = tr.Step(); err != nil {
				t.Fatal(err)
			}
		}
		return tr, &as
	}
	a, aa := start()
	b, ba := start()
	if !a.Equal(b) {
		t.Fatal("two identical runs waiting for an async result are not Equal")
	}
	restore := func(v bt.Stepped[string]) bt.Stepped[string] {
		s, err := v.Save()
		if err != nil {
			t.Fatal(err)
		}
		r, err := s.RestoreStepped(def, bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultSuccess }})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if !restore(a).Equal(a) {
		t.Error("a restored save of a version waiting for a result is not Equal to it")
	}
	(*aa)[0].Succeed()
	if a.Equal(b) {
		t.Error("a version whose result succeeded is Equal to one whose result is pending")
	}
	(*ba)[0].Fail()
	if a.Equal(b) {
		t.Error("a version whose result succeeded is Equal to one whose result failed")
	}
	if !restore(a).Equal(a) || !restore(b).Equal(b) {
		t.Error("a restored save of a version with a settled result is not Equal to it")
	}
}
