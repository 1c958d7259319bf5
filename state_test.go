package behaviortree_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// savableSelect is resumingSelect with its state savable.
type savableSelect struct{ resumingSelect }

func (s savableSelect) Enter(c bt.Context) (int, bt.Traversal) { return s.at, s }
func (s savableSelect) OnSucceed(c bt.Context) (bt.Step, bt.Traversal) {
	return bt.StepSucceed, savableSelect{resumingSelect{at: c.Child()}}
}
func (s savableSelect) OnFail(c bt.Context) (bt.Step, bt.Traversal) {
	if next := c.Child() + 1; next < c.Len() {
		return bt.StepEnter(next), s
	}
	return bt.StepFail, savableSelect{}
}
func (s savableSelect) MarshalState() ([]byte, error) { return []byte(strconv.Itoa(s.at)), nil }
func (savableSelect) UnmarshalState(b []byte, children int) (bt.Traversal, error) {
	at, err := strconv.Atoi(string(b))
	if err != nil || at < 0 || at >= children {
		return nil, fmt.Errorf("bad resume point %q for %d children", b, children)
	}
	return savableSelect{resumingSelect{at: at}}, nil
}

// roundTrip saves v both ways, restores both, and checks that they are
// Equal to v and have its future.
func roundTrip(t *testing.T, def bt.Node[string], v bt.Tree[string], probe string) {
	t.Helper()
	bin, err := v.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	for name, restore := range map[string]func() (bt.Tree[string], error){
		"binary": func() (bt.Tree[string], error) { return bt.Restore(def, bin) },
		"json":   func() (bt.Tree[string], error) { return bt.RestoreJSON(def, js) },
	} {
		r, err := restore()
		if err != nil {
			t.Fatalf("%s: %v (state %s)", name, err, js)
		}
		if def == v.Root() && !r.Equal(v) {
			t.Fatalf("%s: restored version is not Equal to the saved one (state %s)", name, js)
		}
		if again, _ := r.MarshalBinary(); string(again) != string(bin) {
			t.Fatalf("%s: the restored version saves differently", name)
		}
		if got, want := fmt.Sprint(trace(r, probe)), fmt.Sprint(trace(v, probe)); got != want {
			t.Fatalf("%s: restored future\n got %s\nwant %s", name, got, want)
		}
	}
}

// TestSaveRestoreConformance saves and restores versions of every corpus
// tree, restoring against a fresh parse of the definition.
func TestSaveRestoreConformance(t *testing.T) {
	for i, c := range loadConformance(t) {
		fresh, err := bt.ParseJSON[string](c.Raw)
		if err != nil {
			t.Fatal(err)
		}
		v := bt.Start(c.Tree)
		probe := randomSignals(uint64(i), 12)
		roundTrip(t, c.Tree, v, probe) // against the same definition: Equal
		for k, s := range c.Signals {
			if k%5 == 0 {
				roundTrip(t, fresh, v, probe)
			}
			v = v.Signal(map[rune]bt.Status{'s': bt.Success, 'f': bt.Failure}[s])
		}
		roundTrip(t, fresh, v, probe)
	}
}

// TestSaveRestoreRandomAndCustom covers the random state and custom states.
func TestSaveRestoreRandomAndCustom(t *testing.T) {
	def := bt.Continually(bt.Sequence(
		bt.Random(bt.Leaves("a", "b", "c")...),
		bt.CustomNode(savableSelect{}, bt.Leaves("x", "y", "z")...),
		bt.RepeatN(3, bt.RandomWeighted(bt.WithWeight(2, l("p")), bt.WithWeight(1, l("q")))),
	))
	v := bt.Start(def, bt.WithSeed(11))
	sig := randomSignals(3, 300)
	for k, s := range sig {
		roundTrip(t, def, v, randomSignals(uint64(k), 20))
		v = v.Signal(map[rune]bt.Status{'s': bt.Success, 'f': bt.Failure}[s])
	}
	// A custom state that cannot be saved is an error, not a silent loss.
	plain := bt.Continually(bt.CustomNode(resumingSelect{}, bt.Leaves("x", "y")...))
	w := bt.Start(plain).Fail().Succeed()
	if _, err := w.MarshalBinary(); err == nil || !strings.Contains(err.Error(), "does not implement SavableTraversal") {
		t.Errorf("saving an unsavable custom state: %v", err)
	}
	if _, err := bt.Start(plain).MarshalBinary(); err != nil {
		t.Errorf("a custom node that has not changed state should save: %v", err)
	}
}

// TestRestoreWrongDefinition refuses a state from another definition.
func TestRestoreWrongDefinition(t *testing.T) {
	a := bt.Sequence(bt.Leaves("a", "b")...)
	b := bt.Select(bt.Leaves("a", "b")...)
	state, _ := bt.Start(a).Succeed().MarshalBinary()
	_, err := bt.Restore(b, state)
	if !errors.Is(err, bt.ErrWrongDefinition) {
		t.Fatalf("got %v, want ErrWrongDefinition", err)
	}
	js, _ := json.Marshal(bt.Start(a))
	if _, err := bt.RestoreJSON(b, js); !errors.Is(err, bt.ErrWrongDefinition) {
		t.Fatalf("JSON: got %v", err)
	}
	// Leaf values are not part of the fingerprint.
	if _, err := bt.Restore(bt.Sequence(bt.Leaves("x", "y")...), state); err != nil {
		t.Errorf("same shape, other leaves: %v", err)
	}
}

// TestRestoreBadInput is a table of damaged states: {name, input, error}.
func TestRestoreBadInput(t *testing.T) {
	def := bt.Sequence(bt.RepeatN(3, l("a")), bt.Select(l("b"), l("c")))
	good, _ := bt.Start(def).Succeed().MarshalBinary()
	fp := good[4:12]
	mk := func(parts ...[]byte) []byte {
		out := []byte{'B', 'T', 'S', 1}
		out = append(out, fp...)
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	tests := []struct {
		name  string
		input []byte
		want  string
	}{
		{"empty", nil, `byte 0: not a saved tree state (no "BTS" magic)`},
		{"wrong magic", []byte("XYZ\x01"), `byte 0: not a saved tree state`},
		{"future version", []byte("BTS\x02"), "byte 3: format version 2, want 1"},
		{"truncated fingerprint", []byte("BTS\x01abc"), "byte 4: truncated: fingerprint needs 8 bytes, 3 left"},
		{"focus not a leaf", mk([]byte{0, 0, 0, 0, 0, 0}), "focus: position 0 is not a leaf of the definition"},
		{"focus out of range", mk([]byte{99, 0, 0, 0, 0, 0}), "focus: position 99 is not a leaf"},
		{"bad status", mk([]byte{2, 7, 1, 0, 0, 0}), "status: status 7 or signal 1 out of range"},
		{"bad flags", mk([]byte{2, 0, 1, 9}), "unknown flags 0x9"},
		{"unneeded rng", mk([]byte{2, 0, 1, 1}, make([]byte, 16), []byte{0, 0}), "random state: present true, but the definition needs one: false"},
		{"counter not above focus", mk([]byte{2, 0, 1, 0, 1, 3, 1, 0}), "counter 0: position 3 is not a RepeatN above the focus"},
		{"counter out of range", mk([]byte{2, 0, 1, 0, 1, 1, 3, 0}), "counter 0: 3 runs left for a RepeatN of 3: want 1 to 2"},
		{"hostile count", mk([]byte{2, 0, 1, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}), "counters: 4294967295 is more than the 0 bytes left"},
		{"varint overflow", mk([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}), "focus overflows 64 bits"},
		{"custom not custom", mk([]byte{2, 0, 1, 0, 0, 1, 2, 0}), "custom state 0: position 2 is not a custom node"},
		{"trailing bytes", append(append([]byte{}, good...), 0), "1 bytes after the state"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := bt.Restore(def, tc.input)
			var se *bt.StateError
			if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want a StateError containing %q", err, tc.want)
			}
		})
	}
	// Every truncation of a good state is an error.
	for n := 0; n < len(good); n++ {
		if _, err := bt.Restore(def, good[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	badJSON := []struct{ input, want string }{
		{`{`, "invalid JSON"},
		{`{"format":"x"}`, `"format": "x", want "behaviortree-state/1"`},
		{`{"format":"behaviortree-state/1","fingerprint":"zz"}`, `"fingerprint": "zz" is not 16 hex digits`},
		{`{"format":"behaviortree-state/1","extra":1}`, `unknown field "extra"`},
		{`{"format":"behaviortree-state/1"} ]`, "invalid JSON: data after the state at byte 33"},
	}
	for _, tc := range badJSON {
		if _, err := bt.RestoreJSON(def, []byte(tc.input)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.input, err, tc.want)
		}
	}
}

// ExampleRestore saves a running tree and resumes it later.
func ExampleRestore() {
	def := bt.Sequence(bt.RepeatN(2, bt.Leaf("patrol")), bt.Leaf("rest"))
	tree := bt.Start(def).Succeed() // one patrol done
	saved, err := tree.MarshalBinary()
	if err != nil {
		fmt.Println(err)
		return
	}
	resumed, err := bt.Restore(def, saved)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(saved), "bytes:", resumed.Value(), "then", resumed.Succeed().Value())
	// Output: 20 bytes: patrol then rest
}
