package jsonscan

import (
	"encoding/json"
	"strings"
	"testing"
)

// scanAll runs the Scanner over data, checking with DecodeString each
// string against encoding/json's decoding, and returns the Scanner's error.
func scanAll(t *testing.T, data []byte) error {
	s := Scanner{Data: data}
	for {
		tok, err := s.Next()
		if err != nil {
			return err
		}
		switch tok.Kind {
		case None:
			return nil
		case String, Key:
			var want string
			if err := json.Unmarshal(data[tok.Start:tok.End], &want); err != nil {
				t.Fatalf("encoding/json cannot decode the string %q: %v", data[tok.Start:tok.End], err)
			}
			if got := DecodeString(data, tok); got != want {
				t.Fatalf("DecodeString(%q) = %q, encoding/json gives %q", data[tok.Start:tok.End], got, want)
			}
		}
	}
}

// scannerInputs are documents, valid and not, that the Scanner must judge
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

// TestScannerAgreesWithEncodingJSON checks the Scanner's syntax and string
// decoding against encoding/json's.
func TestScannerAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range scannerInputs {
		err := scanAll(t, []byte(in))
		if valid := json.Valid([]byte(in)); valid != (err == nil) {
			t.Errorf("%.40q: json.Valid says %v, the Scanner %v", in, valid, err)
		}
	}
}

// FuzzScanner checks the Scanner against encoding/json on any input: the
// same documents valid, the same strings.
func FuzzScanner(f *testing.F) {
	for _, in := range scannerInputs {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := scanAll(t, data)
		if valid := json.Valid(data); valid != (err == nil) {
			t.Fatalf("json.Valid says %v, the Scanner %v", valid, err)
		}
	})
}

// TestJSONNesting checks the nesting count MarshalJSON checks leaves with.
func TestJSONNesting(t *testing.T) {
	for in, want := range map[string]int{`1`: 0, `"[{"`: 0, `[]`: 1, `{"a":[1,{"b":"]]]\"["}]}`: 3, `[[],[[]]]`: 3} {
		if got := Nesting([]byte(in)); got != want {
			t.Errorf("Nesting(%s) = %d, want %d", in, got, want)
		}
	}
}
