package behaviortree_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/custom"
	"github.com/zipbt/behaviortree/kind"
)

// trace applies signals (s/f) to t and returns the values after each,
// starting with t's own.
func trace(t bt.Tree[string], signals string) []string {
	out := []string{t.Value()}
	for _, s := range signals {
		if s == 's' {
			t = t.Succeed()
		} else {
			t = t.Fail()
		}
		out = append(out, t.Value())
	}
	return out
}

// randomSignals returns n signals from a fixed seed.
func randomSignals(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, 0))
	b := make([]byte, n)
	for i := range b {
		b[i] = "sf"[r.IntN(2)]
	}
	return string(b)
}

// TestPersistence advances many versions derived from kept ones and checks
// that every kept version still has the same value and the same future.
func TestPersistence(t *testing.T) {
	for i, c := range loadConformance(t)[:300] {
		tree := bt.Start(c.Tree)
		var kept []bt.Tree[string]
		var futures [][]string
		probe := randomSignals(uint64(i), 20)
		for k, s := range c.Signals {
			kept = append(kept, tree)
			futures = append(futures, trace(tree, probe))
			if s == 's' {
				tree = tree.Succeed()
			} else {
				tree = tree.Fail()
			}
			// Derive and advance more versions from an older one.
			old := kept[k/2]
			_ = trace(old.Fail(), probe)
			_ = trace(old.Succeed(), probe)
		}
		for k, v := range kept {
			if v.Value() != c.Values[k] {
				t.Fatalf("case %d: kept version %d now has value %q, want %q", i, k, v.Value(), c.Values[k])
			}
			if got := trace(v, probe); fmt.Sprint(got) != fmt.Sprint(futures[k]) {
				t.Fatalf("case %d: kept version %d has a new future\n got %v\nwant %v", i, k, got, futures[k])
			}
		}
	}
}

// TestConcurrentVersions has many goroutines advancing shared versions at
// once (run it with -race); each must see what a sequential run sees.
func TestConcurrentVersions(t *testing.T) {
	cases := loadConformance(t)[:200]
	var shared []bt.Tree[string]
	var want [][]string
	probe := randomSignals(7, 40)
	for _, c := range cases {
		v := bt.Start(c.Tree, bt.WithSeed(3))
		for _, s := range c.Signals[:len(c.Signals)/2] {
			v = v.Signal(map[rune]bt.Status{'s': bt.Success, 'f': bt.Failure}[s])
		}
		shared = append(shared, v)
		want = append(want, trace(v, probe))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for round := 0; round < 5; round++ {
				for i := range shared {
					k := (i + g*31 + round*7) % len(shared)
					if got := trace(shared[k], probe); fmt.Sprint(got) != fmt.Sprint(want[k]) {
						errs <- fmt.Sprintf("goroutine %d: version %d gave %v, want %v", g, k, got, want[k])
						return
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestDeepChain starts and drives a chain of 100,000 decorators.
func TestDeepChain(t *testing.T) {
	const depth = 100000
	n := l("a")
	for i := 0; i < depth; i++ {
		if i%2 == 0 {
			n = bt.Negate(n)
		} else {
			n = bt.AlwaysSucceed(n)
		}
	}
	n = bt.Sequence(n, l("b"))
	tree := bt.Start(n)
	d := -1 // the inner nodes above the leaf
	for range tree.Path() {
		d++
	}
	if d != depth+1 {
		t.Fatalf("depth %d", d)
	}
	// The chain (outermost AlwaysSucceed) always succeeds: on to b.
	if got := tree.Fail().Value(); got != "b" {
		t.Fatalf("got %q, want b", got)
	}
	if got := tree.Succeed().Succeed(); got.Value() != "a" || got.Status() != bt.Success {
		t.Fatalf("got %q %v, want a success", got.Value(), got.Status())
	}
}

// TestDeepRepeat drives a chain of 100,000 RepeatN counters, which keep a
// counter cell each.
func TestDeepRepeat(t *testing.T) {
	n := l("a")
	for i := 0; i < 100000; i++ {
		n = bt.RepeatN(2, n)
	}
	tree := bt.Start(bt.Sequence(n, l("b")))
	for i := 0; i < 1000; i++ {
		tree = tree.Succeed()
		if tree.Value() != "a" {
			t.Fatalf("signal %d: got %q", i, tree.Value())
		}
	}
}

// TestWideSelect checks that a signal in a Select of 100,000 children moves
// one step, whatever the width.
func TestWideSelect(t *testing.T) {
	vals := make([]string, 100000)
	for i := range vals {
		vals[i] = fmt.Sprint(i)
	}
	tree := bt.Start(bt.Select(leaves(vals...)...))
	for i := 0; i < 99999; i++ {
		tree = tree.Fail()
	}
	if tree.Value() != "99999" {
		t.Fatalf("got %q", tree.Value())
	}
	if tree = tree.Fail(); tree.Value() != "0" || tree.Status() != bt.Failure {
		t.Fatalf("got %q %v", tree.Value(), tree.Status())
	}
}

// TestRandomWeightedFrequencies draws 60,000 Starts with a fixed seed.
func TestRandomWeightedFrequencies(t *testing.T) {
	n := bt.RandomWeighted(bt.WithWeight(3, l("a")), bt.WithWeight(2, l("b")), bt.WithWeight(1, l("c")))
	want := map[string]float64{"a": 1.0 / 2, "b": 1.0 / 3, "c": 1.0 / 6}
	checkFrequencies(t, n, want)
}

// TestRandomFrequencies checks that Random picks uniformly.
func TestRandomFrequencies(t *testing.T) {
	n := bt.Random(bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c"), bt.Leaf("d"))
	checkFrequencies(t, n, map[string]float64{"a": .25, "b": .25, "c": .25, "d": .25})
}

func checkFrequencies(t *testing.T, n bt.Node[string], want map[string]float64) {
	t.Helper()
	const starts = 60000
	got := map[string]int{}
	for i := 0; i < starts; i++ {
		got[bt.Start(n, bt.WithSeed(uint64(i))).Value()]++
	}
	// Also the draws of one tree starting over and over.
	again := map[string]int{}
	tree := bt.Start(n, bt.WithSeed(42))
	for i := 0; i < starts; i++ {
		again[tree.Value()]++
		tree = tree.Succeed()
	}
	for v, p := range want {
		for name, m := range map[string]map[string]int{"starts": got, "restarts": again} {
			f := float64(m[v]) / starts
			if f < p-0.01 || f > p+0.01 {
				t.Errorf("%s: %s drawn %.4f of the time, want %.4f ± 0.01", name, v, f, p)
			}
		}
	}
}

// TestSeedDeterminism checks that a seed fixes every draw, and that kept
// versions replay the same draws.
func TestSeedDeterminism(t *testing.T) {
	n := bt.RepeatUntilFail(bt.Sequence(bt.Random(bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c")),
		bt.RandomWeighted(bt.WithWeight(1, l("x")), bt.WithWeight(5, l("y")))))
	sig := randomSignals(9, 200)
	a := trace(bt.Start(n, bt.WithSeed(5)), sig)
	b := trace(bt.Start(n, bt.WithSeed(5)), sig)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("same seed, different traces")
	}
	c := trace(bt.Start(n, bt.WithSeed(6)), sig)
	if fmt.Sprint(a) == fmt.Sprint(c) {
		t.Fatal("different seeds gave the same 200-step trace")
	}
	v := bt.Start(n, bt.WithSeed(5)).Succeed()
	first := trace(v, sig)
	for i := 0; i < 3; i++ {
		if got := trace(v, sig); fmt.Sprint(got) != fmt.Sprint(first) {
			t.Fatal("a kept version replayed differently")
		}
	}
}

// TestConstructorPanics checks the documented construction panics.
func TestConstructorPanics(t *testing.T) {
	var zero bt.Node[string]
	tests := []struct {
		name string
		f    func()
		want string
	}{
		{"empty sequence", func() { bt.Sequence[string]() }, "behaviortree.Sequence: no children"},
		{"empty select", func() { bt.Select[string]() }, "behaviortree.Select: no children"},
		{"empty random", func() { bt.Random[string]() }, "behaviortree.Random: no children"},
		{"empty weighted", func() { bt.RandomWeighted[string]() }, "behaviortree.RandomWeighted: no children"},
		{"repeat 1", func() { bt.RepeatN(1, l("a")) }, "behaviortree.RepeatN: repeat_n needs n >= 2, got 1"},
		{"weight 0", func() { bt.RandomWeighted(bt.WithWeight(1, l("a")), bt.WithWeight(0, l("b"))) },
			"behaviortree.RandomWeighted: random_weighted: weights[1] must be > 0, got 0"},
		{"weights too heavy", func() { bt.RandomWeighted(bt.WithWeight(1<<30, l("a")), bt.WithWeight(1<<30, l("b"))) },
			"behaviortree.RandomWeighted: random_weighted: weights add up to more than 2147483647"},
		{"zero child", func() { bt.Sequence(l("a"), zero) }, "behaviortree.Sequence: child 1 is the zero Node"},
		{"zero decorated", func() { bt.Negate(zero) }, "behaviortree.Negate: child is the zero Node"},
		{"zero continually", func() { bt.RepeatUntilFail(zero) }, "behaviortree.RepeatUntilFail: child is the zero Node"},
		{"start zero", func() { bt.Start(zero) }, "behaviortree.Start: zero Node"},
		{"too many places", func() {
			n := l("a")
			for i := 0; i < 26; i++ { // 2^27-1 places, from 27 nodes
				n = bt.Sequence(n, n)
			}
		}, "behaviortree.Sequence: the tree would have more than 67108864 places"},
		{"zero step", func() { bt.Start(bt.CustomNode[string](zeroStep{}, l("a"))).Succeed() },
			"behaviortree: behaviortree_test.zeroStep.OnSucceed returned the zero Move"},
		{"negative step", func() { custom.To(-1) }, "custom.To: negative child index"},
		{"invalid signal", func() { bt.Start(l("a")).Signal(bt.Status(7)) }, "behaviortree.Tree.Signal: invalid Status(7)"},
		{"nil traversal", func() { bt.CustomNode[string](nil, l("a")) }, "behaviortree.CustomNode: nil Traversal"},
		{"zero tree", func() { var tr bt.Tree[string]; tr.Succeed() }, "behaviortree.Tree.Succeed: zero Tree (use Start)"},
		{"child out of range", func() { l("a").Child(0) }, "behaviortree.Node.Child: index 0 out of range [0,0)"},
		{"bad custom step", func() { bt.Start(bt.CustomNode[string](badEnter{}, l("a"))) },
			"behaviortree: behaviortree_test.badEnter.Enter entered child 3 of 1"},
	}
	if strconv.IntSize == 64 {
		big := math.MaxInt32
		big++ // at run time, so that 32-bit builds compile
		tests = append(tests, struct {
			name string
			f    func()
			want string
		}{"repeat 2^31", func() { bt.RepeatN(big, l("a")) }, "behaviortree.RepeatN: repeat_n needs n <= 2147483647, got 2147483648"})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if r == nil {
					t.Fatalf("no panic, want %q", tc.want)
				}
				if fmt.Sprint(r) != tc.want {
					t.Fatalf("panic %q, want %q", r, tc.want)
				}
			}()
			tc.f()
		})
	}
}

type badEnter struct{}

func (badEnter) Enter(custom.Context) (int, custom.Traversal) { return 3, nil }

// zeroStep forgets to set its step.
type zeroStep struct{}

func (zeroStep) Enter(custom.Context) (int, custom.Traversal)             { return 0, nil }
func (zeroStep) OnSucceed(custom.Context) (custom.Move, custom.Traversal) { return custom.Move(0), nil }
func (zeroStep) OnFail(custom.Context) (custom.Move, custom.Traversal)    { return custom.Fail, nil }

func (badEnter) OnSucceed(custom.Context) (custom.Move, custom.Traversal)  { return custom.Succeed, nil }
func (b badEnter) OnFail(c custom.Context) (custom.Move, custom.Traversal) { return custom.Fail, nil }

// TestCustomStatePersists checks that custom node state is kept per version
// and per place in the tree.
func TestCustomStatePersists(t *testing.T) {
	rs := bt.CustomNode(resumingSelect{}, bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c"))
	// The same node at two places: each place has its own state.
	tree := bt.Start(bt.RepeatUntilFail(bt.Sequence(rs, rs)))
	v0 := tree
	tree = tree.Fail().Succeed() // first place: a fails, b succeeds; now at second place, a
	if tree.Value() != "a" {
		t.Fatalf("got %q", tree.Value())
	}
	tree = tree.Succeed() // second place: a succeeds; RepeatUntilFail restarts the sequence
	if tree.Value() != "b" {
		t.Fatalf("first place did not resume at b: %q", tree.Value())
	}
	if tree = tree.Succeed(); tree.Value() != "a" {
		t.Fatalf("second place did not resume at a: %q", tree.Value())
	}
	if got := trace(v0, "fss"); fmt.Sprint(got) != "[a b a b]" {
		t.Fatalf("the first version changed: %v", got)
	}
}

// TestPath checks the focus path.
func TestPath(t *testing.T) {
	tree := bt.Start(bt.Sequence(l("a"), bt.Select(l("b"), l("c")))).Succeed().Fail()
	var got []string
	for n, i := range tree.Path() {
		got = append(got, fmt.Sprintf("%v:%d", n.Kind(), i))
	}
	if fmt.Sprint(got) != "[sequence:1 select:1 leaf:-1]" {
		t.Fatalf("got %v", got)
	}
}

// TestCustomRandomness checks that a custom node's draws come from the
// tree's seeded state: seeds replay, kept versions replay, and the draws of
// a new version do not disturb the old one.
func TestCustomRandomness(t *testing.T) {
	def := bt.RepeatUntilFail(bt.CustomNode[string](randomStart{}, bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c"), bt.Leaf("d")))
	sig := randomSignals(4, 400)
	a := trace(bt.Start(def, bt.WithSeed(9)), sig)
	if b := trace(bt.Start(def, bt.WithSeed(9)), sig); fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatal("one seed gave two traces")
	}
	counts := map[string]int{}
	for _, v := range a {
		counts[v]++
	}
	if len(counts) != 4 {
		t.Fatalf("draws reached %d of 4 children: %v", len(counts), counts)
	}
	v := bt.Start(def, bt.WithSeed(9)).Succeed()
	first := trace(v, sig[:50])
	_ = trace(v.Succeed(), sig)
	if again := trace(v, sig[:50]); fmt.Sprint(again) != fmt.Sprint(first) {
		t.Fatal("a kept version's draws changed")
	}
}

// TestIncomparableCustomState keeps custom states that == would panic on.
func TestIncomparableCustomState(t *testing.T) {
	tree := bt.Start(bt.RepeatUntilFail(bt.CustomNode[string](holder{}, l("a"))))
	for i := 0; i < 5; i++ {
		tree = tree.Succeed().Fail()
	}
	if !tree.Equal(tree) || tree.Value() != "a" {
		t.Fatal("a version with incomparable custom state is not Equal to itself")
	}
}

// TestWeightIsPerChild is the regression test of weights read back as
// prefix sums (3, 4, 9 for weights 3, 1, 5).
func TestWeightIsPerChild(t *testing.T) {
	n := bt.RandomWeighted(bt.WithWeight(3, l("a")), bt.WithWeight(1, l("b")), bt.WithWeight(5, l("c")))
	if got := n.Params().Weights; fmt.Sprint(got) != "[3 1 5]" {
		t.Errorf("Params().Weights = %v, want [3 1 5]", got)
	}
	if got := n.String(); got != "random_weighted[3,1,5](a, b, c)" {
		t.Errorf("String() = %q", got)
	}
}

// TestBuild checks Build against the constructors and its errors.
func TestBuild(t *testing.T) {
	a, b := l("a"), l("b")
	good := []struct {
		kind kind.Kind
		p    kind.Params
		kids []bt.Node[string]
		want bt.Node[string]
	}{
		{kind.Select, kind.Params{}, []bt.Node[string]{a, b}, bt.Select(a, b)},
		{kind.RepeatN, kind.Params{N: 3, Weights: []int{9}}, []bt.Node[string]{a}, bt.RepeatN(3, a)},
		{kind.RandomWeighted, kind.Params{Weights: []int{2, 1}}, []bt.Node[string]{a, b}, bt.RandomWeighted(bt.WithWeight(2, a), bt.WithWeight(1, b))},
		{kind.Negate, kind.Params{}, []bt.Node[string]{a}, bt.Negate(a)},
	}
	for _, tc := range good {
		got, err := bt.Build(tc.kind, tc.p, tc.kids...)
		if err != nil {
			t.Errorf("Build(%v): %v", tc.kind, err)
			continue
		}
		if got.String() != tc.want.String() || got.Fingerprint() != tc.want.Fingerprint() {
			t.Errorf("Build(%v) = %v, want %v", tc.kind, got, tc.want)
		}
	}
	bad := []struct {
		kind kind.Kind
		p    kind.Params
		kids []bt.Node[string]
		want string
	}{
		{kind.Leaf, kind.Params{}, nil, "behaviortree.Build: cannot build a leaf node; use its constructor"},
		{kind.Custom, kind.Params{}, []bt.Node[string]{a}, "behaviortree.Build: cannot build a custom node; use its constructor"},
		{kind.Negate, kind.Params{}, []bt.Node[string]{a, b}, "behaviortree.Build: negate needs exactly 1 child, got 2"},
		{kind.Sequence, kind.Params{}, nil, "behaviortree.Build: sequence needs at least one child, got none"},
		{kind.RepeatN, kind.Params{N: 1}, []bt.Node[string]{a}, "behaviortree.Build: repeat_n needs n >= 2, got 1"},
		{kind.RandomWeighted, kind.Params{Weights: []int{1}}, []bt.Node[string]{a, b}, "behaviortree.Build: random_weighted has 1 weights for 2 children"},
		{kind.Select, kind.Params{}, []bt.Node[string]{a, {}}, "behaviortree.Build: child 1 is the zero Node"},
	}
	for _, tc := range bad {
		_, err := bt.Build(tc.kind, tc.p, tc.kids...)
		if err == nil || err.Error() != tc.want {
			t.Errorf("Build(%v, %+v): error %v, want %q", tc.kind, tc.p, err, tc.want)
		}
	}
}

// TestFingerprintOfSteppedKinds is the regression test of compiling a
// definition with wait and condition leaves (for a fingerprint, say), which
// indexed the children of a leaf.
func TestFingerprintOfSteppedKinds(t *testing.T) {
	def := bt.Root(bt.Sequence(bt.Condition("ready"), bt.Wait[string](100*time.Millisecond), bt.Leaf("go")))
	if def.Fingerprint() == bt.Root(bt.Sequence(bt.Condition("ready"), bt.Wait[string](200*time.Millisecond), bt.Leaf("go"))).Fingerprint() {
		t.Error("the fingerprint does not see a wait's duration")
	}
}

// TestStringOfChildlessNodes is the regression test of String indexing the
// children of an inner node that has none (a Fluent Sequence may).
func TestStringOfChildlessNodes(t *testing.T) {
	n := bt.Sequence(bt.ReactiveSequence[string](), bt.Leaf("a"))
	if got := n.String(); got != "sequence(reactive_sequence(), a)" {
		t.Errorf("String() = %q", got)
	}
}

// leaves returns one leaf per value, in order.
func leaves(vs ...string) []bt.Node[string] {
	out := make([]bt.Node[string], len(vs))
	for i, v := range vs {
		out[i] = bt.Leaf(v)
	}
	return out
}
