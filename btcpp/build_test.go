package btcpp

import (
	"errors"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

// fuzzFactory registers a few Go leaves of each kind, with ports of every
// type, for FuzzBuildTick.
func fuzzFactory() *Factory {
	f := NewFactory()
	n := 0
	answer := func(c *Call) (Status, error) {
		n++
		_, _ = c.Int("i")
		_, _ = c.Float("d")
		_, _ = c.String("s")
		_, _ = c.Bool("b")
		_ = c.Set("o", n)
		return Status(n % 5), nil
	}
	ports := []Port{InputPort("i", "int"), InputPort("d", "double").WithDefault("{d}"), InputPort("s", "any"),
		InOutPort("b", "bool"), OutputPort("o", "int")}
	_ = f.RegisterAction("A0", Action{OnStart: answer, OnRunning: answer, OnHalted: func(*Call) {}}, ports...)
	_ = f.RegisterSync("S0", answer, ports...)
	_ = f.RegisterCondition("C0", answer, ports...)
	f.Enum("RED", 1)
	return f
}

// FuzzBuildTick reads, builds and ticks any text: errors, never a panic.
func FuzzBuildTick(f *testing.F) {
	f.Add(`<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence><A0 i="1"/><S0/></Sequence></BehaviorTree></root>`)
	f.Add(`<root><BehaviorTree ID="T"><SubTree ID="U" x="{y}"/></BehaviorTree><BehaviorTree ID="U"><Delay delay_msec="{x}"><C0/></Delay></BehaviorTree></root>`)
	f.Add(`<root><BehaviorTree><TryCatch catch_on_halt="true"><Timeout msec="5"><A0/></Timeout><Sleep msec="3"/></TryCatch></BehaviorTree></root>`)
	f.Add(`<root><BehaviorTree><LoopString queue="a;b;" value="{v}"><WaitValueUpdate entry="{v}"><Switch2 variable="{v}" case_1="a" case_2="RED"><A0/><S0/><C0/></Switch2></WaitValueUpdate></LoopString></BehaviorTree></root>`)
	if xmls, err := corpusSeeds(); err == nil {
		for _, x := range xmls {
			f.Add(x)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		doc, err := fuzzFactory().Parse(src)
		if err != nil {
			checkError(t, err)
			return
		}
		for _, id := range append(doc.Trees(), "") {
			tree, err := doc.Build(id, WithTurnClock(2*time.Millisecond), WithTickBudget(100), WithEntry("x", 1))
			if err != nil {
				checkError(t, err)
				continue
			}
			for i := 0; i < 6; i++ {
				next, _, err := tree.TickOnce()
				if err != nil {
					checkError(t, err)
					break
				}
				tree = next
			}
		}
	})
}

// checkError checks that err is an *Error.
func checkError(t *testing.T, err error) {
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%v (%T) is not an *Error", err, err)
	}
}

// corpusSeeds returns the XML texts of the first cases of the corpus.
func corpusSeeds() ([]string, error) {
	if _, err := os.Stat(conformanceCorpusFile()); err != nil {
		return nil, err
	}
	var xmls []string
	t := &testing.T{}
	for i, c := range readConformanceCases(t, conformanceCorpusFile()) {
		if i%10 == 0 || c.Name != "" {
			xmls = append(xmls, c.XML)
		}
	}
	return xmls, nil
}

// TestMaxNodes checks that a tree whose subtrees expand into too many
// nodes is an error, not a hang.
func TestMaxNodes(t *testing.T) {
	defer func(n int) { maxNodes = n }(maxNodes)
	maxNodes = 5000
	var b strings.Builder
	b.WriteString(`<root BTCPP_format="4" main_tree_to_execute="T0">`)
	for i := 0; i < 12; i++ {
		b.WriteString(`<BehaviorTree ID="T` + strconv.Itoa(i) + `"><Sequence>`)
		for j := 0; j < 8; j++ {
			if i == 11 {
				b.WriteString(`<AlwaysSuccess/>`)
			} else {
				b.WriteString(`<SubTree ID="T` + strconv.Itoa(i+1) + `"/>`)
			}
		}
		b.WriteString(`</Sequence></BehaviorTree>`)
	}
	b.WriteString(`</root>`)
	doc, err := NewFactory().Parse(b.String())
	if err != nil {
		t.Fatal(err)
	}
	_, err = doc.Build("")
	var e *Error
	if !errors.As(err, &e) || e.Type != RuntimeError || !strings.Contains(e.Msg, "more than") {
		t.Fatalf("got %v, want the MaxNodes error", err)
	}
}

// BenchmarkBuild builds a tree of 12,221 nodes: four trees, each using the
// next one ten times.
func BenchmarkBuild(b *testing.B) {
	var s strings.Builder
	s.WriteString(`<root BTCPP_format="4" main_tree_to_execute="T0">`)
	for i := 0; i < 4; i++ {
		s.WriteString(`<BehaviorTree ID="T` + strconv.Itoa(i) + `"><Sequence>`)
		for j := 0; j < 10; j++ {
			if i == 3 {
				s.WriteString(`<AlwaysSuccess _skipIf="x == 1"/>`)
			} else {
				s.WriteString(`<SubTree ID="T` + strconv.Itoa(i+1) + `"/>`)
			}
		}
		s.WriteString(`</Sequence></BehaviorTree>`)
	}
	s.WriteString(`</root>`)
	doc, err := NewFactory().Parse(s.String())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		tree, err := doc.Build("", WithEntry("x", 0))
		if err != nil {
			b.Fatal(err)
		}
		if tree.Len() != 12221 {
			b.Fatalf("%d nodes", tree.Len())
		}
	}
}

// TestParseFS reads a document whose <include>s load other files,
// relative to the including file; the included trees are registered
// first, so the including document's tree of the same ID replaces them.
func TestParseFS(t *testing.T) {
	fsys := fstest.MapFS{
		"main.xml": {Data: []byte(`<root BTCPP_format="4" main_tree_to_execute="Main">
<include path="lib/a.xml"/>
<BehaviorTree ID="Main"><Sequence><SubTree ID="A"/><SubTree ID="B"/></Sequence></BehaviorTree>
<BehaviorTree ID="B"><AlwaysSuccess name="mainB"/></BehaviorTree>
</root>`)},
		"lib/a.xml": {Data: []byte(`<root><include path="b.xml"/><BehaviorTree ID="A"><AlwaysSuccess name="a"/></BehaviorTree></root>`)},
		"lib/b.xml": {Data: []byte(`<root><BehaviorTree ID="B"><AlwaysFailure name="libB"/></BehaviorTree></root>`)},
		"loop.xml":  {Data: []byte(`<root><include path="loop.xml"/></root>`)},
		"bad.xml":   {Data: []byte(`<root><include path="lib/missing.xml"/></root>`)},
	}
	doc, err := NewFactory().ParseFS(fsys, "main.xml")
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Trees(); !slices.Equal(got, []string{"A", "B", "Main"}) {
		t.Errorf("trees %v", got)
	}
	tree, err := doc.Build("")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, n := range tree.Nodes() {
		names = append(names, n.Name)
	}
	if want := []string{"Sequence", "A", "a", "B", "mainB"}; !slices.Equal(names, want) {
		t.Errorf("nodes %v, want %v", names, want)
	}
	for _, name := range []string{"loop.xml", "bad.xml", "absent.xml"} {
		_, err := NewFactory().ParseFS(fsys, name)
		var e *Error
		if !errors.As(err, &e) || e.Type != RuntimeError {
			t.Errorf("%s: got %v, want a RuntimeError", name, err)
		}
	}
	// Parse reads no files.
	b, _ := fsys.ReadFile("main.xml")
	if _, err := NewFactory().Parse(string(b)); err == nil {
		t.Error("Parse read an <include>")
	}
}

// TestSubTreeErrorPosition: a missing or recursive subtree's error carries
// the <SubTree> element's line:column, its type and What() unchanged.
func TestSubTreeErrorPosition(t *testing.T) {
	for _, c := range []struct {
		src, pos string
		typ      ErrorType
		what     string
	}{
		{`<root BTCPP_format="4" main_tree_to_execute="M">
<BehaviorTree ID="M">
  <SubTree ID="Nope"/>
</BehaviorTree></root>`, "3:3: ", StdRuntimeError, "can't find a tree with name: Nope"},
		{`<root BTCPP_format="4" main_tree_to_execute="M">
<BehaviorTree ID="M">
  <SubTree ID="M"/>
</BehaviorTree></root>`, "3:3: ", RuntimeError, `recursive behavior trees are not allowed: "M" is its own subtree`},
	} {
		d, err := NewFactory().Parse(c.src)
		if err != nil {
			t.Fatal(err)
		}
		_, err = d.Build("")
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%q: got %v", c.src, err)
		}
		if e.Type != c.typ || e.What() != c.what || !strings.HasPrefix(e.Error(), c.pos) {
			t.Errorf("got %s %q %q, want %s %q at %q", e.Type, e.What(), e.Error(), c.typ, c.what, c.pos)
		}
	}
}

// TestErrorSaysOnce: Error does not repeat the position of an XML syntax
// error nor the node of an exception in a node.
func TestErrorSaysOnce(t *testing.T) {
	_, err := NewFactory().Parse("<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"M\">\n  <Seq <\n</root>")
	if err == nil {
		t.Fatal("no error")
	}
	s := err.Error()
	if i := strings.Index(s, ": "); i < 0 || strings.Contains(s[i:], s[:i+2]) {
		t.Errorf("Error() says the position twice: %q", s)
	}
	d, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="M">
  <Parallel success_count="3"><AlwaysSuccess/></Parallel>
</BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := d.Build("")
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = tr.Tick()
	var e *Error
	if !errors.As(err, &e) || e.Type != NodeExecutionError {
		t.Fatalf("got %v, want a NodeExecutionError", err)
	}
	if strings.Count(err.Error(), "Parallel::1") != 1 {
		t.Errorf("Error() says the node more than once: %q", err.Error())
	}
}
