package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileName holds what a terminal acts on: ESC c (a reset), an OSC 0
// title ended by BEL, NUL and U+2028 (an MDSL text is UTF-8: invalid
// bytes are in the file names and the source line of badUTF8).
const hostileName = "x\x1bc\x1b]0;pwned\a\x00\u2028"

// hostileFile is as much of it as a file name can hold (no NUL).
const hostileFile = "\x1bc\a\u2028\xff"

// terminalUnsafe returns the first thing in out that a terminal acts on,
// or "".
func terminalUnsafe(out string) string {
	if !utf8.ValidString(out) {
		return "invalid UTF-8"
	}
	for _, r := range out {
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0 || r == 0x2028 || r == 0x2029 {
			return string(r)
		}
	}
	return ""
}

// TestTerminalSafe runs bt check, fmt, render and run on trees and file
// names holding control characters: nothing they print reaches the
// terminal raw, and the names show quoted (\x1b, \a, \x00, \u2028, \xff).
func TestTerminalSafe(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// an error on the line of the name: a repeat with two children
	bad := write("bad"+hostileFile+".mdsl", "root { repeat { action [\""+hostileName+"\"] action [\""+hostileName+"\"] } }\n")
	badUTF8 := write("utf8"+hostileFile+".mdsl", "root { action [\""+hostileName+"\xff\"] }\n")
	good := write("good.mdsl", "root { sequence { action [\""+hostileName+"\"] condition [\""+hostileName+"\"] } }\n")
	const quotedName, quotedFile = `\x1bc\x1b]0;pwned\a\x00\u2028`, `\x1bc\a\u2028\xff`
	for _, c := range []struct {
		args []string
		code int
		want []string // quoted, in what bt prints
	}{
		{[]string{"check", bad}, 1, []string{quotedName, quotedFile}},
		{[]string{"fmt", bad}, 1, []string{quotedName, quotedFile}},
		{[]string{"render", bad}, 1, []string{quotedName, quotedFile}},
		{[]string{"run", bad}, 1, []string{quotedName, quotedFile}},
		{[]string{"check", badUTF8}, 1, []string{quotedName + `\xff`, quotedFile}},
		{[]string{"fmt", badUTF8}, 1, []string{quotedName + `\xff`, quotedFile}},
		{[]string{"render", good}, 0, []string{quotedName}},
		{[]string{"render", "-format", "unicode", good}, 0, []string{quotedName}},
		{[]string{"run", "-steps", "2", good}, 0, []string{quotedName}},
		{[]string{"fmt", "-l", filepath.Join(dir, "missing"+hostileFile)}, 1, []string{quotedFile}},
		{[]string{"check", filepath.Join(dir, "missing"+hostileFile)}, 1, []string{quotedFile}},
	} {
		var out, errs bytes.Buffer
		code := run(c.args, &out, &errs)
		all := out.String() + errs.String()
		if code != c.code {
			t.Errorf("bt %q: exit %d, want %d\n%s", c.args, code, c.code, all)
		}
		if bad := terminalUnsafe(all); bad != "" {
			t.Errorf("bt %q prints %q raw:\n%q", c.args, bad, all)
		}
		for _, w := range c.want {
			if !strings.Contains(all, w) {
				t.Errorf("bt %q does not show %s:\n%s", c.args, w, all)
			}
		}
	}
}
