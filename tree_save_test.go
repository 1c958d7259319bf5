package behaviortree_test

import (
	"bytes"
	"encoding/base64"
	"encoding/gob"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/custom"
)

// savableSelect is resumingSelect with its state savable.
type savableSelect struct{ resumingSelect }

func (s savableSelect) Enter(c custom.Context) (int, custom.Traversal) { return s.at, s }
func (s savableSelect) OnSucceed(c custom.Context) (custom.Move, custom.Traversal) {
	return custom.Succeed, savableSelect{resumingSelect{at: c.Child()}}
}
func (s savableSelect) OnFail(c custom.Context) (custom.Move, custom.Traversal) {
	if next := c.Child() + 1; next < c.Len() {
		return custom.To(next), s
	}
	return custom.Fail, savableSelect{}
}
func (s savableSelect) MarshalState() ([]byte, error) { return []byte(strconv.Itoa(s.at)), nil }
func (savableSelect) UnmarshalState(b []byte, children int) (custom.Traversal, error) {
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
		"json":   func() (bt.Tree[string], error) { return bt.Restore(def, js) },
	} {
		r, err := restore()
		if err != nil {
			t.Fatalf("%s: %v (state %s)", name, err, js)
		}
		if def == v.Definition() && !r.Equal(v) {
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
	def := bt.RepeatUntilFail(bt.Sequence(
		bt.Random(bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c")),
		bt.CustomNode(savableSelect{}, bt.Leaf("x"), bt.Leaf("y"), bt.Leaf("z")),
		bt.RepeatN(3, bt.RandomWeighted(bt.WithWeight(2, l("p")), bt.WithWeight(1, l("q")))),
	))
	v := bt.Start(def, bt.WithSeed(11))
	sig := randomSignals(3, 300)
	for k, s := range sig {
		roundTrip(t, def, v, randomSignals(uint64(k), 20))
		v = v.Signal(map[rune]bt.Status{'s': bt.Success, 'f': bt.Failure}[s])
	}
	// A custom state that cannot be saved is an error, not a silent loss.
	plain := bt.RepeatUntilFail(bt.CustomNode(resumingSelect{}, bt.Leaf("x"), bt.Leaf("y")))
	w := bt.Start(plain).Fail().Succeed()
	if _, err := w.MarshalBinary(); err == nil || !strings.Contains(err.Error(), "does not implement custom.Savable") {
		t.Errorf("saving an unsavable custom state: %v", err)
	}
	if _, err := bt.Start(plain).MarshalBinary(); err != nil {
		t.Errorf("a custom node that has not changed state should save: %v", err)
	}
}

// TestRestoreWrongDefinition refuses a state from another definition.
func TestRestoreWrongDefinition(t *testing.T) {
	a := bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))
	b := bt.Select(bt.Leaf("a"), bt.Leaf("b"))
	state, _ := bt.Start(a).Succeed().MarshalBinary()
	_, err := bt.Restore(b, state)
	if !errors.Is(err, bt.ErrWrongDefinition) {
		t.Fatalf("got %v, want ErrWrongDefinition", err)
	}
	js, _ := json.Marshal(bt.Start(a))
	if _, err := bt.Restore(b, js); !errors.Is(err, bt.ErrWrongDefinition) {
		t.Fatalf("JSON: got %v", err)
	}
	// Leaf values are not part of the fingerprint.
	if _, err := bt.Restore(bt.Sequence(bt.Leaf("x"), bt.Leaf("y")), state); err != nil {
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
		{"future version", []byte("BTS\x03"), "byte 3: format version 3, want 1 or 2"},
		{"truncated fingerprint", []byte("BTS\x01abc"), "byte 4: truncated: fingerprint needs 8 bytes, 3 left"},
		{"focus not a leaf", mk([]byte{0, 0, 0, 0, 0, 0}), "focus: position 0 is not a leaf of the definition"},
		{"focus out of range", mk([]byte{99, 0, 0, 0, 0, 0}), "focus: position 99 is not a leaf"},
		{"bad status", mk([]byte{2, 7, 1, 0, 0, 0}), "byte 13: status 0x7, want 0 (running), 1 (success) or 2 (failure)"},
		{"negative status", mk([]byte{2, 0x80, 1, 0, 0, 0}), "byte 13: status 0x80, want 0"},
		{"bad signal", mk([]byte{2, 0, 0xff, 0, 0, 0}), "byte 14: signal 0xff, want 0"},
		{"completed at Start", mk([]byte{2, 1, 0, 0, 0, 0}), "signal: running (a version made by Start) with a status of success"},
		{"truncated status", mk([]byte{2}), "byte 13: truncated: status needs 1 bytes, 0 left"},
		{"bad flags", mk([]byte{2, 0, 1, 9}), "byte 15: unknown flags 0x9, want 0 or 1"},
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
		{`{"format":"behaviortree-state/1","fingerprint":"0000000000000000","status":"Status(?)"}`,
			`"status": "Status(?)", want "running", "success" or "failure"`},
		{`{"format":"behaviortree-state/1","fingerprint":"0000000000000000","status":"running","signal":"done"}`,
			`"signal": "done", want`},
		{`{"format":"behaviortree-state/1","fingerprint":"0000000000000000","status":"running","signal":"running","rng":"00"}`,
			`"rng": "00" is not 32 hex digits`},
	}
	for _, tc := range badJSON {
		if _, err := bt.Restore(def, []byte(tc.input)); err == nil || !strings.Contains(err.Error(), tc.want) {
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

// TestRestoreEnumBytes tries every status and signal byte, and every flags
// byte: only running, success and failure are statuses (a version made by
// Start, whose signal is running, cannot have completed), only bit 0 is a
// flag, and whatever restores saves to JSON that restores (issue 9, bug 4:
// bytes 0x80 to 0xff restored as Status(?), whose JSON did not restore).
func TestRestoreEnumBytes(t *testing.T) {
	def := bt.Sequence(bt.RepeatN(3, l("a")), bt.Select(l("b"), l("c")))
	good, _ := bt.Start(def).Succeed().MarshalBinary()
	const at = 13 // status, signal and flags follow the 1-byte focus
	if good[at] != byte(bt.Running) || good[at+1] != byte(bt.Success) || good[at+2] != 0 {
		t.Fatalf("unexpected layout % x", good)
	}
	for status := 0; status < 256; status++ {
		for signal := 0; signal < 256; signal++ {
			b := append([]byte(nil), good...)
			b[at], b[at+1] = byte(status), byte(signal)
			tr, err := bt.Restore(def, b)
			valid := status <= 2 && signal <= 2 && (signal != 0 || status == 0)
			if valid != (err == nil) {
				t.Fatalf("status %#x, signal %#x: got %v, want valid %v", status, signal, err, valid)
			}
			if err != nil {
				continue
			}
			if tr.Status() != bt.Status(status) || tr.LastSignal() != bt.Status(signal) {
				t.Fatalf("status %#x, signal %#x: restored %v, %v", status, signal, tr.Status(), tr.LastSignal())
			}
			js, err := json.Marshal(tr)
			if err != nil {
				t.Fatal(err)
			}
			back, err := bt.Restore(def, js)
			if err != nil || !back.Equal(tr) {
				t.Fatalf("status %#x, signal %#x: its own JSON %s does not restore: %v", status, signal, js, err)
			}
		}
	}
	for flags := 2; flags < 256; flags++ {
		b := append([]byte(nil), good...)
		b[at+2] = byte(flags)
		if _, err := bt.Restore(def, b); err == nil || !strings.Contains(err.Error(), "unknown flags") {
			t.Fatalf("flags %#x: got %v", flags, err)
		}
	}
}

// TestZeroTreeMarshal: the zero Tree does not save, and says so with an
// error rather than a panic (issue 9, bug 7).
func TestZeroTreeMarshal(t *testing.T) {
	var z bt.Tree[string]
	if _, err := json.Marshal(z); err == nil || !strings.Contains(err.Error(), "cannot save the zero Tree") {
		t.Errorf("json.Marshal: got %v", err)
	}
	if _, err := json.Marshal(struct{ T bt.Tree[string] }{}); err == nil {
		t.Error("json.Marshal of a struct holding a zero Tree: no error")
	}
	if _, err := z.MarshalBinary(); err == nil || !strings.Contains(err.Error(), "cannot save the zero Tree") {
		t.Errorf("MarshalBinary: got %v", err)
	}
	if _, err := z.Save(); err == nil {
		t.Error("Save: no error")
	}
}

// TestRestoreErrorsClipInput: a huge bad field is quoted in part, and the
// error says how long it was.
func TestRestoreErrorsClipInput(t *testing.T) {
	def := bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))
	big := strings.Repeat("é", 1<<19) // 1 MB, and a cut inside a rune must not split it
	for _, input := range []string{
		`{"format":"` + big + `"}`,
		`{"format":"behaviortree-state/1","fingerprint":"` + big + `"}`,
		`{"format":"behaviortree-state/1","fingerprint":"0000000000000000","status":"` + big + `"}`,
		`{"format":"behaviortree-state/1","fingerprint":"0000000000000000","status":"running","signal":"running","rng":"` + big + `"}`,
		`{"` + big + `":1}`, // encoding/json's unknown field error quotes the name
	} {
		_, err := bt.Restore(def, []byte(input))
		if err == nil {
			t.Fatalf("%.60s...: no error", input)
		}
		msg := err.Error()
		if len(msg) > 300 || !strings.Contains(msg, "bytes)") || !utf8.ValidString(msg) {
			t.Errorf("%.60s...: %d-byte error %.300q", input, len(msg), msg)
		}
	}
	// An UnmarshalState error that repeats a huge state is clipped too, and
	// still wrapped.
	cdef := bt.RepeatUntilFail(bt.CustomNode(savableSelect{}, bt.Leaf("x"), bt.Leaf("y")))
	v := bt.Start(cdef, bt.WithSeed(1)).Fail().Succeed()
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(js, &raw); err != nil {
		t.Fatal(err)
	}
	raw["custom"] = []any{map[string]any{"node": 1, "state": base64.StdEncoding.EncodeToString([]byte(big))}}
	js, _ = json.Marshal(raw)
	_, err = bt.Restore(cdef, js)
	var se *bt.StateError
	if !errors.As(err, &se) || se.Err == nil || len(err.Error()) > 300 || !strings.Contains(err.Error(), `"custom"[0]: bad resume point`) {
		t.Errorf("custom state: %.300v", err)
	}
}

// TestTreeUnmarshalJSON: a struct holding a Tree marshals, and unmarshals
// with an error that says what to do, not silently into a zero Tree.
func TestTreeUnmarshalJSON(t *testing.T) {
	type game struct {
		Bot bt.Tree[string]
	}
	def := bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))
	js, err := json.Marshal(game{bt.Start(def).Succeed()})
	if err != nil {
		t.Fatal(err)
	}
	var g game
	err = json.Unmarshal(js, &g)
	if err == nil || !strings.Contains(err.Error(), "use Restore, or hold a Saved") {
		t.Fatalf("got %v", err)
	}
}

// TestSaved saves versions in a struct through JSON and through gob (which
// uses the binary form), and restores them.
func TestSaved(t *testing.T) {
	type game struct {
		Turn int
		Bot  bt.Saved[string]
		Idle bt.Saved[string] `json:",omitempty"`
	}
	def := bt.RepeatUntilFail(bt.Sequence(
		bt.Random(bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c")),
		bt.CustomNode(savableSelect{}, bt.Leaf("x"), bt.Leaf("y"), bt.Leaf("z")),
		bt.RepeatN(3, l("r")),
	))
	v := bt.Start(def, bt.WithSeed(4))
	for k, s := range randomSignals(9, 60) {
		saved, err := v.Save()
		if err != nil {
			t.Fatal(err)
		}
		js, err := json.Marshal(game{Turn: k, Bot: saved})
		if err != nil {
			t.Fatal(err)
		}
		if direct, _ := json.Marshal(v); !strings.Contains(string(js), string(direct)) {
			t.Fatalf("Saved's JSON %s does not hold the Tree's %s", js, direct)
		}
		var g game
		if err := json.Unmarshal(js, &g); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		var h game
		if err := gob.NewEncoder(&buf).Encode(game{Turn: k, Bot: saved}); err != nil {
			t.Fatal(err)
		}
		if err := gob.NewDecoder(&buf).Decode(&h); err != nil {
			t.Fatal(err)
		}
		for name, s := range map[string]bt.Saved[string]{"Save": saved, "JSON": g.Bot, "gob": h.Bot} {
			r, err := s.Restore(def)
			if err != nil || !r.Equal(v) {
				t.Fatalf("turn %d, %s: restored %v, Equal %v", k, name, err, err == nil && r.Equal(v))
			}
		}
		if !g.Idle.IsZero() {
			t.Fatal("a missing Saved is not zero")
		}
		v = v.Signal(map[rune]bt.Status{'s': bt.Success, 'f': bt.Failure}[s])
	}
	// The zero Saved is null, and restores to an error.
	var z bt.Saved[string]
	if js, err := json.Marshal(z); err != nil || string(js) != "null" {
		t.Errorf("zero Saved: %s, %v", js, err)
	}
	if err := json.Unmarshal([]byte("null"), &z); err != nil || !z.IsZero() {
		t.Errorf("null: %v, zero %v", err, z.IsZero())
	}
	if _, err := z.Restore(def); err == nil || !strings.Contains(err.Error(), "zero Saved") {
		t.Errorf("restoring the zero Saved: %v", err)
	}
	if _, err := z.MarshalBinary(); err == nil {
		t.Error("MarshalBinary of the zero Saved: no error")
	}
	// Unmarshalling checks the form; Restore checks the definition.
	saved, _ := v.Save()
	if _, err := saved.Restore(bt.RepeatUntilFail(bt.Leaf("x"))); !errors.Is(err, bt.ErrWrongDefinition) {
		t.Errorf("other definition: %v", err)
	}
	if _, err := saved.Restore(bt.Node[string]{}); err == nil {
		t.Error("zero definition: no error")
	}
	kept := saved
	var se *bt.StateError
	if err := saved.UnmarshalJSON([]byte(`{"format":"behaviortree-state/1","status":"Status(?)"}`)); !errors.As(err, &se) {
		t.Errorf("bad JSON state: %v", err)
	}
	if err := saved.UnmarshalBinary([]byte("BTS\x03")); !errors.As(err, &se) || se.Where != "byte 3" {
		t.Errorf("bad binary state: %v", err)
	}
	if r, err := saved.Restore(def); err != nil || !r.Equal(v) || saved != kept {
		t.Errorf("a failed unmarshal changed the Saved: %v", err)
	}
	// A Saved read from the binary form names its fields as that form does.
	bad, _ := bt.Start(bt.Sequence(bt.RepeatN(3, l("a")), l("b"))).Succeed().MarshalBinary()
	bad[len(bad)-3] = 2 // counter 0's position: not a RepeatN
	if err := saved.UnmarshalBinary(bad); err != nil {
		t.Fatal(err)
	}
	if _, err := saved.Restore(bt.Sequence(bt.RepeatN(3, l("a")), l("b"))); err == nil || !strings.Contains(err.Error(), "restore: counter 0: position 2") {
		t.Errorf("binary places: %v", err)
	}
}

// ExampleSaved keeps a bot's tree in a struct saved as JSON: the struct
// holds a Saved, which restores against the bot's definition.
func ExampleSaved() {
	type game struct {
		Turn int
		Bot  bt.Saved[string]
	}
	bot := bt.Sequence(bt.RepeatN(2, bt.Leaf("patrol")), bt.Leaf("rest"))
	tree := bt.Start(bot).Succeed() // one patrol done

	saved, err := tree.Save()
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := json.Marshal(game{Turn: 1, Bot: saved})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(string(data))

	var g game
	if err := json.Unmarshal(data, &g); err != nil {
		fmt.Println(err)
		return
	}
	resumed, err := g.Bot.Restore(bot)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(resumed.Value(), "then", resumed.Succeed().Value())
	// Output:
	// {"Turn":1,"Bot":{"format":"behaviortree-state/1","fingerprint":"336aef31bdd47d53","focus":2,"status":"running","signal":"success","counts":[{"node":1,"left":1}]}}
	// patrol then rest
}

// TestRestoreSteppedState checks that a stepped version's saved state,
// given to Restore, says what it is and what to use, in either form.
func TestRestoreSteppedState(t *testing.T) {
	def := bt.Root(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")))
	st, err := bt.NewStepped(def, bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultRunning }})
	if err != nil {
		t.Fatal(err)
	}
	if st, err = st.Step(); err != nil {
		t.Fatal(err)
	}
	bin, err := st.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	js, err := st.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for form, data := range map[string][]byte{"binary": bin, "JSON": js} {
		_, err := bt.Restore(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")), data)
		var se *bt.StateError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "a saved stepped state, not a tree's: restore it with RestoreStepped") {
			t.Errorf("%s: Restore of a stepped state: %v", form, err)
		}
		// A Saved that holds it refuses the same way.
		var s bt.Saved[string]
		if form == "binary" {
			err = s.UnmarshalBinary(data)
		} else {
			err = s.UnmarshalJSON(data)
		}
		if err != nil {
			t.Fatalf("%s: Saved: %v", form, err)
		}
		if _, serr := s.Restore(bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))); serr == nil || serr.Error() != err2str(bt.Restore(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")), data)) {
			t.Errorf("%s: Saved.Restore of a stepped state: %v", form, serr)
		}
	}
}

// err2str returns the text of a call's error, or "" for none.
func err2str[T any](_ T, err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestRestoreSteppedOfTree checks the other way round: a tree's saved
// state, given to Stepped.Restore or RestoreStepped, says what it is, in
// either form, and names the function called.
func TestRestoreSteppedOfTree(t *testing.T) {
	def := bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))
	tr := bt.Start(def).Succeed()
	bin, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	js, err := tr.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	ag := bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultSuccess }}
	st, err := bt.NewStepped(def, ag)
	if err != nil {
		t.Fatal(err)
	}
	for form, data := range map[string][]byte{"binary": bin, "JSON": js} {
		_, err := st.Restore(data)
		if err == nil || !strings.HasPrefix(err.Error(), "behaviortree.Stepped.Restore: a saved tree state (Value/Succeed/Fail), not a stepped one: restore it with Restore") {
			t.Errorf("%s: Stepped.Restore of a tree's state: %v", form, err)
		}
		_, err = bt.RestoreStepped(def, ag, data)
		if err == nil || !strings.HasPrefix(err.Error(), "behaviortree.RestoreStepped: a saved tree state") {
			t.Errorf("%s: RestoreStepped of a tree's state: %v", form, err)
		}
	}
}
