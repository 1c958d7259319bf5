package behaviortree_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/fluent"
	"github.com/zipbt/behaviortree/internal/testlong"
	"github.com/zipbt/behaviortree/kind"
)

// maxTextIndent is the levels of branches that WriteText draws (its doc).
const maxTextIndent = 48

func text(t *testing.T, p bt.Picture, style bt.TextStyle) string {
	t.Helper()
	var b strings.Builder
	if err := p.WriteText(&b, style); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteTextVersions(t *testing.T) {
	tree := bt.Start(aiB())
	cases := []struct {
		name           string
		p              bt.Picture
		ascii, unicode string
	}{
		{"definition", aiB().Picture(), `
[ ] sequence
|- [ ] action top_left
` + "`" + `- [ ] repeat_until_fail
   ` + "`" + `- [ ] selector
      |- [ ] action go_right
      ` + "`" + `- [ ] action beginning_of_next_row
`, `
○ sequence
├─ ○ action top_left
└─ ○ repeat_until_fail
   └─ ○ selector
      ├─ ○ action go_right
      └─ ○ action beginning_of_next_row
`},
		{"start", tree.Picture(), `
[>] sequence
|- [>] action top_left  <- focus
` + "`" + `- [ ] repeat_until_fail
   ` + "`" + `- [ ] selector
      |- [ ] action go_right
      ` + "`" + `- [ ] action beginning_of_next_row
`, `
▶ sequence
├─ ▶ action top_left  ◀ focus
└─ ○ repeat_until_fail
   └─ ○ selector
      ├─ ○ action go_right
      └─ ○ action beginning_of_next_row
`},
		{"after succeed, fail", tree.Succeed().Fail().Picture(), `
[>] sequence
|- [+] action top_left
` + "`" + `- [>] repeat_until_fail
   ` + "`" + `- [>] selector
      |- [x] action go_right
      ` + "`" + `- [>] action beginning_of_next_row  <- focus
`, `
▶ sequence
├─ ✔ action top_left
└─ ▶ repeat_until_fail
   └─ ▶ selector
      ├─ ✘ action go_right
      └─ ▶ action beginning_of_next_row  ◀ focus
`},
	}
	for _, c := range cases {
		if got := text(t, c.p, bt.ASCII); got != c.ascii[1:] {
			t.Errorf("%s, ASCII:\n%s\nwant\n%s", c.name, got, c.ascii[1:])
		}
		if got := text(t, c.p, bt.Unicode); got != c.unicode[1:] {
			t.Errorf("%s, Unicode:\n%s\nwant\n%s", c.name, got, c.unicode[1:])
		}
		if got := c.p.String(); got != c.unicode[1:] {
			t.Errorf("%s: String is not the Unicode text:\n%s", c.name, got)
		}
	}
}

func TestPictureParamsAndLabels(t *testing.T) {
	def := bt.Select(
		bt.RepeatN(3, bt.Leaf("a\nb")),
		bt.RandomWeighted(bt.WithWeight(3, bt.Leaf(`say "hi" [x] {y} <z> & #1 \N`)), bt.WithWeight(1, bt.Negate(bt.Leaf("ünï")))),
	)
	got := text(t, def.Picture(), bt.ASCII)
	want := "[ ] selector\n" +
		"|- [ ] repeat_n[3]\n" +
		"|  `- [ ] action a\\nb\n" +
		"`- [ ] random_weighted[3,1]\n" +
		"   |- [ ] action say \"hi\" [x] {y} <z> & #1 \\N\n" +
		"   `- [ ] flip\n" +
		"      `- [ ] action ünï\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// pathStates computes, from the public Path and Size alone, the states
// that Tree.Picture documents, and the focus's preorder index.
func pathStates[L any](tr bt.Tree[L]) ([]bt.State, int) {
	states := make([]bt.State, tr.Definition().Size())
	at := 0
	for nd, next := range tr.Path() {
		states[at] = bt.StateRunning
		if next < 0 {
			return states, at
		}
		c := at + 1
		for i := 0; i < next; i++ {
			switch nd.Kind() {
			case kind.Sequence:
				states[c] = bt.StateSucceeded
			case kind.Select:
				states[c] = bt.StateFailed
			}
			c += nd.Child(i).Size()
		}
		at = c
	}
	panic("the path has no leaf")
}

func TestTreeNodeStatesMatchPath(t *testing.T) {
	def := bt.Sequence(
		bt.Select(bt.Leaf(0), bt.Sequence(bt.Leaf(1), bt.Leaf(2))),
		bt.RepeatN(2, bt.Random(bt.Leaf(3), bt.Select(bt.Leaf(4), bt.Leaf(5)))),
		bt.RepeatUntilFail(bt.Sequence(bt.Leaf(6), bt.AlwaysFail(bt.Leaf(7)), bt.Leaf(8))),
	)
	tr := bt.Start(def, bt.WithSeed(7))
	var buf []bt.State
	for i := 0; i < 200; i++ {
		want, wantFocus := pathStates(tr)
		buf = tr.NodeStates(buf)
		focus := tr.FocusIndex()
		for j := range buf {
			if s := tr.NodeState(j); s != buf[j] {
				t.Fatalf("version %d: NodeState(%d) = %v, NodeStates has %v", i, j, s, buf[j])
			}
		}
		if focus != wantFocus || fmt.Sprint(buf) != fmt.Sprint(want) {
			t.Fatalf("version %d: NodeStates = %v, focus %d; want %v, focus %d", i, buf, focus, want, wantFocus)
		}
		p := tr.Picture()
		for j, nd := range p.Nodes {
			if nd.State != want[j] || nd.Focus != (j == wantFocus) {
				t.Fatalf("version %d: Picture node %d = %+v", i, j, nd)
			}
		}
		if v, _ := p.Nodes[focus].Label, 0; v != fmt.Sprint(tr.Value()) {
			t.Fatalf("version %d: focus label %q, value %v", i, v, tr.Value())
		}
		if (i*7)%3 == 0 {
			tr = tr.Fail()
		} else {
			tr = tr.Succeed()
		}
	}
	if n := testing.AllocsPerRun(100, func() { buf = tr.NodeStates(buf) }); n != 0 {
		t.Errorf("NodeStates with a long enough buffer allocates %v times", n)
	}
}

func TestSteppedPicture(t *testing.T) {
	def := bt.Sequence(bt.Leaf("a"), bt.Parallel(bt.Wait[string](100*time.Millisecond).With(attr.While("ok").ThenSucceed(), attr.Exit("bye")), bt.Leaf("slow")), bt.RepeatCount(3, bt.Condition("c")))
	agent := bt.Agent[string]{
		Action: func(v string) bt.Result {
			if v == "slow" {
				return bt.ResultRunning
			}
			return bt.ResultSuccess
		},
		Condition: func(string) bool { return true },
		Exit:      func(string, bool, bool) {},
	}
	st, err := bt.NewStepped(def, agent, bt.WithTurnClock(10*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	if st, err = st.Step(); err != nil {
		t.Fatal(err)
	}
	p := st.Picture()
	if n := len(slices.Collect(st.Nodes())); len(p.Nodes) != n {
		t.Fatalf("%d nodes, want %d", len(p.Nodes), n)
	}
	for i, nd := range p.Nodes {
		if nd.State != st.NodeState(i) {
			t.Errorf("node %d: state %v, want %v", i, nd.State, st.NodeState(i))
		}
	}
	want := `
▶ root
└─ ▶ sequence
   ├─ ✔ action a
   ├─ ▶ parallel
   │  ├─ ▶ wait[100] while(ok) then succeed exit(bye)  ◀ focus
   │  └─ ▶ action slow  ◀ focus
   └─ ○ repeat[3]
      └─ ○ condition c
`[1:]
	if got := text(t, p, bt.Unicode); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// A definition that is a Root has no implicit root.
	st2, err := bt.NewStepped(bt.Root(bt.Leaf("a")), agent)
	if err != nil {
		t.Fatal(err)
	}
	if got := text(t, st2.Picture(), bt.ASCII); got != "[ ] root\n`- [ ] action a\n" {
		t.Errorf("got %q", got)
	}
}

// negations returns n decorators over a leaf.
func negations(n int) bt.Node[string] {
	d := bt.Leaf("bottom")
	for i := 0; i < n; i++ {
		d = bt.Negate(d)
	}
	return d
}

func TestWriteTextHuge(t *testing.T) {
	n := testlong.Pick(20_000, 100_000) // both far past maxTextIndent
	deep := negations(n - 1)
	tr := bt.Start(deep)
	var b bytes.Buffer
	if err := tr.Picture().WriteText(&b, bt.ASCII); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines, want %d", len(lines), n)
	}
	maxLen := 0
	for _, l := range lines {
		maxLen = max(maxLen, len(l))
	}
	if maxLen > 3*maxTextIndent+60 {
		t.Errorf("longest line has %d bytes: indentation is not bounded", maxLen)
	}
	if last := lines[n-1]; !strings.HasPrefix(last, fmt.Sprintf("...(depth %d) ", n-1)) || !strings.HasSuffix(last, "`- [>] action bottom  <- focus") {
		t.Errorf("last line %q", last)
	}
	if l := lines[maxTextIndent+1]; strings.HasPrefix(l, "...") {
		t.Errorf("line at depth %d folded: %q", maxTextIndent+1, l)
	}

	wide := bt.Select(leaves(strings.Split(strings.Repeat("x,", n-2)+"y", ",")...)...)
	tw := bt.Start(wide)
	for i := 0; i < n-2; i++ {
		tw = tw.Fail()
	}
	b.Reset()
	if err := tw.Picture().WriteText(&b, bt.Unicode); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Count(b.String(), "\n"), n; got != want {
		t.Fatalf("%d lines, want %d", got, want)
	}
	if !strings.HasSuffix(b.String(), "└─ ▶ action y  ◀ focus\n") || strings.Count(b.String(), "✘ action x") != n-2 {
		t.Errorf("wide picture ends %q", b.String()[b.Len()-80:])
	}
}

func TestPictureCheck(t *testing.T) {
	good := aiB().Picture()
	bad := map[string]func(p *bt.Picture){
		"empty":          func(p *bt.Picture) { p.Nodes = nil },
		"root parent":    func(p *bt.Picture) { p.Nodes[0].Parent = 2 },
		"parent after":   func(p *bt.Picture) { p.Nodes[1].Parent = 3 },
		"negative":       func(p *bt.Picture) { p.Nodes[4].Parent = -1 },
		"depth":          func(p *bt.Picture) { p.Nodes[3].Depth = 7 },
		"not contiguous": func(p *bt.Picture) { p.Nodes[5].Parent, p.Nodes[5].Depth = 1, 2 },
	}
	for name, spoil := range bad {
		p := bt.Picture{Nodes: append([]bt.PictureNode(nil), good.Nodes...)}
		spoil(&p)
		for what, write := range map[string]func() error{
			"text":    func() error { return p.WriteText(&bytes.Buffer{}, bt.ASCII) },
			"dot":     func() error { return p.WriteDOT(&bytes.Buffer{}) },
			"mermaid": func() error { return p.WriteMermaid(&bytes.Buffer{}) },
		} {
			if err := write(); err == nil {
				t.Errorf("%s, %s: no error", name, what)
			}
		}
	}
	if err := good.WriteText(&bytes.Buffer{}, bt.TextStyle(9)); err == nil {
		t.Error("unknown style: no error")
	}
}

// failWriter fails every write.
type failWriter struct{}

var errFull = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errFull }

func TestRenderWriteErrors(t *testing.T) {
	p := bt.Start(aiB()).Picture()
	for what, err := range map[string]error{
		"text":    p.WriteText(failWriter{}, bt.Unicode),
		"dot":     p.WriteDOT(failWriter{}),
		"mermaid": p.WriteMermaid(failWriter{}),
	} {
		if !errors.Is(err, errFull) {
			t.Errorf("%s: error %v does not wrap the writer's", what, err)
		}
	}
}

// pictures are the pictures that the DOT and Mermaid tests draw: every
// kind, every state, awkward labels.
func pictures(t *testing.T) map[string]bt.Picture {
	t.Helper()
	awkward := bt.Sequence(
		bt.Leaf(`quote " backslash \ \N \G \l brackets [x] (y) {z} <b>&amp; #35; pipe | semicolon ; end`),
		bt.Select(bt.Leaf("end"), bt.Leaf("line\nbreak\ttab"), bt.Leaf("graph"), bt.Leaf("ünïcödé ✔ 🌊")),
		bt.RepeatN(2, bt.Random(bt.Leaf("a"), bt.Leaf("b"))),
		bt.RandomWeighted(bt.WithWeight(2, bt.AlwaysSucceed(bt.Leaf("c"))), bt.WithWeight(5, bt.AlwaysFail(bt.Negate(bt.Leaf("d"))))),
		bt.RepeatUntilFail(bt.RepeatUntilSucceed(bt.Leaf("e"))),
	)
	tr := bt.Start(awkward, bt.WithSeed(3)).Succeed().Fail().Fail().Fail()
	stepDef := bt.Sequence(
		bt.Condition("ok?"),
		bt.Race(bt.Wait[string](50*time.Millisecond), bt.WaitRange[string](1*time.Millisecond, 9*time.Millisecond), bt.WaitForever[string]()),
		bt.All(bt.Lotto([]int{1, 2}, bt.Leaf("x"), bt.Leaf("y")), bt.Lotto(nil, bt.Leaf("z"))),
		bt.Repeat(bt.Retry(bt.RetryRange(1, 3, bt.RepeatRange(2, 4, bt.Leaf(`act "now"`).With(attr.Entry("in"), attr.OnStep("tick")))))),
		bt.Parallel(bt.Leaf("p").With(attr.Until("done")), bt.Leaf("q")),
		bt.ReactiveSequence(bt.Leaf("r1"), bt.EmptyInverter[string](), bt.ReactiveSelect[string](), bt.ReactiveParallel(1, 2, bt.Leaf("r2"))),
	)
	agent := bt.Agent[string]{
		Action:    func(v string) bt.Result { return bt.ResultRunning },
		Condition: func(v string) bool { return v == "ok?" },
		Entry:     func(string) {}, OnStep: func(string) {},
	}
	st, err := bt.NewStepped(stepDef, agent, bt.WithTurnClock(10*time.Millisecond), bt.WithSeed(1))
	if err != nil {
		t.Fatal(err)
	}
	st, err = st.Step()
	if err != nil {
		t.Fatal(err)
	}
	fail, err := bt.NewStepped(bt.Sequence(bt.Condition("no"), bt.Leaf("x")), agent)
	if err != nil {
		t.Fatal(err)
	}
	fail, _ = fail.Step()
	return map[string]bt.Picture{
		"definition":    awkward.Picture(),
		"version":       tr.Picture(),
		"stepped":       st.Picture(),
		"stepped fail":  fail.Picture(),
		"battleship B":  bt.Start(aiB()).Succeed().Fail().Picture(),
		"single leaf":   bt.Leaf("alone").Picture(),
		"threshold":     bt.Threshold(2, -1, bt.Leaf("t1"), bt.Leaf("t2"), bt.Leaf("t3")).Picture(),
		"hand-made bad": {Nodes: []bt.PictureNode{{Parent: -1, Kind: kind.Kind(200), State: bt.State(9), Label: `"]`}}},
	}
}

// ciRequired reports whether a missing tool must fail the test: on CI.
func ciRequired() bool { return os.Getenv("CI") == "true" }

func TestWriteDOTGraphviz(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		if ciRequired() {
			t.Fatal("Graphviz's dot is not installed, and CI=true: install Debian's graphviz package")
		}
		t.Skip("Graphviz's dot is not installed (Debian: apt-get install graphviz); skipping the DOT rendering test")
	}
	for name, p := range pictures(t) {
		var b bytes.Buffer
		if err := p.WriteDOT(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		src := b.String()
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin = strings.NewReader(src)
		var out, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("%s: dot -Tsvg: %v\n%s\n%s", name, err, stderr.String(), src)
			continue
		}
		svg := out.String()
		if !strings.Contains(svg, "<svg") {
			t.Errorf("%s: no SVG from dot", name)
		}
		if got, want := strings.Count(svg, `class="node"`), len(p.Nodes); got != want {
			t.Errorf("%s: %d nodes in the SVG, want %d", name, got, want)
		}
		if got, want := strings.Count(svg, `class="edge"`), len(p.Nodes)-1; got != want {
			t.Errorf("%s: %d edges in the SVG, want %d", name, got, want)
		}
		for i, nd := range p.Nodes {
			second := strings.TrimSpace(nd.Label + " " + nd.Attrs)
			if second == "" || strings.ContainsAny(second, "\\\n\t&<>\"") {
				continue
			}
			if !strings.Contains(svg, ">"+second+"<") {
				t.Errorf("%s: node %d's label %q is not a text of the SVG", name, i, second)
			}
		}
		if name == "definition" && !strings.Contains(svg, `quote &quot; backslash \ \N \G \l brackets`) {
			t.Errorf("%s: the awkward label did not come out literally:\n%s", name, svg)
		}
	}
}

func TestWriteDOTShapesAndColours(t *testing.T) {
	var b bytes.Buffer
	if err := bt.Start(aiB()).Succeed().Fail().Picture().WriteDOT(&b); err != nil {
		t.Fatal(err)
	}
	src := b.String()
	for _, want := range []string{
		`n0 [label="sequence", shape=box, style="filled", fillcolor="#ffe599"`,
		`n1 [label="action\ntop_left", shape=box, style="rounded,filled", fillcolor="#b6d7a8"`,
		`n2 [label="repeat_until_fail", shape=hexagon`,
		`n3 [label="selector", shape=diamond`,
		`n4 [label="action\ngo_right", shape=box, style="rounded,filled", fillcolor="#ea9999"`,
		`n5 [label="action\nbeginning_of_next_row", shape=box, style="rounded,filled", fillcolor="#ffe599", color="#1155cc", tooltip="running", penwidth=3, peripheries=2`,
		"n0 -> n1;\n\tn0 -> n2;\n\tn2 -> n3;\n\tn3 -> n4;\n\tn3 -> n5;\n}",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("no %q in\n%s", want, src)
		}
	}
}

// The mermaid patterns are the grammar of the lines WriteMermaid writes: a subset
// of Mermaid's flowchart grammar (flow.jison) in which node texts are
// double-quoted strings holding no quote and no '#' other than entity
// codes, so that nothing in a label can be read as syntax.
var (
	mermaidText  = `"(?:[A-Za-z0-9 _\-.,:+=!?@$%']|#[0-9]+;)*"`
	mermaidShape = `(?:\(\[` + mermaidText + `\]\)|\(\(` + mermaidText + `\)\)|>` + mermaidText + `\]|\[` + mermaidText + `\]|\{` + mermaidText + `\}|\[/` + mermaidText + `/\]|\[/` + mermaidText + `\\\]|\[\\` + mermaidText + `\\\]|\[\[` + mermaidText + `\]\]|\{\{` + mermaidText + `\}\}|\[\(` + mermaidText + `\)\])`
	mermaidNode  = regexp.MustCompile(`^    (n[0-9]+)` + mermaidShape + `$`)
	mermaidEdge  = regexp.MustCompile(`^    (n[0-9]+) --> (n[0-9]+)$`)
	mermaidDef   = regexp.MustCompile(`^    classDef ([a-z]+) fill:#[0-9a-f]{6},stroke:#[0-9a-f]{6},color:#000000$`)
	mermaidClass = regexp.MustCompile(`^    class (n[0-9]+(?:,n[0-9]+)*) ([a-z]+)$`)
	mermaidStyle = regexp.MustCompile(`^    style (n[0-9]+) ` + mermaidDecl1 + `(?:,` + mermaidDecl1 + `)*$`)
	mermaidDecl1 = `(?:stroke:#[0-9a-f]{6}|stroke-width:[0-9]+px|stroke-dasharray:[0-9]+ [0-9]+)`
	mermaidDecl  = regexp.MustCompile(`#([0-9]+);`)
)

// checkMermaid checks a flowchart against the grammar above: every line
// parses, every id is declared once before use, every class is defined
// before it is used, and every node is in exactly one state class. It
// returns the decoded texts of the nodes.
func checkMermaid(t *testing.T, name, src string, nodes int) []string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	if lines[0] != "flowchart TD" {
		t.Fatalf("%s: first line %q", name, lines[0])
	}
	declared := map[string]int{}
	var texts []string
	classes := map[string]bool{}
	inClass := map[string]int{}
	edges := 0
	for i, l := range lines[1:] {
		switch {
		case mermaidNode.MatchString(l):
			id := mermaidNode.FindStringSubmatch(l)[1]
			if _, dup := declared[id]; dup || edges > 0 {
				t.Errorf("%s line %d: %s declared twice or after edges", name, i+2, id)
			}
			declared[id] = len(texts)
			q := l[strings.IndexByte(l, '"')+1 : strings.LastIndexByte(l, '"')]
			texts = append(texts, mermaidDecl.ReplaceAllStringFunc(q, func(e string) string {
				n, _ := strconv.Atoi(e[1 : len(e)-1])
				return string(rune(n))
			}))
		case mermaidEdge.MatchString(l):
			m := mermaidEdge.FindStringSubmatch(l)
			for _, id := range m[1:] {
				if _, ok := declared[id]; !ok {
					t.Errorf("%s line %d: edge to undeclared %s", name, i+2, id)
				}
			}
			edges++
		case mermaidDef.MatchString(l):
			classes[mermaidDef.FindStringSubmatch(l)[1]] = true
		case mermaidClass.MatchString(l):
			m := mermaidClass.FindStringSubmatch(l)
			if !classes[m[2]] {
				t.Errorf("%s line %d: class %s used before its classDef", name, i+2, m[2])
			}
			for _, id := range strings.Split(m[1], ",") {
				if _, ok := declared[id]; !ok {
					t.Errorf("%s line %d: class on undeclared %s", name, i+2, id)
				}
				inClass[id]++
			}
		case mermaidStyle.MatchString(l):
			if _, ok := declared[mermaidStyle.FindStringSubmatch(l)[1]]; !ok {
				t.Errorf("%s line %d: style on an undeclared node", name, i+2)
			}
		default:
			t.Errorf("%s line %d: not in the grammar: %q", name, i+2, l)
		}
	}
	if len(texts) != nodes || edges != nodes-1 {
		t.Errorf("%s: %d nodes and %d edges, want %d and %d", name, len(texts), edges, nodes, nodes-1)
	}
	for id := range declared {
		if inClass[id] != 1 && nodes > 1 {
			t.Errorf("%s: %s is in %d state classes", name, id, inClass[id])
		}
	}
	return texts
}

func TestWriteMermaidGrammar(t *testing.T) {
	for name, p := range pictures(t) {
		var b bytes.Buffer
		if err := p.WriteMermaid(&b); err != nil {
			t.Fatal(err)
		}
		texts := checkMermaid(t, name, b.String(), len(p.Nodes))
		for i, nd := range p.Nodes {
			if i >= len(texts) {
				break
			}
			if nd.Label != "" && nd.Label != `"]` && !strings.Contains(texts[i], nd.Label) {
				t.Errorf("%s: node %d's text %q does not decode to its label %q", name, i, texts[i], nd.Label)
			}
		}
	}
	var b bytes.Buffer
	if err := bt.Start(aiB()).Succeed().Fail().Picture().WriteMermaid(&b); err != nil {
		t.Fatal(err)
	}
	want := `flowchart TD
    n0["sequence"]
    n1(["action top_left"])
    n2{{"repeat_until_fail"}}
    n3{"selector"}
    n4(["action go_right"])
    n5(["action beginning_of_next_row"])
    n0 --> n1
    n0 --> n2
    n2 --> n3
    n3 --> n4
    n3 --> n5
    classDef ready fill:#f3f3f3,stroke:#999999,color:#000000
    classDef running fill:#ffe599,stroke:#bf9000,color:#000000
    classDef succeeded fill:#b6d7a8,stroke:#38761d,color:#000000
    classDef failed fill:#ea9999,stroke:#990000,color:#000000
    class n0,n2,n3,n5 running
    class n1 succeeded
    class n4 failed
    style n5 stroke:#1155cc,stroke-width:4px
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWriteMermaidManyClasses(t *testing.T) {
	p := bt.Select(leaves(strings.Split(strings.Repeat("x,", 99)+"x", ",")...)...).Picture()
	var b bytes.Buffer
	if err := p.WriteMermaid(&b); err != nil {
		t.Fatal(err)
	}
	checkMermaid(t, "wide", b.String(), 101)
	if n := strings.Count(b.String(), "class n"); n != 3 {
		t.Errorf("%d class lines for 101 ready nodes, want 3", n)
	}
}

// drawn is how DOT and Mermaid draw a lone node of some kind, its text
// left out.
type drawn struct {
	dotShape, dotStyle string // DOT's shape and style attributes
	open, close        string // Mermaid's brackets
	border             string // the declarations of Mermaid's style line, or ""
}

func (d drawn) dot() string     { return d.dotShape + " " + d.dotStyle }
func (d drawn) mermaid() string { return d.open + " " + d.close + " " + d.border }

var dotNodeLine = regexp.MustCompile(`\tn0 \[label="[^"]*", shape=([^,]*), style="([^"]*)"`)

// drawing returns how DOT and Mermaid draw a lone node of kind k.
func drawing(t *testing.T, k kind.Kind) drawn {
	t.Helper()
	p := bt.Picture{Nodes: []bt.PictureNode{{Parent: -1, Kind: k}}}
	var d, m bytes.Buffer
	if err := p.WriteDOT(&d); err != nil {
		t.Fatalf("%s: %v", k, err)
	}
	if err := p.WriteMermaid(&m); err != nil {
		t.Fatalf("%s: %v", k, err)
	}
	dm := dotNodeLine.FindStringSubmatch(d.String())
	if dm == nil {
		t.Fatalf("%s: no node line in\n%s", k, d.String())
	}
	dr := drawn{dotShape: dm[1], dotStyle: dm[2]}
	for _, l := range strings.Split(m.String(), "\n") {
		switch {
		case strings.HasPrefix(l, "    n0"):
			dr.open, dr.close = l[len("    n0"):strings.IndexByte(l, '"')], l[strings.LastIndexByte(l, '"')+1:]
		case strings.HasPrefix(l, "    style n0 "):
			dr.border = l[len("    style n0 "):]
		}
	}
	if dr.open == "" {
		t.Fatalf("%s: no node line in\n%s", k, m.String())
	}
	return dr
}

// allKinds returns every kind of the package, in order: the kinds up to
// the first one whose String is Kind's fallback for an unknown kind.
func allKinds() []kind.Kind {
	var ks []kind.Kind
	for k := kind.Kind(0); !strings.HasPrefix(k.String(), "Kind("); k++ {
		ks = append(ks, k)
	}
	return ks
}

// TestKindDrawings checks that every kind has a drawing of its own in DOT
// and in Mermaid: none draws as an unknown kind does (so a new kind without
// a look in the table of kinds fails here), and two kinds draw alike only
// when they are in one of the groups below, which share a shape on purpose.
func TestKindDrawings(t *testing.T) {
	alike := [][]string{
		{"parallel", "race", "all"},
		{"random", "random_weighted", "lotto"},
		{"repeat_until_fail", "repeat_until_succeed", "repeat_n", "always_succeed", "always_fail", "negate", "repeat", "retry"},
	}
	group := map[string]int{}
	for i, g := range alike {
		for _, name := range g {
			group[name] = i + 1
		}
	}
	ks := allKinds()
	if len(ks) < 26 {
		t.Fatalf("only %d kinds found: %v", len(ks), ks)
	}
	unknown := drawing(t, kind.Kind(200))
	dr := map[kind.Kind]drawn{}
	for _, k := range ks {
		dr[k] = drawing(t, k)
		if dr[k].dot() == unknown.dot() {
			t.Errorf("%s draws in DOT as an unknown kind: %s", k, dr[k].dot())
		}
		if dr[k].mermaid() == unknown.mermaid() {
			t.Errorf("%s draws in Mermaid as an unknown kind: %s", k, dr[k].mermaid())
		}
	}
	for i, a := range ks {
		for _, b := range ks[i+1:] {
			same := group[a.String()] != 0 && group[a.String()] == group[b.String()]
			if got := dr[a].dot() == dr[b].dot(); got != same {
				t.Errorf("DOT: %s (%s) and %s (%s): alike %v, want %v", a, dr[a].dot(), b, dr[b].dot(), got, same)
			}
			if got := dr[a].mermaid() == dr[b].mermaid(); got != same {
				t.Errorf("Mermaid: %s (%s) and %s (%s): alike %v, want %v", a, dr[a].mermaid(), b, dr[b].mermaid(), got, same)
			}
		}
	}
}

// TestReactiveKindDrawings checks that a reactive kind draws as its twin,
// the same shape, with a dashed border, and Threshold with a shape that no
// other kind has.
func TestReactiveKindDrawings(t *testing.T) {
	for _, tw := range []struct{ reactive, twin kind.Kind }{
		{kind.ReactiveSequence, kind.Sequence},
		{kind.ReactiveSelect, kind.Select},
		{kind.ReactiveParallel, kind.Parallel},
		{kind.EmptyInverter, kind.Negate},
	} {
		r, w := drawing(t, tw.reactive), drawing(t, tw.twin)
		if r.dotShape != w.dotShape || r.open != w.open || r.close != w.close {
			t.Errorf("%s is shaped %+v, its twin %s %+v: want the same shape", tw.reactive, r, tw.twin, w)
		}
		if r.dotStyle != w.dotStyle+",dashed" {
			t.Errorf("%s has the DOT style %q, want %s's %q and dashed", tw.reactive, r.dotStyle, tw.twin, w.dotStyle)
		}
		if !strings.HasPrefix(r.border, "stroke-dasharray:") || w.border != "" {
			t.Errorf("%s has the Mermaid style %q and %s %q: want a dashed border on the reactive kind only", tw.reactive, r.border, tw.twin, w.border)
		}
	}
	th := drawing(t, kind.Threshold)
	for _, k := range allKinds() {
		if d := drawing(t, k); k != kind.Threshold && (d.dotShape == th.dotShape || d.open+d.close == th.open+th.close) {
			t.Errorf("threshold is shaped %+v, as %s is (%+v): want a shape of its own", th, k, d)
		}
	}
}

// TestFluentPicture checks that a tree built with a fluent.Builder draws
// its Selector as a select and its Sequence as a sequence, both dashed
// (they are the reactive kinds), and not alike.
func TestFluentPicture(t *testing.T) {
	def, err := fluent.NewBuilder().
		Sequence("seq").
		Selector("sel").
		Condition("c", func(bt.TimeData) bool { return true }).
		End().
		Parallel("par", 1, 1).Do("a", func(bt.TimeData) bt.Status { return bt.Success }).End().
		End().Build()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := def.Picture().WriteDOT(&b); err != nil {
		t.Fatal(err)
	}
	src := b.String()
	for _, want := range []string{
		`n0 [label="reactive_sequence", shape=box, style="filled,dashed"`,
		`n1 [label="reactive_selector", shape=diamond, style="filled,dashed"`,
		`n3 [label="reactive_parallel[1,1]", shape=parallelogram, style="filled,dashed"`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("no %q in\n%s", want, src)
		}
	}
	b.Reset()
	if err := def.Picture().WriteMermaid(&b); err != nil {
		t.Fatal(err)
	}
	src = b.String()
	checkMermaid(t, "fluent", src, 5)
	for _, want := range []string{
		`n0["reactive_sequence"]`, `n1{"reactive_selector"}`, `n3[/"reactive_parallel#91;1,1#93;"/]`,
		"style n0 stroke-dasharray:", "style n1 stroke-dasharray:", "style n3 stroke-dasharray:",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("no %q in\n%s", want, src)
		}
	}
}
