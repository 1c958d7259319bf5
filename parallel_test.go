package behaviortree_test

import (
	"fmt"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// frontier returns the values of t's frontier, joined with commas.
func frontier(t bt.Tree[string]) string {
	var vs []string
	for f := range t.Frontier() {
		vs = append(vs, f.Value())
	}
	return strings.Join(vs, ",")
}

// at returns the focus of t whose value is v.
func at(t *testing.T, tr bt.Tree[string], v string) bt.Focus[string] {
	t.Helper()
	for f := range tr.Frontier() {
		if f.Value() == v {
			return f
		}
	}
	t.Fatalf("%q is not in the frontier %s", v, frontier(tr))
	return bt.Focus[string]{}
}

// TestParallelTable drives parallel nodes through scripts of signals, each
// "value+" or "value-", checking the frontier, the status and the halted
// leaves after every signal.
func TestParallelTable(t *testing.T) {
	l := bt.Leaf[string]
	type want struct{ frontier, status, halted string }
	tests := []struct {
		name  string
		def   bt.Node[string]
		steps []string
		want  []want
	}{
		{"parallel: all succeed", bt.Sequence(bt.Parallel(l("move"), l("scan")), l("report")),
			[]string{"scan+", "move+", "report+"},
			[]want{{"move", "running", ""}, {"report", "running", ""}, {"move,scan", "success", ""}}},
		{"parallel: one failure fails and halts the rest", bt.Select(bt.Parallel(l("a"), l("b"), l("c")), l("fallback")),
			[]string{"b-", "fallback+"},
			[]want{{"fallback", "running", "a,c"}, {"a,b,c", "success", ""}}},
		{"race: first success wins", bt.Sequence(bt.Race(l("a"), l("b")), l("done")),
			[]string{"a-", "b+"},
			[]want{{"b", "running", ""}, {"done", "running", ""}}},
		{"race: all fail", bt.Select(bt.Race(l("a"), l("b")), l("other")),
			[]string{"b-", "a-"},
			[]want{{"a", "running", ""}, {"other", "running", ""}}},
		{"threshold 2 of 3", bt.Sequence(bt.Threshold(2, 2, l("a"), l("b"), l("c")), l("z")),
			[]string{"a+", "b-", "c+"},
			[]want{{"b,c", "running", ""}, {"c", "running", ""}, {"z", "running", ""}}},
		{"threshold: success unreachable", bt.Select(bt.Threshold(3, 3, l("a"), l("b"), l("c")), l("z")),
			[]string{"c-"},
			[]want{{"z", "running", "a,b"}}},
		{"threshold: all but one", bt.Sequence(bt.Threshold(-2, -1, l("a"), l("b"), l("c")), l("z")),
			[]string{"c+", "a+"},
			[]want{{"a,b", "running", ""}, {"z", "running", "b"}}},
		{"nested parallels", bt.Sequence(bt.Parallel(l("a"), bt.Race(l("b"), l("c"))), l("z")),
			[]string{"c+", "a+", "z+"},
			[]want{{"a", "running", "b"}, {"z", "running", ""}, {"a,b,c", "success", ""}}},
		{"a branch runs a sequence", bt.Sequence(bt.Parallel(bt.Sequence(l("a1"), l("a2")), l("b")), l("z")),
			[]string{"a1+", "b+", "a2+"},
			[]want{{"a2,b", "running", ""}, {"a2", "running", ""}, {"z", "running", ""}}},
		{"a branch loops", bt.Sequence(bt.Race(bt.RepeatUntilFail(l("a")), l("b")), l("z")),
			[]string{"a+", "a+", "a-"},
			[]want{{"a,b", "running", ""}, {"a,b", "running", ""}, {"z", "running", "b"}}},
		{"halted branches restart fresh", bt.RepeatUntilFail(bt.Race(bt.Sequence(l("a1"), l("a2")), l("b"))),
			[]string{"a1+", "b+", "a1+"},
			[]want{{"a2,b", "running", ""}, {"a1,b", "running", "a2"}, {"a2,b", "running", ""}}},
		{"repeat counters per branch", bt.Sequence(bt.Parallel(bt.RepeatN(2, l("a")), bt.RepeatN(2, l("b"))), l("z")),
			[]string{"a+", "b+", "b+", "a+"},
			[]want{{"a,b", "running", ""}, {"a,b", "running", ""}, {"a", "running", ""}, {"z", "running", ""}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := bt.Start(tc.def)
			for i, s := range tc.steps {
				v, sig := s[:len(s)-1], bt.Success
				if s[len(s)-1] == '-' {
					sig = bt.Failure
				}
				prev, before := tr, frontier(tr)
				next, err := tr.SignalAt(at(t, tr, v), sig)
				if err != nil {
					t.Fatalf("step %d (%s): %v", i, s, err)
				}
				tr = next
				var halted []string
				for f := range tr.Halted() {
					halted = append(halted, f.Value())
				}
				got := want{frontier(tr), tr.Status().String(), strings.Join(halted, ",")}
				if got != tc.want[i] {
					t.Fatalf("after %v: got %+v, want %+v", tc.steps[:i+1], got, tc.want[i])
				}
				if frontier(prev) != before {
					t.Fatalf("step %d changed the previous version's frontier", i)
				}
			}
		})
	}
}

// TestSignalAtErrors checks that stale and foreign handles are errors.
func TestSignalAtErrors(t *testing.T) {
	l := bt.Leaf[string]
	def := bt.Sequence(bt.Parallel(l("a"), l("b")), l("z"))
	t0 := bt.Start(def)
	a := at(t, t0, "a")
	t1, err := t0.SignalAt(a, bt.Success)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := t1.SignalAt(a, bt.Success); err == nil || !strings.Contains(err.Error(), "not focused") {
		t.Errorf("stale handle: error %v", err)
	}
	other := bt.Start(bt.Parallel(l("a"), l("b")))
	if _, err := t0.SignalAt(at(t, other, "a"), bt.Success); err == nil {
		t.Error("a handle from another tree: no error")
	}
	if _, err := t0.SignalAt(bt.Focus[string]{}, bt.Success); err == nil {
		t.Error("zero Focus: no error")
	}
	if _, err := t0.SignalAt(a, bt.Status(9)); err == nil || err.Error() != "behaviortree.Tree.SignalAt: invalid Status(9)" {
		t.Errorf("invalid status: error %v", err)
	}
	if u, err := t0.SignalAt(a, bt.Running); err != nil || !u.Equal(t0) {
		t.Errorf("Running: %v, %v", u, err)
	}
	plain := bt.Start(bt.Sequence(l("x"), l("y")))
	if _, err := plain.SignalAt(at(t, t0, "a"), bt.Success); err == nil {
		t.Error("plain tree, foreign handle: no error")
	}
	if u, err := plain.SignalAt(at(t, plain, "x"), bt.Success); err != nil || u.Value() != "y" {
		t.Errorf("plain tree: %v, %v", u.Value(), err)
	}
}

// TestSucceedSignalsTheFirstFocus checks what Succeed and Fail do with
// several foci.
func TestSucceedSignalsTheFirstFocus(t *testing.T) {
	l := bt.Leaf[string]
	tr := bt.Start(bt.Sequence(bt.Parallel(l("a"), l("b"), l("c")), l("z")))
	if tr.Value() != "a" {
		t.Fatalf("Value = %q, want the first focus a", tr.Value())
	}
	tr = tr.Succeed()
	if got := frontier(tr); got != "b,c" || tr.Value() != "b" {
		t.Fatalf("after Succeed: %s (Value %s)", got, tr.Value())
	}
	tr = tr.Succeed().Succeed()
	if tr.Value() != "z" || tr.LastSignal() != bt.Success {
		t.Fatalf("after three Succeeds: %s", tr.Value())
	}
}

func ExampleTree_SignalAt() {
	// A scout fires and reports at the same time; the turn ends when both
	// are done, or as soon as one fails.
	scout := bt.Sequence(bt.Parallel(bt.Leaf("fire"), bt.Leaf("report")), bt.Leaf("end turn"))
	tree := bt.Start(scout)
	todo := func() (vs []string) { // the leaves the game is to do
		for f := range tree.Frontier() {
			vs = append(vs, f.Value())
		}
		return vs
	}
	fmt.Println(todo())
	for f := range tree.Frontier() {
		if f.Value() == "report" {
			tree, _ = tree.SignalAt(f, bt.Success) // the report went out first
		}
	}
	fmt.Println(todo())
	tree = tree.Succeed() // the shot landed
	fmt.Println(todo())
	// Output:
	// [fire report]
	// [fire]
	// [end turn]
}
