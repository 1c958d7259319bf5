package behaviortree

import (
	"github.com/zipbt/behaviortree/internal/hook"
)

// The seam: what this package lends the other packages of its module (the
// text formats mdsl, mistreevous and btcpp, and the builder fluent) and no
// one else. Each function takes a hook.Seam first, a type of package
// internal/hook, which only this module can import: the clients call them
// directly, typed, and code outside the module cannot pass the Seam they
// ask for (the zero one, which type inference can give it, makes them do
// nothing harmful). DESIGN.md ("The seam") says why it is built so.

// InternalFill is for this module's own packages (mdsl, mistreevous,
// fluent) and cannot be called from outside it: s is of a type of package
// internal/hook, which no other module can import. Use [Node.With] and the
// constructors.
//
// It gives n, a node that was just built and that nothing else holds
// yet, f's name, attributes and source in place, as [Node.With] would
// with a copy; a zero field of f leaves n's as it is. Called with any
// Seam but hook.Module, or with the zero Node, it returns n untouched.
func InternalFill[L any](s hook.Seam, n Node[L], f hook.Fill[L]) Node[L] {
	if !s.Valid() || n.n == nil {
		return n
	}
	if f.Name != "" {
		n.n.name = f.Name
	}
	if len(f.Attrs) > 0 {
		at := &attrs[L]{}
		for _, a := range f.Attrs {
			at.has[a.Kind], at.a[a.Kind] = true, a
		}
		n.n.attrs, n.n.stepped = at, true
	}
	if f.Source != nil {
		n.n.src = f.Source
	}
	return n
}

// InternalNewFluent is for this module's own packages (it is fluent.New)
// and cannot be called from outside it: s is of a type of package
// internal/hook, which no other module can import. Use fluent.New.
//
// It returns [NewStepped] of def run by a, the agent of Fluent leaves, or
// by ma, the agent of their memory forms when a leaf takes the Blackboard,
// with the fast path of memoryless subtrees whose leaves run by their own
// functions (newFluent). Called with any Seam but hook.Module, it returns
// NewStepped(def, a, opts...).
func InternalNewFluent(s hook.Seam, def Node[Fluent], a, ma Agent[Fluent], opts []Option) (Stepped[Fluent], error) {
	if !s.Valid() {
		return NewStepped(def, a, opts...)
	}
	return newFluent(def, a, ma, opts)
}

// InternalAsync is for this module's own packages (package btcpp, whose
// trees hold Async results) and cannot be called from outside it: s is of
// a type of package internal/hook, which no other module can import. Use
// [Async.Succeed], [Async.Fail] and the trees' Async and Pending.
//
// It does op with a, so that btcpp's versions see a settlement at the
// same look as [Stepped]'s do: hook.AsyncTake gives a the id n if it has
// none; hook.AsyncLook returns what look n sees (a's result, or Running
// while the look is before the one the settlement was fixed at), fixing
// that look as a step's look would; hook.AsyncFixed returns a's result
// and the looks from n that still see it pending, as a save keeps them
// (Running and 0 while a is not settled). Called with any Seam but
// hook.Module, or with a nil a, it does nothing and returns Running and 0.
func InternalAsync(s hook.Seam, a *Async, op hook.AsyncOp, n uint64) (Status, uint64) {
	if !s.Valid() || a == nil {
		return Running, 0
	}
	switch op {
	case hook.AsyncTake:
		a.id.CompareAndSwap(0, n)
	case hook.AsyncLook:
		r, _ := a.look(n)
		return r, 0
	case hook.AsyncFixed:
		return a.fixed(n)
	}
	return Running, 0
}
