package behaviortree

// This file chooses the agent's function for each call the engine makes:
// the only place where an action, a condition (or guard) or a callback
// picks among the agent's forms. The rule: the memory form when the agent
// has one, else the timed form (actions and conditions), else the plain
// one; the leaves of a Fluent tree (newFluent) call their own functions,
// by node. Every path of the engine (the rules, fresh evaluation, the step
// cache and its replays) calls through here, except for two fast cases
// that this rule decides once for the whole tree: machine.act and
// machine.cond (plainForms), when the plain functions are what every
// action or condition calls, and machine.fluent, a Fluent tree's table of
// leaf functions (the hot loops test these two before calling here).

// plainForms returns the agent's Action and Condition when this rule
// picks them for every node, and nil for each when it does not: the fast
// paths call them directly.
func (m *machine[L]) plainForms() (func(L) Result, func(L) bool) {
	a := &m.agent
	act, cond := a.Action, a.Condition
	if m.fluent != nil || a.MemoryAction != nil || a.TimedAction != nil {
		act = nil
	}
	if m.fluent != nil || a.MemoryCondition != nil || a.TimedCondition != nil {
		cond = nil
	}
	return act, cond
}

// action calls the function of action node n, whose value is v.
func (m *machine[L]) action(n int32, v L, bb *Blackboard, td TimeData) Result {
	a := &m.agent
	switch {
	case m.fluent != nil:
		return Result{Status: m.fluent.do[n](td)}
	case a.MemoryAction != nil:
		return a.MemoryAction(v, bb)
	case a.TimedAction != nil:
		return a.TimedAction(v, td)
	}
	return a.Action(v)
}

// condition calls the function of condition node n, or (guard) of a
// guard on n, whose value is v.
func (m *machine[L]) condition(n int32, guard bool, v L, bb *Blackboard, td TimeData) bool {
	a := &m.agent
	switch {
	case m.fluent != nil && !guard:
		return m.fluent.cond[n](td)
	case a.MemoryCondition != nil:
		return a.MemoryCondition(v, bb)
	case a.TimedCondition != nil:
		return a.TimedCondition(v, td)
	}
	return a.Condition(v)
}

// callback calls an entry, step or exit callback (call) whose value is v;
// succeeded and aborted are an exit's arguments.
func (m *machine[L]) callback(call agentFunc, v L, bb *Blackboard, succeeded, aborted bool) {
	a := &m.agent
	switch {
	case call == fnEntry && a.MemoryEntry != nil:
		a.MemoryEntry(v, bb)
	case call == fnEntry:
		a.Entry(v)
	case call == fnStep && a.MemoryOnStep != nil:
		a.MemoryOnStep(v, bb)
	case call == fnStep:
		a.OnStep(v)
	case a.MemoryExit != nil:
		a.MemoryExit(v, bb, succeeded, aborted)
	default:
		a.Exit(v, succeeded, aborted)
	}
}
