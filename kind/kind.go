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
// This package only names the kinds. What each kind does, and which
// driving style runs it, is in the documentation of its constructor in
// package behaviortree and in the README's vocabulary table.
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

var names = [numKinds]string{
	Leaf:               "leaf",
	Select:             "select",
	Sequence:           "sequence",
	RepeatUntilFail:    "repeat_until_fail",
	RepeatUntilSucceed: "repeat_until_succeed",
	RepeatN:            "repeat_n",
	Random:             "random",
	RandomWeighted:     "random_weighted",
	AlwaysSucceed:      "always_succeed",
	AlwaysFail:         "always_fail",
	Negate:             "negate",
	Custom:             "custom",
	Root:               "root",
	Condition:          "condition",
	Wait:               "wait",
	Parallel:           "parallel",
	Race:               "race",
	All:                "all",
	Lotto:              "lotto",
	Repeat:             "repeat",
	Retry:              "retry",
	Threshold:          "threshold",
	ReactiveSequence:   "reactive_sequence",
	ReactiveSelect:     "reactive_select",
	ReactiveParallel:   "reactive_parallel",
	EmptyInverter:      "empty_inverter",
}

// String returns the kind's name as the Elixir library and JSON definitions
// spell it, for example "repeat_until_fail" for [RepeatUntilFail], and
// "Kind(N)" for a value that is no kind.
func (k Kind) String() string {
	if k < numKinds {
		return names[k]
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
