package behaviortree

import (
	"bytes"
	"errors"
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
type Saved[L any] struct {
	s  *savedState // nil for the zero Saved
	at places      // how errors name its fields: as in the form it was read from
}

// Save returns t's running state, which [Saved.Restore] resumes. It returns
// an error as [Tree.MarshalBinary] does: for the zero Tree, and for a custom
// node state that cannot be saved.
func (t Tree[L]) Save() (Saved[L], error) {
	s, err := t.save()
	if err != nil {
		return Saved[L]{}, err
	}
	return Saved[L]{&s, jsonPlaces{}}, nil
}

// errNoState returns the error of restoring the zero Saved.
func errNoState() error { return &StateError{Msg: "the zero Saved holds no state"} }

// Restore returns the version that s saved, running on def, as [Restore]
// does: it resumes exactly, and an error wraps [ErrWrongDefinition] when
// def is not the definition that s was saved from. Restoring the zero Saved
// returns an error.
func (s Saved[L]) Restore(def Node[L]) (Tree[L], error) {
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
func (s Saved[L]) IsZero() bool { return s.s == nil }

// MarshalJSON returns s in the JSON form of [Tree.MarshalJSON], or null for
// the zero Saved.
func (s Saved[L]) MarshalJSON() ([]byte, error) {
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
	st, err := decodeJSON(data)
	if err != nil {
		return err
	}
	*s = Saved[L]{&st, jsonPlaces{}}
	return nil
}

// MarshalBinary returns s in the binary form of [Tree.MarshalBinary]. The
// zero Saved has no binary form: it returns an error.
func (s Saved[L]) MarshalBinary() ([]byte, error) {
	if s.s == nil {
		return nil, errors.New("behaviortree: the zero Saved holds no state to marshal")
	}
	return s.s.appendBinary(nil), nil
}

// UnmarshalBinary sets s to the state in data, in the binary form of
// [Tree.MarshalBinary], checking its form but not its definition. A bad
// state returns a *StateError and leaves s unchanged.
func (s *Saved[L]) UnmarshalBinary(data []byte) error {
	st, err := decodeBinary(data)
	if err != nil {
		return err
	}
	*s = Saved[L]{&st, binaryPlaces{}}
	return nil
}

// errTreeUnmarshal is the error of [Tree.UnmarshalJSON].
var errTreeUnmarshal = errors.New("behaviortree: a Tree cannot be unmarshalled, since it cannot restore without its definition: use RestoreJSON, or hold a Saved instead of the Tree")

// UnmarshalJSON returns an error, always, and leaves t unchanged: a Tree
// cannot restore without its definition, which its JSON form does not hold.
// Use [RestoreJSON] with the definition, or hold a [Saved] in place of the
// Tree, which unmarshals on its own and restores with [Saved.Restore]. It
// exists so that unmarshalling a struct that holds a Tree fails, where it
// would otherwise succeed and leave the zero Tree, which panics when used.
func (t *Tree[L]) UnmarshalJSON(data []byte) error { return errTreeUnmarshal }
