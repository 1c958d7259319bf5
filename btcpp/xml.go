package btcpp

import (
	"fmt"
	"strconv"
	"strings"
)

// This file is the XML reader. BehaviorTree.CPP 4.10 reads its trees with
// the TinyXML-2 it vendors (version 10.0.0), which is more lenient than
// strict XML; the reader below accepts and rejects the texts it does and
// reads them to the same elements and attribute values:
//
//   - An attribute value runs to the next quote of the kind that opened
//     it ('"' or '\''): '<' and '>' inside it are literal text.
//   - In a value, "\r\n", "\n\r" and a lone '\r' become '\n'; newlines and
//     tabs are kept (no normalization to spaces).
//   - The entities &amp; &lt; &gt; &quot; &apos; and the character
//     references &#N; and &#xN; (lowercase x) are decoded; a '&' that
//     starts none of them is literal. A character reference is read as
//     TinyXML-2 10 reads it: from the next ';' back to the nearest '#'
//     (or 'x'), with its 32-bit place values that wrap. One that fails to
//     read (a non-digit on the way, no ';') leaves the '&' literal; one
//     whose code point is 0x200000 or more reads as nothing; others are
//     encoded in UTF-8's scheme, surrogates and values above 0x10FFFF
//     included. (TinyXML-2 11 leaves the '&' of a code point above
//     0x10FFFF literal instead.) A reference to code point 0 ends the
//     value there, as the value is a C string in the library. "&#" at the
//     very end of a value reads as "#".
//   - Comments, processing instructions and the <?xml …?> declaration
//     (which must come before anything else), <!DOCTYPE …> and other
//     <!…> markup, CDATA sections and text between elements are skipped.
//     Only elements are children. Text after the last element that is not
//     followed by a '<' is an error.
//   - Whitespace is the C locale's: space, \t, \n, \v, \f, \r. A name
//     starts with an ASCII letter, '_', ':' or a byte ≥ 0x80 and goes on
//     with those, digits, '.' and '-'. Whitespace may follow '<' ("< a>"
//     is element a), attributes need no space between them, a closing tag
//     may carry attributes, and a duplicate attribute is an error.
//   - The document's element is its first top-level element; others are
//     read (and must be well formed) but dropped. A closing tag at the top
//     level ends the reading: what follows it is not read. A NUL byte ends
//     the text, as the library reads a C string.
//   - A UTF-8 byte order mark at the start is skipped.
//
// The reader keeps its own stack (no recursion), reads each byte a bounded
// number of times, and stops at MaxXMLBytes bytes, MaxXMLDepth levels and
// MaxXMLElements elements.

// Limits of the XML reader.
const (
	// MaxXMLBytes is the longest XML text read, in bytes: the same limit
	// as the project's other text formats (package mdsl's MaxBytes).
	MaxXMLBytes = 64 << 20
	// MaxXMLElements is the most elements an XML text may hold, closing
	// tags not counted: the same limit as the node limit of the project's
	// other text formats (package mistreevous's MaxNodes).
	MaxXMLElements = 1 << 20
	// MaxXMLDepth is TinyXML-2's nesting limit (its
	// TINYXML2_MAX_ELEMENT_DEPTH): an element that is not self-closing
	// may be nested at most MaxXMLDepth-2 levels deep (the top element
	// is level 1), and a self-closing one MaxXMLDepth-1. BehaviorTree.CPP's
	// own checks stop at 256 levels inside a <BehaviorTree>, which the
	// package checks when it builds.
	MaxXMLDepth = 500
)

// SyntaxError is an XML text that does not read: where and why. Line and
// Col count from 1; Col counts bytes.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

// Error returns "LINE:COL: MSG".
func (e *SyntaxError) Error() string {
	return strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
}

// element is one XML element; its children are elements only (text,
// comments and other markup are dropped).
type element struct {
	Name     string
	Attrs    []xmlAttr // document order
	Children []*element
	Line     int // 1-based position of its '<'
	Col      int
	// Text is character data that writeXML writes before the children
	// (a port's description in a <TreeNodesModel>). parseXML drops
	// text, so it leaves Text empty.
	Text string
	// printedLine is the element's line in TinyXML-2's printing of the
	// document, where BehaviorTree.CPP's checks of the XML count lines
	// (they read the document again as printed).
	printedLine int
}

// printer follows TinyXML-2's XMLPrinter (not compact) through a
// document, to know on which line it prints each element: a node starts
// a new line unless it is the first or inside an element holding text,
// and a closing tag after children does too.
type printer struct {
	line       int
	started    bool
	textDepth  int // -1: none; else the depth of the element holding text
	justOpened bool
}

// node is a declaration, comment or element being printed: its line.
func (pr *printer) node() int {
	pr.justOpened = false
	if pr.started && pr.textDepth < 0 {
		pr.line++
	}
	pr.started = true
	return pr.line
}

// text is character data inside an element at depth (the number of open
// elements).
func (pr *printer) text(depth int) {
	pr.justOpened = false
	pr.textDepth = depth - 1
}

// close is the end of an element, depth being the number of elements
// still open after it.
func (pr *printer) close(depth int) {
	if !pr.justOpened && pr.textDepth < 0 {
		pr.line++
	}
	pr.justOpened = false
	if pr.textDepth == depth {
		pr.textDepth = -1
	}
	if depth == 0 {
		pr.line++
	}
}

// xmlAttr is one attribute of an element.
type xmlAttr struct {
	Name, Value string // Value with entities decoded
	Line, Col   int    // position of the attribute name
}

// attr returns the value of the attribute name and whether e has it.
func (e *element) attr(name string) (string, bool) {
	for i := range e.Attrs {
		if e.Attrs[i].Name == name {
			return e.Attrs[i].Value, true
		}
	}
	return "", false
}

// xmlReader holds the state of one parseXML call.
type xmlReader struct {
	src string
	// line and lineStart are the line of offset pos and the offset of
	// that line's first byte: positions are counted forward from there.
	line, lineStart, pos int
	elements             int
	// attrs holds the attributes of the tag being read; names holds
	// their names once there are many, for the duplicate check.
	attrs     []xmlAttr
	names     map[string]struct{}
	namesUsed bool // names holds the names of r.attrs
	// kids holds the children read so far of the open elements, each
	// element's after its parent's: an element gets a copy of its own,
	// of the right size, when it closes.
	kids elementStack
	// slab is where elements are allocated from, a block of slabSize at
	// a time.
	slab     []element
	slabSize int
}

// tagKind is what a tag is.
type tagKind uint8

const (
	openTag    tagKind = iota // <a …>
	emptyTag                  // <a …/> (or </a/>)
	closingTag                // </a …>
)

// elementStack is a stack of elements kept in blocks, so that it grows
// without copies.
type elementStack struct {
	blocks [][]*element
	n      int
}

// elementBlock is the size of an elementStack's blocks.
const elementBlock = 1024

func (s *elementStack) push(e *element) {
	b := s.n / elementBlock
	if b == len(s.blocks) {
		s.blocks = append(s.blocks, make([]*element, elementBlock))
	}
	s.blocks[b][s.n%elementBlock] = e
	s.n++
}

// popFrom removes the elements from the kth on and returns them, or nil
// when there are none.
func (s *elementStack) popFrom(k int) []*element {
	if k == s.n {
		return nil
	}
	out := make([]*element, s.n-k)
	for i := k; i < s.n; {
		b, o := i/elementBlock, i%elementBlock
		i += copy(out[i-k:], s.blocks[b][o:min(elementBlock, o+s.n-i)])
	}
	s.n = k
	return out
}

// newElement returns a new element from the reader's slab.
func (r *xmlReader) newElement() *element {
	if len(r.slab) == 0 {
		r.slabSize = max(16, min(2*r.slabSize, 1024))
		r.slab = make([]element, r.slabSize)
	}
	e := &r.slab[0]
	r.slab = r.slab[1:]
	return e
}

// at returns the 1-based line and column of byte offset off.
func (r *xmlReader) at(off int) (int, int) {
	if off < r.pos {
		r.line, r.lineStart, r.pos = 1, 0, 0
	}
	for {
		i := strings.IndexByte(r.src[r.pos:off], '\n')
		if i < 0 {
			break
		}
		r.line++
		r.lineStart = r.pos + i + 1
		r.pos = r.lineStart
	}
	r.pos = off
	return r.line, off - r.lineStart + 1
}

// errAt returns a *SyntaxError at byte offset off.
func (r *xmlReader) errAt(off int, format string, args ...any) error {
	l, c := r.at(off)
	return &SyntaxError{Line: l, Col: c, Msg: fmt.Sprintf(format, args...)}
}

// isXMLSpace reports whether c is whitespace for TinyXML-2 (C isspace).
func isXMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// isNameStart reports whether c may start an element or attribute name.
func isNameStart(c byte) bool {
	return c >= 0x80 || (c|0x20) >= 'a' && (c|0x20) <= 'z' || c == '_' || c == ':'
}

// isNameByte reports whether c may continue a name.
func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '.' || c == '-'
}

func (r *xmlReader) skipSpace(p int) int {
	for p < len(r.src) && isXMLSpace(r.src[p]) {
		p++
	}
	return p
}

// name reads a name at p; it returns p when there is none.
func (r *xmlReader) name(p int) int {
	if p >= len(r.src) || !isNameStart(r.src[p]) {
		return p
	}
	p++
	for p < len(r.src) && isNameByte(r.src[p]) {
		p++
	}
	return p
}

// quote returns a short, printable form of the byte at p for messages.
func (r *xmlReader) quote(p int) string {
	if p >= len(r.src) {
		return "end of text"
	}
	c := r.src[p]
	if c >= 0x20 && c < 0x7f {
		return strconv.QuoteRune(rune(c))
	}
	return fmt.Sprintf("byte 0x%02x", c)
}

// parseXML reads an XML text as BehaviorTree.CPP's reader does (see the
// top of this file) and returns its first top-level element. Errors are
// of type *SyntaxError.
func parseXML(src string) (*element, error) {
	if len(src) > MaxXMLBytes {
		return nil, &SyntaxError{Line: 1, Col: 1, Msg: fmt.Sprintf("the XML text is %d bytes long, more than the %d bytes read", len(src), MaxXMLBytes)}
	}
	if i := strings.IndexByte(src, 0); i >= 0 {
		src = src[:i]
	}
	r := &xmlReader{src: src, line: 1}
	p := r.skipSpace(0)
	if strings.HasPrefix(src[p:], "\xef\xbb\xbf") {
		p += 3
	}
	if p >= len(src) {
		return nil, r.errAt(p, "empty document")
	}
	var (
		top       *element      // the first top-level element
		stack     []openElement // the open elements
		onlyDecls = true        // nothing but declarations so far, at the top level
		pr        = printer{line: 1, textDepth: -1}
	)
	for {
		p = r.skipSpace(p)
		if p >= len(src) {
			break
		}
		rest := src[p:]
		start := p
		switch {
		case strings.HasPrefix(rest, "<?"):
			end := strings.Index(rest[2:], "?>")
			if end < 0 {
				return nil, r.errAt(start, "unclosed <?…?>: no ?> after it")
			}
			if len(stack) > 0 || !onlyDecls {
				return nil, r.errAt(start, "a <?…?> declaration may only come first in the text")
			}
			p += 2 + end + 2
			pr.node()
			continue
		case strings.HasPrefix(rest, "<!--"):
			end := strings.Index(rest[4:], "-->")
			if end < 0 {
				return nil, r.errAt(start, "unclosed comment: no --> after <!--")
			}
			p += 4 + end + 3
			pr.node()
		case strings.HasPrefix(rest, "<![CDATA["):
			end := strings.Index(rest[9:], "]]>")
			if end < 0 {
				return nil, r.errAt(start, "unclosed CDATA section: no ]]> after <![CDATA[")
			}
			p += 9 + end + 3
			pr.text(len(stack))
		case strings.HasPrefix(rest, "<!"):
			end := strings.IndexByte(rest[2:], '>')
			if end < 0 {
				return nil, r.errAt(start, "unclosed <!…>: no > after <!")
			}
			p += 2 + end + 1
			pr.node()
		case rest[0] == '<':
			kind, name, line, col, next, err := r.tag(start)
			if err != nil {
				return nil, err
			}
			p = next
			if kind == closingTag {
				if len(stack) == 0 {
					// TinyXML-2 stops reading at a closing tag
					// of the document level.
					p = len(src)
					continue
				}
				open := stack[len(stack)-1]
				if open.e.Name != name {
					return nil, r.errAt(start, "</%s> closes <%s> of %d:%d", name, open.e.Name, open.e.Line, open.e.Col)
				}
				open.e.Children = r.kids.popFrom(open.kids)
				stack = stack[:len(stack)-1]
				pr.close(len(stack))
				continue
			}
			r.elements++
			if r.elements > MaxXMLElements {
				return nil, r.errAt(start, "more than %d elements", MaxXMLElements)
			}
			e := r.newElement()
			e.Name = name
			e.Line, e.Col = line, col
			e.printedLine = pr.node()
			pr.justOpened = true
			if len(r.attrs) > 0 {
				e.Attrs = make([]xmlAttr, len(r.attrs))
				copy(e.Attrs, r.attrs)
			}
			if len(stack) > 0 {
				r.kids.push(e)
			} else if top == nil {
				top = e
			}
			if kind == openTag {
				// TinyXML-2 counts the document as level 1,
				// and fails when the content of an element
				// is at level MaxXMLDepth.
				if len(stack)+2 >= MaxXMLDepth {
					return nil, r.errAt(start, "<%s> is nested too deep: at most %d levels, and %d for a self-closing element", e.Name, MaxXMLDepth-2, MaxXMLDepth-1)
				}
				stack = append(stack, openElement{e, r.kids.n})
			} else {
				pr.close(len(stack))
			}
		default:
			end := strings.IndexByte(rest, '<')
			if end < 0 && len(stack) > 0 {
				open := stack[len(stack)-1].e
				return nil, r.errAt(len(src), "<%s> of %d:%d is not closed", open.Name, open.Line, open.Col)
			}
			if end < 0 {
				return nil, r.errAt(start, "text after the last element")
			}
			p += end
			pr.text(len(stack))
		}
		if len(stack) == 0 {
			onlyDecls = false
		}
	}
	if len(stack) > 0 {
		open := stack[len(stack)-1].e
		return nil, r.errAt(len(src), "<%s> of %d:%d is not closed", open.Name, open.Line, open.Col)
	}
	if top == nil {
		return nil, r.errAt(len(src), "no element in the document")
	}
	return top, nil
}

// openElement is an element whose closing tag is still to come, and
// where its children start in the reader's kids.
type openElement struct {
	e    *element
	kids int
}

// tag reads the tag whose '<' is at start: its kind, name and position,
// with its attributes in r.attrs, and the offset after it.
func (r *xmlReader) tag(start int) (kind tagKind, name string, line, col, next int, err error) {
	src := r.src
	// The position first: positions are counted forward (see at).
	line, col = r.at(start)
	p := r.skipSpace(start + 1)
	kind = openTag
	if p < len(src) && src[p] == '/' {
		kind = closingTag
		p++
	}
	end := r.name(p)
	if end == p {
		return 0, "", 0, 0, 0, r.errAt(p, "element name expected, found %s", r.quote(p))
	}
	name = src[p:end]
	r.attrs = r.attrs[:0]
	r.namesUsed = false
	p = end
	for {
		p = r.skipSpace(p)
		if p >= len(src) {
			return 0, "", 0, 0, 0, r.errAt(p, "unexpected end of text in the tag <%s> of %d:%d", name, line, col)
		}
		switch ch := src[p]; {
		case isNameStart(ch):
			a, next, err := r.attribute(p, name)
			if err != nil {
				return 0, "", 0, 0, 0, err
			}
			r.attrs = append(r.attrs, a)
			p = next
		case ch == '>':
			return kind, name, line, col, p + 1, nil
		case ch == '/' && p+1 < len(src) && src[p+1] == '>':
			// "</a/>" is TinyXML-2's self-closing element a.
			return emptyTag, name, line, col, p + 2, nil
		default:
			return 0, "", 0, 0, 0, r.errAt(p, "unexpected %s in the tag <%s>", r.quote(p), name)
		}
	}
}

// attribute reads the attribute whose name starts at p, in the tag of the
// element elem.
func (r *xmlReader) attribute(p int, elem string) (xmlAttr, int, error) {
	src := r.src
	end := r.name(p)
	name := src[p:end]
	l, c := r.at(p)
	if r.hasAttr(name) {
		return xmlAttr{}, 0, r.errAt(p, "attribute %s appears twice in <%s>", name, elem)
	}
	q := r.skipSpace(end)
	if q >= len(src) || src[q] != '=' {
		return xmlAttr{}, 0, r.errAt(q, "'=' expected after the attribute name %s, found %s", name, r.quote(q))
	}
	q = r.skipSpace(q + 1)
	if q >= len(src) || src[q] != '"' && src[q] != '\'' {
		return xmlAttr{}, 0, r.errAt(q, "a quoted value expected for the attribute %s, found %s", name, r.quote(q))
	}
	close := strings.IndexByte(src[q+1:], src[q])
	if close < 0 {
		return xmlAttr{}, 0, r.errAt(q, "the value of the attribute %s is not closed: no %c after it", name, src[q])
	}
	raw := src[q+1 : q+1+close]
	return xmlAttr{Name: name, Value: decodeValue(raw), Line: l, Col: c}, q + 1 + close + 1, nil
}

// hasAttr reports whether the tag being read already has an attribute
// named name. Once a tag has many, their names are kept in r.names, so
// that reading stays linear.
func (r *xmlReader) hasAttr(name string) bool {
	const few = 32
	if len(r.attrs) < few {
		for i := range r.attrs {
			if r.attrs[i].Name == name {
				return true
			}
		}
		return false
	}
	if !r.namesUsed {
		if r.names == nil {
			r.names = make(map[string]struct{}, 2*len(r.attrs))
		}
		clear(r.names)
		for _, a := range r.attrs {
			r.names[a.Name] = struct{}{}
		}
		r.namesUsed = true
	}
	if _, ok := r.names[name]; ok {
		return true
	}
	r.names[name] = struct{}{}
	return false
}

// decodeValue decodes an attribute value as TinyXML-2 does (see the top of
// this file), in time linear in len(raw).
func decodeValue(raw string) string {
	if strings.IndexByte(raw, '&') < 0 && strings.IndexByte(raw, '\r') < 0 && !strings.Contains(raw, "\n\r") {
		return raw
	}
	var b strings.Builder
	b.Grow(len(raw))
	var refs charRefs
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\r':
			b.WriteByte('\n')
			i++
			if i < len(raw) && raw[i] == '\n' {
				i++
			}
		case c == '\n':
			b.WriteByte('\n')
			i++
			if i < len(raw) && raw[i] == '\r' {
				i++
			}
		case c == '&' && i+1 < len(raw) && raw[i+1] == '#':
			if i+2 >= len(raw) {
				// TinyXML-2 skips the '&' of a final "&#".
				i++
				continue
			}
			s, next, ok := refs.read(raw, i)
			if !ok {
				b.WriteByte('&')
				i++
				continue
			}
			if s == "\x00" {
				return b.String()
			}
			b.WriteString(s)
			i = next
		case c == '&':
			n, v := entity(raw[i+1:])
			if n == 0 {
				b.WriteByte('&')
				i++
				continue
			}
			b.WriteByte(v)
			i += 1 + n
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// entity returns the length and byte of the named entity that s (what
// follows a '&') starts with, ';' included, or 0.
func entity(s string) (int, byte) {
	for _, e := range [...]struct {
		name string
		v    byte
	}{{"quot;", '"'}, {"amp;", '&'}, {"apos;", '\''}, {"lt;", '<'}, {"gt;", '>'}} {
		if strings.HasPrefix(s, e.name) {
			return len(e.name), e.v
		}
	}
	return 0, 0
}

// charRefs reads character references in one value. TinyXML-2 finds the
// next ';' and reads back from it to the nearest '#' (or 'x'): the result
// depends on the ';' only, so it is kept for the next reference that ends
// at the same ';', which keeps the reading linear.
type charRefs struct {
	semi     int // the first ';' at or after searched, -1 for none
	searched int
	valid    bool
	hex, dec struct {
		done, ok bool
		s        string
	}
}

// read reads the reference "&#…;" at i (raw[i+1] is '#' and i+2 <
// len(raw)): its UTF-8 bytes and the offset after its ';', or !ok when it
// does not read (the '&' is then literal).
func (c *charRefs) read(raw string, i int) (string, int, bool) {
	hex := raw[i+2] == 'x'
	from := i + 2
	if hex {
		from = i + 3
		if from >= len(raw) {
			return "", 0, false
		}
	}
	if !c.valid || from > c.semi && c.semi >= 0 || from < c.searched {
		j := strings.IndexByte(raw[from:], ';')
		c.valid, c.searched = true, from
		c.hex.done, c.dec.done = false, false
		if j < 0 {
			c.semi = -1
		} else {
			c.semi = from + j
		}
	}
	if c.semi < 0 {
		return "", 0, false
	}
	r := &c.dec
	if hex {
		r = &c.hex
	}
	if !r.done {
		r.done = true
		r.s, r.ok = readCharRef(raw, c.semi, hex)
	}
	return r.s, c.semi + 1, r.ok
}

// readCharRef reads the digits before the ';' at semi back to the nearest
// 'x' (hex) or '#', with TinyXML-2's arithmetic: a 32-bit place value
// that wraps, summed into a 64-bit code point.
func readCharRef(raw string, semi int, hex bool) (string, bool) {
	var ucs uint64
	mult := uint32(1)
	stop, base := byte('#'), uint32(10)
	if hex {
		stop, base = 'x', 16
	}
	for q := semi - 1; raw[q] != stop; q-- {
		var d uint32
		switch ch := raw[q]; {
		case ch >= '0' && ch <= '9':
			d = uint32(ch - '0')
		case hex && ch >= 'a' && ch <= 'f':
			d = uint32(ch-'a') + 10
		case hex && ch >= 'A' && ch <= 'F':
			d = uint32(ch-'A') + 10
		default:
			return "", false
		}
		ucs += uint64(mult * d)
		mult *= base
	}
	return utf8Extended(ucs)
}

// utf8Extended encodes code point u as TinyXML-2 10 does: UTF-8's scheme
// for every value below 0x200000 (surrogates and values above 0x10FFFF
// included); larger values encode to nothing.
func utf8Extended(u uint64) (string, bool) {
	switch {
	case u < 0x80:
		return string([]byte{byte(u)}), true
	case u < 0x800:
		return string([]byte{0xC0 | byte(u>>6), 0x80 | byte(u&0x3F)}), true
	case u < 0x10000:
		return string([]byte{0xE0 | byte(u>>12), 0x80 | byte(u>>6&0x3F), 0x80 | byte(u&0x3F)}), true
	case u < 0x200000:
		return string([]byte{0xF0 | byte(u>>18), 0x80 | byte(u>>12&0x3F), 0x80 | byte(u>>6&0x3F), 0x80 | byte(u&0x3F)}), true
	}
	return "", true
}
