package main

import (
	"os"
	"testing"
)

// TestMain runs bt itself when BT_TEST_MAIN is set, so that tests can run
// the test binary as bt in a subprocess.
func TestMain(m *testing.M) {
	if os.Getenv("BT_TEST_MAIN") == "1" {
		main()
	}
	os.Exit(m.Run())
}
