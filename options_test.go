package behaviortree_test

import (
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
)

// TestOptionsBothStyles checks that one Option type serves both styles:
// WithSeed seeds a Value/Succeed/Fail tree and a stepped tree alike, and
// Start refuses the stepped-only options with a qualified panic.
func TestOptionsBothStyles(t *testing.T) {
	def := bt.Random(bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c"), bt.Leaf("d"))
	picks := func(seed uint64) string {
		var b strings.Builder
		tr := bt.Start(def, bt.WithSeed(seed))
		for range 16 {
			b.WriteString(tr.Value())
			tr = tr.Succeed()
		}
		return b.String()
	}
	if picks(1) != picks(1) || picks(1) == picks(2) {
		t.Errorf("Start with WithSeed: %s, %s, %s", picks(1), picks(1), picks(2))
	}
	sdef := bt.Root(bt.Lotto(nil, bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c"), bt.Leaf("d")))
	steps := func(seed uint64) string {
		var b strings.Builder
		agent := bt.Agent[string]{Action: func(v string) bt.Result { b.WriteString(v); return bt.ResultSuccess }}
		tr, err := bt.NewStepped(sdef, agent, bt.WithSeed(seed))
		if err != nil {
			t.Fatal(err)
		}
		for range 16 {
			if tr, err = tr.Step(); err != nil {
				t.Fatal(err)
			}
		}
		return b.String()
	}
	if steps(1) != steps(1) || steps(1) == steps(2) {
		t.Errorf("NewStepped with WithSeed: %s, %s, %s", steps(1), steps(1), steps(2))
	}
	for name, o := range map[string]bt.Option{
		"WithTurnClock": bt.WithTurnClock(time.Second),
		"WithDeltaTime": bt.WithDeltaTime(func() time.Duration { return time.Second }),
		"WithRandom":    bt.WithRandom(func() float64 { return 0.5 }),
	} {
		func() {
			defer func() {
				want := "behaviortree.Start: " + name + " is an option of stepped trees (NewStepped)"
				if r := recover(); r != want {
					t.Errorf("Start with %s panicked with %v, want %q", name, r, want)
				}
			}()
			bt.Start(def, bt.WithSeed(1), o)
		}()
	}
}
