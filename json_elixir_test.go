package behaviortree_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/testlong"
)

// parseJSONTests is a table of definitions, good and bad: {name, input, ok,
// result}, where result is the marshalled tree or the error text. The JSON
// fuzzers start from its inputs.
var parseJSONTests = []struct {
	name   string
	input  string
	ok     bool
	result string
}{
	{"leaf", `"a"`, true, `"a"`},
	{"sequence", `{"type":"sequence","children":["a","b"]}`, true, `{"type":"sequence","children":["a","b"]}`},
	{"continually alias", `{"type":"continually","children":["a"]}`, true, `{"type":"repeat_until_fail","children":["a"]}`},
	{"keys in any order", `{"children":["a"],"n":3,"type":"repeat_n"}`, true, `{"type":"repeat_n","n":3,"children":["a"]}`},
	{"weights", `{"type":"random_weighted","weights":[3,1],"children":["a","b"]}`, true, `{"type":"random_weighted","weights":[3,1],"children":["a","b"]}`},
	{"every decorator", `{"type":"negate","children":[{"type":"always_fail","children":[{"type":"always_succeed","children":[{"type":"repeat_until_succeed","children":["x"]}]}]}]}`, true,
		`{"type":"negate","children":[{"type":"always_fail","children":[{"type":"always_succeed","children":[{"type":"repeat_until_succeed","children":["x"]}]}]}]}`},
	{"white space", " {\t\"type\" :\n\"select\" , \"children\":[ \"a\" ,\r\"b\" ] } ", true, `{"type":"select","children":["a","b"]}`},
	{"escapes", `{"typ\u0065":"sel\u0065ct","children":["\u00e9\n\"\ud83d\ude00\/"]}`, true, `{"type":"select","children":["é\n\"😀/"]}`},
	{"lone surrogate", `"\ud800x"`, true, `"` + "\ufffd" + `x"`},
	{"invalid UTF-8", "\"a\xffb\"", true, `"` + "a\ufffdb" + `"`},

	{"not JSON", `{"type":`, false, "behaviortree: invalid JSON at byte 8: unexpected end of input"},
	{"empty", ``, false, "behaviortree: invalid JSON at byte 0: unexpected end of input"},
	{"bad character", `{"type":"select","children":["a",x]}`, false,
		"behaviortree: invalid JSON at byte 33: invalid character 'x' looking for beginning of value"},
	{"bad character in a child", `{"type":"select","children":["a",{"type":"negate","children":[tru]}]}`, false,
		"behaviortree: children[1]: invalid JSON at byte 65: invalid character ']' in literal true (expecting 'e')"},
	{"trailing comma", `{"type":"select","children":["a"],}`, false,
		"behaviortree: invalid JSON at byte 34: invalid character '}' looking for beginning of object key string"},
	{"control character", "\"a\x01\"", false, `behaviortree: invalid JSON at byte 2: invalid character '\x01' in string literal`},
	{"bad escape", `"a\x"`, false, `behaviortree: invalid JSON at byte 3: invalid character 'x' in string escape code`},
	{"bad number", `{"type":"select","children":[-x]}`, false, "behaviortree: invalid JSON at byte 30: invalid character 'x' in numeric literal"},
	{"cut number", `-`, false, "behaviortree: invalid JSON at byte 1: unexpected end of input"},
	{"leading zero", `[01]`, false, "behaviortree: invalid JSON at byte 2: invalid character '1' after array element"},
	{"trailing data", `"a" "b"`, false, "behaviortree: invalid JSON at byte 4: data after the definition"},
	{"trailing garbage", `{"type":"select","children":["a"]} }`, false, "behaviortree: invalid JSON at byte 35: data after the definition"},
	{"trailing space", "\"a\" \n", true, `"a"`},
	{"unknown type", `{"type":"parallel","children":["a"]}`, false, `behaviortree: unknown type "parallel"`},
	{"type not a string", `{"type":3,"children":["a"]}`, false, "behaviortree: type must be a string, got a number"},
	{"missing type", `{"children":["a"]}`, false, `behaviortree: inner node needs a "type"`},
	{"missing children", `{"type":"select"}`, false, `behaviortree: select needs "children"`},
	{"children not an array", `{"type":"select","children":"a"}`, false, "behaviortree: select: children must be an array, got a string"},
	{"empty children", `{"type":"sequence","children":[]}`, false, "behaviortree: sequence needs at least one child, got none"},
	{"nested empty children", `{"type":"sequence","children":["a",{"type":"select","children":[]}]}`, false,
		"behaviortree: children[1]: select needs at least one child, got none"},
	{"decorator with two children", `{"type":"negate","children":["a","b"]}`, false, "behaviortree: negate needs exactly 1 child, got 2"},
	{"repeat_n n too small", `{"type":"sequence","children":["a",{"type":"repeat_n","n":1,"children":["b"]}]}`, false,
		"behaviortree: children[1]: repeat_n needs n >= 2, got 1"},
	{"repeat_n without n", `{"type":"repeat_n","children":["b"]}`, false, `behaviortree: repeat_n needs "n"`},
	{"repeat_n fractional n", `{"type":"repeat_n","n":2.5,"children":["b"]}`, false, "behaviortree: repeat_n needs an integer n, got 2.5"},
	{"repeat_n string n", `{"type":"repeat_n","n":"2","children":["b"]}`, false, `behaviortree: repeat_n needs an integer n, got "2"`},
	{"repeat_n n after children", `{"type":"repeat_n","children":["b"],"n":"2"}`, false, `behaviortree: repeat_n needs an integer n, got "2"`},
	{"n on another type", `{"type":"select","n":2,"children":["b"]}`, false, `behaviortree: select does not take "n"`},
	{"unknown field", `{"type":"select","child":2,"children":["b"]}`, false, `behaviortree: select has an unknown field "child"`},
	{"unknown field after children", `{"type":"continually","children":["b"],"child":{"x":[1]}}`, false, `behaviortree: continually has an unknown field "child"`},
	{"weights count", `{"type":"random_weighted","weights":[1],"children":["a","b"]}`, false,
		"behaviortree: random_weighted has 1 weights for 2 children"},
	{"weight zero", `{"type":"random_weighted","weights":[1,0],"children":["a","b"]}`, false,
		"behaviortree: random_weighted: weights[1] must be > 0, got 0"},
	{"weight not an integer", `{"type":"random_weighted","weights":[1,[2]],"children":["a","b"]}`, false,
		"behaviortree: random_weighted: weights[1] must be an integer, got an array"},
	{"weights not an array", `{"type":"random_weighted","weights":{},"children":["a","b"]}`, false,
		"behaviortree: random_weighted: weights must be an array, got an object"},
	{"weights missing", `{"type":"random_weighted","children":["a","b"]}`, false, `behaviortree: random_weighted needs "weights"`},
	{"weights on random", `{"type":"random","weights":[1],"children":["a"]}`, false, `behaviortree: random does not take "weights"`},
	{"deep place", `{"type":"select","children":["a",{"type":"sequence","children":["b","c",{"type":"negate","children":[7]}]}]}`, false,
		"behaviortree: children[1].children[2].children[0]: leaf: json: cannot unmarshal number into Go value of type string"},
	{"bad leaf at root", `12`, false, "behaviortree: leaf: json: cannot unmarshal number into Go value of type string"},
	{"object leaf", `{"type":"select","children":[{"Dx":1}]}`, false,
		"behaviortree: children[0]: leaf: json: cannot unmarshal object into Go value of type string"},

	{"null at the root", `null`, false, "behaviortree: null is not a node"},
	{"null child", `{"type":"select","children":["a",{"type":"negate","children":[null]}]}`, false,
		"behaviortree: children[1].children[0]: null is not a node"},
	{"duplicate type", `{"type":"select","children":["a"],"type":"sequence"}`, false, `behaviortree: duplicate key "type"`},
	{"duplicate children", `{"type":"select","children":["a",{"type":"negate","children":["b"],"children":["c"]}]}`, false,
		`behaviortree: children[1]: duplicate key "children"`},
	{"duplicate n", `{"type":"repeat_n","n":2,"children":["a"],"n":3}`, false, `behaviortree: duplicate key "n"`},
	{"duplicate weights", `{"type":"random_weighted","weights":[1],"weights":[1],"children":["a"]}`, false, `behaviortree: duplicate key "weights"`},
	{"duplicate escaped key", `{"type":"select","children":["a"],"typ\u0065":"select"}`, false, `behaviortree: duplicate key "type"`},
}

// TestParseJSON runs the table.
func TestParseJSON(t *testing.T) {
	for _, tc := range parseJSONTests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := bt.ParseJSON[string]([]byte(tc.input))
			if !tc.ok {
				if err == nil {
					t.Fatalf("no error, want %q", tc.result)
				}
				if err.Error() != tc.result {
					t.Fatalf("error\n got %q\nwant %q", err, tc.result)
				}
				var de *bt.DefinitionError
				if !errors.As(err, &de) {
					t.Errorf("error %v is a %T, not a *DefinitionError", err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(n)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.result {
				t.Fatalf("got %s, want %s", b, tc.result)
			}
		})
	}
}

// TestUnmarshalKeepsNodeOnError checks that a failed Unmarshal leaves the
// destination as it was, and that leaf errors unwrap to encoding/json's.
func TestUnmarshalKeepsNodeOnError(t *testing.T) {
	n := bt.Sequence(l("a"), l("b"))
	err := json.Unmarshal([]byte(`{"type":"select","children":[1]}`), &n)
	var de *bt.DefinitionError
	if !errors.As(err, &de) || de.Path != "children[0]" {
		t.Fatalf("got %v, want a DefinitionError at children[0]", err)
	}
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		t.Errorf("error %v does not unwrap to *json.UnmarshalTypeError", err)
	}
	if b, _ := json.Marshal(n); string(b) != `{"type":"sequence","children":["a","b"]}` {
		t.Errorf("destination changed to %s", b)
	}
}

// TestMarshalErrors covers definitions with no JSON form.
func TestMarshalErrors(t *testing.T) {
	if _, err := json.Marshal(bt.Node[string]{}); err == nil {
		t.Error("zero Node marshalled")
	}
	custom := bt.Sequence(l("a"), bt.CustomNode[string](resumingSelect{}, l("b")))
	_, err := json.Marshal(custom)
	var de *bt.DefinitionError
	if !errors.As(err, &de) || de.Path != "children[1]" || de.Msg != "custom node behaviortree_test.resumingSelect has no JSON form" {
		t.Errorf("got %v", err)
	}
	type bad struct{ C chan int }
	_, err = json.Marshal(bt.Select(bt.Leaf(bad{}), bt.Leaf(bad{})))
	if err == nil || !strings.Contains(err.Error(), "children[0]: leaf:") {
		t.Errorf("got %v", err)
	}
	type good struct{}
	_, err = json.Marshal(bt.Select(bt.Leaf(&good{}), bt.Negate(bt.Leaf[*good](nil))))
	if err == nil || !strings.Contains(err.Error(), "children[1].children[0]: leaf: *behaviortree_test.good value marshals to null, which is not a node") {
		t.Errorf("got %v", err)
	}
}

// longMarshaler is a leaf whose MarshalJSON fails with a long message.
type longMarshaler struct{}

func (longMarshaler) MarshalJSON() ([]byte, error) {
	return nil, errors.New(strings.Repeat("x", 1<<20))
}

// TestJSONErrorsAreShort checks that messages quote at most about 100
// bytes of a large input.
func TestJSONErrorsAreShort(t *testing.T) {
	size := testlong.Pick(1<<20, 10<<20)
	big := strings.Repeat("p", size)
	for _, input := range []string{
		`{"type":"` + big + `","children":["a"]}`,
		`{"type":"select","` + big + `":1,"children":["a"]}`,
		`{"type":"repeat_n","n":1` + strings.Repeat("0", size) + `,"children":["a"]}`,
		`{"type":"repeat_n","n":"` + big + `","children":["a"]}`,
		`{"type":"random_weighted","weights":["` + big + `"],"children":["a"]}`,
		`{"type":"select","children":[` + big + `]}`,
	} {
		_, err := bt.ParseJSON[string]([]byte(input))
		if err == nil || len(err.Error()) > 250 {
			t.Errorf("error of %d bytes: %.300v", len(err.Error()), err)
		}
	}
	// A leaf's own decoding error may repeat the input: json.Unmarshal's
	// does, for a number out of range.
	_, err := bt.ParseJSON[int8]([]byte(`{"type":"select","children":[1` + strings.Repeat("0", size) + `]}`))
	var te *json.UnmarshalTypeError
	if err == nil || len(err.Error()) > 250 || !errors.As(err, &te) {
		t.Errorf("error of %d bytes: %.300v", len(err.Error()), err)
	}
	_, err = bt.Leaf(longMarshaler{}).MarshalJSON()
	if err == nil || len(err.Error()) > 250 {
		t.Errorf("error of %d bytes: %.300v", len(err.Error()), err)
	}
}

// chain returns depth inner nodes, each a Negate of the next, over leaf.
func chain[L any](depth int, leaf L) bt.Node[L] {
	n := bt.Leaf(leaf)
	for i := 0; i < depth; i++ {
		n = bt.Negate(n)
	}
	return n
}

// chainJSON returns the JSON of chain(depth, leaf) for a leaf whose JSON is
// leaf.
func chainJSON(depth int, leaf string) []byte {
	return []byte(strings.Repeat(`{"type":"negate","children":[`, depth) + leaf + strings.Repeat("]}", depth))
}

// TestJSONDepthLimit checks that reading and writing agree on the limit of
// 10,000 levels of arrays and objects, which encoding/json also applies:
// 5,000 inner nodes with string leaves, fewer as leaves nest.
func TestJSONDepthLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		depth int
		leaf  any
		json  string
		ok    bool
	}{
		{"string leaves at the limit", 5000, "x", `"x"`, true},
		{"string leaves past the limit", 5001, "x", `"x"`, false},
		{"nested leaves at the limit", 4999, []any{[]any{1.0}}, `[[1]]`, true},
		{"nested leaves past the limit", 4999, []any{[]any{[]any{1.0}}}, `[[[1]]]`, false},
		{"nested leaf at the root", 0, []any{}, strings.Repeat("[", 10000) + strings.Repeat("]", 10000), true},
		{"nested leaf at the root past the limit", 0, []any{}, strings.Repeat("[", 10001) + strings.Repeat("]", 10001), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := chainJSON(tc.depth, tc.json)
			_, perr := bt.ParseJSON[any](data)
			var n bt.Node[any]
			uerr := json.Unmarshal(data, &n)
			if (perr == nil) != tc.ok || (uerr == nil) != tc.ok {
				t.Fatalf("ParseJSON: %.200v; json.Unmarshal: %.200v", perr, uerr)
			}
			if tc.depth == 0 {
				return
			}
			def := chain(tc.depth, tc.leaf)
			b, merr := def.MarshalJSON()
			_, jerr := json.Marshal(def)
			if (merr == nil) != tc.ok || (jerr == nil) != tc.ok {
				t.Fatalf("MarshalJSON: %.200v; json.Marshal: %.200v", merr, jerr)
			}
			if tc.ok && string(b) != string(data) {
				t.Fatalf("MarshalJSON wrote %.100s..., want %.100s...", b, data)
			}
			var de *bt.DefinitionError
			if !tc.ok && (!errors.As(perr, &de) || !errors.As(merr, &de) || len(perr.Error()) > 250 || len(merr.Error()) > 250) {
				t.Errorf("ParseJSON: %.300v; MarshalJSON: %.300v", perr, merr)
			}
		})
	}
	// The error names the place, shortened.
	_, err := bt.ParseJSON[string](chainJSON(5001, `"x"`))
	want := "behaviortree: children[0].children[0].children[0].children[0]...(4991 more)...children[0].children[0].children[0].children[0]: " +
		"invalid JSON at byte 145000: more than 10000 levels of nested arrays and objects"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// TestJSONStructLeaves uses a leaf type whose JSON is an object.
func TestJSONStructLeaves(t *testing.T) {
	type move struct {
		Dx, Dy int
	}
	n := bt.Select(bt.Leaf(move{1, 0}), bt.Leaf(move{0, 1}))
	b, err := json.Marshal(n)
	if err != nil {
		t.Fatal(err)
	}
	back, err := bt.ParseJSON[move](b)
	if err != nil {
		t.Fatal(err)
	}
	if got := bt.Start(back).Fail().Value(); got != (move{0, 1}) {
		t.Errorf("got %v", got)
	}
	_, err = bt.ParseJSON[move]([]byte(`{"type":"select","children":[{"Dx":1,"Dy":"a"}]}`))
	if err == nil || err.Error() != "behaviortree: children[0]: leaf: json: cannot unmarshal string into Go struct field move.Dy of type int" {
		t.Errorf("got %v", err)
	}
}

// action is a named string type without decoding methods: ParseJSON decodes
// it directly. upper has an UnmarshalText method, which ParseJSON calls.
type (
	action string
	upper  string
)

func (u *upper) UnmarshalText(b []byte) error {
	*u = upper(strings.ToUpper(string(b)))
	return nil
}

// TestJSONStringKinds reads leaves of string kinds.
func TestJSONStringKinds(t *testing.T) {
	in := []byte(`{"type":"select","children":["go","st\u006fp"]}`)
	a, err := bt.ParseJSON[action](in)
	if err != nil || fmt.Sprint(a) != "select(go, stop)" {
		t.Errorf("got %v, %v", a, err)
	}
	u, err := bt.ParseJSON[upper](in)
	if err != nil || fmt.Sprint(u) != "select(GO, STOP)" {
		t.Errorf("got %v, %v", u, err)
	}
	_, err = bt.ParseJSON[action]([]byte(`{"type":"select","children":[1]}`))
	if err == nil || err.Error() != "behaviortree: children[0]: leaf: json: cannot unmarshal number into Go value of type behaviortree_test.action" {
		t.Errorf("got %v", err)
	}
}

// TestJSONWide reads a Select of 100,000 leaves.
func TestJSONWide(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"type":"select","children":[`)
	for i := 0; i < 100000; i++ {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`"x"`)
	}
	sb.WriteString(`]}`)
	n, err := bt.ParseJSON[string]([]byte(sb.String()))
	if err != nil {
		t.Fatal(err)
	}
	if n.Size() != 100001 {
		t.Fatalf("size %d", n.Size())
	}
}

// BenchmarkParseJSON reads definitions of 1,023 and 131,071 nodes with
// ParseJSON, without json.Unmarshal's own pass over the input, and reports
// allocations per node.
func BenchmarkParseJSON(b *testing.B) {
	for _, levels := range []int{9, 16} {
		def := balanced(levels)
		data, err := json.Marshal(def)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(def.Size()), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := bt.ParseJSON[string](data); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			allocs := testing.AllocsPerRun(3, func() { bt.ParseJSON[string](data) })
			b.ReportMetric(allocs/float64(def.Size()), "allocs/node")
		})
	}
}
