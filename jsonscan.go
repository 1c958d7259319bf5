package behaviortree

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is the JSON tokenizer that ParseJSON reads definitions with: one
// pass over the input, no values built, no recursion. It checks the syntax
// exactly as encoding/json does (json.Valid accepts what it accepts, nesting
// included), and reports the first error with its byte offset.

// maxJSONDepth is how many arrays and objects may be open at once in a JSON
// definition: encoding/json's own limit, so that a definition that ParseJSON
// reads or MarshalJSON writes also goes through json.Unmarshal and
// json.Marshal. Each inner node takes two levels (its object and its
// children array).
const maxJSONDepth = 10000

// tokKind is the kind of a JSON token.
type tokKind uint8

const (
	tokNone      tokKind = iota // no token: the end of the input, or a key not seen
	tokObject                   // '{'
	tokObjectEnd                // '}'
	tokArray                    // '['
	tokArrayEnd                 // ']'
	tokKey                      // an object's key, with the ':' after it
	tokString
	tokNumber
	tokTrue
	tokFalse
	tokNull
)

// token is one token of the input: its kind, and its bytes
// data[start:end], quotes included for strings and keys.
type token struct {
	kind       tokKind
	simple     bool // a string or key with no escape and no byte >= 0x80
	start, end int
}

// scanState is what the scanner expects next.
type scanState uint8

const (
	wantValue      scanState = iota // a value: at the start, and after a key
	wantValueOrEnd                  // after '['
	wantKeyOrEnd                    // after '{'
	wantCommaOrEnd                  // after a value in an array or an object
	wantNothing                     // after the top-level value
)

// scanner splits a JSON document into tokens, checking its syntax.
type scanner struct {
	data  []byte
	pos   int
	state scanState
	open  []byte // the arrays and objects open, innermost last: '[' or '{'
}

// syntaxError is a JSON syntax error at a byte offset of the input.
type syntaxError struct {
	offset int
	msg    string
}

// Error returns "invalid JSON at byte OFFSET: MSG".
func (e *syntaxError) Error() string {
	return "invalid JSON at byte " + strconv.Itoa(e.offset) + ": " + e.msg
}

// next returns the next token. After the top-level value it returns a
// token of kind tokNone at the end of the input, or an error if anything
// but white space follows.
func (s *scanner) next() (token, error) {
	s.skipSpace()
	if s.pos >= len(s.data) {
		if s.state == wantNothing {
			return token{start: s.pos, end: s.pos}, nil
		}
		return token{}, &syntaxError{s.pos, "unexpected end of input"}
	}
	c := s.data[s.pos]
	switch s.state {
	case wantNothing:
		return token{}, &syntaxError{s.pos, "data after the definition"}
	case wantKeyOrEnd:
		if c == '}' {
			return s.close(), nil
		}
		return s.key()
	case wantValueOrEnd:
		if c == ']' {
			return s.close(), nil
		}
	case wantCommaOrEnd:
		top := s.open[len(s.open)-1]
		switch {
		case c == ',':
			s.pos++
			s.skipSpace()
			if top == '{' {
				return s.key()
			}
		case c == '}' && top == '{', c == ']' && top == '[':
			return s.close(), nil
		case top == '{':
			return token{}, s.unexpected("after object key:value pair")
		default:
			return token{}, s.unexpected("after array element")
		}
	}
	return s.value()
}

// skip reads the rest of the value that t begins, and returns the offset
// just past it.
func (s *scanner) skip(t token) (int, error) {
	if t.kind != tokObject && t.kind != tokArray {
		return t.end, nil
	}
	depth := len(s.open) - 1
	for {
		t, err := s.next()
		if err != nil {
			return 0, err
		}
		if (t.kind == tokObjectEnd || t.kind == tokArrayEnd) && len(s.open) == depth {
			return t.end, nil
		}
	}
}

// skipSpace moves past white space.
func (s *scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// afterValue sets the state for what may follow a complete value.
func (s *scanner) afterValue() {
	if len(s.open) == 0 {
		s.state = wantNothing
	} else {
		s.state = wantCommaOrEnd
	}
}

// close reads the '}' or ']' at s.pos, which matches the innermost open
// object or array.
func (s *scanner) close() token {
	kind := tokArrayEnd
	if s.open[len(s.open)-1] == '{' {
		kind = tokObjectEnd
	}
	s.open = s.open[:len(s.open)-1]
	s.pos++
	s.afterValue()
	return token{kind: kind, start: s.pos - 1, end: s.pos}
}

// key reads an object's key and the ':' after it.
func (s *scanner) key() (token, error) {
	if s.pos >= len(s.data) {
		return token{}, &syntaxError{s.pos, "unexpected end of input"}
	}
	if s.data[s.pos] != '"' {
		return token{}, s.unexpected("looking for beginning of object key string")
	}
	t, err := s.str()
	if err != nil {
		return t, err
	}
	t.kind = tokKey
	s.skipSpace()
	if s.pos >= len(s.data) {
		return token{}, &syntaxError{s.pos, "unexpected end of input"}
	}
	if s.data[s.pos] != ':' {
		return token{}, s.unexpected("after object key")
	}
	s.pos++
	s.state = wantValue
	return t, nil
}

// value reads the start of a value at s.pos: a scalar whole, or the '{' or
// '[' that opens an object or array.
func (s *scanner) value() (token, error) {
	if s.pos >= len(s.data) {
		return token{}, &syntaxError{s.pos, "unexpected end of input"}
	}
	start := s.pos
	switch c := s.data[s.pos]; {
	case c == '{' || c == '[':
		if len(s.open) == maxJSONDepth {
			return token{}, &syntaxError{s.pos, fmt.Sprintf("more than %d levels of nested arrays and objects", maxJSONDepth)}
		}
		s.open = append(s.open, c)
		s.pos++
		if c == '{' {
			s.state = wantKeyOrEnd
			return token{kind: tokObject, start: start, end: s.pos}, nil
		}
		s.state = wantValueOrEnd
		return token{kind: tokArray, start: start, end: s.pos}, nil
	case c == '"':
		t, err := s.str()
		if err == nil {
			s.afterValue()
		}
		return t, err
	case c == '-' || '0' <= c && c <= '9':
		if err := s.number(); err != nil {
			return token{}, err
		}
		s.afterValue()
		return token{kind: tokNumber, start: start, end: s.pos}, nil
	case c == 't':
		return s.literal("true", tokTrue)
	case c == 'f':
		return s.literal("false", tokFalse)
	case c == 'n':
		return s.literal("null", tokNull)
	}
	return token{}, s.unexpected("looking for beginning of value")
}

// literal reads the literal word (true, false or null) at s.pos.
func (s *scanner) literal(word string, kind tokKind) (token, error) {
	start := s.pos
	for k := 0; k < len(word); k++ {
		if s.pos >= len(s.data) {
			return token{}, &syntaxError{s.pos, "unexpected end of input"}
		}
		if s.data[s.pos] != word[k] {
			return token{}, s.unexpected(fmt.Sprintf("in literal %s (expecting %s)", word, quoteChar(word[k])))
		}
		s.pos++
	}
	s.afterValue()
	return token{kind: kind, start: start, end: s.pos}, nil
}

// number reads the number at s.pos, which starts with '-' or a digit.
func (s *scanner) number() error {
	if s.data[s.pos] == '-' {
		s.pos++
	}
	if s.pos < len(s.data) && s.data[s.pos] == '0' {
		s.pos++
	} else if err := s.digits(); err != nil {
		return err
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		if err := s.digits(); err != nil {
			return err
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		return s.digits()
	}
	return nil
}

// digits reads one or more decimal digits.
func (s *scanner) digits() error {
	start := s.pos
	for s.pos < len(s.data) && '0' <= s.data[s.pos] && s.data[s.pos] <= '9' {
		s.pos++
	}
	if s.pos == start {
		if s.pos >= len(s.data) {
			return &syntaxError{s.pos, "unexpected end of input"}
		}
		return s.unexpected("in numeric literal")
	}
	return nil
}

// str reads the string at s.pos, which starts with '"'.
func (s *scanner) str() (token, error) {
	start := s.pos
	simple := true
	i := s.pos + 1
	for {
		if i >= len(s.data) {
			return token{}, &syntaxError{i, "unexpected end of input"}
		}
		switch c := s.data[i]; {
		case c == '"':
			s.pos = i + 1
			return token{kind: tokString, simple: simple, start: start, end: s.pos}, nil
		case c == '\\':
			simple = false
			i++
			if i >= len(s.data) {
				return token{}, &syntaxError{i, "unexpected end of input"}
			}
			switch s.data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				i++
				for k := 0; k < 4; k++ {
					if i >= len(s.data) {
						return token{}, &syntaxError{i, "unexpected end of input"}
					}
					if !isHex(s.data[i]) {
						s.pos = i
						return token{}, s.unexpected(`in \u hexadecimal character escape`)
					}
					i++
				}
			default:
				s.pos = i
				return token{}, s.unexpected("in string escape code")
			}
		case c < 0x20:
			s.pos = i
			return token{}, s.unexpected("in string literal")
		default:
			if c >= utf8.RuneSelf {
				simple = false
			}
			i++
		}
	}
}

// unexpected returns the error of the byte at s.pos, in the given context.
func (s *scanner) unexpected(context string) error {
	return &syntaxError{s.pos, "invalid character " + quoteChar(s.data[s.pos]) + " " + context}
}

// quoteChar shows a byte of the input in an error message.
func quoteChar(c byte) string {
	switch {
	case c == '\'':
		return `'\''`
	case c == '"':
		return `'"'`
	case c >= utf8.RuneSelf:
		return fmt.Sprintf("byte 0x%02x", c)
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}

// isHex reports whether c is a hexadecimal digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// decodeString returns the text of the string token t of data, as
// encoding/json decodes it: escapes resolved, and invalid UTF-8 and
// unpaired surrogates replaced by U+FFFD.
func decodeString(data []byte, t token) string {
	raw := data[t.start+1 : t.end-1]
	if t.simple || bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return string(raw)
	}
	b := make([]byte, 0, len(raw)+utf8.UTFMax)
	for r := 0; r < len(raw); {
		c := raw[r]
		switch {
		case c == '\\':
			if raw[r+1] == 'u' {
				rr := getu4(raw[r:])
				r += 6
				if utf16.IsSurrogate(rr) {
					if dec := utf16.DecodeRune(rr, getu4(raw[r:])); dec != unicode.ReplacementChar {
						b = utf8.AppendRune(b, dec)
						r += 6
						continue
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
				continue
			}
			b = append(b, unescape[raw[r+1]])
			r += 2
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRune(raw[r:])
			b = utf8.AppendRune(b, rr)
			r += size
		}
	}
	return string(b)
}

// unescape maps the byte after a backslash to the byte it stands for.
var unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// getu4 decodes the \uXXXX escape at the start of s, or returns -1 if s
// does not start with one.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// jsonNesting returns how many levels of arrays and objects the valid JSON
// value b nests.
func jsonNesting(b []byte) int {
	depth, most := 0, 0
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			most = max(most, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return most
}
