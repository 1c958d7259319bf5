package behaviortree

import (
	"bufio"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"
	"time"
)

var updateSaved = flag.Bool("update-saved", false, "rewrite testdata/stepped-saved-v1.jsonl.gz from this code")

// savedCompatTree is a stepped tree of 4,802 nodes whose versions keep
// extra words (repeat and retry counts, wait progress, lotto picks, the
// generator), with many nodes running at once: big enough that its
// versions' words are stored in chunks, not one array.
func savedCompatTree() (Stepped[int], error) {
	var groups []Node[int]
	for g := range 400 {
		v := 10 * g
		kids := []Node[int]{Leaf(v), Select(Leaf(v+1), Leaf(v+2)), Sequence(Leaf(v+3), Leaf(v+4))}
		switch g % 25 {
		case 0:
			kids = append(kids, Lotto([]int{1, 2}, Leaf(v+5), Leaf(v+6)))
		case 5:
			kids = append(kids, RepeatRange(1, 3, Leaf(v+5)))
		case 10:
			kids = append(kids, RetryCount(2, Leaf(v+5)))
		case 15:
			kids = append(kids, WaitRange[int](100*time.Millisecond, 300*time.Millisecond))
		default:
			kids = append(kids, Negate(Leaf(v+5)))
		}
		groups = append(groups, Repeat(AlwaysSucceed(Sequence(kids...))))
	}
	calls := 0
	agent := Agent[int]{Action: func(v int) Result {
		calls++
		x := uint64(v)*0x9e3779b97f4a7c15 + uint64(calls)*0xbf58476d1ce4e5b9
		x ^= x >> 29
		return []Result{ResultSuccess, ResultRunning, ResultFailure, ResultRunning}[x%4]
	}}
	return NewStepped(Root(Parallel(groups...)), agent, WithSeed(11), WithTurnClock(100*time.Millisecond))
}

// savedRecord is one saved version and its node states, one digit each.
type savedRecord struct {
	Step   int    `json:"step"`
	Data   string `json:"data"` // base64 of MarshalBinary
	States string `json:"states"`
}

const savedCompatFile = "testdata/stepped-saved-v1.jsonl.gz"

// TestSteppedSavedCompat restores versions that an earlier release of the
// engine saved (written with -update-saved, before the words were stored
// in chunks): each restores to the node states it had, and saves back to
// the same bytes.
func TestSteppedSavedCompat(t *testing.T) {
	tr, err := savedCompatTree()
	if err != nil {
		t.Fatal(err)
	}
	if *updateSaved {
		f, err := os.Create(savedCompatFile)
		if err != nil {
			t.Fatal(err)
		}
		z := gzip.NewWriter(f)
		enc := json.NewEncoder(z)
		v := tr
		for step := range 41 {
			if step%5 == 0 {
				data, err := v.MarshalBinary()
				if err != nil {
					t.Fatal(err)
				}
				if err := enc.Encode(savedRecord{step, base64.StdEncoding.EncodeToString(data), statesOf(v)}); err != nil {
					t.Fatal(err)
				}
			}
			if v, err = v.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if err := z.Close(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(savedCompatFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(z)
	sc.Buffer(nil, 1<<22)
	n := 0
	for sc.Scan() {
		var r savedRecord
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		data, err := base64.StdEncoding.DecodeString(r.Data)
		if err != nil {
			t.Fatal(err)
		}
		v, err := tr.Restore(data)
		if err != nil {
			t.Fatalf("step %d: %v", r.Step, err)
		}
		if got := statesOf(v); got != r.States {
			t.Errorf("step %d: restored states differ from the saved version's", r.Step)
		}
		if strings.Count(r.States, "0") == len(r.States) && r.Step > 0 {
			t.Errorf("step %d: every node READY: the file does not test much", r.Step)
		}
		back, err := v.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if string(back) != string(data) {
			t.Errorf("step %d: saved back to other bytes", r.Step)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 9 {
		t.Errorf("%d saved versions, want 9", n)
	}
}

// statesOf returns v's node states, a digit each.
func statesOf(v Stepped[int]) string {
	b := make([]byte, v.size())
	for i := range b {
		b[i] = '0' + byte(v.NodeState(i))
	}
	return string(b)
}
