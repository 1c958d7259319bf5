package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBOM checks that a leading UTF-8 byte-order mark is skipped in every
// format, in scripts too, and that MDSL positions do not count it.
func TestBOM(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("\ufeff"+text), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mj := write("m.json", `[{"type":"root","child":{"type":"action","call":"A"}}]`)
	ej := write("e.json", `{"type":"select","children":["a","b"]}`)
	md := write("m.mdsl", "root { action [A] }")
	bad := write("bad.mdsl", "root { action [A")
	sc := write("s.json", `{"actions": {"A": ["failure"]}}`)
	tests := []struct {
		args         []string
		code         int
		stdout, errs string
	}{
		{args: []string{"check", mj, ej, md}},
		{args: []string{"convert", "-to", "mdsl", mj}, stdout: "root {\n    action [A]\n}\n"},
		{args: []string{"convert", "-to", "mdsl", ej}, stdout: "root {\n    selector {\n        action [a]\n        action [b]\n    }\n}\n"},
		{args: []string{"convert", "-to", "json", md}, stdout: `"call": "A"`},
		{args: []string{"render", mj}, stdout: "[ ] root\n`- [ ] action A\n"},
		{args: []string{"fmt", md}, stdout: "root {\n    action [A]\n}\n"},
		{args: []string{"fmt", "-l", md}, stdout: md + "\n"},
		{args: []string{"check", bad}, code: 1, errs: bad + ":1:15: unclosed '['"},
		{args: []string{"run", "-steps", "1", "-script", sc, mj}, stdout: "step 1: FAILED\n  action A -> failure\n"},
	}
	for _, tc := range tests {
		var out, errs bytes.Buffer
		code := run(tc.args, &out, &errs)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errs.String(), tc.errs) {
			t.Errorf("bt %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), code, tc.code, out.String(), errs.String())
		}
	}
}

// TestScriptErrors checks the errors of -script: a syntax error, a wrong
// type and data after the JSON value give their line and column, and a
// name that the tree does not call is an error naming it.
func TestScriptErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tree := write("t.mdsl", "root {\n    sequence while(Alive) {\n        action [A] exit(Report)\n        condition [C]\n    }\n}\n")
	elixir := write("e.json", `{"type":"select","children":["a","b"]}`)
	tests := []struct {
		script string
		file   string // the tree; tree unless set
		errs   string // "" for no error
	}{
		{script: `{"actions": {"A": ["success"]}, "conditions": {"C": [true], "Alive": [false]}}`},
		{script: "{\"actions\": {\"A\": [\"success\"]}}\n\n \t\n"},
		{script: `{"actions": {"A": ["success"]}} x`, errs: "s.json:1:33: data after the script's JSON value"},
		{script: "{\"actions\": {}}\n{\"actions\": {}}", errs: "s.json:2:1: data after the script's JSON value"},
		{script: "{\"actions\": {\n  \"A\": [\"success\",]}}", errs: "s.json:2:19: invalid character ']'"},
		{script: `{"actions": {"A": "success"}}`, errs: "s.json:1:27: json: cannot unmarshal string"},
		{script: `{"actions": {"A": ["success"]}`, errs: "s.json:1:31: the script ends inside its JSON value"},
		{script: `{"actions": {"B": ["success"]}}`, errs: `s.json: the script gives results for action "B", which the tree does not call`},
		{script: `{"conditions": {"D": [true]}}`, errs: `s.json: the script gives answers for condition "D", which the tree does not call`},
		{script: `{"actions": {"C": ["success"]}}`, errs: `s.json: the script gives results for action "C", which the tree does not call (C is a condition)`},
		{script: `{"conditions": {"A": [true]}}`, errs: `s.json: the script gives answers for condition "A", which the tree does not call (A is an action)`},
		{script: `{"actions": {"Report": ["success"]}}`, errs: `s.json: the script gives results for action "Report", which the tree does not call`},
		{script: `{"delta": [0.1, -2e9]}`, errs: "s.json: delta 1 is -2e+09 seconds, more than 1e+09 in size"},
		{script: `{"delta": [0.1, 0.25]}`},
		{script: `{"actions": {"a": ["failure"]}}`, file: elixir},
		{script: `{"actions": {"c": ["failure"]}}`, file: elixir, errs: `s.json: the script gives results for action "c", which the tree does not call`},
		{script: `{"conditions": {"a": [true]}}`, file: elixir, errs: `s.json: the script gives answers for condition "a", which the tree does not call (a is an action)`},
	}
	for _, tc := range tests {
		sc := write("s.json", tc.script)
		file := tree
		if tc.file != "" {
			file = tc.file
		}
		var out, errs bytes.Buffer
		code := run([]string{"run", "-steps", "1", "-script", sc, file}, &out, &errs)
		if tc.errs == "" {
			if code != 0 {
				t.Errorf("script %s: exit %d, %s", tc.script, code, errs.String())
			}
			continue
		}
		if want := sc[:len(sc)-len("s.json")] + tc.errs; code != 1 || !strings.Contains(errs.String(), want) {
			t.Errorf("script %s: exit %d, stderr %q; want exit 1 and %q", tc.script, code, errs.String(), want)
		}
	}
}

// TestUsageOnce checks that -h prints a command's usage once, on stdout,
// and that a bad flag prints an error on stderr and nothing on stdout.
func TestUsageOnce(t *testing.T) {
	for _, cmd := range []string{"check", "fmt", "convert", "render", "run"} {
		var out, errs bytes.Buffer
		if code := run([]string{cmd, "-h"}, &out, &errs); code != 0 || errs.Len() != 0 {
			t.Errorf("bt %s -h: exit %d, stderr %q", cmd, code, errs.String())
		}
		if n := strings.Count(out.String(), "usage: bt "+cmd); n != 1 {
			t.Errorf("bt %s -h printed its usage %d times:\n%s", cmd, n, out.String())
		}
		out.Reset()
		errs.Reset()
		if code := run([]string{cmd, "-nope", "x"}, &out, &errs); code != 2 || out.Len() != 0 || !strings.Contains(errs.String(), "bt "+cmd+": flag provided but not defined: -nope") {
			t.Errorf("bt %s -nope: exit %d, stdout %q, stderr %q", cmd, code, out.String(), errs.String())
		}
	}
}
