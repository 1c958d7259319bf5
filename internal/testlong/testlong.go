// Package testlong tells the project's tests whether to run at their
// exhaustive sizes.
//
// The README's test command, go test -race ./..., runs every test at a size
// that keeps each package well under a minute on a loaded 2-core machine.
// Tests whose full size costs more (a million-node tree, every corpus case
// through every round trip, thousands of random trees) run a sample by
// default and their whole size when the environment variable BT_LONG is set
// to anything but "" or "0":
//
//	BT_LONG=1 go test -race ./...
//
// .ci/run runs both. The go command's test cache notes that a test read
// BT_LONG, so the two runs do not share cached results.
package testlong

import (
	"os"
	"testing"
)

// Env is the environment variable that asks for the exhaustive sizes.
const Env = "BT_LONG"

// Enabled reports whether BT_LONG asks for the exhaustive sizes.
func Enabled() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// Pick returns long when Enabled, short otherwise.
func Pick[T any](short, long T) T {
	if Enabled() {
		return long
	}
	return short
}

// Skip skips tb unless Enabled, naming what the test costs and how to run
// it.
func Skip(tb testing.TB, cost string) {
	tb.Helper()
	if !Enabled() {
		tb.Skipf("%s: runs with %s=1", cost, Env)
	}
}

// Stride returns the step between the cases a sampled loop visits: 1 (every
// case) when Enabled, every otherwise.
func Stride(every int) int {
	return Pick(every, 1)
}
