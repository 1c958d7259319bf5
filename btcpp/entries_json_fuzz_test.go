package btcpp

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzEntriesJSON: WithEntriesJSON's reader on any bytes gives an error
// or entries that, written back as an object, read back the same.
func FuzzEntriesJSON(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"a": 1}`, `{"a": 1.5, "b": "x", "c": true}`, `{"a": 1e999}`,
		`{"n": 12345678901234567890}`, `{"a": null}`, `{"a": [1]}`, `{"a": 1, "a": 2}`, `{"a": 1} {}`, `{"\u00e9": "\n"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, err := entriesJSON(data)
		if err != nil {
			return
		}
		out := []byte{'{'}
		for i, e := range entries {
			if i > 0 {
				out = append(out, ',')
			}
			k, _ := json.Marshal(e.key)
			out = append(out, k...)
			v, err := json.Marshal(e.v)
			if err != nil {
				t.Fatalf("%q: entry %q: %v", data, e.key, err)
			}
			out = append(out, ':')
			out = append(out, v...)
		}
		out = append(out, '}')
		again, err := entriesJSON(out)
		if err != nil {
			t.Fatalf("%q written back as %q: %v", data, out, err)
		}
		if !reflect.DeepEqual(entries, again) {
			t.Fatalf("%q written back as %q reads %v, want %v", data, out, again, entries)
		}
	})
}
