//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestFmtWriteFileSizeLimit runs bt fmt -w (this test binary, as bt)
// under a file-size limit smaller than the formatted text, and checks
// that the file is left byte for byte as it was, with no temporary file
// left beside it.
func TestFmtWriteFileSizeLimit(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "wide.mdsl")
	// 2,000 actions on one line: about 20 KB, and 38 KB once formatted.
	orig := []byte("root{sequence{" + strings.Repeat("action[A] ", 2000) + "}}")
	if err := os.WriteFile(p, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	// ulimit -f counts blocks of 512 bytes (POSIX) or 1,024 (some shells):
	// 16 blocks are at most 16 KB, below the formatted size.
	cmd := exec.Command(sh, "-c", `ulimit -f 16 && exec "$0" "$@"`, exe, "fmt", "-w", p)
	cmd.Env = append(os.Environ(), "BT_TEST_MAIN=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if err == nil {
		t.Errorf("bt fmt -w under a file-size limit succeeded")
	}
	got, rerr := os.ReadFile(p)
	if rerr != nil {
		t.Fatal(rerr)
	}
	if !bytes.Equal(got, orig) {
		t.Errorf("bt fmt -w failing under a file-size limit (%v) changed the file: %d bytes, was %d", err, len(got), len(orig))
	}
	if !strings.Contains(stderr.String(), p) {
		t.Errorf("bt fmt -w failing under a file-size limit: stderr %q does not name the file", stderr.String())
	}
	checkOnly(t, dir, "wide.mdsl")
}
