package behaviortree

import (
	"errors"
	"strings"
	"testing"
)

// FuzzMDSL checks that any text gives a tree or an *MDSLError, never a
// panic, and that whatever parses, in either leaf mode, prints and parses
// back to an equal tree, with a stable print; the same for the source
// formatter. Seeds: testdata/fuzz/FuzzMDSL.
func FuzzMDSL(f *testing.F) {
	f.Add([]byte("root { action [A] }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		n, err := ParseMDSL("fuzz.mdsl", src)
		checkMDSLErr(t, err)
		if err == nil && n.Size() <= 1<<14 {
			out, err := FormatMDSL(n)
			if err != nil {
				t.Fatalf("parsed but does not print: %v", err)
			}
			back, err := ParseMDSL("printed", out)
			if err != nil {
				t.Fatalf("printed text does not parse: %v\n%s", err, out)
			}
			if d := mdslDiff(back, n); d != "" {
				t.Fatalf("printed text parses differently: %s\n%s", d, out)
			}
			if again, _ := FormatMDSL(back); string(again) != string(out) {
				t.Fatalf("printing is not stable:\n%s\n%s", out, again)
			}
		}
		ln, err := ParseMDSLFunc("fuzz.mdsl", src, func(s string) (string, error) {
			if s == "bad" {
				return "", errors.New("bad leaf")
			}
			return s, nil
		})
		checkMDSLErr(t, err)
		if err == nil && ln.Size() <= 1<<14 {
			out, err := FormatMDSLFunc(ln, func(s string) (string, error) { return s, nil })
			if err != nil {
				t.Fatalf("parsed but does not print: %v", err)
			}
			back, err := ParseMDSLFunc("printed", out, func(s string) (string, error) { return s, nil })
			if err != nil {
				t.Fatalf("printed text does not parse: %v\n%s", err, out)
			}
			if d := mdslDiff(back, ln); d != "" {
				t.Fatalf("printed text parses differently: %s\n%s", d, out)
			}
		}
		if len(src) > 1<<12 {
			return
		}
		fs, err := FormatMDSLSource("fuzz.mdsl", src)
		checkMDSLErr(t, err)
		if err != nil {
			return
		}
		fs2, err := FormatMDSLSource("formatted", fs)
		if err != nil || string(fs2) != string(fs) {
			t.Fatalf("formatting is not stable: %v\n%s\n---\n%s", err, fs, fs2)
		}
	})
}

// checkMDSLErr checks that err is nil or a well-formed *MDSLError of
// bounded size.
func checkMDSLErr(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var me *MDSLError
	if !errors.As(err, &me) {
		t.Fatalf("error is not an *MDSLError: %T %v", err, err)
	}
	if me.Line < 1 || me.Col < 1 || me.Msg == "" {
		t.Fatalf("bad position or message: %+v", me)
	}
	s := err.Error()
	if len(s) > 2000 {
		t.Fatalf("error of %d bytes", len(s))
	}
	if strings.Count(s, "\n") != 2 || !strings.HasSuffix(s, "^") {
		t.Fatalf("error without a quoted line and caret: %q", s)
	}
}
