package behaviortree_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// TestParseJSON is a table of definitions, good and bad: {name, input, ok,
// result}, where result is the marshalled tree or the error text.
func TestParseJSON(t *testing.T) {
	tests := []struct {
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

		{"not JSON", `{"type":`, false, "behaviortree: invalid JSON definition: unexpected EOF"},
		{"trailing data", `"a" "b"`, false, "behaviortree: invalid JSON definition: data after the definition at byte 3"},
		{"trailing garbage", `{"type":"select","children":["a"]} }`, false, "behaviortree: invalid JSON definition: data after the definition at byte 34"},
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
		{"n on another type", `{"type":"select","n":2,"children":["b"]}`, false, `behaviortree: select does not take "n"`},
		{"unknown field", `{"type":"select","child":2,"children":["b"]}`, false, `behaviortree: select has an unknown field "child"`},
		{"weights count", `{"type":"random_weighted","weights":[1],"children":["a","b"]}`, false,
			"behaviortree: random_weighted has 1 weights for 2 children"},
		{"weight zero", `{"type":"random_weighted","weights":[1,0],"children":["a","b"]}`, false,
			"behaviortree: random_weighted: weights[1] must be > 0, got 0"},
		{"weights missing", `{"type":"random_weighted","children":["a","b"]}`, false, `behaviortree: random_weighted needs "weights"`},
		{"weights on random", `{"type":"random","weights":[1],"children":["a"]}`, false, `behaviortree: random does not take "weights"`},
		{"deep place", `{"type":"select","children":["a",{"type":"sequence","children":["b","c",{"type":"negate","children":[7]}]}]}`, false,
			"behaviortree: children[1].children[2].children[0]: leaf: json: cannot unmarshal number into Go value of type string"},
		{"bad leaf at root", `12`, false, "behaviortree: leaf: json: cannot unmarshal number into Go value of type string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, err := bt.ParseJSON[string]([]byte(tc.input))
			if !tc.ok {
				if err == nil {
					t.Fatalf("no error, want %q", tc.result)
				}
				if err.Error() != tc.result {
					t.Fatalf("error\n got %q\nwant %q", err, tc.result)
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
	if err == nil || !strings.Contains(err.Error(), "children[1]: custom node behaviortree_test.resumingSelect has no JSON form") {
		t.Errorf("got %v", err)
	}
	type bad struct{ C chan int }
	_, err = json.Marshal(bt.Select(bt.Leaf(bad{}), bt.Leaf(bad{})))
	if err == nil || !strings.Contains(err.Error(), "children[0]: leaf:") {
		t.Errorf("got %v", err)
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
