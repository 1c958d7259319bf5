package mdsl

import (
	"errors"
	"slices"
	"strings"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/near"
	"github.com/zipbt/behaviortree/kind"
)

// This file finds every error of a text, for `bt check`.

// maxCheckErrors is the most errors Check reports.
const maxCheckErrors = 50

// Check reads src as [Parse] does (or as [ParseFunc] does for a text whose
// leaves are plain names, if that gets further) and returns its errors, in
// the order found, at most 50; none for a text that Parse reads.
//
// After an error in a node's header (its keyword, arguments or
// attributes), or in how its children are linked (an unknown branch, a
// cycle, parameters out of range), Check reads the text again with that
// node and everything inside it replaced by a wait, so that the rest is
// checked as it stands: errors inside a node whose header is wrong are not
// reported. A wrong number of children does not stop the parser. A text
// that ends with a node still open, or a syntax error outside any node,
// ends the check there. Each reading is linear in the text's size.
func Check(name string, src []byte) []*Error {
	errs := check(name, src, modeCall)
	if len(errs) == 0 {
		return nil
	}
	if leaf := check(name, src, modeLeaf); len(leaf) == 0 || leaf[0].Offset > errs[0].Offset {
		return leaf
	}
	return errs
}

// check is Check in one mode.
func check(name string, src []byte, mode int) []*Error {
	work := append([]byte(nil), src...)
	var out []*Error
	seen := map[[2]int]bool{} // offset and length of message: a mended text finds an error again
	// add adds e, and reports whether to read on: not past the most
	// errors, nor when a reading finds only errors found before (it would
	// not end).
	add := func(e *Error) bool {
		k := [2]int{e.Offset, len(e.Msg)}
		if seen[k] {
			return false
		}
		seen[k] = true
		out = append(out, newError(name, src, e.Offset, e.Msg, e.Err))
		return len(out) < maxCheckErrors
	}
	defer func() { slices.SortStableFunc(out, func(a, b *Error) int { return a.Offset - b.Offset }) }()
	// Each reading but the last mends at least one error's node or finds
	// a new error; the bound on readings is a second guard.
	for pass := 0; len(out) < maxCheckErrors && pass < 4*maxCheckErrors; pass++ {
		p := newParser(name, work, mode, false)
		p.collect, p.cur = true, -1
		err := p.parse()
		for _, e := range p.errs {
			// Until mended, a node with the wrong number of children is
			// found again at each reading.
			if add(e); len(out) >= maxCheckErrors {
				return out
			}
		}
		if err != nil && p.cur < 0 && p.inside {
			// A syntax error between nodes (a stray string or token): mend
			// the rest of its line.
			p.cur = -2
		}
		var pe *Error
		if err != nil {
			if !errors.As(err, &pe) || !add(pe) || !p.mend(work, pe, p.cur, -1, p.inside) {
				return out
			}
			continue
		}
		if len(p.errs) > 0 {
			// The syntax tree is read, but some nodes have the wrong
			// number of children: mend them, to build the rest.
			mended := false
			for _, e := range p.errs {
				if start, end, inside := p.nodeAt(e); p.mend(work, e, start, end, inside) {
					mended = true
				}
			}
			if !mended {
				return out
			}
			continue
		}
		if mode == modeCall {
			_, err = build(p, callOf)
		} else {
			_, err = build(p, func(p *parser, c callSyntax) (string, error) { return p.args[c.lo].str, nil })
		}
		if err == nil {
			return out
		}
		if !errors.As(err, &pe) || !add(pe) {
			return out
		}
		if start, end, inside := p.nodeAt(pe); !p.mend(work, pe, start, end, inside) {
			return out
		}
	}
	return out
}

// nodeAt returns the region of the text to mend for error e of validate
// or of the builder: the node it is about, which it is at the keyword or
// arguments of, and whether that node is inside a root; or, for "X takes
// one child, got N" (at X's second child), X's children after the first.
// start is -1 for none.
func (p *parser) nodeAt(e *Error) (start, end int, inside bool) {
	second := strings.Contains(e.Msg, "takes one child, got") && !strings.HasSuffix(e.Msg, "got none")
	for i := range p.nodes {
		n := &p.nodes[i]
		switch {
		case second && n.nkids > 1 && n.second == e.Offset:
			return n.second, n.close, false
		case !second && (n.pos == e.Offset || n.argPos == e.Offset):
			return n.pos, nodeEnd(p.src, n.pos), n.kind != kind.Root
		}
	}
	return -1, -1, false
}

// mend replaces text[start:end] with a wait if inside (a node inside a
// root) or with white space, so that the text can be read again past
// error e; for a syntax error (end < 0), the node whose keyword is at
// start, and what is inside it. It returns false when it cannot: the text
// ends with a node open, or the error is not in a node. Line breaks are
// kept, so that positions stay where they were.
func (p *parser) mend(text []byte, e *Error, start, end int, inside bool) bool {
	switch {
	case strings.HasSuffix(e.Msg, "is never closed: a '}' is missing"):
		return false
	case strings.HasPrefix(e.Msg, "unexpected '}'"):
		text[e.Offset] = ' '
		return true
	case start == -2:
		start, end, inside = e.Offset, e.Offset, false
		for end < len(text) && text[end] != '\n' {
			end++
		}
	case start < 0:
		return false
	case end < 0:
		end = nodeEnd(text, start)
	}
	if end <= start {
		return false
	}
	for i := start; i < end; i++ {
		if text[i] != '\n' && text[i] != '\r' {
			text[i] = ' '
		}
	}
	if inside && end-start >= len("wait") && !strings.ContainsAny(string(text[start:start+4]), "\r\n") {
		copy(text[start:], "wait")
	}
	return true
}

// nodeEnd returns the offset just past the node whose keyword is at start:
// its keyword, its arguments and attributes, and its block of children if
// it has one; past the first token it cannot lex, if any.
func nodeEnd(text []byte, start int) int {
	l := newLexer(text[start:], false)
	t := l.next() // the keyword
	end := t.end
	if t.typ == tokString {
		end++
	}
	// group skips a bracketed list whose opening bracket was just read.
	group := func(open tokType) bool {
		closer := map[tokType]tokType{tokLBrack: tokRBrack, tokLParen: tokRParen, tokLBrace: tokRBrace}[open]
		depth := 1
		for depth > 0 {
			t := l.next()
			switch t.typ {
			case tokEOF, tokError:
				end = len(text) - start
				if t.typ == tokError {
					end = t.pos
				}
				return false
			case open:
				depth++
			case closer:
				depth--
			}
			end = t.end
			if t.typ == tokString {
				end++
			}
		}
		return true
	}
	for {
		t := l.next()
		switch {
		case t.typ == tokLBrack || t.typ == tokLParen:
			if !group(t.typ) {
				return start + end
			}
			continue
		case t.typ == tokWord && attrOf(wordOf(text[start:], t)) != 0:
			end = t.end
			continue
		case t.typ == tokWord && asciiFold(wordOf(text[start:], t), "then"):
			end = t.end
			if r := l.next(); r.typ == tokWord {
				end = r.end // succeed or fail
			}
			continue
		case t.typ == tokLBrace:
			group(tokLBrace)
		}
		return start + end
	}
}

// wordOf returns the bytes of word token t of text.
func wordOf(text []byte, t token) []byte {
	if t.spliced {
		return []byte(t.val)
	}
	return text[t.pos:t.end]
}

// nearestKeyword returns the keyword (or attribute name) nearest to w in
// edit distance, ignoring case, if one is near enough to be a likely typo
// (near.Nearest's rule).
func nearestKeyword(w string) string {
	return near.Nearest(strings.ToLower(w), func(yield func(string) bool) {
		for _, kw := range keywords {
			if kw != "" && !yield(kw) {
				return
			}
		}
		if !yield("branch") {
			return
		}
		for a := attr.KindWhile; a < numAttrs; a++ {
			if !yield(a.String()) {
				return
			}
		}
	})
}
