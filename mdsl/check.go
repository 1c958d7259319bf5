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

// maxCheckRead is the most bytes Check reads again, in all, for a text
// of n bytes: a small text is read as often as its errors need, a long
// one at most 8 times more, so that checking stays linear in its size.
func maxCheckRead(n int) int { return 8*n + 4<<20 }

// Check reads src as [Parse] does (or as [ParseFunc] does for a text whose
// leaves are plain names, if that gets further) and returns its errors, in
// the order found, at most 50; none for a text that Parse reads.
//
// After an error in a node's header (its keyword, arguments or
// attributes), or in how its children are linked (an unknown branch, a
// cycle, parameters out of range), Check reads the text again with that
// node and everything inside it replaced by a wait, so that the rest is
// checked as it stands: errors inside a node whose header is wrong are not
// reported. A wrong number of children does not stop the parser, nor
// does an error in a named root stop the building of the others (one
// reading finds them all), nor "no main root" (said once). A text that
// ends with a node still open, or a syntax error outside any node, ends
// the check there. Each reading is linear in the text's size, and Check
// reads at most 8 times the text's size plus 4 MB in all (a long text
// whose errors each need another reading reports the first ones), so it
// is linear too: the 3.3 MB text of 100,000 named roots takes about 1 s
// and allocates 18 bytes per byte of text, in all, in both modes.
//
// Check needs the errors only, so it holds little: each node is built
// (bt.Build checks it) from stubs that stand for its children, then
// dropped for a stub too, and the syntax of each node built while the
// text is read is dropped (as Parse does), so what stays is the syntax of
// the roots and of the nodes that cannot be built yet (a branch in them).
// Its heap peaks at 10 to 14 bytes per byte of that text.
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
	// work is the text as mended, copied at the first mending (a text
	// with no error, or errors that need none, is not copied).
	work, owned := src, false
	mend := func(p *parser, e *Error, start, end int, inside bool) bool {
		if !owned {
			work, owned = append([]byte(nil), src...), true
		}
		return p.mend(work, e, start, end, inside)
	}
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
	var log mendLog
	noMain := false   // "no main root" was reported: build the named roots
	mainOnly := false // build only the main root's nodes early (parser.specMainOnly)
	read := 0         // the bytes read, over the readings
	defer func() { slices.SortStableFunc(out, func(a, b *Error) int { return a.Offset - b.Offset }) }()
	// Each reading but the last mends at least one error's node or finds
	// a new error; the bound on readings is a second guard.
passes:
	for pass := 0; len(out) < maxCheckErrors && pass < 4*maxCheckErrors; pass++ {
		if read += len(work); pass > 0 && read > maxCheckRead(len(src)) {
			return out
		}
		// No room reserved for the whole text, as newParser does: the
		// syntax of what is built early is dropped.
		p := &parser{name: name, src: work, lex: newLexer(work, false), mode: mode, intern: map[string]string{}}
		p.collect, p.cur, p.mended, p.noMain = true, -1, &log, noMain
		// The subtrees are built while they are read, as Parse does, and
		// their syntax dropped (the builder's stubs stand for them), so
		// that a check holds the syntax of what it cannot build yet only.
		var b checker
		if mode == modeCall {
			b = newBuilder(p, callOf)
		} else {
			b = newBuilder(p, func(p *parser, c callSyntax) (string, error) { return p.args[c.lo].str, nil })
		}
		p.spec, p.specMainOnly = b, mainOnly
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
			if log.root && errors.As(err, &pe) && strings.HasPrefix(pe.Msg, "no root:") {
				// The roots were mended away after their own errors.
				return out
			}
			if !errors.As(err, &pe) || !add(pe) || !mend(p, pe, p.cur, -1, p.inside) {
				return out
			}
			continue
		}
		if len(p.errs) > 0 {
			// The syntax tree is read, but some nodes have the wrong
			// number of children: mend them, to build the rest.
			mended := false
			for _, e := range p.errs {
				if start, end, inside := p.nodeAt(e); mend(p, e, start, end, inside) {
					mended = true
				}
			}
			if !mended {
				return out
			}
			continue
		}
		for { // built again, from the same reading, after "no main root"
			if err = b.check(); err == errTooDeep && !mainOnly {
				// A node built early is too deep: read again, as Parse
				// does, to say where.
				mainOnly = true
				continue passes
			}
			if err == nil || !errors.As(err, &pe) {
				return out
			}
			if !strings.HasPrefix(pe.Msg, "no main root:") || noMain {
				break
			}
			// Said once for the whole text (not when the main root was
			// mended away after its own error); then the named roots are
			// built.
			if !log.main && !add(pe) {
				return out
			}
			noMain, p.noMain = true, true
		}
		found := []*Error{pe}
		for _, e := range p.buildErrs[min(1, len(p.buildErrs)):] {
			if errors.As(e, &pe) {
				found = append(found, pe)
			}
		}
		var added []*Error
		for _, e := range found {
			if add(e) {
				added = append(added, e)
			} else if len(out) >= maxCheckErrors {
				return out
			}
		}
		mended := false
		for _, e := range added {
			if start, end, inside := p.nodeAt(e); start >= 0 && work[start] != ' ' && mend(p, e, start, end, inside) {
				mended = true
			}
		}
		if !mended {
			return out
		}
	}
	return out
}

// checker is a builder of any leaf type, for Check: it builds nodes
// while the parser reads (speculator), and check builds the rest.
type checker interface {
	speculator
	check() error
}

// check builds what the parser read, for the error; it can be called
// again, after p.noMain is set.
func (b *builder[L]) check() error {
	_, err := b.build()
	return err
}

// nodeAt returns the region of the text to mend for error e of validate
// or of the builder: the node it is about, which it is at the keyword or
// arguments of, and whether that node is inside a root; or, for "X takes
// one child, got N" (at X's second child), X's children after the first.
// start is -1 for none.
func (p *parser) nodeAt(e *Error) (start, end int, inside bool) {
	second := strings.Contains(e.Msg, "takes one child, got") && !strings.HasSuffix(e.Msg, "got none")
	for i := range p.nodes.len() {
		n := p.nodes.at(i)
		switch {
		case second && n.nkids > 1 && int(n.second) == e.Offset:
			return int(n.second), int(n.close), false
		case !second && (int(n.pos) == e.Offset || int(n.argPos) == e.Offset):
			return int(n.pos), nodeEnd(p.src, int(n.pos)), n.kind != kind.Root
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
	if p.mended != nil {
		p.noteRoots(start, end)
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

// noteRoots notes in p.mended the roots whose keyword is in
// text[start:end], which mend blanks: the roots read (p.roots, in the
// order of the text) and the node being read.
func (p *parser) noteRoots(start, end int) {
	note := func(n *node) {
		if n.kind == kind.Root && int(n.pos) >= start && int(n.pos) < end {
			p.mended.root = true
			p.mended.main = p.mended.main || !n.named
		}
	}
	i, _ := slices.BinarySearchFunc(p.roots, start, func(r int32, pos int) int { return int(p.nodes.at(r).pos) - pos })
	for ; i < len(p.roots) && int(p.nodes.at(p.roots[i]).pos) < end; i++ {
		note(p.nodes.at(p.roots[i]))
	}
	if p.nodes.len() > 0 {
		note(p.nodes.at(p.nodes.len() - 1))
	}
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
