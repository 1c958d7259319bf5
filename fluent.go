// FluentBehaviourTree's nodes and leaves, for the engine.
//
// Package fluent (fluent/) builds trees with FluentBehaviourTree's calls;
// this file holds what the engine needs to run them: the leaf type
// [Fluent] and the [TimeData] of a tick, the reactive kinds' constructors
// (whose rules live in stepped.go: reactive, reactiveParallel), the error
// of a tick of an inverter without a child ([ErrEmptyInverter]), and the
// fast path of a memoryless tree of Fluent leaves (newFluent,
// machine.fluent), which package fluent reaches through internal/hook.
// The pure evaluation of memoryless subtrees is at the end.

package behaviortree

import (
	"errors"
	"slices"
	"time"

	"github.com/zipbt/behaviortree/internal/hook"
	"github.com/zipbt/behaviortree/kind"
)

// TimeData is what a tick passes to every leaf (FluentBehaviourTree's
// TimeData): DeltaTime, the time since the last tick. Nothing accumulates
// it: every leaf of one tick sees the same value. FluentBehaviourTree's
// deltaTime, a float of seconds, is DeltaTime.Seconds().
type TimeData struct {
	DeltaTime time.Duration
}

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

// Package fluent builds and runs trees of Fluent leaves through these.
func init() {
	// Of the types that hook's doc gives, and package fluent asserts.
	hook.NewFluent = (func(Node[Fluent], Agent[Fluent], Agent[Fluent], []Option) (Stepped[Fluent], error))(newFluent)
	hook.NameFluent = (func(Node[Fluent], string) Node[Fluent])(nameFresh[Fluent])
}

// newFluent returns a ready stepped tree for def, run by a, the agent of
// Fluent leaves (fluent.Agent: an action calls its Do function, a
// condition its If), or by ma, the agent of memory forms
// (fluent.MemoryAgent), when a leaf takes the Blackboard (DoWith,
// IfWith). It is fluent.New, through internal/hook: when def has a
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

// nameFresh gives n the name name in place: n must have just been built
// and be held by nothing else yet. Package fluent's builder names every
// node it builds with it, through internal/hook.
func nameFresh[L any](n Node[L], name string) Node[L] {
	n.n.name = name
	return n
}

// fluentFuncs are the functions of a Fluent tree's leaves, by node, which
// the engine's pure evaluation calls directly, as fluent.Agent would.
type fluentFuncs struct {
	do   []func(TimeData) Status
	cond []func(TimeData) bool
}

// ReactiveSequence returns a node that, at every update, updates its
// children from the first: it goes on while they succeed, and the first
// that fails or is running decides (a child that had completed is updated
// afresh; the children after the deciding one are aborted or reset). It
// succeeds when every child succeeds, and at once when it has no children.
// It is FluentBehaviourTree's Sequence, and keeps nothing between updates.
// It runs on the stepped engine only. It panics when a child is the zero
// Node.
func ReactiveSequence[L any](children ...Node[L]) Node[L] {
	return mustBuild(kind.ReactiveSequence, kind.Params{}, children)
}

// ReactiveSelect is [ReactiveSequence]'s mirror image (FluentBehaviourTree's
// Selector): it goes on while its children fail, the first that succeeds
// or is running decides, and it fails when every child fails, and at once
// when it has no children.
func ReactiveSelect[L any](children ...Node[L]) Node[L] {
	return mustBuild(kind.ReactiveSelect, kind.Params{}, children)
}

// ReactiveParallel returns FluentBehaviourTree's Parallel(failN,
// succeedN): at every update it updates all its children (a child that
// had completed afresh), then counts the successes and failures of this
// update only. It succeeds when succeedN > 0 children succeeded (checked
// first), fails when failN > 0 failed, and is running otherwise: a count of
// 0 or less switches that outcome off, and one above the number of
// children is never reached. Children still running are not stopped. It
// runs on the stepped engine only. It panics when a child is the zero
// Node.
func ReactiveParallel[L any](failN, succeedN int, children ...Node[L]) Node[L] {
	return mustBuild(kind.ReactiveParallel, kind.Params{Success: succeedN, Failure: failN}, children)
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

// The pure evaluation of memoryless subtrees. A subtree whose nodes are
// all reactive composites, Negate, AlwaysSucceed, AlwaysFail, actions,
// conditions or empty inverters, without guards or callbacks, keeps
// nothing between updates: updating it afresh gives what the engine's
// general rules (stepped.go: reactive, reactiveParallel) give. Without
// events and pending async results, the engine clears its states at once
// and evaluates it afresh (stepped_fresh.go), writing each node's state as
// it is decided.

// markPure sets p.pure for the roots of pure subtrees, if p has any
// reactive node.
func markPure[L any](p *sprogram[L]) {
	has := false
	for i := range p.nodes {
		k := p.nodes[i].kind
		has = has || k == kind.ReactiveSequence || k == kind.ReactiveSelect || k == kind.ReactiveParallel
	}
	if !has {
		return
	}
	p.pure = make([]bool, len(p.nodes))
	for i := len(p.nodes) - 1; i >= 0; i-- { // children come after their parent
		s := &p.nodes[i]
		ok := kinds[s.kind].pure && s.g < 0 && s.at == nil
		for _, c := range s.kids {
			ok = ok && p.pure[c]
		}
		p.pure[i] = ok
	}
}

// pureUpdate evaluates the pure subtree n afresh.
func (s *stepper[L]) pureUpdate(n int32) {
	s.clearSubtree(n)
	s.fresh(n)
}

// badStatus abandons the step: action n returned r, an invalid status.
//
//go:noinline
func (s *stepper[L]) badStatus(n int32, r Status) {
	s.fail(n, "action returned an invalid status %d", r)
}
