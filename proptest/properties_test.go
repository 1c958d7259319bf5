package proptest_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/proptest"
)

// TestProperties checks the library's laws on generated trees. Each
// property returns "" or a label that says what broke.
func TestProperties(t *testing.T) {
	props := gopter.NewProperties(parameters(t))

	props.Property("1 value is always a leaf", prop.ForAll(
		func(n bt.Node[string], sig []bt.Status, seed uint64) string {
			leafSet := map[string]bool{}
			for c := range n.Preorder() {
				if v, ok := c.Leaf(); ok && c.Kind() == kind.Leaf {
					leafSet[v] = true
				}
			}
			for i, s := range traceOf(bt.Start(n, bt.WithSeed(seed)), sig) {
				if !leafSet[s.Value] {
					return fmt.Sprintf("step %d: value %q is not a leaf of %v", i, s.Value, n)
				}
			}
			return ""
		}, anyTree, signals, seeds))

	props.Property("2 first descent is the deepest left-most leaf", prop.ForAll(
		func(n bt.Node[string]) string {
			first := n
			for first.Kind() != kind.Leaf {
				first = first.Child(0)
			}
			want, _ := first.Leaf()
			if got := bt.Start(n).Value(); got != want {
				return fmt.Sprintf("Start(%v) = %q, want %q", n, got, want)
			}
			return ""
		}, detTree))

	props.Property("3 persistence: advancing derived versions does not change a version", prop.ForAll(
		func(n bt.Node[string], prefix, probe []bt.Status, seed uint64) string {
			v := bt.Start(n, bt.WithSeed(seed))
			for _, s := range prefix {
				v = v.Signal(s)
			}
			value, future := v.Value(), traceOf(v, probe)
			// Advance many versions derived from v, along every branch.
			frontier := []bt.Tree[string]{v}
			for _, s := range probe {
				next := frontier[:0:0]
				for _, f := range frontier {
					next = append(next, f.Signal(s), f.Signal(bt.Success), f.Signal(bt.Failure))
				}
				if len(next) > 50 {
					next = next[:50]
				}
				frontier = next
			}
			if v.Value() != value {
				return fmt.Sprintf("value changed from %q to %q", value, v.Value())
			}
			return diff("future after advancing derived versions", traceOf(v, probe), future)
		}, anyTree, signals, signals, seeds))

	props.Property("4 purity: same version and signals give the same trace", prop.ForAll(
		func(n bt.Node[string], prefix, sig []bt.Status, seed uint64) string {
			a, b := bt.Start(n, bt.WithSeed(seed)), bt.Start(n, bt.WithSeed(seed))
			if d := diff("two Starts with one seed", traceOf(b, prefix), traceOf(a, prefix)); d != "" {
				return d
			}
			for _, s := range prefix {
				a = a.Signal(s)
			}
			return diff("a kept version replayed", traceOf(a, sig), traceOf(a, sig))
		}, anyTree, signals, signals, seeds))

	props.Property("5 differential: the library agrees with the reference model", prop.ForAll(
		func(n bt.Node[string], sig []bt.Status) string {
			return diff(fmt.Sprintf("library vs model on %v", n),
				traceOf(bt.Start(n), sig), modelTrace(proptest.NewModel(n, nil), sig))
		}, detTree, signals))

	type law struct {
		name     string
		lhs, rhs func(x, y, z bt.Node[string]) bt.Node[string]
	}
	laws := []law{
		{"Negate(Negate(x)) ≡ x",
			func(x, _, _ bt.Node[string]) bt.Node[string] { return bt.Negate(bt.Negate(x)) },
			func(x, _, _ bt.Node[string]) bt.Node[string] { return x }},
		{"Sequence(x) ≡ x",
			func(x, _, _ bt.Node[string]) bt.Node[string] { return bt.Sequence(x) },
			func(x, _, _ bt.Node[string]) bt.Node[string] { return x }},
		{"Select(x) ≡ x",
			func(x, _, _ bt.Node[string]) bt.Node[string] { return bt.Select(x) },
			func(x, _, _ bt.Node[string]) bt.Node[string] { return x }},
		{"Sequence(a, Sequence(b, c)) ≡ Sequence(a, b, c)",
			func(a, b, c bt.Node[string]) bt.Node[string] { return bt.Sequence(a, bt.Sequence(b, c)) },
			func(a, b, c bt.Node[string]) bt.Node[string] { return bt.Sequence(a, b, c) }},
		{"Select(a, Select(b, c)) ≡ Select(a, b, c)",
			func(a, b, c bt.Node[string]) bt.Node[string] { return bt.Select(a, bt.Select(b, c)) },
			func(a, b, c bt.Node[string]) bt.Node[string] { return bt.Select(a, b, c) }},
		{"AlwaysSucceed(AlwaysFail(x)) ≡ AlwaysSucceed(x)",
			func(x, _, _ bt.Node[string]) bt.Node[string] { return bt.AlwaysSucceed(bt.AlwaysFail(x)) },
			func(x, _, _ bt.Node[string]) bt.Node[string] { return bt.AlwaysSucceed(x) }},
		{"Negate(AlwaysSucceed(x)) ≡ AlwaysFail(x)",
			func(x, _, _ bt.Node[string]) bt.Node[string] { return bt.Negate(bt.AlwaysSucceed(x)) },
			func(x, _, _ bt.Node[string]) bt.Node[string] { return bt.AlwaysFail(x) }},
	}
	// Each law is checked at the root and inside a few contexts, with the
	// same seed on both sides (the extra nodes draw nothing).
	contexts := []struct {
		name string
		wrap func(bt.Node[string]) bt.Node[string]
	}{
		{"root", func(h bt.Node[string]) bt.Node[string] { return h }},
		{"Sequence(_, z)", func(h bt.Node[string]) bt.Node[string] { return bt.Sequence(h, bt.Leaf("z")) }},
		{"Select(_, z)", func(h bt.Node[string]) bt.Node[string] { return bt.Select(h, bt.Leaf("z")) }},
		{"Sequence(z, RepeatUntilFail(_))", func(h bt.Node[string]) bt.Node[string] {
			return bt.Sequence(bt.Leaf("z"), bt.RepeatUntilFail(h))
		}},
		{"RepeatN(2, _)", func(h bt.Node[string]) bt.Node[string] { return bt.RepeatN(2, h) }},
	}
	for i, lw := range laws {
		props.Property(fmt.Sprintf("6.%d law: %s", i+1, lw.name), prop.ForAll(
			func(x, y, z bt.Node[string], ctx int, sig []bt.Status, seed uint64) string {
				c := contexts[ctx]
				l, r := c.wrap(lw.lhs(x, y, z)), c.wrap(lw.rhs(x, y, z))
				return diff(fmt.Sprintf("in context %s: %v vs %v", c.name, l, r),
					traceOf(bt.Start(l, bt.WithSeed(seed)), sig), traceOf(bt.Start(r, bt.WithSeed(seed)), sig))
			}, anyTree, anyTree, anyTree, gen.IntRange(0, len(contexts)-1), signals, seeds))
	}

	props.Property("7 start over: a completed tree is back at its first descent", prop.ForAll(
		func(n bt.Node[string], sig []bt.Status) string {
			first := bt.Start(n).Value()
			for i, s := range traceOf(bt.Start(n), sig) {
				if s.Status != bt.Running && s.Value != first {
					return fmt.Sprintf("step %d: the tree completed (%v) but is at %q, not %q", i, s.Status, s.Value, first)
				}
			}
			return ""
		}, detTree, signals))

	props.Property("8 JSON: Unmarshal(Marshal(n)) is trace-equal to n", prop.ForAll(
		func(n bt.Node[string], sig []bt.Status, seed uint64) string {
			b, err := json.Marshal(n)
			if err != nil {
				return "marshal: " + err.Error()
			}
			var back bt.Node[string]
			if err := json.Unmarshal(b, &back); err != nil {
				return "unmarshal: " + err.Error()
			}
			if back.String() != n.String() {
				return fmt.Sprintf("read back %v, want %v", back, n)
			}
			return diff("after a JSON round trip", traceOf(bt.Start(back, bt.WithSeed(seed)), sig),
				traceOf(bt.Start(n, bt.WithSeed(seed)), sig))
		}, anyTree, signals, seeds))

	props.Property("9 concurrency: shared versions advanced at once trace as in sequence", prop.ForAll(
		func(n bt.Node[string], sig []bt.Status, seed uint64) string {
			var versions []bt.Tree[string]
			v := bt.Start(n, bt.WithSeed(seed))
			for _, s := range sig {
				versions = append(versions, v)
				v = v.Signal(s)
			}
			want := make([][]step, len(versions))
			for i, v := range versions {
				want[i] = traceOf(v, sig)
			}
			got := make([][][]step, 4)
			var wg sync.WaitGroup
			for g := range got {
				wg.Add(1)
				go func(g int) {
					defer wg.Done()
					got[g] = make([][]step, len(versions))
					for k := range versions {
						i := (k + g*7) % len(versions)
						got[g][i] = traceOf(versions[i], sig)
					}
				}(g)
			}
			wg.Wait()
			for g := range got {
				for i := range versions {
					if d := diff(fmt.Sprintf("goroutine %d, version %d", g, i), got[g][i], want[i]); d != "" {
						return d
					}
				}
			}
			return ""
		}, anyTree, signals, seeds))

	props.TestingRun(t)
}
