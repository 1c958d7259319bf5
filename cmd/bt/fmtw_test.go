package main

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const (
	fmtIn  = "root{sequence{action[A] condition[C]}}"
	fmtOut = "root {\n    sequence {\n        action [A]\n        condition [C]\n    }\n}\n"
)

// fmtW runs bt fmt -w on the files and returns the exit code and stderr.
func fmtW(files ...string) (int, string) {
	var out, errs bytes.Buffer
	code := run(append([]string{"fmt", "-w"}, files...), &out, &errs)
	return code, errs.String()
}

// TestFmtWriteFails makes the write of the new text fail half-way and
// checks that the file is left byte for byte as it was, with no temporary
// file beside it.
func TestFmtWriteFails(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.mdsl")
	if err := os.WriteFile(p, []byte(fmtIn), 0o666); err != nil {
		t.Fatal(err)
	}
	old := writeTemp
	t.Cleanup(func() { writeTemp = old })
	writeTemp = func(f *os.File, data []byte) error {
		f.Write(data[:len(data)/2])
		return errors.New("no space left on device")
	}
	code, errs := fmtW(p)
	if code != 1 || !strings.Contains(errs, p+": no space left on device; the file is left as it was") {
		t.Errorf("fmt -w with a failing write: exit %d, %q", code, errs)
	}
	if b, _ := os.ReadFile(p); string(b) != fmtIn {
		t.Errorf("fmt -w with a failing write left %q, want the original %q", b, fmtIn)
	}
	checkOnly(t, dir, "a.mdsl")
}

// TestFmtWriteChanged changes the file while bt formats it and checks
// that bt leaves the edit in place.
func TestFmtWriteChanged(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.mdsl")
	if err := os.WriteFile(p, []byte(fmtIn), 0o666); err != nil {
		t.Fatal(err)
	}
	edit := fmtIn + " // an edit made meanwhile\n"
	old := writeTemp
	t.Cleanup(func() { writeTemp = old })
	writeTemp = func(f *os.File, data []byte) error {
		if err := os.WriteFile(p, []byte(edit), 0o666); err != nil {
			return err
		}
		return old(f, data)
	}
	code, errs := fmtW(p)
	if code != 1 || !strings.Contains(errs, p+": the file changed since bt read it; the file is left as it was") {
		t.Errorf("fmt -w of a file changed meanwhile: exit %d, %q", code, errs)
	}
	if b, _ := os.ReadFile(p); string(b) != edit {
		t.Errorf("fmt -w of a file changed meanwhile left %q, want the edit %q", b, edit)
	}
	checkOnly(t, dir, "a.mdsl")
}

// TestFmtWriteSymlink checks that fmt -w through a symlink (to a file in
// another directory) rewrites the file it points to and keeps the link.
func TestFmtWriteSymlink(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	target := filepath.Join(other, "real.mdsl")
	link := filepath.Join(dir, "link.mdsl")
	if err := os.WriteFile(target, []byte(fmtIn), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	if code, errs := fmtW(link); code != 0 {
		t.Fatalf("fmt -w of a symlink: exit %d, %s", code, errs)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("fmt -w replaced the symlink: %v %v", st.Mode(), err)
	}
	if got, err := os.Readlink(link); err != nil || got != target {
		t.Errorf("the symlink points to %q (%v), want %q", got, err, target)
	}
	if b, _ := os.ReadFile(target); string(b) != fmtOut {
		t.Errorf("fmt -w through a symlink wrote %q to its target, want %q", b, fmtOut)
	}
	checkOnly(t, dir, "link.mdsl")
	checkOnly(t, other, "real.mdsl")
}

// TestFmtWriteMode checks that fmt -w keeps the file's mode.
func TestFmtWriteMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	dir := t.TempDir()
	for _, mode := range []fs.FileMode{0o604, 0o640, 0o755, 0o600} {
		p := filepath.Join(dir, "a.mdsl")
		if err := os.WriteFile(p, []byte(fmtIn), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		if code, errs := fmtW(p); code != 0 {
			t.Fatalf("fmt -w of a file of mode %v: exit %d, %s", mode, code, errs)
		}
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode() != mode {
			t.Errorf("fmt -w of a file of mode %v left mode %v", mode, st.Mode())
		}
		if b, _ := os.ReadFile(p); string(b) != fmtOut {
			t.Errorf("fmt -w of a file of mode %v wrote %q", mode, b)
		}
		os.Remove(p)
	}
}

// TestFmtWriteReadOnly checks that fmt -w does not rewrite a file that
// the user cannot write, although it could rename over it.
func TestFmtWriteReadOnly(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		t.Skip("needs Unix permissions, and a user other than root")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "a.mdsl")
	if err := os.WriteFile(p, []byte(fmtIn), 0o400); err != nil {
		t.Fatal(err)
	}
	if code, errs := fmtW(p); code != 1 || !strings.Contains(errs, "permission denied") {
		t.Errorf("fmt -w of a read-only file: exit %d, %s", code, errs)
	}
	if b, _ := os.ReadFile(p); string(b) != fmtIn {
		t.Errorf("fmt -w rewrote a read-only file: %q", b)
	}
	checkOnly(t, dir, "a.mdsl")
}

// TestFmtParseBack makes the formatter return a text that does not parse
// and checks that fmt refuses it: -w leaves the file as it was, and
// without -w nothing is printed.
func TestFmtParseBack(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.mdsl")
	if err := os.WriteFile(p, []byte(fmtIn), 0o666); err != nil {
		t.Fatal(err)
	}
	old := formatSource
	t.Cleanup(func() { formatSource = old })
	formatSource = func(name string, src []byte) ([]byte, error) {
		return []byte("root {\n    sequence {\n"), nil
	}
	want := p + ": the canonical form of this file does not parse back, so bt fmt leaves the file as it is: " + p + " (canonical form):2:5: sequence is never closed"
	for _, args := range [][]string{{"fmt", "-w", p}, {"fmt", p}, {"fmt", "-l", p}} {
		var out, errs bytes.Buffer
		code := run(args, &out, &errs)
		if code != 1 || out.Len() != 0 || !strings.Contains(errs.String(), want) {
			t.Errorf("bt %s with a formatter that breaks the text: exit %d, stdout %q, stderr %q; want exit 1, no output and %q", strings.Join(args, " "), code, out.String(), errs.String(), want)
		}
	}
	if b, _ := os.ReadFile(p); string(b) != fmtIn {
		t.Errorf("fmt -w wrote %q, a text that does not parse", b)
	}
	checkOnly(t, dir, "a.mdsl")
}

// TestFmtWriteDeep formats a valid file nested 4,094 deep, whose canonical
// form was once over the parser's limit, and checks that fmt -w either
// writes a text that check accepts or fails and leaves the file as it was.
func TestFmtWriteDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("formats a text of about 64 MB")
	}
	const depth = 4094
	dir := t.TempDir()
	p := filepath.Join(dir, "deep.mdsl")
	orig := "root {" + strings.Repeat("sequence {", depth) + "action [A]" + strings.Repeat("}", depth) + "}\n"
	if err := os.WriteFile(p, []byte(orig), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"check", p}, &out, &errs); code != 0 {
		t.Fatalf("check of the deep file: exit %d, %s", code, errs.String())
	}
	code, msg := fmtW(p)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	switch code {
	case 0:
		errs.Reset()
		if code := run([]string{"check", p}, &out, &errs); code != 0 {
			t.Errorf("fmt -w of a file that check accepts wrote one it rejects: %s", errs.String())
		}
	case 1:
		if string(b) != orig {
			t.Errorf("fmt -w failed (%s) and changed the file", msg)
		}
	default:
		t.Errorf("fmt -w of the deep file: exit %d, %s", code, msg)
	}
	checkOnly(t, dir, "deep.mdsl")
}

// checkOnly checks that dir holds only the files named.
func checkOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(names, " ") {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}
