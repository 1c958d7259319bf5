package btcpp

import (
	"errors"
	"testing"
)

// setEntryXML has a SubTree that remaps its port x to the root's n, and
// one whose scope is its own.
const setEntryXML = `<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main">
  <Sequence>
    <SubTree ID="Sub" name="remapped" x="{n}"/>
    <SubTree ID="Own" name="own"/>
    <ScriptCondition code="n > 3"/>
  </Sequence>
</BehaviorTree>
<BehaviorTree ID="Sub"><AlwaysSuccess/></BehaviorTree>
<BehaviorTree ID="Own"><Script code="s := 'a'"/></BehaviorTree>
</root>`

// scopeOf returns the index of the scope at path.
func scopeOf(t *testing.T, tree *Tree, path string) int {
	t.Helper()
	for i, s := range tree.Scopes() {
		if s.Path == path {
			return i
		}
	}
	t.Fatalf("no scope %q in %v", path, tree.Scopes())
	return -1
}

// entryOf returns key's entry in scope, as "declared value type".
func entryOf(tree *Tree, scope int, key string) string {
	for _, e := range tree.Entries(scope) {
		if e.Key == key {
			return e.Declared + " " + e.Value.String() + " " + e.Value.Type()
		}
	}
	return "(none)"
}

// TestSetEntry: SetEntry is blackboard->set between ticks: it makes a
// version and leaves its receiver as it was; a remapped key of a SubTree
// writes the parent's entry; a typed entry keeps its type (a string parsed,
// a number converted exactly) and refuses another; the next tick reads the
// value set; UnsetEntry removes a scope's own entry only.
func TestSetEntry(t *testing.T) {
	doc, err := NewFactory().Parse(setEntryXML)
	if err != nil {
		t.Fatal(err)
	}
	v0, err := doc.Build("", WithEntry("n", 1))
	if err != nil {
		t.Fatal(err)
	}
	v1, st, err := v0.TickOnce()
	if err != nil || st != Failure {
		t.Fatalf("first tick: %v %v", st, err)
	}
	remapped, own := scopeOf(t, v1, "remapped"), scopeOf(t, v1, "own")
	if got := entryOf(v1, 0, "n"); got != "int 1 int" {
		t.Fatalf("n after the first tick: %s", got)
	}

	// Through the SubTree's remapping: the scope does not store x, so
	// the value is stored as is in the entry the remapping leads to (no
	// conversion on this path, README §6.1).
	v2, err := v1.SetEntry(remapped, "x", StringValue("5"))
	if err != nil {
		t.Fatal(err)
	}
	if got := entryOf(v2, 0, "n"); got != "int 5 string" {
		t.Errorf("n after setting the SubTree's x to \"5\": %s", got)
	}
	// In the scope that stores it, a string is parsed as the entry's type.
	if v, err := v1.SetEntry(0, "n", StringValue("6")); err != nil || entryOf(v, 0, "n") != "int 6 int" {
		t.Errorf("n after = \"6\": %v %s", err, entryOf(v, 0, "n"))
	}
	if got := entryOf(v1, 0, "n"); got != "int 1 int" {
		t.Errorf("SetEntry changed its receiver: n is %s", got)
	}
	if got := entryOf(v2, remapped, "x"); got != "(none)" {
		t.Errorf("the remapped scope stores x itself: %s", got)
	}
	if v2.Status() != v1.Status() || v2.String() != v1.String() {
		t.Errorf("SetEntry changed the nodes: %v %s, was %v %s", v2.Status(), v2, v1.Status(), v1)
	}
	// A double that is an integer converts into the int entry.
	v3, err := v1.SetEntry(0, "@n", DoubleValue(7))
	if err != nil {
		t.Fatal(err)
	}
	if got := entryOf(v3, 0, "n"); got != "int 7 int" {
		t.Errorf("n after @n = 7.0: %s", got)
	}
	for _, bad := range []Value{DoubleValue(2.5), StringValue("x")} {
		if _, err := v1.SetEntry(0, "n", bad); err == nil {
			t.Errorf("setting n (int) to %s %s: no error", bad.Type(), bad)
		}
	}
	// An own entry of a SubTree scope, and a new one there.
	v4, err := v1.SetEntry(own, "s", IntValue(3, "int"))
	if err != nil {
		t.Fatal(err)
	}
	if got := entryOf(v4, own, "s"); got != "int 3 int" {
		t.Errorf("s (untyped) after = 3: %s", got)
	}
	v5, err := v4.SetEntry(own, "fresh", StringValue("hi"))
	if err != nil {
		t.Fatal(err)
	}
	if got := entryOf(v5, own, "fresh"); got != "any hi string" {
		t.Errorf("a new string entry: %s", got)
	}
	if got := entryOf(v4, own, "fresh"); got != "(none)" {
		t.Errorf("SetEntry changed its receiver: fresh is %s", got)
	}
	if _, st, err := v3.TickOnce(); err != nil || st != Success {
		t.Errorf("the tick after n = 7: %v %v, want SUCCESS (n > 3)", st, err)
	}
	// Unset: the scope's own entry only.
	v6, ok, err := v5.UnsetEntry(own, "fresh")
	if err != nil || !ok || entryOf(v6, own, "fresh") != "(none)" || entryOf(v5, own, "fresh") == "(none)" {
		t.Errorf("unset fresh: ok %v, err %v, now %s, before %s", ok, err, entryOf(v6, own, "fresh"), entryOf(v5, own, "fresh"))
	}
	if same, ok, err := v5.UnsetEntry(remapped, "x"); err != nil || ok || same != v5 {
		t.Errorf("unset of a remapped key: ok %v, err %v", ok, err)
	}
	// Errors: no such scope, empty key, empty value.
	for _, c := range []struct {
		scope int
		key   string
		v     Value
	}{{-1, "n", IntValue(1, "int")}, {len(v1.Scopes()), "n", IntValue(1, "int")}, {0, "", IntValue(1, "int")}, {0, "@", IntValue(1, "int")}, {0, "n", Value{}}} {
		_, err := v1.SetEntry(c.scope, c.key, c.v)
		var e *Error
		if !errors.As(err, &e) || e.Type != RuntimeError {
			t.Errorf("SetEntry(%d, %q, %v): %v, want a RuntimeError", c.scope, c.key, c.v, err)
		}
	}
	if _, _, err := v1.UnsetEntry(7, "n"); err == nil {
		t.Error("UnsetEntry of scope 7: no error")
	}
}

// TestSetEntryTicks: the tick after a SetEntry reads the value set, and a
// save of the version holds it.
func TestSetEntryTicks(t *testing.T) {
	doc, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="M"><ScriptCondition code="n > 3"/></BehaviorTree></root>`)
	if err != nil {
		t.Fatal(err)
	}
	v0, err := doc.Build("", WithEntry("n", 1))
	if err != nil {
		t.Fatal(err)
	}
	if _, st, _ := v0.TickOnce(); st != Failure {
		t.Fatalf("n = 1: %v", st)
	}
	v1, err := v0.SetEntry(0, "n", IntValue(4, "int"))
	if err != nil {
		t.Fatal(err)
	}
	if _, st, _ := v1.TickOnce(); st != Success {
		t.Errorf("n = 4: %v", st)
	}
	data, err := v1.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := v0.Restore(data)
	if err != nil {
		t.Fatal(err)
	}
	if got := entryOf(back, 0, "n"); got != "int 4 int" {
		t.Errorf("restored n: %s", got)
	}
}
