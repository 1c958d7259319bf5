// Package jsonscan is the JSON tokenizer that the definition readers use
// (behaviortree.ParseJSON and package mistreevous): one pass over the
// input, no values built, no recursion. It checks the syntax exactly as
// encoding/json does (json.Valid accepts what it accepts, nesting
// included), and reports the first error with its byte offset.
package jsonscan

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth is how many arrays and objects may be open at once in a JSON
// definition: encoding/json's own limit, so that a definition that ParseJSON
// reads or MarshalJSON writes also goes through json.Unmarshal and
// json.Marshal. Each inner node takes two levels (its object and its
// children array).
const MaxDepth = 10000

// Kind is the kind of a JSON token.
type Kind uint8

const (
	None      Kind = iota // no token: the end of the input, or a key not seen
	Object                // '{'
	ObjectEnd             // '}'
	Array                 // '['
	ArrayEnd              // ']'
	Key                   // an object's key, with the ':' after it
	String
	Number
	True
	False
	Null
)

// Noun names the JSON kind of a value whose first token is of kind k, for
// errors: "null", "a boolean", "a number", "a string", "an array", "an
// object", or "nothing" for None.
func (k Kind) Noun() string {
	switch k {
	case None:
		return "nothing"
	case Null:
		return "null"
	case True, False:
		return "a boolean"
	case Number:
		return "a number"
	case String:
		return "a string"
	case Array:
		return "an array"
	}
	return "an object"
}

// Token is one token of the input: its kind, and its bytes
// data[start:end], quotes included for strings and keys.
type Token struct {
	Kind       Kind
	Simple     bool // a string or key with no escape and no byte >= 0x80
	Start, End int
}

// scanState is what the Scanner expects next.
type scanState uint8

const (
	wantValue      scanState = iota // a value: at the start, and after a key
	wantValueOrEnd                  // after '['
	wantKeyOrEnd                    // after '{'
	wantCommaOrEnd                  // after a value in an array or an object
	wantNothing                     // after the top-level value
)

// Scanner splits a JSON document into tokens, checking its syntax.
type Scanner struct {
	Data  []byte // the document
	Pos   int    // the offset of the next byte to read
	state scanState
	open  []byte // the arrays and objects open, innermost last: '[' or '{'
}

// SyntaxError is a JSON syntax error at a byte offset of the input.
type SyntaxError struct {
	Offset int
	Msg    string
}

// Error returns "invalid JSON at byte OFFSET: MSG".
func (e *SyntaxError) Error() string {
	return "invalid JSON at byte " + strconv.Itoa(e.Offset) + ": " + e.Msg
}

// next returns the next token. After the top-level value it returns a
// token of kind None at the end of the input, or an error if anything
// but white space follows.
func (s *Scanner) Next() (Token, error) {
	s.skipSpace()
	if s.Pos >= len(s.Data) {
		if s.state == wantNothing {
			return Token{Start: s.Pos, End: s.Pos}, nil
		}
		return Token{}, &SyntaxError{s.Pos, "unexpected end of input"}
	}
	c := s.Data[s.Pos]
	switch s.state {
	case wantNothing:
		return Token{}, &SyntaxError{s.Pos, "data after the definition"}
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
			s.Pos++
			s.skipSpace()
			if top == '{' {
				return s.key()
			}
		case c == '}' && top == '{', c == ']' && top == '[':
			return s.close(), nil
		case top == '{':
			return Token{}, s.unexpected("after object key:value pair")
		default:
			return Token{}, s.unexpected("after array element")
		}
	}
	return s.value()
}

// skip reads the rest of the value that t begins, and returns the offset
// just past it.
func (s *Scanner) Skip(t Token) (int, error) {
	if t.Kind != Object && t.Kind != Array {
		return t.End, nil
	}
	depth := len(s.open) - 1
	for {
		t, err := s.Next()
		if err != nil {
			return 0, err
		}
		if (t.Kind == ObjectEnd || t.Kind == ArrayEnd) && len(s.open) == depth {
			return t.End, nil
		}
	}
}

// skipSpace moves past white space.
func (s *Scanner) skipSpace() {
	for s.Pos < len(s.Data) {
		switch s.Data[s.Pos] {
		case ' ', '\t', '\n', '\r':
			s.Pos++
		default:
			return
		}
	}
}

// afterValue sets the state for what may follow a complete value.
func (s *Scanner) afterValue() {
	if len(s.open) == 0 {
		s.state = wantNothing
	} else {
		s.state = wantCommaOrEnd
	}
}

// close reads the '}' or ']' at s.Pos, which matches the innermost open
// object or array.
func (s *Scanner) close() Token {
	kind := ArrayEnd
	if s.open[len(s.open)-1] == '{' {
		kind = ObjectEnd
	}
	s.open = s.open[:len(s.open)-1]
	s.Pos++
	s.afterValue()
	return Token{Kind: kind, Start: s.Pos - 1, End: s.Pos}
}

// key reads an object's key and the ':' after it.
func (s *Scanner) key() (Token, error) {
	if s.Pos >= len(s.Data) {
		return Token{}, &SyntaxError{s.Pos, "unexpected end of input"}
	}
	if s.Data[s.Pos] != '"' {
		return Token{}, s.unexpected("looking for beginning of object key string")
	}
	t, err := s.str()
	if err != nil {
		return t, err
	}
	t.Kind = Key
	s.skipSpace()
	if s.Pos >= len(s.Data) {
		return Token{}, &SyntaxError{s.Pos, "unexpected end of input"}
	}
	if s.Data[s.Pos] != ':' {
		return Token{}, s.unexpected("after object key")
	}
	s.Pos++
	s.state = wantValue
	return t, nil
}

// value reads the start of a value at s.Pos: a scalar whole, or the '{' or
// '[' that opens an object or array.
func (s *Scanner) value() (Token, error) {
	if s.Pos >= len(s.Data) {
		return Token{}, &SyntaxError{s.Pos, "unexpected end of input"}
	}
	start := s.Pos
	switch c := s.Data[s.Pos]; {
	case c == '{' || c == '[':
		if len(s.open) == MaxDepth {
			return Token{}, &SyntaxError{s.Pos, fmt.Sprintf("more than %d levels of nested arrays and objects", MaxDepth)}
		}
		s.open = append(s.open, c)
		s.Pos++
		if c == '{' {
			s.state = wantKeyOrEnd
			return Token{Kind: Object, Start: start, End: s.Pos}, nil
		}
		s.state = wantValueOrEnd
		return Token{Kind: Array, Start: start, End: s.Pos}, nil
	case c == '"':
		t, err := s.str()
		if err == nil {
			s.afterValue()
		}
		return t, err
	case c == '-' || '0' <= c && c <= '9':
		if err := s.number(); err != nil {
			return Token{}, err
		}
		s.afterValue()
		return Token{Kind: Number, Start: start, End: s.Pos}, nil
	case c == 't':
		return s.literal("true", True)
	case c == 'f':
		return s.literal("false", False)
	case c == 'n':
		return s.literal("null", Null)
	}
	return Token{}, s.unexpected("looking for beginning of value")
}

// literal reads the literal word (true, false or null) at s.Pos.
func (s *Scanner) literal(word string, kind Kind) (Token, error) {
	start := s.Pos
	for k := 0; k < len(word); k++ {
		if s.Pos >= len(s.Data) {
			return Token{}, &SyntaxError{s.Pos, "unexpected end of input"}
		}
		if s.Data[s.Pos] != word[k] {
			return Token{}, s.unexpected(fmt.Sprintf("in literal %s (expecting %s)", word, quoteChar(word[k])))
		}
		s.Pos++
	}
	s.afterValue()
	return Token{Kind: kind, Start: start, End: s.Pos}, nil
}

// number reads the number at s.Pos, which starts with '-' or a digit.
func (s *Scanner) number() error {
	if s.Data[s.Pos] == '-' {
		s.Pos++
	}
	if s.Pos < len(s.Data) && s.Data[s.Pos] == '0' {
		s.Pos++
	} else if err := s.digits(); err != nil {
		return err
	}
	if s.Pos < len(s.Data) && s.Data[s.Pos] == '.' {
		s.Pos++
		if err := s.digits(); err != nil {
			return err
		}
	}
	if s.Pos < len(s.Data) && (s.Data[s.Pos] == 'e' || s.Data[s.Pos] == 'E') {
		s.Pos++
		if s.Pos < len(s.Data) && (s.Data[s.Pos] == '+' || s.Data[s.Pos] == '-') {
			s.Pos++
		}
		return s.digits()
	}
	return nil
}

// digits reads one or more decimal digits.
func (s *Scanner) digits() error {
	start := s.Pos
	for s.Pos < len(s.Data) && '0' <= s.Data[s.Pos] && s.Data[s.Pos] <= '9' {
		s.Pos++
	}
	if s.Pos == start {
		if s.Pos >= len(s.Data) {
			return &SyntaxError{s.Pos, "unexpected end of input"}
		}
		return s.unexpected("in numeric literal")
	}
	return nil
}

// str reads the string at s.Pos, which starts with '"'.
func (s *Scanner) str() (Token, error) {
	start := s.Pos
	simple := true
	i := s.Pos + 1
	for {
		if i >= len(s.Data) {
			return Token{}, &SyntaxError{i, "unexpected end of input"}
		}
		switch c := s.Data[i]; {
		case c == '"':
			s.Pos = i + 1
			return Token{Kind: String, Simple: simple, Start: start, End: s.Pos}, nil
		case c == '\\':
			simple = false
			i++
			if i >= len(s.Data) {
				return Token{}, &SyntaxError{i, "unexpected end of input"}
			}
			switch s.Data[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				i++
				for k := 0; k < 4; k++ {
					if i >= len(s.Data) {
						return Token{}, &SyntaxError{i, "unexpected end of input"}
					}
					if !isHex(s.Data[i]) {
						s.Pos = i
						return Token{}, s.unexpected(`in \u hexadecimal character escape`)
					}
					i++
				}
			default:
				s.Pos = i
				return Token{}, s.unexpected("in string escape code")
			}
		case c < 0x20:
			s.Pos = i
			return Token{}, s.unexpected("in string literal")
		default:
			if c >= utf8.RuneSelf {
				simple = false
			}
			i++
		}
	}
}

// unexpected returns the error of the byte at s.Pos, in the given context.
func (s *Scanner) unexpected(context string) error {
	return &SyntaxError{s.Pos, "invalid character " + quoteChar(s.Data[s.Pos]) + " " + context}
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

// DecodeString returns the text of the string token t of data, as
// encoding/json decodes it: escapes resolved, and invalid UTF-8 and
// unpaired surrogates replaced by U+FFFD.
func DecodeString(data []byte, t Token) string {
	raw := data[t.Start+1 : t.End-1]
	if t.Simple || bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
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

// Nesting returns how many levels of arrays and objects the valid JSON
// value b nests.
func Nesting(b []byte) int {
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
