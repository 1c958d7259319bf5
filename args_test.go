package behaviortree_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mdsl"
	"github.com/zipbt/behaviortree/memory"
	"github.com/zipbt/behaviortree/mistreevous"
)

// lineCol returns the line and column (from 1, in bytes) of the first
// occurrence of needle in text.
func lineCol(t *testing.T, text, needle string) (int, int) {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("%q is not in the text", needle)
	}
	line := 1 + strings.Count(text[:i], "\n")
	return line, i - strings.LastIndex(text[:i], "\n")
}

// nodeOf returns the preorder index of the first node of def whose call
// (its own or an attribute's) is named name.
func nodeOf(t *testing.T, def bt.Node[bt.Call], name string) int {
	t.Helper()
	i := 0
	for n := range def.Preorder() {
		if c, ok := n.Leaf(); ok && c.Name == name {
			return i
		}
		for _, a := range n.Attrs() {
			if a.Value.Name == name {
				return i
			}
		}
		i++
	}
	t.Fatalf("no node calls %s", name)
	return -1
}

const npcText = `root {
	selector {
		sequence while(IsEnemyNaer) {
			action [Atack, 2, "left"]
		}
		branch [patrol]
	}
}
root [patrol] {
	sequence entry(Greet) {
		action [Walk, 3.5]
		action [Walk, $speed]
	}
}
`

// TestFunctionsUnknownName checks that an unknown name is reported with
// the node, its line and column in the text, and the known name nearest
// to it; for every role (action, guard, callback).
func TestFunctionsUnknownName(t *testing.T) {
	def, err := mdsl.Parse("npc.mdsl", []byte(npcText))
	if err != nil {
		t.Fatal(err)
	}
	ok := func([]any) bt.Result { return bt.ResultSuccess }
	fns := bt.Functions{
		Actions:    map[string]func([]any) bt.Result{"Attack": ok, "Walk": ok, "Retreat": ok},
		Conditions: map[string]func([]any) bool{"IsEnemyNear": func([]any) bool { return false }},
		Callbacks:  map[string]func([]any){"Greet2": func([]any) {}},
	}
	// The guard comes first in preorder (it is on the sequence above the
	// action): rename the others one at a time.
	for _, c := range []struct {
		name, role, near string
		fix              func()
	}{
		{"IsEnemyNaer", "while guard's condition", "IsEnemyNear", func() { fns.Conditions["IsEnemyNaer"] = fns.Conditions["IsEnemyNear"] }},
		{"Atack", "action", "Attack", func() { fns.Actions["Atack"] = ok }},
		{"Greet", "entry callback", "Greet2", func() { fns.Callbacks["Greet"] = fns.Callbacks["Greet2"] }},
	} {
		_, err := fns.Agent(def)
		line, col := lineCol(t, npcText, c.name)
		node := nodeOf(t, def, c.name)
		var kindName string
		i := 0
		for n := range def.Preorder() {
			if i == node {
				kindName = mistreevousType(n.Kind())
			}
			i++
		}
		want := fmt.Sprintf("npc.mdsl:%d:%d: node %d (%s): no %s function named %q; did you mean %q?", line, col, node, kindName, c.role, c.name, c.near)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v\nwant it to say %s", err, want)
		}
		c.fix()
	}
	if _, err := fns.Agent(def); err != nil {
		t.Fatalf("every name is known now: %v", err)
	}

	// Far from every known name: no suggestion. From JSON: no place.
	jdef, err := mistreevous.Parse([]byte(`[{"type":"root","child":{"type":"action","call":"Fly"}}]`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = fns.Agent(jdef)
	if err == nil || !strings.Contains(err.Error(), `Agent: node 1 (action): no action function named "Fly"`) || strings.Contains(err.Error(), "did you mean") {
		t.Errorf("got %v", err)
	}
}

// mistreevousType is the word Functions uses for a node's kind.
func mistreevousType(k kind.Kind) string {
	switch k {
	case kind.Leaf:
		return "action"
	case kind.Condition:
		return "condition"
	}
	return strings.ToLower(k.String())
}

// TestArgs checks the typed accessors, and that their errors name the
// node, its place in the text and the argument; through a branch used
// twice, and with a property looked up in memory.
func TestArgs(t *testing.T) {
	def, err := mdsl.Parse("npc.mdsl", []byte(npcText))
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	note := func(err error) { // a guard may be asked more than once a step: each error once
		if err != nil && (len(errs) == 0 || errs[len(errs)-1].Error() != err.Error()) {
			errs = append(errs, err)
		}
	}
	speed := memory.NewKey[int]("speed")
	var got []string
	fns := bt.Functions{
		TypedActions: map[string]func(bt.Args) bt.Result{
			"Atack": func(a bt.Args) bt.Result {
				n, err := a.Int(0)
				note(err)
				s, err := a.String(1)
				note(err)
				got = append(got, fmt.Sprintf("%s %d %s %d", a.Name(), n, s, a.Len()))
				_, err = a.Int(1) // a string: an error
				note(err)
				_, err = a.Bool(2) // missing: an error
				note(err)
				return bt.ResultSuccess
			},
			"Walk": func(a bt.Args) bt.Result {
				f, err := a.Float(0)
				note(err)
				got = append(got, fmt.Sprintf("%s %v", a.Name(), f))
				_, err = a.Int(0) // 3.5 is no integer; the property's 7 is
				note(err)
				speed.Put(a.Blackboard(), 7)
				return bt.ResultSuccess
			},
		},
		TypedConditions: map[string]func(bt.Args) bool{"IsEnemyNaer": func(a bt.Args) bool {
			_, err := a.Any(0)
			note(err)
			return true
		}},
		Callbacks: map[string]func([]any){"Greet": func([]any) {}},
	}
	ag, err := fns.Agent(def)
	if err != nil {
		t.Fatal(err)
	}
	npc, err := bt.NewStepped(def, ag)
	if err != nil {
		t.Fatal(err)
	}
	npc = npc.WithMemory(speed.Set(memory.Map{}, 4))
	if npc, err = npc.Step(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Atack 2 left 2"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the handlers read %v, want %v", got, want)
	}
	place := func(name string) string {
		l, c := lineCol(t, npcText, name)
		return fmt.Sprintf("npc.mdsl:%d:%d: node %d", l, c, nodeOf(t, def, name))
	}
	want := []string{
		place("IsEnemyNaer") + ` (while guard's condition IsEnemyNaer): argument 0 is missing: the call has none`,
		place("Atack") + ` (action Atack): argument 1 is the string "left", not an integer`,
		place("Atack") + ` (action Atack): argument 2 is missing: the call has 2 arguments`,
	}
	if len(errs) != len(want) {
		t.Fatalf("errors %v, want %d", errs, len(want))
	}
	for i, e := range errs {
		var ae *bt.ArgError
		if !errors.As(e, &ae) || e.Error() != want[i] {
			t.Errorf("error %d: %v (%T), want %s", i, e, e, want[i])
		}
	}

	// The patrol, in a tree without the attack: the same text places it.
	fns.TypedConditions["IsEnemyNaer"] = func(bt.Args) bool { return false }
	if ag, err = fns.Agent(def); err != nil {
		t.Fatal(err)
	}
	if npc, err = bt.NewStepped(def, ag); err != nil {
		t.Fatal(err)
	}
	npc = npc.WithMemory(speed.Set(memory.Map{}, 4))
	errs, got = nil, nil
	if npc, err = npc.Step(); err != nil {
		t.Fatal(err)
	}
	// The first Walk writes speed 7 to the step's memory, where the
	// second Walk's $speed finds it.
	if want := []string{"Walk 3.5", "Walk 7"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the handlers read %v, want %v", got, want)
	}
	if n, _ := speed.Get(npc.Memory()); n != 7 {
		t.Errorf("the handler's write through Args.Blackboard: speed %d, want 7", n)
	}
	l, c := lineCol(t, npcText, "Walk, 3.5")
	wantWalk := fmt.Sprintf("npc.mdsl:%d:%d: node %d (action Walk): argument 0 is the number 3.5, not an integer", l, c, nodeOf(t, def, "Walk"))
	if len(errs) != 1 || errs[0].Error() != wantWalk {
		t.Errorf("errors %v, want [%s]", errs, wantWalk)
	}
}

// TestArgsConversions checks what each accessor takes, from the text and
// from properties of Go types.
func TestArgsConversions(t *testing.T) {
	def, err := mdsl.Parse("", []byte(`root { action [A, 2, -3.0, 2.5, "s", true, null, $i, $f32, $big, $u8] }`))
	if err != nil {
		t.Fatal(err)
	}
	props := map[string]any{"i": int16(-5), "f32": float32(1.5), "big": uint64(1) << 63, "u8": uint8(200)}
	var lines []string
	fns := bt.Functions{
		TypedActions: map[string]func(bt.Args) bt.Result{"A": func(a bt.Args) bt.Result {
			for i := range a.Len() + 1 {
				n, errI := a.Int(i)
				f, errF := a.Float(i)
				s, errS := a.String(i)
				b, errB := a.Bool(i)
				lines = append(lines, fmt.Sprintf("%d: %v %v | %v %v | %q %v | %v %v", i, n, errI == nil, f, errF == nil, s, errS == nil, b, errB == nil))
			}
			if v := a.Slice(); len(v) != a.Len() || v[6] != int16(-5) {
				lines = append(lines, fmt.Sprintf("Slice: %v", v))
			}
			return bt.ResultSuccess
		}},
		Property: func(name string) any { return props[name] },
	}
	ag, err := fns.Agent(def)
	if err != nil {
		t.Fatal(err)
	}
	npc, err := bt.NewStepped(def, ag)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := npc.Step(); err != nil {
		t.Fatal(err)
	}
	// What each argument should give: Int, Float, String, Bool; "-" for an error.
	want := [][4]string{
		{"2", "2", "-", "-"},
		{"-3", "-3", "-", "-"},
		{"-", "2.5", "-", "-"},
		{"-", "-", "s", "-"},
		{"-", "-", "-", "true"},
		{"-", "-", "-", "-"}, // null
		{"-5", "-5", "-", "-"},
		{"-", "1.5", "-", "-"},
		{"-", "9.223372036854776e+18", "-", "-"}, // 2^63 is past every int
		{"200", "200", "-", "-"},
		{"-", "-", "-", "-"}, // past the last
	}
	if len(lines) != len(want) {
		t.Fatalf("lines %q", lines)
	}
	for i, w := range want {
		var fields [4]string
		for j, part := range strings.Split(strings.SplitN(lines[i], ": ", 2)[1], " | ") {
			v, ok := strings.CutSuffix(part, " true") // the accessor gave no error
			fields[j] = "-"
			if ok {
				fields[j] = strings.Trim(v, `"`)
			}
		}
		if fields != w {
			t.Errorf("argument %d: %s, want %v", i, lines[i], w)
		}
	}
}

// TestFunctionsTypedAndPlain checks that a name may be in one form of its
// role only.
func TestFunctionsTypedAndPlain(t *testing.T) {
	def, err := mdsl.Parse("", []byte(`root { action [A] }`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = bt.Functions{
		Actions:      map[string]func([]any) bt.Result{"A": nil},
		TypedActions: map[string]func(bt.Args) bt.Result{"A": nil},
	}.Agent(def)
	if err == nil || !strings.Contains(err.Error(), `the action function "A" has both a typed form and a plain or memory one`) {
		t.Errorf("got %v", err)
	}
}
