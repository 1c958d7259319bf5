package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/internal/heappeak"
)

// checkPeakBudget bounds the heap bt check needs at its peak per byte of
// the file it checks (issue 32: at most 15 times the input's bytes).
const checkPeakBudget = 15

// TestCheckPeakHeap runs bt check in process on a 3.3 MB file of 100,000
// named roots and no main root: one error, and the heap grows by at most
// checkPeakBudget bytes per byte of the file while it runs, the file read
// included (HeapInuse, sampled: heappeak.Run says why), the figure
// logged. It was about 37 (46 of the process's resident memory) when bt
// check parsed the file three times, each building the whole tree, before
// Check read it twice more.
func TestCheckPeakHeap(t *testing.T) {
	var b strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&b, "root [name%06d] { action [A] }\n", i)
	}
	file := filepath.Join(t.TempDir(), "roots.mdsl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	size := b.Len()
	b = strings.Builder{}
	var stdout, stderr bytes.Buffer
	code := 0
	peak := heappeak.Run(func() { code = run([]string{"check", file}, &stdout, &stderr) })
	t.Logf("%d bytes: heap peak %d bytes above the start (%.1f per byte)", size, peak, float64(peak)/float64(size))
	if code != 1 || strings.Count(stderr.String(), "no main root") != 1 {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
	if peak > checkPeakBudget*uint64(size) {
		t.Errorf("bt check's heap peak %d bytes, more than %d per byte of the %d", peak, checkPeakBudget, size)
	}
}
