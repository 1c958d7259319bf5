package mdsl

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/mistreevous"
)

// cookText is the definition of Mistreevous's test of convertMDSLToJSON
// ("returns the corresponding JSON definition"), and cookJSON what that
// test expects, with the guard's succeedOnAbort that Mistreevous 4's
// attribute parser adds, in the order of the keys it writes.
const cookText = `
root {
    selector while(IsHungry) {
        sequence {
            condition [HasDollars, 15]
            action [OrderFood, "Pizza"] entry(PlayMusic, "pizza-song")
        }
        sequence {
            condition [HasIngredient, "Steak"]
            condition [HasIngredient, "Lobster"]
            action [CookFood, "Surf 'n' Turf"]
        }
        sequence {
            condition [HasIngredient, "Egg"]
            branch [CookEggs]
        }
        sequence {
            condition [HasIngredient, "Oats"]
            action [CookFood, "Gruel"]
        }
        action [Starve] entry(OnStarveEntry) exit(OnStarveExit)
    }
}

root [CookEggs] {
    lotto [100, 100, 5] {
        action [CookFood, "Omelette"]
        action [CookFood, "Scrambled Eggs"]
        action [CookFood, "Fried Egg Surprise!"]
    }
}
`

const cookJSON = `[
{"type":"root","child":{"type":"selector","while":{"call":"IsHungry","args":[],"succeedOnAbort":false},"children":[
  {"type":"sequence","children":[
    {"type":"condition","call":"HasDollars","args":[15]},
    {"type":"action","call":"OrderFood","args":["Pizza"],"entry":{"call":"PlayMusic","args":["pizza-song"]}}]},
  {"type":"sequence","children":[
    {"type":"condition","call":"HasIngredient","args":["Steak"]},
    {"type":"condition","call":"HasIngredient","args":["Lobster"]},
    {"type":"action","call":"CookFood","args":["Surf 'n' Turf"]}]},
  {"type":"sequence","children":[
    {"type":"condition","call":"HasIngredient","args":["Egg"]},
    {"type":"branch","ref":"CookEggs"}]},
  {"type":"sequence","children":[
    {"type":"condition","call":"HasIngredient","args":["Oats"]},
    {"type":"action","call":"CookFood","args":["Gruel"]}]},
  {"type":"action","call":"Starve","args":[],"entry":{"call":"OnStarveEntry","args":[]},"exit":{"call":"OnStarveExit","args":[]}}]}},
{"type":"root","id":"CookEggs","child":{"type":"lotto","weights":[100,100,5],"children":[
  {"type":"action","call":"CookFood","args":["Omelette"]},
  {"type":"action","call":"CookFood","args":["Scrambled Eggs"]},
  {"type":"action","call":"CookFood","args":["Fried Egg Surprise!"]}]}}
]`

// compact returns s without insignificant white space.
func compact(t *testing.T, s string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(s)); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestToJSONAsMistreevous checks ToJSON against Mistreevous's own test of
// convertMDSLToJSON, byte for byte (key order included), and that both
// readers take the result back to the tree of the text.
func TestToJSONAsMistreevous(t *testing.T) {
	got, err := ToJSON("cook.mdsl", []byte(cookText))
	if err != nil {
		t.Fatal(err)
	}
	if want := compact(t, cookJSON); string(got) != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	fromText, err := Parse("cook.mdsl", []byte(cookText))
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := mistreevous.Parse(got)
	if err != nil {
		t.Fatal(err)
	}
	if d := mdslDiff(fromJSON, fromText); d != "" {
		t.Errorf("the JSON reads differently from the text: %s", d)
	}
}

// TestToJSONShapes checks the other node shapes, attribute order, guards
// with then, numbers, strings and properties as JSON.stringify writes
// them, against hand-written Mistreevous 4.3.1 definitions.
func TestToJSONShapes(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`root until(Done) then succeed entry(Hi) { repeat [2, 5] exit(Bye) while(Ok) { retry [3] { wait [10, 20] step(Tick) } } }`,
			`[{"type":"root","until":{"call":"Done","args":[],"succeedOnAbort":true},"entry":{"call":"Hi","args":[]},"child":{"type":"repeat","iterations":[2,5],"exit":{"call":"Bye","args":[]},"while":{"call":"Ok","args":[],"succeedOnAbort":false},"child":{"type":"retry","attempts":3,"child":{"type":"wait","duration":[10,20],"step":{"call":"Tick","args":[]}}}}}]`},
		{`root { parallel { race { all { flip { succeed { fail { wait } } } } } lotto { repeat { action [A] } } } }`,
			`[{"type":"root","child":{"type":"parallel","children":[{"type":"race","children":[{"type":"all","children":[{"type":"flip","child":{"type":"succeed","child":{"type":"fail","child":{"type":"wait"}}}}]}]},{"type":"lotto","children":[{"type":"repeat","child":{"type":"action","call":"A","args":[]}}]}]}}]`},
		{`root { action [A, -0, 1e21, 0.000001, 1e-7, -2.5, null, true, "q\"uo\te", $prop] }`,
			`[{"type":"root","child":{"type":"action","call":"A","args":[0,1e+21,0.000001,1e-7,-2.5,null,true,"q\"uo\\te",{"$":"prop"}]}}]`},
		{"ROOT { SEQUENCE { WAIT [5] Branch [x] } } root [x] { action [B] }",
			`[{"type":"root","child":{"type":"sequence","children":[{"type":"wait","duration":5},{"type":"branch","ref":"x"}]}},{"type":"root","id":"x","child":{"type":"action","call":"B","args":[]}}]`},
	} {
		got, err := ToJSON("t.mdsl", []byte(c.text))
		if err != nil {
			t.Errorf("%s: %v", c.text, err)
			continue
		}
		if string(got) != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.text, got, c.want)
			continue
		}
		a, err1 := Parse("t.mdsl", []byte(c.text))
		b, err2 := mistreevous.Parse(got)
		if err1 != nil || err2 != nil {
			t.Errorf("%s: %v, %v", c.text, err1, err2)
			continue
		}
		if d := mdslDiff(b, a); d != "" {
			t.Errorf("%s: the JSON reads differently: %s", c.text, d)
		}
	}
}

// TestToJSONErrors: the errors are Parse's, and our own kinds have no
// Mistreevous form.
func TestToJSONErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`root { branch [nowhere] }`, `branch to an unknown root "nowhere"`},
		{`root { flip { action [A] action [B] } }`, "flip takes one child, got 2"},
		{`root { repeat_n [3] { action [A] } }`, "1:8: repeat_n nodes have no Mistreevous form"},
	} {
		_, err := ToJSON("t.mdsl", []byte(c.text))
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want an *Error with %q", c.text, err, c.want)
		}
	}
}
