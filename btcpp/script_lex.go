package btcpp

// The tokens of BehaviorTree.CPP's scripting language (README §8.1).

import (
	"fmt"
	"strconv"
)

// tokKind is the kind of a script token.
type tokKind uint8

const (
	tEOF    tokKind = iota
	tInt            // integer literal (decimal or 0x hex): val is an int64
	tReal           // real literal: val is a double
	tString         // 'text': val is a string
	tBool           // true / false: val is a double 1 or 0
	tIdent          // identifier: text is its name
	tOp             // operator or punctuation: op says which
)

// opKind is an operator or punctuation token.
type opKind uint8

const (
	opNone      opKind = iota
	opPlus             // +
	opMinus            // -
	opTimes            // *
	opDiv              // /
	opBitAnd           // &
	opBitOr            // |
	opBitXor           // ^
	opTilde            // ~
	opNot              // !
	opLess             // <
	opGreater          // >
	opAssign           // =
	opQuestion         // ?
	opColon            // :
	opLParen           // (
	opRParen           // )
	opSemi             // ;
	opConcat           // ..
	opAnd              // &&
	opOr               // ||
	opEqual            // ==
	opNotEqual         // !=
	opLessEq           // <=
	opGreaterEq        // >=
	opDefine           // :=
	opPlusEq           // +=
	opMinusEq          // -=
	opTimesEq          // *=
	opDivEq            // /=
)

// opText is each operator's spelling.
var opText = [...]string{
	opNone: "", opPlus: "+", opMinus: "-", opTimes: "*", opDiv: "/", opBitAnd: "&",
	opBitOr: "|", opBitXor: "^", opTilde: "~", opNot: "!", opLess: "<", opGreater: ">",
	opAssign: "=", opQuestion: "?", opColon: ":", opLParen: "(", opRParen: ")", opSemi: ";",
	opConcat: "..", opAnd: "&&", opOr: "||", opEqual: "==", opNotEqual: "!=", opLessEq: "<=",
	opGreaterEq: ">=", opDefine: ":=", opPlusEq: "+=", opMinusEq: "-=", opTimesEq: "*=",
	opDivEq: "/=",
}

func (o opKind) String() string { return opText[o] }

// token is one token with its position in the script (1-based line and
// byte column).
type token struct {
	kind      tokKind
	op        opKind
	text      string
	val       Value
	line, col int
	off       int // of its first byte in the script
}

// got is the token as BehaviorTree.CPP's parser quotes it in an error:
// its text, an operator's symbol, nothing for the end of the script.
func (t token) got() string {
	switch t.kind {
	case tEOF:
		return ""
	case tOp:
		return t.op.String()
	}
	return t.text
}

// describe names a token for an error message.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of script"
	case tOp:
		return "'" + t.op.String() + "'"
	}
	return strconv.Quote(t.text)
}

// lexer splits a script into tokens.
type lexer struct {
	src       string
	pos       int
	line, col int // of src[pos]
}

// scriptError returns a script error at a position.
func scriptError(line, col int, format string, args ...any) *Error {
	return &Error{Type: RuntimeError, Node: -1, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (l *lexer) advance(n int) {
	for i := 0; i < n; i++ {
		if l.src[l.pos] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.pos++
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || c == '@' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool {
	return c == '_' || isDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// lex returns all the tokens of src, ending with a tEOF token.
func lex(src string) ([]token, error) {
	l := &lexer{src: src, line: 1, col: 1}
	var toks []token
	for {
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks, nil
		}
	}
}

// next returns the next token.
func (l *lexer) next() (token, error) {
	s := l.src
	for l.pos < len(s) && (s[l.pos] == ' ' || s[l.pos] == '\t' || s[l.pos] == '\n' || s[l.pos] == '\r') {
		l.advance(1)
	}
	t := token{line: l.line, col: l.col, off: l.pos}
	if l.pos >= len(s) {
		t.kind = tEOF
		return t, nil
	}
	c := s[l.pos]
	start := l.pos
	switch {
	case c == '\'':
		end := -1
		for j := l.pos + 1; j < len(s); j++ {
			if s[j] == '\'' {
				end = j
				break
			}
		}
		if end < 0 {
			return t, scriptError(t.line, t.col, "unterminated string")
		}
		t.kind, t.text = tString, s[start:end+1]
		t.val = StringValue(s[start+1 : end])
		l.advance(end + 1 - start)
		return t, nil
	case isDigit(c):
		return l.number(t)
	case isIdentStart(c):
		j := l.pos + 1
		for j < len(s) && isIdentChar(s[j]) {
			j++
		}
		t.kind, t.text = tIdent, s[start:j]
		switch t.text {
		case "true":
			t.kind, t.val = tBool, DoubleValue(1)
		case "false":
			t.kind, t.val = tBool, DoubleValue(0)
		}
		l.advance(j - start)
		return t, nil
	}
	if l.pos+1 < len(s) {
		var op opKind
		switch s[l.pos : l.pos+2] {
		case "..":
			op = opConcat
		case "&&":
			op = opAnd
		case "||":
			op = opOr
		case "==":
			op = opEqual
		case "!=":
			op = opNotEqual
		case "<=":
			op = opLessEq
		case ">=":
			op = opGreaterEq
		case ":=":
			op = opDefine
		case "+=":
			op = opPlusEq
		case "-=":
			op = opMinusEq
		case "*=":
			op = opTimesEq
		case "/=":
			op = opDivEq
		}
		if op != opNone {
			t.kind, t.op, t.text = tOp, op, s[start:start+2]
			l.advance(2)
			return t, nil
		}
	}
	var op opKind
	switch c {
	case '+':
		op = opPlus
	case '-':
		op = opMinus
	case '*':
		op = opTimes
	case '/':
		op = opDiv
	case '&':
		op = opBitAnd
	case '|':
		op = opBitOr
	case '^':
		op = opBitXor
	case '~':
		op = opTilde
	case '!':
		op = opNot
	case '<':
		op = opLess
	case '>':
		op = opGreater
	case '=':
		op = opAssign
	case '?':
		op = opQuestion
	case ':':
		op = opColon
	case '(':
		op = opLParen
	case ')':
		op = opRParen
	case ';':
		op = opSemi
	default:
		return t, scriptError(t.line, t.col, "invalid character %q", rune(c))
	}
	t.kind, t.op, t.text = tOp, op, s[start:start+1]
	l.advance(1)
	return t, nil
}

// number reads a number literal (§8.1): decimal or 0x hex integers, reals
// with a digit after '.', an exponent with digits; letters right after a
// number make it malformed.
func (l *lexer) number(t token) (token, error) {
	s := l.src
	start := l.pos
	j := start
	bad := func(what string) (token, error) {
		end := j
		for end < len(s) && (isIdentChar(s[end]) || s[end] == '.') {
			end++
		}
		_ = what // BehaviorTree.CPP does not say why
		return t, scriptError(t.line, t.col, "Invalid token '%s' at position %d", s[start:end], start)
	}
	if s[j] == '0' && j+1 < len(s) && (s[j+1] == 'x' || s[j+1] == 'X') {
		j += 2
		for j < len(s) && isHex(s[j]) {
			j++
		}
		if j == start+2 {
			return bad("hex needs digits")
		}
		if j < len(s) && isIdentChar(s[j]) {
			return bad("letters right after a number")
		}
		u, err := strconv.ParseUint(s[start+2:j], 16, 64)
		if err != nil || u > 1<<63-1 {
			return bad("out of the int64 range")
		}
		t.kind, t.text, t.val = tInt, s[start:j], IntValue(int64(u), "int64")
		l.advance(j - start)
		return t, nil
	}
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	isReal := false
	if j < len(s) && s[j] == '.' && !(j+1 < len(s) && s[j+1] == '.') {
		if j+1 >= len(s) || !isDigit(s[j+1]) {
			j++
			return bad("a digit must follow '.'")
		}
		isReal = true
		j++
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j < len(s) && (s[j] == 'e' || s[j] == 'E') {
		isReal = true
		j++
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j >= len(s) || !isDigit(s[j]) {
			return bad("an exponent needs digits")
		}
		for j < len(s) && isDigit(s[j]) {
			j++
		}
	}
	if j < len(s) && (isIdentChar(s[j]) || s[j] == '@') {
		return bad("letters right after a number")
	}
	t.text = s[start:j]
	if isReal {
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return bad("out of the double range")
		}
		t.kind, t.val = tReal, DoubleValue(f)
	} else {
		i, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return bad("out of the int64 range")
		}
		t.kind, t.val = tInt, IntValue(i, "int64")
	}
	l.advance(j - start)
	return t, nil
}
