package fluent_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPackageDocSnippets checks that every code block of the package
// documentation (doc.go) is copied verbatim from a test file (an
// Example), as the root package's test of the same name does.
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
	var blocks [][]string
	var cur []string
	for _, l := range strings.Split(string(doc), "\n") {
		if code, ok := strings.CutPrefix(l, "//\t"); ok {
			cur = append(cur, "\t"+code)
			continue
		}
		if cur != nil {
			blocks = append(blocks, cur)
			cur = nil
		}
	}
	if len(blocks) < 2 {
		t.Fatalf("the package documentation has %d code blocks; want the builder's and the resuming alternative", len(blocks))
	}
	for i, b := range blocks {
		if !strings.Contains(sources.String(), strings.Join(b, "\n")) {
			t.Errorf("code block %d of doc.go is not copied verbatim from a test file:\n%s", i+1, strings.Join(b, "\n"))
		}
	}
}
