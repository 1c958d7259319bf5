package behaviortree

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/zipbt/behaviortree/custom"
	"github.com/zipbt/behaviortree/internal/testlong"
)

// This file holds the tests of the signal's inlined fast path (tree.go,
// Tree.signal): the layout that its slow path relies on, a differential
// test against the plain rules, and that the slow path allocates no more
// than the rules do.

// TestTreeWordsLayout checks that treeWords is the layout of a Tree[L],
// and placeHead the first field of a place[L], whatever L is: the slow path
// of a signal reads a version's words and its focus's placeHead without
// knowing L.
func TestTreeWordsLayout(t *testing.T) {
	var w treeWords
	want := [6]uintptr{unsafe.Sizeof(w), unsafe.Offsetof(w.focus), unsafe.Offsetof(w.counts), unsafe.Offsetof(w.ext), unsafe.Offsetof(w.made), 0}
	for name, got := range map[string][6]uintptr{
		"string":        layoutOf[string](),
		"int8":          layoutOf[int8](),
		"struct{}":      layoutOf[struct{}](),
		"[5]complex128": layoutOf[[5]complex128](),
		"Fluent":        layoutOf[Fluent](),
		"any":           layoutOf[any](),
	} {
		if got != want {
			t.Errorf("Tree[%s]: size, offsets of focus, counts, ext, made, and placeHead's in place: %v; treeWords: %v", name, got, want)
		}
	}
}

// layoutOf returns the size of a Tree[L], the offsets of its focus,
// counts, ext and made, and the offset of placeHead in a place[L].
func layoutOf[L any]() [6]uintptr {
	var tr Tree[L]
	var p place[L]
	z := unsafe.Offsetof(tr.z)
	return [6]uintptr{unsafe.Sizeof(tr), z + unsafe.Offsetof(tr.z.focus), z + unsafe.Offsetof(tr.z.counts),
		z + unsafe.Offsetof(tr.z.ext), unsafe.Offsetof(tr.made), unsafe.Offsetof(p.placeHead)}
}

// TestSignalFastPathMatchesRules drives random definitions two ways at once:
// Start's program, whose static moves are compiled to their leaf and taken
// by the inlined fast path, and a program of the plain moves only
// (compileWith(root, false)), whose every signal takes the general loop.
// After each random signal it compares the two versions: value, status,
// last signal, focused position, frontier and saved bytes (or the error of
// saving). It also goes back now and then to an older pair of versions and
// signals them again: versions are values, and a signal never changes the
// version it is given.
func TestSignalFastPathMatchesRules(t *testing.T) {
	trees, signals := testlong.Pick(150, 400), 300
	if testing.Short() {
		trees = 100
	}
	r := rand.New(rand.NewPCG(31, 3))
	fast, slow := 0, 0
	for i := range trees {
		def := randomDef(r, 0)
		seed := r.Uint64()
		a := Start(def, WithSeed(seed))
		b := start(compileWith(def.n, false), config{seed: seed, seeded: true})
		type pair struct{ a, b Tree[string] }
		var old []pair
		where := func(j int, again string) func() string {
			return func() string { return fmt.Sprintf("tree %d (%v), signal %d%s", i, def, j, again) }
		}
		sameVersion(t, where(-1, ""), a, b)
		for j := range signals {
			if len(old) > 0 && r.IntN(8) == 0 {
				p := old[r.IntN(len(old))]
				a, b = p.a, p.b
			}
			old = append(old, pair{a, b})
			if f := a.z.focus; f.up[0].kind == moveLeaf || f.up[1].kind == moveLeaf {
				fast++
			} else {
				slow++
			}
			if r.IntN(2) == 0 {
				a, b = a.Succeed(), b.Succeed()
			} else {
				a, b = a.Fail(), b.Fail()
			}
			sameVersion(t, where(j, ""), a, b)
			if t.Failed() {
				return
			}
		}
		// The versions kept are unchanged: signal each again.
		for k, p := range old {
			sameVersion(t, where(k, ", again"), p.a.Succeed(), p.b.Succeed())
			sameVersion(t, where(k, ", again"), p.a.Fail(), p.b.Fail())
			if t.Failed() {
				return
			}
		}
	}
	t.Logf("%d versions at a compiled leaf move, %d at others only", fast, slow)
	if fast == 0 || slow == 0 {
		t.Error("the random definitions do not reach both paths")
	}
}

// sameVersion reports a difference between a, of Start's program, and b,
// of the plain program.
func sameVersion(t *testing.T, where func() string, a, b Tree[string]) {
	t.Helper()
	if a.Value() != b.Value() || a.Status() != b.Status() || a.LastSignal() != b.LastSignal() || a.z.focus.id != b.z.focus.id {
		t.Errorf("%s: fast path %q (%v, %v, position %d), rules %q (%v, %v, position %d)", where(),
			a.Value(), a.Status(), a.LastSignal(), a.z.focus.id, b.Value(), b.Status(), b.LastSignal(), b.z.focus.id)
		return
	}
	var fa, fb []int32
	for f := range a.Frontier() {
		fa = append(fa, f.leaf.id)
	}
	for f := range b.Frontier() {
		fb = append(fb, f.leaf.id)
	}
	if fmt.Sprint(fa) != fmt.Sprint(fb) {
		t.Errorf("%s: frontier %v, rules' %v", where(), fa, fb)
	}
	sa, errA := a.MarshalBinary()
	sb, errB := b.MarshalBinary()
	if fmt.Sprint(errA) != fmt.Sprint(errB) || !bytes.Equal(sa, sb) {
		t.Errorf("%s: saved %x (%v), rules' %x (%v)", where(), sa, errA, sb, errB)
	}
}

// randomDef returns a random definition of every kind that Start runs,
// at most 5 levels deep below depth.
func randomDef(r *rand.Rand, depth int) Node[string] {
	if depth >= 5 || r.IntN(5) < 1+depth {
		return Leaf(fmt.Sprintf("l%d", r.IntN(6)))
	}
	kids := func() []Node[string] {
		k := make([]Node[string], 1+r.IntN(3))
		for i := range k {
			k[i] = randomDef(r, depth+1)
		}
		return k
	}
	one := func() Node[string] { return randomDef(r, depth+1) }
	switch r.IntN(15) {
	case 0, 1:
		return Select(kids()...)
	case 2, 3:
		return Sequence(kids()...)
	case 4:
		return RepeatUntilFail(one())
	case 5:
		return RepeatUntilSucceed(one())
	case 6, 7:
		return RepeatN(2+r.IntN(2), one())
	case 8:
		return AlwaysSucceed(one())
	case 9:
		return AlwaysFail(one())
	case 10:
		return Negate(one())
	case 11:
		return Random(kids()...)
	case 12:
		k := kids()
		w := make([]Weighted[string], len(k))
		for i, c := range k {
			w[i] = WithWeight(1+r.IntN(3), c)
		}
		return RandomWeighted(w...)
	case 13:
		k := kids()
		switch r.IntN(3) {
		case 0:
			return Parallel(k...)
		case 1:
			return Race(k...)
		}
		return Threshold(1+r.IntN(len(k)), 1+r.IntN(len(k)), k...)
	}
	return CustomNode(resumeAt{}, kids()...)
}

// resumeAt is a savable custom select that starts, each time it is
// entered, at the child that last ended it with a success.
type resumeAt struct{ at int }

func (s resumeAt) Enter(c custom.Context) (int, custom.Traversal) { return s.at, s }

func (s resumeAt) OnSucceed(c custom.Context) (custom.Move, custom.Traversal) {
	return custom.Succeed, resumeAt{c.Child()}
}

func (s resumeAt) OnFail(c custom.Context) (custom.Move, custom.Traversal) {
	if next := c.Child() + 1; next < c.Len() {
		return custom.To(next), s
	}
	return custom.Fail, resumeAt{}
}

func (s resumeAt) MarshalState() ([]byte, error) { return []byte{byte(s.at)}, nil }

func (resumeAt) UnmarshalState(data []byte, children int) (custom.Traversal, error) {
	if len(data) != 1 || int(data[0]) >= children {
		return nil, fmt.Errorf("resumeAt: bad state %x", data)
	}
	return resumeAt{int(data[0])}, nil
}

// TestSignalSlowPathAllocs checks that a signal that leaves the fast path
// allocates what its rules do, and no copy of the version: the last run of
// a RepeatN pops its counter and restarts the root, which allocates
// nothing. It signals directly, where Succeed and Fail are inlined, and
// through method values and an interface, which call them as functions, for
// leaf types that the package's own code instantiates too (Fluent, Call).
func TestSignalSlowPathAllocs(t *testing.T) {
	slowPathAllocs(t, "a")
	slowPathAllocs(t, Fluent{Name: "a"})
	slowPathAllocs(t, Call{Name: "a"})
}

func slowPathAllocs[L any](t *testing.T, leaf L) {
	t.Helper()
	t1 := Start(RepeatN(2, Leaf(leaf))).Succeed() // the counter: one run left
	if t1.z.counts == nil || t1.z.focus.up[1].kind == moveLeaf {
		t.Fatal("the version does not take the slow path")
	}
	var sink Tree[L]
	if n := testing.AllocsPerRun(100, func() { sink = t1.Succeed() }); n != 0 {
		t.Errorf("%T: Succeed past the fast path: %v allocations, want 0", leaf, n)
	}
	if n := testing.AllocsPerRun(100, func() { sink = t1.Fail() }); n != 0 {
		t.Errorf("%T: Fail past the fast path: %v allocations, want 0", leaf, n)
	}
	var i interface {
		Succeed() Tree[L]
		Fail() Tree[L]
	} = t1
	for name, f := range map[string]func() Tree[L]{"Succeed": t1.Succeed, "Fail": t1.Fail, "i.Succeed": i.Succeed, "i.Fail": i.Fail} {
		if n := testing.AllocsPerRun(100, func() { sink = f() }); n != 0 {
			t.Errorf("%T: %s past the fast path: %v allocations, want 0", leaf, name, n)
		}
	}
	if sink.Status() != Success { // RepeatN succeeds after its last run, whatever the run's outcome
		t.Errorf("%T: status %v after the last run", leaf, sink.Status())
	}
}

// TestZeroTreeSignals checks the messages of a signal on the zero Tree,
// which the fast path hands to its slow path.
func TestZeroTreeSignals(t *testing.T) {
	for name, f := range map[string]func(Tree[string]){
		"Succeed": func(z Tree[string]) { z.Succeed() },
		"Fail":    func(z Tree[string]) { z.Fail() },
	} {
		func() {
			defer func() {
				want := "behaviortree.Tree." + name + ": zero Tree (use Start)"
				if got := recover(); got != want {
					t.Errorf("%s on the zero Tree: panic %v, want %q", name, got, want)
				}
			}()
			f(Tree[string]{})
		}()
	}
}
