package mdsl

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/hook"
)

// checkSites checks that the places Parse records for the tree it read
// from text are where each node is written: a leaf's at its call's name,
// another node's at its keyword, an attribute's at its call's name, and
// none for what a node does not have; and that a picture of the tree
// names each kind by the keyword written there.
func checkSites(t *testing.T, name string, text []byte) {
	t.Helper()
	def, err := Parse(name, text)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	sites := sitesOf(name, text)
	if len(sites) != def.Size() {
		t.Fatalf("%s: %d places for %d nodes", name, len(sites), def.Size())
	}
	lines := bytes.Split(text, []byte("\n"))
	at := func(p hook.Pos) string {
		if p.Line < 1 || int(p.Line) > len(lines) || p.Col < 1 || int(p.Col) > len(lines[p.Line-1])+1 {
			t.Fatalf("%s: place %d:%d is outside the text", name, p.Line, p.Col)
		}
		return string(lines[p.Line-1][p.Col-1:])
	}
	pic := def.Picture()
	j := 0
	for n := range def.Preorder() {
		s := sites[j]
		// Pictures name a kind by its MDSL keyword: the word written here.
		if _, carries := n.Leaf(); !carries {
			if w := pic.Nodes[j].Word(); !strings.HasPrefix(strings.ToLower(at(s.At[0])), w) {
				t.Errorf("%s: node %d is drawn as %s, written %q", name, j, w, at(s.At[0]))
			}
		}
		if call, ok := n.Leaf(); ok {
			if got := at(s.At[0]); !strings.HasPrefix(got, call.Name) && !strings.HasPrefix(got, `"`) {
				t.Errorf("%s: node %d (%s %s) placed at %d:%d, which reads %q", name, j, n.Kind(), call.Name, s.At[0].Line, s.At[0].Col, got)
			}
		} else if kw := n.Kind().MDSL(); !strings.HasPrefix(strings.ToLower(at(s.At[0])), kw) { // keywords ignore case
			t.Errorf("%s: node %d (%s) placed at %d:%d, which reads %q", name, j, kw, s.At[0].Line, s.At[0].Col, at(s.At[0]))
		}
		var has [numAttrs]bool
		for _, a := range n.Attrs() {
			has[a.Kind] = true
			if got := at(s.At[a.Kind]); !strings.HasPrefix(got, a.Value.Name) {
				t.Errorf("%s: node %d's %s placed at %d:%d, which reads %q", name, j, a.Kind, s.At[a.Kind].Line, s.At[a.Kind].Col, got)
			}
		}
		for k := attr.KindWhile; k < numAttrs; k++ {
			if !has[k] && s.At[k] != (hook.Pos{}) {
				t.Errorf("%s: node %d has no %s, but a place for it", name, j, k)
			}
		}
		j++
	}
}

// TestSites checks the places of the nodes of the corpus's texts, of the
// sample files, and of a text whose branch is used twice and whose
// attributes and calls are spread over lines.
func TestSites(t *testing.T) {
	checkSites(t, "branches.mdsl", []byte(`root {
	sequence while(Alive) {
		branch [patrol]
		action [Rest, 2]
		branch [patrol]
	}
}
root [patrol] {
	selector entry(Enter) exit(Leave) {
		condition [Near, "x"]
		action [Walk]   step(Count)
	}
}
`))
	files, _ := filepath.Glob("../testdata/mdsl/*.mdsl")
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(f, text); err != nil {
			continue // a sample of errors
		}
		checkSites(t, f, text)
	}
	if _, err := os.Stat(mistreevousCorpus()); err != nil {
		t.Logf("no corpus: %v", err)
		return
	}
	for _, c := range readMDSLCorpus(t) {
		checkSites(t, c.ID, []byte(c.MDSL))
	}
}

// TestParseKeepsNoAliasOfText checks that the places of a tree do not
// change when the caller reuses the buffer it parsed.
func TestParseKeepsNoAliasOfText(t *testing.T) {
	text := []byte("root {\n  action [Attack]\n}\n")
	def, err := Parse("t.mdsl", text)
	if err != nil {
		t.Fatal(err)
	}
	for i := range text {
		text[i] = ' '
	}
	_, err = bt.Functions{Actions: map[string]func([]any) bt.Result{"Atack": nil}}.Agent(def)
	if err == nil || !strings.Contains(err.Error(), "t.mdsl:2:11: ") {
		t.Errorf("got %v, want the place t.mdsl:2:11 of the text as it was parsed", err)
	}
}
