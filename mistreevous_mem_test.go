package behaviortree

import (
	"bytes"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// TestParseMistreevousCapsInput checks that a definition longer than
// MaxMistreevousBytes is refused before it is read, even a valid one.
func TestParseMistreevousCapsInput(t *testing.T) {
	def := []byte(`[{"type":"root","child":{"type":"action","call":"A"}}]`)
	if _, err := ParseMistreevous(def); err != nil {
		t.Fatal(err)
	}
	long := append(def, bytes.Repeat([]byte(" "), MaxMistreevousBytes+1-len(def))...)
	_, err := ParseMistreevous(long)
	if err == nil || !strings.Contains(err.Error(), "longer than 67108864 bytes") {
		t.Errorf("a definition of %d bytes: error %v", len(long), err)
	}
}

// TestParseMistreevousMemory checks that reading a 1 MB definition
// allocates at most 16 times its size in all (with the collector off, an
// upper bound of the peak heap): the reader holds tokens of 12 bytes, not
// decoded values.
func TestParseMistreevousMemory(t *testing.T) {
	def, err := ParseMDSL("mem.mdsl", memText("corpus", 1<<20))
	if err != nil {
		t.Fatal(err)
	}
	js, err := MarshalMistreevous(def)
	if err != nil {
		t.Fatal(err)
	}
	def = Node[Call]{}
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	n, err := ParseMistreevous(js)
	runtime.ReadMemStats(&m1)
	if err != nil {
		t.Fatal(err)
	}
	runtime.KeepAlive(n)
	if ratio := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(len(js)); ratio > 16 {
		t.Errorf("reading %d bytes allocated %.1f times as much", len(js), ratio)
	}
}
