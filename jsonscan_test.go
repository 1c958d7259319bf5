package behaviortree

import (
	"encoding/json"
	"strings"
	"testing"
)

// scanAll runs the scanner over data, checking with decodeString each
// string against encoding/json's decoding, and returns the scanner's error.
func scanAll(t *testing.T, data []byte) error {
	s := scanner{data: data}
	for {
		tok, err := s.next()
		if err != nil {
			return err
		}
		switch tok.kind {
		case tokNone:
			return nil
		case tokString, tokKey:
			var want string
			if err := json.Unmarshal(data[tok.start:tok.end], &want); err != nil {
				t.Fatalf("encoding/json cannot decode the string %q: %v", data[tok.start:tok.end], err)
			}
			if got := decodeString(data, tok); got != want {
				t.Fatalf("decodeString(%q) = %q, encoding/json gives %q", data[tok.start:tok.end], got, want)
			}
		}
	}
}

// scannerInputs are documents, valid and not, that the scanner must judge
// as json.Valid does.
var scannerInputs = []string{
	``, ` `, `1`, `-`, `-0`, `-01`, `0.`, `0.5`, `1e`, `1e+`, `1E-2`, `1.5e3x`, `01`, `+1`, `.5`,
	`true`, `tru`, `trux`, `false`, `null`, `nul`, `nullx`, `"`, `"a`, `"a"`, `"\"`, `"\u12"`, `"\u12G4"`, `"\q"`,
	"\"\x00\"", "\"\x7f\"", "\"\xff\"", `"\ud800"`, `"\ud800\u0041"`, `"\ud83d\ude00"`, `"\udc00\ud800"`, "\"\xed\xa0\x80\"",
	`[]`, `[`, `]`, `[1,]`, `[,1]`, `[1 2]`, `[1,2]`, `{}`, `{`, `}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`,
	`{1:2}`, `{"a":1}`, `{"a":[{"b":null}]}`, `[}`, `{]`, `[[[]]]`, `"a" "b"`, `{} x`, " \t\r\n{} \n", "\ufeff{}",
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat("[", 10001) + strings.Repeat("]", 10001),
	strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
	strings.Repeat(`{"a":`, 10001) + "1" + strings.Repeat("}", 10001),
}

// TestScannerAgreesWithEncodingJSON checks the scanner's syntax and string
// decoding against encoding/json's.
func TestScannerAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range scannerInputs {
		err := scanAll(t, []byte(in))
		if valid := json.Valid([]byte(in)); valid != (err == nil) {
			t.Errorf("%.40q: json.Valid says %v, the scanner %v", in, valid, err)
		}
	}
}

// FuzzScanner checks the scanner against encoding/json on any input: the
// same documents valid, the same strings.
func FuzzScanner(f *testing.F) {
	for _, in := range scannerInputs {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := scanAll(t, data)
		if valid := json.Valid(data); valid != (err == nil) {
			t.Fatalf("json.Valid says %v, the scanner %v", valid, err)
		}
	})
}

// TestMarshalRefusesKindsOutsideTheElixirForm marks a kind as outside the
// Elixir JSON form, as the table does for kinds added later, and checks
// that MarshalJSON refuses it with its place and that ParseJSON does not
// know its name.
func TestMarshalRefusesKindsOutsideTheElixirForm(t *testing.T) {
	def := Sequence(Leaf("a"), Select(Leaf("b"), Negate(Leaf("c"))))
	saved := kinds[KindNegate]
	kinds[KindNegate].elixir = false
	defer func() { kinds[KindNegate] = saved }()
	_, err := def.MarshalJSON()
	if err == nil || err.Error() != "behaviortree: children[1].children[1]: negate node has no JSON form" {
		t.Errorf("got %v", err)
	}
	for name, k := range kindByName {
		if !kinds[k].elixir && k != KindNegate {
			t.Errorf("ParseJSON reads %q, a kind outside the Elixir form", name)
		}
	}
}

// TestShortPath checks how error messages show long paths.
func TestShortPath(t *testing.T) {
	for _, tc := range []struct {
		depth int
		want  string
	}{
		{1, "children[0]"},
		{8, "children[0].children[1].children[2].children[3].children[4].children[5].children[6].children[7]"},
		{9, "children[0].children[1].children[2].children[3]...(1 more)...children[5].children[6].children[7].children[8]"},
		{5000, "children[0].children[1].children[2].children[3]...(4992 more)...children[6].children[7].children[8].children[9]"},
	} {
		path := make([]int, tc.depth)
		for i := range path {
			path[i] = i % 10
		}
		if got := shortPath(formatPath(path)); got != tc.want {
			t.Errorf("depth %d: got %q, want %q", tc.depth, got, tc.want)
		}
	}
}

// TestJSONNesting checks the nesting count MarshalJSON checks leaves with.
func TestJSONNesting(t *testing.T) {
	for in, want := range map[string]int{`1`: 0, `"[{"`: 0, `[]`: 1, `{"a":[1,{"b":"]]]\"["}]}`: 3, `[[],[[]]]`: 3} {
		if got := jsonNesting([]byte(in)); got != want {
			t.Errorf("jsonNesting(%s) = %d, want %d", in, got, want)
		}
	}
}
