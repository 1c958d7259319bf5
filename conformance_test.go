package behaviortree_test

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/corpusfile"
)

// conformanceCase is one line of testdata/elixir-behavior-tree-0.3.1.jsonl,
// a trace recorded by running the Elixir library itself.
type conformanceCase struct {
	Tree    bt.Node[string] `json:"tree"`
	Raw     json.RawMessage `json:"-"`
	Signals string          `json:"signals"`
	Values  []string        `json:"values"`
}

// elixirCorpus returns the corpus file: $ELIXIR_CORPUS (another corpus
// in the same format), or the testdata copy.
func elixirCorpus() string {
	if f := os.Getenv("ELIXIR_CORPUS"); f != "" {
		return f
	}
	return "testdata/elixir-behavior-tree-0.3.1.jsonl"
}

// loadConformance reads the corpus.
func loadConformance(t testing.TB) []conformanceCase {
	t.Helper()
	f, err := corpusfile.Open(elixirCorpus())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []conformanceCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for line := 1; sc.Scan(); line++ {
		var c conformanceCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		var raw struct {
			Tree json.RawMessage `json:"tree"`
		}
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil {
			t.Fatalf("line %d: %v", line, err)
		}
		c.Raw = raw.Tree
		if len(c.Values) != len(c.Signals)+1 {
			t.Fatalf("line %d: %d values for %d signals", line, len(c.Values), len(c.Signals))
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestConformance replays all 2,000 recorded Elixir traces.
func TestConformance(t *testing.T) {
	cases := loadConformance(t)
	if os.Getenv("ELIXIR_CORPUS") == "" && len(cases) != 2000 {
		t.Fatalf("corpus has %d cases, want 2000", len(cases))
	}
	if len(cases) == 0 {
		t.Fatal("the corpus has no cases")
	}
	signals := 0
	for i, c := range cases {
		tr := bt.Start(c.Tree)
		if got := tr.Value(); got != c.Values[0] {
			t.Fatalf("case %d (line %d): after start got %q, want %q", i, i+1, got, c.Values[0])
		}
		for k, s := range []byte(c.Signals) {
			if s == 's' {
				tr = tr.Succeed()
			} else {
				tr = tr.Fail()
			}
			if got := tr.Value(); got != c.Values[k+1] {
				t.Fatalf("case %d (line %d): after signal %d (%s) got %q, want %q",
					i, i+1, k+1, c.Signals[:k+1], got, c.Values[k+1])
			}
			signals++
		}
	}
	if os.Getenv("ELIXIR_CORPUS") == "" && signals != 66727 {
		t.Errorf("replayed %d signals, want 66,727", signals)
	}
	// Every case matched: a mismatch stops the test above.
	t.Logf("elixir conformance: %d/%d cases match (%s), %d signals", len(cases), len(cases), elixirCorpus(), signals)
}

// TestConformanceJSONRoundTrip checks that every corpus tree marshals back to
// exactly the corpus's own JSON, which reads back as the same definition.
func TestConformanceJSONRoundTrip(t *testing.T) {
	for i, c := range loadConformance(t) {
		b, err := json.Marshal(c.Tree)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if string(b) != string(c.Raw) {
			t.Fatalf("case %d: marshal gave\n%s\nwant\n%s", i, b, c.Raw)
		}
		var again bt.Node[string]
		if err := json.Unmarshal(b, &again); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		b2, err := json.Marshal(again)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != string(b2) {
			t.Fatalf("case %d: round trip changed\n%s\n%s", i, b, b2)
		}
	}
}

// firstCases returns the first n cases, or all of them if there are fewer
// (a corpus named by ELIXIR_CORPUS may be small).
func firstCases(cases []conformanceCase, n int) []conformanceCase {
	return cases[:min(n, len(cases))]
}
