package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/internal/corpusfile"
	"github.com/zipbt/behaviortree/internal/testlong"
)

// xmlCorpusFile is the corpus of BehaviorTree.CPP recordings:
// $BTCPP_CORPUS, or the shared copy beside the module.
func xmlCorpusFile() string {
	if f := os.Getenv("BTCPP_CORPUS"); f != "" {
		return f
	}
	return "../../../shared/btcpp/btcpp-4.jsonl.gz"
}

// TestXMLCorpusTools runs bt check, fmt, render and run on the XML of
// every case of the corpus, its leaves being stand-ins: a file that
// checks renders, runs (to the end or to a tick's error) and formats to
// a text that checks and formats to itself; a file that does not check
// reports errors at FILE:..., and formats, when it reads, to a text that
// formats to itself. By default every 4th case; every case with BT_LONG.
func TestXMLCorpusTools(t *testing.T) {
	z, err := corpusfile.Open(xmlCorpusFile())
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			t.Skipf("no corpus at %s (set BTCPP_CORPUS)", xmlCorpusFile())
		}
		t.Fatal(err)
	}
	defer z.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "case.xml")
	canon := filepath.Join(dir, "canon.xml")
	sc := bufio.NewScanner(z)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	bt := func(args ...string) (int, string, string) {
		var out, errs bytes.Buffer
		code := run(args, &out, &errs)
		return code, out.String(), errs.String()
	}
	stride := testlong.Stride(4)
	var n, cases, ok int
	for sc.Scan() {
		n++
		if (n-1)%stride != 0 {
			continue
		}
		var c struct {
			ID   string  `json:"id"`
			XML  string  `json:"xml"`
			Main *string `json:"main"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		cases++
		if err := os.WriteFile(file, []byte(c.XML), 0o666); err != nil {
			t.Fatal(err)
		}
		var tree []string
		if c.Main != nil && *c.Main != "" {
			tree = []string{"-tree", *c.Main}
		}
		code, _, errs := bt("check", file)
		if code == 1 {
			for _, l := range strings.Split(strings.TrimSuffix(errs, "\n"), "\n") {
				if !strings.HasPrefix(l, file+":") {
					t.Errorf("case %s: check: an error line without the file: %q", c.ID, l)
				}
			}
			// fmt needs only a document that reads (as gofmt formats
			// code that does not compile).
			code, out, errs := bt("fmt", file)
			if code == 0 {
				if err := os.WriteFile(canon, []byte(out), 0o666); err != nil {
					t.Fatal(err)
				}
				if code, out2, errs := bt("fmt", canon); code != 0 || out2 != out {
					t.Errorf("case %s: fmt of the canonical XML: exit %d: %s\n%s\n----\n%s", c.ID, code, errs, out, out2)
				}
			} else if !strings.HasPrefix(errs, file+":") {
				t.Errorf("case %s: fmt: exit %d: %s", c.ID, code, errs)
			}
			continue
		}
		if code != 0 {
			t.Errorf("case %s: check: exit %d: %s", c.ID, code, errs)
			continue
		}
		ok++
		if code, _, errs := bt(append(append([]string{"render"}, tree...), file)...); code != 0 && !strings.Contains(errs, "main_tree_to_execute") {
			t.Errorf("case %s: render: exit %d: %s", c.ID, code, errs)
		}
		if code, _, errs := bt(append(append([]string{"run", "-steps", "3"}, tree...), file)...); code == 1 && !strings.Contains(errs, ": tick ") && !strings.Contains(errs, "main_tree_to_execute") || code > 1 {
			t.Errorf("case %s: run: exit %d: %s", c.ID, code, errs)
		}
		code, out, errs := bt("fmt", file)
		if code != 0 {
			t.Errorf("case %s: fmt: exit %d: %s", c.ID, code, errs)
			continue
		}
		if err := os.WriteFile(canon, []byte(out), 0o666); err != nil {
			t.Fatal(err)
		}
		if code, _, errs := bt("check", canon); code != 0 {
			t.Errorf("case %s: check of the canonical XML: exit %d: %s\n%s", c.ID, code, errs, out)
		}
		if code, out2, errs := bt("fmt", canon); code != 0 || out2 != out {
			t.Errorf("case %s: fmt of the canonical XML: exit %d: %s\n%s\n----\n%s", c.ID, code, errs, out, out2)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cases, %d of them check with stand-in leaves", cases, ok)
}
