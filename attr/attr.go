// Package attr makes the guards and callbacks of a stepped tree's nodes
// (Mistreevous's attributes): [While] and [Until] guard a node, [Entry],
// [OnStep] and [Exit] call the agent as a node starts, updates and ends.
// Attach them with [github.com/zipbt/behaviortree.Node.With] (package
// behaviortree, imported as bt):
//
//	bt.Leaf("eat").With(attr.While("hungry"), attr.Exit("wipe"))
//
// An attribute holds a value of the tree's leaf type, which the agent is
// called with: its Condition for a guard, its Entry, OnStep or Exit for a
// callback. Attributes run only on the stepped engine.
package attr

import "fmt"

// Kind says what an [Attr] is.
type Kind uint8

// The kinds of attribute. A node has at most one of each.
const (
	KindWhile  Kind = iota + 1 // guard: the node may go on while the condition holds
	KindUntil                  // guard: the node may go on until the condition holds
	KindEntry                  // callback when the node starts
	KindOnStep                 // callback at every update of the node
	KindExit                   // callback when the node completes or is aborted
	numKinds
)

var names = [numKinds]string{KindWhile: "while", KindUntil: "until", KindEntry: "entry", KindOnStep: "step", KindExit: "exit"}

// String returns the attribute's Mistreevous name: "while", "until",
// "entry", "step" or "exit", and "Kind(N)" for a value that is none.
func (k Kind) String() string {
	if k > 0 && k < numKinds {
		return names[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Attr is a guard or a callback on a node of a stepped tree: a value of
// the leaf type that the agent's Condition (guards) or Entry, OnStep and
// Exit functions (callbacks) are called with. Make one with [While],
// [Until], [Entry], [OnStep] or [Exit].
type Attr[L any] struct {
	Kind           Kind // what it is: a guard (KindWhile, KindUntil) or a callback
	Value          L    // the value the agent is called with
	SucceedOnAbort bool // a guard that makes the node succeed when it aborts it ([Attr.ThenSucceed])
}

// While returns a guard: before every update of the node, and of every
// node below it, the agent's Condition(cond) is asked, and when it returns
// false the node is aborted and fails (or succeeds, with
// [Attr.ThenSucceed]).
func While[L any](cond L) Attr[L] { return Attr[L]{Kind: KindWhile, Value: cond} }

// Until is the guard that aborts the node when Condition(cond) returns
// true; otherwise as [While].
func Until[L any](cond L) Attr[L] { return Attr[L]{Kind: KindUntil, Value: cond} }

// Entry returns a callback: the agent's Entry(v) is called when the node
// starts (its first update since it was reset).
func Entry[L any](v L) Attr[L] { return Attr[L]{Kind: KindEntry, Value: v} }

// OnStep returns a callback: the agent's OnStep(v) is called at every
// update of the node.
func OnStep[L any](v L) Attr[L] { return Attr[L]{Kind: KindOnStep, Value: v} }

// Exit returns a callback: the agent's Exit(v, succeeded, aborted) is
// called when the node completes, or when it is aborted while running.
func Exit[L any](v L) Attr[L] { return Attr[L]{Kind: KindExit, Value: v} }

// ThenSucceed returns the guard a, but making the node succeed instead of
// fail when the guard aborts it (Mistreevous's "then succeed",
// succeedOnAbort). It panics if a is not a guard.
func (a Attr[L]) ThenSucceed() Attr[L] {
	if a.Kind != KindWhile && a.Kind != KindUntil {
		panic("attr.Attr.ThenSucceed: " + a.Kind.String() + " is not a guard")
	}
	a.SucceedOnAbort = true
	return a
}
