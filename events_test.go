package behaviortree

import (
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/attr"
)

// TestEventStrings checks EventKind.String and Event.String.
func TestEventStrings(t *testing.T) {
	var kinds []string
	for k := range EventKind(9) {
		kinds = append(kinds, k.String())
	}
	if got, want := strings.Join(kinds, " "), "state action condition entry step exit reset memory EventKind(8)"; got != want {
		t.Errorf("kinds %s, want %s", got, want)
	}
	for _, c := range []struct {
		e    Event[string]
		want string
	}{
		{Event[string]{Kind: EventState, Node: 2, From: StateReady, To: StateRunning}, "node 2: READY -> RUNNING"},
		{Event[string]{Kind: EventAction, Node: 2, Value: "A", Result: ResultRunning}, "node 2: action A -> running"},
		{Event[string]{Kind: EventAction, Node: 2, Value: "A", Result: NewAsync().Result()}, "node 2: action A -> async"},
		{Event[string]{Kind: EventCondition, Node: 3, Value: "C"}, "node 3: condition C -> false"},
		{Event[string]{Kind: EventCondition, Node: 3, Value: "G", Holds: true, Guard: true}, "node 3: condition G -> true (guard)"},
		{Event[string]{Kind: EventEntry, Node: 1, Value: "E"}, "node 1: entry E"},
		{Event[string]{Kind: EventOnStep, Node: 1, Value: "S"}, "node 1: step S"},
		{Event[string]{Kind: EventExit, Node: 1, Value: "X", Aborted: true}, "node 1: exit X (succeeded false, aborted true)"},
		{Event[string]{Kind: EventMemory, Node: 2, Key: "hp", Old: 3, New: nil}, `node 2: memory "hp": 3 -> <nil>`},
		{Event[string]{Kind: EventReset}, "reset"},
		{Event[string]{Kind: EventKind(200), Node: 4}, "node 4: EventKind(200)"},
	} {
		if got := c.e.String(); got != c.want {
			t.Errorf("%#v.String() = %q, want %q", c.e, got, c.want)
		}
	}
}

// TestEventsNameTheirNode checks that every event of a step and of a reset
// carries the name NodeInfo gives its node, and that String says it.
func TestEventsNameTheirNode(t *testing.T) {
	def := Root(Sequence(Leaf("walk").With(attr.Entry("hello")), Wait[string](0), Condition("near")))
	ag := Agent[string]{
		Action:    func(string) Result { return ResultSuccess },
		Condition: func(string) bool { return true },
		Entry:     func(string) {},
	}
	st, err := NewStepped(def, ag)
	if err != nil {
		t.Fatal(err)
	}
	names := map[int]string{}
	for n := range st.Nodes() {
		names[n.ID] = n.Name
	}
	var events []Event[string]
	record := func(e Event[string]) { events = append(events, e) }
	if st, err = st.StepWith(record); err != nil {
		t.Fatal(err)
	}
	st.ResetWith(record)
	if len(events) < 8 {
		t.Fatalf("%d events", len(events))
	}
	for _, e := range events {
		want := names[e.Node]
		if e.Kind == EventReset {
			want = ""
		}
		if e.Name != want {
			t.Errorf("%v: Name %q, want %q", e, e.Name, want)
		}
	}
	if s := events[0].String(); s != "node 2 (walk): entry hello" {
		t.Errorf("first event %q", s)
	}
}
