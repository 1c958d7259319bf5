package behaviortree_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
)

// memStamp is a value that saves through encoding.BinaryMarshaler, under
// the key memStampKey. Its form is canonical: what UnmarshalBinary accepts
// MarshalBinary writes back byte for byte.
type memStamp struct {
	Turn uint16
	Tag  string
}

func (s memStamp) MarshalBinary() ([]byte, error) {
	return append(binary.BigEndian.AppendUint16(nil, s.Turn), s.Tag...), nil
}

func (s *memStamp) UnmarshalBinary(b []byte) error {
	if len(b) < 2 {
		return fmt.Errorf("memStamp: %d bytes, want at least 2", len(b))
	}
	s.Turn, s.Tag = binary.BigEndian.Uint16(b), string(b[2:])
	return nil
}

// memLabel is a value that saves through encoding.TextMarshaler, under the
// key memLabelKey; its form is canonical too.
type memLabel struct{ text string }

func (l memLabel) MarshalText() ([]byte, error) { return []byte(l.text), nil }

func (l *memLabel) UnmarshalText(b []byte) error {
	l.text = string(b)
	return nil
}

var (
	memStampKey = memory.NewKey[memStamp]("fuzz.stamp")
	memLabelKey = memory.NewKey[memLabel]("fuzz.label")
)

// memoryOfEveryType returns a memory with a value of every kind a memory
// saves: nil, bools, every integer and float kind (with their extremes, a
// negative zero, infinities and NaNs), strings, nil, empty and full []byte,
// durations, nil, empty and full typed slices and maps, nested ones, []any
// and map[string]any, and the two registered marshaler types.
func memoryOfEveryType() memory.Map {
	var m memory.Map
	for k, v := range map[string]any{
		"nil":        nil,
		"bool.t":     true,
		"bool.f":     false,
		"int":        -5,
		"int.min":    math.MinInt,
		"int8":       int8(math.MinInt8),
		"int16":      int16(math.MaxInt16),
		"int32":      int32(math.MinInt32),
		"int64":      int64(math.MinInt64),
		"uint":       uint(math.MaxUint),
		"uint8":      uint8(255),
		"uint16":     uint16(65535),
		"uint32":     uint32(math.MaxUint32),
		"uint64":     uint64(math.MaxUint64),
		"uintptr":    uintptr(7),
		"float32":    float32(-1.5),
		"float32.nz": float32(math.Copysign(0, -1)),
		"float32.in": float32(math.Inf(1)),
		"float32.na": math.Float32frombits(0x7fc00001), // a quiet NaN with a payload
		"float64":    math.Pi,
		"float64.nz": math.Copysign(0, -1),
		"float64.in": math.Inf(-1),
		"float64.na": math.Float64frombits(0x7ff8000000000123),
		"float64.sn": math.Float64frombits(0x7ff0000000000001), // a signaling NaN
		"string":     "héllo\x00",
		"string.e":   "",
		"bytes.nil":  []byte(nil),
		"bytes.e":    []byte{},
		"bytes":      []byte{0, 1, 255},
		"duration":   -3 * time.Second,
		"ints.nil":   []int(nil),
		"ints.e":     []int{},
		"ints":       []int{1, -2, math.MaxInt},
		"strings":    []string{"a", "", "ü"},
		"bytess":     [][]byte{nil, {}, {9}},
		"durations":  []time.Duration{time.Millisecond, -1},
		"floats":     []float64{math.NaN(), 0, math.Copysign(0, -1)},
		"float32s":   []float32{1, float32(math.Inf(-1))},
		"any":        []any{nil, 1, "x", []any{true, nil}, map[string]any{"k": 1.5}, []int(nil), int8(-1), uintptr(0)},
		"map.nil":    map[string]int(nil),
		"map.e":      map[string]int{},
		"map":        map[string]int{"a": 1, "b": 2, "": 0},
		"map.nested": map[string][]map[string]uint16{"x": {nil, {}, {"y": 3}}, "z": nil},
		"map.any":    map[string]any{"": nil, "d": time.Second, "s": []string(nil), "m": map[string]any{}},
		"grid":       [][]int8{{1, 2}, nil, {}},
	} {
		m = m.Set(k, v)
	}
	m = memStampKey.Set(m, memStamp{Turn: 513, Tag: "tag"})
	m = memLabelKey.Set(m, memLabel{"label"})
	return m
}

// memTreeDef is the definition the Tree saves of these tests restore on:
// it has a random node and a counter, so that saves have every section.
var memTreeDef = bt.Sequence(bt.RepeatN(3, bt.Leaf("a")), bt.Random(bt.Leaf("b"), bt.Leaf("c")))

// memStepped is the stepped tree whose saves these tests restore: its
// agent keeps a turn count in memory.
func memStepped(t testing.TB) bt.Stepped[string] {
	t.Helper()
	def := bt.Root(bt.Sequence(bt.Leaf("count"), bt.RepeatRange(1, 3, bt.Leaf("b")), bt.Wait[string](50*time.Millisecond)))
	s, err := bt.NewStepped(def, bt.Agent[string]{
		MemoryAction: func(v string, b *bt.Blackboard) bt.Result {
			n, _ := memTurns.Get(b)
			memTurns.Put(b, n+1)
			if v == "b" && n%3 == 0 {
				return bt.ResultRunning
			}
			return bt.ResultSuccess
		},
	}, bt.WithTurnClock(20*time.Millisecond), bt.WithSeed(5))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var memTurns = memory.NewKey[int]("turns")

// sameValue reports whether a and b are deeply equal as reflect.DeepEqual
// has it, except that floats compare by their bits (so a NaN equals
// itself, and 0 does not equal -0), and types must match exactly.
func sameValue(a, b reflect.Value) bool {
	if a.IsValid() != b.IsValid() {
		return false
	}
	if !a.IsValid() {
		return true
	}
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32:
		return math.Float32bits(a.Interface().(float32)) == math.Float32bits(b.Interface().(float32))
	case reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameValue(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !sameValue(it.Value(), bv) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// memDiff returns "" when got and want have the same keys, in the same
// order, with the same values (sameValue), else what differs.
func memDiff(got, want memory.Map) string {
	type kv struct {
		k string
		v any
	}
	var g, w []kv
	for k, v := range got.All() {
		g = append(g, kv{k, v})
	}
	for k, v := range want.All() {
		w = append(w, kv{k, v})
	}
	for i := range max(len(g), len(w)) {
		switch {
		case i >= len(g):
			return fmt.Sprintf("key %q (%#v) is missing", w[i].k, w[i].v)
		case i >= len(w):
			return fmt.Sprintf("extra key %q (%#v)", g[i].k, g[i].v)
		case g[i].k != w[i].k:
			return fmt.Sprintf("key %d is %q, want %q", i, g[i].k, w[i].k)
		case !sameValue(reflect.ValueOf(&g[i].v).Elem(), reflect.ValueOf(&w[i].v).Elem()):
			return fmt.Sprintf("key %q is %#v (%T), want %#v (%T)", g[i].k, g[i].v, g[i].v, w[i].v, w[i].v)
		}
	}
	return ""
}

// memSeeds returns valid saves, of both styles, holding memories of every
// value type, and damaged variants of them.
func memSeeds(t testing.TB) [][]byte {
	full := memoryOfEveryType()
	small := memory.Map{}.Set("k", []any{int16(3), "s"}).Set("z", map[string][]byte{"b": {1}})
	var valid [][]byte
	tr := bt.Start(memTreeDef, bt.WithSeed(2))
	st := memStepped(t)
	for i, m := range []memory.Map{full, small, {}} {
		for j := range 3 {
			b, err := tr.WithMemory(m).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			sb, err := st.WithMemory(m).MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			valid = append(valid, b, sb)
			tr = tr.Signal([]bt.Status{bt.Success, bt.Failure}[(i+j)%2])
			if st, err = st.Step(); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := append([][]byte(nil), valid...)
	for _, b := range valid[:4] {
		n := len(b)
		out = append(out, b[:n-1], b[:n/2], append(bytes.Clone(b), 0))
		for _, at := range []int{n - 1, n - 5, n - 20} {
			c := bytes.Clone(b)
			c[at] ^= 0x81
			out = append(out, c)
		}
	}
	return out
}

// allocated returns the bytes the program allocated so far.
func allocated() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc
}

// memAllocBound is what restoring n bytes may allocate: a restored value
// takes a few words per byte of its saved form (a slice header, a boxed
// element, a map entry), plus a constant.
func memAllocBound(n int) uint64 { return 256*uint64(n) + 64<<10 }

// FuzzMemoryRestore gives arbitrary bytes to Restore and Stepped.Restore:
// never a panic, an error (a *StateError from Restore) or a version that
// re-saves to the very same bytes, in both forms, and keeps its memory
// when signalled or stepped; and no more allocation than memAllocBound.
func FuzzMemoryRestore(f *testing.F) {
	for _, b := range memSeeds(f) {
		f.Add(b)
	}
	st := memStepped(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		before := allocated()
		tr, terr := bt.Restore(memTreeDef, data)
		if got := allocated() - before; got > memAllocBound(len(data)) {
			t.Fatalf("Restore of %d bytes allocated %d bytes", len(data), got)
		}
		if terr != nil {
			if !errors.As(terr, new(*bt.StateError)) {
				t.Fatalf("Restore: %v is not a *StateError", terr)
			}
		} else {
			checkTreeResave(t, tr, data)
		}
		before = allocated()
		s, serr := st.Restore(data)
		if got := allocated() - before; got > memAllocBound(len(data)) {
			t.Fatalf("Stepped.Restore of %d bytes allocated %d bytes", len(data), got)
		}
		if serr == nil {
			checkSteppedResave(t, s, data)
		}
	})
}

// checkTreeResave checks a Tree restored from data: it saves back to data,
// its JSON form restores to the same memory and the same bytes, and
// signals keep its memory.
func checkTreeResave(t *testing.T, tr bt.Tree[string], data []byte) {
	t.Helper()
	back, err := tr.MarshalBinary()
	if err != nil {
		t.Fatalf("a restored tree does not save: %v", err)
	}
	if !bytes.Equal(back, data) {
		t.Fatalf("Restore then MarshalBinary:\n got % x\nwant % x", back, data)
	}
	js, err := tr.MarshalJSON()
	if err != nil {
		t.Fatalf("a restored tree does not save as JSON: %v", err)
	}
	fromJSON, err := bt.Restore(memTreeDef, js)
	if err != nil {
		t.Fatalf("Restore(%s): %v", js, err)
	}
	if d := memDiff(fromJSON.Memory(), tr.Memory()); d != "" {
		t.Fatalf("through JSON: %s", d)
	}
	if again, _ := fromJSON.MarshalBinary(); !bytes.Equal(again, data) {
		t.Fatalf("through JSON then MarshalBinary:\n got % x\nwant % x", again, data)
	}
	next := tr
	for i := range 5 {
		_ = next.Value()
		next = next.Signal([]bt.Status{bt.Success, bt.Failure}[i%2])
		if d := memDiff(next.Memory(), tr.Memory()); d != "" {
			t.Fatalf("signal %d changed the memory: %s", i, d)
		}
	}
}

// checkSteppedResave checks a stepped version restored from data: it
// saves back to data, in both forms, and steps.
func checkSteppedResave(t *testing.T, s bt.Stepped[string], data []byte) {
	t.Helper()
	back, err := s.MarshalBinary()
	if err != nil {
		t.Fatalf("a restored stepped version does not save: %v", err)
	}
	if !bytes.Equal(back, data) {
		t.Fatalf("Stepped.Restore then MarshalBinary:\n got % x\nwant % x", back, data)
	}
	js, err := s.MarshalJSON()
	if err != nil {
		t.Fatalf("a restored stepped version does not save as JSON: %v", err)
	}
	fromJSON, err := s.Restore(js)
	if err != nil {
		t.Fatalf("Stepped.Restore(%s): %v", js, err)
	}
	if d := memDiff(fromJSON.Memory(), s.Memory()); d != "" {
		t.Fatalf("through JSON: %s", d)
	}
	for range 3 {
		if s, err = s.Step(); err != nil {
			t.Fatalf("a restored stepped version does not step: %v", err)
		}
	}
}

// FuzzMemoryRoundTrip builds a memory from the fuzzer's bytes (memGen) and
// checks that both styles save it, in both forms, and restore it with
// every value the same (sameValue), re-saving to the same bytes.
func FuzzMemoryRoundTrip(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x05key\x13\x03\x02\x01\x00\x10\x20\x30\x40\x50\x60\x70\x80\x90"))
	for i := range 24 {
		f.Add([]byte{1, 1, 'k', byte(i), 3, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	}
	f.Add(bytes.Repeat([]byte{3, 2, 'a', 0x13, 0x14, 0x15, 3}, 12))
	st := memStepped(f)
	tr := bt.Start(memTreeDef, bt.WithSeed(4))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := (&memGen{b: data}).memory()
		checkMemoryRoundTrip(t, tr, st, m)
	})
}

// checkMemoryRoundTrip saves tr and st with the memory m, in both forms,
// and checks what they restore.
func checkMemoryRoundTrip(t *testing.T, tr bt.Tree[string], st bt.Stepped[string], m memory.Map) {
	t.Helper()
	tm := tr.WithMemory(m)
	b, err := tm.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary of %v: %v", m, err)
	}
	r, err := bt.Restore(memTreeDef, b)
	if err != nil {
		t.Fatalf("Restore of MarshalBinary of %v: %v", m, err)
	}
	if d := memDiff(r.Memory(), m); d != "" {
		t.Fatalf("Tree binary round trip: %s", d)
	}
	if again, _ := r.MarshalBinary(); !bytes.Equal(again, b) {
		t.Fatalf("Tree saved again:\n got % x\nwant % x", again, b)
	}
	js, err := tm.MarshalJSON()
	if err != nil {
		t.Fatalf("MarshalJSON: %v", err)
	}
	if r, err = bt.Restore(memTreeDef, js); err != nil {
		t.Fatalf("Restore(%s): %v", js, err)
	}
	if d := memDiff(r.Memory(), m); d != "" {
		t.Fatalf("Tree JSON round trip: %s", d)
	}
	sm := st.WithMemory(m)
	if b, err = sm.MarshalBinary(); err != nil {
		t.Fatalf("Stepped.MarshalBinary: %v", err)
	}
	s, err := st.Restore(b)
	if err != nil {
		t.Fatalf("Stepped.Restore: %v", err)
	}
	if d := memDiff(s.Memory(), m); d != "" {
		t.Fatalf("Stepped binary round trip: %s", d)
	}
	if again, _ := s.MarshalBinary(); !bytes.Equal(again, b) {
		t.Fatalf("Stepped saved again:\n got % x\nwant % x", again, b)
	}
	if js, err = sm.MarshalJSON(); err != nil {
		t.Fatalf("Stepped.MarshalJSON: %v", err)
	}
	if s, err = st.Restore(js); err != nil {
		t.Fatalf("Stepped.Restore of the JSON form: %v", err)
	}
	if d := memDiff(s.Memory(), m); d != "" {
		t.Fatalf("Stepped JSON round trip: %s", d)
	}
}

// memGen draws a memory from bytes: each key a short name, each value of a
// type drawn from the bytes (every kind a memory saves, nested up to
// memGenDepth), with contents drawn from the bytes, floats from raw bits.
// It reads zeros once the bytes run out.
type memGen struct{ b []byte }

// memGenDepth is the most slices and maps the generator nests in one
// type: the saved form's limit (memory's maxTypeNest, 4), past which
// MarshalBinary refuses the value, as memory's own tests check.
const memGenDepth = 4

func (g *memGen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

func (g *memGen) uint64() uint64 {
	var x uint64
	for range 8 {
		x = x<<8 | uint64(g.byte())
	}
	return x
}

func (g *memGen) bytes() []byte {
	n := int(g.byte() % 8)
	out := make([]byte, 0, n)
	for range n {
		out = append(out, g.byte())
	}
	return out
}

func (g *memGen) memory() memory.Map {
	var m memory.Map
	n := int(g.byte() % 6)
	for range n {
		k := string(g.bytes())
		switch g.byte() % 16 {
		case 0:
			m = memStampKey.Set(m, memStamp{Turn: uint16(g.uint64()), Tag: string(g.bytes())})
		case 1:
			m = memLabelKey.Set(m, memLabel{string(g.bytes())})
		default:
			m = m.Set(k, g.value(g.typ(0)))
		}
	}
	return m
}

// memGenTypes are the types memGen draws, besides slices and maps.
var memGenTypes = []reflect.Type{
	reflect.TypeFor[any](), reflect.TypeFor[bool](), reflect.TypeFor[int](), reflect.TypeFor[int8](),
	reflect.TypeFor[int16](), reflect.TypeFor[int32](), reflect.TypeFor[int64](), reflect.TypeFor[uint](),
	reflect.TypeFor[uint8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[uint64](),
	reflect.TypeFor[uintptr](), reflect.TypeFor[float32](), reflect.TypeFor[float64](), reflect.TypeFor[string](),
	reflect.TypeFor[[]byte](), reflect.TypeFor[time.Duration](),
}

func (g *memGen) typ(depth int) reflect.Type {
	c := int(g.byte()) % (len(memGenTypes) + 2)
	if depth >= memGenDepth && c >= len(memGenTypes) {
		c %= len(memGenTypes)
	}
	switch c {
	case len(memGenTypes):
		return reflect.SliceOf(g.typ(depth + 1))
	case len(memGenTypes) + 1:
		return reflect.MapOf(reflect.TypeFor[string](), g.typ(depth+1))
	}
	return memGenTypes[c]
}

// value draws a value of type t; for an interface type, a value of a
// drawn type or nil.
func (g *memGen) value(t reflect.Type) any {
	return g.rvalue(t, 0).Interface()
}

func (g *memGen) rvalue(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	switch t.Kind() {
	case reflect.Interface:
		if g.byte()%8 == 0 {
			return v // nil
		}
		v.Set(g.rvalue(g.typ(depth+1), depth+1))
	case reflect.Bool:
		v.SetBool(g.byte()%2 == 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := int64(g.uint64())
		for v.OverflowInt(x) {
			x >>= 8
		}
		v.SetInt(x)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		x := g.uint64()
		for v.OverflowUint(x) {
			x >>= 8
		}
		v.SetUint(x)
	case reflect.Float32:
		v.Set(reflect.ValueOf(math.Float32frombits(uint32(g.uint64()))))
	case reflect.Float64:
		v.SetFloat(math.Float64frombits(g.uint64()))
	case reflect.String:
		v.SetString(string(g.bytes()))
	case reflect.Slice:
		c := g.byte()
		if c%5 == 0 {
			return v // nil
		}
		n := int(c/5) % 4
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			s.Index(i).Set(g.rvalue(t.Elem(), depth+1))
		}
		v.Set(s)
	case reflect.Map:
		c := g.byte()
		if c%5 == 0 {
			return v // nil
		}
		n := int(c/5) % 4
		mv := reflect.MakeMapWithSize(t, n)
		for range n {
			mv.SetMapIndex(reflect.ValueOf(string(g.bytes())), g.rvalue(t.Elem(), depth+1))
		}
		v.Set(mv)
	}
	return v
}

// TestMemorySaveEveryType saves a memory holding every value type in both
// styles and both forms, and restores it with every value the same.
func TestMemorySaveEveryType(t *testing.T) {
	checkMemoryRoundTrip(t, bt.Start(memTreeDef, bt.WithSeed(1)), memStepped(t), memoryOfEveryType())
}

// TestMemoryRestoreSeeds runs the checks of FuzzMemoryRestore on its valid
// seeds, which must restore in the style they were saved in.
func TestMemoryRestoreSeeds(t *testing.T) {
	st := memStepped(t)
	for i, b := range memSeeds(t)[:18] {
		if i%2 == 0 {
			tr, err := bt.Restore(memTreeDef, b)
			if err != nil {
				t.Fatalf("seed %d: %v", i, err)
			}
			checkTreeResave(t, tr, b)
		} else {
			s, err := st.Restore(b)
			if err != nil {
				t.Fatalf("seed %d: %v", i, err)
			}
			checkSteppedResave(t, s, b)
		}
	}
}

// The tags of the memory's binary form (memory/codec.go), for the inputs
// the tests below make by hand.
const (
	memTagAny    = 1
	memTagInt    = 3
	memTagString = 16
	memTagBytes  = 17
	memTagSlice  = 19
	memTagMap    = 20
	memTagBinary = 21
)

// memSaves returns the saves of a tree version and of a stepped version
// whose memory section is mem: the binary form of a memory.Map, valid or not.
func memSaves(t *testing.T, mem []byte) (tree, stepped []byte) {
	t.Helper()
	tb, err := bt.Start(memTreeDef, bt.WithSeed(2)).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	sb, err := memStepped(t).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if tb[3] != 1 || string(sb[:4]) != "BTS1" {
		t.Fatalf("saves without memory start % x and %q", tb[:4], sb[:4])
	}
	tb[3], sb[3] = 2, '2'
	return append(tb, mem...), append(sb, mem...)
}

// memKey returns the start of a memory section with one key, name.
func memKey(name string) []byte {
	return append([]byte{1, byte(len(name))}, name...)
}

// TestMemoryRestoreHugeCounts restores saves of about 100 bytes whose
// memory claims a billion keys, a billion-byte key or string, or a
// billion-element []byte, slice or map: each must fail, naming the
// memory, without allocating more than memAllocBound.
func TestMemoryRestoreHugeCounts(t *testing.T) {
	billion := binary.AppendUvarint(nil, 1e9)
	cases := map[string][]byte{
		"keys":       billion,
		"key length": append([]byte{1}, billion...),
		"string":     append(append(memKey("k"), memTagString), billion...),
		"bytes":      append(append(memKey("k"), memTagBytes), billion...),
		"slice":      append(append(memKey("k"), memTagSlice, memTagInt), billion...),
		"map":        append(append(memKey("k"), memTagMap, memTagInt), billion...),
		"nested":     append(append(memKey("k"), memTagSlice, memTagSlice, memTagSlice, memTagAny, 3, 3, 3), billion...),
		"any":        append(append(memKey("k"), memTagSlice, memTagAny, 2, memTagSlice, memTagInt), billion...),
		"marshaler":  append(append(memKey("fuzz.stamp"), memTagBinary), billion...),
	}
	st := memStepped(t)
	for name, mem := range cases {
		mem = append(mem, make([]byte, 100-len(mem))...)
		tb, sb := memSaves(t, mem)
		before := allocated()
		_, err := bt.Restore(memTreeDef, tb)
		grew := allocated() - before
		if err == nil || !errors.As(err, new(*bt.StateError)) || !bytes.Contains([]byte(err.Error()), []byte("memory")) {
			t.Errorf("%s: Restore: %v, want a *StateError about the memory", name, err)
		}
		if grew > memAllocBound(len(tb)) {
			t.Errorf("%s: Restore of %d bytes allocated %d bytes", name, len(tb), grew)
		}
		before = allocated()
		_, err = st.Restore(sb)
		grew = allocated() - before
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte("memory")) {
			t.Errorf("%s: Stepped.Restore: %v, want an error about the memory", name, err)
		}
		if grew > memAllocBound(len(sb)) {
			t.Errorf("%s: Stepped.Restore of %d bytes allocated %d bytes", name, len(sb), grew)
		}
		t.Logf("%s: Stepped.Restore of %d bytes allocated %d bytes", name, len(sb), grew)
	}
}

// restoreEither restores the saves of memSaves(mem), as a tree and as a
// stepped version, and returns the error of each, and what a successful
// one saves back.
func restoreEither(t *testing.T, mem []byte) (terr, serr error, tback, sback []byte) {
	t.Helper()
	tb, sb := memSaves(t, mem)
	tr, terr := bt.Restore(memTreeDef, tb)
	if terr == nil {
		tback, _ = tr.MarshalBinary()
	}
	s, serr := memStepped(t).Restore(sb)
	if serr == nil {
		sback, _ = s.MarshalBinary()
	}
	return terr, serr, tback, sback
}

// TestMemoryRestoreEmptySection: a save holds a memory section only for a
// non-empty memory (format version 2, "BTS2"), so a section with no keys
// is not a save's; restoring it would re-save to other bytes (version 1,
// no section). It must be an error.
func TestMemoryRestoreEmptySection(t *testing.T) {
	terr, serr, tback, sback := restoreEither(t, []byte{0})
	if terr == nil {
		t.Errorf("Restore of a version 2 save with an empty memory section: no error, re-saves as % x", tback)
	}
	if serr == nil {
		t.Errorf("Stepped.Restore of a BTS2 save with an empty memory section: no error, re-saves as % x", sback)
	}
}

// TestMemoryRestoreInterfaceType: the type of a value is concrete (an
// int, a slice, ...); the interface type (tag 1) is only that of the
// elements of []any and map[string]any. A key's value, or an element of
// []any, saved as of interface type must be an error: restoring it would
// re-save without the tag.
func TestMemoryRestoreInterfaceType(t *testing.T) {
	for name, mem := range map[string][]byte{
		"key's value":      append(memKey("k"), memTagAny, memTagInt, 2),
		"element of []any": append(memKey("k"), memTagSlice, memTagAny, 2, memTagAny, memTagInt, 2),
	} {
		terr, serr, tback, sback := restoreEither(t, mem)
		if terr == nil {
			t.Errorf("%s: Restore: no error, re-saves as % x", name, tback)
		}
		if serr == nil {
			t.Errorf("%s: Stepped.Restore: no error, re-saves as % x", name, sback)
		}
	}
}

// TestMemoryRestoreNonMinimalNumber: a number of the memory written in
// more bytes than it needs (0x82 0x00 for 2, which the saves write as
// 0x02) re-saves to other bytes, so restoring it should fail.
func TestMemoryRestoreNonMinimalNumber(t *testing.T) {
	terr, serr, tback, sback := restoreEither(t, append(memKey("k"), memTagInt, 0x84, 0x00))
	if terr == nil {
		t.Errorf("Restore: no error, re-saves as % x", tback)
	}
	if serr == nil {
		t.Errorf("Stepped.Restore: no error, re-saves as % x", sback)
	}
}

// TestMemoryFloat32SignalingNaN saves a float32 signaling NaN, which must
// restore with its bits.
func TestMemoryFloat32SignalingNaN(t *testing.T) {
	m := memory.Map{}.Set("f", math.Float32frombits(0x7f800001)).Set("fs", []float32{math.Float32frombits(0xff800002)})
	checkMemoryRoundTrip(t, bt.Start(memTreeDef, bt.WithSeed(1)), memStepped(t), m)
}

// TestMemorySliceAtEnd saves memories whose last value is a slice or map
// of one-byte elements, or an empty one: what the save ends with. The
// reader once checked a slice's length plus one against the bytes left,
// and refused these valid saves ("length 3: more than the 2 bytes left"
// for []int{4, -1}).
func TestMemorySliceAtEnd(t *testing.T) {
	tr, st := bt.Start(memTreeDef, bt.WithSeed(1)), memStepped(t)
	for _, v := range []any{[]int{}, []int{4, -1}, []bool{true, false, true}, map[string]int{}, []any{nil}, [][]int8{{}}, []int8{1}} {
		t.Run(fmt.Sprintf("%T%v", v, v), func(t *testing.T) {
			checkMemoryRoundTrip(t, tr, st, memory.Map{}.Set("a", 1).Set("z", v))
		})
	}
}

// TestMemoryRestoreErrorOffsets: an error in a save's memory section
// names the byte of the whole save (package memory reads the section
// alone, from its byte 0), the key, and what was wrong; so does data after
// the memory.
func TestMemoryRestoreErrorOffsets(t *testing.T) {
	for _, c := range []struct {
		name string
		mem  []byte
		at   int // in mem
		want string
	}{
		{"bad tag", append(memKey("k"), 99), 3, `memory: key "k", byte %d: unknown type tag 99`},
		{"after the memory", append(memKey("k"), memTagInt, 2, 0), 5, "memory: byte %d: 1 byte after the last key's value"},
		{"no keys", []byte{0}, 0, "memory: byte %d: no keys"},
	} {
		tb, sb := memSaves(t, c.mem)
		_, terr := bt.Restore(memTreeDef, tb)
		if want := fmt.Sprintf(c.want, len(tb)-len(c.mem)+c.at); terr == nil || !strings.Contains(terr.Error(), want) {
			t.Errorf("%s: Restore: %v, want %q", c.name, terr, want)
		}
		_, serr := memStepped(t).Restore(sb)
		if want := fmt.Sprintf(c.want, len(sb)-len(c.mem)+c.at); serr == nil || !strings.Contains(serr.Error(), want) {
			t.Errorf("%s: Stepped.Restore: %v, want %q", c.name, serr, want)
		}
		var fe *memory.FormatError
		if !errors.As(terr, &fe) || !errors.As(serr, &fe) {
			t.Errorf("%s: not a *memory.FormatError: %v, %v", c.name, terr, serr)
		}
	}
}
