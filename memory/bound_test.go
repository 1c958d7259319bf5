package memory

import (
	"encoding/binary"
	"runtime"
	"slices"
	"testing"
)

// decodeAllocBudget is the documented bound of UnmarshalBinary's
// allocation, in bytes per byte of data (see Map.UnmarshalBinary).
const decodeAllocBudget = 160

// typeHeapBudget bounds what decoding may keep for good: the Go types of
// every nesting of slices and maps that the form allows, made once.
const typeHeapBudget = 2 << 20

// nestedType returns the tags of a type of depth slices and maps over
// tInt, chosen by the bits of i.
func nestedType(i, depth int, elem typeTag) []byte {
	b := make([]byte, 0, depth+1)
	for d := range depth {
		if i>>d&1 == 0 {
			b = append(b, byte(tSlice))
		} else {
			b = append(b, byte(tMap))
		}
	}
	return append(b, byte(elem))
}

// oneKey returns a memory of the key "k" whose value has the type tags
// typ and the payload.
func oneKey(typ []byte, payload ...byte) []byte {
	return append(append([]byte{1, 1, 'k'}, typ...), payload...)
}

// TestDecodeBuildsNoTypes decodes many inputs, each naming a type of its
// own (slices and maps nested up to 10 deep), and every type the form
// allows; the heap, collected, stays within typeHeapBudget of where it was:
// hostile bytes cannot make the reader build Go types, which are never
// freed, without end.
func TestDecodeBuildsNoTypes(t *testing.T) {
	var inputs [][]byte
	for depth := 0; depth <= 10; depth++ {
		for i := range 1 << min(depth, 9) {
			inputs = append(inputs, oneKey(nestedType(i, depth, tInt16), 0))
		}
	}
	for tag := tAny; tag <= tDuration; tag++ { // every type the form allows
		for depth := 0; depth <= maxTypeNest; depth++ {
			for i := range 1 << depth {
				inputs = append(inputs, oneKey(nestedType(i, depth, tag), 0))
			}
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ok := 0
	for _, in := range inputs {
		if new(Map).UnmarshalBinary(in) == nil {
			ok++
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	grew := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d inputs (%d read), the heap grew by %d bytes", len(inputs), ok, grew)
	if grew > typeHeapBudget {
		t.Errorf("decoding %d inputs grew the heap by %d bytes, more than %d", len(inputs), grew, typeHeapBudget)
	}
}

// hostile returns inputs of about n bytes each, shaped to make the reader
// allocate as much as it can per byte.
func hostile(n int) map[string][]byte {
	list := func(typ []byte, elem []byte) []byte {
		c := n / len(elem)
		b := append(oneKey(typ), binary.AppendUvarint(nil, uint64(c)+1)...)
		return append(b, slices.Repeat(elem, c)...)
	}
	in := map[string][]byte{
		"[]any of nil":            list([]byte{byte(tSlice), byte(tAny)}, []byte{byte(tNil)}),
		"[]any of big ints":       list([]byte{byte(tSlice), byte(tAny)}, []byte{byte(tInt), 0x80, 0x80, 0x04}),
		"[]any of empty []any":    list([]byte{byte(tSlice), byte(tAny)}, []byte{byte(tSlice), byte(tAny), 1}),
		"[]any of empty maps":     list([]byte{byte(tSlice), byte(tAny)}, []byte{byte(tMap), byte(tBool), 1}),
		"[]map of empty maps":     list([]byte{byte(tSlice), byte(tMap), byte(tAny)}, []byte{1}),
		"[]map of one entry":      list([]byte{byte(tSlice), byte(tMap), byte(tAny)}, []byte{2, 0, byte(tNil)}),
		"[]map of one bool":       list([]byte{byte(tSlice), byte(tMap), byte(tBool)}, []byte{2, 0, 0}),
		"[]string of one byte":    list([]byte{byte(tSlice), byte(tString)}, []byte{1, 'x'}),
		"[][]int empty":           list([]byte{byte(tSlice), byte(tSlice), byte(tInt)}, []byte{1}),
		"[][]byte of one byte":    list([]byte{byte(tSlice), byte(tBytes)}, []byte{2, 'x'}),
		"[]any of strings":        list([]byte{byte(tSlice), byte(tAny)}, []byte{byte(tString), 1, 'x'}),
		"[]any of []int of one":   list([]byte{byte(tSlice), byte(tAny)}, []byte{byte(tSlice), byte(tInt), 2, 0x80, 0x04}),
		"[]any of map of one nil": list([]byte{byte(tSlice), byte(tAny)}, []byte{byte(tMap), byte(tAny), 2, 0, byte(tNil)}),
	}
	// a map of many entries, and a memory of many keys
	for _, name := range []string{"map of many entries", "many keys"} {
		var b []byte
		c := n / 6
		if name == "many keys" {
			b = binary.AppendUvarint(b, uint64(c))
		} else {
			b = append(oneKey([]byte{byte(tMap), byte(tAny)}), binary.AppendUvarint(nil, uint64(c)+1)...)
		}
		for i := range c {
			b = append(b, 4)
			b = binary.BigEndian.AppendUint32(b, uint32(i))
			b = append(b, byte(tNil))
		}
		in[name] = b
	}
	// a deep nesting of []any, again and again
	var deep []byte
	for range maxDepth / 4 {
		deep = append(deep, byte(tSlice), byte(tAny), 2)
	}
	deep = append(deep, byte(tNil))
	in["nested []any"] = list([]byte{byte(tSlice), byte(tAny)}, deep)
	// elements of as many types as fit, nested 12 deep
	var types []byte
	for i := 0; len(types) < n && i < 1<<12; i++ {
		types = append(append(types, nestedType(i, 12, tUint32)...), 0)
	}
	in["[]any of many types"] = append(append(oneKey([]byte{byte(tSlice), byte(tAny)}), binary.AppendUvarint(nil, uint64(min(n/13, 1<<12))+1)...), types...)
	return in
}

// TestDecodeAllocPerByte measures the bytes that UnmarshalBinary
// allocates per byte of data on inputs made to allocate the most; each
// stays under decodeAllocBudget.
func TestDecodeAllocPerByte(t *testing.T) {
	worst := 0.0
	for name, in := range hostile(1 << 16) {
		var m Map
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const runs = 1 // the first: it makes the types a later one finds made
		for range runs {
			if err := m.UnmarshalBinary(in); err != nil && name != "[]any of many types" {
				t.Fatalf("%s: %v", name, err)
			}
		}
		runtime.ReadMemStats(&after)
		per := float64(after.TotalAlloc-before.TotalAlloc) / runs / float64(len(in))
		t.Logf("%-26s %7d bytes: %6.1f bytes allocated per byte", name, len(in), per)
		worst = max(worst, per)
		if per > decodeAllocBudget {
			t.Errorf("%s: %.1f bytes allocated per byte of data, more than %d", name, per, decodeAllocBudget)
		}
	}
	t.Logf("worst: %.1f bytes per byte", worst)
}
