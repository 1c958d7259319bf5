package btcpp

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestWithEntriesJSON: each member becomes an entry as WithEntry makes it,
// the same as the Go values give, in the object's order.
func TestWithEntriesJSON(t *testing.T) {
	doc, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><Script code="n += 1"/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := doc.Build("", WithEntriesJSON([]byte(` {"n": 4, "speed": 1.5, "big": 1e3, "name": "guard", "armed": true} `)))
	if err != nil {
		t.Fatal(err)
	}
	fromGo, err := doc.Build("", WithEntry("n", 4), WithEntry("speed", 1.5), WithEntry("big", 1000.0), WithEntry("name", "guard"), WithEntry("armed", true))
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"n", "speed", "big", "name", "armed"} {
		if a, b := entryOf(fromJSON, 0, key), entryOf(fromGo, 0, key); a != b || a == "(none)" {
			t.Errorf("%s: from JSON %s, from Go %s", key, a, b)
		}
	}
	if got := entryOf(fromJSON, 0, "n"); got != "int 4 int" {
		t.Errorf("n is %s", got)
	}
	next, _, err := fromJSON.Tick()
	if err != nil {
		t.Fatal(err)
	}
	if got := entryOf(next, 0, "n"); got != "int 5 int" {
		t.Errorf("n after n += 1 is %s", got)
	}
	// Options apply in order: a later WithEntry wins.
	both, err := doc.Build("", WithEntriesJSON([]byte(`{"n": 4}`)), WithEntry("n", 7))
	if err != nil {
		t.Fatal(err)
	}
	if got := entryOf(both, 0, "n"); got != "int 7 int" {
		t.Errorf("n after WithEntriesJSON then WithEntry is %s", got)
	}
}

// TestWithEntriesJSONErrors: Build names what is wrong and where, and
// builds nothing.
func TestWithEntriesJSONErrors(t *testing.T) {
	doc, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><AlwaysSuccess/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ in, want string }{
		{``, "byte 0: EOF"},
		{`[1]`, "not a JSON object"},
		{`7`, "not a JSON object"},
		{`{"a": null}`, `"a" is null`},
		{`{"a": 1, "b": [1]}`, `"b" is an array or an object`},
		{`{"a": {"x": 1}}`, `"a" is an array or an object`},
		{`{"a": 1, "a": 2}`, `byte 9: the entry "a" is given twice`},
		{`{"a": 1, "b":  null}`, `byte 15: the entry "b" is null`},
		{`{"a": 1} {}`, "something follows"},
		{`{"a": 1`, "EOF"},
		{`{"a": tru}`, "invalid character"},
		{`{"a": 99999999999999999999}`, `byte 6: the entry "a": the integer 99999999999999999999 is out of range`},
	} {
		tree, err := doc.Build("", WithEntriesJSON([]byte(c.in)))
		var e *Error
		if tree != nil || !errors.As(err, &e) || e.Type != RuntimeError || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v %v, want a RuntimeError saying %q", c.in, tree, err, c.want)
		}
	}
}

func ExampleWithEntriesJSON() {
	doc, err := NewFactory().Parse(`
<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Script code="alarms += 1; msg := name + ' saw ' + (distance < 5 ? 'someone' : 'nothing')"/>
  </BehaviorTree>
</root>`)
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, err := doc.Build("", WithEntriesJSON([]byte(`{"alarms": 0, "distance": 3, "name": "guard"}`)))
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, status, err := tree.Tick()
	fmt.Println(status, err)
	for _, e := range tree.Entries(0) {
		fmt.Printf("%s (%s) = %s\n", e.Key, e.Declared, e.Value)
	}
	// Output:
	// SUCCESS <nil>
	// alarms (int) = 1
	// distance (int) = 3
	// msg (any) = guard saw someone
	// name (any) = guard
}

// TestEntriesJSONOutOfRange: a number out of range names its member and
// byte offset.
func TestEntriesJSONOutOfRange(t *testing.T) {
	for _, c := range []struct{ data, want string }{
		{`{"a": 1, "big": 1e999}`, `byte 16: the entry "big"`},
		{`{"n": 12345678901234567890}`, `byte 6: the entry "n"`},
	} {
		d, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><AlwaysSuccess/></BehaviorTree></root>`)
		if err != nil {
			t.Fatal(err)
		}
		_, err = d.Build("", WithEntriesJSON([]byte(c.data)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.data, err, c.want)
		}
	}
}
