package mdsl

import (
	"go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"os"
	"strings"
	"testing"
	"unicode"
)

// TestDocKeywordTable checks the table of our own kinds in the package
// doc (doc.go) against the code: every Go name in it is a function of
// package behaviortree, each row's keyword is the one the parser reads for
// the kind of that name, and every keyword the parser reads is in it
// (branch, which is no kind, in the grammar above it).
func TestDocKeywordTable(t *testing.T) {
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(src)
	if !strings.Contains(doc, `"branch" "[" Name "]"`) {
		t.Error(`the grammar in doc.go does not show "branch"`)
	}
	_, table, ok := strings.Cut(doc, "//\tkind ")
	if !ok {
		t.Fatal("doc.go has no table of kinds (a line \"//\\tkind ...\")")
	}
	table, _, _ = strings.Cut(table, "\n//\n")
	lines := strings.Split(table, "\n")[1:] // after the header

	funcs := rootFuncs(t)
	seen := map[string]bool{}
	row := func(goName, kw string) {
		if !funcs[goName] {
			t.Errorf("doc.go's table names %s, which is not a function of package behaviortree", goName)
		}
		kind, ok := kindByKeyword[kw]
		if !ok || kw == "branch" {
			t.Errorf("doc.go's table gives %s the keyword %q, which the parser does not read as a kind", goName, kw)
			return
		}
		if got := kind.String(); got != snake(goName) {
			t.Errorf("doc.go's table gives %s the keyword %q, which is the kind %s", goName, kw, got)
		}
		seen[kw] = true
	}
	for _, line := range lines {
		text, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			t.Fatalf("doc.go: a line of the table of kinds is not indented as the others: %q", line)
		}
		f := strings.Fields(text)
		if len(f) < 2 {
			t.Errorf("doc.go: a row of the table of kinds has no keyword: %q", text)
			continue
		}
		if names, kws, ok := strings.Cut(text, ": "); ok && strings.HasSuffix(f[0], ",") { // "A, B: a, b"
			gs, ks := strings.Split(names, ", "), strings.Split(kws, ", ")
			if len(gs) != len(ks) {
				t.Errorf("doc.go: %d names and %d keywords in %q", len(gs), len(ks), text)
				continue
			}
			for i := range gs {
				row(strings.TrimSpace(gs[i]), strings.TrimSpace(ks[i]))
			}
			continue
		}
		kw, _, _ := strings.Cut(f[1], "[")
		row(f[0], kw)
	}
	for kw := range kindByKeyword {
		if kw != "branch" && !seen[kw] {
			t.Errorf("the parser's keyword %q is missing from doc.go's table of kinds", kw)
		}
	}
	if len(seen) < 20 {
		t.Errorf("doc.go's table of kinds has %d keywords", len(seen))
	}
}

// snake returns a Go name in the words of kind.Kind's String:
// RepeatUntilFail is repeat_until_fail.
func snake(name string) string {
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// rootFuncs returns the exported functions of package behaviortree.
func rootFuncs(t *testing.T) map[string]bool {
	t.Helper()
	fs := gotoken.NewFileSet()
	pkgs, err := goparser.ParseDir(fs, "..", func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.IsExported() {
					names[fn.Name.Name] = true
				}
			}
		}
	}
	return names
}
