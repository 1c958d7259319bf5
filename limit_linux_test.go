//go:build linux

package behaviortree_test

import (
	"fmt"
	"os"
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"
	"unsafe"
)

// TestLimitInterleaved measures (a) and (b) beside their tabulated limit
// (limit_test.go) in short alternating slices, by the CPU time of the
// measuring thread: on a machine that other work keeps busy, slices a few
// milliseconds apart see the same load, and the thread's CPU time leaves
// out the time it waited for a core. It runs only with LIMIT_INTERLEAVE set
// to a number of rounds, and logs for each benchmark the medians over the
// rounds of the engine's and the table's ns per op and of their ratio:
//
//	LIMIT_INTERLEAVE=200 go test -run TestLimitInterleaved -v .
func TestLimitInterleaved(t *testing.T) {
	rounds := 0
	fmt.Sscan(os.Getenv("LIMIT_INTERLEAVE"), &rounds)
	if rounds <= 0 {
		t.Skip("set LIMIT_INTERLEAVE to a number of rounds to run it")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for _, p := range limitPairs(t) {
		// Ops per slice: about 2 ms of the engine.
		k := 1
		for threadCPU(func() { p.tree(k) }) < 2*time.Millisecond && k < 1<<24 {
			k *= 2
		}
		var ours, table, ratio []float64
		for range rounds {
			a := float64(threadCPU(func() { p.tree(k) })) / float64(k)
			b := float64(threadCPU(func() { p.table(k) })) / float64(k)
			ours, table, ratio = append(ours, a), append(table, b), append(ratio, a/b)
		}
		t.Logf("| %s | %.2f | %.2f | %.2f |", p.name, median(ours), median(table), median(ratio))
	}
}

// threadCPU returns the CPU time that f takes on the calling thread
// (locked to it by the caller).
func threadCPU(f func()) time.Duration {
	before := threadClock()
	f()
	return threadClock() - before
}

// threadClock returns the calling thread's CPU time
// (CLOCK_THREAD_CPUTIME_ID, to the nanosecond).
func threadClock() time.Duration {
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3 /* CLOCK_THREAD_CPUTIME_ID */, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic(errno)
	}
	return time.Duration(ts.Nano())
}

// median returns the median of x.
func median(x []float64) float64 {
	x = slices.Clone(x)
	slices.Sort(x)
	return x[len(x)/2]
}
