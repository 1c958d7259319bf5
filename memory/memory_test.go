package memory

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestPersistent(t *testing.T) {
	var m Map
	if m.Len() != 0 {
		t.Fatal("zero Map not empty")
	}
	if _, ok := m.Get("x"); ok {
		t.Fatal("zero Map has x")
	}
	model := map[string]any{}
	var versions []Map
	var models []map[string]any
	for i := range 200 {
		k := "k" + strconv.Itoa(i*7%23)
		if i%5 == 4 {
			m = m.Delete(k)
			delete(model, k)
		} else {
			m = m.Set(k, i)
			model[k] = i
		}
		versions = append(versions, m)
		c := map[string]any{}
		for k, v := range model {
			c[k] = v
		}
		models = append(models, c)
	}
	for i, v := range versions {
		checkModel(t, fmt.Sprint("version ", i), v, models[i])
	}
	if d := m.Delete("absent"); d != m {
		t.Error("Delete of an absent key did not return the receiver")
	}
	if (Map{}).Set("only", 1).Delete("only") != (Map{}) {
		t.Error("deleting the last key does not give the empty Map")
	}
}

// checkModel checks m against model: Len, Get and All in key order.
func checkModel(t *testing.T, what string, m Map, model map[string]any) {
	t.Helper()
	if m.Len() != len(model) {
		t.Errorf("%s: Len %d, want %d", what, m.Len(), len(model))
	}
	keys := make([]string, 0, len(model))
	for k, v := range model {
		keys = append(keys, k)
		if got, ok := m.Get(k); !ok || got != v {
			t.Errorf("%s: Get(%q) = %v, %v, want %v", what, k, got, ok, v)
		}
	}
	slices.Sort(keys)
	var got []string
	for k := range m.All() {
		got = append(got, k)
	}
	if !slices.Equal(got, keys) {
		t.Errorf("%s: All keys %v, want %v", what, got, keys)
	}
}

type gridCell struct{ X, Y int }

func (c gridCell) MarshalText() ([]byte, error) { return fmt.Appendf(nil, "%d,%d", c.X, c.Y), nil }
func (c *gridCell) UnmarshalText(b []byte) error {
	_, err := fmt.Sscanf(string(b), "%d,%d", &c.X, &c.Y)
	return err
}

type stamp uint32

func (s stamp) MarshalBinary() ([]byte, error) { return []byte{byte(s), byte(s >> 8)}, nil }
func (s *stamp) UnmarshalBinary(b []byte) error {
	if len(b) != 2 {
		return errors.New("want 2 bytes")
	}
	*s = stamp(b[0]) | stamp(b[1])<<8
	return nil
}

var (
	keyTarget = NewKey[gridCell]("memtest.target")
	keyStamp  = NewKey[stamp]("memtest.stamp")
	keyTurns  = NewKey[int]("memtest.turns")
)

func TestKey(t *testing.T) {
	m := keyTurns.Set(Map{}, 3)
	if n, ok := keyTurns.Get(m); !ok || n != 3 {
		t.Errorf("Get = %v, %v", n, ok)
	}
	m = m.Set(keyTurns.Name(), "three")
	if n, ok := keyTurns.Get(m); ok || n != 0 {
		t.Errorf("Get of a string under an int key = %v, %v, want 0, false", n, ok)
	}
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, `memory.NewKey: key "memtest.target" is already registered with type memory.gridCell, not memory.stamp`) {
			t.Errorf("panic %v", r)
		}
	}()
	NewKey[gridCell]("memtest.target") // the same type again is fine
	NewKey[stamp]("memtest.target")
}

// everyValue holds a value of every type a memory saves.
func everyValue() Map {
	var m Map
	for k, v := range map[string]any{
		"nil": nil, "false": false, "true": true,
		"int": -7, "int8": int8(-8), "int16": int16(-16), "int32": int32(-32), "int64": int64(math.MinInt64),
		"uint": uint(7), "uint8": uint8(255), "uint16": uint16(16), "uint32": uint32(32), "uint64": uint64(math.MaxUint64), "uintptr": uintptr(9),
		"float32": float32(1.5), "float64": -math.MaxFloat64, "inf": math.Inf(-1),
		"string": "é\x00", "bytes": []byte{0, 1}, "nilbytes": []byte(nil), "emptybytes": []byte{},
		"duration": 90 * time.Second,
		"ints":     []int{1, -2}, "nilints": []int(nil), "emptyints": []int{},
		"nested": [][]string{{"a"}, nil, {}},
		"anys":   []any{1, "two", nil, []float64{3}, map[string]any{"x": true}},
		"map":    map[string]int{"b": 2, "a": 1}, "nilmap": map[string]bool(nil),
		"mapany": map[string]any{"z": nil, "y": []byte("y")},
	} {
		m = m.Set(k, v)
	}
	m = keyTarget.Set(m, gridCell{3, 4})
	return keyStamp.Set(m, 0x1234)
}

func TestBinaryEveryType(t *testing.T) {
	m := everyValue()
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got Map
	if err := got.UnmarshalBinary(b); err != nil {
		t.Fatalf("UnmarshalBinary: %v", err)
	}
	if got.Len() != m.Len() {
		t.Fatalf("%d keys, want %d", got.Len(), m.Len())
	}
	for k, v := range m.All() {
		g, _ := got.Get(k)
		if !reflect.DeepEqual(g, v) || reflect.TypeOf(g) != reflect.TypeOf(v) {
			t.Errorf("%s: got %#v (%T), want %#v (%T)", k, g, g, v, v)
		}
	}
	b2, _ := got.MarshalBinary()
	if string(b2) != string(b) {
		t.Error("the restored memory saves to other bytes")
	}
}

func TestBinaryErrors(t *testing.T) {
	type named int
	for _, c := range []struct {
		v    any
		typ  string
		want string
	}{
		{named(1), "memory.named", "has no saved form"},
		{[]named{1}, "[]memory.named", "has no saved form"},
		{map[int]int{1: 1}, "map[int]int", "has no saved form"},
		{struct{}{}, "struct {}", "has no saved form"},
		{&gridCell{}, "*memory.gridCell", "has no saved form"},
		{gridCell{}, "memory.gridCell", "has no saved form"}, // a marshaler, but not registered for this key
		{[]any{func() {}}, "[]interface {}", "has no saved form"},
		{[][]map[string][][]int{}, "[][]map[string][][]int", "has no saved form"}, // 5 slices and maps
	} {
		_, err := Map{}.Set("bad", c.v).MarshalBinary()
		var me *Error
		if !errors.As(err, &me) || me.Key != "bad" || me.Type != c.typ || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%T: got %v", c.v, err)
		}
	}
}

func TestUnmarshalDamaged(t *testing.T) {
	good, err := everyValue().MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(good) {
		if err := new(Map).UnmarshalBinary(good[:n]); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"huge count", []byte{0xff, 0xff, 0xff, 0xff, 0x0f}, "key count 4294967295: more than the 0 bytes left"},
		{"keys out of order", []byte{2, 1, 'b', byte(tNil), 1, 'a', byte(tNil)}, `key "a" is not after key "b"`},
		{"bad tag", []byte{1, 1, 'k', 99}, `memory: key "k", byte 3: unknown type tag 99`},
		{"bad bool", []byte{1, 1, 'k', byte(tBool), 2}, "bool byte 2"},
		{"int8 overflow", []byte{1, 1, 'k', byte(tInt8), 0x80, 0x04}, "256 overflows int8"},
		{"huge slice", []byte{1, 1, 'k', byte(tSlice), byte(tInt), 0xff, 0xff, 0x7f}, "more than the 0 bytes left"},
		{"unregistered", []byte{1, 1, 'k', byte(tText), 1, 'x'}, "no type is registered"},
		{"deep", append([]byte{1, 1, 'k'}, slices.Repeat([]byte{byte(tSlice), byte(tAny), 2}, 100)...), "nested deeper than 64"},
		{"nested type", append([]byte{1, 1, 'k'}, slices.Repeat([]byte{byte(tSlice)}, 100)...), "memory: key \"k\", byte 7: a type of more than 4 slices and maps"},
		{"bad text", append([]byte{1, byte(len(keyTarget.Name()))}, append([]byte(keyTarget.Name()), byte(tText), 1, 'x')...), "expected integer"},
		{"empty", nil, "memory: byte 0: bad or truncated number"},
		{"after the map", []byte{0, 7}, "memory: byte 1: 1 byte after the last key's value"},
		{"after a value", []byte{1, 1, 'k', byte(tBool), 1, 0}, "memory: byte 5: 1 byte after the last key's value"},
	} {
		err := new(Map).UnmarshalBinary(c.data)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// TestFormatError checks the fields of a reading error: where, in which
// key, and the unmarshaler's error.
func TestFormatError(t *testing.T) {
	data := append([]byte{2, 1, 'a', byte(tNil), byte(len(keyStamp.Name()))}, keyStamp.Name()...)
	data = append(data, byte(tBinary), 3, 1, 2, 3) // a stamp is 2 bytes
	m := Map{}.Set("kept", 1)
	err := m.UnmarshalBinary(data)
	var fe *FormatError
	if !errors.As(err, &fe) || fe.Key != keyStamp.Name() || fe.Offset != len(data) || fe.Err == nil || fe.Err.Error() != "want 2 bytes" {
		t.Fatalf("got %#v (%v)", fe, err)
	}
	want := fmt.Sprintf("memory: key %q, byte %d: memory.stamp: want 2 bytes", keyStamp.Name(), len(data))
	if err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
	if m.String() != "{kept: 1}" {
		t.Errorf("a failed UnmarshalBinary changed the Map to %v", m)
	}
	if err := m.UnmarshalBinary([]byte{1, 1, 'k', 99}); !errors.As(err, &fe) || fe.Key != "k" || fe.Offset != 3 || fe.Err != nil {
		t.Errorf("bad tag: %#v", fe)
	}
}

// TestBinaryEmpty: the empty Map's binary form is one byte, the count 0,
// and reads back as the zero Map.
func TestBinaryEmpty(t *testing.T) {
	b, err := Map{}.MarshalBinary()
	if err != nil || string(b) != "\x00" {
		t.Fatalf("% x, %v", b, err)
	}
	m := Map{}.Set("x", 1)
	if err := m.UnmarshalBinary(b); err != nil || m != (Map{}) {
		t.Errorf("%v, %v", m, err)
	}
}

// TestAppendBinary appends after what b holds, and on an error returns b
// as it was.
func TestAppendBinary(t *testing.T) {
	m := Map{}.Set("a", "x")
	b, err := m.AppendBinary([]byte("head"))
	want, _ := m.MarshalBinary()
	if err != nil || string(b) != "head"+string(want) {
		t.Errorf("% x, %v", b, err)
	}
	b, err = m.Set("b", func() {}).AppendBinary([]byte("head"))
	if err == nil || string(b) != "head" {
		t.Errorf("unsaveable value: % x, %v", b, err)
	}
}

func TestEqual(t *testing.T) {
	a := everyValue().Set("nan", math.NaN()).Set("nans", []float32{float32(math.NaN())})
	var b Map
	data, _ := a.MarshalBinary()
	if err := b.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if a == b || !a.Equal(b) || !b.Equal(a) {
		t.Error("a restored Map is not Equal to (or is == to) the one saved")
	}
	if !a.Equal(a) || a != a.Delete("absent") {
		t.Error("a Map is not Equal to itself")
	}
	for _, o := range []Map{a.Set("nan", 1.0), a.Delete("nan"), a.Set("more", nil), {}} {
		if a.Equal(o) || o.Equal(a) {
			t.Errorf("%v is Equal to %v", o, a)
		}
	}
	if !(Map{}).Equal(Map{}.Set("x", 1).Delete("x")) {
		t.Error("two empty Maps are not Equal")
	}
}

// board is a Set-only memory, as behaviortree's *Blackboard is to Put.
type board map[string]any

func (b board) Set(key string, v any) { b[key] = v }

func TestKeyPut(t *testing.T) {
	b := board{}
	keyTurns.Put(b, 4)
	if b["memtest.turns"] != 4 {
		t.Errorf("Put: %v", b)
	}
}

// FuzzUnmarshalBinary reads any bytes as a Map: it fails with a
// *FormatError, or reads a Map that saves to the same bytes (the form is
// canonical) and is Equal to itself read again.
func FuzzUnmarshalBinary(f *testing.F) {
	good, err := everyValue().MarshalBinary()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good)
	f.Add([]byte{0})
	f.Add([]byte{1, 1, 'k', byte(tSlice), byte(tAny), 2, byte(tInt), 4, byte(tNil)})
	f.Add([]byte{1, 1, 'k', byte(tMap), byte(tFloat32), 2, 1, 'x', 0, 0, 0xc0, 0x7f})
	f.Fuzz(func(t *testing.T, data []byte) {
		var m Map
		err := m.UnmarshalBinary(data)
		if err != nil {
			var fe *FormatError
			if !errors.As(err, &fe) || fe.Offset < 0 || fe.Offset > len(data) {
				t.Fatalf("error %v (%T), not a *FormatError within the %d bytes", err, err, len(data))
			}
			return
		}
		again, err := m.MarshalBinary()
		if err != nil || string(again) != string(data) {
			t.Fatalf("% x read as %v saves to % x, %v", data, m, again, err)
		}
		var n Map
		if err := n.UnmarshalBinary(again); err != nil || !n.Equal(m) {
			t.Fatalf("read again: %v, %v, Equal %v", n, err, n.Equal(m))
		}
	})
}

// TestBytesOneEncoding: []uint8 is []byte, whose type is written tBytes;
// the tag pair tSlice tUint8 is refused wherever it stands (at the top, in
// a nested type, in an element of []any), so a []byte has one saved form.
func TestBytesOneEncoding(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"top", []byte{1, 0, byte(tSlice), byte(tUint8), 0}},
		{"non-nil", []byte{1, 0, byte(tSlice), byte(tUint8), 2, 7}},
		{"nested", []byte{1, 0, byte(tSlice), byte(tSlice), byte(tUint8), 0}},
		{"map element", []byte{1, 0, byte(tMap), byte(tSlice), byte(tUint8), 0}},
		{"in []any", []byte{1, 0, byte(tSlice), byte(tAny), 2, byte(tSlice), byte(tUint8), 0}},
	} {
		err := new(Map).UnmarshalBinary(c.data)
		var fe *FormatError
		if !errors.As(err, &fe) || !strings.Contains(err.Error(), "[]uint8") {
			t.Errorf("%s: % x read with error %v, want a *FormatError about []uint8", c.name, c.data, err)
		}
	}
	b, err := Map{}.Set("", [][]uint8{nil}).MarshalBinary()
	if err != nil || string(b) != string([]byte{1, 0, byte(tSlice), byte(tBytes), 2, 0}) {
		t.Errorf("[][]uint8 saves as % x, %v", b, err)
	}
}

// TestErrorPath: an error of saving names the path to the element that
// cannot be saved inside a slice or map, and what is wrong with it.
func TestErrorPath(t *testing.T) {
	cycle := []any{1, nil}
	cycle[1] = cycle
	cyclic := map[string]any{"a": nil}
	cyclic["a"] = []any{cyclic}
	deep := any(nil)
	for range 70 {
		deep = []any{deep}
	}
	for _, c := range []struct {
		v    any
		path string
		want string
	}{
		{[]any{1, func() {}}, "[1]", "a value of type func() has no saved form"},
		{map[string]any{"a": 1, "b": []any{2, map[string]any{"c\x1b": struct{}{}}}}, `["b"][1]["c\x1b"]`, "a value of type struct {} has no saved form"},
		{[][]any{nil, {1, 2, 3, int32ptr()}}, "[1][3]", "a value of type *int32 has no saved form"},
		{cycle, "[1]", "a cycle: it holds itself"},
		{cyclic, `["a"][0]`, "a cycle: it holds itself"},
		{deep, "[0]", "nested deeper than 64"},
	} {
		_, err := Map{}.Set("k", c.v).MarshalBinary()
		var me *Error
		if !errors.As(err, &me) || me.Key != "k" || me.Type != fmt.Sprintf("%T", c.v) || !strings.HasPrefix(me.Path, c.path) {
			t.Errorf("%T: got %#v (%v), want the path %s", c.v, me, err, c.path)
			continue
		}
		if msg := err.Error(); !strings.Contains(msg, c.want) || !strings.Contains(msg, c.path) {
			t.Errorf("%T: %q, want it to say %q at %s", c.v, msg, c.want, c.path)
		}
	}
	// the value itself: no path
	_, err := Map{}.Set("k", struct{}{}).MarshalBinary()
	if me := (*Error)(nil); !errors.As(err, &me) || me.Path != "" {
		t.Errorf("%#v", me)
	}
}

func int32ptr() *int32 { return new(int32) }
