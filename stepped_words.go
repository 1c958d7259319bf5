package behaviortree

import (
	"slices"
	"sync/atomic"
	"unsafe"
)

// This file is the storage of a version's words (Stepped.words): the node
// states of a tree of more than 32 nodes, 2 bits a node and 32 nodes a
// word, then the extras (two words for each node that keeps some: repeat
// and retry counts, wait progress, lotto picks), then the generator.
//
// A tree of up to flatWordsMax words keeps them in one array, which a step
// that changes anything copies whole: for a few words nothing is cheaper.
// A bigger tree keeps them in a persistent radix trie: leaves of leafWords
// words, under inner nodes of trieFan children, p.depth levels of them
// (depth >= 1; the root is always an inner node). A word w is in leaf
// w>>leafBits, at slot w&leafMask; the leaf's path from the root takes
// child (w>>leafBits)>>(trieFanBits*l) & trieFanMask at level l, counting
// down from depth-1. A step that changes k words copies the leaves that
// hold them and the inner nodes above those, O(k + log n) words, and
// shares every other node with the version it steps.
//
// Invariants: a node that a version can reach never changes. A step marks
// the nodes that it copied with its owner token (stepOwners: never 0,
// never reused), and writes only nodes of its own token; everything else
// it copies first. So within a step a node is copied at most once, and a
// version's nodes carry the tokens of the steps that made them, which no
// later step has. Subtrees of words that are all zero are the shared
// zeroTrie nodes (token 0), so a fresh version, and a step that clears
// every state, take O(log n) nodes.
//
// The saved binary form (stepped_state.go) is the flat array in either
// case: wordsOf materializes it.

const (
	leafBits    = 3
	leafWords   = 1 << leafBits // words of a leaf: 256 node states
	leafMask    = leafWords - 1
	trieFanBits = 3
	trieFan     = 1 << trieFanBits // children of an inner node
	trieFanMask = trieFan - 1
	// maxTrieDepth bounds p.depth: the words of maxSteppedNodes nodes,
	// (2^15 state words, at most two extra words a node, the generator)
	// fit in trieFan^maxTrieDepth leaves.
	maxTrieDepth = 8
)

// flatWordsMax is the most words a version keeps in one array (64: a
// tree of up to 2,048 nodes without extras); bigger ones are kept in a
// trie. Up to there a copy of the array costs less time than the trie's
// walks and allocations; the cost of the trie shows most on trees that
// complete every tick (their steps write states all over the tree): at
// 32 words the sweep tree of 1,024 leaves (2,047 nodes) took 20% more
// time a tick with a trie than with the array. A variable, so that tests
// can store the words of every tree in a trie.
var flatWordsMax int32 = 64

// wordLeaf is a leaf of a trie of words.
type wordLeaf struct {
	owner uint64 // the step that made it and may write it; 0: none
	w     [leafWords]uint64
}

// wordInner is an inner node of a trie of words: its children are
// *wordInner, or *wordLeaf at the lowest level.
type wordInner struct {
	owner uint64
	kids  [trieFan]unsafe.Pointer
}

// stepOwners hands out the steps' owner tokens.
var stepOwners atomic.Uint64

// zeroTrie[l] is the shared subtree of height l (0: a leaf) whose words
// are all zero. Its nodes have no owner: every step copies them before it
// writes.
var zeroTrie = func() (z [maxTrieDepth + 1]unsafe.Pointer) {
	z[0] = unsafe.Pointer(new(wordLeaf))
	for l := 1; l <= maxTrieDepth; l++ {
		n := new(wordInner)
		for i := range n.kids {
			n.kids[i] = z[l-1]
		}
		z[l] = unsafe.Pointer(n)
	}
	return z
}()

// trieDepth returns the depth of the trie of nwords words.
func trieDepth(nwords int32) int32 {
	leaves := (int64(nwords) + leafWords - 1) >> leafBits
	d := int32(1)
	for int64(1)<<(trieFanBits*d) < leaves {
		d++
	}
	if d > maxTrieDepth {
		panic("behaviortree.NewStepped: internal error: too many words for the trie")
	}
	return d
}

// trieWord returns word w of the trie root of the given depth.
func trieWord(root unsafe.Pointer, depth int32, w uint) uint64 {
	return trieLeaf(root, depth, w>>leafBits).w[w&leafMask]
}

// trieLeaf returns leaf c of the trie root of the given depth.
func trieLeaf(root unsafe.Pointer, depth int32, c uint) *wordLeaf {
	n := root
	for sh := uint(trieFanBits * (depth - 1)); ; sh -= trieFanBits {
		n = (*wordInner)(n).kids[c>>sh&trieFanMask]
		if sh == 0 {
			return (*wordLeaf)(n)
		}
	}
}

// trieFromWords returns a trie of the given depth holding w (zero past
// its end), sharing the zeroTrie subtrees where the words are zero.
func trieFromWords(w []uint64, depth int32) unsafe.Pointer {
	var build func(level int32, first int) unsafe.Pointer // first: the subtree's first word
	build = func(level int32, first int) unsafe.Pointer {
		if first >= len(w) {
			return zeroTrie[level]
		}
		if level == 0 {
			l := new(wordLeaf)
			copy(l.w[:], w[first:])
			if l.w == (wordLeaf{}).w {
				return zeroTrie[0]
			}
			return unsafe.Pointer(l)
		}
		n := new(wordInner)
		span := leafWords << (trieFanBits * (level - 1)) // words under each child
		zero := true
		for i := range n.kids {
			n.kids[i] = build(level-1, first+i*span)
			zero = zero && n.kids[i] == zeroTrie[level-1]
		}
		if zero {
			return zeroTrie[level]
		}
		return unsafe.Pointer(n)
	}
	return build(depth, 0)
}

// trieWords returns the first n words of the trie root of the given
// depth, in a new slice.
func trieWords(root unsafe.Pointer, depth int32, n int) []uint64 {
	out := make([]uint64, n)
	for c := 0; c*leafWords < n; c++ {
		copy(out[c*leafWords:], trieLeaf(root, depth, uint(c)).w[:])
	}
	return out
}

// A step that writes flat words writes its own copy, which the new
// version keeps. A step whose words end as the version's were (a tree
// that completes every tick the same way, each state cleared and written
// again) returns the version's words instead, and leaves its copy to the
// program's next step (sprogram.spare), which takes it rather than
// allocating: such steps allocate nothing. A copy goes to spare only
// once no version holds it.

// reuseWordsOff switches off, for the tests, what this file reuses: the
// spare words and the chunks of trie nodes (every copy then takes an
// allocation of its own, and no version shares the words of the version
// it steps unless the step wrote nothing).
var reuseWordsOff atomic.Bool

// newWords returns words for the step's own copy of flat words, not
// zeroed: the program's spare, or new ones.
func (s *stepper[L]) newWords() []uint64 {
	if s.p.spare.Load() != nil { // a plain load: no locked swap while there is none
		if w := s.p.spare.Swap(nil); w != nil {
			return unsafe.Slice(w, s.p.nwords)
		}
	}
	return make([]uint64, s.p.nwords)
}

// keepWords returns what the new version keeps for the step's own flat
// words: the version's words when they are the same (and the copy goes
// to spare), or the copy.
func (s *stepper[L]) keepWords() unsafe.Pointer {
	if s.from != nil && !reuseWordsOff.Load() && slices.Equal(s.words, unsafe.Slice((*uint64)(s.from), len(s.words))) {
		s.p.spare.Store(unsafe.SliceData(s.words))
		return s.from
	}
	return unsafe.Pointer(unsafe.SliceData(s.words))
}

// The words of a version, as the stepper reads and writes them. A big
// tree's words are read and written through a window: a run of words
// [base, base+len(win)) that the stepper holds, writable when wr is set.
// For flat words the window is the whole array (the version's, then the
// step's own copy); for a trie it is one leaf, which the stepper moves to
// the leaf of the word it needs.

// wordAt returns word w of a big tree's words.
func (s *stepper[L]) wordAt(w uint) uint64 {
	if x := w - s.base; x < uint(len(s.win)) {
		return s.win[x]
	}
	return s.wordAtSlow(w)
}

// wordAtSlow moves the window to the leaf of word w, and returns it.
func (s *stepper[L]) wordAtSlow(w uint) uint64 {
	l := trieLeaf(s.root, s.p.depth, w>>leafBits)
	s.win, s.base, s.wr = l.w[:], w&^leafMask, l.owner == s.owner && s.owner != 0
	return l.w[w&leafMask]
}

// wordForWrite returns word w of a big tree's words, of the step's own:
// for flat words a copy of the whole array, for a trie a copy of the
// path to w's leaf, whatever of it the step has not copied yet.
func (s *stepper[L]) wordForWrite(w uint) *uint64 {
	if !s.p.trie {
		s.own()
		return &s.win[w]
	}
	if s.owner == 0 {
		s.owner = stepOwners.Add(1)
	}
	n := (*wordInner)(s.root)
	if n.owner != s.owner {
		n = s.copyInner(n)
		s.root = unsafe.Pointer(n)
	}
	leaf := w >> leafBits
	for sh := uint(trieFanBits * (s.p.depth - 1)); sh > 0; sh -= trieFanBits {
		i := leaf >> sh & trieFanMask
		k := (*wordInner)(n.kids[i])
		if k.owner != s.owner {
			k = s.copyInner(k)
			n.kids[i] = unsafe.Pointer(k)
		}
		n = k
	}
	i := leaf & trieFanMask
	l := (*wordLeaf)(n.kids[i])
	if l.owner != s.owner {
		l = s.copyLeaf(l)
		n.kids[i] = unsafe.Pointer(l)
		if lt := s.ltab.l; leaf < uint(len(lt)) {
			lt[leaf] = l
		}
	}
	s.win, s.base, s.wr = l.w[:], w&^leafMask, true
	return &l.w[w&leafMask]
}

// orTrieWord or-s bits into state word w of a trie, in a leaf of the
// step's own.
func (s *stepper[L]) orTrieWord(w uint, bits uint64) {
	if l := s.ltab.l[w>>leafBits]; l.owner == s.owner && s.owner != 0 {
		l.w[w&leafMask] |= bits
		return
	}
	*s.wordForWrite(w) |= bits
}

// clearStateWords makes every state word of a trie zero, sharing the
// zeroTrie subtrees, and leaves the extras as they are.
func (s *stepper[L]) clearStateWords() {
	sw := uint(s.p.sw)
	if s.owner == 0 {
		s.owner = stepOwners.Add(1)
	}
	s.root = s.clearTrie(s.root, uint(s.p.depth), 0, sw)
	fillLeaves(s.ltab.l, s.root, s.p.depth)
	s.win, s.base, s.wr = nil, 0, false
}

// clearTrie returns subtree n, of the given height (0: a leaf), whose
// first word is first, with its words below hi zero: a node of the step's
// own, or a zeroTrie one.
func (s *stepper[L]) clearTrie(n unsafe.Pointer, height, first, hi uint) unsafe.Pointer {
	span := uint(leafWords) << (trieFanBits * height)
	if first >= hi {
		return n
	}
	if first+span <= hi {
		return zeroTrie[height]
	}
	if height == 0 {
		l := (*wordLeaf)(n)
		if l.owner != s.owner {
			l = s.copyLeaf(l)
		}
		clear(l.w[:hi-first])
		return unsafe.Pointer(l)
	}
	x := (*wordInner)(n)
	if x.owner != s.owner {
		x = s.copyInner(x)
	}
	sub := span / trieFan
	for i := range x.kids {
		x.kids[i] = s.clearTrie(x.kids[i], height-1, first+uint(i)*sub, hi)
	}
	return unsafe.Pointer(x)
}

// A trie step reads node states (get, inlined throughout run) from a
// table of the trie's leaves of node states, ltab: two loads more than flat
// words, where a walk from the root would make run's code much bigger,
// and slower on every tree. The step keeps the table equal to its root's
// leaves (wordForWrite and clearStateWords write the leaves they replace
// into it), and gives it back to the machine at its end, for the root
// that it made: the next step, which usually steps that version, takes
// it as it is; a step of another version fills it again, O(n/256). (So
// a machine keeps alive the leaves of node states of one version, the
// last it made: at most the words of one version.)

// leafTable is a table of the leaves of node states of the trie root.
type leafTable struct {
	root unsafe.Pointer
	l    []*wordLeaf
	slot *atomic.Pointer[leafTable] // the machine's, where the table goes back
	// The nodes that the step holding the table copies into: the rest of
	// the chunks last allocated, which no version holds yet (copyLeaf),
	// and the copies of the step before, and of this one so far.
	leaves           []wordLeaf
	inners           []wordInner
	lastL, lastI     int32
	copiesL, copiesI int32
}

// A step copies the nodes of a trie that it writes (wordForWrite,
// clearTrie) into chunks, which the table of leaves keeps from one step
// to the next: each chunk is as big as the copies that chunkSteps steps
// like the one before would make, so that steps that write as much as
// the one before (a tree that completes every tick writes states all
// over its words at every tick) allocate a chunk of leaves and one of
// inner nodes every chunkSteps steps, not a node at a time. (Chunks of
// one step's copies made two allocations a step; four steps' measured a
// few percent less time a step on bench/peers' 4,096-leaf sweep.) A
// chunk lives while a version holds any of its nodes: it keeps at most
// maxChunk nodes (72 bytes each) more alive than the versions hold, and
// a version kept alone holds at most chunkSteps times the nodes it
// copied.
const (
	maxChunk   = 64
	chunkSteps = 4
)

// copyLeaf returns a copy of l of the step's own.
func (s *stepper[L]) copyLeaf(l *wordLeaf) *wordLeaf {
	t := s.ltab
	if reuseWordsOff.Load() {
		return &wordLeaf{s.owner, l.w}
	}
	c := fromChunk(&t.leaves, t.lastL)
	t.copiesL++
	c.owner, c.w = s.owner, l.w
	return c
}

// copyInner returns a copy of n of the step's own.
func (s *stepper[L]) copyInner(n *wordInner) *wordInner {
	t := s.ltab
	if reuseWordsOff.Load() {
		return &wordInner{s.owner, n.kids}
	}
	c := fromChunk(&t.inners, t.lastI)
	t.copiesI++
	c.owner, c.kids = s.owner, n.kids
	return c
}

// fromChunk returns the next node of chunk, first making a new chunk
// (sized by chunkOf(last)) when it is used up.
func fromChunk[T any](chunk *[]T, last int32) *T {
	if len(*chunk) == 0 {
		*chunk = make([]T, chunkOf(last))
	}
	c := &(*chunk)[0]
	*chunk = (*chunk)[1:]
	return c
}

// chunkOf returns the nodes of a chunk, for a step before that copied
// last.
func chunkOf(last int32) int {
	return int(min(max(chunkSteps*last, 2), maxChunk))
}

// takeLeaves sets ltab to the leaves of node states of s.root, in the
// machine's table, which the step takes (another step at the same time
// makes its own).
func (s *stepper[L]) takeLeaves() {
	t := s.m.leafTab.Swap(nil)
	if t == nil {
		t = &leafTable{l: make([]*wordLeaf, (s.p.sw+leafMask)>>leafBits), slot: &s.m.leafTab}
	}
	if t.root != s.root {
		fillLeaves(t.l, s.root, s.p.depth)
		t.root = s.root
	}
	t.lastL, t.lastI, t.copiesL, t.copiesI = t.copiesL, t.copiesI, 0, 0
	s.ltab = t
}

// giveLeaves gives t back to its machine, as the table of root. (Not
// inlined, so that result is.)
//
//go:noinline
func giveLeaves(t *leafTable, root unsafe.Pointer) {
	t.root = root
	t.slot.Store(t)
}

// fillLeaves sets l to the first len(l) leaves under n, an inner node of
// the given height (1: its children are leaves).
func fillLeaves(l []*wordLeaf, n unsafe.Pointer, height int32) {
	kids := &(*wordInner)(n).kids
	if height == 1 {
		for i := range min(len(l), trieFan) {
			l[i] = (*wordLeaf)(kids[i])
		}
		return
	}
	span := 1 << (trieFanBits * (height - 1)) // leaves under each child
	for i := 0; i < trieFan && i*span < len(l); i++ {
		fillLeaves(l[i*span:], kids[i], height-1)
	}
}
