package behaviortree

import (
	"errors"
	"fmt"
	"github.com/zipbt/behaviortree/attr"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestMemoryPersistent(t *testing.T) {
	var m Memory
	if m.Len() != 0 {
		t.Fatal("zero Memory not empty")
	}
	if _, ok := m.Get("x"); ok {
		t.Fatal("zero Memory has x")
	}
	model := map[string]any{}
	var versions []Memory
	var models []map[string]any
	for i := range 200 {
		k := "k" + strconv.Itoa(i*7%23)
		if i%5 == 4 {
			m = m.Delete(k)
			delete(model, k)
		} else {
			m = m.Set(k, i)
			model[k] = i
		}
		versions = append(versions, m)
		c := map[string]any{}
		for k, v := range model {
			c[k] = v
		}
		models = append(models, c)
	}
	for i, v := range versions {
		checkMemoryModel(t, fmt.Sprint("version ", i), v, models[i])
	}
	if d := m.Delete("absent"); d != m {
		t.Error("Delete of an absent key did not return the receiver")
	}
	if (Memory{}).Set("only", 1).Delete("only") != (Memory{}) {
		t.Error("deleting the last key does not give the empty Memory")
	}
}

// checkMemoryModel checks m against model: Len, Get and All in key order.
func checkMemoryModel(t *testing.T, what string, m Memory, model map[string]any) {
	t.Helper()
	if m.Len() != len(model) {
		t.Errorf("%s: Len %d, want %d", what, m.Len(), len(model))
	}
	keys := make([]string, 0, len(model))
	for k, v := range model {
		keys = append(keys, k)
		if got, ok := m.Get(k); !ok || got != v {
			t.Errorf("%s: Get(%q) = %v, %v, want %v", what, k, got, ok, v)
		}
	}
	slices.Sort(keys)
	var got []string
	for k := range m.All() {
		got = append(got, k)
	}
	if !slices.Equal(got, keys) {
		t.Errorf("%s: All keys %v, want %v", what, got, keys)
	}
}

type gridCell struct{ X, Y int }

func (c gridCell) MarshalText() ([]byte, error) { return fmt.Appendf(nil, "%d,%d", c.X, c.Y), nil }
func (c *gridCell) UnmarshalText(b []byte) error {
	_, err := fmt.Sscanf(string(b), "%d,%d", &c.X, &c.Y)
	return err
}

type stamp uint32

func (s stamp) MarshalBinary() ([]byte, error) { return []byte{byte(s), byte(s >> 8)}, nil }
func (s *stamp) UnmarshalBinary(b []byte) error {
	if len(b) != 2 {
		return errors.New("want 2 bytes")
	}
	*s = stamp(b[0]) | stamp(b[1])<<8
	return nil
}

var (
	keyTarget = NewKey[gridCell]("memtest.target")
	keyStamp  = NewKey[stamp]("memtest.stamp")
	keyTurns  = NewKey[int]("memtest.turns")
)

func TestMemoryKey(t *testing.T) {
	m := keyTurns.Set(Memory{}, 3)
	if n, ok := keyTurns.Get(m); !ok || n != 3 {
		t.Errorf("Get = %v, %v", n, ok)
	}
	m = m.Set(keyTurns.Name(), "three")
	if n, ok := keyTurns.Get(m); ok || n != 0 {
		t.Errorf("Get of a string under an int key = %v, %v, want 0, false", n, ok)
	}
	defer func() {
		r := recover()
		if s, _ := r.(string); !strings.Contains(s, `behaviortree.NewKey: key "memtest.target" is already registered with type behaviortree.gridCell, not behaviortree.stamp`) {
			t.Errorf("panic %v", r)
		}
	}()
	NewKey[gridCell]("memtest.target") // the same type again is fine
	NewKey[stamp]("memtest.target")
}

// everyValue holds a value of every type a memory saves.
func everyValue() Memory {
	var m Memory
	for k, v := range map[string]any{
		"nil": nil, "false": false, "true": true,
		"int": -7, "int8": int8(-8), "int16": int16(-16), "int32": int32(-32), "int64": int64(math.MinInt64),
		"uint": uint(7), "uint8": uint8(255), "uint16": uint16(16), "uint32": uint32(32), "uint64": uint64(math.MaxUint64), "uintptr": uintptr(9),
		"float32": float32(1.5), "float64": -math.MaxFloat64, "inf": math.Inf(-1),
		"string": "é\x00", "bytes": []byte{0, 1}, "nilbytes": []byte(nil), "emptybytes": []byte{},
		"duration": 90 * time.Second,
		"ints":     []int{1, -2}, "nilints": []int(nil), "emptyints": []int{},
		"nested": [][]string{{"a"}, nil, {}},
		"anys":   []any{1, "two", nil, []float64{3}, map[string]any{"x": true}},
		"map":    map[string]int{"b": 2, "a": 1}, "nilmap": map[string]bool(nil),
		"mapany": map[string]any{"z": nil, "y": []byte("y")},
	} {
		m = m.Set(k, v)
	}
	m = keyTarget.Set(m, gridCell{3, 4})
	return keyStamp.Set(m, 0x1234)
}

func TestMemorySaveEveryType(t *testing.T) {
	m := everyValue()
	b, err := appendMemory(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	got, rest, err := readMemory(b, 0)
	if err != nil || len(rest) != 0 {
		t.Fatalf("readMemory: %v, %d bytes left", err, len(rest))
	}
	if got.Len() != m.Len() {
		t.Fatalf("%d keys, want %d", got.Len(), m.Len())
	}
	for k, v := range m.All() {
		g, _ := got.Get(k)
		if !reflect.DeepEqual(g, v) || reflect.TypeOf(g) != reflect.TypeOf(v) {
			t.Errorf("%s: got %#v (%T), want %#v (%T)", k, g, g, v, v)
		}
	}
	b2, _ := appendMemory(nil, got)
	if string(b2) != string(b) {
		t.Error("the restored memory saves to other bytes")
	}
}

func TestMemorySaveErrors(t *testing.T) {
	type named int
	for _, c := range []struct {
		v    any
		typ  string
		want string
	}{
		{named(1), "behaviortree.named", "has no saved form"},
		{[]named{1}, "[]behaviortree.named", "has no saved form"},
		{map[int]int{1: 1}, "map[int]int", "has no saved form"},
		{struct{}{}, "struct {}", "has no saved form"},
		{&gridCell{}, "*behaviortree.gridCell", "has no saved form"},
		{gridCell{}, "behaviortree.gridCell", "has no saved form"}, // a marshaler, but not registered for this key
		{[]any{func() {}}, "[]interface {}", "has no saved form"},
	} {
		_, err := appendMemory(nil, Memory{}.Set("bad", c.v))
		var me *MemoryError
		if !errors.As(err, &me) || me.Key != "bad" || me.Type != c.typ || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%T: got %v", c.v, err)
		}
	}
}

func TestMemoryRestoreDamaged(t *testing.T) {
	good, err := appendMemory(nil, everyValue())
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(good) {
		if _, _, err := readMemory(good[:n], 0); err == nil {
			t.Errorf("truncated to %d bytes: no error", n)
		}
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"huge count", []byte{0xff, 0xff, 0xff, 0xff, 0x0f}, "key count 4294967295: more than the 0 bytes left"},
		{"keys out of order", []byte{2, 1, 'b', byte(tNil), 1, 'a', byte(tNil)}, `key "a" is not after key "b"`},
		{"bad tag", []byte{1, 1, 'k', 99}, `memory key "k", byte 3: unknown type tag 99`},
		{"bad bool", []byte{1, 1, 'k', byte(tBool), 2}, "bool byte 2"},
		{"int8 overflow", []byte{1, 1, 'k', byte(tInt8), 0x80, 0x04}, "256 overflows int8"},
		{"huge slice", []byte{1, 1, 'k', byte(tSlice), byte(tInt), 0xff, 0xff, 0x7f}, "more than the 0 bytes left"},
		{"unregistered", []byte{1, 1, 'k', byte(tText), 1, 'x'}, "no type is registered"},
		{"deep", append([]byte{1, 1, 'k'}, slices.Repeat([]byte{byte(tSlice)}, 100)...), "nested deeper than 64"},
		{"bad text", append([]byte{1, byte(len(keyTarget.Name()))}, append([]byte(keyTarget.Name()), byte(tText), 1, 'x')...), "expected integer"},
	} {
		_, _, err := readMemory(c.data, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
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
	if t1.Equal(t1.WithMemory(Memory{})) || !t1.Equal(t1.WithMemory(keyTurns.Set(Memory{}, 2))) {
		t.Error("Equal does not compare memory by value")
	}
	full := t1.WithMemory(everyValue())
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
	if b, _ := t1.WithMemory(Memory{}).MarshalBinary(); b[3] != 1 {
		t.Errorf("empty memory saves in format %d, want 1", b[3])
	}
	if _, err := t1.WithMemory(Memory{}.Set("f", func() {})).MarshalBinary(); err == nil || !strings.Contains(err.Error(), `memory key "f"`) {
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
	h = h.Push(h.Current().WithMemory(keyTurns.Set(Memory{}, 1)))
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
			n, _ := NewKey[int](v).Get(b)
			NewKey[int](v).Put(b, n+1)
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
	if rj, err := s0.Restore(js); err != nil || !rj.Memory().equal(versions[2].Memory()) {
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
	s = s.WithMemory(Memory{}.Set("kept", 1))
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
	m := Memory{}.Set("x", 1)
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
			n, _ := NewKey[int]("n").Get(b)
			NewKey[int]("n").Put(b, n+v+1)
			return [...]Result{ResultSuccess, ResultFailure, ResultRunning}[(n*7+v)%3]
		},
		MemoryCondition: func(v int, b *Blackboard) bool {
			n, _ := NewKey[int]("n").Get(b)
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
	a := Start(def).WithMemory(Memory{}.Set("f", math.NaN()).Set("s", []float32{float32(math.NaN())}))
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
