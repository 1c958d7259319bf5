package mdsl

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

// This file converts MDSL texts into Mistreevous JSON definitions as they
// are written, roots and branches kept.

// ToJSON returns the Mistreevous JSON definition of an MDSL text as
// Mistreevous's convertMDSLToJSON gives it: an array of the text's roots
// in their order, the main root and the named ones (with their "id"),
// with branch nodes kept as {"type":"branch","ref":NAME}, so that
// Mistreevous reads the result as the same tree. Every node's keys are in
// convertMDSLToJSON's order ("type" first; an action's "call" and "args",
// "args" even when empty; then the attributes in the order written, a
// guard with its "succeedOnAbort"; then "child" or "children"), and
// numbers and strings are written as JSON.stringify writes them. [Parse]
// and package mistreevous's Parse read the result to the same tree, with
// branches expanded; mistreevous.Format writes that tree expanded.
//
// The text must be valid as [Parse] checks it, and its errors are Parse's;
// a text with kinds that Mistreevous does not have (repeat_n, threshold,
// ...) is an error at the first of them.
func ToJSON(name string, src []byte) ([]byte, error) {
	p := newParser(name, src, modeCall, false)
	if err := p.parse(); err != nil {
		return nil, err
	}
	if _, err := build(p, callOf); err != nil {
		return nil, err
	}
	for i := range p.nodes.len() {
		n := p.nodes.at(i)
		if n.kind != kwBranch && n.kind.Mistreevous() == "" {
			return nil, p.errAt(int(n.pos), "%s nodes have no Mistreevous form", keywords[n.kind])
		}
	}
	b := []byte{'['}
	for i, r := range p.roots {
		if i > 0 {
			b = append(b, ',')
		}
		b = p.appendJSON(b, r)
	}
	return append(b, ']'), nil
}

// appendJSON appends node i of the syntax tree, and the nodes below it,
// in convertMDSLToJSON's form. Its depth is at most mistreevous.MaxDepth,
// which the parser checked.
func (p *parser) appendJSON(b []byte, i int32) []byte {
	n := p.nodes.at(i)
	b = append(b, `{"type":`...)
	if n.kind == kwBranch {
		b = appendJSString(b, "branch")
		b = append(b, `,"ref":`...)
		b = appendJSString(b, n.name)
		return append(b, '}')
	}
	info := n.kind
	b = appendJSString(b, info.Mistreevous())
	if n.kind == kind.Root && n.named {
		b = append(b, `,"id":`...)
		b = appendJSString(b, n.name)
	}
	if info.Carries() {
		b = append(b, ',')
		b = p.appendJSONCall(b, n.call)
	}
	ints := p.ints[n.ilo:n.ihi]
	if info.Param() == kind.ParamBound && len(ints) > 0 {
		b = append(b, `,"`+info.BoundName()+`":`...)
		if len(ints) == 1 {
			b = strconv.AppendInt(b, int64(ints[0]), 10)
		} else {
			b = appendJSONInts(b, ints)
		}
	}
	// The attributes in the order they are written: their calls are in
	// the parser's list in that order.
	var attrs []attr.Kind
	for a := attr.KindWhile; a < numAttrs; a++ {
		if p.attrsOf(n).calls[a] != 0 {
			attrs = append(attrs, a)
		}
	}
	slices.SortFunc(attrs, func(x, y attr.Kind) int { return int(p.attrsOf(n).calls[x] - p.attrsOf(n).calls[y]) })
	for _, a := range attrs {
		b = append(b, `,"`...)
		b = append(b, a.String()...)
		b = append(b, `":{`...)
		b = p.appendJSONCall(b, p.attrsOf(n).calls[a])
		if a == attr.KindWhile || a == attr.KindUntil {
			b = append(b, `,"succeedOnAbort":`...)
			b = strconv.AppendBool(b, p.attrsOf(n).succ[a])
		}
		b = append(b, '}')
	}
	if info.Param() == kind.ParamLotto && len(ints) > 0 {
		b = append(b, `,"weights":`...)
		b = appendJSONInts(b, ints)
	}
	switch info.Arity() {
	case kind.OneChild:
		b = append(b, `,"child":`...)
		b = p.appendJSON(b, n.first)
	case kind.SomeChildren:
		b = append(b, `,"children":[`...)
		for c := n.first; c != -1; c = p.nextOf(c) {
			if c != n.first {
				b = append(b, ',')
			}
			b = p.appendJSON(b, c)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendJSONCall appends `"call":NAME,"args":[...]` for call ci (+1).
func (p *parser) appendJSONCall(b []byte, ci int32) []byte {
	c := p.calls[ci-1]
	args := p.args[c.lo:c.hi]
	b = append(b, `"call":`...)
	b = appendJSString(b, args[0].str)
	b = append(b, `,"args":[`...)
	for j, a := range args[1:] {
		if j > 0 {
			b = append(b, ',')
		}
		switch a.typ {
		case argNull:
			b = append(b, "null"...)
		case argBool:
			b = strconv.AppendBool(b, a.b)
		case argNum:
			if a.num == 0 {
				b = append(b, '0') // JSON.stringify(-0) is 0
			} else {
				b = append(b, formatNumber(a.num)...)
			}
		case argString:
			b = appendJSString(b, a.str)
		case argProp:
			b = append(b, `{"$":`...)
			b = appendJSString(b, a.str)
			b = append(b, '}')
		}
	}
	return append(b, ']')
}

// appendJSONInts appends [x,y,...].
func appendJSONInts(b []byte, ints []int) []byte {
	b = append(b, '[')
	for j, x := range ints {
		if j > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

// appendJSString appends s quoted as JSON.stringify quotes it: '"' and
// '\' escaped, the control characters as \b, \f, \n, \r, \t or \u00xx,
// everything else as it is (the lexer refuses invalid UTF-8).
func appendJSString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			_, size := utf8.DecodeRuneInString(s[i:])
			b = append(b, s[i:i+size]...)
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			} else {
				b = append(b, c)
			}
		}
		i++
	}
	return append(b, '"')
}
