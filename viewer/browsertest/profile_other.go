//go:build !linux

package browsertest

import (
	"os/exec"
	"time"
)

// ownGroup does nothing where process groups are not handled here; the
// profile's removal then relies on its retries alone.
func ownGroup(cmd *exec.Cmd) {}

// endGroup does nothing here (see ownGroup).
func endGroup(pgid int, limit time.Duration) error { return nil }
