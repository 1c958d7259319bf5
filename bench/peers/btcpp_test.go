package peers

// The workloads of workload_test.go as BehaviorTree.CPP XML, run by
// package btcpp (issue 33): one iteration is one Tick of the tree, which
// returns a new version (the old one stays valid).

import (
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/btcpp"
)

// btcppLeaf is a synchronous action of a workload's plain function.
func btcppLeaf(fn func() bool) btcpp.LeafFunc {
	return func(*btcpp.Call) (btcpp.Status, error) {
		if fn() {
			return btcpp.Success, nil
		}
		return btcpp.Failure, nil
	}
}

// btcppXMLA is workload (a) as XML.
const btcppXMLA = `<root BTCPP_format="4"><BehaviorTree ID="A">
  <Sequence>
    <TopLeft/>
    <Repeat num_cycles="-1"><Fallback><GoRight/><NextRow/></Fallback></Repeat>
  </Sequence>
</BehaviorTree></root>`

// btcppXMLB returns workload (b) as XML.
func btcppXMLB() string {
	wrap := func(tag string) func(children ...string) string {
		return func(children ...string) string {
			return "<" + tag + ">" + strings.Join(children, "") + "</" + tag + ">"
		}
	}
	body := buildTreeB(func(int) string { return "<Next/>" }, wrap("Fallback"), wrap("Sequence"))
	return `<root BTCPP_format="4"><BehaviorTree ID="B">` + body + `</BehaviorTree></root>`
}

// btcppTree builds src with the leaves registered by ID.
func btcppTree(tb testing.TB, src string, leaves map[string]func() bool) *btcpp.Tree {
	f := btcpp.NewFactory()
	for id, fn := range leaves {
		if err := f.RegisterSync(id, btcppLeaf(fn)); err != nil {
			tb.Fatal(err)
		}
	}
	doc, err := f.Parse(src)
	if err != nil {
		tb.Fatal(err)
	}
	t, err := doc.Build("")
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

func benchBTCPP(b *testing.B, t *btcpp.Tree, calls func() int) {
	b.ReportAllocs()
	b.ResetTimer()
	var err error
	for range b.N {
		if t, _, err = t.Tick(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(calls())/float64(b.N), "calls/op")
}

// BenchmarkBTCPPStepA is workload (a) as XML, ticked by package btcpp.
func BenchmarkBTCPPStepA(b *testing.B) {
	w := &workloadA{}
	t := btcppTree(b, btcppXMLA, map[string]func() bool{"TopLeft": w.TopLeft, "GoRight": w.GoRight, "NextRow": w.NextRow})
	benchBTCPP(b, t, w.calls)
}

// BenchmarkBTCPPStepB is workload (b) as XML, ticked by package btcpp.
func BenchmarkBTCPPStepB(b *testing.B) {
	r := newResults()
	benchBTCPP(b, btcppTree(b, btcppXMLB(), map[string]func() bool{"Next": r.next}), func() int { return r.calls })
}

// TestBTCPPWorkloads checks that the XML trees do what the workloads say:
// (a) stays running with 1 TopLeft, 1000 GoRight and 100 NextRow calls in
// 1000 ticks; (b) completes on every tick, making as many calls as our
// stepped tree.
func TestBTCPPWorkloads(t *testing.T) {
	w := &workloadA{}
	a := btcppTree(t, btcppXMLA, map[string]func() bool{"TopLeft": w.TopLeft, "GoRight": w.GoRight, "NextRow": w.NextRow})
	for i := 0; i < 1000; i++ {
		var res btcpp.Status
		var err error
		if a, res, err = a.Tick(); err != nil || res != btcpp.Running {
			t.Fatalf("(a) tick %d: %v %v, want RUNNING", i, res, err)
		}
	}
	if w.topLeft != 1 || w.goRight != 1000 || w.nextRow != 100 {
		t.Errorf("(a): calls %+v, want 1 TopLeft, 1000 GoRight, 100 NextRow", *w)
	}
	r := newResults()
	bt := btcppTree(t, btcppXMLB(), map[string]func() bool{"Next": r.next})
	for i := 0; i < 1000; i++ {
		var res btcpp.Status
		var err error
		if bt, res, err = bt.Tick(); err != nil || (res != btcpp.Success && res != btcpp.Failure) {
			t.Fatalf("(b) tick %d: %v %v, want a completed tick", i, res, err)
		}
	}
	if per := float64(r.calls) / 1000; per < 35 || per > 48 {
		t.Errorf("(b): %.2f calls per tick, want about 41", per)
	}
}
