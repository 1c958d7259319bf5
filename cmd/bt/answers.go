package main

import (
	"maps"
	"slices"
)

// scriptStep is one step of a script's per-step form: the result of each
// action it names and the answer of each condition it names, for every
// call of that name in the step.
type scriptStep struct {
	Actions    map[string]string `json:"actions"`
	Conditions map[string]bool   `json:"conditions"`
}

// agentAnswers gives the answers of bt run's scripted agent, step by
// step. A name's answer comes from the step's entry in the script's
// steps (step k takes entry k, cycling), else from the name's per-call
// list (each call takes the next, cycling; the count is per name, of
// actions and conditions alike), else it is the default: actions
// succeed, conditions hold.
//
// Unless perCall, a condition is answered once per step: its first call
// in the step takes an answer, and its later calls in the same step (a
// guard checked again, a condition under a reactive node) reuse it, as a
// person answering by hand expects. A condition is its call as written:
// the name with its arguments (a BehaviorTree.CPP leaf: its ID with the
// values of its input ports), so that C(1) and C(2) are two questions. With perCall every call takes an
// answer, as Mistreevous calls the agent.
type agentAnswers struct {
	sc      *script
	perCall bool
	step    int             // the step under way, from 0
	counts  map[string]int  // the calls of each name that took a per-call answer
	held    map[string]bool // the conditions answered in the step under way, by call
}

func newAgentAnswers(sc *script, perCall bool) *agentAnswers {
	if sc == nil {
		sc = &script{}
	}
	return &agentAnswers{sc: sc, perCall: perCall, counts: map[string]int{}, held: map[string]bool{}}
}

// begin starts step k (from 0).
func (a *agentAnswers) begin(k int) {
	a.step = k
	clear(a.held)
}

// entry returns the script's entry for the step under way, if any.
func (a *agentAnswers) entry() *scriptStep {
	if len(a.sc.Steps) == 0 {
		return nil
	}
	return &a.sc.Steps[a.step%len(a.sc.Steps)]
}

// action returns the result of a call of the action name: "success",
// "failure" or "running".
func (a *agentAnswers) action(name string) string {
	if e := a.entry(); e != nil {
		if r, ok := e.Actions[name]; ok {
			return r
		}
	}
	list := a.sc.Actions[name]
	if len(list) == 0 {
		return "success"
	}
	k := a.counts[name]
	a.counts[name]++
	return list[k%len(list)]
}

// condition returns the answer to a call of the condition name, written
// call (its name and arguments).
func (a *agentAnswers) condition(name, call string) bool {
	if v, ok := a.held[call]; ok && !a.perCall {
		return v
	}
	v := true
	if e := a.entry(); e != nil && hasKey(e.Conditions, name) {
		v = e.Conditions[name]
	} else if list := a.sc.Conditions[name]; len(list) > 0 {
		v = list[a.counts[name]%len(list)]
		a.counts[name]++
	}
	a.held[call] = v
	return v
}

func hasKey[V any](m map[string]V, k string) bool {
	_, ok := m[k]
	return ok
}

// actionNames returns the names the script gives results for, in its
// per-call lists or in any of its steps, sorted.
func (sc *script) actionNames() []string {
	set := maps.Clone(sc.Actions)
	if set == nil {
		set = map[string][]string{}
	}
	for _, st := range sc.Steps {
		for n := range st.Actions {
			set[n] = nil
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// conditionNames returns the names the script gives answers for, in its
// per-call lists or in any of its steps, sorted.
func (sc *script) conditionNames() []string {
	set := maps.Clone(sc.Conditions)
	if set == nil {
		set = map[string][]bool{}
	}
	for _, st := range sc.Steps {
		for n := range st.Conditions {
			set[n] = nil
		}
	}
	return slices.Sorted(maps.Keys(set))
}
