package btcpp

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseXML checks that parseXML never panics, that its errors are
// *SyntaxError with a position inside the text, and that a text it reads,
// written by writeXML, reads back to the same tree.
func FuzzParseXML(f *testing.F) {
	for _, s := range []string{
		`<root BTCPP_format="4"><BehaviorTree ID="T"><Sequence><Script code="a<b &amp;&amp; c"/></Sequence></BehaviorTree></root>`,
		"<?xml version=\"1.0\"?>\n<!-- c --><root a='x\r\ny'>text<![CDATA[<x/>]]><A/></root>",
		`<S v="&#1#66;&#x100000041;&#0;&#;&#"/>`,
		"</a/>< a b='1'c=\"2\" ></a >",
	} {
		f.Add(s)
	}
	// The corpus's trees are seeds too, when it is there.
	if texts, err := xmlCorpusTexts(); err == nil && !testing.Short() {
		for _, s := range texts {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		e, err := parseXML(src)
		// A NUL ends the text: what follows it changes nothing.
		if strings.IndexByte(src, 0) < 0 {
			e2, err2 := parseXML(src + "\x00<<")
			if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
				t.Fatalf("a NUL and more changed the result: %v, then %v", err, err2)
			}
			if err == nil {
				if ok, diff := sameXMLTree(e, e2); !ok {
					t.Fatalf("a NUL and more changed the tree: %s", diff)
				}
			}
		}
		// Where encoding/xml, a strict reader, also reads a text
		// without the markup it reads differently, both read the same
		// tree. (It reads texts that TinyXML-2 refuses: text after the
		// last element, a declaration after a comment.)
		if want, serr := strictXML(src); err == nil && serr == nil && strictComparable(src) {
			if ok, diff := sameXMLTree(e, want); !ok {
				t.Fatalf("encoding/xml reads another tree: %s", diff)
			}
		}
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%T: %v", err, err)
			}
			if _, ok := xmlOffset(src, se.Line, se.Col); !ok {
				t.Fatalf("%v: the position is out of the text", err)
			}
			return
		}
		// Every element's position is its '<', every attribute's its
		// name.
		stack := []*element{e}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = append(stack[:len(stack)-1], x.Children...)
			if off, ok := xmlOffset(src, x.Line, x.Col); !ok || off >= len(src) || src[off] != '<' {
				t.Fatalf("<%s> at %d:%d, not a '<'", x.Name, x.Line, x.Col)
			}
			for _, a := range x.Attrs {
				if off, ok := xmlOffset(src, a.Line, a.Col); !ok || !strings.HasPrefix(src[off:], a.Name) {
					t.Fatalf("attribute %s at %d:%d, not its name", a.Name, a.Line, a.Col)
				}
			}
		}
		var b bytes.Buffer
		if err := writeXML(&b, e); err != nil {
			t.Fatalf("writeXML of a tree parseXML read: %v", err)
		}
		back, err := parseXML(b.String())
		if err != nil {
			t.Fatalf("parseXML of what writeXML wrote: %v\n%s", err, b.String())
		}
		if ok, diff := sameXMLTree(e, back); !ok {
			t.Fatalf("read back differently: %s\n%s", diff, b.String())
		}
	})
}

// strictComparable reports whether src avoids what encoding/xml reads
// differently from TinyXML-2: values with newlines, tabs or carriage
// returns (a strict reader turns them into spaces), DOCTYPE internal
// subsets (TinyXML-2 ends <!…> at the first '>'), bytes that are not
// UTF-8.
func strictComparable(src string) bool {
	if !utf8.ValidString(src) || strings.Contains(src, "<!") || strings.IndexByte(src, 0) >= 0 {
		return false
	}
	return !hasSpaceInValues(src)
}

// xmlOffset returns the byte offset of line:col in src (the end of the
// text counts), and whether there is one.
func xmlOffset(src string, line, col int) (int, bool) {
	if line < 1 || col < 1 {
		return 0, false
	}
	start := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[start:], '\n')
		if i < 0 {
			return 0, false
		}
		start += i + 1
	}
	end := strings.IndexByte(src[start:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += start
	}
	off := start + col - 1
	return off, off <= end
}

// xmlTreeGen makes an element tree from fuzz bytes.
type xmlTreeGen struct {
	data []byte
	n    int // elements made
}

func (g *xmlTreeGen) byte() byte {
	if len(g.data) == 0 {
		return 0
	}
	c := g.data[0]
	g.data = g.data[1:]
	return c
}

// xmlGenNames are names the reader takes; the generator also makes names
// from raw bytes, which it may not.
var xmlGenNames = []string{"root", "BehaviorTree", "Sequence", "A", "ID", "name", "code", "_x", "ns:a.b-c", "é"}

func (g *xmlTreeGen) name() string {
	c := g.byte()
	if c < 0xf0 {
		return xmlGenNames[int(c)%len(xmlGenNames)]
	}
	n := int(c & 7)
	b := make([]byte, n)
	for i := range b {
		b[i] = g.byte()
	}
	return string(b)
}

func (g *xmlTreeGen) value() string {
	n := int(g.byte() % 12)
	b := make([]byte, n)
	for i := range b {
		c := g.byte()
		// Mostly the bytes that need escaping.
		switch c % 4 {
		case 0:
			const special = "&<>\"'\n\t\r;#x"
			b[i] = special[int(c/4)%len(special)]
		default:
			b[i] = c
		}
	}
	return string(b)
}

func (g *xmlTreeGen) element(depth int) *element {
	g.n++
	e := &element{Name: g.name()}
	for i := int(g.byte() % 4); i > 0; i-- {
		e.Attrs = append(e.Attrs, xmlAttr{Name: g.name(), Value: g.value()})
	}
	if g.byte()%8 == 0 {
		e.Text = g.value()
	}
	if depth < 8 && g.n < 200 {
		for i := int(g.byte() % 4); i > 0 && len(g.data) > 0; i-- {
			e.Children = append(e.Children, g.element(depth+1))
		}
	}
	return e
}

// writable reports whether parseXML can read e back, written: names it
// reads, no attribute twice, no NUL in a value (the generator's trees are
// shallow and small).
func xmlWritable(e *element) bool {
	if !isXMLName(e.Name) {
		return false
	}
	seen := map[string]bool{}
	for _, a := range e.Attrs {
		if !isXMLName(a.Name) || seen[a.Name] || bytes.IndexByte([]byte(a.Value), 0) >= 0 {
			return false
		}
		seen[a.Name] = true
	}
	for _, c := range e.Children {
		if !xmlWritable(c) {
			return false
		}
	}
	return true
}

// FuzzWriteXML checks, on trees made from the fuzz bytes, that writeXML
// fails exactly on the trees parseXML could not read back, and that what
// it writes reads back to the same tree.
func FuzzWriteXML(f *testing.F) {
	f.Add([]byte("\x00\x03\x01\x02"))
	f.Add([]byte("\x00\x02\x04\x05&<>\"'\x02\x05\x0aabc\x03\x03\x02\x01"))
	f.Add([]byte("\xf3abc\x01\xf1 \x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g := &xmlTreeGen{data: data}
		e := g.element(1)
		var b bytes.Buffer
		err := writeXML(&b, e)
		if want := xmlWritable(e); (err == nil) != want {
			t.Fatalf("writeXML: %v; the tree is writable: %v", err, want)
		}
		if err != nil {
			return
		}
		back, err := parseXML(b.String())
		if err != nil {
			t.Fatalf("parseXML of what writeXML wrote: %v\n%s", err, b.String())
		}
		if ok, diff := sameXMLTree(e, back); !ok {
			t.Fatalf("read back differently: %s\n%s", diff, b.String())
		}
		if c := e.clone(); !bytes.Equal(xmlMustWrite(t, c), b.Bytes()) {
			t.Fatalf("a clone writes differently")
		}
		// The form is canonical: what is read back writes the same
		// text, but for the text of elements, which the reader drops.
		if !xmlHasText(e) && !bytes.Equal(xmlMustWrite(t, back), b.Bytes()) {
			t.Fatalf("written again differently:\n%s\n%s", b.String(), xmlMustWrite(t, back))
		}
	})
}

// xmlHasText reports whether an element of e has Text.
func xmlHasText(e *element) bool {
	if e.Text != "" {
		return true
	}
	for _, c := range e.Children {
		if xmlHasText(c) {
			return true
		}
	}
	return false
}

func xmlMustWrite(t *testing.T, e *element) []byte {
	var b bytes.Buffer
	if err := writeXML(&b, e); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
