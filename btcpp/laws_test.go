package btcpp

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	bt "github.com/zipbt/behaviortree"
)

// The laws of persistent versions (as package proptest states them for
// the root package's trees) over BehaviorTree.CPP trees: random trees
// from the corpus's XML texts, and random answers of their leaves.
//
//	go test -run Laws ./btcpp/   (BTCPP_CORPUS, PROPTEST_SEED, PROPTEST_CASES)

// oracle answers the leaves of a law's tree: each answer is a function of
// a seed, the turn of the version being ticked (its clock, on the law
// trees' turn clock, and whether it was ticked), and the order of the call
// in that tick, so that ticking an old version again gets the same
// answers.
type oracle struct {
	seed       uint64
	tick, call int
}

// at prepares the answers of a tick of v with the seed seed.
func (o *oracle) at(v *Tree, seed uint64) {
	o.seed, o.tick, o.call = seed, int(v.now/lawTurn), 0
	if v.ticked {
		o.tick++
	}
}

// next returns the next answer among choices.
func (o *oracle) next(choices ...Status) Status {
	o.call++
	x := o.seed ^ uint64(o.tick)*0x9E3779B97F4A7C15 ^ uint64(o.call)*0xBF58476D1CE4E5B9
	x ^= x >> 31
	x *= 0x94D049BB133111EB
	x ^= x >> 29
	return choices[x%uint64(len(choices))]
}

// lawTurn is the turn of the law trees' clock.
const lawTurn = 100 * time.Millisecond

// lawTree is a corpus case built with the oracle's leaves.
type lawTree struct {
	name string
	v0   *Tree
	once bool
	o    *oracle
}

// register registers c's leaves in f, answered by o; their outputs follow
// the case's rules from the ports they read (as the corpus driver's do).
func registerOracle(f *Factory, c *btCase, o *oracle) error {
	for id, l := range c.Leaves {
		var ports []leafPort
		var decl []Port
		for _, p := range l.Ports {
			lp := leafPort{name: p[1], typ: p[2]}
			switch p[0] {
			case "out":
				lp.dir = Out
			case "inout":
				lp.dir = InOut
			}
			port := Port{Name: p[1], Dir: lp.dir, Type: p[2]}
			if len(p) > 3 {
				port = port.WithDefault(p[3])
			}
			ports, decl = append(ports, lp), append(decl, port)
		}
		out := l.Out
		call := func(c *Call, choices ...Status) (Status, error) {
			read := map[string]any{}
			for _, p := range ports {
				if p.dir == Out {
					continue
				}
				var v any
				var err error
				switch p.typ {
				case "int":
					var i int
					i, err = c.Int(p.name)
					v = int64(i)
				case "double":
					v, err = c.Float(p.name)
				case "bool":
					v, err = c.Bool(p.name)
				default:
					v, err = c.String(p.name)
				}
				if err == nil {
					read[p.name] = v
				}
			}
			st := o.next(choices...)
			for _, p := range ports {
				rule, ok := out[p.name]
				if p.dir == In || !ok {
					continue
				}
				v, ok, err := ruleValue(rule, read)
				if err != nil || !ok {
					continue
				}
				w, err := convertOut(v, p.typ)
				if err != nil {
					continue
				}
				if err := c.Set(p.name, w); err != nil {
					return Idle, err
				}
			}
			return st, nil
		}
		var err error
		switch l.Kind {
		case "action":
			step := func(c *Call) (Status, error) { return call(c, Running, Success, Failure) }
			err = f.RegisterAction(id, Action{OnStart: step, OnRunning: step}, decl...)
		case "sync":
			err = f.RegisterSync(id, func(c *Call) (Status, error) { return call(c, Success, Failure) }, decl...)
		default:
			// A Go condition may also skip, or run.
			err = f.RegisterCondition(id, func(c *Call) (Status, error) { return call(c, Success, Failure, Success, Failure, Skipped, Running) }, decl...)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// lawTrees builds every corpus case that builds, and the trees on the
// clock of timedLawCases.
func lawTrees(t *testing.T) []*lawTree {
	var out []*lawTree
	timed := timedLawCases(t)
	cases := append(timed, readConformanceCases(t, conformanceCorpusFile())...)
	for i := range cases {
		c := &cases[i]
		o := &oracle{}
		f := NewFactory()
		if err := registerOracle(f, c, o); err != nil {
			if i < len(timed) {
				t.Fatalf("%s: %v", c.ID, err)
			}
			continue
		}
		for name, v := range c.Enums {
			n, _ := v.Int64()
			f.Enum(name, int(n))
		}
		opts := []Option{WithTurnClock(lawTurn), WithTickBudget(200)}
		for k, v := range c.BB {
			opts = append(opts, WithEntry(k, v))
		}
		main := ""
		if c.Main != nil {
			main = *c.Main
		}
		doc, err := f.Parse(c.XML)
		var v0 *Tree
		if err == nil {
			v0, err = doc.Build(main, opts...)
		}
		if err != nil {
			if i < len(timed) {
				t.Fatalf("%s: %v", c.ID, err)
			}
			continue
		}
		out = append(out, &lawTree{name: c.ID, v0: v0, once: c.Tick == "once", o: o})
	}
	if len(out) == 0 {
		t.Skip("no corpus case builds")
	}
	return out
}

// shown is what a version shows, and how its tick went.
type shown struct {
	res    Status
	err    string
	status string
	clock  time.Duration
	board  []map[string][3]any
}

func show(v *Tree, res Status, err error) shown {
	s := shown{res: res, status: v.String(), clock: v.Clock(), board: v.bb.dump()}
	if err != nil {
		s.err = err.Error()
	}
	return s
}

// tickWith ticks v with the oracle's answers for seed.
func (lt *lawTree) tickWith(v *Tree, seed uint64) (*Tree, shown) {
	lt.o.at(v, seed)
	var next *Tree
	var res Status
	var err error
	if lt.once {
		next, res, err = v.TickOnce()
	} else {
		next, res, err = v.Tick()
	}
	return next, show(next, res, err)
}

// run ticks v n times with seed and returns the versions after v and what
// each showed.
func (lt *lawTree) run(v *Tree, n int, seed uint64) ([]*Tree, []shown) {
	var vs []*Tree
	var ss []shown
	for i := 0; i < n; i++ {
		var s shown
		v, s = lt.tickWith(v, seed)
		vs, ss = append(vs, v), append(ss, s)
	}
	return vs, ss
}

// lawParameters are gopter's parameters: PROPTEST_SEED and
// PROPTEST_CASES (100 by default) as package proptest reads them.
func lawParameters(t *testing.T) *gopter.TestParameters {
	seed := int64(33)
	if s := os.Getenv("PROPTEST_SEED"); s != "" {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("PROPTEST_SEED=%q: %v", s, err)
		}
		seed = v
	}
	p := gopter.DefaultTestParametersWithSeed(seed)
	p.MinSuccessfulTests = 100
	if s := os.Getenv("PROPTEST_CASES"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 {
			t.Fatalf("PROPTEST_CASES=%q: want a positive integer", s)
		}
		p.MinSuccessfulTests = v
	}
	t.Logf("gopter seed %d: rerun with PROPTEST_SEED=%d go test ./btcpp -run '%s'", seed, seed, t.Name())
	return p
}

// TestLaws checks the laws on corpus trees.
func TestLaws(t *testing.T) {
	trees := lawTrees(t)
	t.Logf("%d corpus trees build, and %d on the clock", len(trees)-len(timedLawTexts), len(timedLawTexts))
	// Half the draws are trees on the clock (lawTrees puts them first).
	pick := gen.OneGenOf(gen.IntRange(0, len(timedLawTexts)-1), gen.IntRange(0, len(trees)-1))
	ticks := gen.IntRange(1, 12)
	seeds := gen.UInt64()
	props := gopter.NewProperties(lawParameters(t))

	props.Property("old versions never change", prop.ForAll(
		func(i, n int, seed, other uint64) string {
			lt := trees[i]
			vs, ss := lt.run(lt.v0, n, seed)
			vs = append([]*Tree{lt.v0}, vs...)
			ss = append([]shown{show(lt.v0, Idle, nil)}, ss...)
			// What ticking each version gives, the first time.
			first := make([]shown, len(vs))
			for k, v := range vs {
				_, first[k] = lt.tickWith(v, seed)
			}
			// Tick on, and branch from every version with other answers.
			lt.run(vs[len(vs)-1], n, seed)
			for _, v := range vs {
				lt.run(v, 3, other)
			}
			for k, v := range vs {
				if got := show(v, ss[k].res, nil); !reflect.DeepEqual(got.board, ss[k].board) || got.status != ss[k].status || got.clock != ss[k].clock {
					return fmt.Sprintf("%s: version %d changed: %s %v, was %s %v", lt.name, k, got.status, got.board, ss[k].status, ss[k].board)
				}
				if _, again := lt.tickWith(v, seed); !reflect.DeepEqual(again, first[k]) {
					return fmt.Sprintf("%s: version %d ticks to %+v, first to %+v", lt.name, k, again, first[k])
				}
			}
			return ""
		}, pick, ticks, seeds, seeds))

	props.Property("save and restore give an equal version that ticks on identically", prop.ForAll(
		func(i, n int, seed uint64) string {
			lt := trees[i]
			vs, _ := lt.run(lt.v0, n, seed)
			for k, v := range append([]*Tree{lt.v0}, vs...) {
				data, err := v.MarshalBinary()
				if err != nil {
					return fmt.Sprintf("%s: version %d: %v", lt.name, k, err)
				}
				r, err := lt.v0.Restore(data)
				if err != nil {
					return fmt.Sprintf("%s: version %d: %v", lt.name, k, err)
				}
				if d := sameVersion(v, r); d != "" {
					return fmt.Sprintf("%s: version %d restores with other %s", lt.name, k, d)
				}
				_, a := lt.run(v, 4, seed)
				_, b := lt.run(r, 4, seed)
				if !reflect.DeepEqual(a, b) {
					return fmt.Sprintf("%s: version %d ticks to %+v, restored to %+v", lt.name, k, a, b)
				}
			}
			return ""
		}, pick, ticks, seeds))

	props.Property("a History of versions undoes to an equal version", prop.ForAll(
		func(i, n, back int, seed uint64) string {
			lt := trees[i]
			vs, ss := lt.run(lt.v0, n, seed)
			h := bt.NewHistory(lt.v0)
			for _, v := range vs {
				h = h.Push(v)
			}
			back = back % (n + 1)
			u := h
			for j := 0; j < back; j++ {
				u = u.Undo()
			}
			k := n - back // the version u shows: vs[k-1], or v0 for 0
			cur := u.Current()
			want := lt.v0
			if k > 0 {
				want = vs[k-1]
			}
			if d := sameVersion(cur, want); d != "" {
				return fmt.Sprintf("%s: %d undos show other %s", lt.name, back, d)
			}
			if k > 0 && show(cur, ss[k-1].res, nil).status != ss[k-1].status {
				return fmt.Sprintf("%s: the version undone to changed", lt.name)
			}
			// Ticking the version undone to goes as it went the first time.
			_, again := lt.run(cur, n-k, seed)
			if len(again)+len(ss[k:]) > 0 && !reflect.DeepEqual(again, ss[k:]) {
				return fmt.Sprintf("%s: after %d undos, ticking again gives %+v, first %+v", lt.name, back, again, ss[k:])
			}
			if r := u; back > 0 && sameVersion(r.Redo().Current(), vs[k]) != "" {
				return fmt.Sprintf("%s: redo does not give the next version", lt.name)
			}
			return ""
		}, pick, ticks, gen.IntRange(0, 12), seeds))

	props.TestingRun(t)
}

// TestFreshSameAsExecute: fresh execution (tick.go) makes the same
// versions as execute, byte for byte in their saves, on every corpus tree
// that builds, over 12 ticks of random leaf answers.
func TestFreshSameAsExecute(t *testing.T) {
	trees := lawTrees(t)
	type tickOut struct {
		shown shown
		save  []byte
	}
	runAll := func(off bool) [][]tickOut {
		// The tick cache would return the versions that the first run
		// made: both runs take the rules.
		freshOff, tickCacheOff = off, true
		defer func() { freshOff, tickCacheOff = false, false }()
		out := make([][]tickOut, len(trees))
		for i, lt := range trees {
			v := lt.v0
			for k := 0; k < 12; k++ {
				var s shown
				v, s = lt.tickWith(v, uint64(i)*7919+uint64(k))
				data, err := v.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				out[i] = append(out[i], tickOut{s, data})
			}
		}
		return out
	}
	want, got := runAll(true), runAll(false)
	fresh := 0
	for _, lt := range trees {
		for _, h := range lt.v0.p.hot {
			if h.bits&bFresh != 0 && len(h.kids) > 0 {
				fresh++
				break
			}
		}
	}
	t.Logf("%d of %d trees have a Sequence or Fallback executed fresh", fresh, len(trees))
	if fresh < 50 {
		t.Errorf("only %d trees use fresh execution", fresh)
	}
	for i := range trees {
		for k := range want[i] {
			if !reflect.DeepEqual(want[i][k], got[i][k]) {
				t.Fatalf("%s, tick %d: execute gives %+v, fresh %+v", trees[i].name, k+1, want[i][k].shown, got[i][k].shown)
			}
		}
	}
}

// TestFreshRandomTrees: fresh execution, with and without the compiled
// moves (tick_moves.go), makes the same versions as execute on random
// trees of Sequences and Fallbacks (with some nodes that are not executed
// fresh among them) whose Go leaves answer at random every status, an
// error, or IDLE.
func TestFreshRandomTrees(t *testing.T) {
	o := &oracle{}
	f := NewFactory()
	answer := func(choices ...Status) LeafFunc {
		return func(*Call) (Status, error) {
			s := o.next(choices...)
			if s == Status(9) {
				return Failure, fmt.Errorf("a leaf's error")
			}
			return s, nil
		}
	}
	for _, err := range []error{
		f.RegisterCondition("C", answer(Success, Failure, Success, Failure, Skipped, Running, Idle, Status(9))),
		f.RegisterSync("Y", answer(Success, Failure, Success, Failure, Skipped, Running)),
		f.RegisterAction("A", Action{OnStart: answer(Running, Success, Failure), OnRunning: answer(Running, Success, Failure)}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	leaves := []string{`<C/>`, `<C/>`, `<Y/>`, `<Y/>`, `<A/>`, `<AlwaysSuccess/>`, `<AlwaysFailure/>`, `<Script code="n := n + 1"/>`,
		`<SetBlackboard output_key="k" value="v"/>`, `<ScriptCondition code="n > 5"/>`, `<C _skipIf="n == 2"/>`}
	composites := []string{"Sequence", "Sequence", "Fallback", "Fallback", "ReactiveSequence", "ReactiveFallback", "SequenceWithMemory",
		"Inverter", "ForceSuccess", "ForceFailure", "KeepRunningUntilFailure", `Repeat num_cycles="2"`, `RetryUntilSuccessful num_attempts="2"`,
		"IfThenElse", "WhileDoElse", `Parallel success_count="1"`, "ParallelAll"}
	rnd := uint64(33)
	next := func(n int) int {
		rnd ^= rnd << 13
		rnd ^= rnd >> 7
		rnd ^= rnd << 17
		return int(rnd % uint64(n))
	}
	var gen func(depth int) string
	gen = func(depth int) string {
		if depth == 0 || next(4) == 0 {
			return leaves[next(len(leaves))]
		}
		c := composites[next(len(composites))]
		name, _, _ := strings.Cut(c, " ")
		kids := 1 + next(4)
		switch name {
		case "Inverter", "ForceSuccess", "ForceFailure", "KeepRunningUntilFailure", "Repeat", "RetryUntilSuccessful":
			kids = 1
		case "IfThenElse", "WhileDoElse":
			kids = 2 + next(2)
		}
		s := "<" + c + ">"
		for i := 0; i < kids; i++ {
			s += gen(depth - 1)
		}
		return s + "</" + name + ">"
	}
	moved := 0
	for tree := 0; tree < 1000; tree++ {
		src := `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence>` + gen(5) + `</Sequence></BehaviorTree></root>`
		doc, err := f.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		v0, err := doc.Build("", WithEntry("n", 0))
		if err != nil {
			t.Fatal(err)
		}
		lt := &lawTree{name: src, v0: v0, o: o, once: tree%2 == 1}
		run := func(off, noMoves bool) ([]shown, [][]byte) {
			freshOff, movesOff, tickCacheOff = off, noMoves, true
			defer func() { freshOff, movesOff, tickCacheOff = false, false, false }()
			vs, ss := lt.run(v0, 20, uint64(tree))
			var saves [][]byte
			for _, v := range vs {
				data, err := v.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				saves = append(saves, data)
			}
			return ss, saves
		}
		ws, wb := run(true, true)
		gs, gb := run(false, true)
		ms, mb := run(false, false)
		for k := range ws {
			if !reflect.DeepEqual(ws[k], gs[k]) || !reflect.DeepEqual(wb[k], gb[k]) {
				t.Fatalf("%s\ntick %d: execute gives %+v, fresh %+v", src, k+1, ws[k], gs[k])
			}
			if !reflect.DeepEqual(ws[k], ms[k]) || !reflect.DeepEqual(wb[k], mb[k]) {
				t.Fatalf("%s\ntick %d: execute gives %+v, the moves %+v", src, k+1, ws[k], ms[k])
			}
		}
		for _, at := range v0.p.movesAt {
			if at >= 0 {
				moved++
				break
			}
		}
	}
	t.Logf("%d of 1000 trees have compiled moves", moved)
	if moved < 300 {
		t.Errorf("only %d trees have compiled moves", moved)
	}
}
