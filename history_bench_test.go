package behaviortree_test

import (
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// BenchmarkHistorySignalShort appends signals to Histories of at most 1,024
// versions, starting a new one after that: the cost of a signal without the
// garbage collector's scanning of an ever longer History, which
// BenchmarkHistorySignal includes.
func BenchmarkHistorySignalShort(b *testing.B) {
	start := bt.NewHistory(bt.Start(balanced(8)))
	sig := bits(1 << 16)
	h := start
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if i&1023 == 0 {
			h = start
		}
		h = h.Signal(statusOf(sig[i&(1<<16-1)]))
	}
}

// BenchmarkHistoryBranch signals from a History value whose next slot is
// taken, as after an Undo or for a second outcome of the same value: the
// signal copies its part of the last chunk. The History is 1,000 versions
// long, so the copy is about half a chunk.
func BenchmarkHistoryBranch(b *testing.B) {
	h := bt.NewHistory(bt.Start(balanced(8)))
	sig := bits(1 << 16)
	for i := 0; i < 1000; i++ {
		h = h.Signal(statusOf(sig[i]))
	}
	h.Succeed() // takes the next slot
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.Signal(statusOf(sig[i&(1<<16-1)]))
	}
}

// BenchmarkHistoryUndoSignal undoes one version and signals again: a
// branch one version back, which copies too.
func BenchmarkHistoryUndoSignal(b *testing.B) {
	h := bt.NewHistory(bt.Start(balanced(8)))
	sig := bits(1 << 16)
	for i := 0; i < 1000; i++ {
		h = h.Signal(statusOf(sig[i]))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h = h.Undo().Signal(statusOf(sig[i&(1<<16-1)]))
	}
}
