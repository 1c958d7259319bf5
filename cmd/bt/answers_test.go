package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stepAnswers splits bt run's output into steps and returns, per step,
// the answers its condition calls of name got ("true"/"false", in order).
func stepAnswers(out, name string) [][]string {
	var steps [][]string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "step ") {
			steps = append(steps, []string{})
			continue
		}
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "condition "+name+" -> "); ok && len(steps) > 0 {
			steps[len(steps)-1] = append(steps[len(steps)-1], rest)
		}
	}
	return steps
}

// TestRunConditionPerStep checks that bt run answers a condition once
// per step by default (every call of the step gets the first answer, and
// the list advances once per step), and at every call with -per-call.
func TestRunConditionPerStep(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "t.mdsl")
	scr := filepath.Join(dir, "s.json")
	// The guard C is checked before and after the action, each step.
	if err := os.WriteFile(tree, []byte("root { sequence while(C) { action [A] wait [0] } }"), 0o666); err != nil {
		t.Fatal(err)
	}
	answers := []string{"true", "false", "true", "true", "false"}
	if err := os.WriteFile(scr, []byte(`{"actions": {"A": ["running"]}, "conditions": {"C": [`+strings.Join(answers, ",")+`]}}`), 0o666); err != nil {
		t.Fatal(err)
	}
	runOut := func(args ...string) string {
		var out, errs bytes.Buffer
		if code := run(append([]string{"run", "-steps", "4", "-script", scr}, args...), &out, &errs); code != 0 {
			t.Fatalf("bt run %v: exit %d: %s", args, code, errs.String())
		}
		return out.String()
	}
	perStep := stepAnswers(runOut(tree), "C")
	if len(perStep) != 4 {
		t.Fatalf("got %d steps, want 4", len(perStep))
	}
	next := 0
	for i, got := range perStep {
		if len(got) == 0 {
			t.Fatalf("step %d: no call of C", i+1)
		}
		for _, a := range got {
			if a != answers[next%len(answers)] {
				t.Errorf("step %d: C answered %s, want the step's one answer %s (answers %v)", i+1, a, answers[next%len(answers)], got)
			}
		}
		next++
	}
	var calls []string
	for _, s := range stepAnswers(runOut("-per-call", tree), "C") {
		calls = append(calls, s...)
	}
	if len(calls) <= 4 {
		t.Fatalf("-per-call: %d calls of C in 4 steps, want the guard checked more than once a step", len(calls))
	}
	for i, a := range calls {
		if a != answers[i%len(answers)] {
			t.Errorf("-per-call: call %d of C answered %s, want %s", i+1, a, answers[i%len(answers)])
		}
	}
}

// TestRunStepsScript checks the per-step form of the script: step k
// takes entry k (cycling) for the names it gives, before the lists.
func TestRunStepsScript(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tree := write("t.mdsl", "root { sequence { condition [C] action [A] } }")
	steps := []struct {
		c bool
		a string
	}{{true, "failure"}, {false, ""}, {true, ""}} // "": from the list
	var entries []string
	for _, s := range steps {
		e := `{"conditions": {"C": ` + map[bool]string{true: "true", false: "false"}[s.c] + `}`
		if s.a != "" {
			e += `, "actions": {"A": "` + s.a + `"}`
		}
		entries = append(entries, e+"}")
	}
	scr := write("s.json", `{"actions": {"A": ["success"]}, "steps": [`+strings.Join(entries, ",")+`]}`)
	var out, errs bytes.Buffer
	if code := run([]string{"run", "-steps", "6", "-script", scr, tree}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	blocks := strings.Split(out.String(), "step ")[1:]
	if len(blocks) != 6 {
		t.Fatalf("got %d steps, want 6:\n%s", len(blocks), out.String())
	}
	for i, b := range blocks {
		s := steps[i%len(steps)]
		wantC := "condition C -> " + map[bool]string{true: "true", false: "false"}[s.c]
		if !strings.Contains(b, wantC) {
			t.Errorf("step %d: no %q in\n%s", i+1, wantC, b)
		}
		a := s.a
		if a == "" {
			a = "success"
		}
		wantA := "action A -> " + a
		if s.c != strings.Contains(b, wantA) {
			t.Errorf("step %d: %q present %v, want %v:\n%s", i+1, wantA, !s.c, s.c, b)
		}
	}

	for _, c := range []struct{ script, err string }{
		{`{"steps": [{"actions": {"A": "maybe"}}]}`, `steps[0]: action A: unknown result "maybe"`},
		{`{"steps": [{}, {"actions": {"B": "success"}}]}`, `action "B", which the tree does not call`},
		{`{"steps": [{"conditions": {"A": true}}]}`, `condition "A", which the tree does not call (A is an action)`},
		{`{"steps": [{"conditions": {"C": "yes"}}]}`, `cannot unmarshal`},
	} {
		var out, errs bytes.Buffer
		if code := run([]string{"run", "-script", write("bad.json", c.script), tree}, &out, &errs); code != 1 || !strings.Contains(errs.String(), c.err) {
			t.Errorf("script %s: exit %d, stderr %q; want 1 and %q", c.script, code, errs.String(), c.err)
		}
	}
}

// TestRunXMLSteps checks the per-step form of the script on a
// BehaviorTree.CPP file: tick k takes entry k, cycling.
func TestRunXMLSteps(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "t.xml")
	scr := filepath.Join(dir, "s.json")
	xml := `<root BTCPP_format="4" main_tree_to_execute="M"><BehaviorTree ID="M"><Sequence><IsOpen/><Walk/></Sequence></BehaviorTree>` +
		`<TreeNodesModel><Condition ID="IsOpen"/></TreeNodesModel></root>`
	if err := os.WriteFile(tree, []byte(xml), 0o666); err != nil {
		t.Fatal(err)
	}
	open := []bool{true, false}
	if err := os.WriteFile(scr, []byte(`{"steps": [{"conditions": {"IsOpen": true}, "actions": {"Walk": "failure"}}, {"conditions": {"IsOpen": false}}]}`), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if code := run([]string{"run", "-steps", "4", "-script", scr, tree}, &out, &errs); code != 0 {
		t.Fatalf("exit %d: %s", code, errs.String())
	}
	ticks := strings.Split(out.String(), "tick ")[1:]
	if len(ticks) != 4 {
		t.Fatalf("got %d ticks, want 4:\n%s", len(ticks), out.String())
	}
	for i, tk := range ticks {
		o := open[i%len(open)]
		want := map[bool]string{true: "-> success", false: "-> failure"}[o]
		if !strings.Contains(tk, "condition IsOpen") || !strings.Contains(tk, "IsOpen::2 "+want) {
			t.Errorf("tick %d: want IsOpen %s:\n%s", i+1, want, tk)
		}
		if walked := strings.Contains(tk, "action Walk"); walked != o {
			t.Errorf("tick %d: Walk called %v, want %v:\n%s", i+1, walked, o, tk)
		}
	}
}
