// Package termsafe makes text from trees (names, arguments, source lines,
// file names) safe to print on a terminal: the one rule of quoting that
// every command and error message of the module follows.
package termsafe

import (
	"strconv"
	"strings"
	"unicode"
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

// Width returns the columns that r takes on a terminal: 0 for a combining
// mark or a format character (as U+200D, the zero width joiner), 2 for an
// East Asian wide or fullwidth character or an emoji, 1 for others. The
// ranges of two columns are the main blocks of Unicode's East Asian Width
// W and F (CJK, Hangul, kana, fullwidth forms, emoji); a rare wide
// character outside them counts 1.
func Width(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf):
		return 0
	}
	for _, w := range wide {
		if r >= w[0] && r <= w[1] {
			return 2
		}
	}
	return 1
}

// StringWidth returns the columns that s takes on a terminal, the sum of
// Width of its characters.
func StringWidth(s string) int {
	n := 0
	for _, r := range s {
		n += Width(r)
	}
	return n
}

// wide are the ranges of characters two columns wide, in increasing order.
var wide = [...][2]rune{
	{0x1100, 0x115f}, {0x231a, 0x231b}, {0x2329, 0x232a}, {0x23e9, 0x23ec},
	{0x23f0, 0x23f0}, {0x23f3, 0x23f3}, {0x25fd, 0x25fe}, {0x2614, 0x2615},
	{0x2648, 0x2653}, {0x267f, 0x267f}, {0x2693, 0x2693}, {0x26a1, 0x26a1},
	{0x26aa, 0x26ab}, {0x26bd, 0x26be}, {0x26c4, 0x26c5}, {0x26ce, 0x26ce},
	{0x26d4, 0x26d4}, {0x26ea, 0x26ea}, {0x26f2, 0x26f3}, {0x26f5, 0x26f5},
	{0x26fa, 0x26fa}, {0x26fd, 0x26fd}, {0x2705, 0x2705}, {0x270a, 0x270b},
	{0x2728, 0x2728}, {0x274c, 0x274c}, {0x274e, 0x274e}, {0x2753, 0x2755},
	{0x2757, 0x2757}, {0x2795, 0x2797}, {0x27b0, 0x27b0}, {0x27bf, 0x27bf},
	{0x2b1b, 0x2b1c}, {0x2b50, 0x2b50}, {0x2b55, 0x2b55}, {0x2e80, 0x303e},
	{0x3041, 0x33ff}, {0x3400, 0x4dbf}, {0x4e00, 0x9fff}, {0xa000, 0xa4cf},
	{0xa960, 0xa97f}, {0xac00, 0xd7a3}, {0xf900, 0xfaff}, {0xfe10, 0xfe19},
	{0xfe30, 0xfe6f}, {0xff00, 0xff60}, {0xffe0, 0xffe6}, {0x16fe0, 0x16fe4},
	{0x17000, 0x18aff}, {0x1b000, 0x1b2ff}, {0x1f004, 0x1f004}, {0x1f0cf, 0x1f0cf},
	{0x1f18e, 0x1f18e}, {0x1f191, 0x1f19a}, {0x1f200, 0x1f251}, {0x1f300, 0x1f64f},
	{0x1f680, 0x1f6ff}, {0x1f900, 0x1f9ff}, {0x1fa70, 0x1faff}, {0x20000, 0x2fffd},
	{0x30000, 0x3fffd},
}
