package behaviortree

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file prints MDSL: trees ([FormatMDSL], [FormatMDSLFunc]) and texts
// ([FormatMDSLSource]), in one canonical form: four spaces of indentation
// per level, one node per line, lower-case keywords, node arguments in
// [ ], attribute arguments in ( ), ", " between arguments, attributes in
// the order while, until, entry, step, exit, "then succeed" only where the
// guard succeeds on abort, and one blank line between roots.

// FormatMDSL prints def in canonical MDSL. A def that is not a [Root] is
// printed inside root { }, so that parsing the text gives Root(def).
// Shared subtrees are printed at every place (there are no branches in the
// output). It fails for custom nodes, for a Root below the top, for names
// and values that MDSL cannot write (a name with white space, a string
// with a line break after a backslash, NaN, ...), and for trees beyond the
// limits of [ParseMDSL]; then nothing is returned.
func FormatMDSL(def Node[Call]) ([]byte, error) {
	return formatMDSL(def, func(b []byte, c Call, attr bool) ([]byte, error) { return appendMDSLCall(b, c, attr) })
}

// FormatMDSLFunc prints def, a tree of any leaf type, in canonical MDSL
// as [FormatMDSL] does, with each leaf and attribute written as the text
// that text returns for its value: as a name where it can be one, else as
// a string. [ParseMDSLFunc] reads the output back.
func FormatMDSLFunc[L any](def Node[L], text func(L) (string, error)) ([]byte, error) {
	if text == nil {
		return nil, errors.New("behaviortree.FormatMDSLFunc: nil text function")
	}
	return formatMDSL(def, func(b []byte, v L, attr bool) ([]byte, error) {
		s, err := text(v)
		if err != nil {
			return b, err
		}
		open, closer := byte('['), byte(']')
		if attr {
			open, closer = '(', ')'
		}
		b = append(b, open)
		b, err = appendMDSLLeafText(b, s)
		return append(b, closer), err
	})
}

// appendMDSLLeafText appends s as a name if it can be one, else as a
// string.
func appendMDSLLeafText(b []byte, s string) ([]byte, error) {
	if mdslIdentOK(s) {
		return append(b, s...), nil
	}
	q, ok := mdslQuote(s)
	if !ok {
		return b, fmt.Errorf("leaf %s has no MDSL form", strconv.Quote(clip(s)))
	}
	return append(b, q...), nil
}

type mdslFrame[L any] struct {
	nd   *node[L]
	next int
}

func formatMDSL[L any](def Node[L], call func([]byte, L, bool) ([]byte, error)) ([]byte, error) {
	if def.n == nil {
		return nil, errors.New("behaviortree.FormatMDSL: zero Node")
	}
	b, err := formatMDSLIndent(def, call, mdslMaxIndent)
	if err == nil && len(b) > MaxMDSLBytes {
		b, err = formatMDSLIndent(def, call, 0)
	}
	if err == nil && len(b) > MaxMDSLBytes {
		err = fmt.Errorf("the text would be longer than %d bytes", MaxMDSLBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("behaviortree.FormatMDSL: %w", err)
	}
	return b, nil
}

// formatMDSLIndent prints def indenting at most maxIndent levels; it
// stops early once the text is longer than MaxMDSLBytes.
func formatMDSLIndent[L any](def Node[L], call func([]byte, L, bool) ([]byte, error), maxIndent int) ([]byte, error) {
	fail := func(err error) ([]byte, error) { return nil, err }
	if textNodes(def) > MaxMistreevousNodes {
		return fail(fmt.Errorf("the tree has more than %d nodes", MaxMistreevousNodes))
	}
	var b []byte
	var stack []mdslFrame[L]
	depth0 := 0
	if def.n.kind != KindRoot {
		b = append(b, "root {\n"...)
		depth0 = 1
	}
	push := func(nd *node[L]) error {
		d := depth0 + len(stack)
		if nd.kind == KindRoot && d > 0 {
			return errors.New("a root below the top has no MDSL form")
		}
		if d+1 > MaxMistreevousDepth {
			return fmt.Errorf("the tree is deeper than %d nodes", MaxMistreevousDepth)
		}
		if len(b) > MaxMDSLBytes {
			return nil // too long already: the caller sees it
		}
		b = appendIndent(b, min(d, maxIndent))
		var err error
		if b, err = appendMDSLHeader(b, nd, call); err != nil {
			return err
		}
		if kinds[nd.kind].arity != noChildren { // braces even round no children (a reactive node may have none)
			b = append(b, " {\n"...)
			stack = append(stack, mdslFrame[L]{nd: nd})
		} else {
			b = append(b, '\n')
		}
		return nil
	}
	if err := push(def.n); err != nil {
		return fail(err)
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next < len(f.nd.children) {
			c := f.nd.children[f.next]
			f.next++
			if err := push(c); err != nil {
				return fail(err)
			}
			continue
		}
		stack = stack[:len(stack)-1]
		b = appendIndent(b, min(depth0+len(stack), maxIndent))
		b = append(b, "}\n"...)
	}
	if depth0 == 1 {
		b = append(b, "}\n"...)
	}
	return b, nil
}

// mdslMaxIndent is the deepest level that the canonical form indents:
// lines below it are indented as it is, so that the text of a deep tree
// grows with its depth, not with the square of its depth.
const mdslMaxIndent = 16

func appendIndent(b []byte, d int) []byte {
	for range min(d, mdslMaxIndent) {
		b = append(b, "    "...)
	}
	return b
}

// appendMDSLHeader appends a node's keyword, arguments and attributes.
func appendMDSLHeader[L any](b []byte, nd *node[L], call func([]byte, L, bool) ([]byte, error)) ([]byte, error) {
	kw := mdslKeywords[nd.kind]
	if kw == "" {
		return b, fmt.Errorf("%s nodes have no MDSL form", nd.kind)
	}
	b = append(b, kw...)
	var err error
	switch kinds[nd.kind].param {
	case paramN:
		b = appendInts(b, nd.n)
	case paramWeights, paramLotto:
		if nd.weights != nil {
			b = appendInts(b, nd.weights...)
		}
	case paramThreshold:
		ps := Node[L]{nd}.Params()
		b = appendInts(b, ps.Success, ps.Failure)
	case paramCounts:
		ps := Node[L]{nd}.Params()
		b = appendInts(b, ps.Failure, ps.Success)
	case paramBound:
		switch nd.bound {
		case Fixed:
			b = appendInts(b, nd.min)
		case Ranged:
			b = appendInts(b, nd.min, nd.max)
		}
	}
	if kinds[nd.kind].carries {
		b = append(b, ' ')
		if b, err = call(b, nd.leaf, false); err != nil {
			return b, err
		}
	}
	if at := nd.attrs; at != nil {
		for k := AttrWhile; k < numAttrs; k++ {
			if !at.has[k] {
				continue
			}
			b = append(b, ' ')
			b = append(b, attrNames[k]...)
			if b, err = call(b, at.a[k].v, true); err != nil {
				return b, err
			}
			if at.a[k].succeed {
				b = append(b, " then succeed"...)
			}
		}
	}
	return b, nil
}

func appendInts(b []byte, v ...int) []byte {
	b = append(b, " ["...)
	for i, x := range v {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// appendMDSLCall appends [Name, args...], or (Name, args...) for an
// attribute.
func appendMDSLCall(b []byte, c Call, attr bool) ([]byte, error) {
	open, closer := byte('['), byte(']')
	if attr {
		open, closer = '(', ')'
	}
	if !mdslIdentOK(c.Name) {
		return b, fmt.Errorf("function name %s has no MDSL form", strconv.Quote(clip(c.Name)))
	}
	if len(c.Args) > MaxArgs {
		return b, fmt.Errorf("%s has more than %d arguments", c.Name, MaxArgs)
	}
	b = append(b, open)
	b = append(b, c.Name...)
	for _, a := range c.Args {
		b = append(b, ", "...)
		var err error
		if b, err = appendMDSLValue(b, a); err != nil {
			return b, fmt.Errorf("%s: %w", c.Name, err)
		}
	}
	return append(b, closer), nil
}

// appendMDSLValue appends an argument value.
func appendMDSLValue(b []byte, a any) ([]byte, error) {
	switch v := a.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return b, fmt.Errorf("number %v has no MDSL form", v)
		}
		return append(b, mdslNumber(v)...), nil
	case string:
		q, ok := mdslQuote(v)
		if !ok {
			return b, fmt.Errorf("string %s has no MDSL form", strconv.Quote(clip(v)))
		}
		return append(b, q...), nil
	case Property:
		s := string(v)
		if s == "" || !identStart(s[0]) || !mdslWordOK("$"+s) {
			return b, fmt.Errorf("property %s has no MDSL form", strconv.Quote(clip(s)))
		}
		return append(append(b, '$'), s...), nil
	}
	return b, checkArg(a)
}

// mdslNumber writes a finite number as JavaScript would, so that it reads
// back the same.
func mdslNumber(v float64) string {
	if v == 0 {
		if math.Signbit(v) {
			return "-0"
		}
		return "0"
	}
	if a := math.Abs(v); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'e', -1, 64)
}

// mdslWordOK reports whether s lexes as one word.
func mdslWordOK(s string) bool {
	if s == "" || len(s) > MaxStringBytes || !utf8.ValidString(s) || strings.Contains(s, "/*") {
		return false
	}
	for _, r := range s {
		if r == '"' || jsSpace(r) || (r < utf8.RuneSelf && mpunct(byte(r)) != mtEOF) {
			return false
		}
	}
	return true
}

// mdslIdentOK reports whether s reads back as a name (an identifier).
func mdslIdentOK(s string) bool {
	if !mdslWordOK(s) {
		return false
	}
	switch s {
	case "null", "true", "false":
		return false
	}
	if _, _, ok, _ := jsNumber(s); ok {
		return false
	}
	if mdslPlaceholder([]byte(s)) {
		return false
	}
	return !(len(s) > 1 && s[0] == '$' && identStart(s[1]))
}

// mdslQuote returns a string literal that reads back as v, and false when
// there is none (a v with "/*", with a second quote, ...).
func mdslQuote(v string) (string, bool) {
	if len(v) > MaxStringBytes || !utf8.ValidString(v) {
		return "", false
	}
	try := func(c string) bool { return mdslContentOK(c) && mdslUnquote(c) == v }
	if try(v) {
		return `"` + v + `"`, true
	}
	if i := strings.IndexByte(v, '"'); i >= 0 {
		if c := v[:i] + `\` + v[i:]; try(c) {
			return `"` + c + `"`, true
		}
	}
	return "", false
}

// mdslContentOK reports whether c is the whole content of a string
// literal, as the lexer reads it.
func mdslContentOK(c string) bool {
	if strings.Contains(c, "/*") {
		return false
	}
	esc := false
	for _, r := range c {
		switch {
		case esc:
			if jsLineBreak(r) {
				return false
			}
			esc = false
		case r == '\\':
			esc = true
		case r == '"':
			return false
		}
	}
	return !esc
}

// FormatMDSLSource returns an MDSL text in canonical form, keeping what a
// tree does not hold: the order of the roots, named roots and branches,
// and comments (a comment on the line of a node stays at the end of that
// line; others go on lines of their own, indented as the next node).
// name is for error messages. A text that does not parse is an error, as
// [ParseMDSL] (or, for texts whose leaves are strings, [ParseMDSLFunc])
// reports it. Formatting twice gives the same text.
func FormatMDSLSource(name string, src []byte) ([]byte, error) {
	p, err := parseMDSLEither(name, src, true)
	if err != nil {
		return nil, err
	}
	return p.format()
}

// parseMDSLEither parses and checks src as [ParseMDSL] does or, failing
// that, as [ParseMDSLFunc] with string leaves does; the error is the one
// that got further into the text.
func parseMDSLEither(name string, src []byte, comments bool) (*mparser, error) {
	p := newMParser(name, src, mmodeCall, comments)
	err := p.parse()
	if err == nil {
		_, err = buildMDSL(p, mdslCall)
	}
	if err == nil {
		return p, nil
	}
	q := newMParser(name, src, mmodeLeaf, comments)
	err2 := q.parse()
	if err2 == nil {
		_, err2 = buildMDSL(q, func(p *mparser, c mcall) (string, error) { return p.args[c.lo].str, nil })
	}
	if err2 == nil {
		return q, nil
	}
	var e1, e2 *MDSLError
	if errors.As(err, &e1) && errors.As(err2, &e2) && e2.Offset > e1.Offset {
		return nil, err2
	}
	return nil, err
}

// mformat prints a syntax tree with its comments.
type mformat struct {
	p        *mparser
	b        []byte
	ci       int   // the next comment
	open     bool  // the last line has no newline yet
	prevEnd  int   // the end in the source of what was printed last
	prevLine int   // its line
	lines    []int // the offsets of the newlines
	indent   int   // the deepest level indented
}

// lineOf returns the line (from 0) of byte offset pos.
func (f *mformat) lineOf(pos int) int {
	if f.lines == nil {
		f.lines = []int{}
		for i, c := range f.p.src {
			if c == '\n' {
				f.lines = append(f.lines, i)
			}
		}
	}
	return sort.SearchInts(f.lines, pos)
}

// trailing prints the comments before pos that sit on the line of what
// was printed last (or inside it).
func (f *mformat) trailing(pos int) {
	cs := f.p.lex.comments
	for f.ci < len(cs) && cs[f.ci].pos < pos {
		c := cs[f.ci]
		if !f.open || (c.pos >= f.prevEnd && f.lineOf(c.pos) != f.prevLine) {
			return
		}
		f.b = append(f.b, ' ')
		f.b = append(f.b, f.p.src[c.pos:c.end]...)
		f.prevEnd, f.prevLine = c.end, f.lineOf(c.end)
		f.ci++
	}
}

// leading prints the comments before pos on lines of their own at depth d.
func (f *mformat) leading(pos, d int) {
	cs := f.p.lex.comments
	for f.ci < len(cs) && cs[f.ci].pos < pos {
		f.trailing(pos)
		if f.ci >= len(cs) || cs[f.ci].pos >= pos {
			return
		}
		c := cs[f.ci]
		f.newline()
		f.b = appendIndent(f.b, min(d, f.indent))
		f.b = append(f.b, f.p.src[c.pos:c.end]...)
		f.open = true
		f.prevEnd, f.prevLine = c.end, f.lineOf(c.end)
		f.ci++
	}
}

func (f *mformat) newline() {
	if f.open {
		f.b = append(f.b, '\n')
		f.open = false
	}
}

// item prints one line's item at depth d: text from the source span
// [pos, end). Comments on lines of their own before it go at depth cd.
func (f *mformat) item(d, cd, pos, end int, text []byte) {
	f.trailing(pos)
	f.leading(pos, cd)
	f.newline()
	f.b = appendIndent(f.b, min(d, f.indent))
	f.b = append(f.b, text...)
	f.open = true
	f.prevEnd, f.prevLine = end, f.lineOf(end)
}

// format prints the syntax tree in canonical form, without indentation
// if the text would otherwise be longer than MaxMDSLBytes.
func (p *mparser) format() ([]byte, error) {
	b, err := p.formatIndent(mdslMaxIndent)
	if err == nil && len(b) > MaxMDSLBytes {
		b, err = p.formatIndent(0)
	}
	if err == nil && len(b) > MaxMDSLBytes {
		return nil, p.errAt(0, "the canonical text would be longer than %d bytes", MaxMDSLBytes)
	}
	return b, err
}

// formatIndent prints the syntax tree indenting at most maxIndent levels.
func (p *mparser) formatIndent(maxIndent int) ([]byte, error) {
	f := &mformat{p: p, indent: maxIndent}
	type frame struct {
		i    int32
		next int32
	}
	var hdr []byte
	for ri, r := range p.roots {
		if ri > 0 {
			f.trailing(p.nodes[r].pos)
			f.newline()
			f.b = append(f.b, '\n')
		}
		var err error
		hdr, err = p.appendHeader(hdr[:0], r)
		if err != nil {
			return nil, err
		}
		f.item(0, 0, p.nodes[r].pos, p.nodes[r].end, hdr)
		stack := []frame{{i: r, next: p.nodes[r].first}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if c := top.next; c >= 0 {
				top.next = p.nodes[c].next
				n := &p.nodes[c]
				if hdr, err = p.appendHeader(hdr[:0], c); err != nil {
					return nil, err
				}
				f.item(len(stack), len(stack), n.pos, n.end, hdr)
				if n.kind != mkwBranch && kinds[n.kind].arity != noChildren {
					stack = append(stack, frame{i: c, next: n.first})
				}
				continue
			}
			n := &p.nodes[top.i]
			stack = stack[:len(stack)-1]
			f.item(len(stack), len(stack)+1, n.close, n.close+1, []byte{'}'})
		}
	}
	f.trailing(len(p.src) + 1)
	f.leading(len(p.src)+1, 0)
	f.newline()
	return f.b, nil
}

// appendHeader appends the canonical header of node i of the syntax tree,
// with " {" for nodes with children.
func (p *mparser) appendHeader(b []byte, i int32) ([]byte, error) {
	n := &p.nodes[i]
	if n.kind == mkwBranch {
		b = append(b, "branch ["...)
		return append(append(b, n.name...), ']'), nil
	}
	b = append(b, mdslKeywords[n.kind]...)
	if n.kind == KindRoot && n.named {
		b = append(b, " ["...)
		b = append(append(b, n.name...), ']')
	}
	if n.ihi > n.ilo {
		b = appendInts(b, p.ints[n.ilo:n.ihi]...)
	}
	var err error
	if n.call != 0 {
		b = append(b, ' ')
		if b, err = p.appendCall(b, n.call, false); err != nil {
			return b, err
		}
	}
	for k := AttrWhile; k < numAttrs; k++ {
		if n.attrs[k] == 0 {
			continue
		}
		b = append(b, ' ')
		b = append(b, attrNames[k]...)
		if b, err = p.appendCall(b, n.attrs[k], true); err != nil {
			return b, err
		}
		if n.succ[k] {
			b = append(b, " then succeed"...)
		}
	}
	if kinds[n.kind].arity != noChildren {
		b = append(b, " {"...)
	}
	return b, nil
}

func (p *mparser) appendCall(b []byte, ci int32, attr bool) ([]byte, error) {
	c := p.calls[ci-1]
	open, closer := byte('['), byte(']')
	if attr {
		open, closer = '(', ')'
	}
	b = append(b, open)
	for j, a := range p.args[c.lo:c.hi] {
		if j > 0 {
			b = append(b, ", "...)
		}
		var err error
		switch a.typ {
		case margIdent:
			b = append(b, a.str...)
		case margNull:
			b, err = appendMDSLValue(b, nil)
		case margBool:
			b, err = appendMDSLValue(b, a.b)
		case margNum:
			b, err = appendMDSLValue(b, a.num)
		case margString:
			b, err = appendMDSLValue(b, a.str)
		case margProp:
			b, err = appendMDSLValue(b, Property(a.str))
		}
		if err != nil {
			return b, newMDSLError(p.name, p.src, a.pos, err.Error(), err)
		}
	}
	return append(b, closer), nil
}
