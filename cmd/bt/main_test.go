package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun runs bt commands and checks exit codes and output.
func TestRun(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.mdsl", "ROOT{sequence{action[A] condition[C]}}")
	bad := write("bad.mdsl", "root {\n    repeat {\n        action [A]\n        action [B]\n    }\n}\n")
	elixir := write("aib.mdsl", "root {\n    sequence {\n        action [top_left]\n        repeat_until_fail {\n            selector {\n                action [go_right]\n                action [\"next row\"]\n            }\n        }\n    }\n}\n")
	js := write("m.json", `[{"type":"root","child":{"type":"action","call":"A","args":[1]}}]`)
	ejs := write("e.json", `{"type":"select","children":["a","b"]}`)
	scr := write("s.json", `{"actions": {"A": ["running", "success"]}, "conditions": {"C": [false]}}`)
	badScr := write("bad.json", `{"actions": {"A": ["maybe"]}}`)
	tests := []struct {
		args         []string
		code         int
		stdout, errs string // substrings
	}{
		{args: nil, code: 2, errs: "no command"},
		{args: []string{"-h"}, code: 0, stdout: "usage:"},
		{args: []string{"nope"}, code: 2, errs: `unknown command "nope"`},
		{args: []string{"check", good}, code: 0},
		{args: []string{"check", good, bad, filepath.Join(dir, "missing.mdsl")}, code: 1, errs: "bad.mdsl:4:9: repeat takes one child, got 2\n        action [B]\n        ^"},
		{args: []string{"check"}, code: 2, errs: "no files"},
		{args: []string{"check", "-h"}, code: 0, stdout: "usage: bt check"},
		{args: []string{"check", js, ejs, elixir}, code: 0},
		{args: []string{"fmt", good}, code: 0, stdout: "root {\n    sequence {\n        action [A]\n        condition [C]\n    }\n}\n"},
		{args: []string{"fmt", "-l", good, elixir}, code: 0, stdout: "good.mdsl\n"},
		{args: []string{"fmt", "-x", good}, code: 2, errs: "flag provided but not defined: -x"},
		{args: []string{"fmt", bad}, code: 1, errs: "repeat takes one child"},
		{args: []string{"convert", "-to", "json", good}, code: 0, stdout: `"type": "root"`},
		{args: []string{"convert", "-to", "json", elixir}, code: 0, stdout: `"type": "repeat_until_fail"`},
		{args: []string{"convert", "-to", "mdsl", js}, code: 0, stdout: "root {\n    action [A, 1]\n}\n"},
		{args: []string{"convert", "-to", "mdsl", ejs}, code: 0, stdout: "root {\n    selector {\n        action [a]\n        action [b]\n    }\n}\n"},
		{args: []string{"convert", "-to", "elixir", js}, code: 1, errs: "has arguments"},
		{args: []string{"convert", "-to", "yaml", js}, code: 2, errs: `unknown format "yaml"`},
		{args: []string{"convert", js}, code: 2, errs: "-to is required"},
		{args: []string{"convert", "-to", "json"}, code: 2, errs: "no file"},
		{args: []string{"render", good}, code: 0, stdout: "[ ] root\n`- [ ] sequence\n   |- [ ] action A\n   `- [ ] condition C\n"},
		{args: []string{"render", "-format", "mermaid", good}, code: 0, stdout: "flowchart"},
		{args: []string{"render", "-format", "svg", good}, code: 2, errs: "unknown format"},
		{args: []string{"run", "-steps", "2", "-script", scr, good}, code: 0, stdout: "step 1: RUNNING\n  action A -> running\n"},
		{args: []string{"run", "-steps", "3", elixir}, code: 0, stdout: "step 3: go_right -> success"},
		{args: []string{"run", "-steps", "-1", good}, code: 2, errs: "-steps must be 0 or more"},
		{args: []string{"run", "-script", badScr, good}, code: 1, errs: `unknown result "maybe"`},
		{args: []string{"run", "-h"}, code: 0, stdout: "usage: bt run"},
		{args: []string{"run", good, good}, code: 2, errs: "one file, got 2"},
	}
	for _, tc := range tests {
		var out, errs bytes.Buffer
		code := run(tc.args, &out, &errs)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errs.String(), tc.errs) {
			t.Errorf("bt %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), code, tc.code, out.String(), errs.String())
		}
	}
	// fmt -w rewrites in place, and is then idempotent.
	var out, errs bytes.Buffer
	if code := run([]string{"fmt", "-w", good}, &out, &errs); code != 0 || out.Len() != 0 {
		t.Fatalf("fmt -w: %d %s %s", code, out.String(), errs.String())
	}
	b, _ := os.ReadFile(good)
	if !strings.HasPrefix(string(b), "root {\n") {
		t.Errorf("fmt -w wrote %q", b)
	}
	out.Reset()
	if code := run([]string{"fmt", "-l", good}, &out, &errs); code != 0 || out.Len() != 0 {
		t.Errorf("fmt -l after -w: %d %q", code, out.String())
	}
}

// TestConvertNoJSONForm: converting a tree with a kind that no JSON form
// holds names the node, not encoding/json's internals.
func TestConvertNoJSONForm(t *testing.T) {
	var out, errs bytes.Buffer
	code := run([]string{"convert", "-to", "json", "../../testdata/mdsl/elixir_kinds.mdsl"}, &out, &errs)
	if code != 1 || !strings.Contains(errs.String(), "children[3]: threshold node has no JSON form") || strings.Contains(errs.String(), "error calling MarshalJSON") {
		t.Errorf("exit %d, stderr %q", code, errs.String())
	}
}
