package behaviortree

import (
	"encoding/binary"
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

// TestFPHashIsFNV checks that fpHash is hash/fnv's New64a of the uvarints
// and bytes it is given: the fingerprints that saves carry depend on it.
func TestFPHashIsFNV(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var f fpHash
		f.init()
		h := fnv.New64a()
		var buf [binary.MaxVarintLen64]byte
		for range r.IntN(20) {
			if r.IntN(4) == 0 {
				b := []byte("custom.Traversal")[:r.IntN(17)]
				f.bytes(b)
				h.Write(b)
				continue
			}
			x := r.Uint64() >> r.IntN(64)
			f.put(x)
			h.Write(buf[:binary.PutUvarint(buf[:], x)])
		}
		if f.sum() != h.Sum64() {
			t.Fatalf("fpHash %016x, fnv %016x", f.sum(), h.Sum64())
		}
	}
}
