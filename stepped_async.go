package behaviortree

import (
	"encoding/binary"
	"fmt"
	"iter"
	"sync"
	"sync/atomic"

	"github.com/zipbt/behaviortree/kind"
)

// This file holds async results: the Async handle, the versions' list of
// pending results, and their part of a save. DESIGN.md ("Async results")
// tells why a settlement is fixed at a look.

// Async is the result of an action that completes later (Mistreevous's
// promise-returning action). The agent makes one with [NewAsync] and
// returns a.Result(); the game settles it once, from any goroutine, with
// [Async.Succeed] or [Async.Fail]. Until the node sees the result, it
// stays running and its function is not called again; a reset or an abort
// of the node throws the handle away.
//
// A settlement is an input, as an agent's answer is: it enters the
// versions at one update of the node, and stays there. Each update of the
// running node is a look at the result (the first is the update after the
// one that took the Async, the second the next one, and so on), and the
// first look made after the settlement fixes, for good, the look n from
// which versions see it: the first look that no version had made. In
// every version that holds the Async, looks before n see it pending and
// looks from n on see the result. So a kept version stepped again behaves
// the same whatever was settled since, and a replay from any kept version
// is exact. In the usual loop (step, settle, step) the next step sees the
// result; a version whose step had seen it pending sees it pending again
// when stepped again, and so do the steps after it that had seen it
// pending.
//
// A version that holds an Async saves and restores ([Stepped.MarshalBinary]):
// a result settled by the time of the save is saved with the looks that
// still see it pending (the save fixes them as a look would), and a
// pending one by its id ([Async.ID]). The restored version holds a new
// Async of that id ([Stepped.Async]), which the game settles as it would
// have settled the first:
//
//	restored, err := saved.RestoreStepped(def, agent)
//	...
//	if a, ok := restored.Async(id); ok {
//		a.Succeed()
//	}
type Async struct {
	v  atomicStatus  // the game's settlement
	id atomic.Uint64 // the id the first version that took a gave it
	mu sync.Mutex
	// seen is the last look that found a pending, and at the look from
	// which versions see the result, 0 until a look found it settled.
	seen, at uint64
}

// atomicStatus is a Status settled at most once, safe for concurrent use.
type atomicStatus struct{ v atomic.Int32 }

func (a *atomicStatus) load() Status { return Status(a.v.Load()) }

func (a *atomicStatus) settle(s Status) bool {
	return a.v.CompareAndSwap(int32(Running), int32(s))
}

// NewAsync returns an unsettled Async.
func NewAsync() *Async { return &Async{} }

// Result returns the Result that makes an action wait for a.
func (a *Async) Result() Result { return Result{Async: a} }

// Succeed settles a with success, if it is not settled yet, and reports
// whether this call settled it.
func (a *Async) Succeed() bool { return a.v.settle(Success) }

// Fail settles a with failure, if it is not settled yet, and reports
// whether this call settled it.
func (a *Async) Fail() bool { return a.v.settle(Failure) }

// Settled returns a's result, Success or Failure, and true once the game
// has settled it, and Running and false before. (A version sees the
// result at a look of its node: see [Async].)
func (a *Async) Settled() (Status, bool) {
	s := a.v.load()
	return s, s != Running
}

// ID returns a's id: the versions of a tree number the async results that
// their actions return, 1, 2, ... in each line of versions, and the step
// that took a gave it the next number. It is 0 until a step took a. A
// saved version keeps the ids of its pending results, by which
// [Stepped.Async] finds them after a restore.
func (a *Async) ID() uint64 { return a.id.Load() }

// look returns what look j of a node waiting for a sees: a's result and
// true from the look fixed by the first look that found a settled, and
// Running and false before it.
func (a *Async) look(j uint64) (Status, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.at == 0 {
		if a.v.load() == Running {
			a.seen = max(a.seen, j)
			return Running, false
		}
		a.at = a.seen + 1
	}
	if j < a.at {
		return Running, false
	}
	return a.v.load(), true
}

// fixed returns, for a version whose next look at a is j, a's result and
// the number of looks from j that still see it pending, once a is settled
// (which fixes the look it is seen at, if no look did); Running when it is
// not.
func (a *Async) fixed(j uint64) (Status, uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	s := a.v.load()
	if s == Running {
		return Running, 0
	}
	if a.at == 0 {
		a.at = a.seen + 1
	}
	if a.at <= j {
		return s, 0
	}
	return s, a.at - j
}

// asyncEntry is one cell of a persistent list of pending async results:
// node's, its id in the version's line, and the looks made at it so far.
type asyncEntry struct {
	node  int32
	a     *Async
	id    uint64
	looks uint64
	next  *asyncEntry
}

// without returns the list l without node n's entry, or (look) with that
// entry's looks counted one more, sharing the cells after it.
func (l *asyncEntry) without(n int32, look bool) *asyncEntry {
	var keep []*asyncEntry
	for e := l; e != nil; e = e.next {
		if e.node != n {
			keep = append(keep, e)
			continue
		}
		rest := e.next
		if look {
			rest = &asyncEntry{node: n, a: e.a, id: e.id, looks: e.looks + 1, next: rest}
		}
		for i := len(keep) - 1; i >= 0; i-- {
			k := *keep[i]
			k.next = rest
			rest = &k
		}
		return rest
	}
	return l
}

// live returns the entries of t's list that an action waits for, by
// increasing node (a node that is not running may keep an entry: a reset
// without an abort leaves it until the node's next update, which drops
// it).
func (t Stepped[L]) live() []*asyncEntry {
	var es []*asyncEntry
	for e := t.pending(); e != nil; e = e.next {
		if t.nodeState(e.node) != StateRunning {
			continue
		}
		i := len(es)
		for i > 0 && es[i-1].node > e.node {
			i--
		}
		es = append(es, nil)
		copy(es[i+1:], es[i:])
		es[i] = e
	}
	return es
}

// Async returns the async result with the given id that an action of
// this version waits for, and whether there is one: after a restore, the
// game settles a saved pending result through it.
func (t Stepped[L]) Async(id uint64) (*Async, bool) {
	t.mustM("Async")
	for _, e := range t.live() {
		if e.id == id {
			return e.a, true
		}
	}
	return nil, false
}

// Pending returns an iterator over the async results that the actions of
// this version wait for, by increasing node: each action's node (its
// preorder index) and the Async, which may be settled already.
func (t Stepped[L]) Pending() iter.Seq2[int, *Async] {
	t.mustM("Pending")
	es := t.live()
	return func(yield func(int, *Async) bool) {
		for _, e := range es {
			if !yield(int(e.node), e.a) {
				return
			}
		}
	}
}

// The async section of a save (after the words, before the memory; a
// save that has one starts with steppedAsyncMagic): the last id given
// (uvarint), the number of entries (uvarint), then for each entry, by
// increasing node: the node and the id (uvarints), the result (a byte: 0
// pending, 1 success, 2 failure) and, for a result, the looks from the
// version's next one that still see it pending (uvarint).

// asyncSection returns the async section of t, or nil when t has none to
// save (its line never took an async result).
func (t Stepped[L]) asyncSection() []byte {
	if t.ids() == 0 {
		return nil
	}
	es := t.live()
	out := binary.AppendUvarint(nil, t.ids())
	out = binary.AppendUvarint(out, uint64(len(es)))
	for _, e := range es {
		out = binary.AppendUvarint(out, uint64(e.node))
		out = binary.AppendUvarint(out, e.id)
		s, delay := e.a.fixed(e.looks + 1)
		out = append(out, byte(s))
		if s != Running {
			out = binary.AppendUvarint(out, delay)
		}
	}
	return out
}

// maxAsyncDelay bounds the looks a saved result stays pending.
const maxAsyncDelay = 1 << 62

// scanAsyncSection reads the form of the async section at the start of
// data, which starts at byte base of the save, calling each with every
// entry, and returns the last id and the section's length; the error says
// what is wrong, and at which byte of the save.
func scanAsyncSection(data []byte, base int, each func(node, id uint64, s Status, delay uint64) string) (uint64, int, error) {
	off := 0
	bad := func(format string, args ...any) (uint64, int, error) {
		return 0, 0, fmt.Errorf("async results, byte %d: %s", base+off, fmt.Sprintf(format, args...))
	}
	next := func() (uint64, bool) {
		x, k := uvarint(data[off:])
		if k <= 0 {
			return 0, false
		}
		off += k
		return x, true
	}
	ids, ok := next()
	if !ok || ids == 0 {
		return bad("damaged or zero last id")
	}
	n, ok := next()
	if !ok || n > uint64(len(data)) { // an entry takes 3 bytes at least
		return bad("damaged count")
	}
	last := int64(-1)
	for range n {
		at := off
		node, ok := next()
		if !ok || node > 1<<31 || int64(node) <= last {
			return bad("damaged node, or nodes not in increasing order")
		}
		last = int64(node)
		id, ok := next()
		if !ok || id == 0 || id > ids {
			return bad("node %d: id damaged, 0 or above the last id %d", node, ids)
		}
		if off >= len(data) || data[off] > byte(Failure) {
			return bad("node %d: damaged result", node)
		}
		s := Status(data[off])
		off++
		var delay uint64
		if s != Running {
			if delay, ok = next(); !ok || delay >= maxAsyncDelay {
				return bad("node %d: damaged count of looks", node)
			}
		}
		if each != nil {
			if msg := each(node, id, s, delay); msg != "" {
				off = at
				return bad("%s", msg)
			}
		}
	}
	return ids, off, nil
}

// checkAsyncSection checks the form of the async section at the start of
// data, at byte base of the save, and returns its length.
func checkAsyncSection(data []byte, base int) (int, error) {
	_, k, err := scanAsyncSection(data, base, nil)
	return k, err
}

// readAsyncSection reads the async section at the start of data, at byte
// base of the save, for the version whose node states out holds, and
// returns the list of entries (with new Async handles), the last id and
// the section's length.
func readAsyncSection[L any](out Stepped[L], data []byte, base int) (*asyncEntry, uint64, int, error) {
	p := out.m.p
	var es []*asyncEntry
	seen := map[uint64]bool{}
	ids, k, err := scanAsyncSection(data, base, func(node, id uint64, s Status, delay uint64) string {
		if node >= uint64(len(p.nodes)) {
			return fmt.Sprintf("node %d of %d", node, len(p.nodes))
		}
		if nd := &p.nodes[node]; nd.kind != kind.Leaf || out.nodeState(int32(node)) != StateRunning {
			return fmt.Sprintf("node %d (%s) is not a running action", node, nd.displayName())
		}
		if seen[id] {
			return fmt.Sprintf("node %d: id %d given twice", node, id)
		}
		seen[id] = true
		a := &Async{}
		a.id.Store(id)
		if s != Running {
			a.v.settle(s)
			a.seen, a.at = delay, delay+1
		}
		es = append(es, &asyncEntry{node: int32(node), a: a, id: id})
		return ""
	})
	if err != nil {
		return nil, 0, 0, err
	}
	var l *asyncEntry
	for i := len(es) - 1; i >= 0; i-- {
		es[i].next = l
		l = es[i]
	}
	return l, ids, k, nil
}
