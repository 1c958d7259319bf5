package behaviortree

import (
	"math/bits"
	"math/rand/v2"
	"sort"

	"github.com/zipbt/behaviortree/kind"
)

// This file holds the random choices of the Value/Succeed/Fail style:
// the constructors Random and RandomWeighted, their weights, and the draw
// from a Tree's own generator (seeded by WithSeed, kept in every version).
// The stepped style's random choice is Lotto (stepped_nodes.go), drawn from its
// own random function.

// Random returns a node that, each time it is entered, picks one of its
// children uniformly at random and enters it. It succeeds or fails as that
// child does (Elixir's random). The draw comes from the tree's own random
// state, so a seeded tree replays exactly; see [WithSeed].
//
// Random panics with "behaviortree.Random: no children" when given none, and
// when a child is the zero Node.
//
// Value/Succeed/Fail only ([NewStepped] refuses it); a stepped tree draws
// with [Lotto].
func Random[L any](children ...Node[L]) Node[L] {
	return mustBuild(kind.Random, kind.Params{}, children)
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
// given none, with "behaviortree.RandomWeighted: random_weighted:
// weights[I] must be > 0, got W" for a weight below 1, when the weights add
// up to more than 2,147,483,647, and when a child is the zero Node.
//
// Value/Succeed/Fail only ([NewStepped] refuses it); a stepped tree draws
// with [Lotto]'s weights.
func RandomWeighted[L any](children ...Weighted[L]) Node[L] {
	nodes := make([]Node[L], len(children))
	weights := make([]int, len(children))
	for i, c := range children {
		nodes[i], weights[i] = c.Node, c.Weight
	}
	return mustBuild(kind.RandomWeighted, kind.Params{Weights: weights}, nodes)
}

// setWeights sets a RandomWeighted body's checked weights, with their prefix
// sums and total.
func (nd *node[L]) setWeights(ws []int) {
	nd.weights = append([]int(nil), ws...)
	nd.cumWeights = make([]int, len(ws))
	for i, w := range ws {
		nd.total += w
		nd.cumWeights[i] = nd.total
	}
}

// pick draws the index of the child a Random or RandomWeighted body enters,
// and returns the advanced random state with it.
func pick[L any](r rand.PCG, nd *node[L]) (rand.PCG, int) {
	if nd.kind == kind.Random {
		return r, int(uintN(&r, uint64(len(nd.children))))
	}
	// As in Elixir: draw x in [1, total], take the first child whose
	// cumulative weight reaches x.
	x := int(uintN(&r, uint64(nd.total))) + 1
	return r, sort.SearchInts(nd.cumWeights, x)
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
