// Package memory is the agent's memory: [Map], a persistent map from
// string keys to values, which every version of a behavior tree carries (a
// blackboard, in other libraries' words); [Key], a typed key of it; and
// the Map's binary form, which the saved states of package behaviortree
// end with.
//
// A version's memory never changes after the version exists: undoing to
// an old version, restoring a saved one or stepping one twice brings back
// its memory with its tree. Package behaviortree holds a version's Map
// (Tree.Memory, Stepped.Memory) and gives a stepped tree's agent a
// Blackboard, the Map of the step under way. Declare typed keys once, and
// read and write through them:
//
//	var turnsLeft = memory.NewKey[int]("attack.turnsLeft")
//
//	left, _ := turnsLeft.Get(b) // b: the step's *behaviortree.Blackboard
//	turnsLeft.Put(b, left-1)
//
//	m := turnsLeft.Set(tree.Memory(), 3) // a new Map, for tree.WithMemory(m)
//
// This package imports nothing of package behaviortree.
package memory

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

// Map is the agent's memory: a persistent map from string keys to
// values. Set and Delete return a new Map and leave the receiver
// unchanged, so a Map never changes once made.
//
// Maps that a change does not touch share their storage; a change copies
// only the path to the key it changes (a Map of more than 16 keys is an
// immutable.SortedMap, a B+tree), so it costs O(log n) time and one or a
// few small allocations. Values are kept as they are given: a value that
// is itself mutable (a slice, a map, a pointer) must not be changed after
// it is set, or every Map that holds it sees the change; set a new value
// instead.
//
// The zero Map is empty and ready to use. A Map may be used from any
// number of goroutines at once. Maps are comparable: two Maps are == when
// they share their storage, which is cheap to test and implies [Map.Equal];
// Equal compares their keys and values. [Map.MarshalBinary] saves a Map;
// see [NewKey] for the values it can save.
type Map struct {
	t *table // nil when empty
}

// table holds a non-empty Map. Maps of up to smallMax keys
// are sorted arrays of keys and of their values: a change of a value
// copies the values and shares the keys, an insertion or a deletion
// copies both, each in one allocation (the table and its arrays are one
// object). Bigger Maps are an immutable.SortedMap. A table never
// changes once made.
type table struct {
	keys []string                          // increasing, when big is nil
	vals []any                             // vals[i] is the value of keys[i]
	big  *immutable.SortedMap[string, any] // more than smallMax keys
}

const smallMax = 16

// newSmall returns a table of n keys and values, zero, in one
// allocation; with keys not nil, it has those keys and n new values.
func newSmall(n int, keys []string) *table {
	var t *table
	if keys != nil {
		switch {
		case n <= 2:
			x := &struct {
				t table
				v [2]any
			}{}
			t = &x.t
			t.vals = x.v[:n]
		case n <= 4:
			x := &struct {
				t table
				v [4]any
			}{}
			t = &x.t
			t.vals = x.v[:n]
		case n <= 8:
			x := &struct {
				t table
				v [8]any
			}{}
			t = &x.t
			t.vals = x.v[:n]
		default:
			x := &struct {
				t table
				v [smallMax]any
			}{}
			t = &x.t
			t.vals = x.v[:n]
		}
		t.keys = keys
		return t
	}
	switch {
	case n <= 2:
		x := &struct {
			t table
			k [2]string
			v [2]any
		}{}
		t = &x.t
		t.keys, t.vals = x.k[:n], x.v[:n]
	case n <= 4:
		x := &struct {
			t table
			k [4]string
			v [4]any
		}{}
		t = &x.t
		t.keys, t.vals = x.k[:n], x.v[:n]
	case n <= 8:
		x := &struct {
			t table
			k [8]string
			v [8]any
		}{}
		t = &x.t
		t.keys, t.vals = x.k[:n], x.v[:n]
	default:
		x := &struct {
			t table
			k [smallMax]string
			v [smallMax]any
		}{}
		t = &x.t
		t.keys, t.vals = x.k[:n], x.v[:n]
	}
	return t
}

// find returns where key is, or would go, in a small table.
func (t *table) find(key string) (int, bool) {
	lo, hi := 0, len(t.keys)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if t.keys[h] < key {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return lo, lo < len(t.keys) && t.keys[lo] == key
}

// stringComparer orders keys as strings.Compare does.
type stringComparer struct{}

func (stringComparer) Compare(a, b string) int { return strings.Compare(a, b) }

// Get returns the value of key, and whether m has the key. It costs
// O(log n) and allocates nothing.
func (m Map) Get(key string) (any, bool) {
	t := m.t
	if t == nil {
		return nil, false
	}
	if t.big != nil {
		return t.big.Get(key)
	}
	if i, ok := t.find(key); ok {
		return t.vals[i], true
	}
	return nil, false
}

// Set returns a new Map in which key has the value v; m is unchanged.
// It costs O(log n) time and copies O(log n) entries (at most 32 in a
// node, or the 16 of a small Map).
func (m Map) Set(key string, v any) Map {
	t := m.t
	if t == nil {
		n := newSmall(1, nil)
		n.keys[0], n.vals[0] = key, v
		return Map{n}
	}
	if t.big != nil {
		return Map{&table{big: t.big.Set(key, v)}}
	}
	i, found := t.find(key)
	if found {
		n := newSmall(len(t.keys), t.keys)
		copy(n.vals, t.vals)
		n.vals[i] = v
		return Map{n}
	}
	if len(t.keys) == smallMax {
		b := immutable.NewSortedMapBuilder[string, any](stringComparer{})
		for i, k := range t.keys {
			b.Set(k, t.vals[i])
		}
		b.Set(key, v)
		return Map{&table{big: b.Map()}}
	}
	n := newSmall(len(t.keys)+1, nil)
	copy(n.keys, t.keys[:i])
	copy(n.vals, t.vals[:i])
	n.keys[i], n.vals[i] = key, v
	copy(n.keys[i+1:], t.keys[i:])
	copy(n.vals[i+1:], t.vals[i:])
	return Map{n}
}

// fromSorted returns the Map of keys, increasing, and their values, vals,
// which it may keep. It costs O(n log n) time (the log, of a B+tree of 32
// entries a node, is 4 at a million keys) and O(n) memory.
func fromSorted(keys []string, vals []any) Map {
	switch {
	case len(keys) == 0:
		return Map{}
	case len(keys) <= smallMax:
		t := newSmall(len(keys), keys)
		copy(t.vals, vals)
		return Map{t}
	}
	b := immutable.NewSortedMapBuilder[string, any](stringComparer{})
	for i, k := range keys {
		b.Set(k, vals[i])
	}
	return Map{&table{big: b.Map()}}
}

// Delete returns a new Map without key; m is unchanged. It returns m
// itself when m has no key.
func (m Map) Delete(key string) Map {
	t := m.t
	if t == nil {
		return m
	}
	if t.big != nil {
		d := t.big.Delete(key)
		if d == t.big {
			return m
		}
		if d.Len() <= smallMax/2 {
			n := newSmall(d.Len(), nil)
			it := d.Iterator()
			for i := 0; !it.Done(); i++ {
				n.keys[i], n.vals[i], _ = it.Next()
			}
			return Map{n}
		}
		return Map{&table{big: d}}
	}
	i, found := t.find(key)
	if !found {
		return m
	}
	if len(t.keys) == 1 {
		return Map{}
	}
	n := newSmall(len(t.keys)-1, nil)
	copy(n.keys, t.keys[:i])
	copy(n.keys[i:], t.keys[i+1:])
	copy(n.vals, t.vals[:i])
	copy(n.vals[i:], t.vals[i+1:])
	return Map{n}
}

// Len returns the number of keys in m.
func (m Map) Len() int {
	switch {
	case m.t == nil:
		return 0
	case m.t.big != nil:
		return m.t.big.Len()
	}
	return len(m.t.keys)
}

// All returns an iterator over m's keys and values, in increasing order of
// keys.
func (m Map) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		t := m.t
		if t == nil {
			return
		}
		if t.big == nil {
			for i, k := range t.keys {
				if !yield(k, t.vals[i]) {
					return
				}
			}
			return
		}
		it := t.big.Iterator()
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
func (m Map) String() string {
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
		b.WriteString(valueString(v))
	}
	b.WriteByte('}')
	return b.String()
}

// valueString prints a value for String.
func valueString(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%v", v)
}

// Equal reports whether m and o have the same keys with the same values:
// deeply equal (reflect.DeepEqual), or saved to the same bytes, so that a
// NaN equals itself. It is true at once when m == o (shared storage), and
// otherwise costs O(n log n) and a comparison of each value.
func (m Map) Equal(o Map) bool {
	if m.t == o.t {
		return true
	}
	if m.Len() != o.Len() {
		return false
	}
	for k, v := range m.All() {
		ov, ok := o.Get(k)
		if !ok || !sameValue(k, v, ov) {
			return false
		}
	}
	return true
}

// sameValue reports whether a and b, values of key, are the same: deeply
// equal, or (so that a NaN equals itself) saved to the same bytes.
func sameValue(key string, a, b any) bool {
	if reflect.DeepEqual(a, b) {
		return true
	}
	x, err := appendKeyValue(nil, key, a)
	if err != nil {
		return false
	}
	y, err := appendKeyValue(nil, key, b)
	return err == nil && string(x) == string(y)
}

// Key is a typed key of a [Map]: a name and the type of its values, so
// that code reads and writes memory without type assertions. Declare keys
// once, with [NewKey], as package variables:
//
//	var turnsLeft = memory.NewKey[int]("attack.turnsLeft")
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
// Saving a Map ([Map.MarshalBinary], and so saving a version of a tree
// that holds it) saves values of these types: nil, bool, every integer
// and float kind, string, []byte, time.Duration, and slices and
// string-keyed maps of those (nested up to four deep, as in
// []map[string][][]int; also []any and map[string]any of them, whose
// elements nest again, up to 64 deep in all). A value of another type saves if its type implements
// encoding.BinaryMarshaler (or else encoding.TextMarshaler), with a
// pointer to it implementing the matching unmarshaler, and NewKey[T] was
// called for its key, in the program that saves and in the one that
// restores: NewKey registers T for name, so that restoring knows what to
// decode the bytes into. Saving a value that is none of these fails with
// an [*Error] naming its key and type.
//
// NewKey panics with "memory.NewKey: key "name" is already registered
// with type A" when a key of the same name was registered with another
// marshaling type.
func NewKey[T any](name string) Key[T] {
	t := reflect.TypeFor[T]()
	if marshalingType(t) != 0 {
		if old, loaded := keyTypes.LoadOrStore(name, t); loaded && old.(reflect.Type) != t {
			panic(fmt.Sprintf("memory.NewKey: key %q is already registered with type %v, not %v", name, old, t))
		}
	}
	return Key[T]{name}
}

// Name returns the key's name.
func (k Key[T]) Name() string { return k.name }

// Get returns the value of k in from (a [Map], or behaviortree's
// *Blackboard). It returns the zero T and false when from has no such key,
// or when its value is not a T.
func (k Key[T]) Get(from interface{ Get(key string) (any, bool) }) (T, bool) {
	v, ok := from.Get(k.name)
	t, isT := v.(T)
	return t, ok && isT
}

// Set returns a new Map in which k has the value v; m is unchanged.
func (k Key[T]) Set(m Map, v T) Map { return m.Set(k.name, v) }

// Put sets k to v in to (behaviortree's *Blackboard, the memory of a step
// under way), as to.Set(k.Name(), v) does.
func (k Key[T]) Put(to interface{ Set(key string, v any) }, v T) { to.Set(k.name, v) }

// marshalingType says how a type saves: 0 not through a marshaler, 1
// through encoding.BinaryMarshaler, 2 through encoding.TextMarshaler.
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
