package behaviortree

import (
	"encoding"
	"fmt"
	"iter"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/benbjohnson/immutable"
)

// Memory is the agent's memory: a persistent map from string keys to
// values, which every version of a [Tree] or a [Stepped] tree carries (a
// blackboard, in other libraries' words). Set and Delete return a new
// Memory and leave the receiver unchanged, so a version's memory never
// changes after the version exists: undoing to an old version, restoring
// a saved one or stepping one twice brings back its memory with its tree.
//
// Versions that do not change the memory share it; a change copies only
// the path to the key it changes (a B+tree of immutable.SortedMap), so it
// costs O(log n) time and a few small allocations. Values are kept as
// they are given: a value that is itself mutable (a slice, a map, a
// pointer) must not be changed after it is set, or every version that
// holds it sees the change; set a new value instead.
//
// The zero Memory is empty and ready to use. A Memory may be used from
// any number of goroutines at once. [Tree.MarshalBinary] and
// [Stepped.MarshalBinary] save it; see [NewKey] for the values they can
// save.
type Memory struct {
	m *immutable.SortedMap[string, any] // nil when empty
}

// stringComparer orders keys as strings.Compare does.
type stringComparer struct{}

func (stringComparer) Compare(a, b string) int { return strings.Compare(a, b) }

// Get returns the value of key, and whether memory has the key.
func (m Memory) Get(key string) (any, bool) {
	if m.m == nil {
		return nil, false
	}
	return m.m.Get(key)
}

// Set returns a new Memory in which key has the value v; m is unchanged.
func (m Memory) Set(key string, v any) Memory {
	if m.m == nil {
		return Memory{immutable.NewSortedMap[string, any](stringComparer{}).Set(key, v)}
	}
	return Memory{m.m.Set(key, v)}
}

// Delete returns a new Memory without key; m is unchanged. It returns m
// itself when m has no key.
func (m Memory) Delete(key string) Memory {
	if m.m == nil {
		return m
	}
	d := m.m.Delete(key)
	if d == m.m {
		return m
	}
	if d.Len() == 0 {
		return Memory{}
	}
	return Memory{d}
}

// Len returns the number of keys in m.
func (m Memory) Len() int {
	if m.m == nil {
		return 0
	}
	return m.m.Len()
}

// All returns an iterator over m's keys and values, in increasing order of
// keys.
func (m Memory) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		if m.m == nil {
			return
		}
		it := m.m.Iterator()
		for !it.Done() {
			k, v, _ := it.Next()
			if !yield(k, v) {
				return
			}
		}
	}
}

// String returns m as {key: value, ...}, keys in order, values as %v
// prints them (strings quoted).
func (m Memory) String() string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for k, v := range m.All() {
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteString(k)
		b.WriteString(": ")
		b.WriteString(memoryValueString(v))
	}
	b.WriteByte('}')
	return b.String()
}

// memoryValueString prints a memory value for String and events.
func memoryValueString(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%v", v)
}

// equal reports whether m and o have the same keys with deeply equal
// values.
func (m Memory) equal(o Memory) bool {
	if m.m == o.m {
		return true
	}
	if m.Len() != o.Len() {
		return false
	}
	a, b := m.m.Iterator(), o.m.Iterator()
	for !a.Done() {
		ka, va, _ := a.Next()
		kb, vb, _ := b.Next()
		if ka != kb || !reflect.DeepEqual(va, vb) {
			return false
		}
	}
	return true
}

// Key is a typed key of [Memory]: a name and the type of its values, so
// that code reads and writes memory without type assertions. Declare keys
// once, with [NewKey], as package variables:
//
//	var turnsLeft = behaviortree.NewKey[int]("attack.turnsLeft")
//
// The zero Key has the name "".
type Key[T any] struct {
	name string
}

// keyTypes is the registry of NewKey: the type of each key whose values
// save through encoding.BinaryMarshaler or encoding.TextMarshaler, by name.
var keyTypes sync.Map // string → reflect.Type

// NewKey returns the key name with values of type T.
//
// Saving a version saves its memory (see [Tree.MarshalBinary]), which
// holds values of these types: nil, bool, every integer and float kind,
// string, []byte, time.Duration, and slices and string-keyed maps of those
// (at any depth, also []any and map[string]any of them). A value of
// another type saves if its type implements encoding.BinaryMarshaler (or
// else encoding.TextMarshaler), with a pointer to it implementing the
// matching unmarshaler, and NewKey[T] was called for its key, in the
// program that saves and in the one that restores: NewKey registers T for
// name, so that restoring knows what to decode the bytes into. Saving a
// value that is none of these fails with an error naming its key and type.
//
// NewKey panics with "behaviortree.NewKey: key "name" is already
// registered with type A" when a key of the same name was registered with
// another marshaling type.
func NewKey[T any](name string) Key[T] {
	t := reflect.TypeFor[T]()
	if marshalingType(t) != 0 {
		if old, loaded := keyTypes.LoadOrStore(name, t); loaded && old.(reflect.Type) != t {
			panic(fmt.Sprintf("behaviortree.NewKey: key %q is already registered with type %v, not %v", name, old, t))
		}
	}
	return Key[T]{name}
}

// Name returns the key's name.
func (k Key[T]) Name() string { return k.name }

// Get returns the value of k in from (a [Memory] or a [*Blackboard]). It
// returns the zero T and false when from has no such key, or when its
// value is not a T.
func (k Key[T]) Get(from interface{ Get(key string) (any, bool) }) (T, bool) {
	v, ok := from.Get(k.name)
	t, isT := v.(T)
	return t, ok && isT
}

// Set returns a new Memory in which k has the value v; m is unchanged.
func (k Key[T]) Set(m Memory, v T) Memory { return m.Set(k.name, v) }

// Put sets k to v on the blackboard b, as b.Set does.
func (k Key[T]) Put(b *Blackboard, v T) { b.Set(k.name, v) }

// Blackboard is the memory of one step of a [Stepped] tree, as the
// agent's functions see it: the memory of the version being stepped, with
// the writes that earlier calls of the same step made. When the step
// succeeds, the new version holds the memory as the step left it; a step
// that returns an error keeps none of its writes. A Blackboard is valid
// only during the call it is given to; it is not safe for concurrent use.
type Blackboard struct {
	mem Memory
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
func (b *Blackboard) Memory() Memory { return b.mem }

// TimeData returns the time data of the step ([Stepped.Tick]; the zero
// TimeData for [Stepped.Step]).
func (b *Blackboard) TimeData() TimeData { return b.td }

// marshaling says how a type saves: 0 not through a marshaler, 1 through
// encoding.BinaryMarshaler, 2 through encoding.TextMarshaler.
func marshalingType(t reflect.Type) byte {
	if t.Kind() == reflect.Interface {
		return 0
	}
	pt := reflect.PointerTo(t)
	if t.Implements(binaryMarshaler) && pt.Implements(binaryUnmarshaler) {
		return 1
	}
	if t.Implements(textMarshaler) && pt.Implements(textUnmarshaler) {
		return 2
	}
	return 0
}

var (
	binaryMarshaler   = reflect.TypeFor[encoding.BinaryMarshaler]()
	binaryUnmarshaler = reflect.TypeFor[encoding.BinaryUnmarshaler]()
	textMarshaler     = reflect.TypeFor[encoding.TextMarshaler]()
	textUnmarshaler   = reflect.TypeFor[encoding.TextUnmarshaler]()
)
