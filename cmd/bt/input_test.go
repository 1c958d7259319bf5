package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// endless is a reader that never ends, like /dev/zero, and counts what it
// gives.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	e.n += int64(len(p))
	return len(p), nil
}

// setLimit lowers maxInputBytes for the test.
func setLimit(t *testing.T, n int64) {
	old := maxInputBytes
	maxInputBytes = n
	t.Cleanup(func() { maxInputBytes = old })
}

// setStdin sets what "-" reads for the test.
func setStdin(t *testing.T, r interface{ Read([]byte) (int, error) }) {
	old := stdin
	stdin = r
	t.Cleanup(func() { stdin = old })
}

// TestInputEndless checks that every command given an endless input reads
// at most the limit plus one byte of it, says it is longer than the limit,
// and allocates memory bounded by the limit.
func TestInputEndless(t *testing.T) {
	const limit = 1 << 20
	setLimit(t, limit)
	good := filepath.Join(t.TempDir(), "good.mdsl")
	if err := os.WriteFile(good, []byte("root { action [A] }\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "-"},
		{"fmt", "-"},
		{"fmt", "-l", "-"},
		{"convert", "-to", "json", "-"},
		{"render", "-"},
		{"run", "-"},
		{"run", "-script", "-", good},
	} {
		in := new(endless)
		setStdin(t, in)
		var out, errs bytes.Buffer
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		code := run(args, &out, &errs)
		runtime.ReadMemStats(&after)
		want := fmt.Sprintf("<stdin>: longer than %d bytes", limit)
		if code != 1 || !strings.Contains(errs.String(), want) {
			t.Errorf("bt %s: exit %d, stderr %q; want exit 1 and %q", strings.Join(args, " "), code, errs.String(), want)
		}
		if in.n > limit+1 {
			t.Errorf("bt %s read %d bytes of an endless input, want at most %d", strings.Join(args, " "), in.n, limit+1)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8*limit {
			t.Errorf("bt %s allocated %d bytes reading an endless input with a limit of %d", strings.Join(args, " "), alloc, limit)
		}
	}
}

// TestInputLimit checks a file at the limit and one byte past it.
func TestInputLimit(t *testing.T) {
	const limit = 1000
	setLimit(t, limit)
	dir := t.TempDir()
	text := "root { action [A] }\n"
	at := filepath.Join(dir, "at.mdsl")
	past := filepath.Join(dir, "past.mdsl")
	os.WriteFile(at, []byte(text+strings.Repeat(" ", limit-len(text))), 0o666)
	os.WriteFile(past, []byte(text+strings.Repeat(" ", limit+1-len(text))), 0o666)
	var out, errs bytes.Buffer
	if code := run([]string{"check", at}, &out, &errs); code != 0 {
		t.Errorf("check of a file of %d bytes, the limit: exit %d, %s", limit, code, errs.String())
	}
	errs.Reset()
	want := past + ": longer than 1000 bytes"
	if code := run([]string{"check", past}, &out, &errs); code != 1 || !strings.Contains(errs.String(), want) {
		t.Errorf("check of a file of %d bytes: exit %d, %q; want %q", limit+1, code, errs.String(), want)
	}
	errs.Reset()
	setStdin(t, strings.NewReader(text+strings.Repeat(" ", limit-len(text))))
	if code := run([]string{"check", "-"}, &out, &errs); code != 0 {
		t.Errorf("check - of %d bytes, the limit: exit %d, %s", limit, code, errs.String())
	}
}

// TestInputLongFile checks that a regular file longer than the parsers'
// limit (a sparse one, so that the test does not write it) is refused as
// such, whatever its format.
func TestInputLongFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "long.json")
	if err := os.WriteFile(p, []byte(`[{"type":"root","child":{"type":"action","call":"A"}}]`), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, maxInputBytes+1); err != nil {
		t.Skip("cannot make a sparse file:", err)
	}
	for _, args := range [][]string{{"check", p}, {"fmt", "-w", p}, {"render", p}} {
		var out, errs bytes.Buffer
		want := fmt.Sprintf("%s: longer than %d bytes", p, maxInputBytes)
		if code := run(args, &out, &errs); code != 1 || !strings.Contains(errs.String(), want) {
			t.Errorf("bt %s: exit %d, %q; want %q", strings.Join(args, " "), code, errs.String(), want)
		}
	}
}

// TestInputNotRegular checks that a directory, and a device where there is
// one, are refused with a clear error, and that the standard input can be
// read once.
func TestInputNotRegular(t *testing.T) {
	dir := t.TempDir()
	var out, errs bytes.Buffer
	if code := run([]string{"check", dir}, &out, &errs); code != 1 || !strings.Contains(errs.String(), dir+": a directory, not a regular file") {
		t.Errorf("check of a directory: exit %d, %q", code, errs.String())
	}
	if _, err := os.Stat(os.DevNull); err == nil && runtime.GOOS != "windows" {
		errs.Reset()
		if code := run([]string{"check", os.DevNull}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "a character device, not a regular file") {
			t.Errorf("check of %s: exit %d, %q", os.DevNull, code, errs.String())
		}
	}
	errs.Reset()
	setStdin(t, strings.NewReader("root { action [A] }"))
	if code := run([]string{"check", "-", "-"}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "<stdin>: the standard input can be read only once") {
		t.Errorf("check - -: exit %d, %q", code, errs.String())
	}
}
