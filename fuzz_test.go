package behaviortree_test

import (
	"bytes"
	"encoding/json"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// fuzzDefs are the definitions FuzzRestore restores against.
var fuzzDefs = []bt.Node[string]{
	bt.Sequence(bt.RepeatN(3, bt.Leaf("a")), bt.Select(bt.Leaves("b", "c")...)),
	bt.Continually(bt.Sequence(
		bt.Random(bt.Leaves("a", "b", "c")...),
		bt.CustomNode(savableSelect{}, bt.Leaves("x", "y", "z")...),
		bt.RepeatN(3, bt.RepeatN(2, bt.RandomWeighted(bt.WithWeight(2, l("p")), bt.WithWeight(1, l("q"))))),
	)),
	bt.Leaf("solo"),
}

// FuzzRestore feeds arbitrary bytes to Restore: it must return an error or
// a working tree, never panic or hang, and a restored tree must save to a
// state that restores to the same state.
func FuzzRestore(f *testing.F) {
	for _, def := range fuzzDefs {
		v := bt.Start(def, bt.WithSeed(1))
		for _, s := range randomSignals(5, 40) {
			b, err := v.MarshalBinary()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
			v = v.Signal(map[rune]bt.Status{'s': bt.Success, 'f': bt.Failure}[s])
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, def := range fuzzDefs {
			tr, err := bt.Restore(def, data)
			if err != nil {
				continue
			}
			again, err := tr.MarshalBinary()
			if err != nil {
				t.Fatalf("a restored tree does not save: %v", err)
			}
			tr2, err := bt.Restore(def, again)
			if err != nil {
				t.Fatalf("a re-saved state does not restore: %v", err)
			}
			if third, _ := tr2.MarshalBinary(); !bytes.Equal(third, again) {
				t.Fatal("save and restore are not stable")
			}
			for i := 0; i < 20; i++ {
				_ = tr.Value()
				if i%3 == 0 {
					tr = tr.Fail()
				} else {
					tr = tr.Succeed()
				}
			}
		}
	})
}

// FuzzParseJSON feeds arbitrary text to ParseJSON: it must return an error
// or a definition that marshals back to JSON that reads the same, and runs.
func FuzzParseJSON(f *testing.F) {
	for _, c := range loadConformance(f)[:60] {
		f.Add(string(c.Raw))
	}
	for _, s := range []string{`"a"`, `{"type":"random_weighted","weights":[1,2],"children":["a","b"]}`,
		`{"type":"repeat_n","n":1,"children":["a"]}`, `{"type":"sequence","children":[]}`, `[`, `{"type":7}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		n, err := bt.ParseJSON[string]([]byte(data))
		if err != nil {
			return
		}
		b, err := json.Marshal(n)
		if err != nil {
			t.Fatalf("a parsed definition does not marshal: %v", err)
		}
		back, err := bt.ParseJSON[string](b)
		if err != nil {
			t.Fatalf("marshalled JSON does not parse: %v\n%s", err, b)
		}
		if b2, _ := json.Marshal(back); !bytes.Equal(b, b2) {
			t.Fatalf("round trip changed:\n%s\n%s", b, b2)
		}
		tr := bt.Start(n, bt.WithSeed(1))
		for i := 0; i < 20; i++ {
			_ = tr.Value()
			tr = tr.Signal([]bt.Status{bt.Success, bt.Failure}[i%2])
		}
	})
}
