package behaviortree

import "github.com/zipbt/behaviortree/internal/hook"

// The text formats, packages mdsl and mistreevous, build trees with the
// exported constructors, Build and the table of kinds (Kind's methods),
// and, to save a copy of every node with attributes, withFresh through
// package internal/hook.
func init() { hook.WithAttrs = withFresh[Call] }

// withFresh gives n the attributes as, of distinct kinds, as n.With(as...)
// would, in place: n must have just been built, with no attributes, and
// be held by nothing else yet. The readers use it to save With's copy.
func withFresh[L any](n Node[L], as []Attr[L]) Node[L] {
	at := &attrs[L]{}
	for _, a := range as {
		at.has[a.kind], at.a[a.kind] = true, a
	}
	n.n.attrs, n.n.stepped = at, true
	return n
}
