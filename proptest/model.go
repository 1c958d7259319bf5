package proptest

import (
	"math/rand/v2"

	bt "github.com/zipbt/behaviortree"
)

// Model is a reference interpreter of the Elixir behavior_tree semantics:
// a mutable copy of the definition in which every inner node remembers the
// child it is in and, for RepeatN, how many runs are left. Signals go down to
// the current leaf by recursion and come back up as "still running" or
// "ended with this outcome". It is slow and simple on purpose.
//
// Random nodes draw from the Model's own generator, so a Model agrees with
// a Tree only on definitions without them. Custom nodes are not supported.
type Model[L any] struct {
	root *mnode[L]
	rng  *rand.Rand
}

type mnode[L any] struct {
	kind     bt.Kind
	leaf     L
	n        int
	weights  []int
	children []*mnode[L]
	cur      int // the child the node is in
	left     int // RepeatN: runs left, this one included
}

// NewModel returns a Model of def, entered from its root. Random nodes draw
// from rng, which may be nil for definitions without them. It panics for
// definitions with custom nodes.
func NewModel[L any](def bt.Node[L], rng *rand.Rand) *Model[L] {
	m := &Model[L]{root: copyDef(def), rng: rng}
	m.root.enter(m.rng)
	return m
}

func copyDef[L any](n bt.Node[L]) *mnode[L] {
	m := &mnode[L]{kind: n.Kind(), n: n.N()}
	if v, ok := n.Leaf(); ok {
		m.leaf = v
		return m
	}
	if m.kind == bt.KindCustom {
		panic("proptest.NewModel: custom nodes are not supported")
	}
	i := 0
	for c := range n.Children() {
		m.children = append(m.children, copyDef(c))
		m.weights = append(m.weights, n.Weight(i))
		i++
	}
	return m
}

// enter starts the node afresh.
func (m *mnode[L]) enter(rng *rand.Rand) {
	switch m.kind {
	case bt.KindLeaf:
		return
	case bt.KindRandom:
		m.cur = rng.IntN(len(m.children))
	case bt.KindRandomWeighted:
		total := 0
		for _, w := range m.weights {
			total += w
		}
		x := rng.IntN(total)
		m.cur = 0
		for x >= m.weights[m.cur] {
			x -= m.weights[m.cur]
			m.cur++
		}
	default:
		m.cur = 0
	}
	m.left = m.n
	m.children[m.cur].enter(rng)
}

// signal gives the current leaf the outcome ok. It returns whether this node
// ended, and with which outcome.
func (m *mnode[L]) signal(ok bool, rng *rand.Rand) (ended, outcome bool) {
	if m.kind == bt.KindLeaf {
		return true, ok
	}
	ended, res := m.children[m.cur].signal(ok, rng)
	if !ended {
		return false, false
	}
	switch m.kind {
	case bt.KindSequence:
		if res && m.cur+1 < len(m.children) {
			m.cur++
			m.children[m.cur].enter(rng)
			return false, false
		}
		return true, res
	case bt.KindSelect:
		if !res && m.cur+1 < len(m.children) {
			m.cur++
			m.children[m.cur].enter(rng)
			return false, false
		}
		return true, res
	case bt.KindRepeatUntilFail:
		if res {
			m.children[0].enter(rng)
			return false, false
		}
		return true, true
	case bt.KindRepeatUntilSucceed:
		if !res {
			m.children[0].enter(rng)
			return false, false
		}
		return true, true
	case bt.KindRepeatN:
		if m.left > 1 {
			m.left--
			m.children[0].enter(rng)
			return false, false
		}
		return true, true
	case bt.KindAlwaysSucceed:
		return true, true
	case bt.KindAlwaysFail:
		return true, false
	case bt.KindNegate:
		return true, !res
	default: // Random, RandomWeighted
		return true, res
	}
}

// Value returns the current leaf's value.
func (m *Model[L]) Value() L {
	n := m.root
	for n.kind != bt.KindLeaf {
		n = n.children[n.cur]
	}
	return n.leaf
}

// Succeed tells the current leaf it succeeded, and returns how the root
// ended: Running if it did not.
func (m *Model[L]) Succeed() bt.Status { return m.Signal(bt.Success) }

// Fail tells the current leaf it failed, and returns how the root ended.
func (m *Model[L]) Fail() bt.Status { return m.Signal(bt.Failure) }

// Signal applies s (Running does nothing) and returns how the root ended.
// When the root ends, the Model starts over from the root.
func (m *Model[L]) Signal(s bt.Status) bt.Status {
	if s == bt.Running {
		return bt.Running
	}
	ended, res := m.root.signal(s == bt.Success, m.rng)
	if !ended {
		return bt.Running
	}
	m.root.enter(m.rng)
	if res {
		return bt.Success
	}
	return bt.Failure
}

// Clone returns an independent copy of the Model in its current state. The
// copy shares the random generator.
func (m *Model[L]) Clone() *Model[L] {
	return &Model[L]{root: m.root.clone(), rng: m.rng}
}

func (m *mnode[L]) clone() *mnode[L] {
	c := *m
	c.children = make([]*mnode[L], len(m.children))
	for i, k := range m.children {
		c.children[i] = k.clone()
	}
	return &c
}
