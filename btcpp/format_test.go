package btcpp

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// buildResult is what a document builds to: the error (type and message,
// positions aside), or the nodes, the scopes and their entries.
type buildResult struct {
	err     string
	nodes   []NodeInfo
	scopes  []ScopeInfo
	entries [][]Entry
}

// buildOf builds doc's main tree.
// lineInMsg is a line number in an error message.
var lineInMsg = regexp.MustCompile(`line [0-9]+`)

func buildOf(doc *Document, main string, opts ...Option) buildResult {
	tree, err := doc.Build(main, opts...)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			// Where a message says the line of an element, the
			// canonical XML has it on another line.
			return buildResult{err: string(e.Type) + ": " + lineInMsg.ReplaceAllString(e.Msg, "line N")}
		}
		return buildResult{err: err.Error()}
	}
	r := buildResult{nodes: tree.Nodes(), scopes: tree.Scopes()}
	for i := range r.scopes {
		r.entries = append(r.entries, tree.Entries(i))
	}
	return r
}

// TestWriteXMLCorpus writes every document of the corpus that parses as
// canonical XML, and checks that it parses back (with the same leaves)
// to a document that builds the same tree, or fails the same way, and
// whose canonical XML is the same text.
func TestWriteXMLCorpus(t *testing.T) {
	cases := readConformanceCases(t, conformanceCorpusFile())
	docs := 0
	for i := range cases {
		c := &cases[i]
		d := &driver{c: c, counts: map[string]int{}}
		f := NewFactory()
		if err := d.register(f); err != nil {
			t.Fatalf("case %s: %v", c.ID, err)
		}
		for name, v := range c.Enums {
			n, _ := v.Int64()
			f.Enum(name, int(n))
		}
		doc, err := f.Parse(c.XML)
		if err != nil {
			continue
		}
		docs++
		out, err := doc.Format()
		if err != nil {
			t.Errorf("case %s: Format: %v", c.ID, err)
			continue
		}
		doc2, err := f.Parse(string(out))
		if err != nil {
			t.Errorf("case %s: the canonical XML does not parse: %v\n%s", c.ID, err, out)
			continue
		}
		if out2, err := doc2.Format(); err != nil || !bytes.Equal(out, out2) {
			t.Errorf("case %s: formatting the canonical XML again gives another text (%v):\n%s\n----\n%s", c.ID, err, out, out2)
		}
		if !reflect.DeepEqual(doc.Trees(), doc2.Trees()) {
			t.Errorf("case %s: trees %v, then %v", c.ID, doc.Trees(), doc2.Trees())
		}
		main := ""
		if c.Main != nil {
			main = *c.Main
		}
		var opts []Option
		for k, v := range c.BB {
			opts = append(opts, WithEntry(k, v))
		}
		if a, b := buildOf(doc, main, opts...), buildOf(doc2, main, opts...); !reflect.DeepEqual(a, b) {
			t.Errorf("case %s: the document builds\n%+v\nand its canonical XML\n%+v\n%s", c.ID, a, b, out)
		}
		for _, id := range doc.Trees() {
			if a, b := buildOf(doc, id, opts...), buildOf(doc2, id, opts...); !reflect.DeepEqual(a, b) {
				t.Errorf("case %s, tree %s: the document builds\n%+v\nand its canonical XML\n%+v", c.ID, id, a, b)
			}
		}
	}
	t.Logf("%d of %d corpus documents parse, written and read back", docs, len(cases))
}

func TestWriteXMLModel(t *testing.T) {
	f := NewFactory()
	if err := f.RegisterCondition("IsOpen", func(*Call) (Status, error) { return Success, nil }, InputPort("door", "string").WithDefault("front")); err != nil {
		t.Fatal(err)
	}
	if err := f.RegisterSync("Unused", func(*Call) (Status, error) { return Success, nil }); err != nil {
		t.Fatal(err)
	}
	if err := f.RegisterAction("Walk", Action{OnStart: func(*Call) (Status, error) { return Success, nil }}, InputPort("speed", "int"), OutputPort("where", "any")); err != nil {
		t.Fatal(err)
	}
	doc, err := f.Parse(`<root BTCPP_format="4">
  <!-- a comment -->
  <BehaviorTree ID="M">
    <Sequence><IsOpen/><Action ID="Walk" speed="3" where="{w}"/><SubTree ID="S" a="1"/></Sequence>
  </BehaviorTree>
  <BehaviorTree ID="S"><Script code="b := a &lt; 2"/></BehaviorTree>
  <TreeNodesModel><SubTree ID="S"><input_port name="a" default="5"/></SubTree></TreeNodesModel>
</root>`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := doc.Format()
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	for _, want := range []string{
		`<Action ID="Walk" speed="3" where="{w}"/>`,
		`<Script code="b := a &lt; 2"/>`,
		`<Condition ID="IsOpen">`,
		`<input_port name="door" type="std::string" default="front"/>`,
		`<input_port name="speed" type="int"/>`,
		`<output_port name="where" type="BT::AnyTypeAllowed"/>`,
		`<SubTree ID="S">`,
		`<input_port name="a" default="5"/>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the canonical XML lacks %s:\n%s", want, s)
		}
	}
	if strings.Contains(s, "Unused") || strings.Contains(s, "comment") {
		t.Errorf("the canonical XML has an unused leaf's model or the comment:\n%s", s)
	}
	// The main tree first, then the others in ID order.
	if strings.Index(s, `<BehaviorTree ID="M"`) > strings.Index(s, `<BehaviorTree ID="S"`) {
		t.Errorf("the trees are not in ID order:\n%s", s)
	}
}

func TestWriteXMLMainFirst(t *testing.T) {
	doc, err := NewFactory().Parse(`<root BTCPP_format="4" main_tree_to_execute="Z">
<BehaviorTree ID="A"><AlwaysSuccess/></BehaviorTree>
<BehaviorTree ID="Z"><SubTree ID="A"/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := doc.Format()
	if err != nil {
		t.Fatal(err)
	}
	s := string(out)
	if !strings.Contains(s, `main_tree_to_execute="Z"`) || strings.Index(s, `ID="Z"`) > strings.Index(s, `ID="A"`) {
		t.Errorf("the main tree is not named or not first:\n%s", s)
	}
}

// TestWriteXMLAnonymous checks that the only tree of a text, without an
// ID, is written with the ID it was registered under, and is still the
// main tree.
func TestWriteXMLAnonymous(t *testing.T) {
	f := NewFactory()
	doc, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree><Inverter><AlwaysFailure/></Inverter></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	out, err := doc.Format()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), `<BehaviorTree ID="BehaviorTree_0">`) {
		t.Errorf("no ID written:\n%s", out)
	}
	doc2, err := f.Parse(string(out))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := buildOf(doc, ""), buildOf(doc2, ""); !reflect.DeepEqual(a, b) {
		t.Errorf("builds %+v, then %+v", a, b)
	}
}

type failingWriter struct{}

var errWrite = errors.New("disk full")

func (failingWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestWriteXMLWriterFails(t *testing.T) {
	doc, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="A"><AlwaysSuccess/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.WriteXML(failingWriter{}); !errors.Is(err, errWrite) {
		t.Errorf("got %v, want the writer's error wrapped", err)
	}
}

func TestLeafModels(t *testing.T) {
	src := `<root BTCPP_format="4">
  <BehaviorTree ID="M">
    <Sequence>
      <Walk speed="3"/>
      <Walk speed="{s}" to="{goal}"/>
      <Condition ID="Near" d="1"/>
      <IsOpen/>
      <AlwaysSuccess/>
      <Known/>
    </Sequence>
  </BehaviorTree>
  <TreeNodesModel>
    <Condition ID="IsOpen"><input_port name="door" type="std::string" default="front"/><output_port name="n" type="int"/></Condition>
    <Action ID="Declared"/>
    <Control ID="MyControl"/>
  </TreeNodesModel>
</root>`
	f := NewFactory()
	if err := f.RegisterSync("Known", func(*Call) (Status, error) { return Success, nil }); err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(f.LeafModels(src, nil, ""))
	want := fmt.Sprint([]LeafModel{
		{ID: "Declared", Declared: true},
		{ID: "IsOpen", Condition: true, Declared: true, Ports: []Port{InputPort("door", "string").WithDefault("front"), OutputPort("n", "int")}},
		{ID: "Near", Ports: []Port{InputPort("d", "any")}},
		{ID: "Walk", Ports: []Port{InputPort("speed", "any").withDir(InOut), InOutPort("to", "any")}},
	})
	if got != want {
		t.Errorf("LeafModels:\n got %s\nwant %s", got, want)
	}
	// Registered as stand-ins, they make the text parse.
	for _, m := range f.LeafModels(src, nil, "") {
		var err error
		if m.Condition {
			err = f.RegisterCondition(m.ID, func(*Call) (Status, error) { return Success, nil }, m.Ports...)
		} else {
			err = f.RegisterSync(m.ID, func(*Call) (Status, error) { return Success, nil }, m.Ports...)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.Parse(src); err != nil {
		t.Errorf("with the stand-ins registered: %v", err)
	}
}

// withDir returns p with the direction d.
func (p Port) withDir(d PortDir) Port { p.Dir = d; return p }

// TestLeafModelsCorpus checks, on every document of the corpus that
// parses with the corpus's leaves, that it parses too with stand-ins
// registered from LeafModels instead, and that the leaves it finds in
// the trees are the case's.
func TestLeafModelsCorpus(t *testing.T) {
	cases := readConformanceCases(t, conformanceCorpusFile())
	for i := range cases {
		c := &cases[i]
		d := &driver{c: c, counts: map[string]int{}}
		f := NewFactory()
		if err := d.register(f); err != nil {
			t.Fatalf("case %s: %v", c.ID, err)
		}
		if _, err := f.Parse(c.XML); err != nil {
			continue
		}
		g := NewFactory()
		for _, m := range g.LeafModels(c.XML, nil, "") {
			if _, ok := c.Leaves[m.ID]; !ok && !m.Declared {
				t.Errorf("case %s: LeafModels gives %s, which the case does not define", c.ID, m.ID)
			}
			var err error
			if m.Condition {
				err = g.RegisterCondition(m.ID, func(*Call) (Status, error) { return Success, nil }, m.Ports...)
			} else {
				err = g.RegisterSync(m.ID, func(*Call) (Status, error) { return Success, nil }, m.Ports...)
			}
			if err != nil {
				t.Fatalf("case %s: %v", c.ID, err)
			}
		}
		if _, err := g.Parse(c.XML); err != nil {
			t.Errorf("case %s: with stand-ins: %v", c.ID, err)
		}
	}
}

func TestIncluded(t *testing.T) {
	fsys := fstest.MapFS{
		"main.xml":       {Data: []byte(`<root BTCPP_format="4" main_tree_to_execute="M"><include path="lib/a.xml"/><BehaviorTree ID="M"><SubTree ID="A"/></BehaviorTree></root>`)},
		"lib/a.xml":      {Data: []byte(`<root BTCPP_format="4"><include path="b.xml"/><BehaviorTree ID="A"><SubTree ID="B"/></BehaviorTree></root>`)},
		"lib/b.xml":      {Data: []byte(`<root BTCPP_format="4"><BehaviorTree ID="B"><AlwaysSuccess/></BehaviorTree></root>`)},
		"standalone.xml": {Data: []byte(`<root BTCPP_format="4"><BehaviorTree ID="S"><AlwaysSuccess/></BehaviorTree></root>`)},
	}
	doc, err := NewFactory().ParseFS(fsys, "main.xml")
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(doc.Included()); got != "[lib/a.xml lib/b.xml]" {
		t.Errorf("Included = %s", got)
	}
	out, err := doc.Format()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "include") || !strings.Contains(string(out), `<BehaviorTree ID="B">`) {
		t.Errorf("the canonical XML does not have the included trees written in:\n%s", out)
	}
	doc, err = NewFactory().ParseFS(fsys, "standalone.xml")
	if err != nil || len(doc.Included()) != 0 {
		t.Errorf("a file without includes: %v, %v", doc.Included(), err)
	}
}
