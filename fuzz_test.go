package behaviortree_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// fuzzDefs are the definitions FuzzRestore restores against.
var fuzzDefs = []bt.Node[string]{
	bt.Sequence(bt.RepeatN(3, bt.Leaf("a")), bt.Select(bt.Leaf("b"), bt.Leaf("c"))),
	bt.RepeatUntilFail(bt.Sequence(
		bt.Random(bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c")),
		bt.CustomNode(savableSelect{}, bt.Leaf("x"), bt.Leaf("y"), bt.Leaf("z")),
		bt.RepeatN(3, bt.RepeatN(2, bt.RandomWeighted(bt.WithWeight(2, l("p")), bt.WithWeight(1, l("q"))))),
	)),
	bt.Leaf("solo"),
}

// FuzzRestore feeds arbitrary bytes to Restore: it must return an error or
// a working tree, never panic or hang, and a restored tree must survive
// every round trip (checkRestored).
func FuzzRestore(f *testing.F) {
	for _, def := range fuzzDefs {
		for _, v := range fuzzVersions(def) {
			b, err := v.MarshalBinary()
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, def := range fuzzDefs {
			tr, err := bt.Restore(def, data)
			if err == nil {
				checkRestored(t, def, tr)
			} else if !errors.As(err, new(*bt.StateError)) {
				t.Fatalf("%v is not a StateError", err)
			}
			// Saved reads the form, then restores: the same outcome.
			var s bt.Saved[string]
			if uerr := s.UnmarshalBinary(data); uerr != nil {
				if err == nil {
					t.Fatalf("Restore accepts what Saved.UnmarshalBinary refuses: %v", uerr)
				}
				continue
			}
			r, serr := s.Restore(def)
			if (err == nil) != (serr == nil) || err != nil && err.Error() != serr.Error() || err == nil && !r.Equal(tr) {
				t.Fatalf("Restore: %v; Saved.Restore: %v", err, serr)
			}
		}
	})
}

// FuzzRestoreJSON is FuzzRestore for the JSON form.
func FuzzRestoreJSON(f *testing.F) {
	for _, def := range fuzzDefs {
		for _, v := range fuzzVersions(def) {
			b, err := json.Marshal(v)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(string(b))
		}
	}
	for _, s := range []string{`null`, `{}`, `{"format":"behaviortree-state/1"}`, `{"FORMAT":"behaviortree-state/1","focus":1e0}`,
		`{"format":"behaviortree-state/1","fingerprint":"0000000000000000","focus":0,"status":"running","signal":"running","counts":[{"node":1,"left":1}],"custom":[{"node":1,"state":"MA=="}]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		for _, def := range fuzzDefs {
			tr, err := bt.Restore(def, []byte(data))
			if err == nil {
				checkRestored(t, def, tr)
			} else if !errors.As(err, new(*bt.StateError)) {
				t.Fatalf("%v is not a StateError", err)
			}
			// Saved in a document reads the form, then restores: the same
			// outcome.
			var s bt.Saved[string]
			if uerr := json.Unmarshal([]byte(data), &s); uerr != nil {
				if err == nil {
					t.Fatalf("Restore accepts JSON that Saved.UnmarshalJSON refuses: %v", uerr)
				}
				continue
			}
			r, serr := s.Restore(def)
			if (err == nil) != (serr == nil) || err == nil && !r.Equal(tr) {
				t.Fatalf("Restore: %v; Saved.Restore: %v", err, serr)
			}
		}
	})
}

// fuzzVersions returns some versions of def, for seeds.
func fuzzVersions(def bt.Node[string]) []bt.Tree[string] {
	v := bt.Start(def, bt.WithSeed(1))
	var out []bt.Tree[string]
	for _, s := range randomSignals(5, 40) {
		out = append(out, v)
		v = v.Signal(map[rune]bt.Status{'s': bt.Success, 'f': bt.Failure}[s])
	}
	return out
}

// checkRestored checks a tree restored from fuzzed input on def: its status
// and signal are statuses; it saves in both forms; each form restores, and
// restores through Saved, to an Equal tree; what the binary form restores
// saves the same JSON, and the other way round; and it runs.
func checkRestored(t *testing.T, def bt.Node[string], tr bt.Tree[string]) {
	t.Helper()
	for _, s := range []bt.Status{tr.Status(), tr.LastSignal()} {
		if s != bt.Running && s != bt.Success && s != bt.Failure {
			t.Fatalf("restored a tree with status %v, signal %v", tr.Status(), tr.LastSignal())
		}
	}
	bin, err := tr.MarshalBinary()
	if err != nil {
		t.Fatalf("a restored tree does not save: %v", err)
	}
	js, err := tr.MarshalJSON()
	if err != nil {
		t.Fatalf("a restored tree does not save as JSON: %v", err)
	}
	fromBin, err := bt.Restore(def, bin)
	if err != nil || !fromBin.Equal(tr) {
		t.Fatalf("its binary state % x restores to an Equal tree: %v (error %v)", bin, err == nil, err)
	}
	fromJSON, err := bt.Restore(def, js)
	if err != nil || !fromJSON.Equal(tr) {
		t.Fatalf("its JSON state %s restores to an Equal tree: %v (error %v)", js, err == nil, err)
	}
	if again, _ := fromBin.MarshalJSON(); !bytes.Equal(again, js) {
		t.Fatalf("binary to JSON: %s, want %s", again, js)
	}
	if again, _ := fromJSON.MarshalBinary(); !bytes.Equal(again, bin) {
		t.Fatalf("JSON to binary: % x, want % x", again, bin)
	}
	var sb, sj bt.Saved[string]
	if err := sb.UnmarshalBinary(bin); err != nil {
		t.Fatalf("Saved.UnmarshalBinary: %v", err)
	}
	if err := json.Unmarshal(js, &sj); err != nil {
		t.Fatalf("Saved.UnmarshalJSON: %v", err)
	}
	for _, s := range []bt.Saved[string]{sb, sj} {
		if r, err := s.Restore(def); err != nil || !r.Equal(tr) {
			t.Fatalf("Saved.Restore: Equal %v (error %v)", err == nil, err)
		}
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

// FuzzParseJSON feeds arbitrary text to ParseJSON: it must return an error
// or a definition that marshals back to JSON that reads the same, and runs.
func FuzzParseJSON(f *testing.F) {
	for _, c := range firstCases(loadConformance(f), 60) {
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
