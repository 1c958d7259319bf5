package behaviortree

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// steppedJSONFormat names the JSON form of a stepped version.
const steppedJSONFormat = "behaviortree-stepped/1"

// steppedJSON is the JSON form of a stepped version.
type steppedJSON struct {
	Format      string `json:"format"`
	Fingerprint string `json:"fingerprint"`
	State       string `json:"state"`
}

// MarshalJSON encodes the version's state as a JSON object, which
// [RestoreStepped] and [Saved.RestoreStepped] read back against the same
// definition:
//
//	{"format":"behaviortree-stepped/1","fingerprint":"927918047884878d","state":"QlRTMQ..."}
//
// "fingerprint" is the fingerprint of the binary state in 16 hex digits,
// the definition's [Node.Fingerprint] (see there for the saves of an
// older release), and
// "state" the bytes of [Stepped.MarshalBinary] in standard base64. It
// fails as MarshalBinary does, and for the zero Stepped, so that
// encoding/json never writes a version that cannot be restored.
func (t Stepped[L]) MarshalJSON() ([]byte, error) {
	if t.m == nil {
		return nil, errors.New("behaviortree.Stepped.MarshalJSON: zero Stepped (use NewStepped)")
	}
	b, err := t.marshalBinary("MarshalJSON")
	if err != nil {
		return nil, err
	}
	return steppedStateJSON(b)
}

// steppedStateJSON returns the JSON form of b, a binary stepped state.
func steppedStateJSON(b []byte) ([]byte, error) {
	return json.Marshal(steppedJSON{
		Format:      steppedJSONFormat,
		Fingerprint: fmt.Sprintf("%016x", steppedFingerprint(b)),
		State:       base64.StdEncoding.EncodeToString(b),
	})
}

// Restore returns the version saved in data, with t's definition, agent
// and options (t's own state is not used), as [RestoreStepped] reads it.
//
// Deprecated: use [RestoreStepped] (or [Saved.RestoreStepped]), as
// [Restore] (or [Saved.Restore]) for a Tree: one way to restore each
// style, beside NewStepped and Start.
func (t Stepped[L]) Restore(data []byte) (Stepped[L], error) {
	t.mustM("Restore")
	return t.restore(data, "Stepped.Restore")
}

// restore is Restore, naming fn in its errors.
func (t Stepped[L]) restore(data []byte, fn string) (Stepped[L], error) {
	if isJSONObject(data) {
		b, err := decodeSteppedJSON(data)
		if err != nil {
			return Stepped[L]{}, fmt.Errorf("behaviortree.%s: %w", fn, err)
		}
		data = b
	}
	return t.restoreBinary(data, fn)
}

// decodeSteppedJSON returns the binary state in data, the JSON form of
// [Stepped.MarshalJSON], checking the object and the form of the state.
func decodeSteppedJSON(data []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j steppedJSON
	if err := dec.Decode(&j); err != nil {
		var other struct{ Format string }
		if json.Unmarshal(data, &other) == nil && other.Format == stateFormat {
			return nil, errors.New("a saved tree state (Value/Succeed/Fail), not a stepped one: restore it with Restore")
		}
		return nil, err
	}
	if dec.More() || dec.InputOffset() < int64(len(bytes.TrimRight(data, " \t\r\n"))) {
		return nil, fmt.Errorf("data after the object at byte %d", dec.InputOffset())
	}
	if j.Format != steppedJSONFormat {
		return nil, fmt.Errorf("format %q, want %q", j.Format, steppedJSONFormat)
	}
	fp, err := strconv.ParseUint(j.Fingerprint, 16, 64)
	if err != nil || len(j.Fingerprint) != 16 {
		return nil, fmt.Errorf("fingerprint %q: want 16 hex digits", j.Fingerprint)
	}
	b, err := base64.StdEncoding.DecodeString(j.State)
	if err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	if len(b) < 12 || binary.LittleEndian.Uint64(b[4:12]) != fp {
		return nil, errors.New("the fingerprint does not match the state")
	}
	if !isSteppedMagic(string(b[:4])) {
		return nil, errors.New("state: not a saved stepped state")
	}
	if err := checkSteppedForm(b); err != nil {
		return nil, fmt.Errorf("state: %w", err)
	}
	return b, nil
}

// errSteppedUnmarshal is the error of [Stepped.UnmarshalJSON].
var errSteppedUnmarshal = errors.New("behaviortree: a Stepped cannot be unmarshalled, since it cannot restore without its definition and agent: hold a Saved instead (Stepped.Save), and restore it with Saved.RestoreStepped")

// UnmarshalJSON always fails, with an error saying how to restore a
// version instead: a Stepped needs its definition and agent, which JSON
// does not hold. Hold a [Saved] in place of the Stepped ([Stepped.Save]),
// which unmarshals on its own and restores with [Saved.RestoreStepped].
// It is there so that a struct holding a Stepped is not unmarshalled into
// a zero Stepped without an error.
func (t *Stepped[L]) UnmarshalJSON(data []byte) error { return errSteppedUnmarshal }
