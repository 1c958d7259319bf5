package mdsl

import (
	"strings"
	"unicode/utf8"
)

// This file is the MDSL lexer: a state machine in the style of
// text/template/parse. Each state is a function that reads some input and
// returns the next state; [lexer.next] runs states until one of them has
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

// tokType is the type of an MDSL token.
type tokType uint8

const (
	tokEOF    tokType = iota
	tokWord           // a keyword, identifier, number, true/false/null or $property
	tokString         // a "..." literal; val is its decoded value
	tokLBrack         // [
	tokRBrack         // ]
	tokLParen         // (
	tokRParen         // )
	tokLBrace         // {
	tokRBrace         // }
	tokComma          // ,
	tokError          // val is the message; pos where it is
)

var tokNames = [...]string{tokEOF: "end of input", tokWord: "word", tokString: "string", tokLBrack: "'['", tokRBrack: "']'",
	tokLParen: "'('", tokRParen: "')'", tokLBrace: "'{'", tokRBrace: "'}'", tokComma: "','", tokError: "error"}

// token is one token: its type, the offset of its first byte, and for
// words and strings where it ends. A word or string that a comment splits
// has its text in val; otherwise val is empty and the text is
// src[pos:end] (for strings, the raw content between the quotes).
type token struct {
	typ      tokType
	pos, end int
	val      string // a spliced word or raw string content, or an error message
	spliced  bool
}

// comment is a comment's place in the source, for the formatter.
type comment struct{ pos, end int }

// stateFn is a state of the lexer: it reads, and returns the next state.
type stateFn func(*lexer) stateFn

// lexer holds the lexer's state.
type lexer struct {
	src      []byte
	pos      int     // the next byte to read
	start    int     // where the current token starts
	seg      int     // where the current contiguous piece of a word or string starts
	buf      []byte  // the pieces read so far of a word or string a comment split
	spliced  bool    // buf is in use
	esc      bool    // in a string, the last character was an escaping backslash
	ret      stateFn // the state a comment returns to
	tok      token
	have     bool
	state    stateFn
	comments []comment // when keep is set
	keep     bool
}

func newLexer(src []byte, keepComments bool) *lexer {
	return &lexer{src: src, state: lexBetween, keep: keepComments}
}

// next returns the next token. After an error or the end it keeps
// returning that token.
func (l *lexer) next() token {
	for !l.have {
		l.state = l.state(l)
	}
	l.have = false
	if l.tok.typ == tokEOF || l.tok.typ == tokError {
		l.have = true // sticky
	}
	return l.tok
}

func (l *lexer) emit(t token) stateFn {
	l.tok, l.have = t, true
	return nil
}

func (l *lexer) errorf(pos int, msg string) stateFn {
	l.tok, l.have = token{typ: tokError, pos: pos, val: msg}, true
	return lexStuck
}

// lexStuck is the state after an error: it repeats the error.
func lexStuck(l *lexer) stateFn {
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

// punct returns the token type of a punctuation byte, or tokEOF.
func punct(c byte) tokType {
	switch c {
	case '[':
		return tokLBrack
	case ']':
		return tokRBrack
	case '(':
		return tokLParen
	case ')':
		return tokRParen
	case '{':
		return tokLBrace
	case '}':
		return tokRBrace
	case ',':
		return tokComma
	}
	return tokEOF
}

// rune returns the rune at pos and its width; an invalid byte gives
// utf8.RuneError and width 1.
func (l *lexer) rune() (rune, int) {
	c := l.src[l.pos]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRune(l.src[l.pos:])
}

func (l *lexer) atComment() bool {
	return l.pos+1 < len(l.src) && l.src[l.pos] == '/' && l.src[l.pos+1] == '*'
}

// comment skips the comment at pos, or reports it unterminated, then
// returns ret.
func (l *lexer) comment(ret stateFn) stateFn {
	start := l.pos
	for i := start + 2; i+1 < len(l.src); i++ {
		if l.src[i] == '*' && l.src[i+1] == '/' {
			l.pos = i + 2
			if l.keep {
				l.comments = append(l.comments, comment{start, l.pos})
			}
			return ret
		}
	}
	return l.errorf(start, "unterminated comment")
}

// lexBetween is the state between tokens.
func lexBetween(l *lexer) stateFn {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == '/' && l.atComment() {
			return l.comment(lexBetween)
		}
		if t := punct(c); t != tokEOF {
			l.pos++
			l.emit(token{typ: t, pos: l.pos - 1, end: l.pos})
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
	l.emit(token{typ: tokEOF, pos: len(l.src), end: len(l.src)})
	return lexBetween
}

// lexWord reads a word: anything up to white space, punctuation or the end.
func lexWord(l *lexer) stateFn {
	for l.pos < len(l.src) {
		c := l.src[l.pos]
		if c == '/' && l.atComment() {
			l.buf = append(l.buf, l.src[l.seg:l.pos]...)
			l.spliced = true
			return l.comment(lexWordResume)
		}
		if punct(c) != tokEOF {
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
	t := token{typ: tokWord, pos: l.start, end: l.pos}
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
func lexWordResume(l *lexer) stateFn {
	l.seg = l.pos
	return lexWord
}

// lexString reads a string after its opening quote, as Mistreevous's
// /"(\\.|[^"\\])*"/ does once comments are gone. Whether the last
// character was an escaping backslash survives a comment (l.esc), since
// the comment vanishes.
func lexString(l *lexer) stateFn {
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
			t := token{typ: tokString, pos: l.start, end: l.pos}
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
func lexStringResume(l *lexer) stateFn {
	l.seg = l.pos
	return lexString
}

// lexAfterString checks that a string is not glued to a word or another
// string after it (comments between do not separate, as they vanish).
func lexAfterString(l *lexer) stateFn {
	for l.pos < len(l.src) {
		if l.atComment() {
			return l.comment(lexAfterString)
		}
		c := l.src[l.pos]
		if punct(c) != tokEOF {
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
