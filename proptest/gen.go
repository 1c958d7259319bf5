package proptest

import (
	"reflect"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
)

// Config bounds generated trees. Zero fields take the defaults in
// [DefaultConfig].
type Config struct {
	MaxDepth  int // levels of inner nodes at most
	MaxFanOut int // children of a Select, Sequence or Random at most
	MaxN      int // the largest RepeatN count
	MaxWeight int // the largest RandomWeighted weight
}

// DefaultConfig is what zero Config fields mean: depth 4, fan-out 4, RepeatN
// counts up to 3, weights up to 5.
var DefaultConfig = Config{MaxDepth: 4, MaxFanOut: 4, MaxN: 3, MaxWeight: 5}

func (c Config) withDefaults() Config {
	if c.MaxDepth <= 0 {
		c.MaxDepth = DefaultConfig.MaxDepth
	}
	if c.MaxFanOut <= 0 {
		c.MaxFanOut = DefaultConfig.MaxFanOut
	}
	if c.MaxN < 2 {
		c.MaxN = DefaultConfig.MaxN
	}
	if c.MaxWeight <= 0 {
		c.MaxWeight = DefaultConfig.MaxWeight
	}
	return c
}

// deterministicKinds and allKinds are the inner kinds the generators draw.
var deterministicKinds = []kind.Kind{
	kind.Select, kind.Sequence, kind.RepeatUntilFail, kind.RepeatUntilSucceed,
	kind.RepeatN, kind.AlwaysSucceed, kind.AlwaysFail, kind.Negate,
}

var allKinds = append(append([]kind.Kind{}, deterministicKinds...), kind.Random, kind.RandomWeighted)

// parallelKinds are the deterministic kinds and the parallel ones.
var parallelKinds = append(append([]kind.Kind{}, deterministicKinds...), kind.Parallel, kind.Race, kind.Threshold)

// Tree returns a generator of definitions over the standard node set,
// Random and RandomWeighted included, with leaves drawn from leaf (a
// generator of L values). The number of nodes grows with gopter's size
// parameter; depth and fan-out stay within c. Failing trees shrink.
func Tree[L any](leaf gopter.Gen, c Config) gopter.Gen {
	return treeGen[L](leaf, c.withDefaults(), allKinds)
}

// DeterministicTree is [Tree] without Random and RandomWeighted, for
// properties that need the same trace from every Start.
func DeterministicTree[L any](leaf gopter.Gen, c Config) gopter.Gen {
	return treeGen[L](leaf, c.withDefaults(), deterministicKinds)
}

// ParallelTree is [DeterministicTree] with parallel nodes too: Parallel,
// Race and Threshold, whose versions can have several focused leaves.
func ParallelTree[L any](leaf gopter.Gen, c Config) gopter.Gen {
	return treeGen[L](leaf, c.withDefaults(), parallelKinds)
}

func treeGen[L any](leaf gopter.Gen, c Config, kinds []kind.Kind) gopter.Gen {
	return func(p *gopter.GenParameters) *gopter.GenResult {
		budget := 1
		if p.MaxSize > 1 {
			budget += p.Rng.Intn(p.MaxSize)
		}
		b := builder[L]{p: p, leaf: leaf, c: c, kinds: kinds, budget: budget}
		n, ok := b.node(0)
		if !ok {
			return gopter.NewEmptyResult(reflect.TypeOf(bt.Node[L]{}))
		}
		return gopter.NewGenResult(n, shrinkTree[L])
	}
}

// builder draws one tree, spending a budget of nodes.
type builder[L any] struct {
	p      *gopter.GenParameters
	leaf   gopter.Gen
	c      Config
	kinds  []kind.Kind
	budget int
}

func (b *builder[L]) node(depth int) (bt.Node[L], bool) {
	b.budget--
	// A node is a leaf when depth or budget run out, and otherwise now and
	// then: rarely at the root, more often further down.
	if depth >= b.c.MaxDepth || b.budget <= 0 || b.p.Rng.Intn(10) < min(depth, 3) || b.p.Rng.Intn(12) == 0 {
		v, ok := b.leaf(b.p).Retrieve()
		if !ok {
			return bt.Node[L]{}, false
		}
		return bt.Leaf(v.(L)), true
	}
	nodeKind := b.kinds[b.p.Rng.Intn(len(b.kinds))]
	k := 1
	if nodeKind.Arity() != kind.OneChild {
		k = 1 + b.p.Rng.Intn(b.c.MaxFanOut)
	}
	children := make([]bt.Node[L], k)
	for i := range children {
		child, ok := b.node(depth + 1)
		if !ok {
			return bt.Node[L]{}, false
		}
		children[i] = child
	}
	p := kind.Params{N: 2 + b.p.Rng.Intn(b.c.MaxN-1), Weights: make([]int, k)}
	for i := range p.Weights {
		p.Weights[i] = 1 + b.p.Rng.Intn(b.c.MaxWeight)
	}
	// Threshold counts: 1 to k, or "all but" counts -1 to -k.
	p.Success, p.Failure = 1+b.p.Rng.Intn(k), 1+b.p.Rng.Intn(k)
	if b.p.Rng.Intn(4) == 0 {
		p.Success = -p.Success
	}
	return rebuild(nodeKind, p, children), true
}

// rebuild makes an inner node of the given kind from its parts, through
// the library's table of kinds. Parameters that kind does not take are
// dropped, weights are given unit values past their end, and Threshold
// counts are clamped to the number of children, so that a shrunk node
// stays valid.
func rebuild[L any](nodeKind kind.Kind, p kind.Params, children []bt.Node[L]) bt.Node[L] {
	var q kind.Params
	k := len(children)
	if nodeKind.Param() == kind.ParamN {
		q.N = p.N
	}
	if nodeKind.Param() == kind.ParamWeights {
		q.Weights = make([]int, k)
		for i := range q.Weights {
			q.Weights[i] = 1
			if i < len(p.Weights) {
				q.Weights[i] = p.Weights[i]
			}
		}
	}
	if nodeKind == kind.Threshold {
		q.Success, q.Failure = clampCount(p.Success, k), clampCount(p.Failure, k)
	}
	nd, err := bt.Build(nodeKind, q, children...)
	if err != nil {
		panic("proptest.rebuild: " + err.Error())
	}
	return nd
}

// clampCount keeps a Threshold count valid for k children: 1 to k, or
// -1 to -k.
func clampCount(c, k int) int {
	switch {
	case c > k:
		return k
	case c < -k:
		return -k
	case c == 0:
		return 1
	}
	return c
}

// parts returns an inner node's parameters and children, with a unit
// weight per child for kinds without weights.
func parts[L any](n bt.Node[L]) (kind.Params, []bt.Node[L]) {
	children := make([]bt.Node[L], 0, n.Len())
	weights := make([]int, 0, n.Len())
	p := n.Params()
	i := 0
	for c := range n.Children() {
		children = append(children, c)
		w := 0
		if n.Kind() == kind.RandomWeighted {
			w = p.Weights[i]
		}
		weights = append(weights, max(1, w))
		i++
	}
	p.Weights = weights
	return p, children
}

// shrinkTree returns one-step smaller variants of a tree, smallest first:
// its children in its place, then the node with one child fewer, with a
// smaller RepeatN count or unit weights, then the node with one child
// replaced by one of that child's own one-step variants.
func shrinkTree[L any](v interface{}) gopter.Shrink {
	n := v.(bt.Node[L])
	var out []bt.Node[L]
	if n.Kind() == kind.Leaf || n.Kind() == kind.Custom {
		return gopter.NoShrink
	}
	p, children := parts(n)
	weights := p.Weights
	out = append(out, children...)
	nodeKind := n.Kind()
	if len(children) > 1 {
		for i := range children {
			cs := append(append([]bt.Node[L]{}, children[:i]...), children[i+1:]...)
			q := p
			q.Weights = append(append([]int{}, weights[:i]...), weights[i+1:]...)
			out = append(out, rebuild(nodeKind, q, cs))
		}
	}
	if nodeKind == kind.RepeatN && p.N > 2 {
		q := p
		q.N--
		out = append(out, rebuild(nodeKind, q, children))
	}
	if nodeKind == kind.RandomWeighted {
		q := p
		q.Weights = make([]int, len(weights))
		changed := false
		for i, w := range weights {
			q.Weights[i] = 1
			changed = changed || w != 1
		}
		if changed {
			out = append(out, rebuild(nodeKind, q, children))
		}
	}
	for i, c := range children {
		shrunk := shrinkTree[L](c)
		for {
			s, ok := shrunk()
			if !ok {
				break
			}
			cs := append([]bt.Node[L]{}, children...)
			cs[i] = s.(bt.Node[L])
			out = append(out, rebuild(nodeKind, p, cs))
		}
	}
	return listShrink(out)
}

// listShrink streams a list of candidates.
func listShrink[L any](list []bt.Node[L]) gopter.Shrink {
	i := 0
	return func() (interface{}, bool) {
		if i >= len(list) {
			return nil, false
		}
		i++
		return list[i-1], true
	}
}

// Signals returns a generator of signal sequences ([]behaviortree.Status of
// Success and Failure) of 0 to maxLen signals, shrinking toward shorter ones.
func Signals(maxLen int) gopter.Gen {
	elem := gen.OneConstOf(bt.Success, bt.Failure)
	return func(p *gopter.GenParameters) *gopter.GenResult {
		q := *p
		q.MinSize, q.MaxSize = 0, maxLen+1
		return gen.SliceOf(elem)(&q)
	}
}
