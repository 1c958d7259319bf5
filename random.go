package behaviortree

import (
	"fmt"
	"math/bits"
	"math/rand/v2"
	"sort"
)

// Random returns a node that, each time it is entered, picks one of its
// children uniformly at random and enters it. It succeeds or fails as that
// child does (Elixir's random). The draw comes from the tree's own random
// state, so a seeded tree replays exactly; see [WithSeed].
//
// Random panics with "behaviortree.Random: no children" when given none, and
// when a child is the zero Node.
func Random[L any](children ...Node[L]) Node[L] {
	nd := inner("Random", KindRandom, children)
	nd.n.random = true
	return nd
}

// Weighted is one child of a [RandomWeighted] node with its weight.
type Weighted[L any] struct {
	Weight int
	Node   Node[L]
}

// WithWeight pairs a child with its weight, for [RandomWeighted].
func WithWeight[L any](weight int, child Node[L]) Weighted[L] {
	return Weighted[L]{Weight: weight, Node: child}
}

// RandomWeighted returns a node like [Random] whose children are picked with
// probability weight/total (Elixir's random_weighted). Because each child
// comes paired with its weight, the weights cannot be in the wrong number.
//
// RandomWeighted panics with "behaviortree.RandomWeighted: no children" when
// given none, with "behaviortree.RandomWeighted: weight of child I must be > 0,
// got W" for a weight below 1, and when a child is the zero Node.
func RandomWeighted[L any](children ...Weighted[L]) Node[L] {
	nodes := make([]Node[L], len(children))
	weights := make([]int, len(children))
	for i, c := range children {
		nodes[i], weights[i] = c.Node, c.Weight
	}
	return randomWeighted(nodes, weights)
}

// randomWeighted builds a RandomWeighted node from parallel slices.
func randomWeighted[L any](nodes []Node[L], weights []int) Node[L] {
	const ctor = "RandomWeighted"
	nd := inner(ctor, KindRandomWeighted, nodes)
	if len(weights) != len(nodes) {
		panic(fmt.Sprintf("behaviortree.%s: %d weights for %d children", ctor, len(weights), len(nodes)))
	}
	cum := make([]int, len(weights))
	total := 0
	for i, w := range weights {
		if w <= 0 {
			panic(fmt.Sprintf("behaviortree.%s: weight of child %d must be > 0, got %d", ctor, i, w))
		}
		if total > maxWeightTotal-w {
			panic(fmt.Sprintf("behaviortree.%s: weights add up to more than %d", ctor, maxWeightTotal))
		}
		total += w
		cum[i] = total
	}
	nd.n.weights = cum
	nd.n.total = total
	nd.n.random = true
	return nd
}

// maxWeightTotal bounds the sum of a RandomWeighted node's weights.
const maxWeightTotal = 1<<62 - 1

// weightOf returns the weight of child i of a RandomWeighted body.
func (nd *node[L]) weightOf(i int) int {
	if i == 0 {
		return nd.weights[0]
	}
	return nd.weights[i] - nd.weights[i-1]
}

// pick draws the index of the child a Random or RandomWeighted body enters,
// and returns the advanced random state with it.
func pick[L any](r rand.PCG, nd *node[L]) (rand.PCG, int) {
	if nd.kind == KindRandom {
		return r, int(uintN(&r, uint64(len(nd.children))))
	}
	// As in Elixir: draw x in [1, total], take the first child whose
	// cumulative weight reaches x.
	x := int(uintN(&r, uint64(nd.total))) + 1
	return r, sort.SearchInts(nd.weights, x)
}

// uintN returns a uniform integer in [0, n) drawn from r, with Lemire's
// nearly divisionless method.
func uintN(r *rand.PCG, n uint64) uint64 {
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), n)
		}
	}
	return hi
}

// seedPCG returns the generator that WithSeed(seed) gives a tree.
func seedPCG(seed uint64) rand.PCG {
	return *rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
}
