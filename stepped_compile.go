package behaviortree

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

// This file compiles a definition for the stepped engine (stepped.go) into
// flat arrays in preorder: a node's subtree is the range [i, end) of
// indexes, which makes a reset one masked clear of a bit range.

// maxSteppedNodes is the most nodes that a definition may have for
// [NewStepped] (an implicit root not counted): as many as
// mistreevous.MaxNodes, so that every tree mdsl.Parse and
// mistreevous.Parse read can run (TestLimitsMatchMistreevous checks it).
const maxSteppedNodes = 1 << 20

// maxSteppedDepth bounds the depth of a stepped tree: the engine updates,
// aborts and checks guards recursively, at most this deep.
const maxSteppedDepth = 4096

// sprogram is a definition compiled for the stepped engine.
type sprogram[L any] struct {
	nodes  []snode[L]
	names  atomic.Pointer[[]string] // the nodes' display names, made at the first step with events (nodeNames)
	hot    []hotNode                // what the fast path of update reads, by node: 16 bytes each
	kids   []int32                  // every node's children, node after node (snode.kids are slices of it)
	leaves []L                      // the value of each node (the zero L for inner nodes)
	small  bool                     // at most 32 nodes: the states fit in one word, inline in the version
	sw     int32                    // state words in Stepped.words (0 when small)
	nslots int32                    // two words each, after the state words
	rngAt  int32                    // the word of the version's own generator, or -1 when nothing draws
	nwords int32                    // the version's words; 0 when it needs none
	trie   bool                     // the words are in a trie of the given depth, not an array (stepped_words.go)
	depth  int32
	draws  bool // some node draws at random
	uses   [numAttrs + 2]bool
	pure   []bool // by node: a memoryless subtree that the engine may evaluate at once (stepped_pure.go), or nil
	// The moves of movable regions (stepped_fresh.go), or nil.
	moves     []smove
	moveW0    []int32 // by move: the first of its writes
	writes    []moveWrite
	merged    []wordBits
	firstLeaf []int32
	cache     *stepCache[L]          // the step cache (stepped_cache.go), for trees of up to 64 nodes without extra words; or nil
	spare     atomic.Pointer[uint64] // flat words that no version holds, for a step's own copy (stepped_words.go)
	// fp is the fingerprint that the program's saves carry, its
	// definition's Node.Fingerprint; shapeFP the hash of its nodes
	// (stepped_state.go), which is fp but for a definition that both
	// styles run: its saves carried shapeFP before they carried fp, and
	// a restore takes either.
	fp, shapeFP uint64
	// The action the resume path resumed last, and what it checks on
	// the way up (stepped_resume.go).
	resumeHint resumeHint
}

// indexes of sprogram.uses beyond the attribute kinds.
const (
	usesAction    = numAttrs
	usesCondition = numAttrs + 1
)

// hotNode is the part of a node that the engine's fast path reads, kept
// apart from snode so that a big tree's hot data stays in cache: 16 bytes.
type hotNode struct {
	kind  kind.Kind
	flags hotFlags
	bound kind.Bound // Repeat, Retry, Wait
	first int32      // the node's children are kids[first : first+n]; a movable leaf's moves are moves[first:][:2]
	n     int32
	end   int32 // one past the last index of the subtree
}

// hotFlags are a hotNode's flags.
type hotFlags uint8

const (
	hotPlain   hotFlags = 1 << iota // no guards on the path from the root, no callbacks
	hotFresh                        // plain, of a kind that fresh evaluates itself (freshKinds)
	hotMovable                      // in a movable region (stepped_fresh.go), whose moves are compiled
	hotTop                          // movable, and the top of its region
)

// is reports whether h has every flag of f.
func (h *hotNode) is(f hotFlags) bool { return h.flags&f == f }

// snode is one place of a compiled stepped tree.
type snode[L any] struct {
	kind         kind.Kind
	bound        kind.Bound
	plain        bool // no guards on the path from the root, no callbacks
	parent       int32
	end          int32   // one past the last index of the subtree
	slot         int32   // the node's two extra words, or -1
	g            int32   // the nearest node on the path from the root, this one included, that has guards; -1 if none
	guardedAbove int32   // for a node with guards, the nearest strict ancestor with guards, or -1
	kids         []int32 // children's indexes
	kidsAt       int32   // kids is sprogram.kids[kidsAt:][:len(kids)]
	min          int32   // ReactiveParallel: its failure count (0: off)
	max          int32   // ReactiveParallel: its success count (0: off)
	cum          []int32 // Lotto: cumulative tickets
	leaf         L
	at           *attrs[L]
	def          *node[L]
}

// steppedCompiled returns root's stepped program, compiling it once.
func steppedCompiled[L any](root *node[L]) (*sprogram[L], error) {
	if p := root.sprog.Load(); p != nil {
		return p, nil
	}
	p, err := compileStepped(root)
	if err != nil {
		return nil, err
	}
	if root.sprog.CompareAndSwap(nil, p) {
		return p, nil
	}
	return root.sprog.Load(), nil
}

// compileStepped lays root out in preorder, without recursion. A root
// that is not a kind.Root gets an implicit one, index 0. It refuses a
// definition of more than maxSteppedNodes nodes before it allocates
// anything for it; the program it makes takes O(nodes) memory.
func compileStepped[L any](root *node[L]) (*sprogram[L], error) {
	if root.size > maxSteppedNodes {
		return nil, fmt.Errorf("the tree has %d nodes, more than maxSteppedNodes (%d)", root.size, maxSteppedNodes)
	}
	n := root.size
	implicit := root.kind != kind.Root
	if implicit {
		n++
	}
	p := &sprogram[L]{nodes: make([]snode[L], n), rngAt: -1}
	kids := make([]int32, n-1)
	p.kids = kids
	// A frame is a node whose children are being laid out: the stack is
	// as deep as the tree, not as wide.
	type frame struct {
		nd   *node[L]
		id   int32
		next int32 // the child to lay out next
	}
	stack := make([]frame, 0, 64)
	nd, parent, index, id, base := root, int32(-1), int32(0), int32(0), 0
	if implicit {
		p.nodes[0] = snode[L]{kind: kind.Root, parent: -1, slot: -1, g: -1, guardedAbove: -1, end: int32(n)}
		p.nodes[0].kids, kids = kids[:1:1], kids[1:]
		parent, id, base = 0, 1, 1
	}
	for {
		if nd != nil {
			depth := base + len(stack)
			if !nd.kind.RunsOn(kind.Stepped) {
				return nil, errors.New(styleRefusal(int(id), nd.kind.String(), true))
			}
			if nd.kind == kind.Root && parent >= 0 {
				return nil, fmt.Errorf("node %d: a root can only be the top of a tree", id)
			}
			if depth >= maxSteppedDepth {
				return nil, fmt.Errorf("node %d: the tree is deeper than %d levels", id, maxSteppedDepth)
			}
			p.place(id, nd, parent, index, &kids)
			if len(nd.children) > 0 {
				stack = append(stack, frame{nd: nd, id: id})
			}
			id++
		}
		if len(stack) == 0 {
			break
		}
		f := &stack[len(stack)-1]
		if int(f.next) == len(f.nd.children) {
			stack = stack[:len(stack)-1]
			nd = nil
			continue
		}
		nd, parent, index = f.nd.children[f.next], f.id, f.next
		f.next++
	}
	p.hot = make([]hotNode, n)
	p.leaves = make([]L, n)
	for i := range p.nodes {
		s := &p.nodes[i]
		s.plain = s.g < 0 && s.at == nil
		h := hotNode{kind: s.kind, bound: s.bound, n: int32(len(s.kids)), end: s.end}
		if s.plain {
			h.flags |= hotPlain
			if freshKinds[s.kind] {
				h.flags |= hotFresh
			}
		}
		h.first = s.kidsAt
		p.hot[i] = h
		p.leaves[i] = s.leaf
	}
	markPure(p)
	buildMoves(p, movesBudget(int(n)))
	p.small = n <= 32
	if !p.small {
		p.sw = int32((n + 31) / 32)
	}
	p.nwords = p.sw + 2*p.nslots
	if p.draws {
		p.rngAt = p.nwords
		p.nwords++
	}
	if p.nwords > flatWordsMax {
		p.trie, p.depth = true, trieDepth(p.nwords)
	}
	if p.uses[attr.KindWhile] || p.uses[attr.KindUntil] {
		p.uses[usesCondition] = true
	}
	switch {
	case p.small && p.nwords == 0:
		p.cache = new(stepCache[L])
	case !p.small && p.sw == 2 && p.nwords == 2 && !p.trie: // 33 to 64 nodes, no extras
		p.cache = &stepCache[L]{wide: true}
	}
	p.shapeFP, p.fp = p.fingerprints(!root.stepped)
	return p, nil
}

// place compiles nd as node id, child index of node parent (-1 for the
// root), taking its children's slice from the front of *kids.
func (p *sprogram[L]) place(id int32, nd *node[L], parent, index int32, kids *[]int32) {
	s := &p.nodes[id]
	*s = snode[L]{kind: nd.kind, bound: nd.bound, parent: parent, end: id + int32(nd.size), slot: -1, g: -1, guardedAbove: -1,
		min: int32(nd.min), max: int32(nd.max), leaf: nd.leaf, at: nd.attrs, def: nd}
	if parent >= 0 {
		par := &p.nodes[parent]
		par.kids[index] = id
		s.g = par.g
	}
	if nd.attrs != nil {
		at := nd.attrs
		if at.has[attr.KindWhile] || at.has[attr.KindUntil] {
			s.guardedAbove, s.g = s.g, id
		}
		for k := attr.KindWhile; k < numAttrs; k++ {
			if at.has[k] {
				p.uses[k] = true
			}
		}
	}
	switch nd.kind {
	case kind.Leaf:
		p.uses[usesAction] = true
	case kind.Condition:
		p.uses[usesCondition] = true
	case kind.Lotto:
		s.slot = p.nslots
		p.nslots++
		p.draws = true
		s.cum = make([]int32, len(nd.children))
		t := int32(0)
		for i := range nd.children {
			w := int32(1)
			if nd.weights != nil && nd.weights[i] > 0 {
				w = int32(nd.weights[i])
			}
			t += w
			s.cum[i] = t
		}
	case kind.ReactiveParallel:
		s.min, s.max = reactiveCount(nd.failure, len(nd.children)), reactiveCount(nd.success, len(nd.children))
	case kind.Repeat, kind.Retry, kind.Wait:
		if nd.bound != kind.Unbounded {
			s.slot = p.nslots
			p.nslots++
		}
		if nd.bound == kind.Ranged {
			p.draws = true
		}
	}
	if k := len(nd.children); k > 0 {
		s.kidsAt = int32(len(p.kids) - len(*kids))
		s.kids, *kids = (*kids)[:k:k], (*kids)[k:]
	}
}

// reactiveCount is a ReactiveParallel's count c for k children as the
// engine keeps it: 0 when c switches the outcome off (c <= 0), k+1 when c
// can never be reached.
func reactiveCount(c, k int) int32 {
	switch {
	case c <= 0:
		return 0
	case c > k:
		return int32(k) + 1
	}
	return int32(c)
}

// displayName is a node's name as Mistreevous's getTreeNodeDetails gives
// it, or the name a fluent.Builder gave it.
func (s *snode[L]) displayName() string {
	if s.def != nil && s.def.name != "" {
		return s.def.name
	}
	switch s.kind {
	case kind.Leaf, kind.Condition:
		switch v := any(s.leaf).(type) {
		case Call:
			return v.Name
		case string:
			return v
		case fmt.Stringer:
			return v.String()
		}
		return fmt.Sprint(s.leaf)
	case kind.Lotto:
		if s.def == nil || s.def.weights == nil {
			return "LOTTO"
		}
		var b strings.Builder
		b.WriteString("LOTTO [")
		for i, w := range s.def.weights {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(w))
		}
		b.WriteByte(']')
		return b.String()
	case kind.Repeat, kind.Retry, kind.Wait:
		name := strings.ToUpper(kinds[s.kind].mistreevous)
		unit := "x"
		if s.kind == kind.Wait {
			unit = "ms"
		}
		switch s.bound {
		case kind.Fixed:
			return fmt.Sprintf("%s %d%s", name, s.min, unit)
		case kind.Ranged:
			return fmt.Sprintf("%s %d%s-%d%s", name, s.min, unit, s.max, unit)
		}
		return name
	}
	if m := kinds[s.kind].mistreevous; m != "" {
		return strings.ToUpper(m)
	}
	return strings.ToUpper(s.kind.String())
}
