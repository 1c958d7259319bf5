package behaviortree

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/memory"
)

// keyTurns is a typed key of these tests.
var keyTurns = memory.NewKey[int]("memtest.turns")

// treeMemory holds values of a few types. Package memory's tests save a
// Map with a value of every type; memory_fuzz_test.go saves one in trees
// and stepped trees, in both forms.
func treeMemory() memory.Map {
	m := memory.Map{}.Set("target", []int{3, 4}).Set("name", "é").Set("none", nil)
	return keyTurns.Set(m.Set("seen", map[string]any{"ship": true, "at": 2.5}), 2)
}

func TestMemoryTree(t *testing.T) {
	def := Sequence(Leaf("aim"), Leaf("fire"))
	t0 := Start(def)
	if t0.Memory().Len() != 0 {
		t.Fatal("Start has memory")
	}
	t1 := t0.WithMemory(keyTurns.Set(t0.Memory(), 2)).Succeed()
	if n, _ := keyTurns.Get(t1.Memory()); n != 2 || t0.Memory().Len() != 0 {
		t.Fatalf("memory %v, start's %v", t1.Memory(), t0.Memory())
	}
	if t1.Value() != "fire" || t1.Fail().Memory() != t1.Memory() {
		t.Error("a signal does not keep the memory")
	}
	if t1.Equal(t1.WithMemory(memory.Map{})) || !t1.Equal(t1.WithMemory(keyTurns.Set(memory.Map{}, 2))) {
		t.Error("Equal does not compare memory by value")
	}
	full := t1.WithMemory(treeMemory())
	data, err := full.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if data[3] != 2 {
		t.Errorf("format version %d, want 2", data[3])
	}
	r, err := Restore(def, data)
	if err != nil || !r.Equal(full) {
		t.Fatalf("Restore: %v, equal %v", err, r.Equal(full))
	}
	js, err := full.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	rj, err := Restore(def, js)
	if err != nil || !rj.Equal(full) {
		t.Fatalf("Restore of the JSON form: %v", err)
	}
	var saved Saved[string]
	if err := saved.UnmarshalJSON(js); err != nil {
		t.Fatal(err)
	}
	if rs, err := saved.Restore(def); err != nil || !rs.Equal(full) {
		t.Fatalf("Saved: %v", err)
	}
	// Without memory the form is the one before memory existed.
	if b, _ := t1.WithMemory(memory.Map{}).MarshalBinary(); b[3] != 1 {
		t.Errorf("empty memory saves in format %d, want 1", b[3])
	}
	if _, err := t1.WithMemory(memory.Map{}.Set("f", func() {})).MarshalBinary(); err == nil || !strings.Contains(err.Error(), `cannot save key "f"`) {
		t.Errorf("unsaveable value: %v", err)
	}
	bad := slices.Clone(data)
	bad[len(bad)-1] ^= 0xff
	if _, err := Restore(def, bad); err == nil {
		t.Error("damaged memory restored")
	}
}

func TestMemoryHistory(t *testing.T) {
	h := NewHistory(Start(Sequence(Leaf("a"), Leaf("b"))))
	h = h.Push(h.Current().WithMemory(keyTurns.Set(memory.Map{}, 1)))
	h = h.Push(h.Current().WithMemory(keyTurns.Set(h.Current().Memory(), 2)).Succeed())
	h = h.Push(h.Current().Succeed())
	if n, _ := keyTurns.Get(h.Current().Memory()); n != 2 || h.Len() != 4 {
		t.Fatalf("memory %v, %d versions", h.Current().Memory(), h.Len())
	}
	u := h.Undo().Undo()
	if n, _ := keyTurns.Get(u.Current().Memory()); n != 1 || u.Current().Value() != "a" {
		t.Errorf("after two undos: %v at %v", u.Current().Memory(), u.Current().Value())
	}
	if r := u.Redo().Redo(); !r.Current().Equal(h.Current()) {
		t.Error("redo does not bring the memory back")
	}
}

// counterAgent is an agent for trees of string leaves that keeps a count
// of calls per leaf in memory and answers from it: a leaf "n:K" runs K
// times and then succeeds.
func counterAgent() Agent[string] {
	return Agent[string]{
		MemoryAction: func(v string, b *Blackboard) Result {
			n, _ := memory.NewKey[int](v).Get(b)
			memory.NewKey[int](v).Put(b, n+1)
			if want, err := strconv.Atoi(v[strings.IndexByte(v, ':')+1:]); err == nil && n+1 < want {
				return ResultRunning
			}
			b.Delete(v)
			return ResultSuccess
		},
		MemoryCondition: func(v string, b *Blackboard) bool {
			_, ok := b.Get(v)
			return !ok
		},
	}
}

func TestMemoryStepped(t *testing.T) {
	def := Sequence(Leaf("attack:3"), Leaf("rest:1"))
	s0, err := NewStepped(def, counterAgent())
	if err != nil {
		t.Fatal(err)
	}
	var versions []Stepped[string]
	s := s0
	for range 4 {
		versions = append(versions, s)
		if s, err = s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"{}", "{attack:3: 1}", "{attack:3: 2}", "{}"}
	for i, v := range versions {
		if got := v.Memory().String(); got != want[i] {
			t.Errorf("version %d: memory %s, want %s", i, got, want[i])
		}
	}
	// Undo into the middle of the attack and step again: the memory comes back with the tree.
	h := NewHistory(s0)
	step := func() {
		next, err := h.Current().Step()
		if err != nil {
			t.Fatal(err)
		}
		h = h.Push(next)
	}
	step()
	step()
	h = h.Undo()
	step()
	step()
	if h.Current().NodeState(1) != StateSucceeded {
		t.Errorf("after undo, the attack ran %v: memory %s", h.Current().NodeState(1), h.Current().Memory())
	}
	// Events: the writes, in order, before the action's event.
	var log []string
	if _, err := versions[1].StepWith(func(e Event[string]) {
		switch e.Kind {
		case EventMemory:
			log = append(log, fmt.Sprintf("mem %d %s %v→%v", e.Node, e.Key, e.Old, e.New))
		case EventAction:
			log = append(log, fmt.Sprintf("action %d %v", e.Node, e.Result.Status))
		}
	}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(log, "; "); got != "mem 2 attack:3 1→2; action 2 running" {
		t.Errorf("events: %s", got)
	}
	// Save and restore.
	data, err := versions[2].MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	r, err := s0.Restore(data)
	if err != nil || r.Memory().String() != versions[2].Memory().String() {
		t.Fatalf("Restore: %v, memory %s", err, r.Memory())
	}
	js, _ := versions[2].MarshalJSON()
	if rj, err := s0.Restore(js); err != nil || !rj.Memory().Equal(versions[2].Memory()) {
		t.Fatalf("Restore of the JSON form: %v", err)
	}
	if _, err := s0.Restore(data[:len(data)-1]); err == nil {
		t.Error("truncated memory restored")
	}
}

func TestMemoryFailedStepKeepsNothing(t *testing.T) {
	def := Sequence(Leaf("write"), Leaf("boom"))
	s, err := NewStepped(def, Agent[string]{MemoryAction: func(v string, b *Blackboard) Result {
		b.Set(v, true)
		if v == "boom" {
			panic("boom")
		}
		return ResultSuccess
	}})
	if err != nil {
		t.Fatal(err)
	}
	s = s.WithMemory(memory.Map{}.Set("kept", 1))
	next, err := s.Step()
	var pe *PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("err %v", err)
	}
	if next.Memory().String() != "{kept: 1}" || s.Memory().String() != "{kept: 1}" {
		t.Errorf("after a failed step: %s, %s", next.Memory(), s.Memory())
	}
}

func TestMemoryFunctionsProperty(t *testing.T) {
	def, err := parseMDSL("test.mdsl", []byte(`root { sequence { action [Walk, $speed] action [Count] } }`))
	if err != nil {
		t.Fatal(err)
	}
	var speeds []any
	fns := Functions{
		Actions: map[string]func([]any) Result{"Walk": func(args []any) Result { speeds = append(speeds, args[0]); return ResultSuccess }},
		MemoryActions: map[string]func(*Blackboard, []any) Result{"Count": func(b *Blackboard, _ []any) Result {
			n, _ := b.Get("speed")
			f, _ := n.(float64)
			b.Set("speed", f+1)
			return ResultSuccess
		}},
		Property: func(name string) any { return "from Property" },
	}
	agent, err := fns.Agent(def)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := NewStepped(def, agent)
	s, _ = s.Step() // speed absent: Property; then Count sets it to 1
	s, _ = s.Step() // memory first
	if !reflect.DeepEqual(speeds, []any{"from Property", 1.0}) || s.Memory().String() != "{speed: 2}" {
		t.Errorf("arguments %v, memory %s", speeds, s.Memory())
	}
	fns.Actions["Count"] = fns.Actions["Walk"]
	if _, err := fns.Agent(def); err == nil || !strings.Contains(err.Error(), `"Count" has both a plain and a memory form`) {
		t.Errorf("a name in both maps: %v", err)
	}
}

func TestMemoryAgentUnchanged(t *testing.T) {
	// An agent without memory forms steps as before, and keeps the memory it was given.
	s, err := NewStepped(Sequence(Leaf("a")), Agent[string]{Action: func(string) Result { return ResultSuccess }})
	if err != nil {
		t.Fatal(err)
	}
	m := memory.Map{}.Set("x", 1)
	n, err := s.WithMemory(m).Step()
	if err != nil || n.Memory() != m || n.State() != StateSucceeded {
		t.Errorf("state %v, memory %v, %v", n.State(), n.Memory(), err)
	}
	if r := n.Reset(); r.Memory() != m {
		t.Error("Reset dropped the memory")
	}
}

func TestMemoryStepCacheAgrees(t *testing.T) {
	// Small trees take the step cache on Step and the rules on StepWith:
	// with an agent whose answers depend on its memory, both must make the
	// same versions.
	def := Root(Select(
		Sequence(Leaf(0), Leaf(1)).With(attr.While(2), attr.Entry(3), attr.Exit(4)),
		Sequence(Condition(5), Leaf(6)),
		Leaf(7)))
	agent := Agent[int]{
		MemoryAction: func(v int, b *Blackboard) Result {
			n, _ := memory.NewKey[int]("n").Get(b)
			memory.NewKey[int]("n").Put(b, n+v+1)
			return [...]Result{ResultSuccess, ResultFailure, ResultRunning}[(n*7+v)%3]
		},
		MemoryCondition: func(v int, b *Blackboard) bool {
			n, _ := memory.NewKey[int]("n").Get(b)
			return (n+v)%4 != 0
		},
		MemoryEntry: func(v int, b *Blackboard) { b.Set("entered", v) },
		MemoryExit: func(v int, b *Blackboard, succeeded, aborted bool) {
			b.Set("exit", fmt.Sprint(succeeded, aborted))
		},
	}
	a, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	b := a
	for i := range 500 {
		if a, err = a.Step(); err != nil {
			t.Fatal(err)
		}
		if b, err = b.StepWith(func(Event[int]) {}); err != nil {
			t.Fatal(err)
		}
		ab, _ := a.MarshalBinary()
		bb, _ := b.MarshalBinary()
		if string(ab) != string(bb) {
			t.Fatalf("step %d: Step made %s %v, StepWith %s %v", i, a.Memory(), a.State(), b.Memory(), b.State())
		}
	}
}

func TestMemoryEqualNaN(t *testing.T) {
	def := Leaf("x")
	a := Start(def).WithMemory(memory.Map{}.Set("f", math.NaN()).Set("s", []float32{float32(math.NaN())}))
	data, err := a.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	b, err := Restore(def, data)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Equal(b) || a.Equal(b.WithMemory(b.Memory().Set("f", 1.0))) {
		t.Error("Equal does not take a NaN to equal itself, or takes 1 to equal NaN")
	}
}
