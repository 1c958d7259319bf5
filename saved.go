package behaviortree

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// Saved is the saved running state of a version with leaves of type L, of
// either style: a [Stepped] version's ([Stepped.Save], resumed by
// [Saved.RestoreStepped] with its definition, agent and options) or a
// [Tree]'s ([Tree.Save], resumed by [Saved.Restore] with its definition).
// Unlike a version, it can be read back on its own, so it is what a struct
// that is saved with encoding/json (or encoding/gob) should hold in place
// of a Stepped or a Tree:
//
//	type Game struct {
//		Board string
//		Bot   behaviortree.Saved[string] // not behaviortree.Stepped[string]
//	}
//
// It marshals to JSON and, with MarshalBinary, to a compact binary form:
// those of [Stepped.MarshalJSON] and [Stepped.MarshalBinary] for a stepped
// state, of [Tree.MarshalJSON] and [Tree.MarshalBinary] for a Tree's.
// Unmarshalling tells the two apart by their form and checks it (a bad
// state is an error then); restoring checks the state against the
// definition. A version has no way to unmarshal, since it cannot restore
// without its definition: [Tree.UnmarshalJSON] and [Stepped.UnmarshalJSON]
// return an error.
//
// The zero Saved holds no state: it marshals to JSON null, null unmarshals
// to it, and restoring it is an error. The state a Saved holds never
// changes (unmarshalling into a Saved replaces it): copies share it, and may
// be used from any number of goroutines at once.
type Saved[L any] struct {
	s       *savedState // a Tree's state; nil for the zero Saved and a stepped one
	stepped string      // a Stepped version's state, in the binary form ("" for none)
	at      places      // how errors name its fields: as in the form it was read from
}

// Save returns t's running state, which [Saved.Restore] resumes ([Stepped.Save]
// is the stepped style's). It returns
// an error as [Tree.MarshalBinary] does: for the zero Tree, and for a custom
// node state that cannot be saved.
func (t Tree[L]) Save() (Saved[L], error) {
	s, err := t.save()
	if err != nil {
		return Saved[L]{}, err
	}
	return Saved[L]{s: &s, at: jsonPlaces{}}, nil
}

// errNoState returns the error of restoring the zero Saved.
func errNoState() error { return &StateError{Msg: "the zero Saved holds no state"} }

// errSteppedState returns the error of restoring a stepped version's saved
// state as a Tree: the same from [Restore], in either form, and from
// [Saved.Restore].
func errSteppedState() error {
	return &StateError{Msg: "a saved stepped state, not a tree's: restore it with RestoreStepped"}
}

// Restore returns the Tree that s saved, running on def, as [Restore]
// does: it resumes exactly, and an error wraps [ErrWrongDefinition] when
// def is not the definition that s was saved from. Restoring the zero Saved,
// or one that holds a stepped state (which [Saved.RestoreStepped]
// restores), returns an error.
func (s Saved[L]) Restore(def Node[L]) (Tree[L], error) {
	if s.stepped != "" {
		return Tree[L]{}, errSteppedState()
	}
	if s.s == nil {
		return Tree[L]{}, errNoState()
	}
	if def.n == nil {
		return Tree[L]{}, &StateError{Msg: "zero definition"}
	}
	return restore(compiled(def.n), s.s, s.at)
}

// IsZero reports whether s is the zero Saved, which holds no state, of
// either style.
func (s Saved[L]) IsZero() bool { return s.s == nil && s.stepped == "" }

// MarshalJSON returns s in the JSON form of [Stepped.MarshalJSON] or of
// [Tree.MarshalJSON], whichever style saved it, or null for the zero
// Saved.
func (s Saved[L]) MarshalJSON() ([]byte, error) {
	if s.stepped != "" {
		return steppedStateJSON([]byte(s.stepped))
	}
	if s.s == nil {
		return []byte("null"), nil
	}
	return s.s.marshalJSON()
}

// UnmarshalJSON sets s to the state in data, in the JSON form of
// [Stepped.MarshalJSON] or of [Tree.MarshalJSON], checking its form but
// not its definition (which [Saved.RestoreStepped] and [Saved.Restore]
// do); null sets the zero Saved. A bad state returns a *StateError and
// leaves s unchanged.
func (s *Saved[L]) UnmarshalJSON(data []byte) error {
	if string(bytes.TrimSpace(data)) == "null" {
		*s = Saved[L]{}
		return nil
	}
	var head struct {
		Format string `json:"format"`
	}
	if json.Unmarshal(data, &head) == nil && head.Format == steppedJSONFormat {
		b, err := decodeSteppedJSON(data)
		if err != nil {
			return &StateError{Msg: "stepped state: " + err.Error(), Err: err}
		}
		*s = Saved[L]{stepped: string(b)}
		return nil
	}
	st, err := decodeJSON(data)
	if err != nil {
		return err
	}
	*s = Saved[L]{s: &st, at: jsonPlaces{}}
	return nil
}

// MarshalBinary returns s in the binary form of [Stepped.MarshalBinary] or
// of [Tree.MarshalBinary], whichever style saved it. The zero Saved has no
// binary form: it returns an error.
func (s Saved[L]) MarshalBinary() ([]byte, error) {
	if s.stepped != "" {
		return []byte(s.stepped), nil
	}
	if s.s == nil {
		return nil, errors.New("behaviortree: the zero Saved holds no state to marshal")
	}
	return s.s.appendBinary(nil), nil
}

// UnmarshalBinary sets s to the state in data, in the binary form of
// [Stepped.MarshalBinary] or of [Tree.MarshalBinary], checking its form
// but not its definition. A bad state returns a *StateError and leaves s
// unchanged.
func (s *Saved[L]) UnmarshalBinary(data []byte) error {
	if len(data) >= 4 && isSteppedMagic(string(data[:4])) {
		if err := checkSteppedForm(data); err != nil {
			return err
		}
		*s = Saved[L]{stepped: string(data)}
		return nil
	}
	st, err := decodeBinary(data)
	if err != nil {
		return err
	}
	*s = Saved[L]{s: &st, at: binaryPlaces{}}
	return nil
}

// errTreeUnmarshal is the error of [Tree.UnmarshalJSON].
var errTreeUnmarshal = errors.New("behaviortree: a Tree cannot be unmarshalled, since it cannot restore without its definition: use Restore, or hold a Saved instead of the Tree")

// UnmarshalJSON returns an error, always, and leaves t unchanged: a Tree
// cannot restore without its definition, which its JSON form does not hold.
// Use [Restore] with the definition, or hold a [Saved] in place of the
// Tree, which unmarshals on its own and restores with [Saved.Restore]. It
// exists so that unmarshalling a struct that holds a Tree fails, where it
// would otherwise succeed and leave the zero Tree, which panics when used.
func (t *Tree[L]) UnmarshalJSON(data []byte) error { return errTreeUnmarshal }

// Save returns the version's state, which [Saved.RestoreStepped] resumes
// (the state of [Stepped.MarshalBinary], in a value that encoding/json and
// encoding/gob save and read back on their own; [Tree.Save] is the
// Value/Succeed/Fail style's). It fails as
// MarshalBinary does: with a [*memory.Error] for a value in memory that
// has no saved form. A pending async result is saved by its id (see
// [Async]).
func (t Stepped[L]) Save() (Saved[L], error) {
	b, err := t.marshalBinary("Save")
	if err != nil {
		return Saved[L]{}, err
	}
	return Saved[L]{stepped: string(b)}, nil
}

// RestoreStepped returns the stepped version that s saved, running on def
// with agent and opts, as [RestoreStepped] does. It returns an error for
// the zero Saved and for one that holds a Tree's state.
func (s Saved[L]) RestoreStepped(def Node[L], agent Agent[L], opts ...Option) (Stepped[L], error) {
	if s.stepped == "" {
		if s.s != nil {
			return Stepped[L]{}, &StateError{Msg: "the Saved holds a Tree's state (Value/Succeed/Fail): use Restore"}
		}
		return Stepped[L]{}, errNoState()
	}
	return RestoreStepped(def, agent, []byte(s.stepped), opts...)
}

// RestoreStepped returns the stepped version saved in data, running on def
// with agent and opts, as [Restore] does for the Value/Succeed/Fail style
// ([NewStepped] is to [Start] what RestoreStepped is to Restore): data is
// either form, the binary one of [Stepped.MarshalBinary] or the JSON one
// of [Stepped.MarshalJSON] (an object: its first byte, after any white
// space, is '{'). It resumes exactly: the same node states, memory and
// pending async results (by id: see [Async]), and the same future. It
// returns the errors of NewStepped, and an error, never a panic, for data
// saved from another definition ([ErrWrongDefinition], wrapped), for a
// tree's saved state, and for damaged data; in JSON, unknown fields, data
// after the object and a fingerprint that disagrees with the state are
// errors.
func RestoreStepped[L any](def Node[L], agent Agent[L], data []byte, opts ...Option) (Stepped[L], error) {
	t, err := NewStepped(def, agent, opts...)
	if err != nil {
		return Stepped[L]{}, fmt.Errorf("behaviortree.RestoreStepped: %w", err)
	}
	return t.restore(data, "RestoreStepped")
}

// checkSteppedForm checks data against the layout of the binary form of a
// stepped version (stepped_state.go) without its definition: the header,
// the words, and the memory section, with nothing after them.
// [RestoreStepped] checks the rest against the definition.
func checkSteppedForm(data []byte) error {
	bad := func(off int, msg string) error {
		return &StateError{Where: fmt.Sprintf("stepped state, byte %d", off), Msg: msg}
	}
	withMemory, withAsync := string(data[:4]) == steppedMemoryMagic, string(data[:4]) == steppedAsyncMagic
	off := 4 + 8 // magic, fingerprint
	if len(data) < off {
		return bad(len(data), "truncated in the header")
	}
	if _, k := uvarint(data[off:]); k <= 0 {
		return bad(off, "damaged node count")
	} else {
		off += k
	}
	if len(data) < off+8 {
		return bad(len(data), "truncated in the inline states")
	}
	off += 8
	nw, k := uvarint(data[off:])
	if k <= 0 {
		return bad(off, "damaged word count")
	}
	off += k
	if uint64(len(data)-off)/8 < nw {
		return bad(len(data), fmt.Sprintf("truncated: %d words promised", nw))
	}
	off += 8 * int(nw)
	if withAsync {
		k, err := checkAsyncSection(data[off:], off)
		if err != nil {
			return &StateError{Where: "stepped state", Msg: err.Error(), Err: err}
		}
		off += k
		withMemory = off < len(data)
	}
	if !withMemory {
		if off != len(data) {
			return bad(off, "data after the state")
		}
		return nil
	}
	if _, err := readMemorySection(data[off:], off); err != nil {
		return &StateError{Where: "stepped state", Msg: err.Error(), Err: err}
	}
	return nil
}

// steppedFingerprint returns the fingerprint in a binary stepped state
// that [checkSteppedForm] accepted.
func steppedFingerprint(b []byte) uint64 { return binary.LittleEndian.Uint64(b[4:12]) }
