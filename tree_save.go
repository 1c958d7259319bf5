package behaviortree

// This file saves and restores Value/Succeed/Fail versions (Tree): the
// binary and JSON forms, Restore, and what custom nodes save
// (custom.Savable). Saved (saved.go) wraps them for both styles.

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/zipbt/behaviortree/custom"
	"github.com/zipbt/behaviortree/kind"
)

// ErrWrongDefinition is wrapped by the error of restoring a state against a
// definition other than the one it was saved from.
var ErrWrongDefinition = errors.New("the state was saved from a different definition")

// StateError reports a saved state that cannot be restored. Where says
// where: "byte 13" in the binary form, a field name in JSON. Msg repeats at
// most about 100 bytes of the input, or of an underlying error's message.
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

// clipMessage returns s, an error message that may repeat input, cut to
// about maxQuoted bytes (at a rune boundary) with its length.
func clipMessage(s string) string {
	if len(s) <= maxQuoted {
		return s
	}
	n := maxQuoted
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "... (" + strconv.Itoa(len(s)) + " bytes)"
}

// Fingerprint returns a hash of n's structure (kinds, child counts,
// counts, durations, weights and custom node types, not leaf values): the
// fingerprint that every saved state of n carries, of either style
// ([Tree.Save], [Stepped.Save]), in its binary form and in the
// "fingerprint" of its JSON form, and by which a restore refuses a state
// saved from another definition.
//
// A definition that both styles run (of Leaf, Select, Sequence, Negate,
// AlwaysSucceed, AlwaysFail, Parallel and Race, without attributes) has
// one fingerprint for both. Its stepped saves carried another before
// they carried this one: that of the stepped program, which runs n under
// an implicit [Root] (Root(n).Fingerprint()). [RestoreStepped] and
// [Saved.RestoreStepped] take those saves still.
func (n Node[L]) Fingerprint() uint64 {
	root := n.must("Fingerprint")
	if root.stepped {
		if p, err := steppedCompiled(root); err == nil {
			return p.fp
		}
		// Too big to run (maxSteppedNodes), so it has no saves: the
		// structure's hash will do.
	}
	return compiled(root).fingerprint
}

// fpHash is the 64-bit FNV-1a hash (hash/fnv's New64a) of a sequence of
// uvarints and bytes, which both styles' fingerprints are: written out,
// without hash.Hash64's calls, since the stepped compile hashes every
// node (TestFPHashIsFNV).
type fpHash uint64

// init starts the hash.
func (f *fpHash) init() { *f = 14695981039346656037 }

// put hashes x as a uvarint.
func (f *fpHash) put(x uint64) {
	for x >= 0x80 {
		f.byte(byte(x) | 0x80)
		x >>= 7
	}
	f.byte(byte(x))
}

// bytes hashes b.
func (f *fpHash) bytes(b []byte) {
	for _, c := range b {
		f.byte(c)
	}
}

// byte hashes c.
func (f *fpHash) byte(c byte) { *f = (*f ^ fpHash(c)) * 1099511628211 }

// sum returns the hash.
func (f *fpHash) sum() uint64 { return uint64(*f) }

// fingerprintOf hashes the structure of a compiled program.
func fingerprintOf[L any](all []place[L]) uint64 {
	var f fpHash
	f.init()
	for i := range all {
		p := &all[i]
		f.put(uint64(p.kind))
		f.put(uint64(len(p.children)))
		switch nd := p.def; kinds[p.kind].param {
		case paramN:
			f.put(uint64(p.n))
		case paramWeights:
			for _, w := range nd.weights {
				f.put(uint64(w))
			}
		case paramLotto:
			f.put(uint64(len(nd.weights))) // absent weights: every child one ticket
			for _, w := range nd.weights {
				f.put(uint64(w))
			}
		case paramBound:
			f.put(uint64(nd.bound))
			f.put(uint64(nd.min))
			f.put(uint64(nd.max))
		case paramThreshold:
			f.put(uint64(p.need[0]))
			f.put(uint64(p.need[1]))
		}
		if p.kind == kind.Custom {
			f.bytes([]byte(reflect.TypeOf(p.def.custom).String()))
		}
	}
	return f.sum()
}

// savedState is a state in memory, between its encodings and a Tree. The
// decoders check that its statuses are statuses; restore checks the rest
// against a definition.
type savedState struct {
	fingerprint uint64
	focus       uint64
	status      Status
	signal      Status
	rng         *[16]byte
	counts      [][2]uint64 // position, left
	custom      []savedCustom
	mem         []byte // the binary form of the memory (package memory); nil when it is empty
}

type savedCustom struct {
	id    uint64
	state []byte
}

// errZeroTree is the error of saving the zero Tree.
var errZeroTree = errors.New("behaviortree: cannot save the zero Tree (use Start or Restore)")

// save takes the state of t.
func (t Tree[L]) save() (savedState, error) {
	if t.z.focus == nil {
		return savedState{}, errZeroTree
	}
	root := t.z.root()
	prog := compiled(root.def)
	s := savedState{fingerprint: prog.fingerprint, focus: uint64(t.z.focus.id), status: t.Status(), signal: t.LastSignal()}
	if mem := t.Memory(); mem.Len() > 0 {
		var err error
		if s.mem, err = mem.MarshalBinary(); err != nil {
			return s, err
		}
	}
	for c := t.z.counts; c != nil; c = c.next {
		s.counts = append(s.counts, [2]uint64{uint64(c.at.id), uint64(c.left)})
	}
	if x := t.z.ext; x != nil && !x.memOnly {
		if x.frame != nil {
			return s, errors.New("behaviortree: cannot save a tree while a parallel node runs: saving a frontier is not supported yet")
		}
		b, _ := x.rng.MarshalBinary() // "pcg:" and 16 bytes
		var r [16]byte
		copy(r[:], b[len(b)-16:])
		s.rng = &r
		var err error
		if s.custom, err = saveCustom(x); err != nil {
			return s, err
		}
	}
	return s, nil
}

// saveCustom returns the custom states in x, by increasing position.
func saveCustom[L any](x *extra[L]) ([]savedCustom, error) {
	if x.custom == nil {
		return nil, nil
	}
	var out []savedCustom
	it := x.custom.Iterator()
	for !it.Done() {
		id, tr, _ := it.Next()
		st, ok := tr.(custom.Savable)
		if !ok {
			return nil, fmt.Errorf("behaviortree: cannot save custom node %d: its state %T does not implement custom.Savable", id, tr)
		}
		data, err := st.MarshalState()
		if err != nil {
			return nil, fmt.Errorf("behaviortree: saving custom node %d (%T): %w", id, tr, err)
		}
		out = append(out, savedCustom{id: uint64(id), state: data})
	}
	slices.SortFunc(out, func(a, b savedCustom) int { return int(a.id) - int(b.id) })
	return out, nil
}

// MarshalBinary encodes t's running state in a compact binary form, which
// [Restore] reads back against the same definition. It returns an error for
// the zero Tree, and for a custom node state that cannot be saved (see
// [custom.Savable]).
//
// A state holds only what a version adds to its definition: the focused
// position, the RepeatN counters that have counted down, the random state,
// the states of custom nodes that changed, the status and the last signal.
// Positions are numbered in preorder, the root being 0. Leaf values are not
// saved: a state restores against the same definition, which the
// definition's [Node.Fingerprint] (its structure, not its leaf values)
// identifies.
//
// The binary form is, in order:
//
//   - the magic "BTS" and the format version, the byte 1;
//   - the fingerprint, 8 bytes little-endian;
//   - the focus, a uvarint;
//   - the status, then the last signal, a byte each: 0 for running, 1 for
//     success, 2 for failure (a signal of running, from Start, goes with a
//     status of running);
//   - a flags byte: 1 when a random state follows, else 0;
//   - the random state, 16 bytes, present when the definition has Random,
//     RandomWeighted or custom nodes;
//   - the number of counters, then each counter's position and runs left
//     (1 to its RepeatN's count minus 1), deepest first, all uvarints;
//   - the number of custom states, then each one's position, byte length
//     and bytes (from [custom.Savable]'s MarshalState), by increasing
//     position, the numbers uvarints;
//   - in format version 2 only, which a version with a non-empty memory
//     saves in, the memory: its keys and their values with their types.
//
// A value in memory that has no saved form (see [memory.NewKey]) makes
// saving fail with a [*memory.Error] naming its key and type.
//
// A battleship bot's tree takes 15 to 40 bytes.
func (t Tree[L]) MarshalBinary() ([]byte, error) {
	s, err := t.save()
	if err != nil {
		return nil, err
	}
	return s.appendBinary(nil), nil
}

// appendBinary appends the binary form of s to b.
func (s *savedState) appendBinary(b []byte) []byte {
	version := byte(1)
	if s.mem != nil {
		version = 2
	}
	b = append(b, 'B', 'T', 'S', version)
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
	return append(b, s.mem...)
}

// Restore returns the version that data saved, running on def: data is
// either form, the binary one of [Tree.MarshalBinary] or the JSON one of
// [Tree.MarshalJSON] (an object: its first byte, after any white space,
// is '{'). It resumes exactly: the same value, and the same future under
// any signals. Truncated, corrupted or hostile input returns a
// *StateError, never a panic; a state saved from another definition returns
// an error that wraps ErrWrongDefinition.
//
// A struct that holds a saved tree and is unmarshalled as a whole should
// hold a [Saved], which unmarshals without the definition, rather than a
// Tree.
func Restore[L any](def Node[L], data []byte) (Tree[L], error) {
	if def.n == nil {
		return Tree[L]{}, &StateError{Msg: "zero definition"}
	}
	if isJSONObject(data) {
		s, err := decodeJSON(data)
		if err != nil {
			return Tree[L]{}, err
		}
		return restore(compiled(def.n), &s, jsonPlaces{})
	}
	s, err := decodeBinary(data)
	if err != nil {
		return Tree[L]{}, err
	}
	return restore(compiled(def.n), &s, binaryPlaces{})
}

// isJSONObject reports whether data starts, after JSON white space, with
// '{': the JSON form of a saved state. No binary form starts so.
func isJSONObject(data []byte) bool {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		}
		return c == '{'
	}
	return false
}

// decodeBinary parses the binary form, checking its syntax and its enums,
// not the positions it names.
func decodeBinary(data []byte) (savedState, error) {
	r := reader{data: data}
	s, err := r.header()
	if err == nil {
		s.counts, err = r.counters()
	}
	if err == nil {
		s.custom, err = r.customStates()
	}
	if err == nil && data[3] == 2 {
		s.mem, err = r.memory()
	}
	if err == nil && r.off != len(data) {
		err = &StateError{Where: r.where(), Msg: fmt.Sprintf("%d bytes after the state", len(data)-r.off)}
	}
	return s, err
}

// header reads the fields before the counters: magic and version,
// fingerprint, focus, status, signal, flags and the random state.
func (r *reader) header() (savedState, error) {
	var s savedState
	if len(r.data) < 4 || !bytes.Equal(r.data[:3], []byte("BTS")) {
		return s, &StateError{Where: "byte 0", Msg: `not a saved tree state (no "BTS" magic)`}
	}
	if isSteppedMagic(string(r.data[:4])) {
		return s, errSteppedState()
	}
	if r.data[3] != 1 && r.data[3] != 2 {
		return s, &StateError{Where: "byte 3", Msg: fmt.Sprintf("format version %d, want 1 or 2", r.data[3])}
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
	if s.status, err = r.status("status"); err != nil {
		return s, err
	}
	if s.signal, err = r.status("signal"); err != nil {
		return s, err
	}
	flags, err := r.fixed(1, "flags")
	if err != nil {
		return s, err
	}
	switch flags[0] {
	case 0:
	case 1:
		rb, err := r.fixed(16, "random state")
		if err != nil {
			return s, err
		}
		s.rng = (*[16]byte)(rb)
	default:
		return s, &StateError{Where: fmt.Sprintf("byte %d", r.off-1), Msg: fmt.Sprintf("unknown flags %#x, want 0 or 1", flags[0])}
	}
	return s, nil
}

// memory reads the memory section, which ends the data, checking it, and
// returns its bytes.
func (r *reader) memory() ([]byte, error) {
	start := r.off
	if _, err := readMemorySection(r.data[start:], start); err != nil {
		return nil, memoryStateError("memory", err)
	}
	r.off = len(r.data)
	return r.data[start:r.off:r.off], nil
}

// counters reads the number of counters and each one's position and runs
// left.
func (r *reader) counters() ([][2]uint64, error) {
	n, err := r.count("counters")
	if err != nil || n == 0 {
		return nil, err
	}
	out := make([][2]uint64, 0, n)
	for i := 0; i < n; i++ {
		id, err := r.uvarint("counter %d position", i)
		if err != nil {
			return nil, err
		}
		left, err := r.uvarint("counter %d runs left", i)
		if err != nil {
			return nil, err
		}
		out = append(out, [2]uint64{id, left})
	}
	return out, nil
}

// customStates reads the number of custom states and each one's position,
// length and bytes.
func (r *reader) customStates() ([]savedCustom, error) {
	n, err := r.count("custom states")
	if err != nil || n == 0 {
		return nil, err
	}
	out := make([]savedCustom, 0, n)
	for i := 0; i < n; i++ {
		id, err := r.uvarint("custom state %d position", i)
		if err != nil {
			return nil, err
		}
		size, err := r.count("custom state %d length", i)
		if err != nil {
			return nil, err
		}
		st, err := r.fixed(size, "custom state %d", i)
		if err != nil {
			return nil, err
		}
		out = append(out, savedCustom{id: id, state: bytes.Clone(st)})
	}
	return out, nil
}

// reader reads the binary form, with errors that say where.
type reader struct {
	data []byte
	off  int
}

// The reader's methods name what they read with a format and its
// arguments, formatted only for an error.

func (r *reader) where() string { return "byte " + strconv.Itoa(r.off) }

func (r *reader) fixed(n int, format string, args ...any) ([]byte, error) {
	if n < 0 || len(r.data)-r.off < n {
		what := fmt.Sprintf(format, args...)
		return nil, &StateError{Where: r.where(), Msg: fmt.Sprintf("truncated: %s needs %d bytes, %d left", what, n, len(r.data)-r.off)}
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
		return 0, &StateError{Where: r.where(), Msg: msg}
	}
	if n != len(binary.AppendUvarint(nil, x)) { // what restores must save back to the same bytes
		return 0, &StateError{Where: r.where(), Msg: fmt.Sprintf(format, args...) + " is not in its shortest encoding"}
	}
	r.off += n
	return x, nil
}

// status reads a status byte: 0, 1 or 2.
func (r *reader) status(what string) (Status, error) {
	b, err := r.fixed(1, "%s", what)
	if err != nil {
		return 0, err
	}
	if b[0] > byte(Failure) {
		r.off--
		return 0, &StateError{Where: r.where(), Msg: fmt.Sprintf("%s %#x, want 0 (running), 1 (success) or 2 (failure)", what, b[0])}
	}
	return Status(b[0]), nil
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
	signal() string
	rng() string
	count(i int) string
	custom(i int) string
	memory() string
}

type binaryPlaces struct{}

func (binaryPlaces) focus() string       { return "focus" }
func (binaryPlaces) signal() string      { return "signal" }
func (binaryPlaces) rng() string         { return "random state" }
func (binaryPlaces) count(i int) string  { return fmt.Sprintf("counter %d", i) }
func (binaryPlaces) custom(i int) string { return fmt.Sprintf("custom state %d", i) }
func (binaryPlaces) memory() string      { return "memory" }

type jsonPlaces struct{}

func (jsonPlaces) focus() string       { return `"focus"` }
func (jsonPlaces) signal() string      { return `"signal"` }
func (jsonPlaces) rng() string         { return `"rng"` }
func (jsonPlaces) count(i int) string  { return fmt.Sprintf(`"counts"[%d]`, i) }
func (jsonPlaces) custom(i int) string { return fmt.Sprintf(`"custom"[%d]`, i) }
func (jsonPlaces) memory() string      { return `"memory"` }

// restore checks a parsed state against a program and builds the version,
// in the order of the fields.
func restore[L any](prog *program[L], s *savedState, at places) (Tree[L], error) {
	var t Tree[L]
	if s.fingerprint != prog.fingerprint {
		return t, &StateError{Msg: fmt.Sprintf("fingerprint %016x, but this definition's is %016x", s.fingerprint, prog.fingerprint), Err: ErrWrongDefinition}
	}
	if s.focus >= uint64(len(prog.all)) || prog.all[s.focus].kind != kind.Leaf {
		return t, &StateError{Where: at.focus(), Msg: fmt.Sprintf("position %d is not a leaf of the definition", s.focus)}
	}
	if s.signal == Running && s.status != Running {
		return t, &StateError{Where: at.signal(), Msg: fmt.Sprintf("running (a version made by Start) with a status of %v: such a version has not completed", s.status)}
	}
	t.z.focus, t.made = &prog.all[s.focus], madeOf(s.status, s.signal)
	var err error
	if t.z.ext, err = restoreRNG(prog, s.rng, at); err != nil {
		return Tree[L]{}, err
	}
	if t.z.counts, err = restoreCounts(t.z.focus, s.counts, at); err != nil {
		return Tree[L]{}, err
	}
	if err = restoreCustom(prog, t.z.ext, s.custom, at); err != nil {
		return Tree[L]{}, err
	}
	if s.mem != nil {
		mem, err := readMemorySection(s.mem, 0)
		if err != nil {
			return Tree[L]{}, memoryStateError(at.memory(), err)
		}
		t.z.ext = t.z.ext.withMemory(mem)
	}
	return t, nil
}

// restoreRNG returns the extra state holding the random state rng, which
// the program needs if it has random, custom or parallel nodes, and must not
// have otherwise.
func restoreRNG[L any](prog *program[L], rng *[16]byte, at places) (*extra[L], error) {
	if need := prog.random || prog.custom || prog.par; need != (rng != nil) {
		return nil, &StateError{Where: at.rng(), Msg: fmt.Sprintf("present %v, but the definition needs one: %v", rng != nil, need)}
	}
	if rng == nil {
		return nil, nil
	}
	var pcg rand.PCG
	if err := pcg.UnmarshalBinary(append([]byte("pcg:"), rng[:]...)); err != nil {
		return nil, &StateError{Where: at.rng(), Msg: clipMessage(err.Error()), Err: err}
	}
	return &extra[L]{rng: pcg, par: prog.par}, nil
}

// restoreCounts returns the stack of counters saved in counts: they belong
// to RepeatN ancestors of focus, deepest first, and have 1 to n-1 runs
// left.
func restoreCounts[L any](focus *place[L], counts [][2]uint64, at places) (*count[L], error) {
	anc := focus.parent
	cells := make([]count[L], len(counts))
	for i, c := range counts {
		for anc != nil && uint64(anc.id) != c[0] {
			anc = anc.parent
		}
		if anc == nil || anc.kind != kind.RepeatN {
			return nil, &StateError{Where: at.count(i), Msg: fmt.Sprintf("position %d is not a RepeatN above the focus (in order, deepest first)", c[0])}
		}
		if c[1] < 1 || c[1] >= uint64(anc.n) {
			return nil, &StateError{Where: at.count(i), Msg: fmt.Sprintf("%d runs left for a RepeatN of %d: want 1 to %d", c[1], anc.n, anc.n-1)}
		}
		cells[i] = count[L]{at: anc, left: int32(c[1])}
		if i > 0 {
			cells[i-1].next = &cells[i]
		}
		anc = anc.parent
	}
	if len(cells) == 0 {
		return nil, nil
	}
	return &cells[0], nil
}

// restoreCustom sets the custom states saved in custom into x: each at a
// custom node, by increasing position, and accepted by its
// [custom.Savable]'s UnmarshalState.
func restoreCustom[L any](prog *program[L], x *extra[L], saved []savedCustom, at places) error {
	last := -1
	for i, c := range saved {
		if c.id >= uint64(len(prog.all)) || prog.all[c.id].kind != kind.Custom {
			return &StateError{Where: at.custom(i), Msg: fmt.Sprintf("position %d is not a custom node", c.id)}
		}
		if int(c.id) <= last {
			return &StateError{Where: at.custom(i), Msg: "positions must increase"}
		}
		last = int(c.id)
		p := &prog.all[c.id]
		st, ok := p.def.custom.(custom.Savable)
		if !ok {
			return &StateError{Where: at.custom(i), Msg: fmt.Sprintf("custom node %T does not implement custom.Savable", p.def.custom)}
		}
		tr, err := st.UnmarshalState(c.state, len(p.children))
		if err != nil {
			return &StateError{Where: at.custom(i), Msg: clipMessage(err.Error()), Err: err}
		}
		if tr == nil {
			return &StateError{Where: at.custom(i), Msg: fmt.Sprintf("%T.UnmarshalState returned nil", p.def.custom)}
		}
		x.custom = x.setTraversal(p.id, nil, tr)
	}
	return nil
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
	Memory      []byte       `json:"memory,omitempty"` // base64
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

// MarshalJSON encodes t's running state as a JSON object, which
// [Restore] reads back against the same definition. It holds the fields
// of the binary form ([Tree.MarshalBinary]) by name, and fails as it does:
//
//	{"format":"behaviortree-state/1","fingerprint":"927918047884878d",
//	 "focus":11,"status":"running","signal":"success",
//	 "rng":"990adc6a37cc19c88b64210b25a62ab3",
//	 "counts":[{"node":10,"left":2}],"custom":[{"node":6,"state":"MQ=="}]}
//
// The fields are:
//
//   - "format": "behaviortree-state/1";
//   - "fingerprint": the [Node.Fingerprint], 16 hex digits;
//   - "focus": the focused leaf's position, in preorder;
//   - "status" and "signal": "running", "success" or "failure";
//   - "rng": the random state, 32 hex digits, when the definition has
//     Random, RandomWeighted or custom nodes;
//   - "counts": the RepeatN counters that have counted down, deepest first,
//     each {"node": position, "left": runs left}; left out when empty;
//   - "custom": the custom node states, by increasing position, each
//     {"node": position, "state": the bytes in base64}; left out when empty;
//   - "memory": the memory, in the binary form's encoding, in base64; left
//     out when the memory is empty.
//
// Unknown fields and data after the object are errors.
func (t Tree[L]) MarshalJSON() ([]byte, error) {
	s, err := t.save()
	if err != nil {
		return nil, err
	}
	return s.marshalJSON()
}

// marshalJSON returns the JSON form of s.
func (s *savedState) marshalJSON() ([]byte, error) {
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
	j.Memory = s.mem
	return json.Marshal(j)
}

// decodeJSON parses the JSON form, checking its syntax and its enums, not
// the positions it names.
func decodeJSON(data []byte) (savedState, error) {
	j, err := readStateJSON(data)
	if err != nil {
		return savedState{}, err
	}
	return j.state()
}

// readStateJSON reads data into a stateJSON: one object, with no unknown
// fields, and nothing after it.
func readStateJSON(data []byte) (*stateJSON, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j stateJSON
	if err := dec.Decode(&j); err != nil {
		var other struct{ Format string }
		if json.Unmarshal(data, &other) == nil && other.Format == steppedJSONFormat {
			return nil, errSteppedState()
		}
		return nil, &StateError{Msg: "invalid JSON: " + clipMessage(err.Error()), Err: err}
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return nil, &StateError{Msg: fmt.Sprintf("invalid JSON: data after the state at byte %d", dec.InputOffset())}
	}
	return &j, nil
}

// state checks j's format and fields, and returns the state it holds.
func (j *stateJSON) state() (savedState, error) {
	var s savedState
	if j.Format != stateFormat {
		return s, &StateError{Where: `"format"`, Msg: fmt.Sprintf("%s, want %q", quoteInput(j.Format), stateFormat)}
	}
	fp, err := hex.DecodeString(j.Fingerprint)
	if err != nil || len(fp) != 8 {
		return s, &StateError{Where: `"fingerprint"`, Msg: quoteInput(j.Fingerprint) + " is not 16 hex digits"}
	}
	s.fingerprint = binary.BigEndian.Uint64(fp)
	s.focus = j.Focus
	if s.status, err = parseStatus(`"status"`, j.Status); err != nil {
		return s, err
	}
	if s.signal, err = parseStatus(`"signal"`, j.Signal); err != nil {
		return s, err
	}
	if j.RNG != "" {
		r, err := hex.DecodeString(j.RNG)
		if err != nil || len(r) != 16 {
			return s, &StateError{Where: `"rng"`, Msg: quoteInput(j.RNG) + " is not 32 hex digits"}
		}
		s.rng = (*[16]byte)(r)
	}
	for _, c := range j.Counts {
		s.counts = append(s.counts, [2]uint64{c.Node, c.Left})
	}
	for i, c := range j.Custom {
		st, err := base64.StdEncoding.DecodeString(c.State)
		if err != nil {
			return s, &StateError{Where: jsonPlaces{}.custom(i), Msg: "state is not base64", Err: err}
		}
		s.custom = append(s.custom, savedCustom{id: c.Node, state: st})
	}
	if j.Memory != nil {
		if _, err := readMemorySection(j.Memory, 0); err != nil {
			return s, memoryStateError(`"memory"`, err)
		}
		s.mem = j.Memory
	}
	return s, nil
}

// parseStatus reads the status named text, for the field where.
func parseStatus(where, text string) (Status, error) {
	for _, st := range []Status{Running, Success, Failure} {
		if st.String() == text {
			return st, nil
		}
	}
	return 0, &StateError{Where: where, Msg: quoteInput(text) + `, want "running", "success" or "failure"`}
}
