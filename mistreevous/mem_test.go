package mistreevous_test

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/mistreevous"
)

// TestParseCapsInput checks that a definition longer than MaxBytes is
// refused before it is read, even a valid one.
func TestParseCapsInput(t *testing.T) {
	def := []byte(`[{"type":"root","child":{"type":"action","call":"A"}}]`)
	if _, err := mistreevous.Parse(def); err != nil {
		t.Fatal(err)
	}
	long := append(def, bytes.Repeat([]byte(" "), mistreevous.MaxBytes+1-len(def))...)
	_, err := mistreevous.Parse(long)
	if err == nil || !strings.Contains(err.Error(), "longer than 67108864 bytes") {
		t.Errorf("a definition of %d bytes: error %v", len(long), err)
	}
}

// memTree returns a tree of about n nodes in the style of the Mistreevous
// corpus: sequences and selectors of actions with arguments, conditions,
// guards, waits and repeats.
func memTree(n int) bt.Node[bt.Call] {
	var groups []bt.Node[bt.Call]
	for i := 0; len(groups)*12 < n; i++ {
		s := strconv.Itoa(i % 97)
		a := bt.Leaf(bt.Call{Name: "Act" + s, Args: []any{float64(i), "arg", true, bt.Property("p")}})
		c := bt.Condition(bt.Call{Name: "Cond" + s})
		g := bt.Sequence(c, a, bt.Wait[bt.Call](100*time.Millisecond), bt.Leaf(bt.Call{Name: "Other"})).With(attr.While(bt.Call{Name: "Guard"}))
		groups = append(groups, bt.Select(g, bt.RepeatCount(3, bt.Leaf(bt.Call{Name: "Idle" + s})), bt.Leaf(bt.Call{Name: "Fallback"}).With(attr.Entry(bt.Call{Name: "Enter"}))))
	}
	return bt.Root(bt.Sequence(groups...))
}

// TestParseMemory checks that reading a 1 MB definition allocates at most
// 16 times its size in all (with the collector off, an upper bound of the
// peak heap): the reader holds tokens of 12 bytes, not decoded values.
func TestParseMemory(t *testing.T) {
	js, err := mistreevous.Marshal(memTree(36000))
	if err != nil {
		t.Fatal(err)
	}
	if len(js) < 1<<20 {
		t.Fatalf("the definition has %d bytes, want 1 MB", len(js))
	}
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	n, err := mistreevous.Parse(js)
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(n)
	if ratio := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(len(js)); ratio > 16 {
		t.Errorf("reading %d bytes allocated %.1f times as much", len(js), ratio)
	} else {
		t.Logf("reading %d bytes allocated %.1f times as much", len(js), ratio)
	}
}
