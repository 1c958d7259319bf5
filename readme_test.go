package behaviortree_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADMESnippets checks that every Go snippet in README.md is copied
// verbatim from a test file (an Example), so that the README cannot drift
// from code that runs.
func TestREADMESnippets(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	var sources strings.Builder
	files, _ := filepath.Glob("*_test.go")
	more, _ := filepath.Glob("*/*_test.go")
	for _, f := range append(files, more...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sources.Write(b)
	}
	blocks := strings.Split(string(readme), "```go\n")
	if len(blocks) < 2 {
		t.Fatal("README.md has no Go snippet")
	}
	for i, b := range blocks[1:] {
		code, _, ok := strings.Cut(b, "```")
		if !ok {
			t.Fatalf("snippet %d is not closed", i+1)
		}
		var kept []string
		for _, line := range strings.Split(code, "\n") {
			if strings.HasPrefix(line, "import ") || strings.HasPrefix(line, "package ") {
				continue
			}
			kept = append(kept, line)
		}
		snippet := strings.TrimSpace(strings.Join(kept, "\n"))
		if !strings.Contains(sources.String(), snippet) {
			t.Errorf("README snippet %d is not copied verbatim from a test file:\n%s", i+1, snippet)
		}
	}
}
