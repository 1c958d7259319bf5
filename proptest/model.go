package proptest

import (
	"math/rand/v2"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
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
	kind     kind.Kind
	leaf     L
	n        int
	weights  []int
	children []*mnode[L]
	cur      int // the child the node is in
	left     int // RepeatN: runs left, this one included
	// Parallel kinds: how many successes and failures end the node, and
	// each child's state: 0 running, 1 succeeded, -1 failed.
	needOK, needFail int
	done             []int
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
	m := &mnode[L]{kind: n.Kind(), n: n.Params().N}
	switch k := n.Len(); m.kind {
	case kind.Parallel:
		m.needOK, m.needFail = k, 1
	case kind.Race:
		m.needOK, m.needFail = 1, k
	case kind.Threshold:
		p := n.Params()
		m.needOK, m.needFail = allBut(p.Success, k), allBut(p.Failure, k)
	}
	if v, ok := n.Leaf(); ok {
		m.leaf = v
		return m
	}
	if m.kind == kind.Custom {
		panic("proptest.NewModel: custom nodes are not supported")
	}
	i := 0
	for c := range n.Children() {
		m.children = append(m.children, copyDef(c))
		w := 0
		if m.kind == kind.RandomWeighted {
			w = n.Params().Weights[i]
		}
		m.weights = append(m.weights, w)
		i++
	}
	return m
}

// allBut reads a Threshold count: negative counts are "all but k".
func allBut(c, n int) int {
	if c < 0 {
		return c + n + 1
	}
	return c
}

// isParallel reports whether nodes of kind k run all their children at once.
func isParallel(k kind.Kind) bool {
	return k == kind.Parallel || k == kind.Race || k == kind.Threshold
}

// enter starts the node afresh.
func (m *mnode[L]) enter(rng *rand.Rand) {
	switch m.kind {
	case kind.Leaf:
		return
	case kind.Parallel, kind.Race, kind.Threshold:
		m.done = make([]int, len(m.children))
		for _, c := range m.children {
			c.enter(rng)
		}
		return
	case kind.Random:
		m.cur = rng.IntN(len(m.children))
	case kind.RandomWeighted:
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

// signal gives the leaf at path (children indexes below m) the outcome
// ok. It returns whether this node ended, and with which outcome; and
// false when the leaf is not focused.
func (m *mnode[L]) signal(path []int, ok bool, rng *rand.Rand) (ended, outcome, focused bool) {
	if m.kind == kind.Leaf {
		return true, ok, len(path) == 0
	}
	if len(path) == 0 {
		return false, false, false
	}
	i := path[0]
	if isParallel(m.kind) {
		if i >= len(m.done) || m.done[i] != 0 {
			return false, false, false
		}
	} else if i != m.cur {
		return false, false, false
	}
	ended, res, focused := m.children[i].signal(path[1:], ok, rng)
	if !ended || !focused {
		return false, false, focused
	}
	e, o := m.react(i, res, rng)
	return e, o, true
}

// react is what m does when its child i ended with res.
func (m *mnode[L]) react(i int, res bool, rng *rand.Rand) (ended, outcome bool) {
	switch m.kind {
	case kind.Parallel, kind.Race, kind.Threshold:
		m.done[i] = -1
		if res {
			m.done[i] = 1
		}
		oks, fails := 0, 0
		for _, d := range m.done {
			switch d {
			case 1:
				oks++
			case -1:
				fails++
			}
		}
		switch {
		case oks >= m.needOK:
			return true, true
		case fails >= m.needFail || len(m.done)-fails < m.needOK:
			return true, false
		}
		return false, false
	case kind.Sequence:
		if res && m.cur+1 < len(m.children) {
			m.cur++
			m.children[m.cur].enter(rng)
			return false, false
		}
		return true, res
	case kind.Select:
		if !res && m.cur+1 < len(m.children) {
			m.cur++
			m.children[m.cur].enter(rng)
			return false, false
		}
		return true, res
	case kind.RepeatUntilFail:
		if res {
			m.children[0].enter(rng)
			return false, false
		}
		return true, true
	case kind.RepeatUntilSucceed:
		if !res {
			m.children[0].enter(rng)
			return false, false
		}
		return true, true
	case kind.RepeatN:
		if m.left > 1 {
			m.left--
			m.children[0].enter(rng)
			return false, false
		}
		return true, true
	case kind.AlwaysSucceed:
		return true, true
	case kind.AlwaysFail:
		return true, false
	case kind.Negate:
		return true, !res
	default: // Random, RandomWeighted
		return true, res
	}
}

// Value returns the current leaf's value: with several, the first of the
// frontier's.
func (m *Model[L]) Value() L {
	return m.leafAt(m.Frontier()[0])
}

func (m *Model[L]) leafAt(path []int) L {
	n := m.root
	for _, i := range path {
		n = n.children[i]
	}
	return n.leaf
}

// Frontier returns the paths (children indexes from the root) of the
// focused leaves, in order: one, or one per running branch of the running
// parallel nodes.
func (m *Model[L]) Frontier() [][]int {
	var out [][]int
	var walk func(n *mnode[L], path []int)
	walk = func(n *mnode[L], path []int) {
		switch {
		case n.kind == kind.Leaf:
			out = append(out, append([]int(nil), path...))
		case isParallel(n.kind):
			for i, c := range n.children {
				if n.done[i] == 0 {
					walk(c, append(path, i))
				}
			}
		default:
			walk(n.children[n.cur], append(path, n.cur))
		}
	}
	walk(m.root, nil)
	return out
}

// SignalAt gives the focused leaf at path the outcome s and returns how the
// root ended; it returns false, and changes nothing, when the leaf at path
// is not focused.
func (m *Model[L]) SignalAt(path []int, s bt.Status) (bt.Status, bool) {
	if s == bt.Running {
		return bt.Running, true
	}
	ended, res, focused := m.root.signal(path, s == bt.Success, m.rng)
	if !focused {
		return bt.Running, false
	}
	if !ended {
		return bt.Running, true
	}
	m.root.enter(m.rng)
	if res {
		return bt.Success, true
	}
	return bt.Failure, true
}

// Succeed tells the current leaf it succeeded, and returns how the root
// ended: Running if it did not.
func (m *Model[L]) Succeed() bt.Status { return m.Signal(bt.Success) }

// Fail tells the current leaf it failed, and returns how the root ended.
func (m *Model[L]) Fail() bt.Status { return m.Signal(bt.Failure) }

// Signal applies s (Running does nothing) to the first leaf of the
// frontier and returns how the root ended. When the root ends, the Model
// starts over from the root.
func (m *Model[L]) Signal(s bt.Status) bt.Status {
	st, _ := m.SignalAt(m.Frontier()[0], s)
	return st
}

// Clone returns an independent copy of the Model in its current state. The
// copy shares the random generator.
func (m *Model[L]) Clone() *Model[L] {
	return &Model[L]{root: m.root.clone(), rng: m.rng}
}

func (m *mnode[L]) clone() *mnode[L] {
	c := *m
	c.done = append([]int(nil), m.done...)
	c.children = make([]*mnode[L], len(m.children))
	for i, k := range m.children {
		c.children[i] = k.clone()
	}
	return &c
}
