//go:build unix

package playground

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFIFOFile: the default reader refuses a named pipe instead of
// blocking on its open (which would hang New, or the watcher with the
// server's lock held).
func TestFIFOFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tree.mdsl")
	if err := syscall.Mkfifo(file, 0o600); err != nil {
		t.Skip("no named pipes here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := New(Config{File: file, Addr: "127.0.0.1:1", Parse: parseAny, Poll: -1})
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("New on a named pipe: %v, want an error saying it is not a regular file", err)
		}
	case <-time.After(time.Minute): // a deadlock, not a timing
		t.Fatal("New blocked opening a named pipe")
	}
}
