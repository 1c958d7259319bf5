package behaviortree

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
)

// Saved is the saved running state of a [Tree] with leaves of type L: what
// [Tree.Save] takes and [Saved.Restore] resumes, against the tree's
// definition. Unlike a Tree, it can be read back on its own, so it is what
// a struct that is saved with encoding/json (or encoding/gob) should hold in
// place of a Tree:
//
//	type Game struct {
//		Board string
//		Bot   behaviortree.Saved[string] // not behaviortree.Tree[string]
//	}
//
// It marshals to the JSON form of [Tree.MarshalJSON], and to the binary
// form of [Tree.MarshalBinary] with MarshalBinary; unmarshalling checks the
// form (a bad state is an error then), and Restore checks the state against
// the definition. A Tree has no way to unmarshal, since it cannot restore
// without its definition: [Tree.UnmarshalJSON] returns an error.
//
// The zero Saved holds no state: it marshals to JSON null, null unmarshals
// to it, and restoring it is an error. The state a Saved holds never
// changes (unmarshalling into a Saved replaces it): copies share it, and may
// be used from any number of goroutines at once.
//
// A Saved holds the state of a [Stepped] version as well ([Stepped.Save],
// [Saved.RestoreStepped]), in the forms of [Stepped.MarshalBinary] and
// [Stepped.MarshalJSON]: one type for a game to hold, whichever style
// drives its trees. Unmarshalling tells the two apart by their form.
type Saved[L any] struct {
	s       *savedState // a Tree's state; nil for the zero Saved and a stepped one
	stepped string      // a Stepped version's state, in the binary form ("" for none)
	at      places      // how errors name its fields: as in the form it was read from
}

// Save returns t's running state, which [Saved.Restore] resumes. It returns
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

// Restore returns the version that s saved, running on def, as [Restore]
// does: it resumes exactly, and an error wraps [ErrWrongDefinition] when
// def is not the definition that s was saved from. Restoring the zero Saved
// returns an error.
func (s Saved[L]) Restore(def Node[L]) (Tree[L], error) {
	if s.stepped != "" {
		return Tree[L]{}, &StateError{Msg: "the Saved holds a stepped version: use RestoreStepped"}
	}
	if s.s == nil {
		return Tree[L]{}, errNoState()
	}
	if def.n == nil {
		return Tree[L]{}, &StateError{Msg: "zero definition"}
	}
	return restore(compiled(def.n), s.s, s.at)
}

// IsZero reports whether s is the zero Saved, which holds no state. It lets
// encoding/json's omitzero leave an empty Saved out.
func (s Saved[L]) IsZero() bool { return s.s == nil && s.stepped == "" }

// MarshalJSON returns s in the JSON form of [Tree.MarshalJSON], or null for
// the zero Saved.
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
// [Tree.MarshalJSON], checking its form but not its definition (which
// [Saved.Restore] does); null sets the zero Saved. A bad state returns a
// *StateError and leaves s unchanged.
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

// MarshalBinary returns s in the binary form of [Tree.MarshalBinary]. The
// zero Saved has no binary form: it returns an error.
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
// [Tree.MarshalBinary], checking its form but not its definition. A bad
// state returns a *StateError and leaves s unchanged.
func (s *Saved[L]) UnmarshalBinary(data []byte) error {
	if len(data) >= 4 && (string(data[:4]) == steppedMagic || string(data[:4]) == steppedMemoryMagic) {
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
// encoding/gob save and read back on their own). It fails as
// MarshalBinary does: with [ErrPendingAsync] while an action waits for an
// async result, and with a [*MemoryError] for a value in memory that has
// no saved form.
func (t Stepped[L]) Save() (Saved[L], error) {
	t.mustM("Save")
	b, err := t.MarshalBinary()
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

// RestoreStepped returns the stepped version saved in data by
// [Stepped.MarshalBinary], running on def with agent and opts: it is
// [NewStepped] followed by [Stepped.Restore], for a program that has no
// version of the tree yet (one that has, restores onto it). Its errors are
// those of NewStepped and of Restore: data saved from another definition
// wraps [ErrWrongDefinition]. For the JSON form, unmarshal a [Saved].
func RestoreStepped[L any](def Node[L], agent Agent[L], data []byte, opts ...Option) (Stepped[L], error) {
	t, err := NewStepped(def, agent, opts...)
	if err != nil {
		return Stepped[L]{}, err
	}
	return t.Restore(data)
}

// checkSteppedForm checks data against the layout of the binary form of a
// stepped version (stepped_state.go) without its definition: the header,
// the words, and the memory section, with nothing after them.
// [Stepped.Restore] checks the rest against the definition.
func checkSteppedForm(data []byte) error {
	bad := func(off int, msg string) error {
		return &StateError{Where: fmt.Sprintf("stepped state, byte %d", off), Msg: msg}
	}
	withMemory := string(data[:4]) == steppedMemoryMagic
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
	if !withMemory {
		if off != len(data) {
			return bad(off, "data after the state")
		}
		return nil
	}
	_, rest, err := readMemory(data[off:], off)
	if err != nil {
		return &StateError{Where: "stepped state", Msg: "memory: " + err.Error(), Err: err}
	}
	if len(rest) != 0 {
		return bad(len(data)-len(rest), "data after the memory")
	}
	return nil
}

// steppedFingerprint returns the fingerprint in a binary stepped state
// that [checkSteppedForm] accepted.
func steppedFingerprint(b []byte) uint64 { return binary.LittleEndian.Uint64(b[4:12]) }
