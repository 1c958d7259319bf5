// Package hook holds what package behaviortree lends its client packages
// (the text formats mdsl and mistreevous, and the builder fluent) without
// exporting it: it cannot import behaviortree, which imports it, so the
// values are set by behaviortree's init and held as any; the clients
// assert their types once.
package hook

// WithAttrs is behaviortree's withFresh for trees of Calls, of type
// func(bt.Node[bt.Call], []bt.Attr[bt.Call]) bt.Node[bt.Call]: it gives a
// node that was just built, and that nothing else holds yet, its
// attributes in place, as Node.With would with a copy. The readers build
// every node once, so that the copy would be a quarter of what a text of
// guarded nodes allocates.
var WithAttrs any

// NewFluent is behaviortree's newFluent, of type
// func(bt.Node[bt.Fluent], bt.Agent[bt.Fluent], []bt.Option) (bt.Stepped[bt.Fluent], error):
// NewStepped with the agent of Fluent leaves, which also gives a
// memoryless tree the engine's fast path (the leaves' functions called by
// node). It is fluent.New.
var NewFluent any

// NameFluent is behaviortree's nameFresh for trees of Fluent leaves, of
// type func(bt.Node[bt.Fluent], string) bt.Node[bt.Fluent]: it gives a
// node that was just built, and that nothing else holds yet, its name in
// place (Node.Name). Only the fluent builder names nodes.
var NameFluent any
