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
		h = signal(h, statusOf(sig[i&(1<<16-1)]))
	}
}

// BenchmarkHistoryBranch signals from a History value whose next slot is
// taken, as for a second outcome of the same value: the signal starts a
// branch, with one cell for the new version.
func BenchmarkHistoryBranch(b *testing.B) {
	h := bt.NewHistory(bt.Start(balanced(8)))
	sig := bits(1 << 16)
	for i := 0; i < 1000; i++ {
		h = signal(h, statusOf(sig[i]))
	}
	signal(h, bt.Success) // takes the next slot
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		signal(h, statusOf(sig[i&(1<<16-1)]))
	}
}

// BenchmarkHistoryUndoSignal undoes one version and signals again, each
// time: a branch one version back.
func BenchmarkHistoryUndoSignal(b *testing.B) {
	h := bt.NewHistory(bt.Start(balanced(8)))
	sig := bits(1 << 16)
	for i := 0; i < 1000; i++ {
		h = signal(h, statusOf(sig[i]))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h = signal(h.Undo(), statusOf(sig[i&(1<<16-1)]))
	}
}
