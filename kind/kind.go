// Package kind names the kinds of node of a behavior tree, and the
// parameters a node has besides its kind and children. It is to package
// behaviortree what go/token is to go/ast:
// [github.com/zipbt/behaviortree.Node.Kind] returns a [Kind],
// [github.com/zipbt/behaviortree.Node.Params] returns [Params], and
// [github.com/zipbt/behaviortree.Build] makes a node from both.
//
// Most users never need it: the constructors (Sequence, Repeat, Wait, ...)
// take their parameters directly. Code that walks a definition (a
// renderer, an exporter, a custom node's traversal) switches on a node's
// Kind.
//
// Package kind also holds the facts of each kind that do not depend on
// how a tree runs, as go/token's Token does for tokens: how many children
// it takes ([Kind.Arity]), which parameter ([Kind.Param]), its names in
// the text formats ([Kind.MDSL], [Kind.Mistreevous]), whether a node of
// it carries a value ([Kind.Carries]), and which driving styles run it
// ([Kind.RunsOn]). What each kind does is in the documentation of its
// constructor in package behaviortree and in the README's vocabulary
// table.
//
// It holds the public facts of BehaviorTree.CPP's built-in node types
// too, which package btcpp runs: [CPP] and its constants ([CPPSequence],
// [CPPSubTree] ...), found by ID with [CPPByID], each with its
// [CPP.Category], [CPP.MinChildren], [CPP.Ports] and the kind whose shape
// it takes in pictures ([CPP.Draw]).
package kind

import "fmt"

// Kind says what a node is. Its String form is the node's type name in the
// Elixir library and in the Elixir JSON form ("select",
// "repeat_until_fail", ...).
type Kind uint8

// The kinds of node. Custom is a user's node built with
// behaviortree.CustomNode.
const (
	Leaf Kind = iota
	Select
	Sequence
	RepeatUntilFail
	RepeatUntilSucceed
	RepeatN
	Random
	RandomWeighted
	AlwaysSucceed
	AlwaysFail
	Negate
	Custom
	// The kinds below run only on the stepped engine
	// (behaviortree.NewStepped); they have no Elixir JSON form and
	// behaviortree.Start refuses them.
	Root      // Mistreevous's root, made by behaviortree.Root
	Condition // a leaf asking a question, made by behaviortree.Condition
	Wait      // a leaf that waits, made by behaviortree.Wait, WaitRange and WaitForever
	Parallel  // made by behaviortree.Parallel
	Race      // made by behaviortree.Race
	All       // made by behaviortree.All
	Lotto     // made by behaviortree.Lotto
	Repeat    // made by behaviortree.Repeat, RepeatCount and RepeatRange
	Retry     // made by behaviortree.Retry, RetryCount and RetryRange
	// Threshold runs all its children at once in the Value/Succeed/Fail
	// style (behaviortree.Threshold); so do Parallel and Race there, as
	// its presets.
	Threshold
	// The kinds below are FluentBehaviourTree's nodes, which keep nothing
	// between steps. They run only on the stepped engine and take any
	// number of children, none included.
	ReactiveSequence // Fluent's Sequence
	ReactiveSelect   // Fluent's Selector
	ReactiveParallel // Fluent's Parallel(fail, succeed)
	EmptyInverter    // Fluent's Inverter without a child
	numKinds
)

// table holds the facts of every kind, indexed by Kind: the one place
// they are written. Package behaviortree's table of kinds reads them, and
// so do the text formats, the generators of package proptest and the bt
// command.
var table = [numKinds]facts{
	Leaf:               {name: "leaf", arity: NoChildren, carries: true, mdsl: "action", mistreevous: "action", runs: both},
	Select:             {name: "select", arity: SomeChildren, mdsl: "selector", mistreevous: "selector", runs: both},
	Sequence:           {name: "sequence", arity: SomeChildren, mdsl: "sequence", mistreevous: "sequence", runs: both},
	RepeatUntilFail:    {name: "repeat_until_fail", arity: OneChild, mdsl: "repeat_until_fail", runs: vsf},
	RepeatUntilSucceed: {name: "repeat_until_succeed", arity: OneChild, mdsl: "repeat_until_succeed", runs: vsf},
	RepeatN:            {name: "repeat_n", arity: OneChild, param: ParamN, mdsl: "repeat_n", runs: vsf},
	Random:             {name: "random", arity: SomeChildren, mdsl: "random", runs: vsf},
	RandomWeighted:     {name: "random_weighted", arity: SomeChildren, param: ParamWeights, mdsl: "random_weighted", runs: vsf},
	AlwaysSucceed:      {name: "always_succeed", arity: OneChild, mdsl: "succeed", mistreevous: "succeed", runs: both},
	AlwaysFail:         {name: "always_fail", arity: OneChild, mdsl: "fail", mistreevous: "fail", runs: both},
	Negate:             {name: "negate", arity: OneChild, mdsl: "flip", mistreevous: "flip", runs: both},
	Custom:             {name: "custom", arity: SomeChildren, runs: vsf},
	Root:               {name: "root", arity: OneChild, mdsl: "root", mistreevous: "root", runs: stepped},
	Condition:          {name: "condition", arity: NoChildren, carries: true, mdsl: "condition", mistreevous: "condition", runs: stepped},
	Wait:               {name: "wait", arity: NoChildren, param: ParamBound, bound: "duration", mdsl: "wait", mistreevous: "wait", runs: stepped},
	Parallel:           {name: "parallel", arity: SomeChildren, mdsl: "parallel", mistreevous: "parallel", runs: both},
	Race:               {name: "race", arity: SomeChildren, mdsl: "race", mistreevous: "race", runs: both},
	All:                {name: "all", arity: SomeChildren, mdsl: "all", mistreevous: "all", runs: stepped},
	Lotto:              {name: "lotto", arity: SomeChildren, param: ParamLotto, mdsl: "lotto", mistreevous: "lotto", runs: stepped},
	Repeat:             {name: "repeat", arity: OneChild, param: ParamBound, bound: "iterations", mdsl: "repeat", mistreevous: "repeat", runs: stepped},
	Retry:              {name: "retry", arity: OneChild, param: ParamBound, bound: "attempts", mdsl: "retry", mistreevous: "retry", runs: stepped},
	Threshold:          {name: "threshold", arity: SomeChildren, param: ParamThreshold, mdsl: "threshold", runs: vsf},
	ReactiveSequence:   {name: "reactive_sequence", arity: AnyChildren, mdsl: "reactive_sequence", runs: stepped},
	ReactiveSelect:     {name: "reactive_select", arity: AnyChildren, mdsl: "reactive_selector", runs: stepped},
	ReactiveParallel:   {name: "reactive_parallel", arity: AnyChildren, param: ParamCounts, mdsl: "reactive_parallel", runs: stepped},
	EmptyInverter:      {name: "empty_inverter", arity: NoChildren, mdsl: "empty_inverter", runs: stepped},
}

// facts are what package kind knows of one kind.
type facts struct {
	name        string // String
	arity       Arity
	param       Param
	bound       string // BoundName
	carries     bool
	mdsl        string
	mistreevous string
	runs        uint8 // a bit per Style: 1<<ValueSucceedFail, 1<<Stepped
}

// The sets of styles that run a kind, as facts.runs.
const (
	vsf     = 1 << ValueSucceedFail
	stepped = 1 << Stepped
	both    = vsf | stepped
)

// fact returns k's facts: the zero facts (a leaf with no names, which no
// style runs) for a value that is no kind.
func (k Kind) fact() *facts {
	if k < numKinds {
		return &table[k]
	}
	return &noFacts
}

// noFacts are the facts of a value that is no kind.
var noFacts facts

// String returns the kind's name as the Elixir library and JSON definitions
// spell it, for example "repeat_until_fail" for [RepeatUntilFail], and
// "Kind(N)" for a value that is no kind.
func (k Kind) String() string {
	if k < numKinds {
		return table[k].name
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Bound says whether a Repeat or Retry has a count, or a Wait a duration,
// and whether it is fixed or drawn from a range.
type Bound uint8

// The bounds.
const (
	Unbounded Bound = iota // forever: no count, no duration
	Fixed                  // Params.Min exactly
	Ranged                 // drawn from [Params.Min, Params.Max] at each start
)

// Params are what a node has besides its kind and children: the fields that
// its kind takes, and zero values for the others.
type Params struct {
	// N is RepeatN's count: 2 to 2,147,483,647.
	N int
	// Weights are RandomWeighted's weights, one per child, each at least 1,
	// adding up to at most 2,147,483,647.
	//
	// For a Lotto they are optional: nil gives every child one ticket;
	// otherwise one weight per child, each 0 or more (0 counts as 1, as in
	// Mistreevous), adding up to at most 2,147,483,647.
	Weights []int
	// Bound says whether a Repeat (its iterations), Retry (its attempts) or
	// Wait (its duration in milliseconds) has a count: Unbounded (repeat,
	// retry or wait forever), Fixed (Min), or Ranged (a value drawn from
	// [Min, Max] each time the node starts). Min and Max are 0 to
	// 2,147,483,647, and Min <= Max when Ranged.
	Bound    Bound
	Min, Max int
	// Success and Failure are a Threshold's counts: it succeeds once
	// Success children have succeeded, and fails once Failure children have
	// failed or success can no longer be reached. A negative count means
	// "all but k": -1 is every child, -2 all but one. Both resolve to 1 to
	// the number of children.
	//
	// For a ReactiveParallel they are FluentBehaviourTree's
	// numRequiredToSucceed and numRequiredToFail, counted within one step:
	// any values, a count of 0 or less switching that outcome off.
	Success, Failure int
}
