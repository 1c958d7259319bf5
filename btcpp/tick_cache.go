package btcpp

import (
	bin "encoding/binary"
	"errors"
	"sync"
	"sync/atomic"
	"unsafe"
)

// The tick cache: interned versions and their ticks, for the trees whose
// ticks depend on nothing but their version and the answers of their Go
// leaves.
//
// A tree is closed (closedProgram) when it has at most cacheMaxNodes
// nodes, no node that keeps a nodeExt or reads a clock (the Loop, timed
// and entry-updated nodes), no stateful Go action, and no Go leaf port
// that can write a {key} entry (an output or in-out port whose value, its
// attribute or else its default, is a reference: what a leaf writes is
// not its answer). A tick of such a tree is a function of the version
// ticked (node states, wake-up flag, blackboard) and of what its Go leaves
// answer: the scripts, the pre- and post-conditions, SetBlackboard and the
// ports read the version's blackboard, and write a new one only as a
// function of it. So the calls a tick makes from a version form a trie,
// each call's answer choosing the next call, down to the version the tick
// ends in and its result.
//
// The cache keeps the versions that ticks of a closed tree make, one per
// value (intern: equal node states, flag, result, root executions and
// blackboard storage: a tick that writes no entry shares the blackboard
// of the version it ticks), and for each such version and each of Tick
// and TickOnce, the trie of its ticks. A tick of an interned version
// walks its trie, calling each leaf with a handle made for that version
// (interned.calls), and returns the interned version at the trie's end:
// no rule runs and nothing is allocated. A tick that finds no trie, or an
// answer the trie has no branch for (a new answer, an error, a status
// that is none of the five), runs the rules (learn), first with the
// answers the leaves already gave (the script; no leaf is called twice),
// then live, recording its calls; a tick without error adds them to the
// trie.
//
// The cache is shared by every version and goroutine (branches are set by
// compare-and-swap and never change) and bounded (cacheMaxVersions
// versions, cacheMaxTrie trie nodes). Once it is full, ticks that miss
// take the rules without recording, and the ticks through it are counted
// by windows of cacheWindow: a window in which more than one tick in
// cacheMissShare missed switches the cache off for the tree (off), as the
// root package's step cache does. A tree whose ticks keep writing new
// entries (a counter) fills it and turns it off after about
// cacheMaxVersions+cacheWindow ticks.
//
// TestCacheSameAsRules checks the cache against the rules (tickCacheOff),
// tick by tick, on random closed trees with random answers, errors and
// invalid statuses.

const (
	cacheMaxNodes    = 64      // the largest closed tree
	cacheMaxVersions = 1 << 10 // interned versions, per tree
	cacheMaxTrie     = 1 << 13 // trie nodes, per tree
	cacheWindow      = 1 << 10 // ticks counted, once full, between two verdicts
	cacheMissShare   = 8       // a window with more than cacheWindow/cacheMissShare misses switches the cache off
)

// tickCacheOff turns the tick cache off, for the tests that check it
// against the rules.
var tickCacheOff bool

// closedProgram reports whether p's ticks depend only on the version and
// the leaves' answers (see above).
func closedProgram(p *program) bool {
	if len(p.nodes) == 0 || len(p.nodes) > cacheMaxNodes || p.nExt > 0 || p.timed || p.delta != nil {
		return false
	}
	for i := range p.nodes {
		nd := &p.nodes[i]
		r := nd.k.leaf
		if r == nil {
			continue
		}
		if r.kind == leafAction {
			return false
		}
		for _, port := range r.ports {
			if port.Dir == In {
				continue
			}
			raw, ok := nd.attrs[port.Name]
			if !ok {
				raw, ok = port.Default, port.HasDefault
			}
			if _, ref := refKey(raw, port.Name); ok && ref {
				return false
			}
		}
	}
	return true
}

// leafReads reports whether a Go leaf of p has a port whose value is a
// {key} reference: its handle must then read the version's blackboard.
func leafReads(p *program) bool {
	for i := range p.nodes {
		nd := &p.nodes[i]
		if nd.k.leaf == nil {
			continue
		}
		for _, port := range nd.k.ports {
			raw, ok := nd.attrs[port.Name]
			if !ok {
				raw, ok = port.Default, port.HasDefault
			}
			if _, ref := refKey(raw, port.Name); ok && ref {
				return true
			}
		}
	}
	return false
}

// interned is what the tick cache keeps of an interned version: the
// tries of its ticks (Tick's, then TickOnce's) and the handles its leaves
// get, which read its blackboard.
type interned struct {
	roots [2]atomic.Pointer[tnode]
	calls []Call
}

// tickCache is the tick cache of a closed program.
type tickCache struct {
	p *program
	// calls are the handles given to the leaves on a cached tick when no
	// leaf port reads the blackboard (else each interned version has its
	// own): they name the node and read literal ports, through callT,
	// which has the program and an empty blackboard and is never written.
	calls []Call
	callT ticker
	reads bool       // leafReads
	fns   []LeafFunc // each node's Go leaf function, nil for the others

	mu       sync.Mutex
	versions map[string]*Tree // the interned versions, by key
	trie     atomic.Int32     // trie nodes made
	filled   atomic.Bool      // a version or a trie node found no room
	steps    atomic.Int32     // once filled: the ticks of the window
	misses   atomic.Int32     // and those that missed
	off      atomic.Bool
	pinned   bool // tests: never switch off
}

// newTickCache returns p's tick cache, or nil when p is not closed.
func newTickCache(p *program) *tickCache {
	if !closedProgram(p) {
		return nil
	}
	c := &tickCache{p: p, fns: make([]LeafFunc, len(p.nodes)), versions: map[string]*Tree{}, reads: leafReads(p)}
	for i := range c.fns {
		if r := p.nodes[i].k.leaf; r != nil {
			c.fns[i] = r.fn
		}
	}
	if !c.reads {
		c.calls = c.callsOn(newBoard())
	}
	return c
}

// callsOn returns a handle for each node, reading the blackboard bb.
func (c *tickCache) callsOn(bb *board) []Call {
	t := &ticker{p: c.p, bb: bb}
	calls := make([]Call, len(c.p.nodes))
	for i := range calls {
		calls[i] = Call{t: t, n: i}
	}
	return calls
}

// tnode is a node of a trie: a call of leaf n, or (n < 0) the end of a
// tick, in the version to with the result res.
type tnode struct {
	n      int32
	via    Status // the answer of parent that leads here
	parent *tnode
	fn     LeafFunc
	call   *Call
	to     *Tree
	res    Status
	next   [numStatuses]atomic.Pointer[tnode] // by answer
}

// answer is what a leaf answered, for a script or a trie.
type answer struct {
	n   int32
	res Status
	err error
}

// recorder is a learning tick's part in tickGoLeaf: it gives the
// script's answers first, then calls the leaves, and notes every answer.
type recorder struct {
	script []answer
	calls  []answer
	bad    bool // an answer the trie cannot hold: an error, an invalid status
	replay bool // only answer from the script (tick_moves.go): keep no calls
}

// errCacheDiverged is the error of a replay that called another leaf than
// the one that answered: the ticks of a closed tree are deterministic, so
// it never happens.
var errCacheDiverged = errors.New("internal error: the tick cache's replay diverged from the leaves' calls")

// answer returns the answer of leaf n, which fn computes when the script
// is done.
func (r *recorder) answer(n int, fn LeafFunc, c *Call) (Status, error) {
	var a answer
	if len(r.script) > 0 {
		a, r.script = r.script[0], r.script[1:]
		if a.n != int32(n) {
			r.bad = true
			return Idle, errCacheDiverged
		}
	} else {
		res, err := fn(c)
		a = answer{int32(n), res, err}
	}
	if r.replay {
		return a.res, a.err
	}
	r.calls = append(r.calls, a)
	if a.err != nil || a.res > Skipped {
		r.bad = true
	}
	return a.res, a.err
}

// tick ticks t through the cache.
func (c *tickCache) tick(t *Tree, once bool) (*Tree, Status, error) {
	var e *tnode
	if t.in != nil {
		e = t.in.roots[b2i(once)].Load()
	}
	if e == nil {
		return c.learn(t, once, nil)
	}
	for e.n >= 0 {
		res, err := e.fn(e.call)
		if err == nil && res <= Skipped {
			if nx := e.next[res].Load(); nx != nil {
				e = nx
				continue
			}
		}
		return c.learn(t, once, e.script(answer{e.n, res, err}))
	}
	if c.filled.Load() {
		c.counted(false)
	}
	return e.to, e.res, nil
}

// script returns the answers that lead to e, then last.
func (e *tnode) script(last answer) []answer {
	k := 1
	for x := e; x.parent != nil; x = x.parent {
		k++
	}
	s := make([]answer, k)
	s[k-1] = last
	for x := e; x.parent != nil; x = x.parent {
		k--
		s[k-1] = answer{x.parent.n, x.via, nil}
	}
	return s
}

// learn ticks t by the rules, the leaves first answering from script, and
// adds the tick to t's trie when it can.
func (c *tickCache) learn(t *Tree, once bool, script []answer) (*Tree, Status, error) {
	full := c.filled.Load()
	if full {
		c.counted(true)
	}
	rec := &recorder{script: script}
	nt, res, err := t.tickRules(once, rec)
	if err != nil || rec.bad || full {
		return nt, res, err
	}
	nt = c.intern(nt)
	if t.in != nil && nt.in != nil {
		c.insert(t, once, rec.calls, nt, res)
	}
	return nt, res, nil
}

// counted counts a tick through a full cache, and switches the cache off
// at the end of a window with too many misses.
func (c *tickCache) counted(missed bool) {
	if missed {
		c.misses.Add(1)
	}
	if c.steps.Add(1) != cacheWindow {
		return
	}
	if c.misses.Load() > cacheWindow/cacheMissShare && !c.pinned {
		c.off.Store(true)
	}
	c.misses.Store(0)
	c.steps.Store(0)
}

// key returns the interning key of v: its node states, flag, result, root
// executions, and its blackboard's storage (a closed tree's ticks share
// the blackboard of the version they tick; the interned version keeps the
// storage alive, so its address names it).
func (c *tickCache) key(v *Tree) string {
	b := make([]byte, 0, len(v.st)*nodeStateSize+40)
	if len(v.st) > 0 {
		b = append(b, unsafe.Slice((*byte)(unsafe.Pointer(&v.st[0])), len(v.st)*nodeStateSize)...)
	}
	b = append(b, byte(v.status), byte(b2i(v.wake)), byte(b2i(v.ticked)))
	b = bin.AppendUvarint(b, uint64(v.rootTicks))
	b = bin.AppendUvarint(b, uint64(uintptr(unsafe.Pointer(unsafe.SliceData(v.bb.scopes)))))
	b = bin.AppendUvarint(b, uint64(uintptr(unsafe.Pointer(unsafe.SliceData(v.bb.info)))))
	return string(b)
}

// intern returns the interned version equal to v: an older one, or v
// itself, made interned, when there is room; else v.
func (c *tickCache) intern(v *Tree) *Tree {
	k := c.key(v)
	c.mu.Lock()
	defer c.mu.Unlock()
	if w, ok := c.versions[k]; ok {
		return w
	}
	if len(c.versions) >= cacheMaxVersions {
		c.filled.Store(true)
		return v
	}
	in := &interned{calls: c.calls}
	if c.reads {
		in.calls = c.callsOn(&v.bb)
	}
	v.in = in
	c.versions[k] = v
	return v
}

// room takes a trie node from the bound.
func (c *tickCache) room() bool {
	if c.trie.Add(1) > cacheMaxTrie {
		c.filled.Store(true)
		return false
	}
	return true
}

// insert adds the tick of t (once: TickOnce) that made calls and ended in
// nt with res to t's trie.
func (c *tickCache) insert(t *Tree, once bool, calls []answer, nt *Tree, res Status) {
	slot := &t.in.roots[b2i(once)]
	var parent *tnode
	via := Idle
	for _, a := range calls {
		e := slot.Load()
		if e == nil {
			if !c.room() {
				return
			}
			e = &tnode{n: a.n, via: via, parent: parent, fn: c.fns[a.n], call: &t.in.calls[a.n]}
			if !slot.CompareAndSwap(nil, e) {
				e = slot.Load()
			}
		}
		if e.n != a.n {
			return // never: the same answers make the same calls
		}
		parent, via, slot = e, a.res, &e.next[a.res]
	}
	if slot.Load() == nil && c.room() {
		slot.CompareAndSwap(nil, &tnode{n: -1, via: via, parent: parent, to: nt, res: res})
	}
}

// b2i is 1 for true.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
