//go:build unix && !aix && !solaris && !illumos

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInputFIFO checks that a FIFO is refused with a clear error instead
// of blocking until a writer comes, by every command and for -script.
func TestInputFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.mdsl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFO:", err)
	}
	good := filepath.Join(dir, "good.mdsl")
	if err := os.WriteFile(good, []byte("root { action [A] }\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", fifo},
		{"fmt", fifo},
		{"fmt", "-w", fifo},
		{"convert", "-to", "json", fifo},
		{"render", fifo},
		{"run", fifo},
		{"run", "-script", fifo, good},
	} {
		type result struct {
			code int
			errs string
		}
		done := make(chan result, 1)
		go func() {
			var out, errs bytes.Buffer
			code := run(args, &out, &errs)
			done <- result{code, errs.String()}
		}()
		var r result
		select {
		case r = <-done:
		case <-time.After(time.Minute):
			// Release the reader, so that the test can go on and fail.
			if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
			r = <-done
			t.Errorf("bt %s blocked on a FIFO", strings.Join(args, " "))
		}
		if want := fifo + ": a named pipe (FIFO), not a regular file"; r.code != 1 || !strings.Contains(r.errs, want) {
			t.Errorf("bt %s: exit %d, %q; want exit 1 and %q", strings.Join(args, " "), r.code, r.errs, want)
		}
	}
}
