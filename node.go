package behaviortree

import (
	"fmt"
	"iter"
	"sync/atomic"

	"github.com/zipbt/behaviortree/custom"
	"github.com/zipbt/behaviortree/internal/hook"
	"github.com/zipbt/behaviortree/kind"
)

// Node is a static, immutable behavior tree definition over leaf type L.
// Build it with [Leaf], [Select], [Sequence], [Wait], [RepeatUntilFail] and the
// other constructors (each says which style runs it), and run it with
// [NewStepped] (the stepped style) or [Start] (Value/Succeed/Fail). A Node may be shared
// freely: between trees, between goroutines, and at several places in one
// tree (each place then runs on its own).
//
// The zero Node is not a valid definition: constructors panic when given one.
// They also panic when a definition would have more than 67,108,864 (2^26)
// places, counting a shared node once per place it appears, since each
// place is compiled on its own.
type Node[L any] struct {
	n *node[L]
}

// node is the shared, never-modified body of a Node.
//
// Invariants: the kind's entry in the table of kinds (kinds.go) holds:
// kind == kind.Leaf if and only if children is empty, decorators have exactly
// one child; n >= 2 only for kind.RepeatN; for kind.RandomWeighted,
// len(weights) == len(children), every weight > 0, cumWeights holds their
// prefix sums and total their sum; size, random and hasCust summarize the
// subtree and are set once by the constructor.
type node[L any] struct {
	kind     kind.Kind
	random   bool       // the subtree has a Random or RandomWeighted node
	hasCust  bool       // the subtree has a custom node
	frontier bool       // the subtree has a node that enters all its children at once (parallel.go)
	stepped  bool       // the subtree has a stepped-only kind or attributes: Start refuses it
	bound    kind.Bound // Repeat, Retry, Wait: Params.Bound (the small fields share a word)

	leaf       L
	children   []*node[L]
	n          int
	weights    []int // RandomWeighted: the weight of each child
	cumWeights []int // RandomWeighted: cumWeights[i] = weights[0] + ... + weights[i]
	total      int   // RandomWeighted: the sum of the weights
	custom     custom.Traversal
	size       int // nodes in this subtree, this one included
	success    int // Threshold, ReactiveParallel: Params.Success, as given
	failure    int // Threshold, ReactiveParallel: Params.Failure, as given
	prog       atomic.Pointer[program[L]]

	// The fields below serve the stepped engine (stepped.go), with bound
	// and stepped above.
	min, max int       // Repeat, Retry, Wait: Params.Min, Params.Max (max == min when Fixed)
	attrs    *attrs[L] // guards and callbacks, or nil
	sprog    atomic.Pointer[sprogram[L]]

	// name is the node's name, or "" (package fluent's Builder names every node).
	name string
	// src is where the definition was read from, on the root that
	// mdsl.Parse returns, for the errors of Functions; nil elsewhere.
	src *hook.Source
}

// Leaf returns a leaf node whose value is v: a behavior the tree can ask for.
//
// Both styles run it: the stepped engine as an action, which the agent's
// Action function does.
func Leaf[L any](v L) Node[L] {
	return Node[L]{&node[L]{kind: kind.Leaf, leaf: v, size: 1}}
}

// Select returns a node that goes through its children from left to right.
// When a child fails it moves on to the next one, and it fails when the last
// child fails. As soon as a child succeeds, it succeeds.
//
// Select panics with "behaviortree.Select: no children" when given none, and
// when a child is the zero Node.
//
// Both styles run it (Mistreevous's selector, BehaviorTree.CPP's Fallback).
func Select[L any](children ...Node[L]) Node[L] {
	return mustBuild(kind.Select, kind.Params{}, children)
}

// Sequence returns a node that goes through its children from left to right.
// When a child succeeds it moves on to the next one, and it succeeds when the
// last child succeeds. As soon as a child fails, it fails.
//
// Sequence panics with "behaviortree.Sequence: no children" when given none,
// and when a child is the zero Node.
//
// Both styles run it.
func Sequence[L any](children ...Node[L]) Node[L] {
	return mustBuild(kind.Sequence, kind.Params{}, children)
}

// AlwaysSucceed returns a decorator that succeeds when its child ends, whether
// the child succeeded or failed (Elixir's always_succeed).
// It panics if child is the zero Node.
//
// Both styles run it (Mistreevous's succeed).
func AlwaysSucceed[L any](child Node[L]) Node[L] {
	return mustBuild(kind.AlwaysSucceed, kind.Params{}, []Node[L]{child})
}

// AlwaysFail returns a decorator that fails when its child ends, whether the
// child succeeded or failed (Elixir's always_fail).
// It panics if child is the zero Node.
//
// Both styles run it (Mistreevous's fail).
func AlwaysFail[L any](child Node[L]) Node[L] {
	return mustBuild(kind.AlwaysFail, kind.Params{}, []Node[L]{child})
}

// Negate returns a decorator that fails when its child succeeds and succeeds
// when its child fails (Elixir's negate).
// It panics if child is the zero Node.
//
// Both styles run it (Mistreevous's flip).
func Negate[L any](child Node[L]) Node[L] {
	return mustBuild(kind.Negate, kind.Params{}, []Node[L]{child})
}

// inner builds an inner node of kind k over children, which are not zero
// Nodes, summarizing their subtrees. It returns the zero Node when the
// definition would have more than maxNodes places.
func inner[L any](k kind.Kind, children []Node[L]) Node[L] {
	nd := &node[L]{kind: k, children: make([]*node[L], len(children)), size: 1, random: kinds[k].draws, stepped: kinds[k].stepped, frontier: kinds[k].frontier}
	for i, c := range children {
		nd.children[i] = c.n
		nd.size += c.n.size
		if nd.size > maxNodes {
			return Node[L]{}
		}
		nd.random = nd.random || c.n.random
		nd.hasCust = nd.hasCust || c.n.hasCust
		nd.stepped = nd.stepped || c.n.stepped
		nd.frontier = nd.frontier || c.n.frontier
	}
	return Node[L]{nd}
}

// maxNodes bounds the places in one definition. Shared subtrees count once
// per place, since each place is compiled and runs on its own: a definition
// built by doubling a node 26 times already has 2^27-1 places, which would
// compile to gigabytes.
const maxNodes = 1 << 26

// Name returns the name that package fluent's Builder gave n (the first
// argument of Sequence, Do, ...), or "" for a node without one.
func (n Node[L]) Name() string { return n.must("Name").name }

// IsZero reports whether n is the zero Node, which is not a valid definition.
func (n Node[L]) IsZero() bool { return n.n == nil }

// Kind returns what n is.
func (n Node[L]) Kind() kind.Kind { return n.must("Kind").kind }

// Leaf returns n's value and true when n is a leaf that carries one (a
// [Leaf], which the stepped engine runs as an action, or a [Condition]),
// and the zero L and false otherwise.
func (n Node[L]) Leaf() (L, bool) {
	nd := n.must("Leaf")
	return nd.leaf, kinds[nd.kind].carries
}

// Len returns the number of n's children: 0 for a leaf, 1 for a decorator.
func (n Node[L]) Len() int { return len(n.must("Len").children) }

// Child returns n's i-th child. It panics if i is out of range.
func (n Node[L]) Child(i int) Node[L] {
	nd := n.must("Child")
	if i < 0 || i >= len(nd.children) {
		panic(fmt.Sprintf("behaviortree.Node.Child: index %d out of range [0,%d)", i, len(nd.children)))
	}
	return Node[L]{nd.children[i]}
}

// Children returns an iterator over n's children, left to right.
func (n Node[L]) Children() iter.Seq[Node[L]] {
	nd := n.must("Children")
	return func(yield func(Node[L]) bool) {
		for _, c := range nd.children {
			if !yield(Node[L]{c}) {
				return
			}
		}
	}
}

// Size returns the number of nodes in n's subtree, n included.
func (n Node[L]) Size() int { return n.must("Size").size }

// Preorder returns an iterator over the nodes of n's subtree in depth-first
// preorder: a node, then its children's subtrees from left to right. It uses
// an explicit stack, so any depth is fine.
func (n Node[L]) Preorder() iter.Seq[Node[L]] {
	root := n.must("Preorder")
	return func(yield func(Node[L]) bool) {
		stack := []*node[L]{root}
		for len(stack) > 0 {
			nd := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !yield(Node[L]{nd}) {
				return
			}
			for i := len(nd.children) - 1; i >= 0; i-- {
				stack = append(stack, nd.children[i])
			}
		}
	}
}

// must returns n's body, panicking with a qualified message for the zero Node.
func (n Node[L]) must(method string) *node[L] {
	if n.n == nil {
		panic("behaviortree.Node." + method + ": zero Node")
	}
	return n.n
}
