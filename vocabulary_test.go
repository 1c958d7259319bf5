package behaviortree_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mdsl"
)

// TestVocabularyTable checks the README's vocabulary table against the
// code: every MDSL keyword in it is one the parser reads, every kind's
// keyword is in it, every BehaviorTree.CPP built-in (kind.CPP) and
// pre/post attribute is in it, and every Go name in it is an exported name
// of the package (or a method of one).
func TestVocabularyTable(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "## Vocabulary\n")
	if !ok {
		t.Fatal("README.md has no Vocabulary section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	code := regexp.MustCompile("`([^`]*)`")
	word := regexp.MustCompile(`^[A-Za-z_$][A-Za-z_]*`)

	keywords := map[string]bool{"while": true, "until": true, "entry": true, "step": true, "exit": true, "$name": true}
	for k := kind.Kind(0); k.String() != "" && !strings.HasPrefix(k.String(), "Kind("); k++ {
		if kw := k.MDSL(); kw != "" {
			keywords[kw] = false // not yet seen in the table
		}
	}
	exported := exportedNames(t, ".")
	// Every BehaviorTree.CPP built-in and pre/post attribute has a row.
	cpp := map[string]bool{}
	for _, c := range kind.CPPKinds() {
		cpp[c.ID()] = false
	}
	for _, a := range []string{"_skipIf", "_successIf", "_failureIf", "_while", "_onSuccess", "_onFailure", "_onHalted", "_post"} {
		cpp[a] = false
	}
	rows := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 8 || strings.HasPrefix(cells[1], "---") || strings.TrimSpace(cells[1]) == "idea" {
			continue
		}
		rows++
		for _, m := range code.FindAllStringSubmatch(cells[6], -1) { // BehaviorTree.CPP
			if _, known := cpp[m[1]]; known {
				cpp[m[1]] = true
			}
		}
		for _, m := range code.FindAllStringSubmatch(cells[3], -1) { // MDSL
			kw := word.FindString(m[1])
			if _, known := keywords[kw]; !known {
				t.Errorf("the table's MDSL %q is not a keyword of the parser", m[1])
				continue
			}
			keywords[kw] = true
			if kw == "$name" || kw == "while" || kw == "until" || kw == "entry" || kw == "step" || kw == "exit" {
				continue
			}
			for _, err := range mdsl.Check("vocabulary", []byte("root { "+kw+" }")) {
				if strings.Contains(err.Error(), "unknown") {
					t.Errorf("the parser does not know %q: %v", kw, err)
				}
			}
		}
		for _, m := range code.FindAllStringSubmatch(cells[2], -1) { // Go
			name := word.FindString(m[1])
			if name == "" || strings.ToUpper(name) == name || strings.HasPrefix(m[1], "time.") {
				continue // READY and the like are State's names, not Go's
			}
			if pkg, rest, ok := strings.Cut(m[1], "."); ok && subpackages[pkg] {
				if !exportedNames(t, pkg)[strings.TrimRight(rest, "()")] {
					t.Errorf("the table's Go name %q is not an exported name of package %s", m[1], pkg)
				}
			} else if typ, method, isMethod := strings.Cut(m[1], "."); isMethod {
				if !exported[typ+"."+word.FindString(method)] {
					t.Errorf("the table's Go name %q is not a method of the package", m[1])
				}
			} else if !exported[name] {
				t.Errorf("the table's Go name %q is not an exported name of the package", m[1])
			}
		}
	}
	if rows < 20 {
		t.Fatalf("the vocabulary table has %d rows", rows)
	}
	for kw, seen := range keywords {
		if !seen {
			t.Errorf("MDSL keyword %q is missing from the vocabulary table", kw)
		}
	}
	for id, seen := range cpp {
		if !seen {
			t.Errorf("BehaviorTree.CPP's %q is missing from the vocabulary table", id)
		}
	}
}

// subpackages are the packages whose names the vocabulary table may
// qualify a Go name with.
var subpackages = map[string]bool{"attr": true, "kind": true, "memory": true, "custom": true, "fluent": true, "observe": true, "mdsl": true, "mistreevous": true}

// exportedNames returns the exported top-level names and exported methods
// (as Type.Method) of the package in dir.
func exportedNames(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fs := token.NewFileSet()
	pkgs, err := parser.ParseDir(fs, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if d.Recv == nil {
						names[d.Name.Name] = true
						continue
					}
					typ := d.Recv.List[0].Type
					for {
						switch x := typ.(type) {
						case *ast.StarExpr:
							typ = x.X
							continue
						case *ast.IndexExpr:
							typ = x.X
							continue
						case *ast.IndexListExpr:
							typ = x.X
							continue
						}
						break
					}
					if id, ok := typ.(*ast.Ident); ok {
						names[id.Name+"."+d.Name.Name] = true
					}
				case *ast.GenDecl:
					for _, s := range d.Specs {
						switch s := s.(type) {
						case *ast.TypeSpec:
							names[s.Name.Name] = true
						case *ast.ValueSpec:
							for _, n := range s.Names {
								names[n.Name] = true
							}
						}
					}
				}
			}
		}
	}
	return names
}
