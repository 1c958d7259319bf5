package memory

import (
	"strconv"
	"testing"
)

// map16 returns a Map of 16 int keys, and its keys.
func map16() (Map, []string) {
	var m Map
	keys := make([]string, 16)
	for i := range keys {
		keys[i] = "key" + strconv.Itoa(i)
		m = m.Set(keys[i], i*1000)
	}
	return m, keys
}

// BenchmarkGet reads a key of a Map of 16 keys.
func BenchmarkGet(b *testing.B) {
	m, keys := map16()
	b.ReportAllocs()
	n := 0
	for i := range b.N {
		v, _ := m.Get(keys[i&15])
		n += v.(int)
	}
	sinkInt = n
}

// BenchmarkSet sets a key of a Map of 16 keys to a new int.
func BenchmarkSet(b *testing.B) {
	m, keys := map16()
	b.ReportAllocs()
	var out Map
	for i := range b.N {
		out = m.Set(keys[i&15], i)
	}
	sinkMap = out
}

var (
	sinkInt int
	sinkMap Map
)
