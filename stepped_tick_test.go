package behaviortree_test

import (
	"bytes"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
)

// tickWaitTree is a sequence of a wait of 1 s and an action, which
// succeeds, run with opts.
func tickWaitTree(t *testing.T, opts ...bt.Option) bt.Stepped[string] {
	t.Helper()
	def := bt.Root(bt.Sequence(bt.Wait[string](time.Second), bt.Leaf("fire")))
	tr, err := bt.NewStepped(def, bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultSuccess }}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// ticks ticks tr n times by d and returns the states after each tick.
func ticks(t *testing.T, tr bt.Stepped[string], d time.Duration, n int) (bt.Stepped[string], []bt.State) {
	t.Helper()
	var states []bt.State
	for range n {
		var err error
		if tr, err = tr.Tick(bt.TimeData{DeltaTime: d}); err != nil {
			t.Fatal(err)
		}
		states = append(states, tr.State())
	}
	return tr, states
}

// TestTickAdvancesWaits: without a clock option, a wait that a Tick starts
// counts the ticks' DeltaTime, the first tick included, and nothing of the
// wall clock: ticks of 400 ms end a wait of 1 s at the third tick, however
// fast they come, and ticks of 0 never end it.
func TestTickAdvancesWaits(t *testing.T) {
	_, got := ticks(t, tickWaitTree(t), 400*time.Millisecond, 3)
	if got[0] != bt.StateRunning || got[1] != bt.StateRunning || got[2] != bt.StateSucceeded {
		t.Errorf("ticks of 400 ms over a wait of 1 s: %v", got)
	}
	_, got = ticks(t, tickWaitTree(t), time.Second, 1)
	if got[0] != bt.StateSucceeded {
		t.Errorf("one tick of 1 s over a wait of 1 s: %v", got)
	}
	tr, got := ticks(t, tickWaitTree(t), 0, 3)
	if got[2] != bt.StateRunning {
		t.Errorf("ticks of 0: %v", got)
	}
	// A Step's time data is zero: a wait on the ticks' clock does not
	// advance, whatever the wall clock does.
	time.Sleep(2 * time.Millisecond)
	for range 2 {
		next, err := tr.Step()
		if err != nil {
			t.Fatal(err)
		}
		if next.State() != bt.StateRunning {
			t.Fatalf("a Step advanced a wait on the ticks' clock: %v", next.State())
		}
		tr = next
	}
	if _, got = ticks(t, tr, time.Second, 1); got[0] != bt.StateSucceeded {
		t.Errorf("a tick of 1 s after the steps: %v", got)
	}
}

// TestTickClockOption: with a clock option, the option is every wait's
// clock and the tick's DeltaTime is not counted.
func TestTickClockOption(t *testing.T) {
	_, got := ticks(t, tickWaitTree(t, bt.WithTurnClock(100*time.Millisecond)), time.Hour, 3)
	for i, s := range got {
		if s != bt.StateRunning {
			t.Fatalf("tick %d of an hour under a turn clock of 100 ms: %v", i+1, s)
		}
	}
	_, got = ticks(t, tickWaitTree(t, bt.WithDeltaTime(func() time.Duration { return time.Second })), 0, 1)
	if got[0] != bt.StateSucceeded {
		t.Errorf("a delta of 1 s with ticks of 0: %v", got)
	}
}

// TestStepWaitsOnWallClock: a wait that a Step starts reads the wall clock,
// and keeps it when ticked: a tick's DeltaTime of an hour does not end it.
func TestStepWaitsOnWallClock(t *testing.T) {
	tr, err := tickWaitTree(t).Step()
	if err != nil {
		t.Fatal(err)
	}
	if _, got := ticks(t, tr, time.Hour, 1); got[0] != bt.StateRunning {
		t.Errorf("a wait started by a Step ended by a tick's DeltaTime: %v", got)
	}
}

// TestTickWaitSaveAndReplay: a version whose wait counts the ticks saves,
// restores to a version with the same future, and ticked again from the
// same version gives the same versions, byte for byte.
func TestTickWaitSaveAndReplay(t *testing.T) {
	def := bt.Root(bt.Sequence(bt.WaitRange[string](500*time.Millisecond, 2*time.Second), bt.Leaf("fire")))
	tr, err := bt.NewStepped(def, bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultSuccess }}, bt.WithSeed(3))
	if err != nil {
		t.Fatal(err)
	}
	mid, _ := ticks(t, tr, 300*time.Millisecond, 1)
	data, err := mid.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	restored, err := mid.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	again, err := restored.MarshalBinary()
	if err != nil || !bytes.Equal(again, data) {
		t.Fatalf("restored saves to other bytes (%v)", err)
	}
	succeeded := false
	trace := func(from bt.Stepped[string]) [][]byte {
		var out [][]byte
		for range 8 {
			from, _ = ticks(t, from, 300*time.Millisecond, 1)
			b, err := from.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, b)
			succeeded = succeeded || from.State() == bt.StateSucceeded
		}
		return out
	}
	a, b, c := trace(mid), trace(mid), trace(restored)
	for i := range a {
		if !bytes.Equal(a[i], b[i]) || !bytes.Equal(a[i], c[i]) {
			t.Fatalf("tick %d differs: again %v, restored %v", i, bytes.Equal(a[i], b[i]), bytes.Equal(a[i], c[i]))
		}
	}
	if !succeeded {
		t.Error("a wait of at most 2 s did not end in 2.7 s of ticks")
	}
}
