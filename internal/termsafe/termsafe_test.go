package termsafe

import (
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain name", "plain name"},
		{"tab\tkept", "tab\tkept"},
		{"名前 é", "名前 é"},
		{"\x1bc", `\x1bc`},
		{"\x1b]0;title\a", `\x1b]0;title\a`},
		{"nul\x00", `nul\x00`},
		{"line\u2028sep\u2029", `line\u2028sep\u2029`},
		{"bad\xff\xfeutf8", `bad\xff\xfeutf8`},
		{"new\nline\r", `new\nline\r`},
		{"del\x7f c1\u0085", `del\x7f c1\u0085`},
		{"bidi\u202eevil", `bidi\u202eevil`},
		{`back\slash`, `back\slash`},
	} {
		got := Text(c.in)
		if got != c.want {
			t.Errorf("Text(%q) = %q, want %q", c.in, got, c.want)
		}
		if Text(got) != got {
			t.Errorf("Text(Text(%q)) = %q, not Text(%q)", c.in, Text(got), c.in)
		}
		if !utf8.ValidString(got) {
			t.Errorf("Text(%q) = %q, not UTF-8", c.in, got)
		}
	}
	if got := Lines("a\x1b\nb\a\n"); got != "a\\x1b\nb\\a\n" {
		t.Errorf("Lines: %q", got)
	}
}

func TestWidth(t *testing.T) {
	for _, c := range []struct {
		s    string
		want int
	}{
		{"abc", 3}, {"é", 1}, {"e\u0301", 1}, {"名前", 4}, {"ｆ", 2}, {"한", 2}, {"🎲", 2}, {"\u200d", 0}, {"α", 1},
	} {
		if got := StringWidth(c.s); got != c.want {
			t.Errorf("StringWidth(%q) = %d, want %d", c.s, got, c.want)
		}
	}
}
