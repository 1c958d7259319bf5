package btcpp_test

// The speed of issue 33: the (a) and (b) workloads of bench/peers written
// as BehaviorTree.CPP XML with Sequence/Fallback, beside the same trees
// built with the root package's constructors and run by its stepped
// engine, in one benchmark run:
//
//	go test -run '^$' -bench 'Workload' -benchmem ./btcpp/
//
// The workloads are those of bench/peers/workload_test.go (a module of its
// own, so they are restated here): (a) root { sequence { action [TopLeft]
// repeat { selector { action [GoRight] action [NextRow] } } } }, GoRight
// failing on every 10th call; (b) a balanced binary tree of height 8, its
// levels alternating selector and sequence from a selector at the root,
// whose 256 actions take their results from one seeded xorshift64 stream.

import (
	"fmt"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/btcpp"
)

// workA holds the actions of workload (a) and counts their calls.
type workA struct{ topLeft, goRight, nextRow int }

func (w *workA) TopLeft() bool { w.topLeft++; return true }
func (w *workA) GoRight() bool { w.goRight++; return w.goRight%10 != 0 }
func (w *workA) NextRow() bool { w.nextRow++; return true }
func (w *workA) calls() int    { return w.topLeft + w.goRight + w.nextRow }

// streamB is the 50/50 result stream of workload (b).
type streamB struct {
	x     uint64
	calls int
}

func newStreamB() *streamB { return &streamB{x: 0x9E3779B97F4A7C15} }

func (r *streamB) next() bool {
	r.calls++
	x := r.x
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	r.x = x
	return x>>63 != 0
}

// heightB is the height of workload (b)'s tree.
const heightB = 8

// buildB builds workload (b)'s shape with one style's constructors.
func buildB[N any](leaf func() N, selector, sequence func(children ...N) N) N {
	var build func(height int) N
	build = func(height int) N {
		if height == 0 {
			return leaf()
		}
		left, right := build(height-1), build(height-1)
		if (heightB-height)%2 == 0 {
			return selector(left, right)
		}
		return sequence(left, right)
	}
	return build(heightB)
}

// steppedAgent runs leaves that are plain functions.
var steppedAgent = bt.Agent[func() bool]{Action: func(fn func() bool) bt.Result {
	if fn() {
		return bt.ResultSuccess
	}
	return bt.ResultFailure
}}

// steppedA and steppedB build the workloads with the root's constructors.
func steppedA(w *workA) bt.Node[func() bool] {
	return bt.Root(bt.Sequence(
		bt.Leaf(w.TopLeft),
		bt.Repeat(bt.Select(bt.Leaf(w.GoRight), bt.Leaf(w.NextRow))),
	))
}

func steppedB(r *streamB) bt.Node[func() bool] {
	return bt.Root(buildB(
		func() bt.Node[func() bool] { return bt.Leaf(r.next) },
		bt.Select[func() bool],
		bt.Sequence[func() bool],
	))
}

// syncLeaf is a synchronous action of a plain function.
func syncLeaf(fn func() bool) btcpp.LeafFunc {
	return func(*btcpp.Call) (btcpp.Status, error) {
		if fn() {
			return btcpp.Success, nil
		}
		return btcpp.Failure, nil
	}
}

// xmlA is workload (a) as BehaviorTree.CPP XML.
const xmlA = `<root BTCPP_format="4"><BehaviorTree ID="A">
  <Sequence>
    <TopLeft/>
    <Repeat num_cycles="-1"><Fallback><GoRight/><NextRow/></Fallback></Repeat>
  </Sequence>
</BehaviorTree></root>`

// xmlB returns workload (b) as BehaviorTree.CPP XML.
func xmlB() string {
	var sb strings.Builder
	sb.WriteString(`<root BTCPP_format="4"><BehaviorTree ID="B">`)
	wrap := func(tag string) func(children ...string) string {
		return func(children ...string) string {
			return "<" + tag + ">" + strings.Join(children, "") + "</" + tag + ">"
		}
	}
	sb.WriteString(buildB(func() string { return "<Next/>" }, wrap("Fallback"), wrap("Sequence")))
	sb.WriteString(`</BehaviorTree></root>`)
	return sb.String()
}

// btcppA and btcppB build the workloads from their XML.
func btcppA(tb testing.TB, w *workA) *btcpp.Tree {
	f := btcpp.NewFactory()
	for _, err := range []error{
		f.RegisterSync("TopLeft", syncLeaf(w.TopLeft)),
		f.RegisterSync("GoRight", syncLeaf(w.GoRight)),
		f.RegisterSync("NextRow", syncLeaf(w.NextRow)),
	} {
		if err != nil {
			tb.Fatal(err)
		}
	}
	return buildXML(tb, f, xmlA)
}

func btcppB(tb testing.TB, r *streamB) *btcpp.Tree {
	f := btcpp.NewFactory()
	if err := f.RegisterSync("Next", syncLeaf(r.next)); err != nil {
		tb.Fatal(err)
	}
	return buildXML(tb, f, xmlB())
}

func buildXML(tb testing.TB, f *btcpp.Factory, src string, opts ...btcpp.Option) *btcpp.Tree {
	doc, err := f.Parse(src)
	if err != nil {
		tb.Fatal(err)
	}
	tree, err := doc.Build("", opts...)
	if err != nil {
		tb.Fatal(err)
	}
	return tree
}

// benchStepped and benchBTCPP tick a tree b.N times, each tick's version
// the next one's receiver.
func benchStepped(b *testing.B, def bt.Node[func() bool], calls func() int) {
	t, err := bt.NewStepped(def, steppedAgent)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if t, err = t.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(calls())/float64(b.N), "calls/op")
}

func benchBTCPP(b *testing.B, t *btcpp.Tree, calls func() int) {
	b.ReportAllocs()
	b.ResetTimer()
	var err error
	for i := 0; i < b.N; i++ {
		if t, _, err = t.Tick(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(calls())/float64(b.N), "calls/op")
}

// BenchmarkWorkloadA is workload (a): stepped (the root's constructors),
// then btcpp (the XML).
func BenchmarkWorkloadA(b *testing.B) {
	b.Run("stepped", func(b *testing.B) {
		w := &workA{}
		benchStepped(b, steppedA(w), w.calls)
	})
	b.Run("btcpp", func(b *testing.B) {
		w := &workA{}
		benchBTCPP(b, btcppA(b, w), w.calls)
	})
}

// BenchmarkWorkloadB is workload (b), as BenchmarkWorkloadA.
func BenchmarkWorkloadB(b *testing.B) {
	b.Run("stepped", func(b *testing.B) {
		r := newStreamB()
		benchStepped(b, steppedB(r), func() int { return r.calls })
	})
	b.Run("btcpp", func(b *testing.B) {
		r := newStreamB()
		benchBTCPP(b, btcppB(b, r), func() int { return r.calls })
	})
}

// TestWorkloadsSame checks that both styles make the same calls with the
// same results, tick by tick: (a) stays running with 1 TopLeft, 1000
// GoRight and 100 NextRow calls in 1000 ticks; (b) completes on every tick.
func TestWorkloadsSame(t *testing.T) {
	wa, wb := &workA{}, &workA{}
	sa, err := bt.NewStepped(steppedA(wa), steppedAgent)
	if err != nil {
		t.Fatal(err)
	}
	ta := btcppA(t, wb)
	for i := 0; i < 1000; i++ {
		if sa, err = sa.Step(); err != nil {
			t.Fatal(err)
		}
		var res btcpp.Status
		if ta, res, err = ta.Tick(); err != nil {
			t.Fatal(err)
		}
		if *wa != *wb || res != btcpp.Running || sa.State() != bt.StateRunning {
			t.Fatalf("(a) tick %d: stepped %+v %v, btcpp %+v %v", i, *wa, sa.State(), *wb, res)
		}
	}
	if wb.topLeft != 1 || wb.goRight != 1000 || wb.nextRow != 100 {
		t.Errorf("(a): calls %+v, want 1 TopLeft, 1000 GoRight, 100 NextRow", *wb)
	}
	ra, rb := newStreamB(), newStreamB()
	sb, err := bt.NewStepped(steppedB(ra), steppedAgent)
	if err != nil {
		t.Fatal(err)
	}
	tb := btcppB(t, rb)
	for i := 0; i < 1000; i++ {
		if sb, err = sb.Step(); err != nil {
			t.Fatal(err)
		}
		var res btcpp.Status
		if tb, res, err = tb.Tick(); err != nil {
			t.Fatal(err)
		}
		if ra.calls != rb.calls || res == btcpp.Running || sb.State() == bt.StateRunning {
			t.Fatalf("(b) tick %d: stepped %d calls %v, btcpp %d calls %v", i, ra.calls, sb.State(), rb.calls, res)
		}
		if want := map[bool]btcpp.Status{true: btcpp.Success, false: btcpp.Failure}[sb.State() == bt.StateSucceeded]; res != want {
			t.Fatalf("(b) tick %d: btcpp %v, stepped %v", i, res, sb.State())
		}
	}
}

// boardXML is a tree whose leaves read ports: with {keys} they read the
// blackboard, with literals they do not.
const boardXML = `<root BTCPP_format="4"><BehaviorTree ID="M">
  <Sequence>
    <Check v="%s"/>
    <Fallback><Check v="%s"/><AlwaysSuccess/></Fallback>
    <ReactiveSequence><Check v="%s"/><AlwaysSuccess/></ReactiveSequence>
  </Sequence>
</BehaviorTree></root>`

// TestTickAllocsBoard: a tick that writes no blackboard entry allocates no
// more than a tick of the same tree without a blackboard.
func TestTickAllocsBoard(t *testing.T) {
	f := btcpp.NewFactory()
	check := func(c *btcpp.Call) (btcpp.Status, error) {
		v, err := c.Int("v")
		if err != nil || v < 0 {
			return btcpp.Failure, err
		}
		return btcpp.Success, nil
	}
	if err := f.RegisterCondition("Check", check, btcpp.InputPort("v", "int")); err != nil {
		t.Fatal(err)
	}
	plain := buildXML(t, f, fmt.Sprintf(boardXML, "1", "2", "3"))
	board := buildXML(t, f, fmt.Sprintf(boardXML, "{a}", "{b}", "{c}"),
		btcpp.WithEntry("a", 1), btcpp.WithEntry("b", 2), btcpp.WithEntry("c", 3), btcpp.WithEntry("s", "x"))
	allocs := func(v *btcpp.Tree) float64 {
		return testing.AllocsPerRun(200, func() {
			next, res, err := v.Tick()
			if err != nil || res != btcpp.Success {
				t.Fatalf("tick: %v %v", res, err)
			}
			v = next
		})
	}
	p, b := allocs(plain), allocs(board)
	t.Logf("allocations per tick: %.1f without a blackboard, %.1f reading one", p, b)
	if b > p {
		t.Errorf("a tick that reads the blackboard allocates %.1f times, one without a blackboard %.1f", b, p)
	}
	if got, _ := board.Get("a"); got.String() != "1" {
		t.Errorf("the first version changed: a = %q", got.String())
	}
}
