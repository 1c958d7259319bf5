package behaviortree

import (
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/hook"
)

// The module's clients (the text formats, packages mdsl and mistreevous,
// and package proptest, the bt command and the viewer) build trees with
// the exported constructors and Build; they read the table of kinds
// (kindFacts) through package internal/hook, and the text formats, to
// save a copy of every node with attributes, withFresh.
func init() {
	hook.WithAttrs = withFresh[Call]
	hook.SetSource = setSource
}

// setSource gives n, a root just built and held by nothing else yet, the
// source it was read from (see hook.SetSource).
func setSource(n Node[Call], src *hook.Source) Node[Call] {
	n.n.src = src
	return n
}

// withFresh gives n the attributes as, of distinct kinds, as n.With(as...)
// would, in place: n must have just been built, with no attributes, and
// be held by nothing else yet. The readers use it to save With's copy.
func withFresh[L any](n Node[L], as []attr.Attr[L]) Node[L] {
	at := &attrs[L]{}
	for _, a := range as {
		at.has[a.Kind], at.a[a.Kind] = true, a
	}
	n.n.attrs, n.n.stepped = at, true
	return n
}
