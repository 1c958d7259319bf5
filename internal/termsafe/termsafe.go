// Package termsafe makes text from trees (names, arguments, source lines,
// file names) safe to print on a terminal: the one rule of quoting that
// every command and error message of the module follows.
package termsafe

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text returns s with every character that a terminal would act on or
// that would break a line written as a Go escape: C0 control characters
// but the tab (ESC as \x1b, BEL as \a, NUL as \x00, newline as \n), DEL,
// C1 control characters, the line and paragraph separators U+2028 and
// U+2029, and the bidirectional controls (\u202e); and each byte of
// invalid UTF-8 as \xNN. Backslashes are kept as they are, so Text of
// Text(s) is Text(s). It returns s itself when nothing needs quoting.
func Text(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\t' {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || quoted(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteByte("0123456789abcdef"[s[i]>>4])
			b.WriteByte("0123456789abcdef"[s[i]&15])
		case quoted(r):
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// Lines returns s, a text of several lines, with each line quoted as Text
// quotes it: only its newlines are kept.
func Lines(s string) string {
	if !strings.Contains(s, "\n") {
		return Text(s)
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = Text(l)
	}
	return strings.Join(lines, "\n")
}

// quoted reports whether Text writes r as an escape.
func quoted(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t'
	case r >= 0x7f && r < 0xa0:
		return true
	}
	switch r {
	case 0x2028, 0x2029, // line and paragraph separators
		0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
		0x2066, 0x2067, 0x2068, 0x2069: // bidirectional controls
		return true
	}
	return false
}
