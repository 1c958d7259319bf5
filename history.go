package behaviortree

import (
	"iter"

	"github.com/benbjohnson/immutable"
)

// History is a timeline of tree versions: a start version and the versions
// that signals made from it, with a position that Undo and Redo move. It is
// a value: every operation returns a new History that shares its versions
// with the receiver, and leaves the receiver as it was. So a game can keep a
// History per turn, or branch one, at the cost of the versions themselves.
//
// A signal after an Undo drops the redo tail of that History value only;
// older History values, and the versions they hold, are untouched.
//
// Layout: versions are kept in full chunks of 32, never modified once
// filled, in an immutable.List, and the newest (fewer than 32) in a
// persistent linked list. Appending a signal allocates one small cell, and
// every 32nd append moves the cells into a chunk, so a version costs about
// 33 bytes kept and a signal about a hundred nanoseconds.
//
// The zero History is not valid: use [NewHistory] or [Replay].
type History[L any] struct {
	chunks *immutable.List[*[chunkSize]Tree[L]] // full chunks, oldest first
	tail   *versionCell[L]                      // versions after the chunks, newest first
	n      int                                  // versions in all
	pos    int                                  // the current version's index
}

const chunkSize = 32

// versionCell is one version of a History's tail.
type versionCell[L any] struct {
	t    Tree[L]
	prev *versionCell[L]
}

// NewHistory returns a History whose only version is t.
func NewHistory[L any](t Tree[L]) History[L] {
	if t.z.focus == nil {
		zeroTree("NewHistory")
	}
	return History[L]{chunks: immutable.NewList[*[chunkSize]Tree[L]](), tail: &versionCell[L]{t: t}, n: 1}
}

// Replay returns the History of starting def with seed and applying
// signals: the same definition, seed and signals always give the same
// versions. Running signals are skipped, as [History.Signal] skips them.
func Replay[L any](def Node[L], seed uint64, signals []Status) History[L] {
	h := NewHistory(Start(def, WithSeed(seed)))
	for _, s := range signals {
		h = h.Signal(s)
	}
	return h
}

// Current returns the current version.
func (h History[L]) Current() Tree[L] {
	h.must("Current")
	return h.get(h.pos)
}

// get returns version i.
func (h History[L]) get(i int) Tree[L] {
	if full := h.chunks.Len() * chunkSize; i < full {
		return h.chunks.Get(i / chunkSize)[i%chunkSize]
	}
	c := h.tail
	for k := h.n - 1; k > i; k-- {
		c = c.prev
	}
	return c.t
}

// Len returns the number of signals from the start to the current version.
func (h History[L]) Len() int {
	h.must("Len")
	return h.pos
}

// Signal returns a new History whose current version is the current
// version given s, appended after it; any redo tail is dropped. Running
// changes nothing, and returns h itself.
func (h History[L]) Signal(s Status) History[L] {
	h.must("Signal")
	if s == Running {
		return h
	}
	next := h.get(h.pos).Signal(s)
	if h.pos+1 < h.n {
		h = h.truncate(h.pos + 1)
	}
	return h.push(next)
}

// push appends t after the last version and makes it current.
func (h History[L]) push(t Tree[L]) History[L] {
	h.tail = &versionCell[L]{t: t, prev: h.tail}
	h.n++
	h.pos = h.n - 1
	if h.n-h.chunks.Len()*chunkSize == chunkSize {
		chunk := new([chunkSize]Tree[L])
		c := h.tail
		for i := chunkSize - 1; i >= 0; i-- {
			chunk[i], c = c.t, c.prev
		}
		h.chunks, h.tail = h.chunks.Append(chunk), nil
	}
	return h
}

// truncate returns h with only its first n versions.
func (h History[L]) truncate(n int) History[L] {
	keep := n / chunkSize // whole chunks kept
	out := History[L]{chunks: h.chunks, tail: h.tail, n: h.n}
	if keep < h.chunks.Len() {
		out.chunks = h.chunks.Slice(0, keep)
		out.tail, out.n = nil, keep*chunkSize
		for i := keep * chunkSize; i < n; i++ {
			out = out.push(h.get(i))
		}
	} else {
		for out.n > n {
			out.tail, out.n = out.tail.prev, out.n-1
		}
	}
	out.pos = n - 1
	return out
}

// Succeed is h.Signal(Success).
func (h History[L]) Succeed() History[L] { return h.Signal(Success) }

// Fail is h.Signal(Failure).
func (h History[L]) Fail() History[L] { return h.Signal(Failure) }

// CanUndo reports whether there is a version before the current one.
func (h History[L]) CanUndo() bool { return h.must("CanUndo") && h.pos > 0 }

// CanRedo reports whether an Undo can be redone.
func (h History[L]) CanRedo() bool { return h.must("CanRedo") && h.pos+1 < h.n }

// Undo returns a History whose current version is the one before; with
// nothing to undo, it returns h itself.
func (h History[L]) Undo() History[L] {
	if !h.CanUndo() {
		return h
	}
	h.pos--
	return h
}

// Redo returns a History whose current version is the one after, undone
// before; with nothing to redo, it returns h itself.
func (h History[L]) Redo() History[L] {
	if !h.CanRedo() {
		return h
	}
	h.pos++
	return h
}

// All returns an iterator over the versions from the start to the current
// one, each with the signal that made it (Running for the start).
func (h History[L]) All() iter.Seq2[Tree[L], Status] {
	h.must("All")
	return func(yield func(Tree[L], Status) bool) {
		i := 0
		it := h.chunks.Iterator()
		for !it.Done() {
			_, chunk := it.Next()
			for _, t := range chunk {
				if i > h.pos || !yield(t, t.signal) {
					return
				}
				i++
			}
		}
		var tail [chunkSize]Tree[L]
		k := h.n - i
		for c := h.tail; c != nil; c = c.prev {
			k--
			tail[k] = c.t
		}
		for _, t := range tail[:h.n-i] {
			if i > h.pos || !yield(t, t.signal) {
				return
			}
			i++
		}
	}
}

// Signals returns the signals from the start to the current version.
func (h History[L]) Signals() []Status {
	out := make([]Status, 0, h.Len())
	for _, s := range h.All() {
		if s != Running {
			out = append(out, s)
		}
	}
	return out
}

func (h History[L]) must(method string) bool {
	if h.chunks == nil {
		panic("behaviortree.History." + method + ": zero History (use NewHistory)")
	}
	return true
}
