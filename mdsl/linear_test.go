package mdsl

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/zipbt/behaviortree/internal/heappeak"
)

// checkAllocBudget bounds what Check allocates per byte of a text.
const checkAllocBudget = 40

// manyNamedRoots returns a text of n named roots and no main root, 33
// bytes each: 3.3 MB for 100,000.
func manyNamedRoots(n int) []byte {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "root [name%06d] { action [A] }\n", i)
	}
	return []byte(b.String())
}

// TestCheckLinear checks the 3.3 MB text of 100,000 named roots (its size
// does not depend on -short): one error ("no main root", once, where
// Check used to mend a root and read the whole text again for each of 50),
// and Check allocates at most checkAllocBudget bytes, in all, per byte of
// the text (about 18: one reading in each mode, each node built from
// stubs; it was 88 when Check built the whole tree of each named root). Its time is logged, not asserted (about 1 s).
func TestCheckLinear(t *testing.T) {
	src := manyNamedRoots(100_000)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	errs := Check("roots.mdsl", src)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes: %v, %d bytes allocated (%.1f per byte), %d errors", len(src), took, alloc, float64(alloc)/float64(len(src)), len(errs))
	if got := checkLines(errs); len(got) != 1 || got[0] != "1:1: no main root: one root must have no name" {
		t.Errorf("errors %q, want only the one of no main root", got[:min(len(got), 3)])
	}
	if alloc > checkAllocBudget*uint64(len(src)) {
		t.Errorf("Check allocated %d bytes, more than %d per byte of the %d", alloc, checkAllocBudget, len(src))
	}
}

// TestCheckManyErrorsLinear: a 3 MB text whose errors each need another
// reading (a branch to an unknown root in each of 100,000 named roots)
// is read at most maxCheckRead bytes in all: the first errors are
// reported, and the allocation stays within checkAllocBudget per byte.
func TestCheckManyErrorsLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("root { action [A] }\n")
	for i := range 100_000 {
		fmt.Fprintf(&b, "root [n%06d] { branch [m%06d] }\n", i, i)
	}
	src := []byte(b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	errs := Check("branches.mdsl", src)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("%d bytes: %v, %d bytes allocated (%.1f per byte), %d errors", len(src), took, alloc, float64(alloc)/float64(len(src)), len(errs))
	if len(errs) == 0 || !strings.Contains(errs[0].Msg, "unknown root") {
		t.Fatalf("errors %v", errs)
	}
	if alloc > checkAllocBudget*uint64(len(src)) {
		t.Errorf("Check allocated %d bytes, more than %d per byte of the %d", alloc, checkAllocBudget, len(src))
	}
}

// checkPeakBudget bounds the heap Check holds at its peak per byte of a
// text: what `bt check` needs beside the text itself.
const checkPeakBudget = 15

// TestCheckPeak checks the heap Check needs at its peak for the 3.3 MB
// text of 100,000 named roots (one error, found in both modes): at most
// checkPeakBudget bytes per byte of the text, the figure logged. The peak
// is HeapInuse sampled while Check runs (heappeak.Run says why), so it
// counts the garbage not yet collected, as the process's memory does.
func TestCheckPeak(t *testing.T) {
	src := manyNamedRoots(100_000)
	var errs []*Error
	peak := heappeak.Run(func() { errs = Check("roots.mdsl", src) })
	t.Logf("%d bytes: heap peak %d bytes above the start (%.1f per byte)", len(src), peak, float64(peak)/float64(len(src)))
	if len(errs) != 1 {
		t.Errorf("%d errors, want 1", len(errs))
	}
	if peak > checkPeakBudget*uint64(len(src)) {
		t.Errorf("Check's heap peak %d bytes, more than %d per byte of the %d", peak, checkPeakBudget, len(src))
	}
}
