package proptest_test

import (
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/proptest"
)

// defaultSeed fixes the properties' randomness, so that a run is repeatable.
const defaultSeed = 20261201

// parameters returns the test parameters: PROPTEST_SEED picks the seed and
// PROPTEST_CASES the number of cases per property (default 200).
//
// To reproduce a failure, rerun with the seed it printed:
//
//	PROPTEST_SEED=1234 go test ./proptest -run TestProperties
//
// which amounts to gopter.DefaultTestParametersWithSeed(1234) in code.
func parameters(t *testing.T) *gopter.TestParameters {
	t.Helper()
	seed := int64(defaultSeed)
	if s := os.Getenv("PROPTEST_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("PROPTEST_SEED=%q: %v", s, err)
		}
		seed = v
	}
	p := gopter.DefaultTestParametersWithSeed(seed)
	p.MinSuccessfulTests = cases(t)
	p.MaxSize = 30
	t.Logf("gopter seed %d: rerun with PROPTEST_SEED=%d go test ./proptest -run '%s'", seed, seed, t.Name())
	return p
}

// cases is PROPTEST_CASES, or 200.
func cases(t *testing.T) int {
	if s := os.Getenv("PROPTEST_CASES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("PROPTEST_CASES=%q: want a positive integer", s)
		}
		return v
	}
	return 200
}

// leaves draws string leaves from a small alphabet, so that traces repeat
// values and mix-ups show.
var leaves = gen.OneConstOf("a", "b", "c", "d", "e")

var (
	anyTree = proptest.Tree[string](leaves, proptest.Config{})
	detTree = proptest.DeterministicTree[string](leaves, proptest.Config{})
	signals = proptest.Signals(60)
	seeds   = gen.UInt64()
)

// step is one entry of a trace: the value, and how the root ended.
type step struct {
	Value  string
	Status bt.Status
}

func (s step) String() string {
	if s.Status == bt.Running {
		return s.Value
	}
	return s.Value + "!" + s.Status.String()
}

// traceOf applies sig to t and returns the steps, starting with t's own.
func traceOf(t bt.Tree[string], sig []bt.Status) []step {
	out := []step{{t.Value(), t.Status()}}
	for _, s := range sig {
		t = t.Signal(s)
		out = append(out, step{t.Value(), t.Status()})
	}
	return out
}

// modelTrace is traceOf for the reference model.
func modelTrace(m *proptest.Model[string], sig []bt.Status) []step {
	out := []step{{m.Value(), bt.Running}}
	for _, s := range sig {
		st := m.Signal(s)
		out = append(out, step{m.Value(), st})
	}
	return out
}

// diff returns "" when the traces are equal, and otherwise a label naming
// the first difference.
func diff(what string, got, want []step) string {
	for i := range max(len(got), len(want)) {
		if i >= len(got) || i >= len(want) || got[i] != want[i] {
			return fmt.Sprintf("%s: traces differ at step %d\n got  %v\n want %v", what, i, got, want)
		}
	}
	return ""
}
