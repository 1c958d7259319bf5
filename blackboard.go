package behaviortree

import (
	"errors"
	"strings"

	"github.com/zipbt/behaviortree/memory"
)

// Blackboard is the memory of one step of a [Stepped] tree, as the
// agent's functions see it: the memory of the version being stepped, with
// the writes that earlier calls of the same step made. When the step
// succeeds, the new version holds the memory as the step left it; a step
// that returns an error keeps none of its writes. Read and write it by
// name, or through typed keys ([memory.Key.Get], [memory.Key.Put]). A
// Blackboard is valid only during the call it is given to; it is not safe
// for concurrent use.
type Blackboard struct {
	mem memory.Map
	td  TimeData
	log []memoryWrite // the writes since the last flush, when events are on
	on  bool          // record writes in log
}

// memoryWrite is one write to a Blackboard, for EventMemory.
type memoryWrite struct {
	key      string
	old, new any
}

// Get returns the value of key, and whether the memory has the key.
func (b *Blackboard) Get(key string) (any, bool) { return b.mem.Get(key) }

// Set sets key to v.
func (b *Blackboard) Set(key string, v any) {
	if b.on {
		old, _ := b.mem.Get(key)
		b.log = append(b.log, memoryWrite{key: key, old: old, new: v})
	}
	b.mem = b.mem.Set(key, v)
}

// Delete removes key; it does nothing when the memory has no key.
func (b *Blackboard) Delete(key string) {
	old, had := b.mem.Get(key)
	if !had {
		return
	}
	if b.on {
		b.log = append(b.log, memoryWrite{key: key, old: old})
	}
	b.mem = b.mem.Delete(key)
}

// getIfAny is Get on a Blackboard that may be nil.
func (b *Blackboard) getIfAny(key string) (any, bool) {
	if b == nil {
		return nil, false
	}
	return b.mem.Get(key)
}

// Memory returns the memory as it is now in the step.
func (b *Blackboard) Memory() memory.Map { return b.mem }

// TimeData returns the time data of the step ([Stepped.Tick]; the zero
// TimeData for [Stepped.Step]).
func (b *Blackboard) TimeData() TimeData { return b.td }

// readMemorySection reads the memory section of a save: section, which
// ends the save and starts at its byte off, holding a Map that is not
// empty (a save holds the section only for a non-empty memory). Its errors
// are *memory.FormatError, their offsets in the whole save.
func readMemorySection(section []byte, off int) (memory.Map, error) {
	var m memory.Map
	err := m.UnmarshalBinary(section)
	var fe *memory.FormatError
	if errors.As(err, &fe) {
		at := *fe
		at.Offset += off
		return memory.Map{}, &at
	}
	if err == nil && m.Len() == 0 {
		err = &memory.FormatError{Offset: off, Msg: "no keys: a save has a memory section only for a memory that is not empty"}
	}
	return m, err
}

// memoryStateError is the StateError of a damaged memory section at
// where: its message is the memory's error, without the "memory: " that
// where already says.
func memoryStateError(where string, err error) *StateError {
	return &StateError{Where: where, Msg: strings.TrimPrefix(err.Error(), "memory: "), Err: err}
}
