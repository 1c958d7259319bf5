package behaviortree

import (
	"math"
	"strings"
	"testing"
)

// TestStepNonFiniteDelta: a delta-time function that returns a value that
// is not finite, or whose values add up to one, makes the step fail with
// an error naming the wait, and the version stepped stays what it was;
// every version that saves restores.
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
			def := Root(Sequence(Leaf("a"), Wait[string](1e9)))
			tr, err := NewStepped(def, Agent[string]{Action: func(string) Result { return ResultSuccess }}, WithDeltaTime(delta))
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
