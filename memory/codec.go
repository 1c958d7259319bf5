package memory

import (
	"encoding"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// This file is the binary form of a Map, which the saved states of both
// of package behaviortree's driving styles end with.
//
// The form is the number of keys, then each key in increasing order: its
// length and bytes, then its value as a type and a payload. All numbers are
// uvarints unless said otherwise.
//
// A type is a tag byte (typeTag), followed, for a slice or a map, by the
// type of its elements: so []map[string]int is tSlice tMap tInt ([]uint8,
// which is []byte, is tBytes: tSlice tUint8 is refused). A value
// of interface type (the elements of []any and map[string]any) is a type
// and a payload again; a nil value is the type tNil and no payload.
//
// Payloads: a bool is a byte 0 or 1; signed integers and time.Duration
// are zig-zag varints, unsigned ones uvarints; floats are their IEEE bits,
// 4 or 8 bytes little-endian; a string is its length and bytes. A []byte,
// a slice or a map is 0 for nil, else its length plus one, then its bytes,
// its elements, or its entries (key as a string, then the element) in
// increasing order of keys. A value of a type registered by NewKey for its
// key (tBinary, tText, only as the type of a key's value) is the length
// and bytes of its MarshalBinary or MarshalText.
//
// A type has at most maxTypeNest slices and maps.
//
// A reader checks every count against the bytes left before it allocates
// (each element takes at least one byte), and nesting against
// maxDepth, so that a small input cannot take much memory; it makes no Go
// type beyond the finite set that maxTypeNest allows.

type typeTag byte

const (
	tNil typeTag = iota
	tAny
	tBool
	tInt
	tInt8
	tInt16
	tInt32
	tInt64
	tUint
	tUint8
	tUint16
	tUint32
	tUint64
	tUintptr
	tFloat32
	tFloat64
	tString
	tBytes
	tDuration
	tSlice
	tMap
	tBinary
	tText
)

// maxDepth bounds the nesting of types and values in the binary form.
const maxDepth = 64

// maxTypeNest bounds the slices and maps in one type: []map[string][]int
// has 3. So a saved memory decodes into a fixed, finite set of Go types,
// the basic ones and the slices and string-keyed maps of them nested at
// most maxTypeNest deep (543 types, some 0.7 MB, each made once), plus
// the types registered with NewKey: Go never frees a type, and a reader
// that built the types its input names would keep, for good, memory that
// hostile bytes choose. Values nest deeper through []any and
// map[string]any, up to maxDepth.
const maxTypeNest = 4

// basic are the types of the basic tags, by tag.
var basic = [...]reflect.Type{
	tAny:      reflect.TypeFor[any](),
	tBool:     reflect.TypeFor[bool](),
	tInt:      reflect.TypeFor[int](),
	tInt8:     reflect.TypeFor[int8](),
	tInt16:    reflect.TypeFor[int16](),
	tInt32:    reflect.TypeFor[int32](),
	tInt64:    reflect.TypeFor[int64](),
	tUint:     reflect.TypeFor[uint](),
	tUint8:    reflect.TypeFor[uint8](),
	tUint16:   reflect.TypeFor[uint16](),
	tUint32:   reflect.TypeFor[uint32](),
	tUint64:   reflect.TypeFor[uint64](),
	tUintptr:  reflect.TypeFor[uintptr](),
	tFloat32:  reflect.TypeFor[float32](),
	tFloat64:  reflect.TypeFor[float64](),
	tString:   reflect.TypeFor[string](),
	tBytes:    reflect.TypeFor[[]byte](),
	tDuration: reflect.TypeFor[time.Duration](),
}

// tagOf maps the basic types to their tags.
var tagOf = func() map[reflect.Type]typeTag {
	m := make(map[reflect.Type]typeTag, len(basic))
	for tag, t := range basic {
		if t != nil {
			m[t] = typeTag(tag)
		}
	}
	return m
}()

// Error is the error of saving a value that cannot be saved: it names
// the key, the value's type, and, when what cannot be saved is inside a
// slice or map of the value, the path to it.
type Error struct {
	Key  string // the key whose value cannot be saved
	Type string // the value's type, as %T prints it
	Path string // "", or the path in the value to what cannot be saved: indexes and keys, as [2]["name"]
	Err  error  // the marshaler's error, or nil for a type that cannot be saved
	what string // what is wrong at Path
}

// Error returns "memory: cannot save key KEY ...", with the marshaler's
// error, the type that has no saved form, or the path to what cannot be
// saved in the value and what is wrong there: an element of a type that
// has no saved form, a cycle (a slice or map that holds itself), or
// values nested deeper than 64.
func (e *Error) Error() string {
	switch {
	case e.Err != nil:
		return fmt.Sprintf("memory: cannot save key %q (%s): %v", e.Key, e.Type, e.Err)
	case e.Path != "":
		return fmt.Sprintf("memory: cannot save key %q (%s): at %s, %s", e.Key, e.Type, e.Path, e.what)
	case e.what != "":
		return fmt.Sprintf("memory: cannot save key %q: %s", e.Key, e.what)
	}
	return fmt.Sprintf("memory: cannot save key %q: a value of type %s has no saved form (see NewKey)", e.Key, e.Type)
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// FormatError is the error of reading damaged bytes as a Map: what was
// wrong, and where.
type FormatError struct {
	Offset int    // the byte of the data read at which the damage was found
	Key    string // the key whose value was being read; "" outside a value
	Msg    string // what was wrong
	Err    error  // the registered type's unmarshaler's error, or nil
}

// Error returns "memory: key KEY, byte OFFSET: MSG", or "memory: byte
// OFFSET: MSG" outside a key's value.
func (e *FormatError) Error() string {
	if e.Key != "" {
		return fmt.Sprintf("memory: key %q, byte %d: %s", e.Key, e.Offset, e.Msg)
	}
	return fmt.Sprintf("memory: byte %d: %s", e.Offset, e.Msg)
}

// Unwrap returns e.Err.
func (e *FormatError) Unwrap() error { return e.Err }

// AppendBinary appends the binary form of m to b. It fails, returning b
// as it was and an [*Error], when a value has no saved form (see
// [NewKey]). It costs O(n) time, plus the marshalers' time.
func (m Map) AppendBinary(b []byte) ([]byte, error) {
	mark := len(b)
	b = binary.AppendUvarint(b, uint64(m.Len()))
	for k, v := range m.All() {
		out, err := appendKeyValue(appendString(b, k), k, v)
		if err != nil {
			return b[:mark], err
		}
		b = out
	}
	return b, nil
}

// MarshalBinary returns the binary form of m, as [Map.AppendBinary]
// appends it to nil. The form is canonical (keys, and the entries of map
// values, in increasing order; numbers in their shortest encoding), so a
// Map read back from it saves to the same bytes. It is the form that
// behaviortree's saved states embed (their "memory" field, in JSON), and
// it changes only together with their format version.
func (m Map) MarshalBinary() ([]byte, error) { return m.AppendBinary(nil) }

// UnmarshalBinary sets *m to the Map whose binary form is data, all of it.
// Damaged data is a [*FormatError] (what was wrong, at which byte of data,
// in which key), and leaves *m unchanged; so does a value saved through a
// marshaler when [NewKey] was not called for its key in this program.
//
// Reading costs O(n) time (O(n log n) in the number of keys of a big Map)
// and allocates at most 160 bytes per byte of data (it checks every count
// against the bytes left; the worst input found, a []map[string]any of
// one-entry maps, takes 131 on 64-bit machines), plus what the registered
// types' unmarshalers allocate. It makes no Go type (which Go would never
// free) beyond a fixed, finite set: the basic types, slices and
// string-keyed maps of them nested at most four deep, and the types
// registered with NewKey.
func (m *Map) UnmarshalBinary(data []byte) error {
	r := &reader{data: data}
	got, err := r.memory()
	if err != nil {
		return err
	}
	if len(r.data) > 0 {
		if len(r.data) == 1 {
			return r.fail("1 byte after the last key's value")
		}
		return r.fail("%d bytes after the last key's value", len(r.data))
	}
	*m = got
	return nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendKeyValue appends the type and payload of key's value v.
func appendKeyValue(b []byte, key string, v any) ([]byte, error) {
	if v != nil {
		t := reflect.TypeOf(v)
		if _, basic := tagOf[t]; !basic {
			if rt, ok := keyTypes.Load(key); ok && rt.(reflect.Type) == t {
				var data []byte
				var err error
				tag := tBinary
				if marshalingType(t) == 1 {
					data, err = v.(encoding.BinaryMarshaler).MarshalBinary()
				} else {
					tag = tText
					data, err = v.(encoding.TextMarshaler).MarshalText()
				}
				if err != nil {
					return nil, &Error{Key: key, Type: t.String(), Err: err}
				}
				b = append(b, byte(tag))
				return append(binary.AppendUvarint(b, uint64(len(data))), data...), nil
			}
		}
	}
	var e encoder
	b, f := e.appendAny(b, reflect.ValueOf(&v).Elem(), 0)
	if f != nil {
		slices.Reverse(f.path)
		return nil, &Error{Key: key, Type: fmt.Sprintf("%T", v), Path: strings.Join(f.path, ""), what: f.what}
	}
	return b, nil
}

// fault is where and why a value cannot be saved: the path from the
// element up (indexes and keys, as [2] and ["name"]) and what is wrong.
type fault struct {
	path []string
	what string
}

// at adds the step seg to f's path, on the way up.
func (f *fault) at(seg string) *fault {
	f.path = append(f.path, seg)
	return f
}

// encoder appends the binary form of values, keeping the slices and maps
// on the path to the value appended, to tell a cycle.
type encoder struct {
	open []container
}

// container is a slice or map being appended: a value that holds one
// equal to it (the same storage, length and type) holds itself.
type container struct {
	p   uintptr
	n   int
	typ reflect.Type
}

// appendAny appends the type and payload of the interface value v.
func (e *encoder) appendAny(b []byte, v reflect.Value, depth int) ([]byte, *fault) {
	if v.IsNil() {
		return append(b, byte(tNil)), nil
	}
	x := v.Elem()
	mark := len(b)
	b, why := appendType(b, x.Type(), depth, 0)
	switch {
	case why == errDeep:
		return b[:mark], &fault{what: why}
	case why != "":
		return b[:mark], &fault{what: fmt.Sprintf("a value of type %v has no saved form (%s)", x.Type(), why)}
	}
	return e.appendPayload(b, x, depth)
}

// errDeep says that values nest deeper than maxDepth.
var errDeep = fmt.Sprintf("values nested deeper than %d", maxDepth)

// appendType appends the type t, or says why a Map cannot save it (errDeep,
// or why the type has no saved form); nest is the number of slices and
// maps around t in the type.
func appendType(b []byte, t reflect.Type, depth, nest int) ([]byte, string) {
	if depth >= maxDepth {
		return b, errDeep
	}
	if nest > maxTypeNest {
		return b, fmt.Sprintf("a type has at most %d slices and maps", maxTypeNest)
	}
	if tag, ok := tagOf[t]; ok {
		return append(b, byte(tag)), ""
	}
	if t.Name() == "" && t.PkgPath() == "" { // not a named type other than time.Duration
		switch t.Kind() {
		case reflect.Slice:
			return appendType(append(b, byte(tSlice)), t.Elem(), depth+1, nest+1)
		case reflect.Map:
			if t.Key() == basic[tString] {
				return appendType(append(b, byte(tMap)), t.Elem(), depth+1, nest+1)
			}
		}
	}
	return b, "see NewKey"
}

// appendPayload appends the payload of v, whose type appendType accepted.
func (e *encoder) appendPayload(b []byte, v reflect.Value, depth int) ([]byte, *fault) {
	t := v.Type()
	if t == basic[tDuration] {
		return binary.AppendVarint(b, v.Int()), nil
	}
	if t == basic[tBytes] {
		if v.IsNil() {
			return append(b, 0), nil
		}
		b = binary.AppendUvarint(b, uint64(v.Len())+1)
		return append(b, v.Bytes()...), nil
	}
	switch t.Kind() {
	case reflect.Interface:
		return e.appendAny(b, v, depth+1)
	case reflect.Bool:
		if v.Bool() {
			return append(b, 1), nil
		}
		return append(b, 0), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return binary.AppendVarint(b, v.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return binary.AppendUvarint(b, v.Uint()), nil
	case reflect.Float32: // not through v.Float: a conversion to float64 quiets a signaling NaN
		return binary.LittleEndian.AppendUint32(b, math.Float32bits(v.Interface().(float32))), nil
	case reflect.Float64:
		return binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Float())), nil
	case reflect.String:
		return appendString(b, v.String()), nil
	case reflect.Slice:
		if v.IsNil() {
			return append(b, 0), nil
		}
		if f := e.enter(v); f != nil {
			return b, f
		}
		b = binary.AppendUvarint(b, uint64(v.Len())+1)
		for i := range v.Len() {
			var f *fault
			if b, f = e.appendPayload(b, v.Index(i), depth+1); f != nil {
				return b, f.at("[" + strconv.Itoa(i) + "]")
			}
		}
		e.open = e.open[:len(e.open)-1]
		return b, nil
	case reflect.Map:
		if v.IsNil() {
			return append(b, 0), nil
		}
		if f := e.enter(v); f != nil {
			return b, f
		}
		keys := make([]string, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			keys = append(keys, it.Key().String())
		}
		slices.Sort(keys)
		b = binary.AppendUvarint(b, uint64(len(keys))+1)
		for _, k := range keys {
			b = appendString(b, k)
			var f *fault
			if b, f = e.appendPayload(b, v.MapIndex(reflect.ValueOf(k).Convert(t.Key())), depth+1); f != nil {
				return b, f.at("[" + strconv.Quote(k) + "]")
			}
		}
		e.open = e.open[:len(e.open)-1]
		return b, nil
	}
	return b, &fault{what: fmt.Sprintf("a value of type %v has no saved form (see NewKey)", t)}
}

// enter notes that the slice or map v is being appended, or returns the
// fault of a cycle when v is one of those being appended.
func (e *encoder) enter(v reflect.Value) *fault {
	c := container{v.Pointer(), v.Len(), v.Type()}
	if slices.Contains(e.open, c) {
		return &fault{what: fmt.Sprintf("a cycle: it holds itself (a %v)", c.typ)}
	}
	e.open = append(e.open, c)
	return nil
}

// reader reads the binary form of a Map.
type reader struct {
	data []byte // the bytes left
	off  int    // of data[0] in the data read
	key  string // the key whose value is read, or ""
}

// fail returns a *FormatError at the reader's place, its message as
// fmt.Errorf formats it (Err the error of a %w verb).
func (r *reader) fail(format string, args ...any) error {
	e := fmt.Errorf(format, args...)
	return &FormatError{Offset: r.off, Key: r.key, Msg: e.Error(), Err: errors.Unwrap(e)}
}

func (r *reader) skip(n int) {
	r.data = r.data[n:]
	r.off += n
}

func (r *reader) uvarint() (uint64, error) {
	x, n := binary.Uvarint(r.data)
	if n <= 0 || n != len(binary.AppendUvarint(nil, x)) {
		return 0, r.fail("bad or truncated number (numbers take their shortest encoding)")
	}
	r.skip(n)
	return x, nil
}

func (r *reader) varint() (int64, error) {
	x, n := binary.Varint(r.data)
	if n <= 0 || n != len(binary.AppendVarint(nil, x)) {
		return 0, r.fail("bad or truncated number (numbers take their shortest encoding)")
	}
	r.skip(n)
	return x, nil
}

// count reads a count of items that take at least one byte each, or such
// a count plus one (the length of a slice or map, 0 being nil), so it
// allows one more than the bytes left.
func (r *reader) count(what string) (int, error) {
	n, err := r.uvarint()
	if err != nil {
		return 0, err
	}
	if n > uint64(len(r.data))+1 {
		return 0, r.fail("%s %d: more than the %d bytes left", what, n, len(r.data))
	}
	return int(n), nil
}

func (r *reader) bytes(n int) ([]byte, error) {
	if n > len(r.data) {
		return nil, r.fail("%d bytes, more than the %d left", n, len(r.data))
	}
	b := r.data[:n]
	r.skip(n)
	return b, nil
}

func (r *reader) string() (string, error) {
	n, err := r.count("string length")
	if err != nil {
		return "", err
	}
	b, err := r.bytes(n)
	return string(b), err
}

// memory reads a Map: its key count and keys.
func (r *reader) memory() (Map, error) {
	n, err := r.count("key count")
	if err != nil {
		return Map{}, err
	}
	keys := make([]string, n)
	vals := make([]any, n)
	for i := range n {
		r.key = ""
		k, err := r.string()
		if err != nil {
			return Map{}, err
		}
		if i > 0 && k <= keys[i-1] {
			return Map{}, r.fail("key %q is not after key %q", k, keys[i-1])
		}
		keys[i], r.key = k, k
		if vals[i], err = r.keyValue(); err != nil {
			return Map{}, err
		}
	}
	r.key = ""
	return fromSorted(keys, vals), nil
}

// keyValue reads the value of r.key.
func (r *reader) keyValue() (any, error) {
	if len(r.data) == 0 {
		return nil, r.fail("truncated")
	}
	tag := typeTag(r.data[0])
	if tag != tBinary && tag != tText {
		var v any
		err := r.anyValue(reflect.ValueOf(&v).Elem(), 0)
		return v, err
	}
	r.skip(1)
	n, err := r.count("length")
	if err != nil {
		return nil, err
	}
	data, err := r.bytes(n)
	if err != nil {
		return nil, err
	}
	rt, ok := keyTypes.Load(r.key)
	if !ok {
		return nil, r.fail("no type is registered for this key (NewKey must be called for it before restoring)")
	}
	t := rt.(reflect.Type)
	want := byte(1)
	if tag == tText {
		want = 2
	}
	if marshalingType(t) != want {
		return nil, r.fail("saved through a marshaler that the registered type %v does not have", t)
	}
	p := reflect.New(t)
	if tag == tBinary {
		err = p.Interface().(encoding.BinaryUnmarshaler).UnmarshalBinary(data)
	} else {
		err = p.Interface().(encoding.TextUnmarshaler).UnmarshalText(data)
	}
	if err != nil {
		return nil, r.fail("%v: %w", t, err)
	}
	return p.Elem().Interface(), nil
}

// anyValue reads the type and payload of an interface value into v, a
// settable value of interface type.
func (r *reader) anyValue(v reflect.Value, depth int) error {
	if len(r.data) > 0 && typeTag(r.data[0]) == tNil {
		r.skip(1)
		return nil
	}
	t, err := r.typ(depth, 0)
	if err == nil && t == basic[tAny] {
		err = r.fail("a value of interface type (tag %d): a value's type is concrete, only []any and map[string]any have interface elements", tAny)
	}
	if err != nil {
		return err
	}
	x := reflect.New(t).Elem()
	if err := r.payload(x, depth); err != nil {
		return err
	}
	v.Set(x)
	return nil
}

// typ reads a type; nest is the number of slices and maps around it.
// It makes a Go type only of the finite set that maxTypeNest allows.
func (r *reader) typ(depth, nest int) (reflect.Type, error) {
	if depth >= maxDepth {
		return nil, r.fail("types nested deeper than %d", maxDepth)
	}
	if len(r.data) == 0 {
		return nil, r.fail("truncated")
	}
	tag := typeTag(r.data[0])
	if tag < tAny || tag > tMap {
		return nil, r.fail("unknown type tag %d", tag)
	}
	if tag <= tDuration {
		r.skip(1)
		return basic[tag], nil
	}
	if nest == maxTypeNest {
		return nil, r.fail("a type of more than %d slices and maps", maxTypeNest)
	}
	r.skip(1)
	if tag == tSlice && len(r.data) > 0 && typeTag(r.data[0]) == tUint8 {
		// []uint8 is []byte, written tBytes: one value, one form.
		return nil, r.fail("type tag %d then %d ([]uint8): a []byte is written as tag %d", tSlice, tUint8, tBytes)
	}
	e, err := r.typ(depth+1, nest+1) // tSlice or tMap: the elements' type
	if err != nil {
		return nil, err
	}
	if tag == tSlice {
		return reflect.SliceOf(e), nil
	}
	return reflect.MapOf(basic[tString], e), nil
}

// payload reads a value of v's type into v, settable and zero.
func (r *reader) payload(v reflect.Value, depth int) error {
	if depth >= maxDepth {
		return r.fail("values nested deeper than %d", maxDepth)
	}
	t := v.Type()
	if t == basic[tDuration] {
		x, err := r.varint()
		v.SetInt(x)
		return err
	}
	if t == basic[tBytes] {
		n, err := r.uvarint()
		if err != nil || n == 0 {
			return err
		}
		b, err := r.bytes(int(min(n-1, uint64(len(r.data))+1)))
		if err != nil {
			return err
		}
		v.SetBytes(slices.Clone(b))
		return nil
	}
	switch t.Kind() {
	case reflect.Interface:
		return r.anyValue(v, depth+1)
	case reflect.Bool:
		b, err := r.bytes(1)
		if err != nil {
			return err
		}
		if b[0] > 1 {
			return r.fail("bool byte %d", b[0])
		}
		v.SetBool(b[0] == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x, err := r.varint()
		if err != nil {
			return err
		}
		if v.OverflowInt(x) {
			return r.fail("%d overflows %v", x, t)
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x, err := r.uvarint()
		if err != nil {
			return err
		}
		if v.OverflowUint(x) {
			return r.fail("%d overflows %v", x, t)
		}
		v.SetUint(x)
	case reflect.Float32:
		b, err := r.bytes(4)
		if err != nil {
			return err
		}
		// not through v.SetFloat: a conversion from float64 quiets a signaling NaN
		*(v.Addr().Interface().(*float32)) = math.Float32frombits(binary.LittleEndian.Uint32(b))
	case reflect.Float64:
		b, err := r.bytes(8)
		if err != nil {
			return err
		}
		v.SetFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
	case reflect.String:
		s, err := r.string()
		if err != nil {
			return err
		}
		v.SetString(s)
	case reflect.Slice:
		n, err := r.count("length")
		if err != nil || n == 0 {
			return err
		}
		n--
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			if err := r.payload(s.Index(i), depth+1); err != nil {
				return err
			}
		}
		v.Set(s)
	case reflect.Map:
		n, err := r.count("length")
		if err != nil || n == 0 {
			return err
		}
		n--
		m := reflect.MakeMapWithSize(t, n)
		var k, e reflect.Value // the key and element, reused
		if n > 0 {
			k, e = reflect.New(basic[tString]).Elem(), reflect.New(t.Elem()).Elem()
		}
		prev := ""
		for i := range n {
			s, err := r.string()
			if err != nil {
				return err
			}
			if i > 0 && s <= prev {
				return r.fail("map key %s is not after %s", strconv.Quote(s), strconv.Quote(prev))
			}
			prev = s
			k.SetString(s)
			e.SetZero()
			if err := r.payload(e, depth+1); err != nil {
				return err
			}
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	default:
		return r.fail("type %v", t)
	}
	return nil
}
