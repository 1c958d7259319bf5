package btcpp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WithEntriesJSON sets entries of the root blackboard from a JSON object,
// each member as WithEntry sets it: a number written without '.', 'e' or
// 'E' is an int, another number a double, a string an untyped string, true and
// false a bool. Members are set in the object's order:
//
//	btcpp.WithEntriesJSON([]byte(`{"distance": 9, "speed": 1.5, "name": "guard"}`))
//
// Build then fails with an *Error, of type RuntimeError, that names the
// member and its byte offset when data is not such an object: not JSON,
// another JSON value, a member that is null, an array or an object, a
// key given twice, a number out of range of an int64 or a double, or
// anything after the object. The cost is linear in
// len(data); data is read when the option is made, not kept.
func WithEntriesJSON(data []byte) Option {
	entries, err := entriesJSON(data)
	return func(c *config) {
		if err != nil {
			if c.err == nil {
				c.err = err
			}
			return
		}
		c.entries = append(c.entries, entries...)
	}
}

// entriesJSON reads WithEntriesJSON's object.
func entriesJSON(data []byte) ([]initialEntry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	bad := func(at int64, format string, args ...any) error {
		return &Error{Type: RuntimeError, Node: -1, Msg: fmt.Sprintf("WithEntriesJSON: byte %d: ", at) + fmt.Sprintf(format, args...)}
	}
	wrapped := func(at int64, err error) error {
		return &Error{Type: RuntimeError, Node: -1, Msg: fmt.Sprintf("WithEntriesJSON: byte %d", at), Err: err}
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, wrapped(dec.InputOffset(), err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, bad(0, "the entries are not a JSON object")
	}
	// next returns the offset of the next token at or after at: past
	// white space and the ',' or ':' before it.
	next := func(at int64) int64 {
		for at < int64(len(data)) && bytes.IndexByte([]byte(" \t\r\n,:"), data[at]) >= 0 {
			at++
		}
		return at
	}
	var entries []initialEntry
	seen := map[string]bool{}
	for dec.More() {
		at := next(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return nil, wrapped(at, err)
		}
		key := tok.(string) // an object's member starts with its key
		if seen[key] {
			return nil, bad(at, "the entry %q is given twice", key)
		}
		seen[key] = true
		at = next(dec.InputOffset())
		tok, err = dec.Token()
		if err != nil {
			return nil, wrapped(at, err)
		}
		switch v := tok.(type) {
		case json.Number:
			if err := numberFits(v); err != nil {
				return nil, bad(at, "the entry %q: %v", key, err)
			}
			entries = append(entries, initialEntry{key, v})
		case string, bool:
			entries = append(entries, initialEntry{key, v})
		case nil:
			return nil, bad(at, "the entry %q is null: an entry is a number, a string or a bool", key)
		default:
			return nil, bad(at, "the entry %q is an array or an object: an entry is a number, a string or a bool", key)
		}
	}
	if _, err := dec.Token(); err != nil { // the closing '}'
		return nil, wrapped(dec.InputOffset(), err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, bad(dec.InputOffset(), "something follows the entries' object")
	}
	return entries, nil
}

// numberFits reports whether n, read as setInitial reads it, fits: an
// int64 when written without '.', 'e' or 'E', else a finite double.
func numberFits(n json.Number) error {
	s := string(n)
	if !strings.ContainsAny(s, ".eE") {
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			return fmt.Errorf("the integer %s is out of range of an int64", s)
		}
		return nil
	}
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return fmt.Errorf("the number %s is out of range of a double", s)
	}
	return nil
}
