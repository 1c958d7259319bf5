package proptest_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/proptest"
)

// TestModelConformance replays the Elixir corpus on the reference model.
func TestModelConformance(t *testing.T) {
	f, err := os.Open("../testdata/elixir-behavior-tree-0.3.1.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	n := 0
	for line := 1; sc.Scan(); line++ {
		var c struct {
			Tree    bt.Node[string]
			Signals string
			Values  []string
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		m := proptest.NewModel(c.Tree, nil)
		if m.Value() != c.Values[0] {
			t.Fatalf("line %d: start gave %q, want %q", line, m.Value(), c.Values[0])
		}
		for k, s := range c.Signals {
			if s == 's' {
				m.Succeed()
			} else {
				m.Fail()
			}
			if m.Value() != c.Values[k+1] {
				t.Fatalf("line %d: after %s got %q, want %q", line, c.Signals[:k+1], m.Value(), c.Values[k+1])
			}
		}
		n++
	}
	if n != 2000 {
		t.Fatalf("replayed %d cases, want 2000", n)
	}
}
