// Package hook holds what package behaviortree lends the text format
// packages (mdsl, mistreevous) without exporting it: it cannot import
// behaviortree, which imports it, so the values are set by behaviortree's
// init and held as any; the readers assert their types once.
package hook

// WithAttrs is behaviortree's withFresh for trees of Calls, of type
// func(bt.Node[bt.Call], []bt.Attr[bt.Call]) bt.Node[bt.Call]: it gives a
// node that was just built, and that nothing else holds yet, its
// attributes in place, as Node.With would with a copy. The readers build
// every node once, so that the copy would be a quarter of what a text of
// guarded nodes allocates.
var WithAttrs any
