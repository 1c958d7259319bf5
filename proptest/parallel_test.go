package proptest_test

import (
	"fmt"
	"iter"
	"reflect"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/proptest"
)

var parTree = proptest.ParallelTree[string](leaves, proptest.Config{})

// pick is one signal of a frontier script: the focus with index Which (modulo
// the frontier's size) gets the outcome OK.
type pick struct {
	Which int
	OK    bool
}

func (p pick) String() string {
	if p.OK {
		return fmt.Sprintf("%d+", p.Which)
	}
	return fmt.Sprintf("%d-", p.Which)
}

var picks = gen.SliceOf(gen.Struct(reflect.TypeOf(pick{}), map[string]gopter.Gen{
	"Which": gen.IntRange(0, 7),
	"OK":    gen.Bool(),
}))

// frontierOf returns the paths of t's frontier.
func frontierOf(t bt.Tree[string]) [][]int {
	var out [][]int
	for f := range t.Frontier() {
		out = append(out, f.Path())
	}
	return out
}

func status(ok bool) bt.Status {
	if ok {
		return bt.Success
	}
	return bt.Failure
}

// TestParallelLaws checks the laws of parallel nodes in the
// Value/Succeed/Fail style against the reference Model and each other. To
// reproduce a failure, rerun with the printed seed:
// PROPTEST_SEED=<seed> go test ./proptest -run TestParallelLaws
func TestParallelLaws(t *testing.T) {
	props := gopter.NewProperties(parameters(t))

	props.Property("P1 the frontier and statuses agree with the reference model", prop.ForAll(
		func(n bt.Node[string], script []pick) string {
			tr, m := bt.Start(n), proptest.NewModel(n, nil)
			for i, p := range script {
				got, want := frontierOf(tr), m.Frontier()
				if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
					return fmt.Sprintf("%v after %v: frontier %v, model %v", n, script[:i], got, want)
				}
				path := want[p.Which%len(want)]
				var f bt.Focus[string]
				for g := range tr.Frontier() {
					if slices.Equal(g.Path(), path) {
						f = g
					}
				}
				next, err := tr.SignalAt(f, status(p.OK))
				if err != nil {
					return fmt.Sprintf("%v after %v: %v", n, script[:i], err)
				}
				st, _ := m.SignalAt(path, status(p.OK))
				if next.Status() != st {
					return fmt.Sprintf("%v after %v: status %v, model %v", n, script[:i+1], next.Status(), st)
				}
				tr = next
			}
			return ""
		}, parTree, picks))

	props.Property("P2 signalling two leaves of a frontier in either order gives the same version", prop.ForAll(
		func(n bt.Node[string], prefix []pick, okA, okB bool) string {
			tr := bt.Start(n)
			for _, p := range prefix {
				fs := slices.Collect(tr.Frontier())
				tr, _ = tr.SignalAt(fs[p.Which%len(fs)], status(p.OK))
			}
			fs := slices.Collect(tr.Frontier())
			for i := range fs {
				for j := range fs {
					if i == j {
						continue
					}
					a, _ := tr.SignalAt(fs[i], status(okA))
					b, _ := tr.SignalAt(fs[j], status(okB))
					if crossed(a) || crossed(b) {
						continue // a threshold was crossed in between: the law does not apply
					}
					ab, errB := a.SignalAt(fs[j], status(okB))
					ba, errA := b.SignalAt(fs[i], status(okA))
					if errA != nil || errB != nil {
						return fmt.Sprintf("%v: a leaf of the frontier was lost: %v, %v", n, errA, errB)
					}
					if !slices.EqualFunc(frontierOf(ab), frontierOf(ba), slices.Equal[[]int]) || ab.Status() != ba.Status() {
						return fmt.Sprintf("%v: %v then %v gives %v, the other order %v", n, fs[i].Path(), fs[j].Path(), frontierOf(ab), frontierOf(ba))
					}
					if okA == okB && !ab.Equal(ba) {
						return fmt.Sprintf("%v: %v and %v in either order are not Equal versions", n, fs[i].Path(), fs[j].Path())
					}
				}
			}
			return ""
		}, parTree, picks, gen.Bool(), gen.Bool()))

	props.Property("P3 a parallel node of one child behaves like the child", prop.ForAll(
		func(n bt.Node[string], sig []bt.Status) string {
			for _, wrapped := range []bt.Node[string]{bt.Parallel(n), bt.Race(n), bt.Threshold(1, 1, n), bt.Threshold(-1, -1, n)} {
				got := traceOf(bt.Start(bt.Sequence(wrapped, bt.Leaf("after"))), sig)
				want := traceOf(bt.Start(bt.Sequence(n, bt.Leaf("after"))), sig)
				if d := diff(wrapped.String(), got, want); d != "" {
					return d
				}
			}
			return ""
		}, detTree, signals))

	props.Property("P4 halted branches start afresh when their parallel is entered again", prop.ForAll(
		func(a, b, c bt.Node[string], which int, script []pick) string {
			par := []bt.Node[string]{bt.Parallel(a, b, c), bt.Race(a, b, c), bt.Threshold(2, 2, a, b, c)}[which]
			// RepeatUntilFail enters par again when it succeeds, and the root starts
			// over when it fails: either way, par starts afresh, and since its
			// children hold no parallel node, halted leaves mean just that.
			loop := bt.RepeatUntilFail(par)
			fresh := frontierOf(bt.Start(loop))
			tr := bt.Start(loop)
			for i, p := range script {
				fs := slices.Collect(tr.Frontier())
				tr, _ = tr.SignalAt(fs[p.Which%len(fs)], status(p.OK))
				if _, halted := first(tr.Halted()); halted {
					if got := frontierOf(tr); !slices.EqualFunc(got, fresh, slices.Equal[[]int]) {
						return fmt.Sprintf("%v after %v: entered again with frontier %v, fresh %v", loop, script[:i+1], got, fresh)
					}
				}
			}
			return ""
		}, detTree, detTree, detTree, gen.IntRange(0, 2), picks))

	props.TestingRun(t)
}

// crossed reports whether the signal that made t crossed a threshold that
// halted branches, or ended the whole tree.
func crossed(t bt.Tree[string]) bool {
	_, halted := first(t.Halted())
	return halted || t.Status() != bt.Running
}

// first returns the first value of seq, if any.
func first[T any](seq iter.Seq[T]) (T, bool) {
	for v := range seq {
		return v, true
	}
	var zero T
	return zero, false
}
