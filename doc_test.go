package behaviortree_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageDocSnippets checks that every code block of the package
// documentation (doc.go) is copied verbatim from a test file, as
// TestREADMESnippets does for the README, and that the documentation
// stays short enough to read (about 120 lines).
func TestPackageDocSnippets(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var sources strings.Builder
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources.Write(b)
	}
	lines := strings.Split(string(doc), "\n")
	if n := len(lines); n > 125 {
		t.Errorf("the package documentation has %d lines: keep it to about 120 (maintainers' notes go in DESIGN.md)", n)
	}
	var blocks [][]string
	var cur []string
	for _, l := range lines {
		if code, ok := strings.CutPrefix(l, "//\t"); ok {
			cur = append(cur, "\t"+code)
			continue
		}
		if cur != nil {
			blocks = append(blocks, cur)
			cur = nil
		}
	}
	if len(blocks) == 0 {
		t.Fatal("the package documentation has no code")
	}
	for i, b := range blocks {
		if !strings.Contains(sources.String(), strings.Join(b, "\n")) {
			t.Errorf("code block %d of doc.go is not copied verbatim from a test file:\n%s", i+1, strings.Join(b, "\n"))
		}
	}
}
