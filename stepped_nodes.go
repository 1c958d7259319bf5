package behaviortree

import (
	"fmt"
	"math"
	"time"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

// This file holds the constructors of the stepped kinds (Mistreevous's,
// and the reactive kinds of FluentBehaviourTree) and the attributes
// (guards and callbacks) that any node of a stepped tree may carry.

// Root returns a Mistreevous root over child: the top of a stepped tree.
// [NewStepped] treats a definition that is not a Root as if it were
// wrapped in one. It panics if child is the zero Node.
//
// Stepped only ([Start] refuses it); a Value/Succeed/Fail tree needs no
// root.
func Root[L any](child Node[L]) Node[L] {
	return mustBuild(kind.Root, kind.Params{}, []Node[L]{child})
}

// Condition returns a leaf that asks the agent's Condition function about
// v: it succeeds when that returns true and fails otherwise. A [Leaf] in a
// stepped tree is an action: the agent's Action function does v.
//
// Stepped only ([Start] refuses it); in the Value/Succeed/Fail style a
// question is a [Leaf] that the game answers with Succeed or Fail.
func Condition[L any](v L) Node[L] {
	return Node[L]{&node[L]{kind: kind.Condition, leaf: v, size: 1, stepped: true}}
}

// Wait returns a leaf that stays running until d of the tree's clock has
// passed (see [WithTurnClock], [WithDeltaTime]); Wait(0) succeeds at its
// first update. Every update of the wait adds the step's time, the update
// that starts it included: under a turn clock of t, a wait of d succeeds
// in the ceil(d/t)-th step that updates it (see ExampleWithTurnClock). It
// panics if d is negative, not a whole number of milliseconds (the unit
// of Mistreevous and MDSL), or longer than 2,147,483,647 ms.
//
// Stepped only ([Start] refuses it), as are [WaitRange] and [WaitForever];
// in the Value/Succeed/Fail style the game waits before it signals.
func Wait[L any](d time.Duration) Node[L] {
	return mustBuild[L](kind.Wait, kind.Params{Bound: kind.Fixed, Min: waitMs("Wait", d)}, nil)
}

// WaitRange returns a leaf that waits a time drawn from [minD, maxD], in
// whole milliseconds, each time it starts (one draw of the tree's random
// function). It panics if the range is empty, or if either end is not a
// whole number of milliseconds or out of Wait's bounds.
//
// Stepped only, as [Wait].
func WaitRange[L any](minD, maxD time.Duration) Node[L] {
	return mustBuild[L](kind.Wait, kind.Params{Bound: kind.Ranged, Min: waitMs("WaitRange", minD), Max: waitMs("WaitRange", maxD)}, nil)
}

// waitMs returns d in milliseconds, or panics, qualified by ctor, if d is
// not a whole number of them or out of a wait's bounds.
func waitMs(ctor string, d time.Duration) int {
	if d%time.Millisecond != 0 {
		panic(fmt.Sprintf("behaviortree.%s: %v is not a whole number of milliseconds", ctor, d))
	}
	ms := d / time.Millisecond
	if ms < 0 || ms > math.MaxInt32 {
		panic(fmt.Sprintf("behaviortree.%s: %v is out of range [0, %d ms]", ctor, d, math.MaxInt32))
	}
	return int(ms)
}

// WaitForever returns a leaf that stays running until something resets or
// aborts it. It never reads the clock.
//
// Stepped only, as [Wait].
func WaitForever[L any]() Node[L] {
	return mustBuild[L](kind.Wait, kind.Params{}, nil)
}

// Parallel returns a node that updates all of its running children at
// every step: it fails as soon as one fails (aborting the others that are
// still running), and succeeds when all have succeeded.
// It panics when given no children or a zero Node.
//
// Both styles run it: in the Value/Succeed/Fail style its children's leaves
// are all focused at once ([Tree.Frontier]), with the same rule; [Threshold]
// is the M-of-N form there.
func Parallel[L any](children ...Node[L]) Node[L] {
	return mustBuild(kind.Parallel, kind.Params{}, children)
}

// Race returns a node that updates all of its running children at every
// step: it succeeds as soon as one succeeds (aborting the others that are
// still running), and fails when all have failed.
// It panics when given no children or a zero Node.
//
// Both styles run it, as [Parallel].
func Race[L any](children ...Node[L]) Node[L] {
	return mustBuild(kind.Race, kind.Params{}, children)
}

// All returns a node that updates all of its running children at every
// step until all have completed, then succeeds if at least one succeeded
// and fails otherwise. It never aborts a child.
// It panics when given no children or a zero Node.
//
// Stepped only ([Start] refuses it).
func All[L any](children ...Node[L]) Node[L] {
	return mustBuild(kind.All, kind.Params{}, children)
}

// Lotto returns a node that draws one of its children when it starts (one
// call of the tree's random function; child i holds weights[i] tickets, a
// weight of 0 counting as 1, or one ticket each when weights is nil) and
// then behaves as that child until it is reset. It panics when given no
// children, a zero Node, or weights that do not fit the children.
//
// Stepped only ([Start] refuses it); the Value/Succeed/Fail style's are
// [Random] and [RandomWeighted].
func Lotto[L any](weights []int, children ...Node[L]) Node[L] {
	return mustBuild(kind.Lotto, kind.Params{Weights: weights}, children)
}

// Repeat returns a decorator that runs its child again each time it
// succeeds, forever, and fails when the child fails.
// It panics if child is the zero Node.
//
// Stepped only ([Start] refuses it); the Value/Succeed/Fail style's
// [RepeatUntilFail] succeeds, not fails, when the child fails.
func Repeat[L any](child Node[L]) Node[L] {
	return mustBuild(kind.Repeat, kind.Params{}, []Node[L]{child})
}

// RepeatCount returns a decorator that runs its child until it has
// succeeded n times, then succeeds, one update after the last success
// (Mistreevous's rule: RepeatCount(0, c) succeeds without running c); it
// fails when the child fails. It panics if n is out of [0, 2147483647].
//
// Stepped only ([Start] refuses it); the Value/Succeed/Fail style's
// [RepeatN] runs the child n times whatever its outcome.
func RepeatCount[L any](n int, child Node[L]) Node[L] {
	return mustBuild(kind.Repeat, kind.Params{Bound: kind.Fixed, Min: n}, []Node[L]{child})
}

// RepeatRange is [RepeatCount] with a count drawn from [minN, maxN] each
// time the node starts (one call of the tree's random function).
//
// Stepped only, as [RepeatCount].
func RepeatRange[L any](minN, maxN int, child Node[L]) Node[L] {
	return mustBuild(kind.Repeat, kind.Params{Bound: kind.Ranged, Min: minN, Max: maxN}, []Node[L]{child})
}

// Retry returns a decorator that runs its child again each time it fails,
// forever, and succeeds when the child succeeds.
// It panics if child is the zero Node.
//
// Stepped only ([Start] refuses it); [RepeatUntilSucceed] is the same rule
// in the Value/Succeed/Fail style.
func Retry[L any](child Node[L]) Node[L] {
	return mustBuild(kind.Retry, kind.Params{}, []Node[L]{child})
}

// RetryCount returns a decorator that runs its child until it has failed
// n times, then fails, one update after the last failure; it succeeds when
// the child succeeds. It panics if n is out of [0, 2147483647].
//
// Stepped only ([Start] refuses it); the Value/Succeed/Fail style has no
// counted retry.
func RetryCount[L any](n int, child Node[L]) Node[L] {
	return mustBuild(kind.Retry, kind.Params{Bound: kind.Fixed, Min: n}, []Node[L]{child})
}

// RetryRange is [RetryCount] with a count drawn from [minN, maxN] each
// time the node starts (one call of the tree's random function).
//
// Stepped only, as [RetryCount].
func RetryRange[L any](minN, maxN int, child Node[L]) Node[L] {
	return mustBuild(kind.Retry, kind.Params{Bound: kind.Ranged, Min: minN, Max: maxN}, []Node[L]{child})
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

// numAttrs is one more than the largest kind of attribute.
const numAttrs = attr.KindExit + 1

// attrs are a node's attributes, by kind; has[k] says whether kind k is
// set.
type attrs[L any] struct {
	has [numAttrs]bool
	a   [numAttrs]attr.Attr[L]
}

// With returns a copy of n carrying the given attributes besides those it
// has already (an attribute of a kind n has replaces it). The copy shares
// n's children. Attributes only run on the stepped engine: [Start] refuses
// a definition that has any. With panics for the zero Node, a zero Attr
// (or one of an unknown kind), SucceedOnAbort on a callback, and two
// attributes of one kind in one call.
func (n Node[L]) With(as ...attr.Attr[L]) Node[L] {
	nd := n.must("With")
	at := &attrs[L]{}
	if nd.attrs != nil {
		*at = *nd.attrs
	}
	var seen [numAttrs]bool
	for _, a := range as {
		if a.Kind == 0 {
			panic("behaviortree.Node.With: zero Attr")
		}
		if a.Kind >= numAttrs {
			panic(fmt.Sprintf("behaviortree.Node.With: unknown attr.Kind %d", uint8(a.Kind)))
		}
		if a.SucceedOnAbort && a.Kind != attr.KindWhile && a.Kind != attr.KindUntil {
			panic("behaviortree.Node.With: SucceedOnAbort on " + a.Kind.String() + ", which is not a guard")
		}
		if seen[a.Kind] {
			panic("behaviortree.Node.With: two " + a.Kind.String() + " attributes")
		}
		seen[a.Kind] = true
		at.has[a.Kind], at.a[a.Kind] = true, a
	}
	c := &node[L]{kind: nd.kind, leaf: nd.leaf, children: nd.children, n: nd.n, weights: nd.weights,
		cumWeights: nd.cumWeights, total: nd.total, custom: nd.custom, size: nd.size, random: nd.random,
		hasCust: nd.hasCust, bound: nd.bound, min: nd.min, max: nd.max, attrs: at, stepped: true,
		success: nd.success, failure: nd.failure, frontier: nd.frontier, name: nd.name}
	return Node[L]{c}
}

// Attrs returns n's attributes: guards first (while, until), then
// callbacks (entry, step, exit).
func (n Node[L]) Attrs() []attr.Attr[L] {
	nd := n.must("Attrs")
	if nd.attrs == nil {
		return nil
	}
	var out []attr.Attr[L]
	for k := attr.KindWhile; k < numAttrs; k++ {
		if nd.attrs.has[k] {
			out = append(out, nd.attrs.a[k])
		}
	}
	return out
}

// styleRefusal is how [Start] and [NewStepped] say that their style
// cannot run a node of a definition: the same words from both, after the
// function's name, naming the node by its preorder index and what it is.
// Start panics with them (it has no error to return: see the package
// doc's "Errors and panics"); NewStepped returns them as its error.
func styleRefusal(id int, what string, stepped bool) string {
	if stepped {
		return fmt.Sprintf("node %d (%s): the stepped style cannot run it (a Value/Succeed/Fail kind: use Start)", id, what)
	}
	return fmt.Sprintf("node %d (%s): the Value/Succeed/Fail style cannot run it (a stepped kind: use NewStepped)", id, what)
}

// steppedOnly returns the panic message of Start for a definition that
// needs the stepped engine, naming the first node that does.
func steppedOnly[L any](fn string, root *node[L]) string {
	id := 0
	for c := range (Node[L]{root}).Preorder() {
		nd := c.n
		if kinds[nd.kind].stepped {
			return "behaviortree." + fn + ": " + styleRefusal(id, nd.kind.String(), false)
		}
		if nd.attrs != nil {
			return "behaviortree." + fn + ": " + styleRefusal(id, nd.kind.String()+" with guards or callbacks", false)
		}
		id++
	}
	return "behaviortree." + fn + ": the definition needs the stepped engine (use NewStepped)"
}
