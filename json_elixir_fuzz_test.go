package behaviortree_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
)

// FuzzParseJSONStrict feeds arbitrary text to ParseJSON, with string leaves
// and with leaves of type any. No input may panic. A definition it reads
// must marshal and read back to an equal tree (same String, Fingerprint and
// leaf values), and must be the tree that encoding/json's own decoding
// describes (refDefinition). ParseJSON must report a syntax error exactly
// for the inputs json.Valid rejects, unless it finds another error first.
func FuzzParseJSONStrict(f *testing.F) {
	for _, tc := range parseJSONTests {
		f.Add(tc.input)
	}
	for _, c := range firstCases(loadConformance(f), 60) {
		f.Add(string(c.Raw))
	}
	seeds, err := filepath.Glob("testdata/fuzz/FuzzParseJSON/*")
	if err != nil {
		f.Fatal(err)
	}
	for _, name := range seeds {
		if s, ok := readCorpusString(f, name); ok {
			f.Add(s)
		}
	}
	f.Fuzz(func(t *testing.T, data string) {
		checkStrictStrings(t, []byte(data))
		checkAnyLeaves(t, []byte(data))
	})
}

// readCorpusString returns the string of a "go test fuzz v1" corpus file
// that holds one string.
func readCorpusString(tb testing.TB, name string) (string, bool) {
	b, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "string(") || !strings.HasSuffix(lines[1], ")") {
		return "", false
	}
	s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"))
	return s, err == nil
}

// checkStrictStrings checks ParseJSON[string] on data.
func checkStrictStrings(t *testing.T, data []byte) {
	n, err := bt.ParseJSON[string](data)
	valid := json.Valid(data)
	if err != nil {
		var de *bt.DefinitionError
		if !errors.As(err, &de) {
			t.Fatalf("error %v is a %T, not a *DefinitionError", err, err)
		}
		if syntax := strings.Contains(de.Msg, "invalid JSON at byte"); syntax && valid {
			t.Fatalf("json.Valid accepts what ParseJSON calls a syntax error: %v", err)
		}
		if len(err.Error()) > 400 {
			t.Fatalf("an error of %d bytes: %.400s", len(err.Error()), err)
		}
		if valid && !hasDuplicateKeys(data) {
			if ref, rerr := refDefinition(data); rerr == nil {
				t.Fatalf("ParseJSON fails (%v) where encoding/json reads %v", err, ref)
			}
		}
		return
	}
	if !valid {
		t.Fatalf("ParseJSON reads what json.Valid rejects, as %v", n)
	}
	ref, rerr := refDefinition(data)
	if rerr != nil {
		t.Fatalf("ParseJSON reads %v where encoding/json's decoding fails: %v", n, rerr)
	}
	sameDefinition(t, "encoding/json's reading", ref, n)
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatalf("a parsed definition does not marshal: %v", err)
	}
	back, err := bt.ParseJSON[string](b)
	if err != nil {
		t.Fatalf("marshalled JSON does not parse: %v\n%s", err, b)
	}
	sameDefinition(t, "the round trip", n, back)
	if b2, _ := json.Marshal(back); !bytes.Equal(b, b2) {
		t.Fatalf("round trip changed:\n%s\n%s", b, b2)
	}
	tr := bt.Start(n, bt.WithSeed(1))
	for i := 0; i < 20; i++ {
		_ = tr.Value()
		tr = tr.Signal([]bt.Status{bt.Success, bt.Failure}[i%2])
	}
}

// checkAnyLeaves checks ParseJSON[any] on data: leaves go through
// json.Unmarshal, and the round trip must be stable.
func checkAnyLeaves(t *testing.T, data []byte) {
	n, err := bt.ParseJSON[any](data)
	if err != nil {
		if len(err.Error()) > 400 {
			t.Fatalf("an error of %d bytes: %.400s", len(err.Error()), err)
		}
		return
	}
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatalf("a parsed definition does not marshal: %v", err)
	}
	back, err := bt.ParseJSON[any](b)
	if err != nil {
		t.Fatalf("marshalled JSON does not parse: %v\n%s", err, b)
	}
	if back.String() != n.String() || back.Fingerprint() != n.Fingerprint() {
		t.Fatalf("round trip changed %v to %v", n, back)
	}
	if b2, _ := json.Marshal(back); !bytes.Equal(b, b2) {
		t.Fatalf("round trip changed:\n%s\n%s", b, b2)
	}
}

// sameDefinition fails the test unless got and want are equal trees.
func sameDefinition(t *testing.T, what string, want, got bt.Node[string]) {
	t.Helper()
	if got.String() != want.String() || got.Fingerprint() != want.Fingerprint() ||
		!slices.Equal(leafValues(got), leafValues(want)) {
		t.Fatalf("%s gives %v, want %v", what, got, want)
	}
}

// hasDuplicateKeys reports whether an object of the valid JSON data has a
// key twice, which encoding/json's decoding into maps hides.
func hasDuplicateKeys(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	var objects []map[string]bool // the keys of each open object, or nil for an array
	key := true                   // the next string in the innermost object is a key
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		inObject := len(objects) > 0 && objects[len(objects)-1] != nil
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{':
				objects = append(objects, map[string]bool{})
				key = true
				continue
			case '[':
				objects = append(objects, nil)
				continue
			default:
				objects = objects[:len(objects)-1]
			}
		case string:
			if inObject && key {
				if objects[len(objects)-1][tok] {
					return true
				}
				objects[len(objects)-1][tok] = true
				key = false
				continue
			}
		}
		key = true // a value ended: in an object, a key comes next
	}
}

// refDefinition reads a definition with encoding/json's decoding into any
// values, as ParseJSON did before it had its own scanner, and bt.Build.
func refDefinition(data []byte) (bt.Node[string], error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return bt.Node[string]{}, err
	}
	if _, err := dec.Token(); err == nil {
		return bt.Node[string]{}, errors.New("data after the definition")
	}
	return refNode(v)
}

// refNode builds the node that v describes.
func refNode(v any) (bt.Node[string], error) {
	var zero bt.Node[string]
	switch v := v.(type) {
	case string:
		return bt.Leaf(v), nil
	case map[string]any:
		_, hasType := v["type"]
		_, hasKids := v["children"]
		if hasType || hasKids {
			break
		}
		return zero, errors.New("object leaf")
	default:
		return zero, errors.New("not a string leaf")
	}
	obj := v.(map[string]any)
	name, _ := obj["type"].(string)
	kinds := map[string]kind.Kind{"select": kind.Select, "sequence": kind.Sequence, "repeat_until_fail": kind.RepeatUntilFail,
		"continually": kind.RepeatUntilFail, "repeat_until_succeed": kind.RepeatUntilSucceed, "repeat_n": kind.RepeatN,
		"random": kind.Random, "random_weighted": kind.RandomWeighted, "always_succeed": kind.AlwaysSucceed,
		"always_fail": kind.AlwaysFail, "negate": kind.Negate}
	nodeKind, ok := kinds[name]
	if !ok {
		return zero, errors.New("unknown type")
	}
	var p kind.Params
	for key, val := range obj {
		switch key {
		case "type", "children":
		case "n":
			if nodeKind != kind.RepeatN {
				return zero, errors.New("n")
			}
			num, _ := val.(json.Number)
			x, err := strconv.Atoi(string(num))
			if err != nil {
				return zero, err
			}
			p.N = x
		case "weights":
			ws, ok := val.([]any)
			if nodeKind != kind.RandomWeighted || !ok {
				return zero, errors.New("weights")
			}
			for _, w := range ws {
				num, _ := w.(json.Number)
				x, err := strconv.Atoi(string(num))
				if err != nil {
					return zero, err
				}
				p.Weights = append(p.Weights, x)
			}
		default:
			return zero, errors.New("unknown field")
		}
	}
	if nodeKind == kind.RepeatN && obj["n"] == nil || nodeKind == kind.RandomWeighted && obj["weights"] == nil {
		return zero, errors.New("missing parameter")
	}
	kids, ok := obj["children"].([]any)
	if !ok {
		return zero, errors.New("children")
	}
	var children []bt.Node[string]
	for _, k := range kids {
		c, err := refNode(k)
		if err != nil {
			return zero, err
		}
		children = append(children, c)
	}
	return bt.Build(nodeKind, p, children...)
}

// leafValues returns the values of n's action leaves, left to right.
func leafValues[L any](n bt.Node[L]) []L {
	var out []L
	for c := range n.Preorder() {
		if v, ok := c.Leaf(); ok && c.Kind() == kind.Leaf {
			out = append(out, v)
		}
	}
	return out
}
