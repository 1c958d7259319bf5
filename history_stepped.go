package behaviortree

import "iter"

// SteppedHistory is a timeline of stepped versions, as [History] is of
// Tree versions, with the same storage, costs and guarantees: a start
// version and the versions that steps and resets made from it, with a
// position that Undo and Redo move. It is a value: every operation returns
// a new SteppedHistory that shares its versions with the receiver and
// leaves the receiver as it was, and values may be used from many
// goroutines at once. A step after an Undo drops the redo tail of that
// value only.
//
// The zero SteppedHistory is not valid: use [NewSteppedHistory].
type SteppedHistory[L any] struct {
	tl timeline[Stepped[L]]
}

// NewSteppedHistory returns a SteppedHistory whose only version is t. It
// panics with "behaviortree.NewSteppedHistory: zero Stepped (use
// NewStepped)" for the zero Stepped.
func NewSteppedHistory[L any](t Stepped[L]) SteppedHistory[L] {
	if t.m == nil {
		panic("behaviortree.NewSteppedHistory: zero Stepped (use NewStepped)")
	}
	return SteppedHistory[L]{newTimeline(t)}
}

// Current returns the current version.
func (h SteppedHistory[L]) Current() Stepped[L] {
	h.must("Current")
	return h.tl.current()
}

// Step returns a new SteppedHistory whose current version is the current
// version stepped once ([Stepped.Step]), appended after it; any redo tail is
// dropped. When the step fails, it returns h itself and the error.
func (h SteppedHistory[L]) Step() (SteppedHistory[L], error) { return h.StepWith(nil) }

// StepWith is [SteppedHistory.Step], calling events (if not nil) with each
// thing the step does, as [Stepped.StepWith] does.
func (h SteppedHistory[L]) StepWith(events func(Event[L])) (SteppedHistory[L], error) {
	h.must("Step")
	return h.TickWith(TimeData{}, events)
}

// Tick is [SteppedHistory.Step] with time data: the current version is
// ticked once ([Stepped.Tick]), as a Fluent tree is, and appended after
// it; any redo tail is dropped. When the tick fails, it returns h itself
// and the error.
func (h SteppedHistory[L]) Tick(td TimeData) (SteppedHistory[L], error) { return h.TickWith(td, nil) }

// TickWith is [SteppedHistory.Tick], calling events (if not nil) with
// each thing the tick does, as [Stepped.TickWith] does.
func (h SteppedHistory[L]) TickWith(td TimeData, events func(Event[L])) (SteppedHistory[L], error) {
	h.must("Tick")
	next, err := h.Current().TickWith(td, events)
	if err != nil {
		return h, err
	}
	h.tl.push(next)
	return h, nil
}

// Reset returns a new SteppedHistory whose current version is the current
// version reset ([Stepped.Reset]), appended after it.
func (h SteppedHistory[L]) Reset() SteppedHistory[L] {
	h.must("Reset")
	h.tl.push(h.Current().Reset())
	return h
}

// Pos returns the current version's index: 0 for a new SteppedHistory.
func (h SteppedHistory[L]) Pos() int {
	h.must("Pos")
	return h.tl.pos
}

// Len returns the number of versions, the redo tail included.
func (h SteppedHistory[L]) Len() int {
	h.must("Len")
	return h.tl.n
}

// CanUndo reports whether there is a version before the current one.
func (h SteppedHistory[L]) CanUndo() bool { return h.must("CanUndo") && h.tl.pos > 0 }

// CanRedo reports whether an Undo can be redone.
func (h SteppedHistory[L]) CanRedo() bool { return h.must("CanRedo") && h.tl.pos+1 < h.tl.n }

// Undo returns a SteppedHistory whose current version is the one before;
// with nothing to undo, it returns h itself.
func (h SteppedHistory[L]) Undo() SteppedHistory[L] {
	if h.CanUndo() {
		h.tl = h.tl.moved(-1)
	}
	return h
}

// Redo returns a SteppedHistory whose current version is the one after,
// undone before; with nothing to redo, it returns h itself.
func (h SteppedHistory[L]) Redo() SteppedHistory[L] {
	if h.CanRedo() {
		h.tl = h.tl.moved(+1)
	}
	return h
}

// All returns an iterator over the versions from the start to the current
// one.
func (h SteppedHistory[L]) All() iter.Seq[Stepped[L]] {
	h.must("All")
	return h.tl.all()
}

func (h SteppedHistory[L]) must(method string) bool {
	if h.tl.last == nil {
		panic("behaviortree.SteppedHistory." + method + ": zero SteppedHistory (use NewSteppedHistory)")
	}
	return true
}
