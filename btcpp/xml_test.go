package btcpp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/internal/corpusfile"
	"github.com/zipbt/behaviortree/internal/testlong"
)

// dumpXML writes e compactly, positions aside: name(attr="value" …)[children].
// Values are quoted with %q so that every byte shows.
func dumpXML(e *element) string {
	var b strings.Builder
	var walk func(e *element)
	walk = func(e *element) {
		b.WriteString(e.Name)
		b.WriteByte('(')
		for i, a := range e.Attrs {
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, "%s=%q", a.Name, a.Value)
		}
		b.WriteByte(')')
		if len(e.Children) > 0 {
			b.WriteByte('[')
			for i, c := range e.Children {
				if i > 0 {
					b.WriteByte(' ')
				}
				walk(c)
			}
			b.WriteByte(']')
		}
	}
	walk(e)
	return b.String()
}

// sameXMLTree reports whether a and b have the same names, attributes and
// children, positions aside, and says where they differ.
func sameXMLTree(a, b *element) (bool, string) {
	type pair struct{ a, b *element }
	stack := []pair{{a, b}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if p.a.Name != p.b.Name || len(p.a.Attrs) != len(p.b.Attrs) || len(p.a.Children) != len(p.b.Children) {
			return false, fmt.Sprintf("<%s> %d attrs %d children vs <%s> %d attrs %d children",
				p.a.Name, len(p.a.Attrs), len(p.a.Children), p.b.Name, len(p.b.Attrs), len(p.b.Children))
		}
		for i := range p.a.Attrs {
			if p.a.Attrs[i].Name != p.b.Attrs[i].Name || p.a.Attrs[i].Value != p.b.Attrs[i].Value {
				return false, fmt.Sprintf("<%s> %s=%q vs %s=%q", p.a.Name,
					p.a.Attrs[i].Name, p.a.Attrs[i].Value, p.b.Attrs[i].Name, p.b.Attrs[i].Value)
			}
		}
		for i := range p.a.Children {
			stack = append(stack, pair{p.a.Children[i], p.b.Children[i]})
		}
	}
	return true, ""
}

func TestParseXMLReads(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"plain", `<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence><A/><B x="1"/></Sequence></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree(ID="T")[Sequence()[A() B(x="1")]]]`},
		{"< and > in a value", `<S code="a<b && c>d"/>`, `S(code="a<b && c>d")`},
		{"named entities", `<S v="&amp;&lt;&gt;&quot;&apos;"/>`, `S(v="&<>\"'")`},
		{"unknown entity and bare &", `<S v="&foo; &amp &AMP; & &;"/>`, `S(v="&foo; &amp &AMP; & &;")`},
		{"character references", `<S v="&#65;&#x42;&#x263A;&#x263a;&#128512;"/>`, `S(v="AB☺☺😀")`},
		{"uppercase X is not hex", `<S v="&#X41;"/>`, `S(v="&#X41;")`},
		{"no semicolon", `<S v="&#65 and &#x41"/>`, `S(v="&#65 and &#x41")`},
		{"non-digit", `<S v="&#6a5;&#x4g;"/>`, `S(v="&#6a5;&#x4g;")`},
		{"back to the nearest #", `<S v="&#1#66;"/>`, `S(v="B")`},
		{"back to the nearest x", `<S v="&#x1x43;"/>`, `S(v="C")`},
		{"32-bit place values wrap", `<S v="&#x100000041;"/>`, `S(v="A")`},
		{"code point too large reads as nothing", `<S v="a&#x200000;b&#2097152;c&#99999999999;d"/>`, `S(v="abcd")`},
		{"largest code point", `<S v="&#x1FFFFF;"/>`, `S(v="\xf7\xbf\xbf\xbf")`},
		{"surrogate encoded as is", `<S v="&#xD800;"/>`, `S(v="\xed\xa0\x80")`},
		{"reference to NUL ends the value", `<S v="ab&#0;cd" w="x"/>`, `S(v="ab" w="x")`},
		{"empty decimal reference is NUL", `<S v="ab&#;cd"/>`, `S(v="ab")`},
		{"empty hex reference is NUL", `<S v="ab&#x;cd"/>`, `S(v="ab")`},
		{"final &# reads #", `<S v="a&#"/>`, `S(v="a#")`},
		{"final &#x is literal", `<S v="a&#x"/>`, `S(v="a&#x")`},
		{"the first reference takes the others", `<S v="&#&#&#12;x"/>`, `S(v="\fx")`},
		{"newlines and tabs kept", "<S v=\"a\n\tb\"/>", `S(v="a\n\tb")`},
		{"CR LF, LF CR and CR become LF", "<S v=\"a\r\nb\n\rc\rd\r\n\re\"/>", `S(v="a\nb\nc\nd\n\ne")`},
		{"&#13; stays CR", `<S v="a&#13;&#10;b"/>`, `S(v="a\r\nb")`},
		{"single quotes", `<S v='say "hi"' w="it's"/>`, `S(v="say \"hi\"" w="it's")`},
		{"spaces around =", "<S v = \"1\"\n\tw\n=\n'2'/>", `S(v="1" w="2")`},
		{"no space between attributes", `<S a="1"b='2'/>`, `S(a="1" b="2")`},
		{"space after <", `< S a="1" ></S >`, `S(a="1")`},
		{"closing tag with attributes", `<S><A/></S x="1" y='2'>`, `S()[A()]`},
		{"</a/> is an empty element", `<S></A/></S>`, `S()[A()]`},
		{"vertical tab and form feed are spaces", "<S\va='1'\f/>", `S(a="1")`},
		{"names", `<ns:a.b-c _x="1" é="2" x.y-z:w="3"/>`, `ns:a.b-c(_x="1" é="2" x.y-z:w="3")`},
		{"comments, PIs, DOCTYPE, CDATA and text skipped",
			"<?xml version=\"1.0\"?>\n<?other?>\n<!DOCTYPE root>\n<!-- c -->\n<root>text <!-- <A/> --> more<![CDATA[<B/>]]>\n<!ELEMENT x><C/>tail</root>\n<!-- after -->\n",
			`root()[C()]`},
		{"text before the element", "hello <root/>", `root()`},
		{"byte order mark", "\xef\xbb\xbf<root/>", `root()`},
		{"spaces then byte order mark", " \n\xef\xbb\xbf <root/>", `root()`},
		{"NUL ends the text", "<root/>\x00<<<", `root()`},
		{"NUL inside ends the text too", "<root a='x\x00'/>", ""},
		{"top-level closing tag ends the reading", "<root/></x>garbage<<< <", `root()`},
		{"first top-level element only", "<a/><b><c/></b>", `a()`},
		{"comment with dashes", "<root><!-- a -- b ---><A/></root>", `root()[A()]`},
		{"empty element forms", "<root><A></A><B/><C>\n</C></root>", `root()[A() B() C()]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := parseXML(tc.src)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("read %s, want an error", dumpXML(e))
				}
				return
			}
			if err != nil {
				t.Fatalf("%q: %v", tc.src, err)
			}
			if got := dumpXML(e); got != tc.want {
				t.Errorf("%q\n got %s\nwant %s", tc.src, got, tc.want)
			}
		})
	}
}

func TestParseXMLPositions(t *testing.T) {
	src := "<?xml version=\"1.0\"?>\n<root\n  a=\"1\"\tb='2'>\n\t<Seq é=\"x\" c=\"y\"/>\r\n  <T\n/></root>"
	e, err := parseXML(src)
	if err != nil {
		t.Fatal(err)
	}
	type pos struct{ line, col int }
	check := func(what string, got, want pos) {
		t.Helper()
		if got != want {
			t.Errorf("%s at %d:%d, want %d:%d", what, got.line, got.col, want.line, want.col)
		}
	}
	check("<root>", pos{e.Line, e.Col}, pos{2, 1})
	check("a", pos{e.Attrs[0].Line, e.Attrs[0].Col}, pos{3, 3})
	check("b", pos{e.Attrs[1].Line, e.Attrs[1].Col}, pos{3, 9})
	seq := e.Children[0]
	check("<Seq>", pos{seq.Line, seq.Col}, pos{4, 2})
	// Columns count bytes: é is two.
	check("é", pos{seq.Attrs[0].Line, seq.Attrs[0].Col}, pos{4, 7})
	check("c", pos{seq.Attrs[1].Line, seq.Attrs[1].Col}, pos{4, 14})
	check("<T>", pos{e.Children[1].Line, e.Children[1].Col}, pos{5, 3})
}

func TestParseXMLErrors(t *testing.T) {
	for _, tc := range []struct {
		src       string
		line, col int
		msg       string
	}{
		{"", 1, 1, "empty document"},
		{"  \n \t", 2, 3, "empty document"},
		{"\xef\xbb\xbf  ", 1, 6, "no element"},
		{"<!-- only a comment -->", 1, 24, "no element"},
		{"<?xml version='1.0'?>", 1, 22, "no element"},
		{"<a>", 1, 4, "<a> of 1:1 is not closed"},
		{"<a>\n <b>text", 2, 9, "<b> of 2:2 is not closed"},
		{"<a>\n  <b>\n</a>", 3, 1, "</a> closes <b> of 2:3"},
		{"<a></b>", 1, 4, "</b> closes <a>"},
		{`<a x='1' x="2"/>`, 1, 10, "attribute x appears twice"},
		{`<a x="1/>`, 1, 6, "not closed"},
		{`<a x=1/>`, 1, 6, "quoted value expected"},
		{`<a x/>`, 1, 5, "'=' expected"},
		{`<a x`, 1, 5, "'=' expected"},
		{`<1a/>`, 1, 2, "element name expected"},
		{`</ a>`, 1, 3, "element name expected"},
		{`<`, 1, 2, "element name expected, found end of text"},
		{`<a $/>`, 1, 4, "unexpected '$'"},
		{`<a / >`, 1, 4, "unexpected '/'"},
		{"<a", 1, 3, "unexpected end of text"},
		{"<a/>text", 1, 5, "text after the last element"},
		{"<a/>\n<", 2, 2, "element name expected"},
		{"<a/><?xml?>", 1, 5, "declaration may only come first"},
		{"<!-- c --><?xml?><a/>", 1, 11, "declaration may only come first"},
		{"<a><?pi?></a>", 1, 4, "declaration may only come first"},
		{"<a><!-- x", 1, 4, "unclosed comment"},
		{"<a><![CDATA[ x", 1, 4, "unclosed CDATA"},
		{"<!DOCTYPE x", 1, 1, "unclosed <!"},
		{"<?xml ", 1, 1, "unclosed <?"},
		{"<a é='1' é='2'/>", 1, 11, "appears twice"},
		{"<a\x01/>", 1, 3, "unexpected byte 0x01"},
	} {
		_, err := parseXML(tc.src)
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Errorf("%q: %v, want a *SyntaxError", tc.src, err)
			continue
		}
		if se.Line != tc.line || se.Col != tc.col || !strings.Contains(se.Msg, tc.msg) {
			t.Errorf("%q: %v, want %d:%d: …%s…", tc.src, err, tc.line, tc.col, tc.msg)
		}
		if want := fmt.Sprintf("%d:%d: %s", se.Line, se.Col, se.Msg); err.Error() != want {
			t.Errorf("%q: Error() is %q, want %q", tc.src, err.Error(), want)
		}
	}
}

// nested returns n levels of <a> elements, the innermost self-closing if
// selfClosing.
func xmlNested(n int, selfClosing bool) string {
	if selfClosing {
		return strings.Repeat("<a>", n-1) + "<a/>" + strings.Repeat("</a>", n-1)
	}
	return strings.Repeat("<a>", n) + strings.Repeat("</a>", n)
}

func TestParseXMLDepth(t *testing.T) {
	for _, tc := range []struct {
		n           int
		selfClosing bool
		ok          bool
	}{
		{MaxXMLDepth - 2, false, true},
		{MaxXMLDepth - 1, false, false},
		{MaxXMLDepth - 1, true, true},
		{MaxXMLDepth, true, false},
		{100 * MaxXMLDepth, false, false},
	} {
		e, err := parseXML(xmlNested(tc.n, tc.selfClosing))
		if (err == nil) != tc.ok {
			t.Errorf("%d levels (self-closing %v): %v", tc.n, tc.selfClosing, err)
			continue
		}
		if err != nil {
			if se := err.(*SyntaxError); se.Col != 3*(MaxXMLDepth-2)+1 {
				t.Errorf("%d levels: the error is at %v, want the element at level %d", tc.n, err, MaxXMLDepth-1)
			}
			continue
		}
		depth := 0
		for ; e != nil; depth++ {
			if len(e.Children) == 0 {
				e = nil
			} else {
				e = e.Children[0]
			}
		}
		if depth != tc.n {
			t.Errorf("read %d levels of %d", depth, tc.n)
		}
	}
}

func TestParseXMLElementLimit(t *testing.T) {
	testlong.Skip(t, "two texts of a million elements")
	src := "<a>" + strings.Repeat("<b/>", MaxXMLElements-1) + "</a>"
	e, err := parseXML(src)
	if err != nil || len(e.Children) != MaxXMLElements-1 {
		t.Fatalf("%d elements: %v", MaxXMLElements, err)
	}
	_, err = parseXML("<a>" + strings.Repeat("<b/>", MaxXMLElements) + "</a>")
	if err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("%d elements: %v", MaxXMLElements+1, err)
	}
}

func TestParseXMLSizeLimit(t *testing.T) {
	testlong.Skip(t, "allocates 64 MiB")
	src := "<a/>" + strings.Repeat(" ", MaxXMLBytes-4)
	if _, err := parseXML(src); err != nil {
		t.Errorf("%d bytes: %v", len(src), err)
	}
	if _, err := parseXML(src + " "); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("%d bytes: %v", len(src)+1, err)
	}
}

// TestParseXMLLongReferences reads values whose references all end at one
// far ';', and an element with many attributes: texts that a reader
// rescanning for every '&' or every attribute would take quadratic time
// on. It checks the values read.
func TestParseXMLLongReferences(t *testing.T) {
	const n = 200000
	literal := strings.Repeat("&#", n) + strings.Repeat("1", n) + "z;"
	e, err := parseXML(`<a v="` + literal + `" w="` + strings.Repeat("&#x", n) + `41;" x="` + strings.Repeat("&#", n) + `66;" y="` +
		strings.Repeat("&#", n) + strings.Repeat("1", n) + `;."/>`)
	if err != nil {
		t.Fatal(err)
	}
	// Each "&#" reads back from the ';' to the 'z', no digit: every '&'
	// is literal.
	if got := e.Attrs[0].Value; got != literal {
		t.Errorf("v: %d bytes, want the %d bytes as written", len(got), len(literal))
	}
	// The n digits are too large a code point: the first reference
	// reads as nothing, and takes the rest with it.
	if got := e.Attrs[3].Value; got != "." {
		t.Errorf("y = %q, want .", got)
	}
	// The first reference reads back from the ';' to the nearest 'x' (or
	// '#') and takes the rest of the value with it.
	if got := e.Attrs[1].Value; got != "A" {
		t.Errorf("w = %q, want A", got)
	}
	if got := e.Attrs[2].Value; got != "B" {
		t.Errorf("x = %q, want B", got)
	}
	var b strings.Builder
	b.WriteString("<a")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, " a%d=''", i)
	}
	b.WriteString(" a7=''/>")
	if _, err := parseXML(b.String()); err == nil || !strings.Contains(err.Error(), "a7 appears twice") {
		t.Errorf("many attributes: %v", err)
	}
}

func TestAttr(t *testing.T) {
	e, err := parseXML(`<a x="1" y="" z="3"/>`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, v string
		ok      bool
	}{{"x", "1", true}, {"y", "", true}, {"z", "3", true}, {"w", "", false}, {"X", "", false}} {
		if v, ok := e.attr(tc.name); v != tc.v || ok != tc.ok {
			t.Errorf("attr(%q) = %q, %v", tc.name, v, ok)
		}
	}
}

// roundTrip writes e and reads the text back.
func xmlRoundTrip(t testing.TB, e *element) (string, *element) {
	t.Helper()
	var b bytes.Buffer
	if err := writeXML(&b, e); err != nil {
		t.Fatalf("writeXML: %v", err)
	}
	back, err := parseXML(b.String())
	if err != nil {
		t.Fatalf("parseXML of what writeXML wrote: %v\n%s", err, b.String())
	}
	if ok, diff := sameXMLTree(e, back); !ok {
		t.Fatalf("the written text reads back differently: %s\n%s", diff, b.String())
	}
	return b.String(), back
}

func TestWriteXMLRoundTrip(t *testing.T) {
	for _, src := range []string{
		`<root BTCPP_format="4" main_tree_to_execute="Main"><BehaviorTree ID="Main"><Sequence name="s"><Script code="a:=1; b:='x'"/><A/></Sequence></BehaviorTree></root>`,
		"<root><S code=\"a<b &amp;&amp; c>d\" v='\"&apos;' nl=\"a\nb\tc&#13;d\" ctl=\"&#1;&#31;&#127;\"/></root>",
		"<root><S v=\"é&#xD800;\xff\xfe&#x1FFFFF;\"/></root>",
		"<a/>",
		xmlNested(MaxXMLDepth-2, false),
		xmlNested(MaxXMLDepth-1, true),
	} {
		e, err := parseXML(src)
		if err != nil {
			t.Fatal(err)
		}
		out, _ := xmlRoundTrip(t, e)
		if !strings.HasPrefix(out, xmlDeclaration) {
			t.Errorf("no XML declaration first:\n%s", out)
		}
		// Two spaces per level, one element per line; no raw
		// control byte survives escaping.
		depth := 0
		for i, line := range strings.Split(strings.TrimSuffix(out[len(xmlDeclaration):], "\n"), "\n") {
			closing := strings.HasPrefix(strings.TrimLeft(line, " "), "</")
			if closing {
				depth--
			}
			if !strings.HasPrefix(line, strings.Repeat("  ", depth)+"<") {
				t.Fatalf("line %d %q is not indented %d levels", i+1, line, depth)
			}
			if !closing && !strings.HasSuffix(line, "/>") {
				depth++
			}
			for j := 0; j < len(line); j++ {
				if line[j] < 0x20 || line[j] == 0x7f {
					t.Fatalf("line %d holds the control byte 0x%02x: %q", i+1, line[j], line)
				}
			}
		}
	}
}

func TestWriteXMLEscapes(t *testing.T) {
	e := &element{Name: "S", Attrs: []xmlAttr{{Name: "v", Value: "&<>\"'\n\t\r\x01\x7f"}}}
	out, back := xmlRoundTrip(t, e)
	if want := `v="&amp;&lt;&gt;&quot;'&#10;&#9;&#13;&#1;&#127;"`; !strings.Contains(out, want) {
		t.Errorf("%s does not hold %s", out, want)
	}
	if back.Attrs[0].Value != e.Attrs[0].Value {
		t.Errorf("read back %q", back.Attrs[0].Value)
	}
}

func TestWriteXMLErrors(t *testing.T) {
	deep := &element{Name: "a"}
	for i := 0; i < MaxXMLDepth; i++ {
		deep = &element{Name: "a", Children: []*element{deep}}
	}
	// A tree one element past the limit (a million elements): with
	// BT_LONG=1.
	wide := &element{Name: "a"}
	if testlong.Enabled() {
		wide.Children = make([]*element, MaxXMLElements)
		for i := range wide.Children {
			wide.Children[i] = &element{Name: "b"}
		}
	}
	for _, tc := range []struct {
		e   *element
		msg string
	}{
		{nil, "no root"},
		{&element{Name: ""}, "not an element name"},
		{&element{Name: "1a"}, "not an element name"},
		{&element{Name: "a b"}, "not an element name"},
		{&element{Name: "a", Children: []*element{{Name: "b/"}}}, "not an element name"},
		{&element{Name: "a", Children: []*element{nil}}, "nil child"},
		{&element{Name: "a", Attrs: []xmlAttr{{Name: "x="}}}, "not an attribute name"},
		{&element{Name: "a", Attrs: []xmlAttr{{Name: "x"}, {Name: "y"}, {Name: "x"}}}, "appears twice"},
		{&element{Name: "a", Attrs: []xmlAttr{{Name: "x", Value: "a\x00b"}}}, "NUL"},
		{deep, "nested"},
		{wide, "more than"},
	} {
		if tc.e == wide && !testlong.Enabled() {
			continue
		}
		var b bytes.Buffer
		err := writeXML(&b, tc.e)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v, want …%s…", err, tc.msg)
		}
		if b.Len() != 0 {
			t.Errorf("wrote %d bytes before failing", b.Len())
		}
	}
}

// xmlFailingWriter fails every write.
type xmlFailingWriter struct{}

var errXMLWrite = errors.New("disk full")

func (xmlFailingWriter) Write([]byte) (int, error) { return 0, errXMLWrite }

func TestWriteXMLWriterError(t *testing.T) {
	if err := writeXML(xmlFailingWriter{}, &element{Name: "a"}); !errors.Is(err, errXMLWrite) {
		t.Errorf("%v, want it to wrap %v", err, errXMLWrite)
	}
}

func TestClone(t *testing.T) {
	e, err := parseXML(`<root a="1"><B b="2"><C/></B><D/></root>`)
	if err != nil {
		t.Fatal(err)
	}
	before := dumpXML(e)
	c := e.clone()
	if ok, diff := sameXMLTree(e, c); !ok {
		t.Fatalf("clone differs: %s", diff)
	}
	if c.Line != e.Line || c.Children[0].Attrs[0].Col != e.Children[0].Attrs[0].Col {
		t.Errorf("clone lost positions")
	}
	c.Name = "x"
	c.Attrs[0].Value = "changed"
	c.Attrs = append(c.Attrs, xmlAttr{Name: "new"})
	c.Children[0].Attrs[0].Name = "renamed"
	c.Children[0].Children = append(c.Children[0].Children, &element{Name: "E"})
	c.Children[1] = &element{Name: "F"}
	if got := dumpXML(e); got != before {
		t.Errorf("changing the clone changed the original: %s, was %s", got, before)
	}
	if (*element)(nil).clone() != nil {
		t.Errorf("clone of nil is not nil")
	}
}

func TestTreeNodesModel(t *testing.T) {
	m := treeNodesModel([]modelEntry{
		{Kind: "Action", ID: "Move", Ports: []modelPort{
			{Dir: "input", Name: "goal", Type: "std::string", Default: "0;0", Description: "where to <go> & stop"},
			{Dir: "output", Name: "done", Type: "bool"},
			{Dir: "inout", Name: "count"},
		}},
		{Kind: "Condition", ID: "IsOpen"},
	})
	want := `TreeNodesModel()[Action(ID="Move")[input_port(name="goal" type="std::string" default="0;0") ` +
		`output_port(name="done" type="bool") inout_port(name="count")] Condition(ID="IsOpen")]`
	if got := dumpXML(m); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	root := &element{Name: "root", Attrs: []xmlAttr{{Name: "BTCPP_format", Value: "4"}}, Children: []*element{m}}
	out, _ := xmlRoundTrip(t, root)
	if !strings.Contains(out, `default="0;0">where to &lt;go&gt; &amp; stop</input_port>`) {
		t.Errorf("the description is not the port's text:\n%s", out)
	}
}

func TestNewRoot(t *testing.T) {
	for _, tc := range []struct{ main, want string }{
		{"Main", `root(BTCPP_format="4" main_tree_to_execute="Main")[BehaviorTree(ID="Main")]`},
		{"", `root(BTCPP_format="4")[BehaviorTree(ID="Main")]`},
	} {
		r := newRoot(tc.main, &element{Name: "BehaviorTree", Attrs: []xmlAttr{{Name: "ID", Value: "Main"}}})
		if got := dumpXML(r); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
		xmlRoundTrip(t, r)
	}
}

// xmlCorpusPath returns the conformance corpus file: $BTCPP_CORPUS, or the
// shared copy beside the module.
func xmlCorpusPath() string {
	if f := os.Getenv("BTCPP_CORPUS"); f != "" {
		return f
	}
	return "../../shared/btcpp/btcpp-4.jsonl.gz"
}

// xmlCorpusTexts returns the XML texts of the corpus's cases; the error
// wraps fs.ErrNotExist when there is no corpus.
func xmlCorpusTexts() ([]string, error) {
	r, err := corpusfile.Open(xmlCorpusPath())
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var texts []string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var c struct {
			XML string `json:"xml"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			return nil, fmt.Errorf("%s: %w", xmlCorpusPath(), err)
		}
		texts = append(texts, c.XML)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", xmlCorpusPath(), err)
	}
	return texts, nil
}

// TestParseXMLCorpus reads every tree of the corpus (none of its cases is
// a text the library could not read) and writes it back.
func TestParseXMLCorpus(t *testing.T) {
	texts, err := xmlCorpusTexts()
	if errors.Is(err, fs.ErrNotExist) {
		t.Skipf("no corpus: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if len(texts) == 0 {
		t.Fatal("empty corpus")
	}
	for i, src := range texts {
		e, err := parseXML(src)
		if err != nil {
			t.Fatalf("case %d: %v\n%s", i, err, src)
		}
		xmlRoundTrip(t, e)
	}
}

func TestUpgradeV3(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
		warnings        int
	}{
		{"format added", `<root><BehaviorTree><A/></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[A()]]`, 1},
		{"format set", `<root main_tree_to_execute="T" BTCPP_format="3"><BehaviorTree ID="T"><A/></BehaviorTree></root>`,
			`root(main_tree_to_execute="T" BTCPP_format="4")[BehaviorTree(ID="T")[A()]]`, 1},
		{"SequenceStar", `<root BTCPP_format="4"><BehaviorTree><SequenceStar name="s"><A/><Control ID="SequenceStar"><B/></Control></SequenceStar></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[SequenceWithMemory(name="s")[A() Control(ID="SequenceWithMemory")[B()]]]]`, 2},
		{"SubTreePlus", `<root BTCPP_format="4"><BehaviorTree><SubTreePlus ID="X" __autoremap="true" a="{b}" c="lit"/></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[SubTree(ID="X" _autoremap="true" a="{b}" c="lit")]]`, 2},
		{"3.x SubTree", `<root><BehaviorTree><SubTree ID="X" name="n" goal="target" done="{d}" _description="x" __shared_blackboard="false"/></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[SubTree(ID="X" name="n" goal="{target}" done="{d}" _description="x" __shared_blackboard="false")]]`, 2},
		{"shared blackboard", `<root><BehaviorTree><SubTree ID="X" __shared_blackboard="True" _autoremap="0"/></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[SubTree(ID="X" _autoremap="1")]]`, 3},
		{"4.x SubTree left alone", `<root BTCPP_format="4"><BehaviorTree><SubTree ID="X" goal="literal"/></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[SubTree(ID="X" goal="literal")]]`, 0},
		{"retry", `<root BTCPP_format="4"><BehaviorTree><RetryUntilSuccesful num_attempts="3"><Decorator ID="RetryUntilSuccesful" num_attempts="2"><A/></Decorator></RetryUntilSuccesful></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[RetryUntilSuccessful(num_attempts="3")[Decorator(ID="RetryUntilSuccessful" num_attempts="2")[A()]]]]`, 2},
		{"Parallel ports", `<root BTCPP_format="4"><BehaviorTree><Parallel success_threshold="2" failure_threshold="-1"><A/><Control ID="Parallel" threshold="1"><B/></Control></Parallel></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[Parallel(success_count="2" failure_count="-1")[A() Control(ID="Parallel" success_count="1")[B()]]]]`, 3},
		{"Parallel ports clash", `<root BTCPP_format="4"><BehaviorTree><Parallel threshold="2" success_threshold="3"><A/></Parallel></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[Parallel(success_count="2")[A()]]]`, 3},
		{"unsupported names warned, kept", `<root BTCPP_format="4"><BehaviorTree><FallbackStar><BlackboardCheckInt value_A="1" value_B="1"><A/></BlackboardCheckInt><ManualSelector><B/></ManualSelector></FallbackStar></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[FallbackStar()[BlackboardCheckInt(value_A="1" value_B="1")[A()] ManualSelector()[B()]]]]`, 3},
		{"pre/post names warned", `<root BTCPP_format="4"><BehaviorTree><A _while="x" _post="y"/></BehaviorTree></root>`,
			`root(BTCPP_format="4")[BehaviorTree()[A(_while="x" _post="y")]]`, 2},
		{"model entries left alone", `<root BTCPP_format="4"><TreeNodesModel><Control ID="SequenceStar"/><SubTree ID="X"><input_port name="a"/></SubTree></TreeNodesModel><BehaviorTree><A/></BehaviorTree></root>`,
			`root(BTCPP_format="4")[TreeNodesModel()[Control(ID="SequenceStar") SubTree(ID="X")[input_port(name="a")]] BehaviorTree()[A()]]`, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := parseXML(tc.src)
			if err != nil {
				t.Fatal(err)
			}
			warnings := upgradeV3(e)
			if got := dumpXML(e); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if len(warnings) != tc.warnings {
				t.Errorf("%d warnings, want %d: %q", len(warnings), tc.warnings, warnings)
			}
			// Each warning starts with a position inside the text.
			lines := 1 + strings.Count(tc.src, "\n")
			for _, w := range warnings {
				var l, c int
				if n, _ := fmt.Sscanf(w, "%d:%d: ", &l, &c); n != 2 || l < 1 || l > lines || c < 1 || c > len(tc.src) {
					t.Errorf("warning without a position in the text: %q", w)
				}
			}
			// The result is still a tree the writer writes and the
			// reader reads, and a second upgrade changes nothing.
			xmlRoundTrip(t, e)
			upgradeV3(e)
			if got := dumpXML(e); got != tc.want {
				t.Errorf("upgraded twice: %s", got)
			}
		})
	}
	if upgradeV3(nil) != nil {
		t.Errorf("warnings for no tree")
	}
}

// TestUpgradeV3Positions checks that the warnings point at the element or
// attribute they are about.
func TestUpgradeV3Positions(t *testing.T) {
	src := "<root BTCPP_format=\"3\">\n  <BehaviorTree>\n    <SequenceStar>\n      <SubTree ID=\"X\" goal=\"g\"/>\n    </SequenceStar>\n  </BehaviorTree>\n</root>"
	e, err := parseXML(src)
	if err != nil {
		t.Fatal(err)
	}
	warnings := upgradeV3(e)
	if len(warnings) != 3 || !strings.HasPrefix(warnings[0], "1:7: ") || !strings.HasPrefix(warnings[1], "3:5: ") || !strings.HasPrefix(warnings[2], "4:23: ") {
		t.Errorf("%q, want warnings at 1:7 (BTCPP_format), 3:5 (SequenceStar) and 4:23 (goal)", warnings)
	}
}

// strictXML reads src with encoding/xml, for comparison: the tree of the
// first top-level element, or an error.
func strictXML(src string) (*element, error) {
	d := xml.NewDecoder(strings.NewReader(src))
	d.Strict = true
	var stack []*element
	var top *element
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &element{Name: xmlQName(tok.Name)}
			for _, a := range tok.Attr {
				e.Attrs = append(e.Attrs, xmlAttr{Name: xmlQName(a.Name), Value: a.Value})
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.Children = append(p.Children, e)
			} else if top == nil {
				top = e
			}
			stack = append(stack, e)
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1].Name != xmlQName(tok.Name) {
				return nil, errors.New("unexpected end element")
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(stack) > 0 {
		return nil, errors.New("unclosed element")
	}
	if top == nil {
		return nil, errors.New("no element")
	}
	return top, nil
}

func xmlQName(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// TestParseXMLAgreesWithEncodingXML reads the corpus's trees and texts
// of the reading tests with encoding/xml too: where that strict reader
// reads a text whose values hold no newline, tab or carriage return (it
// turns them into spaces), both must read the same tree.
func TestParseXMLAgreesWithEncodingXML(t *testing.T) {
	texts, err := xmlCorpusTexts()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	texts = append(texts,
		`<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence><A/><B x="1"/></Sequence></BehaviorTree></root>`,
		`<S v="&amp;&lt;&gt;&quot;&apos;&#65;&#x42;&#x263A;"/>`,
		`<S v='say "hi"' w="it's"/>`,
		"<?xml version=\"1.0\"?>\n<!-- c -->\n<root>text <!-- <A/> --> more<![CDATA[<B/>]]><C/>tail</root>\n",
		`<ns:a.b-c _x="1" é="2"/>`,
	)
	compared := 0
	for i, src := range texts {
		want, err := strictXML(src)
		if err != nil || strings.ContainsAny(src, "\n\t\r") && hasSpaceInValues(src) {
			continue
		}
		got, err := parseXML(src)
		if err != nil {
			t.Errorf("text %d: encoding/xml reads it, parseXML: %v\n%s", i, err, src)
			continue
		}
		if ok, diff := sameXMLTree(got, want); !ok {
			t.Errorf("text %d: %s\n%s", i, diff, src)
		}
		compared++
	}
	if compared < 5 {
		t.Errorf("only %d texts compared", compared)
	}
	t.Logf("%d of %d texts compared", compared, len(texts))
}

// hasSpaceInValues reports whether an attribute value of src, as parseXML
// reads it, holds a newline, tab or carriage return.
func hasSpaceInValues(src string) bool {
	e, err := parseXML(src)
	if err != nil {
		return true
	}
	stack := []*element{e}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], x.Children...)
		for _, a := range x.Attrs {
			if strings.ContainsAny(a.Value, "\n\t\r") {
				return true
			}
		}
	}
	return false
}

// TestParseXMLMemory checks the bytes parseXML allocates per byte of text,
// with the collector off (an upper bound of its peak heap), on 4 MB texts
// of a few shapes. An element takes 96 bytes and an attribute 48, so the
// bound depends on how many bytes of text each takes.
func TestParseXMLMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 20 MB")
	}
	n := testlong.Pick(1<<20, 4<<20)
	unit := "    <Sequence name=\"s\">\n      <Script code=\"a:=1; b:=&apos;x&apos; &amp;&amp; c&lt;d\"/>\n" +
		"      <A x=\"{k}\" y=\"2\"/>\n    </Sequence>\n"
	for _, tc := range []struct {
		shape, src string
		bound      float64
	}{
		{"Groot2's form", "<root><BehaviorTree ID=\"T\"><Sequence>" + strings.Repeat(unit, n/len(unit)) + "</Sequence></BehaviorTree></root>", 8},
		{"empty elements", "<root>" + strings.Repeat("<a/>", min(n/4, MaxXMLElements-1)) + "</root>", 32},
		{"attributes", "<r>" + strings.Repeat("<a b='1' c='2' d='3' e='4' f='5' g='6' h='7' i='8' j='9'/>", n/60) + "</r>", 12},
		{"entities", "<a v='" + strings.Repeat("&amp;&#65;", n/10) + "'/>", 2},
	} {
		runtime.GC()
		old := debug.SetGCPercent(-1)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		e, err := parseXML(tc.src)
		runtime.ReadMemStats(&m1)
		debug.SetGCPercent(old)
		if err != nil {
			t.Fatal(tc.shape, err)
		}
		runtime.KeepAlive(e)
		ratio := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(len(tc.src))
		t.Logf("%s: %.2f", tc.shape, ratio)
		if ratio > tc.bound {
			t.Errorf("%s: reading %d bytes allocated %.1f times as much, more than %g", tc.shape, len(tc.src), ratio, tc.bound)
		}
	}
}

// TestPrintedLine checks the lines of TinyXML-2's printing of a document,
// which BehaviorTree.CPP's checks of the XML report: a text that is
// already printed so (one element, comment or declaration a line,
// indented, and an element holding text on one line) gives each element
// its own line, and the same document on fewer lines gives the same
// lines.
func TestPrintedLine(t *testing.T) {
	printed := `<?xml version="1.0"?>
<!-- a tree -->
<root BTCPP_format="4">
  <BehaviorTree ID="A">
    <Sequence>
      <!-- first -->
      <S0/>
      <Inverter>
        <S1/>
      </Inverter>
    </Sequence>
  </BehaviorTree>
  <TreeNodesModel>
    <Action ID="S0">
      <input_port name="x">what x is</input_port>
      <input_port name="y"/>
    </Action>
  </TreeNodesModel>
</root>
`
	compact := `<?xml version="1.0"?><!-- a tree --><root BTCPP_format="4"><BehaviorTree ID="A"><Sequence><!-- first -->` +
		`<S0/><Inverter><S1/></Inverter></Sequence></BehaviorTree><TreeNodesModel><Action ID="S0"><input_port name="x">what x is</input_port>` +
		"\n<input_port name=\"y\"/></Action></TreeNodesModel></root>"
	var lines func(e *element, out []int) []int
	lines = func(e *element, out []int) []int {
		out = append(out, e.printedLine)
		for _, c := range e.Children {
			out = lines(c, out)
		}
		return out
	}
	a, err := parseXML(printed)
	if err != nil {
		t.Fatal(err)
	}
	var want []int
	var walk func(e *element)
	walk = func(e *element) {
		want = append(want, e.Line)
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(a)
	if got := lines(a, nil); !slices.Equal(got, want) {
		t.Errorf("printed text: lines %v, want %v", got, want)
	}
	b, err := parseXML(compact)
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(b, nil); !slices.Equal(got, want) {
		t.Errorf("compact text: lines %v, want %v", got, want)
	}
}
