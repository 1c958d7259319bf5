package behaviortree

// Limits of the text formats, as package mistreevous has them, until MDSL
// moves to a package of its own.
const (
	MaxMistreevousNodes = 1 << 20
	MaxMistreevousDepth = maxSteppedDepth
	MaxArgs             = 256
	MaxStringBytes      = 4096
)

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

// trimBuild returns Build's message without its "behaviortree.Build: ".
func trimBuild(err error) string {
	const pre = "behaviortree.Build: "
	s := err.Error()
	if len(s) > len(pre) && s[:len(pre)] == pre {
		return s[len(pre):]
	}
	return s
}

// textNodes returns the number of nodes of def written in a text format:
// its size, plus the root it is written inside when it is not a Root.
func textNodes[L any](def Node[L]) int {
	if def.n.kind == KindRoot {
		return def.n.size
	}
	return def.n.size + 1
}
