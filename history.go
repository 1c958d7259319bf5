package behaviortree

import (
	"errors"
	"fmt"
	"iter"
	"sync/atomic"
)

// History is a timeline of versions: a start version and the versions
// pushed after it, with a position that Undo and Redo move. V is the
// version type: [Tree] for the Value/Succeed/Fail style, [Stepped] for
// stepped and Fluent trees (or any value a game keeps versions of).
//
// A History is a value: every operation returns a new History that shares
// its versions with the receiver and leaves the receiver as it was. So a
// game can keep a History per turn, or branch one, at the cost of the
// versions themselves. History values may be used, and pushed to, from many
// goroutines at once. A push after an Undo drops the redo tail of that
// History value only; older History values, and the versions they hold,
// are untouched.
//
// Costs: versions are stored in chunks of 63. A push to the newest History
// value of a line writes the version into spare room of the last chunk, so
// it usually allocates nothing; a new chunk is allocated every 63 pushes. A
// push to any other value (after an Undo, or a second push to the same
// value) starts a branch: it allocates one small cell per push, as a linked
// list would, until the branch reaches the end of its chunk, where its
// versions move into a chunk of their own. A chunk shared by several
// branches keeps the versions of all of them.
//
// The zero History is not valid: use [NewHistory] or [Replay].
type History[V any] struct {
	tl timeline[V]
}

// timeline is the storage of a History: versions of
// type V and the current position.
type timeline[V any] struct {
	// Layout: the versions are kept in chunks of chunkSize. Versions base
	// to n-1, where base is the largest multiple of chunkSize below n, are
	// the first m slots of last (m >= 1), then the cells of tail; the
	// base/chunkSize chunks before them are in a trie of fan-wide index
	// nodes, root, of the given height. A slot of a chunk or of an index
	// node, once written, never changes.
	//
	// Appending works like append on a slice with spare capacity, made safe
	// for sharing: a chunk or index node counts its written slots (filled),
	// and a History whose last item there is the node's last written one
	// claims the next slot with a compare-and-swap on that count, then
	// writes it. Any other History (one that was undone and branched, or
	// that lost the race to another append from the same value) appends a
	// cell to its tail instead, and at the end of the chunk copies its part
	// of last and its cells into a chunk of its own; an index node is
	// copied at once. So a signal usually allocates nothing, one chunk is
	// allocated per chunkSize signals, and one index node per fan chunks.
	// Slots past a History's own count may hold versions of other branches;
	// it never reads them.
	root   *index[V] // nil until a chunk is full
	height int32     // root's height: it holds up to fan^height chunks
	m      int32     // the slots of last in use
	last   *chunk[V]
	tail   *cell[V] // the versions after last's m, newest first
	n      int      // versions in all
	pos    int      // the current version's index
}

// cell is one version of a History's tail.
type cell[V any] struct {
	t    V
	prev *cell[V]
}

// chunkSize is the number of versions in a chunk: 63 versions of four
// words (Tree and Stepped both are) and the count fill 2,020 bytes, in the
// 2,048-byte allocation size class.
const chunkSize = 63

// chunk holds chunkSize versions, written in order.
type chunk[V any] struct {
	trees  [chunkSize]V
	filled atomic.Int32 // slots claimed: trees[:filled] are set or being set
}

// fanBits is log2 of fan, the number of slots of an index node.
const (
	fanBits = 5
	fan     = 1 << fanBits
)

// index is a node of a History's trie of chunks: at height 1 its slots are
// chunks, above that index nodes of the height below.
type index[V any] struct {
	chunks [fan]*chunk[V] // at height 1
	subs   [fan]*index[V] // at height > 1
	filled atomic.Int32   // slots claimed, as in a chunk
}

// NewHistory returns a History whose only version is v. It panics with
// "behaviortree.NewHistory: zero Tree (use Start)" for a zero Tree, and
// likewise for a zero Stepped.
func NewHistory[V any](v V) History[V] {
	if z, ok := any(v).(zeroVersion); ok && z.isZero() {
		panic("behaviortree.NewHistory: " + z.zeroMessage())
	}
	return History[V]{newTimeline(v)}
}

// zeroVersion is implemented by the version types whose zero value is not
// a valid version.
type zeroVersion interface {
	isZero() bool
	zeroMessage() string
}

func (t Tree[L]) isZero() bool           { return t.z.focus == nil }
func (t Tree[L]) zeroMessage() string    { return "zero Tree (use Start)" }
func (t Stepped[L]) isZero() bool        { return t.m == nil }
func (t Stepped[L]) zeroMessage() string { return "zero Stepped (use NewStepped)" }

// newTimeline returns a timeline whose only version is v.
func newTimeline[V any](v V) timeline[V] {
	c := new(chunk[V])
	c.trees[0] = v
	c.filled.Store(1)
	return timeline[V]{last: c, m: 1, n: 1}
}

// Replay returns the History of starting def with seed and applying
// signals: the same definition, seed and signals always give the same
// versions. Running signals are skipped: they make no version. Replay
// panics with "behaviortree.Replay: invalid Status(7) at index 3"
// (say) if a signal is not Success, Failure or Running.
func Replay[L any](def Node[L], seed uint64, signals []Status) History[Tree[L]] {
	for i, s := range signals {
		if s != Running && s != Success && s != Failure {
			panic(fmt.Sprintf("behaviortree.Replay: invalid Status(%d) at index %d", int(s), i))
		}
	}
	h := NewHistory(Start(def, WithSeed(seed)))
	for _, s := range signals {
		if s != Running {
			h = h.Push(h.Current().Signal(s))
		}
	}
	return h
}

// Current returns the current version.
func (h History[V]) Current() V {
	h.must("Current")
	return h.tl.current()
}

// base returns the index of last's first version.
func (h timeline[V]) base() int { return (h.n - 1) / chunkSize * chunkSize }

// get returns version i, for 0 <= i < h.n.
func (h timeline[V]) get(i int) V {
	b := h.base()
	switch {
	case i < b:
		return h.chunk(i / chunkSize).trees[i%chunkSize]
	case i < b+int(h.m):
		return h.last.trees[i-b]
	}
	c := h.tail
	for k := h.n - 1; k > i; k-- {
		c = c.prev
	}
	return c.t
}

// chunk returns chunk c, for c < h.base()/chunkSize.
func (h timeline[V]) chunk(c int) *chunk[V] {
	x := h.root
	for shift := (int(h.height) - 1) * fanBits; shift > 0; shift -= fanBits {
		x = x.subs[c>>shift%fan]
	}
	return x.chunks[c%fan]
}

// Pos returns the current version's index: 0 for a new History; Undo and
// Redo move it down and up.
func (h History[V]) Pos() int {
	h.must("Pos")
	return h.tl.pos
}

// Len returns the number of versions in h: the start version, the versions
// up to the current one, and the redo tail after it.
func (h History[V]) Len() int {
	h.must("Len")
	return h.tl.n
}

// Push returns a new History whose current version is v, appended after
// the current version; any redo tail is dropped. Push does not look at v:
// pushing the version a step returned, or one a signal returned, is how a
// History follows a game:
//
//	h = h.Push(h.Current().Succeed())
//	next, err := h.Current().Step()
//	if err == nil { h = h.Push(next) }
//
// It usually allocates nothing (see the costs above).
func (h History[V]) Push(v V) History[V] {
	h.must("Push")
	h.tl.push(v)
	return h
}

// push appends t after the current version, which any redo tail gives way
// to, and makes it current.
//
// Its fast path is the common case, the newest value of a line with room
// in last: with no tail, the versions after base are last's first m, so
// the new version's slot is m, claimed with one compare-and-swap (no
// division by chunkSize, no call).
func (h *timeline[V]) push(t V) {
	if m := h.m; h.tail == nil && h.pos+1 == h.n && m < chunkSize && h.last.filled.CompareAndSwap(m, m+1) {
		h.last.trees[m] = t
		h.m = m + 1
		h.pos = h.n
		h.n++
		return
	}
	h.pushSlow(t)
}

// pushSlow is push for every other case: a redo tail to drop, a full
// chunk, or a slot that another value of the timeline claimed.
func (h *timeline[V]) pushSlow(t V) {
	if h.pos+1 < h.n {
		*h = h.truncate(h.pos + 1)
	}
	b := h.base()
	k := h.n - b // the new version's slot in last
	switch {
	case k == chunkSize: // the chunk is full: file it and start a new one
		full := h.last
		if h.tail != nil { // a branch's: copy it into a chunk of its own
			full = new(chunk[V])
			copy(full.trees[:h.m], h.last.trees[:h.m])
			for i, c := chunkSize-1, h.tail; c != nil; i, c = i-1, c.prev {
				full.trees[i] = c.t
			}
			full.filled.Store(chunkSize)
		}
		h.file(b/chunkSize, full)
		h.last = new(chunk[V])
		h.last.trees[0] = t
		h.last.filled.Store(1)
		h.m, h.tail = 1, nil
	case h.tail == nil && h.last.filled.Load() == int32(k) && // (a load is cheaper than a failed CAS)
		h.last.filled.CompareAndSwap(int32(k), int32(k+1)):
		h.last.trees[k] = t // at the frontier
		h.m++
	default: // slot k belongs to another History: branch
		h.tail = &cell[V]{t: t, prev: h.tail}
	}
	h.pos = h.n
	h.n++
}

// current returns the current version; the newest without a search.
func (h *timeline[V]) current() V {
	if h.pos+1 == h.n {
		if h.tail != nil {
			return h.tail.t
		}
		return h.last.trees[h.m-1]
	}
	return h.get(h.pos)
}

// file puts full chunk x into h's trie as chunk c, after the c chunks
// there.
func (h *timeline[V]) file(c int, x *chunk[V]) {
	if h.root == nil || c == 1<<(int(h.height)*fanBits) { // grow a level
		up := new(index[V])
		if h.root == nil {
			h.height = 0
		} else {
			up.subs[0] = h.root
			up.filled.Store(1)
		}
		h.root = up
		h.height++
	}
	h.root = h.root.add(int(h.height), c, x)
}

// add returns x with chunk at position c of its subtree of the given
// height, after the c chunks there: x itself if every slot the chunk
// needs was free to claim, else a copy of the part of x before c.
func (x *index[V]) add(height, c int, ch *chunk[V]) *index[V] {
	shift := (height - 1) * fanBits
	slot, rest := c>>shift, c&(1<<shift-1)
	if height > 1 && rest > 0 { // into the subtree at slot, which exists
		sub := x.subs[slot]
		if got := sub.add(height-1, rest, ch); got != sub {
			y := x.copyTo(slot + 1)
			y.subs[slot] = got
			return y
		}
		return x
	}
	var sub *index[V]
	if height > 1 { // a new subtree at slot
		sub = new(index[V]).add(height-1, 0, ch)
	}
	if x.filled.CompareAndSwap(int32(slot), int32(slot+1)) {
		x.subs[slot], x.chunks[slot] = sub, nil
		if height == 1 {
			x.chunks[slot] = ch
		}
		return x
	}
	y := x.copyTo(slot + 1)
	y.subs[slot] = sub
	if height == 1 {
		y.chunks[slot] = ch
	}
	return y
}

// copyTo returns a new index node with x's first n-1 slots, and n filled.
func (x *index[V]) copyTo(n int) *index[V] {
	y := new(index[V])
	copy(y.chunks[:n-1], x.chunks[:n-1])
	copy(y.subs[:n-1], x.subs[:n-1])
	y.filled.Store(int32(n))
	return y
}

// truncate returns h with only its first n versions, 0 < n <= h.n.
func (h timeline[V]) truncate(n int) timeline[V] {
	b := h.base()
	switch c := (n - 1) / chunkSize; {
	case c < b/chunkSize: // into a filed chunk
		h.last, h.m, h.tail = h.chunk(c), int32(n-c*chunkSize), nil
	case n <= b+int(h.m): // into last
		h.m, h.tail = int32(n-b), nil
	default: // into the tail
		for k := h.n; k > n; k-- {
			h.tail = h.tail.prev
		}
	}
	h.n = n
	h.pos = min(h.pos, n-1)
	return h
}

// CanUndo reports whether there is a version before the current one.
func (h History[V]) CanUndo() bool { return h.must("CanUndo") && h.tl.pos > 0 }

// CanRedo reports whether an Undo can be redone.
func (h History[V]) CanRedo() bool { return h.must("CanRedo") && h.tl.pos+1 < h.tl.n }

// Undo returns a History whose current version is the one before; with
// nothing to undo, it returns h itself.
func (h History[V]) Undo() History[V] {
	if !h.CanUndo() {
		return h
	}
	h.tl = h.tl.moved(-1)
	return h
}

// Redo returns a History whose current version is the one after, undone
// before; with nothing to redo, it returns h itself.
func (h History[V]) Redo() History[V] {
	if !h.CanRedo() {
		return h
	}
	h.tl = h.tl.moved(+1)
	return h
}

// moved returns h with the current version d versions later (d < 0:
// earlier), which the caller checked exists.
func (h timeline[V]) moved(d int) timeline[V] {
	h.pos += d
	return h
}

// All returns an iterator over the versions from the start to the current
// one.
func (h History[V]) All() iter.Seq[V] {
	h.must("All")
	return h.tl.all()
}

// all returns an iterator over the versions from the start to the current
// one.
func (h timeline[V]) all() iter.Seq[V] {
	return func(yield func(V) bool) {
		// Index loops, not range over a chunk or a slice of one: Go before
		// 1.25.4 fails to compile those in this generic closure ("bad ptr
		// to array in slice").
		b := h.base()
		var tail [chunkSize]V // the tail's versions, oldest first
		k := h.n - b
		for c := h.tail; c != nil; c = c.prev {
			k--
			tail[k] = c.t
		}
		var c *chunk[V]
		for i := 0; i <= h.pos; i++ {
			var t V
			switch {
			case i >= b+int(h.m):
				t = tail[i-b]
			case i >= b:
				t = h.last.trees[i-b]
			default:
				if i%chunkSize == 0 {
					c = h.chunk(i / chunkSize)
				}
				t = c.trees[i%chunkSize]
			}
			if !yield(t) {
				return
			}
		}
	}
}

func (h History[V]) must(method string) bool {
	if h.tl.last == nil {
		panic("behaviortree.History." + method + ": zero History (use NewHistory)")
	}
	return true
}

// MarshalJSON always fails, with an error saying how to save a History
// instead: it has no JSON form of its own. It is there so that
// encoding/json does not write a History as {}, which would lose it.
func (h History[V]) MarshalJSON() ([]byte, error) {
	return nil, errors.New("behaviortree.History.MarshalJSON: a History has no JSON form: save its versions (All; Tree.Save or Stepped.Save) and its position (Pos) instead")
}

// UnmarshalJSON always fails, as [History.MarshalJSON] does.
func (h *History[V]) UnmarshalJSON(data []byte) error {
	return errors.New("behaviortree.History.UnmarshalJSON: a History has no JSON form: restore the saved versions you need (Saved.Restore, Saved.RestoreStepped) and push them to a new History")
}
