package behaviortree

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"reflect"
	"slices"
)

// Saving and restoring a running tree.
//
// A saved state holds only what a version adds to its definition: the
// focused position, the RepeatN counters that have counted down, the random
// state, the state of custom nodes that changed, the status and the last
// signal. Positions are numbered in preorder (the root is 0). Leaf values are
// not saved: a state restores against the same definition, which a
// fingerprint of its structure (kinds, child counts, counts, weights, custom
// node types; not leaf values) identifies.
//
// The binary form (Tree.MarshalBinary) is, in order: the magic "BTS" and the
// format version 1; the fingerprint, 8 bytes little-endian; the focus, a
// uvarint; the status and the last signal, a byte each; a flags byte (bit 0:
// a random state follows); the random state, 16 bytes; the number of
// counters, then each counter's position and runs left, uvarints, deepest
// first; the number of custom states, then each one's position, byte length
// and bytes, by increasing position. A battleship bot's tree takes 15 to 40
// bytes. The JSON form (Tree.MarshalJSON) holds the same fields by name.

// ErrWrongDefinition is wrapped by the error of restoring a state against a
// definition other than the one it was saved from.
var ErrWrongDefinition = errors.New("the state was saved from a different definition")

// SavableTraversal is a [Traversal] whose state can be saved and restored
// with the tree. A tree whose custom nodes have changed state can be saved
// only if every such state implements it. UnmarshalState is called on the
// definition's own Traversal value, with what MarshalState returned and the
// node's number of children. Saved states are input: UnmarshalState must
// reject data that does not make a valid state for the node (a child index
// out of range, say) with an error, since a state that later names a child
// out of range panics.
type SavableTraversal interface {
	Traversal
	MarshalState() ([]byte, error)
	UnmarshalState(data []byte, children int) (Traversal, error)
}

// StateError reports a saved state that cannot be restored. Where says
// where: "byte 13" in the binary form, a field name in JSON.
type StateError struct {
	Where string
	Msg   string
	Err   error
}

// Error returns "behaviortree: restore: WHERE: MSG".
func (e *StateError) Error() string {
	if e.Where == "" {
		return "behaviortree: restore: " + e.Msg
	}
	return "behaviortree: restore: " + e.Where + ": " + e.Msg
}

// Unwrap returns the underlying error.
func (e *StateError) Unwrap() error { return e.Err }

// Fingerprint returns a hash of n's structure: kinds, child counts, RepeatN
// counts, weights and custom node types, not leaf values. Saved states
// carry it to refuse restoring against another definition.
func (n Node[L]) Fingerprint() uint64 { return compiled(n.must("Fingerprint")).fingerprint }

// fingerprint hashes the structure of a compiled program.
func fingerprintOf[L any](all []pos[L]) uint64 {
	h := fnv.New64a()
	var buf [binary.MaxVarintLen64]byte
	put := func(x uint64) { h.Write(buf[:binary.PutUvarint(buf[:], x)]) }
	for i := range all {
		p := &all[i]
		put(uint64(p.kind))
		put(uint64(len(p.children)))
		switch p.kind {
		case KindRepeatN:
			put(uint64(p.n))
		case KindRandomWeighted:
			for j := range p.children {
				put(uint64(p.def.weightOf(j)))
			}
		case KindCustom:
			h.Write([]byte(reflect.TypeOf(p.def.custom).String()))
		}
	}
	return h.Sum64()
}

// savedState is a state in memory, between its encodings and a Tree.
type savedState struct {
	fingerprint uint64
	focus       uint64
	status      Status
	signal      Status
	rng         *[16]byte
	counts      [][2]uint64 // position, left
	custom      []savedCustom
}

type savedCustom struct {
	id    uint64
	state []byte
}

// save takes the state of t.
func (t Tree[L]) save() (savedState, error) {
	if t.z.focus == nil {
		zeroTree("MarshalBinary")
	}
	root := t.z.root()
	prog := compiled(root.def)
	s := savedState{fingerprint: prog.fingerprint, focus: uint64(t.z.focus.id), status: t.status, signal: t.signal}
	for c := t.z.counts; c != nil; c = c.next {
		s.counts = append(s.counts, [2]uint64{uint64(c.at.id), uint64(c.left)})
	}
	if x := t.z.ext; x != nil {
		b, _ := x.rng.MarshalBinary() // "pcg:" and 16 bytes
		var r [16]byte
		copy(r[:], b[len(b)-16:])
		s.rng = &r
		if x.custom != nil {
			it := x.custom.Iterator()
			for !it.Done() {
				id, tr, _ := it.Next()
				st, ok := tr.(SavableTraversal)
				if !ok {
					return s, fmt.Errorf("behaviortree: cannot save custom node %d: its state %T does not implement SavableTraversal", id, tr)
				}
				data, err := st.MarshalState()
				if err != nil {
					return s, fmt.Errorf("behaviortree: saving custom node %d (%T): %w", id, tr, err)
				}
				s.custom = append(s.custom, savedCustom{id: uint64(id), state: data})
			}
			slices.SortFunc(s.custom, func(a, b savedCustom) int { return int(a.id) - int(b.id) })
		}
	}
	return s, nil
}

// MarshalBinary encodes t's running state in the compact binary form
// described above. It fails only for custom node states that cannot be
// saved.
func (t Tree[L]) MarshalBinary() ([]byte, error) {
	s, err := t.save()
	if err != nil {
		return nil, err
	}
	b := []byte{'B', 'T', 'S', 1}
	b = binary.LittleEndian.AppendUint64(b, s.fingerprint)
	b = binary.AppendUvarint(b, s.focus)
	b = append(b, byte(s.status), byte(s.signal))
	if s.rng != nil {
		b = append(b, 1)
		b = append(b, s.rng[:]...)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(s.counts)))
	for _, c := range s.counts {
		b = binary.AppendUvarint(b, c[0])
		b = binary.AppendUvarint(b, c[1])
	}
	b = binary.AppendUvarint(b, uint64(len(s.custom)))
	for _, c := range s.custom {
		b = binary.AppendUvarint(b, c.id)
		b = binary.AppendUvarint(b, uint64(len(c.state)))
		b = append(b, c.state...)
	}
	return b, nil
}

// Restore returns the version that data, from [Tree.MarshalBinary], saved,
// running on def. It resumes exactly: the same value, and the same future
// under any signals. Truncated, corrupted or hostile input returns a
// *StateError, never a panic; a state saved from another definition returns
// an error that wraps ErrWrongDefinition.
func Restore[L any](def Node[L], data []byte) (Tree[L], error) {
	if def.n == nil {
		return Tree[L]{}, &StateError{Msg: "zero definition"}
	}
	s, err := decodeBinary(data)
	if err != nil {
		return Tree[L]{}, err
	}
	return restore(compiled(def.n), s, binaryPlaces{})
}

// decodeBinary parses the binary form, checking only its syntax.
func decodeBinary(data []byte) (savedState, error) {
	var s savedState
	r := reader{data: data}
	if len(data) < 4 || !bytes.Equal(data[:3], []byte("BTS")) {
		return s, &StateError{Where: "byte 0", Msg: `not a saved tree state (no "BTS" magic)`}
	}
	if data[3] != 1 {
		return s, &StateError{Where: "byte 3", Msg: fmt.Sprintf("format version %d, want 1", data[3])}
	}
	r.off = 4
	fp, err := r.fixed(8, "fingerprint")
	if err != nil {
		return s, err
	}
	s.fingerprint = binary.LittleEndian.Uint64(fp)
	if s.focus, err = r.uvarint("focus"); err != nil {
		return s, err
	}
	b, err := r.fixed(3, "status, signal and flags")
	if err != nil {
		return s, err
	}
	s.status, s.signal = Status(b[0]), Status(b[1])
	switch b[2] {
	case 0:
	case 1:
		rb, err := r.fixed(16, "random state")
		if err != nil {
			return s, err
		}
		s.rng = (*[16]byte)(rb)
	default:
		return s, &StateError{Where: fmt.Sprintf("byte %d", r.off-1), Msg: fmt.Sprintf("unknown flags %#x", b[2])}
	}
	n, err := r.count("counters")
	if err != nil {
		return s, err
	}
	for i := 0; i < n; i++ {
		id, err := r.uvarint("counter %d position", i)
		if err != nil {
			return s, err
		}
		left, err := r.uvarint("counter %d runs left", i)
		if err != nil {
			return s, err
		}
		s.counts = append(s.counts, [2]uint64{id, left})
	}
	if n, err = r.count("custom states"); err != nil {
		return s, err
	}
	for i := 0; i < n; i++ {
		id, err := r.uvarint("custom state %d position", i)
		if err != nil {
			return s, err
		}
		size, err := r.count("custom state %d length", i)
		if err != nil {
			return s, err
		}
		st, err := r.fixed(size, "custom state %d", i)
		if err != nil {
			return s, err
		}
		s.custom = append(s.custom, savedCustom{id: id, state: bytes.Clone(st)})
	}
	if r.off != len(data) {
		return s, &StateError{Where: fmt.Sprintf("byte %d", r.off), Msg: fmt.Sprintf("%d bytes after the state", len(data)-r.off)}
	}
	return s, nil
}

// reader reads the binary form, with errors that say where.
type reader struct {
	data []byte
	off  int
}

// The reader's methods name what they read with a format and its
// arguments, formatted only for an error.

func (r *reader) fixed(n int, format string, args ...any) ([]byte, error) {
	if n < 0 || len(r.data)-r.off < n {
		what := fmt.Sprintf(format, args...)
		return nil, &StateError{Where: fmt.Sprintf("byte %d", r.off), Msg: fmt.Sprintf("truncated: %s needs %d bytes, %d left", what, n, len(r.data)-r.off)}
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b, nil
}

func (r *reader) uvarint(format string, args ...any) (uint64, error) {
	x, n := binary.Uvarint(r.data[r.off:])
	if n <= 0 {
		what := fmt.Sprintf(format, args...)
		msg := "truncated " + what
		if n < 0 {
			msg = what + " overflows 64 bits"
		}
		return 0, &StateError{Where: fmt.Sprintf("byte %d", r.off), Msg: msg}
	}
	r.off += n
	return x, nil
}

// count reads a length, which cannot exceed the bytes left (every item
// takes at least one byte): hostile lengths never allocate.
func (r *reader) count(format string, args ...any) (int, error) {
	at := r.off
	x, err := r.uvarint(format, args...)
	if err != nil {
		return 0, err
	}
	if x > uint64(len(r.data)-r.off) {
		what := fmt.Sprintf(format, args...)
		return 0, &StateError{Where: fmt.Sprintf("byte %d", at), Msg: fmt.Sprintf("%s: %d is more than the %d bytes left", what, x, len(r.data)-r.off)}
	}
	return int(x), nil
}

// places names the fields of a state in errors, per encoding.
type places interface {
	focus() string
	status() string
	rng() string
	count(i int) string
	custom(i int) string
}

type binaryPlaces struct{}

func (binaryPlaces) focus() string       { return "focus" }
func (binaryPlaces) status() string      { return "status" }
func (binaryPlaces) rng() string         { return "random state" }
func (binaryPlaces) count(i int) string  { return fmt.Sprintf("counter %d", i) }
func (binaryPlaces) custom(i int) string { return fmt.Sprintf("custom state %d", i) }

type jsonPlaces struct{}

func (jsonPlaces) focus() string       { return `"focus"` }
func (jsonPlaces) status() string      { return `"status"` }
func (jsonPlaces) rng() string         { return `"rng"` }
func (jsonPlaces) count(i int) string  { return fmt.Sprintf(`"counts"[%d]`, i) }
func (jsonPlaces) custom(i int) string { return fmt.Sprintf(`"custom"[%d]`, i) }

// restore checks a parsed state against a program and builds the version.
func restore[L any](prog *program[L], s savedState, at places) (Tree[L], error) {
	var t Tree[L]
	if s.fingerprint != prog.fingerprint {
		return t, &StateError{Msg: fmt.Sprintf("fingerprint %016x, but this definition's is %016x", s.fingerprint, prog.fingerprint), Err: ErrWrongDefinition}
	}
	if s.focus >= uint64(len(prog.all)) || prog.all[s.focus].kind != KindLeaf {
		return t, &StateError{Where: at.focus(), Msg: fmt.Sprintf("position %d is not a leaf of the definition", s.focus)}
	}
	if s.status > Failure || s.signal > Failure {
		return t, &StateError{Where: at.status(), Msg: fmt.Sprintf("status %d or signal %d out of range", s.status, s.signal)}
	}
	if s.signal == Running && s.status != Running {
		return t, &StateError{Where: at.status(), Msg: "a version made by Start cannot have completed"}
	}
	t.z.focus, t.status, t.signal = &prog.all[s.focus], s.status, s.signal
	if needRng := prog.random || prog.custom; needRng != (s.rng != nil) {
		return t, &StateError{Where: at.rng(), Msg: fmt.Sprintf("present %v, but the definition needs one: %v", s.rng != nil, needRng)}
	}
	if s.rng != nil {
		var pcg rand.PCG
		if err := pcg.UnmarshalBinary(append([]byte("pcg:"), s.rng[:]...)); err != nil {
			return t, &StateError{Where: at.rng(), Msg: err.Error(), Err: err}
		}
		t.z.ext = &extra{rng: pcg}
	}
	// Counters belong to RepeatN ancestors of the focus, deepest first.
	anc := t.z.focus.parent
	cells := make([]*count[L], 0, len(s.counts))
	for i, c := range s.counts {
		for anc != nil && uint64(anc.id) != c[0] {
			anc = anc.parent
		}
		if anc == nil || anc.kind != KindRepeatN {
			return Tree[L]{}, &StateError{Where: at.count(i), Msg: fmt.Sprintf("position %d is not a RepeatN above the focus (in order, deepest first)", c[0])}
		}
		if c[1] < 1 || c[1] >= uint64(anc.n) {
			return Tree[L]{}, &StateError{Where: at.count(i), Msg: fmt.Sprintf("%d runs left for a RepeatN of %d: want 1 to %d", c[1], anc.n, anc.n-1)}
		}
		cells = append(cells, &count[L]{at: anc, left: int32(c[1])})
		anc = anc.parent
	}
	for i := len(cells) - 1; i >= 0; i-- {
		if i+1 < len(cells) {
			cells[i].next = cells[i+1]
		}
	}
	if len(cells) > 0 {
		t.z.counts = cells[0]
	}
	last := -1
	for i, c := range s.custom {
		if c.id >= uint64(len(prog.all)) || prog.all[c.id].kind != KindCustom {
			return Tree[L]{}, &StateError{Where: at.custom(i), Msg: fmt.Sprintf("position %d is not a custom node", c.id)}
		}
		if int(c.id) <= last {
			return Tree[L]{}, &StateError{Where: at.custom(i), Msg: "positions must increase"}
		}
		last = int(c.id)
		p := &prog.all[c.id]
		st, ok := p.def.custom.(SavableTraversal)
		if !ok {
			return Tree[L]{}, &StateError{Where: at.custom(i), Msg: fmt.Sprintf("custom node %T does not implement SavableTraversal", p.def.custom)}
		}
		tr, err := st.UnmarshalState(c.state, len(p.children))
		if err != nil {
			return Tree[L]{}, &StateError{Where: at.custom(i), Msg: err.Error(), Err: err}
		}
		if tr == nil {
			return Tree[L]{}, &StateError{Where: at.custom(i), Msg: fmt.Sprintf("%T.UnmarshalState returned nil", p.def.custom)}
		}
		t.z.ext.custom = t.z.ext.setTraversal(p.id, nil, tr)
	}
	return t, nil
}

// stateJSON is the JSON form of a saved state.
type stateJSON struct {
	Format      string       `json:"format"`
	Fingerprint string       `json:"fingerprint"`
	Focus       uint64       `json:"focus"`
	Status      string       `json:"status"`
	Signal      string       `json:"signal"`
	RNG         string       `json:"rng,omitempty"`
	Counts      []countJSON  `json:"counts,omitempty"`
	Custom      []customJSON `json:"custom,omitempty"`
}

type countJSON struct {
	Node uint64 `json:"node"`
	Left uint64 `json:"left"`
}

type customJSON struct {
	Node  uint64 `json:"node"`
	State string `json:"state"` // base64
}

const stateFormat = "behaviortree-state/1"

// MarshalJSON encodes t's running state as JSON, with the fields of the
// binary form by name: format, fingerprint (hex), focus, status, signal,
// rng (hex, when the definition draws at random or has custom nodes),
// counts ({"node", "left"}) and custom ({"node", "state" in base64}).
func (t Tree[L]) MarshalJSON() ([]byte, error) {
	s, err := t.save()
	if err != nil {
		return nil, err
	}
	j := stateJSON{Format: stateFormat, Fingerprint: fmt.Sprintf("%016x", s.fingerprint), Focus: s.focus,
		Status: s.status.String(), Signal: s.signal.String()}
	if s.rng != nil {
		j.RNG = hex.EncodeToString(s.rng[:])
	}
	for _, c := range s.counts {
		j.Counts = append(j.Counts, countJSON{Node: c[0], Left: c[1]})
	}
	for _, c := range s.custom {
		j.Custom = append(j.Custom, customJSON{Node: c.id, State: base64.StdEncoding.EncodeToString(c.state)})
	}
	return json.Marshal(j)
}

// RestoreJSON is [Restore] for the JSON form of [Tree.MarshalJSON].
func RestoreJSON[L any](def Node[L], data []byte) (Tree[L], error) {
	if def.n == nil {
		return Tree[L]{}, &StateError{Msg: "zero definition"}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j stateJSON
	if err := dec.Decode(&j); err != nil {
		return Tree[L]{}, &StateError{Msg: "invalid JSON: " + err.Error(), Err: err}
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return Tree[L]{}, &StateError{Msg: fmt.Sprintf("invalid JSON: data after the state at byte %d", dec.InputOffset())}
	}
	if j.Format != stateFormat {
		return Tree[L]{}, &StateError{Where: `"format"`, Msg: fmt.Sprintf("%q, want %q", j.Format, stateFormat)}
	}
	var s savedState
	fp, err := hex.DecodeString(j.Fingerprint)
	if err != nil || len(fp) != 8 {
		return Tree[L]{}, &StateError{Where: `"fingerprint"`, Msg: fmt.Sprintf("%q is not 16 hex digits", j.Fingerprint)}
	}
	s.fingerprint = binary.BigEndian.Uint64(fp)
	s.focus = j.Focus
	var ok1, ok2 bool
	if s.status, ok1 = parseStatus(j.Status); !ok1 {
		return Tree[L]{}, &StateError{Where: `"status"`, Msg: fmt.Sprintf("%q, want running, success or failure", j.Status)}
	}
	if s.signal, ok2 = parseStatus(j.Signal); !ok2 {
		return Tree[L]{}, &StateError{Where: `"signal"`, Msg: fmt.Sprintf("%q, want running, success or failure", j.Signal)}
	}
	if j.RNG != "" {
		r, err := hex.DecodeString(j.RNG)
		if err != nil || len(r) != 16 {
			return Tree[L]{}, &StateError{Where: `"rng"`, Msg: fmt.Sprintf("%q is not 32 hex digits", j.RNG)}
		}
		s.rng = (*[16]byte)(r)
	}
	for _, c := range j.Counts {
		s.counts = append(s.counts, [2]uint64{c.Node, c.Left})
	}
	for i, c := range j.Custom {
		st, err := base64.StdEncoding.DecodeString(c.State)
		if err != nil {
			return Tree[L]{}, &StateError{Where: jsonPlaces{}.custom(i), Msg: "state is not base64", Err: err}
		}
		s.custom = append(s.custom, savedCustom{id: c.Node, state: st})
	}
	return restore(compiled(def.n), s, jsonPlaces{})
}

func parseStatus(s string) (Status, bool) {
	for _, st := range []Status{Running, Success, Failure} {
		if st.String() == s {
			return st, true
		}
	}
	return 0, false
}
