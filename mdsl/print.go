package mdsl

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mistreevous"
)

// This file prints MDSL: trees ([Format], [FormatFunc]) and texts
// ([FormatSource]), in one canonical form: four spaces of indentation
// per level, one node per line, lower-case keywords, node arguments in
// [ ], attribute arguments in ( ), ", " between arguments, attributes in
// the order while, until, entry, step, exit, "then succeed" only where the
// guard succeeds on abort, and one blank line between roots.

// Format prints def in canonical MDSL. A def that is not a [bt.Root] is
// printed inside root { }, so that parsing the text gives Root(def).
// Shared subtrees are printed at every place (there are no branches in the
// output). It fails for custom nodes, for a Root below the top, for names
// and values that MDSL cannot write (a name with white space, a string
// with a line break after a backslash, NaN, ...), and for trees beyond the
// limits of [Parse]; then nothing is returned.
func Format(def bt.Node[bt.Call]) ([]byte, error) {
	return format(def, func(b []byte, c bt.Call, at bool) ([]byte, error) { return appendCall(b, c, at) })
}

// FormatFunc prints def, a tree of any leaf type, in canonical MDSL
// as [Format] does, with each leaf and attribute written as the text
// that text returns for its value: as a name where it can be one, else as
// a string. [ParseFunc] reads the output back.
func FormatFunc[L any](def bt.Node[L], text func(L) (string, error)) ([]byte, error) {
	if text == nil {
		return nil, errors.New("mdsl.FormatFunc: nil text function")
	}
	return format(def, func(b []byte, v L, at bool) ([]byte, error) {
		s, err := text(v)
		if err != nil {
			return b, err
		}
		open, closer := byte('['), byte(']')
		if at {
			open, closer = '(', ')'
		}
		b = append(b, open)
		b, err = appendLeafText(b, s)
		return append(b, closer), err
	})
}

// appendLeafText appends s as a name if it can be one, else as a
// string.
func appendLeafText(b []byte, s string) ([]byte, error) {
	if identOK(s) {
		return append(b, s...), nil
	}
	q, ok := quote(s)
	if !ok {
		return b, fmt.Errorf("leaf %s has no MDSL form", strconv.Quote(clip(s)))
	}
	return append(b, q...), nil
}

type frame[L any] struct {
	n    bt.Node[L]
	next int
}

func format[L any](def bt.Node[L], call func([]byte, L, bool) ([]byte, error)) ([]byte, error) {
	if def.IsZero() {
		return nil, errors.New("mdsl.Format: zero Node")
	}
	b, err := formatIndent(def, call, maxIndentLevel)
	if err == nil && len(b) > MaxBytes {
		b, err = formatIndent(def, call, 0)
	}
	if err == nil && len(b) > MaxBytes {
		err = fmt.Errorf("the text would be longer than %d bytes", MaxBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("mdsl.Format: %w", err)
	}
	return b, nil
}

// formatIndent prints def indenting at most maxIndent levels; it
// stops early once the text is longer than MaxBytes.
func formatIndent[L any](def bt.Node[L], call func([]byte, L, bool) ([]byte, error), maxIndent int) ([]byte, error) {
	fail := func(err error) ([]byte, error) { return nil, err }
	if textNodes(def) > mistreevous.MaxNodes {
		return fail(fmt.Errorf("the tree has more than %d nodes", mistreevous.MaxNodes))
	}
	var b []byte
	var stack []frame[L]
	depth0 := 0
	if def.Kind() != kind.Root {
		b = append(b, "root {\n"...)
		depth0 = 1
	}
	push := func(nd bt.Node[L]) error {
		d := depth0 + len(stack)
		if nd.Kind() == kind.Root && d > 0 {
			return errors.New("a root below the top has no MDSL form")
		}
		if d+1 > mistreevous.MaxDepth {
			return fmt.Errorf("the tree is deeper than %d nodes", mistreevous.MaxDepth)
		}
		if len(b) > MaxBytes {
			return nil // too long already: the caller sees it
		}
		b = appendIndent(b, min(d, maxIndent))
		var err error
		if b, err = appendHeader(b, nd, call); err != nil {
			return err
		}
		if nd.Kind().Arity() != kind.NoChildren { // braces even round no children (a reactive node may have none)
			b = append(b, " {\n"...)
			stack = append(stack, frame[L]{n: nd})
		} else {
			b = append(b, '\n')
		}
		return nil
	}
	if err := push(def); err != nil {
		return fail(err)
	}
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.next < f.n.Len() {
			c := f.n.Child(f.next)
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

// maxIndentLevel is the deepest level that the canonical form indents:
// lines below it are indented as it is, so that the text of a deep tree
// grows with its depth, not with the square of its depth.
const maxIndentLevel = 16

func appendIndent(b []byte, d int) []byte {
	for range min(d, maxIndentLevel) {
		b = append(b, "    "...)
	}
	return b
}

// appendHeader appends a node's keyword, arguments and attributes.
func appendHeader[L any](b []byte, nd bt.Node[L], call func([]byte, L, bool) ([]byte, error)) ([]byte, error) {
	k := nd.Kind()
	kw := keywords[k]
	if kw == "" {
		return b, fmt.Errorf("%s nodes have no MDSL form", k)
	}
	b = append(b, kw...)
	var err error
	switch ps := nd.Params(); k.Param() {
	case kind.ParamN:
		b = appendInts(b, ps.N)
	case kind.ParamWeights, kind.ParamLotto:
		if ps.Weights != nil {
			b = appendInts(b, ps.Weights...)
		}
	case kind.ParamThreshold:
		b = appendInts(b, ps.Success, ps.Failure)
	case kind.ParamCounts:
		b = appendInts(b, ps.Failure, ps.Success)
	case kind.ParamBound:
		switch ps.Bound {
		case kind.Fixed:
			b = appendInts(b, ps.Min)
		case kind.Ranged:
			b = appendInts(b, ps.Min, ps.Max)
		}
	}
	if v, carries := nd.Leaf(); carries {
		b = append(b, ' ')
		if b, err = call(b, v, false); err != nil {
			return b, err
		}
	}
	for _, a := range nd.Attrs() {
		b = append(b, ' ')
		b = append(b, a.Kind.String()...)
		if b, err = call(b, a.Value, true); err != nil {
			return b, err
		}
		if a.SucceedOnAbort {
			b = append(b, " then succeed"...)
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

// appendCall appends [Name, args...], or (Name, args...) for an
// attribute.
func appendCall(b []byte, c bt.Call, at bool) ([]byte, error) {
	open, closer := byte('['), byte(']')
	if at {
		open, closer = '(', ')'
	}
	if !identOK(c.Name) {
		return b, fmt.Errorf("function name %s has no MDSL form", strconv.Quote(clip(c.Name)))
	}
	if len(c.Args) > mistreevous.MaxArgs {
		return b, fmt.Errorf("%s has more than %d arguments", c.Name, mistreevous.MaxArgs)
	}
	b = append(b, open)
	b = append(b, c.Name...)
	for _, a := range c.Args {
		b = append(b, ", "...)
		var err error
		if b, err = appendValue(b, a); err != nil {
			return b, fmt.Errorf("%s: %w", c.Name, err)
		}
	}
	return append(b, closer), nil
}

// appendValue appends an argument value.
func appendValue(b []byte, a any) ([]byte, error) {
	switch v := a.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return b, fmt.Errorf("number %v has no MDSL form", v)
		}
		return append(b, formatNumber(v)...), nil
	case string:
		q, ok := quote(v)
		if !ok {
			return b, fmt.Errorf("string %s has no MDSL form", strconv.Quote(clip(v)))
		}
		return append(b, q...), nil
	case bt.Property:
		s := string(v)
		if s == "" || !identStart(s[0]) || !wordOK("$"+s) {
			return b, fmt.Errorf("property %s has no MDSL form", strconv.Quote(clip(s)))
		}
		return append(append(b, '$'), s...), nil
	}
	return b, fmt.Errorf("argument of type %T: must be nil, bool, float64, string or Property", a)
}

// formatNumber writes a finite number as JavaScript would, so that it reads
// back the same.
func formatNumber(v float64) string {
	if v == 0 {
		if math.Signbit(v) {
			return "-0"
		}
		return "0"
	}
	if a := math.Abs(v); a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	// Go pads the exponent to two digits (1e-07), JavaScript does not.
	s := strconv.FormatFloat(v, 'e', -1, 64)
	if i := strings.LastIndexByte(s, 'e'); i >= 0 && i+2 < len(s)-1 && s[i+2] == '0' {
		s = s[:i+2] + s[i+3:]
	}
	return s
}

// wordOK reports whether s lexes as one word.
func wordOK(s string) bool {
	if s == "" || len(s) > mistreevous.MaxStringBytes || !utf8.ValidString(s) || strings.Contains(s, "/*") {
		return false
	}
	for _, r := range s {
		if r == '"' || jsSpace(r) || (r < utf8.RuneSelf && punct(byte(r)) != tokEOF) {
			return false
		}
	}
	return true
}

// identOK reports whether s reads back as a name (an identifier).
func identOK(s string) bool {
	if !wordOK(s) {
		return false
	}
	switch s {
	case "null", "true", "false":
		return false
	}
	if _, _, ok, _ := jsNumber(s); ok {
		return false
	}
	if placeholder([]byte(s)) {
		return false
	}
	return !(len(s) > 1 && s[0] == '$' && identStart(s[1]))
}

// quote returns a string literal that reads back as v, and false when
// there is none (a v with "/*", with a second quote, ...).
func quote(v string) (string, bool) {
	if len(v) > mistreevous.MaxStringBytes || !utf8.ValidString(v) {
		return "", false
	}
	try := func(c string) bool { return contentOK(c) && unquote(c) == v }
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

// contentOK reports whether c is the whole content of a string
// literal, as the lexer reads it.
func contentOK(c string) bool {
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

// FormatSource returns an MDSL text in canonical form, keeping what a
// tree does not hold: the order of the roots, named roots and branches,
// and comments (a comment on the line of a node stays at the end of that
// line; others go on lines of their own, indented as the next node).
// name is for error messages. A text that does not parse is an error, as
// [Parse] (or, for texts whose leaves are strings, [ParseFunc])
// reports it. Formatting twice gives the same text.
func FormatSource(name string, src []byte) ([]byte, error) {
	p, err := parseEither(name, src, true)
	if err != nil {
		return nil, err
	}
	return p.format()
}

// parseEither parses and checks src as [Parse] does or, failing
// that, as [ParseFunc] with string leaves does; the error is the one
// that got further into the text.
func parseEither(name string, src []byte, comments bool) (*parser, error) {
	p := newParser(name, src, modeCall, comments)
	err := p.parse()
	if err == nil {
		_, err = build(p, callOf)
	}
	if err == nil {
		return p, nil
	}
	q := newParser(name, src, modeLeaf, comments)
	err2 := q.parse()
	if err2 == nil {
		_, err2 = build(q, func(p *parser, c callSyntax) (string, error) { return p.args[c.lo].str, nil })
	}
	if err2 == nil {
		return q, nil
	}
	var e1, e2 *Error
	if errors.As(err, &e1) && errors.As(err2, &e2) && e2.Offset > e1.Offset {
		return nil, err2
	}
	return nil, err
}

// formatter prints a syntax tree with its comments.
type formatter struct {
	p        *parser
	b        []byte
	ci       int   // the next comment
	open     bool  // the last line has no newline yet
	prevEnd  int   // the end in the source of what was printed last
	prevLine int   // its line
	lines    []int // the offsets of the newlines
	indent   int   // the deepest level indented
}

// lineOf returns the line (from 0) of byte offset pos.
func (f *formatter) lineOf(pos int) int {
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
func (f *formatter) trailing(pos int) {
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
func (f *formatter) leading(pos, d int) {
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

func (f *formatter) newline() {
	if f.open {
		f.b = append(f.b, '\n')
		f.open = false
	}
}

// item prints one line's item at depth d: text from the source span
// [pos, end). Comments on lines of their own before it go at depth cd.
func (f *formatter) item(d, cd, pos, end int, text []byte) {
	f.trailing(pos)
	f.leading(pos, cd)
	f.newline()
	f.b = appendIndent(f.b, min(d, f.indent))
	f.b = append(f.b, text...)
	f.open = true
	f.prevEnd, f.prevLine = end, f.lineOf(end)
}

// format prints the syntax tree in canonical form, without indentation
// if the text would otherwise be longer than MaxBytes.
func (p *parser) format() ([]byte, error) {
	b, err := p.formatIndent(maxIndentLevel)
	if err == nil && len(b) > MaxBytes {
		b, err = p.formatIndent(0)
	}
	if err == nil && len(b) > MaxBytes {
		return nil, p.errAt(0, "the canonical text would be longer than %d bytes", MaxBytes)
	}
	return b, err
}

// formatIndent prints the syntax tree indenting at most maxIndent levels.
func (p *parser) formatIndent(maxIndent int) ([]byte, error) {
	f := &formatter{p: p, indent: maxIndent}
	type frame struct {
		i    int32
		next int32
	}
	var hdr []byte
	for ri, r := range p.roots {
		if ri > 0 {
			f.trailing(int(p.nodes.at(r).pos))
			f.newline()
			f.b = append(f.b, '\n')
		}
		var err error
		hdr, err = p.appendHeader(hdr[:0], r)
		if err != nil {
			return nil, err
		}
		f.item(0, 0, int(p.nodes.at(r).pos), int(p.nodes.at(r).end), hdr)
		stack := []frame{{i: r, next: p.nodes.at(r).first}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if c := top.next; c >= 0 {
				top.next = p.nodes.at(c).next
				n := p.nodes.at(c)
				if hdr, err = p.appendHeader(hdr[:0], c); err != nil {
					return nil, err
				}
				f.item(len(stack), len(stack), int(n.pos), int(n.end), hdr)
				if n.kind != kwBranch && n.kind.Arity() != kind.NoChildren {
					stack = append(stack, frame{i: c, next: n.first})
				}
				continue
			}
			n := p.nodes.at(top.i)
			stack = stack[:len(stack)-1]
			f.item(len(stack), len(stack)+1, int(n.close), int(n.close)+1, []byte{'}'})
		}
	}
	f.trailing(len(p.src) + 1)
	f.leading(len(p.src)+1, 0)
	f.newline()
	return f.b, nil
}

// appendHeader appends the canonical header of node i of the syntax tree,
// with " {" for nodes with children.
func (p *parser) appendHeader(b []byte, i int32) ([]byte, error) {
	n := p.nodes.at(i)
	if n.kind == kwBranch {
		b = append(b, "branch ["...)
		return append(append(b, n.name...), ']'), nil
	}
	b = append(b, keywords[n.kind]...)
	if n.kind == kind.Root && n.named {
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
	for k := attr.KindWhile; k < numAttrs; k++ {
		if p.attrsOf(n).calls[k] == 0 {
			continue
		}
		b = append(b, ' ')
		b = append(b, k.String()...)
		if b, err = p.appendCall(b, p.attrsOf(n).calls[k], true); err != nil {
			return b, err
		}
		if p.attrsOf(n).succ[k] {
			b = append(b, " then succeed"...)
		}
	}
	if n.kind.Arity() != kind.NoChildren {
		b = append(b, " {"...)
	}
	return b, nil
}

func (p *parser) appendCall(b []byte, ci int32, at bool) ([]byte, error) {
	c := p.calls[ci-1]
	open, closer := byte('['), byte(']')
	if at {
		open, closer = '(', ')'
	}
	b = append(b, open)
	for j, a := range p.args[c.lo:c.hi] {
		if j > 0 {
			b = append(b, ", "...)
		}
		var err error
		switch a.typ {
		case argIdent:
			b = append(b, a.str...)
		case argNull:
			b, err = appendValue(b, nil)
		case argBool:
			b, err = appendValue(b, a.b)
		case argNum:
			b, err = appendValue(b, a.num)
		case argString:
			b, err = appendValue(b, a.str)
		case argProp:
			b, err = appendValue(b, bt.Property(a.str))
		}
		if err != nil {
			return b, newError(p.name, p.src, a.pos, err.Error(), err)
		}
	}
	return append(b, closer), nil
}
