package behaviortree

import (
	"iter"

	"github.com/benbjohnson/immutable"
)

// History is a timeline of tree versions: a start version and the versions
// that signals made from it, with a position that Undo and Redo move. It is
// a value backed by an immutable.List: every operation returns a new
// History that shares its versions with the receiver, and leaves the
// receiver as it was. So a game can keep a History per turn, or branch one,
// at the cost of the versions themselves (a Tree is four words).
//
// A signal after an Undo drops the redo tail of that History value only;
// older History values, and the versions they hold, are untouched.
//
// The zero History is not valid: use [NewHistory] or [Replay].
type History[L any] struct {
	versions *immutable.List[Tree[L]] // versions[0] is the start; versions[i] made by signal i
	pos      int                      // the current version's index
}

// NewHistory returns a History whose only version is t.
func NewHistory[L any](t Tree[L]) History[L] {
	t.mustStarted("NewHistory")
	return History[L]{versions: immutable.NewList(t)}
}

// Replay returns the History of starting def with seed and applying
// signals: the same definition, seed and signals always give the same
// versions. Running signals are skipped, as [History.Signal] skips them.
func Replay[L any](def Node[L], seed uint64, signals []Status) History[L] {
	b := immutable.NewListBuilder[Tree[L]]()
	t := Start(def, WithSeed(seed))
	b.Append(t)
	for _, s := range signals {
		if s == Running {
			continue
		}
		t = t.Signal(s)
		b.Append(t)
	}
	l := b.List()
	return History[L]{versions: l, pos: l.Len() - 1}
}

// Current returns the current version.
func (h History[L]) Current() Tree[L] {
	h.must("Current")
	return h.versions.Get(h.pos)
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
	next := h.versions.Get(h.pos).Signal(s)
	l := h.versions
	if h.pos+1 < l.Len() {
		l = l.Slice(0, h.pos+1)
	}
	return History[L]{versions: l.Append(next), pos: h.pos + 1}
}

// Succeed is h.Signal(Success).
func (h History[L]) Succeed() History[L] { return h.Signal(Success) }

// Fail is h.Signal(Failure).
func (h History[L]) Fail() History[L] { return h.Signal(Failure) }

// CanUndo reports whether there is a version before the current one.
func (h History[L]) CanUndo() bool { return h.must("CanUndo") && h.pos > 0 }

// CanRedo reports whether an Undo can be redone.
func (h History[L]) CanRedo() bool { return h.must("CanRedo") && h.pos+1 < h.versions.Len() }

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
		it := h.versions.Iterator()
		for !it.Done() {
			i, t := it.Next()
			if i > h.pos || !yield(t, t.signal) {
				return
			}
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
	if h.versions == nil {
		panic("behaviortree.History." + method + ": zero History (use NewHistory)")
	}
	return true
}
