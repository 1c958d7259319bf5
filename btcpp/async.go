package btcpp

import (
	bin "encoding/binary"
	"fmt"
	"iter"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/hook"
)

// This file holds the Go actions that wait for an Async (Call.Await): the
// versions' list of pending results, the ticks that look at them, and
// their part of a save. The rule that fixes a settlement at a look is the
// root package's (stepped_async.go, DESIGN.md "Async results"), reached
// through behaviortree.InternalAsync: a btcpp version sees a settlement
// at the same look as a Stepped version would.

// asyncEntry is one cell of a version's persistent list of pending async
// results, by increasing node: node's Async, its id in the version's line
// of versions, and the looks made at it so far. Cells are never changed;
// a tick that changes the list copies the cells before the change.
type asyncEntry struct {
	node  int32
	a     *bt.Async
	id    uint64
	looks uint64
	next  *asyncEntry
}

// find returns node n's entry in l, or nil.
func (l *asyncEntry) find(n int32) *asyncEntry {
	for e := l; e != nil && e.node <= n; e = e.next {
		if e.node == n {
			return e
		}
	}
	return nil
}

// put returns l with e (whose next is ignored) in place of e.node's entry,
// or added in order, sharing the cells after it.
func (l *asyncEntry) put(e asyncEntry) *asyncEntry {
	if l == nil || e.node < l.node {
		e.next = l
		return &e
	}
	if e.node == l.node {
		e.next = l.next
		return &e
	}
	c := *l
	c.next = l.next.put(e)
	return &c
}

// drop returns l without node n's entry, sharing the cells after it.
func (l *asyncEntry) drop(n int32) *asyncEntry {
	if l == nil || l.node > n {
		return l
	}
	if l.node == n {
		return l.next
	}
	rest := l.next.drop(n)
	if rest == l.next {
		return l
	}
	c := *l
	c.next = rest
	return &c
}

// Await makes the stateful action wait for a (BehaviorTree.CPP's
// StatefulActionNode whose onStart starts the work, here work that the
// game finishes later: a motion, a path search, a reply over the
// network). OnStart, or OnRunning, returns what Await returns:
//
//	OnStart: func(c *btcpp.Call) (btcpp.Status, error) {
//		a := bt.NewAsync()
//		go plan(a) // calls a.Succeed() or a.Fail() when done
//		return c.Await(a)
//	},
//
// The node is then RUNNING, and its ticks only look at a: OnRunning is
// not called. The first tick whose look sees a settled returns SUCCESS or
// FAILURE, as a.Succeed or a.Fail settled it. A halt of the node (a
// reactive parent's, a Timeout's, Tree.Halt) throws a away and calls
// OnHalted; a later settlement of a is seen by no version.
//
// A settlement is an input fixed at a look, as in the root package (see
// [bt.Async]): each tick of the waiting node is a look, and the first look
// made after the settlement fixes for good the look from which versions
// see it. So in the usual loop (tick, settle, tick) the next tick sees the
// result, and a kept version ticked again behaves as it did the first
// time: its ticks that had seen a pending see it pending again. The tick
// that takes a gives it the next id of the line of versions ([bt.Async.ID]),
// by which [Tree.Async] finds it after a restore.
//
// Await returns RUNNING, which the action must return with it. It is an
// error (a LogicError, and a is not taken) outside OnStart and OnRunning
// of a stateful action, with a nil a, or called twice in one call; an
// action that returns anything but RUNNING after it, or an error, does
// not wait for a, and the first is a LogicError.
func (c *Call) Await(a *bt.Async) (Status, error) {
	t := c.t
	switch {
	case a == nil:
		return Idle, c.logicError("Await of a nil Async")
	case !t.mayAwait || t.awaitNode != c.n:
		return Idle, c.logicError("Await outside OnStart and OnRunning of a stateful action")
	case t.await != nil:
		return Idle, c.logicError("Await called twice in one call")
	}
	t.await = a
	return Running, nil
}

// logicError is a LogicError of c's node.
func (c *Call) logicError(msg string) error {
	return newError(LogicError, "node %q: %s", c.t.p.nodes[c.n].path, msg)
}

// callAction calls fn, OnStart or OnRunning of node n's action, and takes
// the Async it awaits, if any.
func (t *ticker) callAction(n int, fn func(*Call) (Status, error)) (Status, error) {
	t.mayAwait, t.awaitNode, t.await = true, n, nil
	res, err := fn(t.callFor(n))
	a := t.await
	t.mayAwait, t.await = false, nil
	if a == nil || err != nil {
		return res, err
	}
	if res != Running {
		return Idle, t.errorf(n, LogicError, "a stateful action returned %v after Await: it must return RUNNING", res)
	}
	t.ids++
	bt.InternalAsync(hook.Module, a, hook.AsyncTake, t.ids)
	t.pend = t.pend.put(asyncEntry{node: int32(n), a: a, id: t.ids})
	return Running, nil
}

// lookAsync is a tick of node n, RUNNING and waiting for e's Async: a
// look, which sees the result (the entry is dropped) or not (the entry
// counts one more look).
func (t *ticker) lookAsync(n int, e *asyncEntry) Status {
	r, _ := bt.InternalAsync(hook.Module, e.a, hook.AsyncLook, e.looks+1)
	switch r {
	case bt.Success:
		t.pend = t.pend.drop(int32(n))
		return Success
	case bt.Failure:
		t.pend = t.pend.drop(int32(n))
		return Failure
	}
	t.pend = t.pend.put(asyncEntry{node: e.node, a: e.a, id: e.id, looks: e.looks + 1})
	return Running
}

// live returns the entries of t's list whose node is RUNNING (an entry of
// a node that is not is never used: the node's next start drops it).
func (t *Tree) live() []*asyncEntry {
	if t == nil {
		return nil
	}
	var es []*asyncEntry
	for e := t.pend; e != nil; e = e.next {
		if t.st[e.node].status == Running {
			es = append(es, e)
		}
	}
	return es
}

// Async returns the async result with the given id that an action of
// this version waits for, and whether there is one: after a restore, the
// game settles a saved pending result through it (the id is the one
// [bt.Async.ID] gave before the save):
//
//	restored, err := tree.Restore(saved)
//	...
//	if a, ok := restored.Async(id); ok {
//		a.Succeed()
//	}
func (t *Tree) Async(id uint64) (*bt.Async, bool) {
	for _, e := range t.live() {
		if e.id == id {
			return e.a, true
		}
	}
	return nil, false
}

// Pending returns an iterator over the async results that the actions of
// this version wait for, by increasing node: each action's node (its
// preorder index) and the Async, which may be settled already (a version
// sees a settlement at its next look: see [Call.Await]).
func (t *Tree) Pending() iter.Seq2[int, *bt.Async] {
	es := t.live()
	return func(yield func(int, *bt.Async) bool) {
		for _, e := range es {
			if !yield(int(e.node), e.a) {
				return
			}
		}
	}
}

// The async section of a save (after the scopes, when the flags byte has
// vAsync): the last id given (a uvarint, not 0), the number of entries
// (a uvarint), then for each entry, by increasing node: the node and the
// id (uvarints), the result (a byte: 0 pending, 1 SUCCESS, 2 FAILURE) and,
// for a result, the looks from the version's next one that still see it
// pending (a uvarint). It is the root package's async section, for a
// btcpp tree's nodes.

// maxAsyncDelay bounds the looks a saved result stays pending (the root's
// bound).
const maxAsyncDelay = 1 << 62

// appendAsync appends t's async section.
func (t *Tree) appendAsync(b []byte) []byte {
	es := t.live()
	b = bin.AppendUvarint(b, t.ids)
	b = bin.AppendUvarint(b, uint64(len(es)))
	for _, e := range es {
		b = bin.AppendUvarint(b, uint64(e.node))
		b = bin.AppendUvarint(b, e.id)
		r, delay := bt.InternalAsync(hook.Module, e.a, hook.AsyncFixed, e.looks+1)
		switch r {
		case bt.Success:
			b = append(b, 1)
		case bt.Failure:
			b = append(b, 2)
		default:
			b = append(b, 0)
			continue
		}
		b = bin.AppendUvarint(b, delay)
	}
	return b
}

// async reads the async section into t, whose node states are read.
func (r *stateReader) async(t *Tree) error {
	at := r.off
	ids, err := r.uvarint("async results: last id")
	if err != nil {
		return err
	}
	if ids == 0 {
		return r.fail(at, "async results: the last id is 0")
	}
	t.ids = ids
	n, err := r.count("async results: count", 3)
	if err != nil {
		return err
	}
	seen := map[uint64]bool{}
	var es []asyncEntry
	for i := 0; i < n; i++ {
		at := r.off
		node, err := r.uvarint("async results: node")
		if err != nil {
			return err
		}
		if node >= uint64(len(r.p.nodes)) {
			return r.fail(at, "async results: node %d, but the tree has %d", node, len(r.p.nodes))
		}
		if len(es) > 0 && int64(node) <= int64(es[len(es)-1].node) {
			return r.fail(at, "async results: node %d is not after node %d", node, es[len(es)-1].node)
		}
		nd := &r.p.nodes[node]
		if l := nd.k.leaf; l == nil || l.kind != leafAction || t.st[node].status != Running {
			return r.fail(at, "async results: node %d (%s) is not a running stateful action", node, nd.regID)
		}
		at = r.off
		id, err := r.uvarint(fmt.Sprintf("async results: node %d: id", node))
		if err != nil {
			return err
		}
		if id == 0 || id > ids || seen[id] {
			return r.fail(at, "async results: node %d: the id %d is 0, above the last id %d, or given twice", node, id, ids)
		}
		seen[id] = true
		at = r.off
		res, err := r.byte1(fmt.Sprintf("async results: node %d: result", node))
		if err != nil {
			return err
		}
		if res > 2 {
			return r.fail(at, "async results: node %d: result %d (0 pending, 1 SUCCESS, 2 FAILURE)", node, res)
		}
		a := bt.NewAsync()
		bt.InternalAsync(hook.Module, a, hook.AsyncTake, id)
		if res != 0 {
			at = r.off
			delay, err := r.uvarint(fmt.Sprintf("async results: node %d: looks", node))
			if err != nil {
				return err
			}
			if delay >= maxAsyncDelay {
				return r.fail(at, "async results: node %d: %d looks", node, delay)
			}
			// Looks 1 to delay see it pending, as they did before the
			// save: the look rule fixes the next one for the result.
			if delay > 0 {
				bt.InternalAsync(hook.Module, a, hook.AsyncLook, delay)
			}
			if res == 1 {
				a.Succeed()
			} else {
				a.Fail()
			}
		}
		es = append(es, asyncEntry{node: int32(node), a: a, id: id})
	}
	for i := len(es) - 1; i >= 0; i-- {
		t.pend = t.pend.put(es[i])
	}
	return nil
}
