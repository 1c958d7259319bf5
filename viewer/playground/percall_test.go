package playground

import (
	"fmt"
	"testing"
)

// guarded is a tree whose guard C is checked more than once a step.
const guarded = "root { sequence while(C) { action [A] wait [0] } }"

// askCount steps once, answering every question (conditions hold,
// actions succeed), and returns how many times each name was asked and
// the state after the step.
func (c *client) askCount() (map[string]int, stateJSON) {
	c.t.Helper()
	asked := map[string]int{}
	st := c.post("/api/step", "")
	for n := 0; st.Ask != nil; n++ {
		if n > 20 {
			c.t.Fatal("more than 20 questions in a step")
		}
		asked[st.Ask.Name]++
		v := "success"
		if st.Ask.Kind == "condition" {
			v = "true"
		}
		st = c.post("/api/answer", fmt.Sprintf(`{"value":%q}`, v))
	}
	return asked, st
}

// TestPerStepQuestions checks that the page asks a condition once per
// step by default, and at each call once switched to per call (by the
// page, or by Config.PerCall), a step keeping the setting it started
// with.
func TestPerStepQuestions(t *testing.T) {
	c := newClient(t, guarded, Config{})
	if c.state().PerCall {
		t.Fatal("perCall is on by default")
	}
	asked, st := c.askCount()
	if asked["C"] != 1 || asked["A"] != 1 {
		t.Fatalf("per step: asked %v, want C and A once", asked)
	}
	guardCalls := 0
	for _, a := range st.Version.Answers {
		if a.Name == "C" {
			guardCalls++
		}
	}
	if guardCalls != 1 {
		t.Errorf("the version records %d answers of C, want 1: %v", guardCalls, st.Version.Answers)
	}

	if st := c.post("/api/percall", `{"on":true}`); !st.PerCall {
		t.Fatal("the switch did not turn per call on")
	}
	c.post("/api/undo", "")
	asked, _ = c.askCount()
	if asked["C"] < 2 {
		t.Fatalf("per call: asked %v, want C more than once", asked)
	}

	pc := newClient(t, guarded, Config{PerCall: true})
	if !pc.state().PerCall {
		t.Fatal("Config.PerCall does not show in the state")
	}
	if asked, _ := pc.askCount(); asked["C"] < 2 {
		t.Fatalf("Config.PerCall: asked %v, want C more than once", asked)
	}

	// A step started per step keeps its setting when the switch changes.
	k := newClient(t, guarded, Config{})
	st = k.post("/api/step", "")
	if st.Ask == nil || st.Ask.Name != "C" {
		t.Fatalf("first question %+v, want C", st.Ask)
	}
	k.post("/api/percall", `{"on":true}`)
	st = k.post("/api/answer", `{"value":"true"}`)
	st = k.post("/api/answer", `{"value":"success"}`)
	if st.Ask != nil {
		t.Errorf("the step asked %s %s again after the switch", st.Ask.Call, st.Ask.Text)
	}
}

// TestScriptSteps checks the per-step form of a Script: step k takes
// entry k (cycling) before the lists, and answers from it do not count
// as calls of the lists.
func TestScriptSteps(t *testing.T) {
	sc := &Script{
		Actions: map[string][]string{"A": {"running", "success"}},
		Steps: []ScriptStep{
			{Conditions: map[string]bool{"C": true}, Actions: map[string]string{"A": "failure"}},
			{Conditions: map[string]bool{"C": true}},
		},
	}
	c := newClient(t, guarded, Config{Script: sc})
	var got [][]answer
	for range 4 {
		st := c.post("/api/step", "")
		if st.Ask != nil {
			t.Fatalf("asked %s %s: the script answers every name", st.Ask.Call, st.Ask.Text)
		}
		got = append(got, st.Version.Answers)
	}
	// Steps 1 and 3 take entry 0 (A fails); steps 2 and 4 entry 1, A from
	// its list, whose count only those steps advance.
	list := 0
	for i, answers := range got {
		want := "failure"
		if i%2 == 1 {
			want = sc.Actions["A"][list%len(sc.Actions["A"])]
			list++
		}
		found := false
		for _, a := range answers {
			if a.Name == "A" {
				found = true
				if a.Value != want {
					t.Errorf("step %d: A answered %s, want %s", i+1, a.Value, want)
				}
			}
			if a.Name == "C" && a.Value != "true" {
				t.Errorf("step %d: C answered %s, want true", i+1, a.Value)
			}
		}
		if !found {
			t.Errorf("step %d: no answer of A in %v", i+1, answers)
		}
	}

	bad := &Script{Steps: []ScriptStep{{Actions: map[string]string{"A": "maybe"}}}}
	if _, err := New(Config{File: c.s.cfg.File, Addr: "127.0.0.1:1", Parse: parseAny, Poll: -1, Script: bad}); err == nil {
		t.Error("a step with an unknown result: no error")
	}
}
