package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagsAfterFiles checks that flags may follow the file names, or sit
// between them, with the same result as before them; and that "--" ends
// the flags.
func TestFlagsAfterFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	md := write("a.mdsl", "root { branch [b] }\nroot [b] { sequence { action [A] condition [C] } }\n")
	other := write("b.mdsl", "ROOT{action[B]}")
	scr := write("s.json", `{"actions": {"A": ["running", "success"]}, "conditions": {"C": [false]}}`)
	dash := write("-odd.mdsl", "root { action [Odd] }")
	bt := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := run(args, &out, &errs)
		return code, out.String(), errs.String()
	}
	for _, pair := range [][2][]string{
		{{"convert", "-to", "json", "-expand", md}, {"convert", md, "-to", "json", "-expand"}},
		{{"convert", "-expand", "-to", "json", md}, {"convert", "-to", "json", md, "-expand"}},
		{{"render", "-format", "mermaid", md}, {"render", md, "-format", "mermaid"}},
		{{"fmt", "-l", md, other}, {"fmt", md, "-l", other}},
		{{"run", "-steps", "2", "-script", scr, md}, {"run", md, "-steps", "2", "-script", scr}},
	} {
		c1, o1, e1 := bt(pair[0]...)
		c2, o2, e2 := bt(pair[1]...)
		if c1 != 0 || c1 != c2 || o1 != o2 || e1 != e2 {
			t.Errorf("bt %s: exit %d\n%s%s\nbt %s: exit %d\n%s%s", strings.Join(pair[0], " "), c1, o1, e1, strings.Join(pair[1], " "), c2, o2, e2)
		}
	}
	// Two files where one is taken: still an error, after the flags.
	if code, _, errs := bt("convert", md, "-to", "mdsl", other); code != 2 || !strings.Contains(errs, "one file, got 2") {
		t.Errorf("two files: exit %d, %s", code, errs)
	}
	// A bad flag after the file is a usage error naming it.
	if code, _, errs := bt("render", md, "-colour"); code != 2 || !strings.Contains(errs, "flag provided but not defined: -colour") {
		t.Errorf("a bad flag: exit %d, %s", code, errs)
	}
	// After --, a name that starts with - is a file.
	wd := mustWd(t)
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	if code, out, errs := bt("render", "-format", "ascii", "--", filepath.Base(dash)); code != 0 || !strings.Contains(out, "action Odd") {
		t.Errorf("-- then -odd.mdsl: exit %d\n%s%s", code, out, errs)
	}
}

// mustWd returns the working directory, as it is when called.
func mustWd(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
