package behaviortree

import (
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/hook"
)

// The text formats (packages mdsl and mistreevous) build trees with the
// exported constructors and Build, and read the facts of kinds in package
// kind; through package internal/hook they get withFresh, to save a copy
// of every node with attributes, and mdsl.Parse setSource. The
// conversions make the compiler check that each function has the type
// that hook's doc gives and that the clients assert once, at their init.
func init() {
	hook.WithAttrs = (func(Node[Call], []attr.Attr[Call]) Node[Call])(withFresh[Call])
	hook.SetSource = (func(Node[Call], *hook.Source) Node[Call])(setSource)
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
