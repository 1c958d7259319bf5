package behaviortree_test

import (
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// l is a shorthand for a string leaf in tests.
func l(v string) bt.Node[string] { return bt.Leaf(v) }

// run starts n (seeded) and applies signals, s for succeed and f for fail.
func run(n bt.Node[string], signals string) bt.Tree[string] {
	t := bt.Start(n, bt.WithSeed(1))
	for _, s := range signals {
		if s == 's' {
			t = t.Succeed()
		} else {
			t = t.Fail()
		}
	}
	return t
}

// TestElixirDoctests has every doctest and test of the Elixir library
// behavior_tree 0.3.1, as {name, tree, signals, value}.
func TestElixirDoctests(t *testing.T) {
	seq, sel := bt.Sequence[string], bt.Select[string]
	tests := []struct {
		name    string
		tree    bt.Node[string]
		signals string
		want    string
	}{
		{"start descends to the deepest left-most leaf",
			seq(seq(l("a"), l("b"), l("c")), sel(l("x"), l("y"), l("z")), l("done")), "", "a"},
		{"select: fail moves on", sel(l("a"), l("b")), "f", "b"},
		{"select of select: fail, fail", sel(sel(l("a"), l("b")), l("c")), "ff", "c"},
		{"sequence of select: succeed", seq(sel(l("a"), l("b")), l("c")), "s", "c"},
		{"sequence: succeed moves on", seq(l("a"), l("b")), "s", "b"},
		{"sequence of sequence: succeed, succeed", seq(seq(l("a"), l("b")), l("c")), "ss", "c"},
		{"select of sequence: fail", sel(seq(l("a"), l("b")), l("c")), "f", "c"},
		{"continually restarts on success", seq(bt.RepeatUntilFail(l("a")), l("b")), "ss", "a"},
		{"continually succeeds on failure", seq(bt.RepeatUntilFail(l("a")), l("b")), "sf", "b"},
		{"continually of select", seq(bt.RepeatUntilFail(sel(l("a"), l("b"))), l("c")), "ff", "c"},
		{"repeat_until_succeed restarts on failure", seq(bt.RepeatUntilSucceed(l("a")), l("b")), "ff", "a"},
		{"repeat_until_succeed succeeds on success", seq(bt.RepeatUntilSucceed(l("a")), l("b")), "fs", "b"},
		{"repeat_until_succeed of sequence", seq(bt.RepeatUntilSucceed(seq(l("a"), l("b"))), l("c")), "ss", "c"},
		{"repeat_n: start", seq(bt.RepeatN(2, l("a")), l("b")), "", "a"},
		{"repeat_n: f", seq(bt.RepeatN(2, l("a")), l("b")), "f", "a"},
		{"repeat_n: f, f", seq(bt.RepeatN(2, l("a")), l("b")), "ff", "b"},
		{"repeat_n: s", seq(bt.RepeatN(2, l("a")), l("b")), "s", "a"},
		{"repeat_n: s, s", seq(bt.RepeatN(2, l("a")), l("b")), "ss", "b"},
		{"random: succeed", seq(bt.Random(l("a"), l("b"), l("c")), l("d")), "s", "d"},
		{"random_weighted: succeed",
			seq(bt.RandomWeighted(bt.WithWeight(2, l("a")), bt.WithWeight(1, l("b"))), l("d")), "s", "d"},
		{"always_succeed: start", seq(bt.AlwaysSucceed(l("a")), l("b")), "", "a"},
		{"always_succeed: fail", seq(bt.AlwaysSucceed(l("a")), l("b")), "f", "b"},
		{"always_fail: start", seq(bt.AlwaysFail(l("a")), l("b")), "", "a"},
		{"always_fail: succeed", seq(bt.AlwaysFail(l("a")), l("b")), "s", "a"},
		{"negate: start", seq(bt.Negate(l("a")), l("b")), "", "a"},
		{"negate: succeed", seq(bt.Negate(l("a")), l("b")), "s", "a"},
		{"negate: fail", seq(bt.Negate(l("a")), l("b")), "f", "b"},
		{"start over: select", sel(l("a"), l("b")), "ss", "a"},
		{"start over: sequence", seq(l("a"), l("b")), "ff", "a"},
		{"deep tree",
			seq(seq(l("a"), l("b"), l("c")), sel(l("x"), l("y"), sel(l("z"))), l("done")), "sssffs", "done"},
		{"nested repeat_n: s, s, s", seq(bt.RepeatN(2, bt.RepeatN(2, l("a"))), l("b")), "sss", "a"},
		{"nested repeat_n: s, s, s, s", seq(bt.RepeatN(2, bt.RepeatN(2, l("a"))), l("b")), "ssss", "b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := run(tc.tree, tc.signals).Value(); got != tc.want {
				t.Errorf("after %q got %q, want %q", tc.signals, got, tc.want)
			}
		})
	}
}

// TestStatus checks that a version tells whether its signal completed the
// whole tree, and how.
func TestStatus(t *testing.T) {
	tree := bt.Sequence(l("a"), l("b"))
	tests := []struct {
		signals string
		want    bt.Status
	}{
		{"", bt.Running},
		{"s", bt.Running},
		{"ss", bt.Success},
		{"ssf", bt.Failure}, // after starting over, a fails the sequence
		{"f", bt.Failure},
		{"fs", bt.Running},
	}
	for _, tc := range tests {
		if got := run(tree, tc.signals).Status(); got != tc.want {
			t.Errorf("Sequence(a,b) after %q: status %v, want %v", tc.signals, got, tc.want)
		}
	}
	// A bare leaf completes on every signal.
	if got := run(l("x"), "f").Status(); got != bt.Failure {
		t.Errorf("leaf after f: status %v, want failure", got)
	}
	// Signal(Running) is a no-op that returns the same version.
	v := run(tree, "s")
	if got := v.Signal(bt.Running); got != v {
		t.Errorf("Signal(Running) changed the version")
	}
	if got := v.Signal(bt.Success).Value(); got != "a" {
		t.Errorf("Signal(Success) gave %q, want a", got)
	}
}

// TestNodeString checks the one-line form of definitions.
func TestNodeString(t *testing.T) {
	tests := []struct {
		name string
		node bt.Node[string]
		want string
	}{
		{"leaf", l("a"), "a"},
		{"ai b", bt.Sequence(l("top_left"), bt.RepeatUntilFail(bt.Select(l("go_right"), l("beginning_of_next_row")))),
			"sequence(top_left, repeat_until_fail(select(go_right, beginning_of_next_row)))"},
		{"counts and weights", bt.Select(bt.RepeatN(2, l("a")), bt.RandomWeighted(bt.WithWeight(3, l("b")), bt.WithWeight(1, l("c")))),
			"select(repeat_n[2](a), random_weighted[3,1](b, c))"},
		{"custom", bt.CustomNode(resumingSelect{}, l("a")), "custom[behaviortree_test.resumingSelect](a)"},
		{"zero", bt.Node[string]{}, "<zero>"},
	}
	for _, tc := range tests {
		if got := tc.node.String(); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
