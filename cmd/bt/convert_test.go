package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConvertKeepsBranches: convert -to json writes an MDSL text as
// Mistreevous's convertMDSLToJSON does, each root and branch node kept;
// -expand writes one root with the branch expanded.
func TestConvertKeepsBranches(t *testing.T) {
	p := filepath.Join(t.TempDir(), "b.mdsl")
	src := "root {\n    sequence {\n        branch [Eat]\n        action [Sleep, 8]\n    }\n}\n\nroot [Eat] {\n    action [Chew] while(Hungry)\n}\n"
	if err := os.WriteFile(p, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", "-to", "json", p},
			`[{"type":"root","child":{"type":"sequence","children":[{"type":"branch","ref":"Eat"},{"type":"action","call":"Sleep","args":[8]}]}},` +
				`{"type":"root","id":"Eat","child":{"type":"action","call":"Chew","args":[],"while":{"call":"Hungry","args":[],"succeedOnAbort":false}}}]`},
		{[]string{"convert", "-to", "mistreevous", p},
			`[{"type":"root","child":{"type":"sequence","children":[{"type":"branch","ref":"Eat"},{"type":"action","call":"Sleep","args":[8]}]}},` +
				`{"type":"root","id":"Eat","child":{"type":"action","call":"Chew","args":[],"while":{"call":"Hungry","args":[],"succeedOnAbort":false}}}]`},
		{[]string{"convert", "-to", "json", "-expand", p},
			`[{"type":"root","child":{"type":"sequence","children":[{"type":"action","call":"Chew","while":{"call":"Hungry"}},{"type":"action","call":"Sleep","args":[8]}]}}]`},
	} {
		var out, errs bytes.Buffer
		if code := run(c.args, &out, &errs); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, errs.String())
		}
		var got bytes.Buffer
		if err := json.Compact(&got, out.Bytes()); err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, out.String())
		}
		if got.String() != c.want {
			t.Errorf("%v:\n got %s\nwant %s", c.args, got.String(), c.want)
		}
		// What it writes, bt reads back.
		back := filepath.Join(t.TempDir(), "back.json")
		if err := os.WriteFile(back, out.Bytes(), 0o666); err != nil {
			t.Fatal(err)
		}
		if code := run([]string{"check", back}, &out, &errs); code != 0 {
			t.Errorf("%v: check of the output: exit %d: %s", c.args, code, errs.String())
		}
	}
}

// TestCheckEveryError: bt check prints every error of an MDSL text, with
// the nearest keyword for a misspelt one.
func TestCheckEveryError(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "typos.mdsl")
	src := "root {\n    selector {\n        sequnce { action [A] }\n        wait [5, 1]\n        action [B] untl(C)\n    }\n}\n"
	if err := os.WriteFile(p, []byte(src), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := run([]string{"check", p}, &out, &errs)
	want := "typos.mdsl:3:9: unexpected \"sequnce\": want a node; did you mean sequence?\n" +
		"        sequnce { action [A] }\n        ^\n" +
		"typos.mdsl:4:14: wait minimum 5 is more than maximum 1\n" +
		"        wait [5, 1]\n             ^\n" +
		"typos.mdsl:5:20: unexpected \"untl\": want a node; did you mean until?\n" +
		"        action [B] untl(C)\n                   ^\n"
	if code != 1 || out.Len() != 0 || strings.ReplaceAll(errs.String(), dir+string(filepath.Separator), "") != want {
		t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant:\n%s", code, out.String(), errs.String(), want)
	}
}

// TestConvertJSONGuessesByStyle: convert -to json writes a tree in the
// Elixir JSON form only when it has a kind that only the Value/Succeed/Fail
// style runs; a tree of stepped kinds without a Mistreevous name (a
// reactive_sequence) is no Elixir tree, and its error says that
// Mistreevous JSON has no form for it, not that it has no Elixir form.
func TestConvertJSONGuessesByStyle(t *testing.T) {
	dir := t.TempDir()
	reactive := writeTestFile(t, dir, "reactive.mdsl", "root {\n  reactive_sequence {\n    action [A]\n    action [B]\n  }\n}\n")
	elixir := writeTestFile(t, dir, "elixir.mdsl", "root {\n  repeat_until_fail {\n    action [A]\n  }\n}\n")

	var out, errs bytes.Buffer
	if code := run([]string{"convert", "-to", "json", reactive}, &out, &errs); code == 0 {
		t.Fatalf("a reactive_sequence converted to JSON: %s", out.String())
	}
	if msg := errs.String(); strings.Contains(msg, "Elixir") || !strings.Contains(msg, "reactive_sequence") || !strings.Contains(msg, "Mistreevous") {
		t.Errorf("convert -to json of a reactive_sequence says %q: it should say Mistreevous JSON has no reactive_sequence, and not blame the Elixir form", msg)
	}

	out.Reset()
	errs.Reset()
	if code := run([]string{"convert", "-to", "json", elixir}, &out, &errs); code != 0 {
		t.Fatalf("convert -to json of a repeat_until_fail: exit %d: %s", code, errs.String())
	}
	var tree struct{ Type string }
	if err := json.Unmarshal(out.Bytes(), &tree); err != nil || tree.Type != "repeat_until_fail" {
		t.Errorf("convert -to json of a repeat_until_fail wrote %s (%v): want the Elixir form, one node of type repeat_until_fail", out.String(), err)
	}
}

// writeTestFile writes text to the file name in dir and returns its path.
func writeTestFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	return p
}
