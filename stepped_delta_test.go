package behaviortree

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"
)

// withDeltaSeconds makes waits advance by delta() seconds, a float64, at
// each update: Mistreevous's getDeltaTime as it is, for the conformance
// test, which replays the corpus's deltas bit for bit, and for the
// engine's checks of deltas that no time.Duration can be (WithDeltaTime
// gives the engine delta().Seconds()).
func withDeltaSeconds(delta func() float64) Option {
	return func(c *config) { c.delta = delta }
}

// TestStepNonFiniteDelta: a delta-time function that returns a value that
// is not finite, or whose values add up to one, makes the step fail with
// an error naming the wait, and the version stepped stays what it was;
// every version that saves restores. No time.Duration is such a value:
// the test checks the engine's guard through withDeltaSeconds.
func TestStepNonFiniteDelta(t *testing.T) {
	for _, c := range []struct {
		name   string
		deltas []float64
		want   string
	}{
		{"-Inf then +Inf", []float64{math.Inf(-1), math.Inf(1)}, "delta time is -Inf"},
		{"+Inf", []float64{0.001, math.Inf(1)}, "delta time is +Inf"},
		{"NaN", []float64{0.001, math.NaN()}, "delta time is NaN"},
		{"overflow", []float64{math.MaxFloat64}, "waited time is +Inf ms"},
		{"negative overflow", []float64{-math.MaxFloat64 / 2000, -math.MaxFloat64 / 2000, -math.MaxFloat64 / 2000}, "waited time is -Inf ms"},
	} {
		t.Run(c.name, func(t *testing.T) {
			i := 0
			delta := func() float64 {
				d := c.deltas[min(i, len(c.deltas)-1)]
				i++
				return d
			}
			def := Root(Sequence(Leaf("a"), Wait[string](1e9*time.Millisecond)))
			tr, err := NewStepped(def, Agent[string]{Action: func(string) Result { return ResultSuccess }}, withDeltaSeconds(delta))
			if err != nil {
				t.Fatal(err)
			}
			var stepErr error
			for range len(c.deltas) + 1 {
				data, err := tr.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				if _, err := tr.Restore(data); err != nil {
					t.Fatalf("a version that saves does not restore: %v", err)
				}
				next, err := tr.Step()
				if err != nil {
					if next != tr {
						t.Error("a failed step returned another version")
					}
					stepErr = err
					break
				}
				tr = next
			}
			if stepErr == nil || !strings.Contains(stepErr.Error(), "node 3 (WAIT 1000000000ms): "+c.want) {
				t.Fatalf("error %v, want one about node 3's %s", stepErr, c.want)
			}
		})
	}
}

// TestDeltaDurationExact checks that WithDeltaTime, which gives the engine
// delta().Seconds(), counts every delta of the Mistreevous corpus as
// Mistreevous does: the Duration nearest each delta has exactly the
// delta's seconds as its Seconds, so a game that gives its frame times as
// Durations steps as the corpus's getDeltaTime does. It also checks the
// rule on deltas of nine decimals under a second, and that it can fail:
// ten decimals cannot all be Durations.
func TestDeltaDurationExact(t *testing.T) {
	seen := map[float64]bool{}
	for _, c := range readMistreevousCorpus(t, mistreevousCorpus()) {
		for _, x := range c.Delta {
			seen[x] = true
		}
	}
	if len(seen) == 0 {
		t.Fatal("the corpus has no deltas")
	}
	exact := func(x float64) bool { return time.Duration(math.Round(x*1e9)).Seconds() == x }
	for x := range seen {
		if !exact(x) {
			t.Errorf("delta %v: the nearest Duration's Seconds is %v", x, time.Duration(math.Round(x*1e9)).Seconds())
		}
	}
	for ns := int64(1); ns < 1e9; ns = ns*7 + 3 {
		x, _ := strconv.ParseFloat(fmt.Sprintf("0.%09d", ns), 64)
		if !exact(x) {
			t.Errorf("delta %v: not exact", x)
		}
	}
	if exact(0.1234567891) && exact(0.0000000001) {
		t.Error("deltas of ten decimals counted as exact: the check cannot fail")
	}
}
