package kind

// Arity is how many children a kind takes.
type Arity uint8

// The arities.
const (
	NoChildren   Arity = iota // a leaf
	OneChild                  // a decorator
	SomeChildren              // one or more
	AnyChildren               // zero or more (the reactive kinds)
)

// Param is which parameter a kind takes besides its children, and so
// which fields of [Params] a node of the kind has.
type Param uint8

// The parameters, with the fields of Params that hold them.
const (
	ParamNone      Param = iota // none
	ParamN                      // N: a count >= 2 (RepeatN)
	ParamWeights                // Weights: one weight > 0 per child (RandomWeighted)
	ParamLotto                  // Weights: none, or one weight >= 0 per child (Lotto)
	ParamBound                  // Bound, Min, Max: a count or a duration (Repeat, Retry, Wait)
	ParamThreshold              // Success, Failure: M-of-N counts (Threshold)
	ParamCounts                 // Failure, Success: any ints, counted within one step (ReactiveParallel)
)

// Style is a way of driving a tree, which decides the kinds it may hold.
type Style uint8

// The styles. FluentBehaviourTree's style (package fluent) runs on the
// stepped engine: a kind runs there when it runs on Stepped.
const (
	// ValueSucceedFail is the style of behaviortree.Start, where the
	// caller answers the focused leaf with Value, Succeed or Fail, after
	// Elixir's behavior_tree.
	ValueSucceedFail Style = iota
	// Stepped is the style of behaviortree.NewStepped, where each Step
	// calls an agent, after Mistreevous; package fluent's trees run on it.
	Stepped
)

// Arity returns how many children a node of kind k takes; NoChildren for
// a value that is no kind.
func (k Kind) Arity() Arity { return k.fact().arity }

// Param returns which parameter a node of kind k takes; ParamNone for a
// value that is no kind.
func (k Kind) Param() Param { return k.fact().param }

// BoundName returns what the count or duration of a kind whose Param is
// ParamBound is called: its field in Mistreevous JSON and its name in
// messages ("iterations" for Repeat, "attempts" for Retry, "duration"
// for Wait); "" for the other kinds.
func (k Kind) BoundName() string { return k.fact().bound }

// Carries reports whether a node of kind k carries a value of the tree's
// leaf type (behaviortree.Node.Leaf): true for Leaf and Condition.
func (k Kind) Carries() bool { return k.fact().carries }

// MDSL returns k's keyword in MDSL, Mistreevous's text form (package
// mdsl): Mistreevous's own where it has the kind ("selector", "flip"),
// and one in the same syntax for the others ("repeat_until_fail",
// "reactive_selector"); "" for Custom, which has no text form, and for a
// value that is no kind. The pictures of trees name kinds by it.
func (k Kind) MDSL() string { return k.fact().mdsl }

// Mistreevous returns k's type name in Mistreevous JSON definitions
// (package mistreevous), or "" for a kind Mistreevous does not have.
func (k Kind) Mistreevous() string { return k.fact().mistreevous }

// RunsOn reports whether trees driven in style s may hold nodes of kind
// k: behaviortree.Start refuses a definition with a kind that does not
// run on ValueSucceedFail, and NewStepped one with a kind that does not
// run on Stepped. It is false for a value that is no kind or no style.
func (k Kind) RunsOn(s Style) bool { return s <= Stepped && k.fact().runs&(1<<s) != 0 }
