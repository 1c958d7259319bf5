package behaviortree

import (
	"strings"
	"unicode/utf8"
)

// This file is the MDSL lexer: a state machine in the style of
// text/template/parse. Each state is a function that reads some input and
// returns the next state; [mlexer.next] runs states until one of them has
// produced a token. The lexer never allocates for punctuation or for words
// and strings that no comment splits: a token holds byte offsets into the
// source.
//
// Comments are transparent, as in Mistreevous, which deletes every
// /* ... */ before it looks at strings or words: a comment may sit inside a
// word ("ab/* x */cd" is the word "abcd") or inside a string, and a quote
// inside a comment means nothing. Where Mistreevous would glue a string to
// the word next to it (`a"b"` becomes one odd identifier), the lexer
// reports an error instead.

// mtokType is the type of an MDSL token.
type mtokType uint8

const (
	mtEOF    mtokType = iota
	mtWord            // a keyword, identifier, number, true/false/null or $property
	mtString          // a "..." literal; val is its decoded value
	mtLBrack          // [
	mtRBrack          // ]
	mtLParen          // (
	mtRParen          // )
	mtLBrace          // {
	mtRBrace          // }
	mtComma           // ,
	mtError           // val is the message; pos where it is
)

var mtokNames = [...]string{mtEOF: "end of input", mtWord: "word", mtString: "string", mtLBrack: "'['", mtRBrack: "']'",
	mtLParen: "'('", mtRParen: "')'", mtLBrace: "'{'", mtRBrace: "'}'", mtComma: "','", mtError: "error"}

// mtoken is one token: its type, the offset of its first byte, and for
// words and strings where it ends. A word or string that a comment splits
// has its text in val; otherwise val is empty and the text is
// src[pos:end] (for strings, the raw content between the quotes).
type mtoken struct {
	typ      mtokType
	pos, end int
	val      string // a spliced word or raw string content, or an error message
	spliced  bool
}

// mcomment is a comment's place in the source, for the formatter.
type mcomment struct{ pos, end int }

// mstateFn is a state of the lexer: it reads, and returns the next state.
type mstateFn func(*mlexer) mstateFn

// mlexer holds the lexer's state.
type mlexer struct {
	src      []byte
	pos      int      // the next byte to read
	start    int      // where the current token starts
	seg      int      // where the current contiguous piece of a word or string starts
	buf      []byte   // the pieces read so far of a word or string a comment split
	spliced  bool     // buf is in use
	esc      bool     // in a string, the last character was an escaping backslash
	ret      mstateFn // the state a comment returns to
	tok      mtoken
	have     bool
	state    mstateFn
	comments []mcomment // when keep is set
	keep     bool
}

func newMLexer(src []byte, keepComments bool) *mlexer {
	return &mlexer{src: src, state: lexBetween, keep: keepComments}
}

// next returns the next token. After an error or the end it keeps
// returning that token.
func (l *mlexer) next() mtoken {
	for !l.have {
		l.state = l.state(l)
	}
	l.have = false
	if l.tok.typ == mtEOF || l.tok.typ == mtError {
		l.have = true // sticky
	}
	return l.tok
}

func (l *mlexer) emit(t mtoken) mstateFn {
	l.tok, l.have = t, true
	return nil
}

func (l *mlexer) errorf(pos int, msg string) mstateFn {
	l.tok, l.have = mtoken{typ: mtError, pos: pos, val: msg}, true
	return lexStuck
}

// lexStuck is the state after an error: it repeats the error.
func lexStuck(l *mlexer) mstateFn {
	l.have = true
	return lexStuck
}

// jsSpace reports whether r is white space as JavaScript's \s means it,
// which is how Mistreevous splits tokens.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// jsLineBreak reports whether r ends a line for JavaScript's regular
// expressions ('.' does not match it).
func jsLineBreak(r rune) bool { return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029 }

// mpunct returns the token type of a punctuation byte, or mtEOF.
func mpunct(c byte) mtokType {
	switch c {
	case '[':
		return mtLBrack
	case ']':
		return mtRBrack
	case '(':
		return mtLParen
	case ')':
		return mtRParen
	case '{':
		return mtLBrace
	case '}':
		return mtRBrace
	case ',':
		return mtComma
	}
	return mtEOF
}

// rune returns the rune at pos and its width; an invalid byte gives
// utf8.RuneError and width 1.
func (l *mlexer) rune() (rune, int) {
	c := l.src[l.pos]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRune(l.src[l.pos:])
}

func (l *mlexer) atComment() bool {
	return l.pos+1 < len(l.src) && l.src[l.pos] == '/' && l.src[l.pos+1] == '*'
}

// comment skips the comment at pos, or reports it unterminated, then
// returns ret.
func (l *mlexer) comment(ret mstateFn) mstateFn {
	start := l.pos
	for i := start + 2; i+1 < len(l.src); i++ {
		if l.src[i] == '*' && l.src[i+1] == '/' {
			l.pos = i + 2
			if l.keep {
				l.comments = append(l.comments, mcomment{start, l.pos})
			}
			return ret
		}
	}
	return l.errorf(start, "unterminated comment")
}

// lexBetween is the state between tokens.
func lexBetween(l *mlexer) mstateFn {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == '/' && l.atComment() {
			return l.comment(lexBetween)
		}
		if t := mpunct(c); t != mtEOF {
			l.pos++
			l.emit(mtoken{typ: t, pos: l.pos - 1, end: l.pos})
			return lexBetween
		}
		if c == '"' {
			l.start, l.pos = l.pos, l.pos+1
			l.seg, l.spliced, l.buf, l.esc = l.pos, false, l.buf[:0], false
			return lexString
		}
		r, w := l.rune()
		if r == utf8.RuneError && w == 1 {
			return l.errorf(l.pos, "invalid UTF-8")
		}
		if jsSpace(r) {
			l.pos += w
			continue
		}
		l.start = l.pos
		l.seg, l.spliced, l.buf = l.pos, false, l.buf[:0]
		return lexWord
	}
	l.emit(mtoken{typ: mtEOF, pos: len(l.src), end: len(l.src)})
	return lexBetween
}

// lexWord reads a word: anything up to white space, punctuation or the end.
func lexWord(l *mlexer) mstateFn {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == '/' && l.atComment() {
			l.buf = append(l.buf, l.src[l.seg:l.pos]...)
			l.spliced = true
			return l.comment(lexWordResume)
		}
		if mpunct(c) != mtEOF {
			break
		}
		if c == '"' {
			return l.errorf(l.pos, "a string cannot touch the word before it")
		}
		r, w := l.rune()
		if r == utf8.RuneError && w == 1 {
			return l.errorf(l.pos, "invalid UTF-8")
		}
		if jsSpace(r) {
			break
		}
		l.pos += w
	}
	t := mtoken{typ: mtWord, pos: l.start, end: l.pos}
	if l.spliced {
		t.val, t.spliced = string(append(l.buf, l.src[l.seg:l.pos]...)), true
		if strings.Contains(t.val, "/*") {
			return l.errorf(l.start, "removing a comment leaves '/*' in this word")
		}
	}
	l.emit(t)
	return lexBetween
}

// lexWordResume goes on with a word after a comment inside it.
func lexWordResume(l *mlexer) mstateFn {
	l.seg = l.pos
	return lexWord
}

// lexString reads a string after its opening quote, as Mistreevous's
// /"(\\.|[^"\\])*"/ does once comments are gone. Whether the last
// character was an escaping backslash survives a comment (l.esc), since
// the comment vanishes.
func lexString(l *mlexer) mstateFn {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == '/' && l.atComment() {
			l.buf = append(l.buf, l.src[l.seg:l.pos]...)
			l.spliced = true
			return l.comment(lexStringResume)
		}
		r, w := l.rune()
		if r == utf8.RuneError && w == 1 {
			return l.errorf(l.pos, "invalid UTF-8")
		}
		switch {
		case l.esc:
			if jsLineBreak(r) {
				return l.errorf(l.pos, "a backslash before a line break in a string")
			}
			l.esc = false
		case c == '\\':
			l.esc = true
		case c == '"':
			t := mtoken{typ: mtString, pos: l.start, end: l.pos}
			if l.spliced {
				t.val, t.spliced = string(append(l.buf, l.src[l.seg:l.pos]...)), true
				if strings.Contains(t.val, "/*") {
					return l.errorf(l.start, "removing a comment leaves '/*' in this string")
				}
			}
			l.pos++
			l.emit(t)
			return lexAfterString
		}
		l.pos += w
	}
	return l.errorf(l.start, "unterminated string")
}

// lexStringResume goes on with a string after a comment inside it.
func lexStringResume(l *mlexer) mstateFn {
	l.seg = l.pos
	return lexString
}

// lexAfterString checks that a string is not glued to a word or another
// string after it (comments between do not separate, as they vanish).
func lexAfterString(l *mlexer) mstateFn {
	for l.pos < len(l.src) {
		if l.atComment() {
			return l.comment(lexAfterString)
		}
		c := l.src[l.pos]
		if mpunct(c) != mtEOF {
			return lexBetween
		}
		if c == '"' {
			return l.errorf(l.pos, "a string cannot touch the string before it")
		}
		r, _ := l.rune()
		if jsSpace(r) {
			return lexBetween
		}
		return l.errorf(l.pos, "a word cannot touch the string before it")
	}
	return lexBetween
}
