package behaviortree

import "github.com/zipbt/behaviortree/kind"

// This file holds the repeating decorators of the Value/Succeed/Fail
// style: RepeatUntilFail (the seed documentation's Continually, which
// names the file), RepeatUntilSucceed and RepeatN. The stepped style's
// are Repeat, Retry and their counted forms (stepped_nodes.go).

// RepeatUntilFail returns a decorator that restarts its child (enters it
// afresh) each time the child succeeds, and succeeds when the child fails.
// It never fails (Elixir's repeat_until_fail; the seed documentation's
// Continually).
//
// It panics with "behaviortree.RepeatUntilFail: child is the zero Node".
//
// Value/Succeed/Fail only ([NewStepped] refuses it); the stepped counterpart
// is [Repeat], which fails when the child fails (AlwaysSucceed(Repeat(c))
// never fails).
func RepeatUntilFail[L any](child Node[L]) Node[L] {
	return mustBuild(kind.RepeatUntilFail, kind.Params{}, []Node[L]{child})
}

// RepeatUntilSucceed returns a decorator that restarts its child each time the
// child fails, and succeeds when the child succeeds. It never fails (Elixir's
// repeat_until_succeed).
//
// It panics with "behaviortree.RepeatUntilSucceed: child is the zero Node".
//
// Value/Succeed/Fail only ([NewStepped] refuses it); [Retry] is the same
// rule in a stepped tree.
func RepeatUntilSucceed[L any](child Node[L]) Node[L] {
	return mustBuild(kind.RepeatUntilSucceed, kind.Params{}, []Node[L]{child})
}

// RepeatN returns a decorator that runs its child n times, whatever the
// child's outcome, and then succeeds; it never fails (Elixir's repeat_n). The
// count starts again from n each time the node is entered, so nested counts
// multiply: Sequence(RepeatN(2, RepeatN(2, a)), b) asks for a four times.
//
// It panics with "behaviortree.RepeatN: repeat_n needs n >= 2, got N" when
// n < 2, with "... needs n <= 2147483647 ..." above that, and when child is
// the zero Node.
//
// Value/Succeed/Fail only ([NewStepped] refuses it); the stepped counterpart
// is [RepeatCount], which counts n successes and fails when the child fails.
func RepeatN[L any](n int, child Node[L]) Node[L] {
	return mustBuild(kind.RepeatN, kind.Params{N: n}, []Node[L]{child})
}
