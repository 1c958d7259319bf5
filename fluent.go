// FluentBehaviourTree's nodes and leaves, for the engine.
//
// Package fluent (fluent/) builds trees with FluentBehaviourTree's calls;
// this file holds what the engine needs to run them: the leaf type
// [Fluent], the inverter without a child and the error of a tick that
// reaches it ([EmptyInverter], [ErrEmptyInverter]), and the fast path of
// a memoryless tree of Fluent leaves (newFluent, machine.fluent), which
// package fluent reaches through InternalNewFluent (seam.go).
// The reactive kinds' constructors are with the other stepped kinds'
// (stepped_nodes.go; their rules live in stepped_rules.go: run's case for
// the sequences, reactiveParallel), and the pure evaluation of memoryless
// subtrees, which any stepped tree with reactive nodes uses, is in
// stepped_pure.go.

package behaviortree

import (
	"errors"
	"slices"

	"github.com/zipbt/behaviortree/kind"
)

// Fluent is the leaf value of a FluentBehaviourTree tree: its name, and the
// function its leaf calls: Do for an action leaf ([Leaf]), If for a
// condition leaf ([Condition]). Package fluent's Builder makes them; trees
// built by hand must set the function their kind calls.
//
// DoWith and IfWith, when not nil, are called instead of Do and If, with
// the step's [Blackboard], as an agent's memory forms are: through it the
// leaf reads and writes the version's memory and gets the tick's
// TimeData, and DoWith may return a pending [Async] result. Package
// fluent runs trees with such leaves with an agent of memory forms
// (fluent.MemoryAgent).
type Fluent struct {
	Name   string
	Do     func(td TimeData) Status
	If     func(td TimeData) bool
	DoWith func(b *Blackboard) Result
	IfWith func(b *Blackboard) bool
}

// usesMemory reports whether f's leaf calls DoWith or IfWith, and so
// needs the step's Blackboard.
func (f Fluent) usesMemory() bool { return f.DoWith != nil || f.IfWith != nil }

// String returns f's name.
func (f Fluent) String() string { return f.Name }

// newFluent returns a ready stepped tree for def, run by a, the agent of
// Fluent leaves (fluent.Agent: an action calls its Do function, a
// condition its If), or by ma, the agent of memory forms
// (fluent.MemoryAgent), when a leaf takes the Blackboard (DoWith,
// IfWith). It is fluent.New, through InternalNewFluent: when def has a
// memoryless subtree, and no leaf takes the Blackboard, the engine calls
// the leaves' own functions by node (machine.fluent, stepped_agent.go)
// rather than through a.
func newFluent(def Node[Fluent], a, ma Agent[Fluent], opts []Option) (Stepped[Fluent], error) {
	if def.n == nil {
		return NewStepped(def, a, opts...) // its error
	}
	p, err := steppedCompiled(def.n)
	if err != nil {
		return NewStepped(def, a, opts...) // its error
	}
	mem := slices.ContainsFunc(p.leaves, Fluent.usesMemory)
	if mem {
		a = ma
	}
	t, err := NewStepped(def, a, opts...)
	if err != nil {
		return t, err
	}
	if t.m.p.pure != nil && !mem {
		fl := &fluentFuncs{do: make([]func(TimeData) Status, len(t.m.p.leaves)), cond: make([]func(TimeData) bool, len(t.m.p.leaves))}
		for i, v := range t.m.p.leaves {
			fl.do[i], fl.cond[i] = v.Do, v.If
		}
		t.m.fluent = fl
	}
	return t, nil
}

// fluentFuncs are the functions of a Fluent tree's leaves, by node, which
// the engine's pure evaluation calls directly, as fluent.Agent would.
type fluentFuncs struct {
	do   []func(TimeData) Status
	cond []func(TimeData) bool
}

// EmptyInverter returns FluentBehaviourTree's Inverter without a child,
// which its builder accepts: updating it makes the step fail with
// [ErrEmptyInverter] (the version stepped stays as it was). An Inverter
// with its child is a [Negate].
func EmptyInverter[L any]() Node[L] {
	return mustBuild[L](kind.EmptyInverter, kind.Params{}, nil)
}

// ErrEmptyInverter is the error of a step that reaches an [EmptyInverter]:
// its text is the message of FluentBehaviourTree's ApplicationException,
// "InverterNode must have a child node!". Step's error wraps it.
var ErrEmptyInverter = errors.New("InverterNode must have a child node!")
