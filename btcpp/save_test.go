package btcpp

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
	"time"
)

// timedXML uses the nodes whose state pureXML leaves out: a Loop node's
// working list, timers that are armed (Sleep, Timeout), the write
// counters of the entry-updated nodes, RunOnce's result, a Switch and
// TryCatch's counters, and a NodeStatus value on the blackboard.
const timedXML = `<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main">
  <Parallel success_count="2" failure_count="4">
    <LoopInt queue="1;2;3;4;5;6;7" value="{v}"><Sleep msec="250"/></LoopInt>
    <Timeout msec="700"><KeepRunningUntilFailure><SkipUnlessUpdated entry="v"><Sequence><Script code="seen := v; st := 'RUNNING'"/><Sleep msec="100"/></Sequence></SkipUnlessUpdated></KeepRunningUntilFailure></Timeout>
    <KeepRunningUntilFailure><Sequence><RunOnce then_skip="false"><AlwaysSuccess/></RunOnce><WasEntryUpdated entry="seen"/><Switch2 variable="{st}" case_1="RUNNING" case_2="IDLE"><Sleep msec="100"/><AlwaysSuccess/><AlwaysSuccess/></Switch2></Sequence></KeepRunningUntilFailure>
    <TryCatch><AlwaysSuccess/><Sleep msec="300"/><AlwaysFailure/></TryCatch>
  </Parallel>
</BehaviorTree>
</root>`

// saveTrees returns the trees the save tests tick: pureXML and timedXML,
// each on a turn clock.
func saveTrees(t testing.TB) []*Tree {
	pure := buildPure(t)
	doc, err := NewFactory().Parse(timedXML)
	if err != nil {
		t.Fatal(err)
	}
	timed, err := doc.Build("", WithTurnClock(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	return []*Tree{pure, timed}
}

// versionsOf returns v and the versions of n ticks after it (ticks that
// fail end the list).
func versionsOf(v *Tree, n int) []*Tree {
	out := []*Tree{v}
	for i := 0; i < n; i++ {
		next, _, err := v.Tick()
		out = append(out, next)
		if err != nil {
			break
		}
		v = next
	}
	return out
}

// sameVersion reports how two versions differ in what they show, or "".
func sameVersion(a, b *Tree) string {
	switch {
	case a.String() != b.String():
		return "statuses " + a.String() + " and " + b.String()
	case a.Status() != b.Status() || a.RootTicks() != b.RootTicks() || a.ticked != b.ticked || a.Clock() != b.Clock():
		return "status, root executions, ticks or clock"
	case a.wake != b.wake || a.armSeq != b.armSeq || !a.wall.Equal(b.wall):
		return "wake-up flag, timers or wall time"
	case !reflect.DeepEqual(a.bb.dump(), b.bb.dump()):
		return "blackboard"
	}
	if !reflect.DeepEqual(a.st, b.st) {
		return "node states"
	}
	if len(a.ext) != len(b.ext) {
		return "node extras"
	}
	for i := range a.ext {
		x, y := a.ext[i], b.ext[i]
		if len(x.list) == 0 && len(y.list) == 0 {
			x.list, y.list = nil, nil
		}
		if !reflect.DeepEqual(x, y) {
			return "node extras"
		}
	}
	for s := range a.bb.scopes {
		for i, e := range a.bb.scopes[s].entries {
			if e.seq != b.bb.scopes[s].entries[i].seq {
				return "write counters"
			}
		}
	}
	return ""
}

// TestSaveRestore saves every version of 40 ticks of each tree, restores
// it on the first version and on a tree built again, and checks that the
// restored version equals the saved one, saves to the same bytes, and
// ticks on as it does for 5 ticks.
func TestSaveRestore(t *testing.T) {
	kinds := map[byte]bool{}
	for ti, v0 := range saveTrees(t) {
		for i, v := range versionsOf(v0, 40) {
			data, err := v.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			for j := 12; j < len(data); j++ {
				kinds[data[j]] = true
			}
			r, err := v0.Restore(data)
			if err != nil {
				t.Fatalf("tree %d, version %d: %v", ti, i, err)
			}
			if d := sameVersion(v, r); d != "" {
				t.Fatalf("tree %d, version %d: the restored version differs: %s", ti, i, d)
			}
			again, err := r.MarshalBinary()
			if err != nil || !bytes.Equal(again, data) {
				t.Fatalf("tree %d, version %d: saved again: %v, same bytes %v", ti, i, err, bytes.Equal(again, data))
			}
			a, b := versionsOf(v, 5), versionsOf(r, 5)
			if len(a) != len(b) {
				t.Fatalf("tree %d, version %d: %d and %d ticks", ti, i, len(a), len(b))
			}
			for k := range a {
				if d := sameVersion(a[k], b[k]); d != "" {
					t.Fatalf("tree %d, version %d, tick %d after: %s", ti, i, k, d)
				}
			}
		}
	}
	// The timed tree saves lists, deadlines and write counters: its saves
	// hold many distinct bytes (a weak check that the fields are there).
	if len(kinds) < 30 {
		t.Errorf("the saves hold only %d distinct bytes", len(kinds))
	}
}

// TestSaveFields checks that the saves of the timed tree hold every field
// of a node's state at least once, and the wake-up flag.
func TestSaveFields(t *testing.T) {
	v0 := saveTrees(t)[1]
	var seen nodeState
	var seenX nodeExt
	wake := false
	for _, v := range versionsOf(v0, 40) {
		for _, s := range v.st {
			seen.status |= s.status
			seen.last |= s.last
			seen.flags |= s.flags
			seen.a |= s.a
			seen.b |= s.b
		}
		for _, x := range v.ext {
			seenX.seq |= x.seq
			seenX.deadline |= x.deadline
			if len(x.list) > 0 {
				seenX.list = x.list
			}
		}
		wake = wake || v.wake
	}
	if seen.last == 0 || seen.a == 0 || seen.b == 0 || seenX.seq == 0 || seenX.deadline == 0 || seenX.list == nil || !wake {
		t.Errorf("the timed tree leaves fields out: %+v %+v, wake %v", seen, seenX, wake)
	}
	for _, f := range []uint16{fDone, fOnce, fHasList, fExecuting, fStarted, fWaiting, fArmed} {
		if seen.flags&f == 0 {
			t.Errorf("the timed tree never sets the flag %#x", f)
		}
	}
}

// TestDocumentRestore restores through Document.Restore, on a tree built
// again.
func TestDocumentRestore(t *testing.T) {
	doc, err := pureFactory(t).Parse(pureXML)
	if err != nil {
		t.Fatal(err)
	}
	v := versionsOf(buildPure(t), 7)[7]
	data, err := v.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	r, err := doc.Restore("", data, WithTurnClock(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if d := sameVersion(v, r); d != "" {
		t.Errorf("the restored version differs: %s", d)
	}
}

// TestRestoreErrors: another tree's save wraps ErrWrongTree; every
// truncation, and every byte changed, is a *StateError naming a byte
// inside the data or a version that saves back to the same bytes.
func TestRestoreErrors(t *testing.T) {
	trees := saveTrees(t)
	pure, timed := trees[0], trees[1]
	data, err := versionsOf(timed, 9)[9].MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pure.Restore(data); !errors.Is(err, ErrWrongTree) {
		t.Errorf("a save of another tree: %v, want ErrWrongTree", err)
	}
	check := func(what string, d []byte) {
		r, err := timed.Restore(d)
		if err == nil {
			again, _ := r.MarshalBinary()
			if !bytes.Equal(again, d) {
				t.Errorf("%s: restored, but saves back to other bytes", what)
			}
			return
		}
		var se *StateError
		if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(d) {
			t.Errorf("%s: %v, want a *StateError inside the data", what, err)
		}
	}
	for n := 0; n < len(data); n++ {
		check("truncated", data[:n])
	}
	for i := range data {
		for _, x := range []byte{1, 0x80, 0xff} {
			d := bytes.Clone(data)
			d[i] ^= x
			check("changed", d)
		}
	}
	check("longer", append(bytes.Clone(data), 0))
	for _, c := range []struct {
		data []byte
		want string
	}{
		{nil, `btcpp: restore: byte 0: not a saved BehaviorTree.CPP tree (no "BTC" magic)`},
		{[]byte("BTS\x01"), "btcpp: restore: byte 0: a save of the behaviortree package, not of a BehaviorTree.CPP tree"},
		{[]byte("BTC\x02"), "btcpp: restore: byte 3: format version 2, want 1"},
		{[]byte("BTC\x01\x00"), "btcpp: restore: byte 4: truncated: fingerprint expected"},
	} {
		_, err := timed.Restore(c.data)
		if err == nil || err.Error() != c.want {
			t.Errorf("Restore(%q): %v, want %s", c.data, err, c.want)
		}
	}
	// A number written longer than it needs is refused, so that a save
	// that restores saves back to the same bytes.
	long := append(bytes.Clone(data[:12]), 0x80|data[12], 0)
	long = append(long, data[13:]...)
	if _, err := timed.Restore(long); err == nil || !bytes.Contains([]byte(err.Error()), []byte("shortest form")) {
		t.Errorf("a node count in two bytes: %v", err)
	}
}

// FuzzRestore: any bytes restore to an error, a *StateError, or to a
// version that saves back to the same bytes and ticks without panicking.
func FuzzRestore(f *testing.F) {
	trees := saveTrees(f)
	for _, v0 := range trees {
		for _, v := range versionsOf(v0, 12) {
			data, err := v.MarshalBinary()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
	// Saves with async results (async.go): pending, and settled with
	// looks that still see them pending.
	v0, asyncSaves := asyncSaves(f)
	trees = append(trees, v0)
	for _, data := range asyncSaves {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, v0 := range trees {
			r, err := v0.Restore(data)
			if err != nil {
				var se *StateError
				if !errors.As(err, &se) {
					t.Fatalf("%v is not a *StateError", err)
				}
				continue
			}
			again, err := r.MarshalBinary()
			if err != nil || !bytes.Equal(again, data) {
				t.Fatalf("saved back: %v, same bytes %v", err, bytes.Equal(again, data))
			}
			versionsOf(r, 3)
		}
	})
}
