// Package hook holds what package behaviortree lends its own clients (the
// text formats mdsl and mistreevous, and the builder fluent) without
// exporting it: functions that write a value the root has just built and
// that nothing else holds yet (a node's attributes, its name, the source
// of a text), and fluent.New's fast path. It cannot import behaviortree,
// which imports it, and so cannot name the root's types: the variables are
// set by behaviortree's init, held as any, and asserted once by each
// client at its init, to the type each doc gives (the root's side converts
// its function to that type, which the compiler checks). The facts of the
// kinds are package kind's, which every client reads directly. DESIGN.md
// says why these four are not typed across the seam.
package hook

import "github.com/zipbt/behaviortree/attr"

// WithAttrs is behaviortree's withFresh for trees of Calls, of type
// func(bt.Node[bt.Call], []attr.Attr[bt.Call]) bt.Node[bt.Call]: it gives a
// node that was just built, and that nothing else holds yet, its
// attributes in place, as Node.With would with a copy. The readers build
// every node once, so that the copy would be a quarter of what a text of
// guarded nodes allocates.
var WithAttrs any

// SetSource is behaviortree's setSource for trees of Calls, of type
// func(bt.Node[bt.Call], *Source) bt.Node[bt.Call]: it gives a root that
// was just built, and that nothing else holds yet, the Source of the text
// it was read from, in place. mdsl.Parse sets it, so that
// behaviortree.Functions can say where in the text a node it names is.
var SetSource any

// Source says where the nodes of a definition read from a text are, for
// the errors that name them later. Sites is worked out only when an error
// needs it.
type Source struct {
	File string // the name given to the reader
	// Sites returns where each node is, by preorder index, with nil for a
	// text it cannot place (one changed since, for example).
	Sites func() []Site
}

// Site is where one node is in a text: At[0] its call (for a node that
// carries one) or its keyword, At[k] the call of its attribute of kind k
// (an attr.Kind); a zero Pos where it has none.
type Site struct {
	At [attr.KindExit + 1]Pos
}

// Pos is a line and a column in a text, from 1 (the column counts bytes).
type Pos struct {
	Line, Col int32
}

// NewFluent is behaviortree's newFluent, of type
// func(bt.Node[bt.Fluent], bt.Agent[bt.Fluent], bt.Agent[bt.Fluent], []bt.Option) (bt.Stepped[bt.Fluent], error):
// NewStepped with the agent of Fluent leaves (the first, or the second,
// of memory forms, when a leaf takes the Blackboard), which also gives a
// memoryless tree its fast path (machine.fluent). It is fluent.New.
var NewFluent any

// NameFluent is behaviortree's nameFresh for trees of Fluent leaves, of
// type func(bt.Node[bt.Fluent], string) bt.Node[bt.Fluent]: it gives a
// node that was just built, and that nothing else holds yet, its name in
// place (Node.Name). Only the fluent builder names nodes.
var NameFluent any
