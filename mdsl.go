package behaviortree

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// mdslKeywords is the MDSL keyword of every kind, from the table of
// kinds (kindInfo.mdsl in kinds.go). The arguments each kind takes follow
// from its param there: paramN [n], paramWeights [w, ...] (one per child),
// paramLotto [w, ...] (optional), paramBound [n] or [min, max] (optional),
// paramThreshold [success, failure]; leaves that carry a value take a
// call.
var mdslKeywords = func() (kw [numKinds]string) {
	for k := range kinds {
		kw[k] = kinds[k].mdsl
	}
	return kw
}()

// MDSLError is an error in an MDSL text: where it is and what is wrong.
type MDSLError struct {
	File      string // the name given to the parser
	Line, Col int    // from 1; Col counts bytes
	Offset    int    // the byte offset in the text
	Msg       string
	Source    string // the line, shortened around the column when it is long
	caret     int    // the column of the caret in Source, in bytes
	Err       error  // the underlying error (a leaf function's), if any
}

// Error returns "FILE:LINE:COL: MSG", then the line and a caret under the
// column on two more lines.
func (e *MDSLError) Error() string {
	var b bytes.Buffer
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	fmt.Fprintf(&b, "%d:%d: %s", e.Line, e.Col, e.Msg)
	b.WriteByte('\n')
	b.WriteString(e.Source)
	b.WriteByte('\n')
	for _, r := range e.Source[:e.caret] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	return b.String()
}

// Unwrap returns the underlying error.
func (e *MDSLError) Unwrap() error { return e.Err }

// newMDSLError places msg at byte offset pos of src.
func newMDSLError(file string, src []byte, pos int, msg string, err error) *MDSLError {
	pos = max(0, min(pos, len(src)))
	line := 1 + bytes.Count(src[:pos], []byte{'\n'})
	start := bytes.LastIndexByte(src[:pos], '\n') + 1
	end := bytes.IndexByte(src[pos:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += pos
	}
	text := src[start:end]
	if n := len(text); n > 0 && text[n-1] == '\r' {
		text = text[:n-1]
	}
	caret := pos - start
	const window = 100
	prefix, suffix := "", ""
	if len(text) > 2*window {
		lo, hi := max(0, caret-window), min(len(text), caret+window)
		for lo > 0 && lo < len(text) && !utf8.RuneStart(text[lo]) {
			lo--
		}
		for hi < len(text) && !utf8.RuneStart(text[hi]) {
			hi++
		}
		if lo > 0 {
			prefix = "..."
		}
		if hi < len(text) {
			suffix = "..."
		}
		caret = caret - lo + len(prefix)
		text = text[lo:hi]
	}
	s := prefix + string(bytes.ToValidUTF8(text, []byte("?"))) + suffix
	caret = min(caret, len(s))
	for caret > 0 && caret < len(s) && !utf8.RuneStart(s[caret]) {
		caret--
	}
	return &MDSLError{File: file, Line: line, Col: pos - start + 1, Offset: pos, Msg: msg, Source: s, caret: caret, Err: err}
}

// ParseMDSL reads an MDSL text (see the grammar above) into a tree of
// [Call]s: the main root, a [Root], with branches expanded, equal to what
// [ParseMistreevous] reads from the same tree's JSON definition. name is
// the file name for error messages. Errors are [*MDSLError]s; any input
// gives a Node or an error, never a panic.
func ParseMDSL(name string, src []byte) (Node[Call], error) {
	n, err := parseMDSL(name, src, false)
	if err == errMDSLTooDeep {
		// A node built early is too deep: read again to say where (see
		// the top of mdsl_parse.go).
		n, err = parseMDSL(name, src, true)
	}
	return n, err
}

// errMDSLTooDeep says that a node built while reading is deeper than
// MaxMistreevousDepth once branches are expanded. ParseMDSL never returns
// it.
var errMDSLTooDeep = errors.New("a node built early is too deep")

// parseMDSL is ParseMDSL, building nodes while it reads: only the main
// root's when mainOnly is set.
func parseMDSL(name string, src []byte, mainOnly bool) (Node[Call], error) {
	p := &mparser{name: name, src: src, lex: newMLexer(src, false), mode: mmodeCall, intern: map[string]string{}, specMainOnly: mainOnly}
	b := newMBuilder(p, mdslCall)
	p.spec = b
	if err := p.parse(); err != nil {
		return Node[Call]{}, err
	}
	return b.build()
}

// ParseMDSLFunc reads an MDSL text whose leaves (and attributes) are each
// one identifier or one string, calling leaf with that text to make the
// value of type L: action [go_right] and action ["go right"] are leaves
// "go_right" and "go right". An error from leaf is returned as an
// [*MDSLError] placed at the leaf, wrapping it. The result is the main
// root, a [Root]: its Child(0) is the definition to [Start] for an
// Elixir-style tree.
func ParseMDSLFunc[L any](name string, src []byte, leaf func(text string) (L, error)) (Node[L], error) {
	if leaf == nil {
		return Node[L]{}, errors.New("behaviortree.ParseMDSLFunc: nil leaf function")
	}
	p := newMParser(name, src, mmodeLeaf, false)
	if err := p.parse(); err != nil {
		return Node[L]{}, err
	}
	return buildMDSL(p, func(p *mparser, c mcall) (L, error) {
		a := p.args[c.lo]
		v, err := leaf(a.str)
		if err != nil {
			return v, newMDSLError(p.name, p.src, a.pos, fmt.Sprintf("leaf %s: %v", strconv.Quote(clip(a.str)), err), err)
		}
		return v, nil
	})
}

// mdslCall makes the Call of a call in the syntax tree.
func mdslCall(p *mparser, c mcall) (Call, error) {
	args := p.args[c.lo:c.hi]
	call := Call{Name: args[0].str}
	if len(args) > 1 {
		call.Args = make([]any, len(args)-1)
		for i, a := range args[1:] {
			switch a.typ {
			case margNull:
			case margBool:
				call.Args[i] = a.b
			case margNum:
				call.Args[i] = a.num
			case margString:
				call.Args[i] = a.str
			case margProp:
				call.Args[i] = Property(a.str)
			}
		}
	}
	return call, nil
}

// mbuilder turns a syntax tree into a Node, expanding branches as
// mistreevous.go's reader does (it cannot be reused: it reads decoded JSON
// of Calls, and this one makes trees of any leaf type).
type mbuilder[L any] struct {
	p     *mparser
	leaf  func(*mparser, mcall) (L, error)
	names map[string]int32
	built map[string]mbuilt[L]
	state map[string]uint8
	pre   blocks[mbuilt[L]] // nodes built while parsing (mparser.spec)
}

type mbuilt[L any] struct {
	n      Node[L]
	height int
}

func buildMDSL[L any](p *mparser, leaf func(*mparser, mcall) (L, error)) (Node[L], error) {
	return newMBuilder(p, leaf).build()
}

func newMBuilder[L any](p *mparser, leaf func(*mparser, mcall) (L, error)) *mbuilder[L] {
	return &mbuilder[L]{p: p, leaf: leaf, names: map[string]int32{}}
}

// speculate builds node i while the parser reads (see mdsl_parse.go).
// Its leaf function must neither fail nor be seen.
func (b *mbuilder[L]) speculate(i int32, depth int, lo int32) bool {
	d, err := b.node(i, depth)
	if err != nil {
		return false
	}
	b.pre.truncate(lo)
	b.pre.push(d)
	return true
}

// child builds child c (an index of the syntax tree's nodes or, -2-k, the
// node pre[k] built while parsing) at the given depth.
func (b *mbuilder[L]) child(c int32, depth int) (mbuilt[L], error) {
	if c < -1 {
		// Built already, but a named root's node at another depth (see
		// the top of mdsl_parse.go).
		d := b.pre.at(-2 - c)
		if depth+d.height-1 > MaxMistreevousDepth {
			return mbuilt[L]{}, errMDSLTooDeep
		}
		return *d, nil
	}
	return b.node(c, depth)
}

// build turns the parsed syntax tree into the main root's Node.
func (b *mbuilder[L]) build() (Node[L], error) {
	p := b.p
	main := int32(-1)
	for _, r := range p.roots {
		n := &p.nodes[r]
		if !n.named {
			if main >= 0 {
				return Node[L]{}, p.errAt(n.pos, "a second main root (without a name); the first is on line %d", newMDSLError("", p.src, p.nodes[main].pos, "", nil).Line)
			}
			main = r
			continue
		}
		if j, dup := b.names[n.name]; dup {
			return Node[L]{}, p.errAt(n.argPos, "root %q is defined twice (first on line %d)", clip(n.name), newMDSLError("", p.src, p.nodes[j].pos, "", nil).Line)
		}
		b.names[n.name] = r
	}
	if main < 0 {
		return Node[L]{}, p.errAt(p.nodes[p.roots[0]].pos, "no main root: one root must have no name")
	}
	if len(b.names) > 0 {
		b.built, b.state = map[string]mbuilt[L]{}, map[string]uint8{}
	}
	m := &p.nodes[main]
	c, err := b.child(m.first, 2)
	if err != nil {
		return Node[L]{}, err
	}
	if 1+c.n.Size() > MaxMistreevousNodes {
		return Node[L]{}, p.errAt(m.pos, "the tree has more than %d nodes once branches are expanded", MaxMistreevousNodes)
	}
	root, err := Build(KindRoot, Params{}, c.n)
	if err != nil {
		return Node[L]{}, p.errAt(m.pos, "%s", trimBuild(err))
	}
	if root, err = b.attrs(root, main); err != nil {
		return Node[L]{}, err
	}
	for _, r := range p.roots {
		n := &p.nodes[r]
		if _, done := b.built[n.name]; n.named && !done {
			if _, err := b.branch(n.name, n.pos, 1); err != nil {
				return Node[L]{}, err
			}
		}
	}
	return root, nil
}

// branch returns the child of the named root name, building it once.
func (b *mbuilder[L]) branch(name string, pos, depth int) (mbuilt[L], error) {
	if d, ok := b.built[name]; ok {
		if depth+d.height-1 > MaxMistreevousDepth {
			return mbuilt[L]{}, b.p.errAt(pos, "the tree is deeper than %d nodes once branches are expanded", MaxMistreevousDepth)
		}
		return d, nil
	}
	i, ok := b.names[name]
	if !ok {
		return mbuilt[L]{}, b.p.errAt(pos, "branch to an unknown root %q", clip(name))
	}
	if b.state[name] == 1 {
		return mbuilt[L]{}, b.p.errAt(pos, "branch to %q makes a cycle", clip(name))
	}
	b.state[name] = 1
	d, err := b.child(b.p.nodes[i].first, depth)
	if err != nil {
		return mbuilt[L]{}, err
	}
	b.state[name] = 2
	b.built[name] = d
	return d, nil
}

// node builds node i of the syntax tree, depth levels below the top (1 for
// the main root). The recursion is at most MaxMistreevousDepth deep.
func (b *mbuilder[L]) node(i int32, depth int) (mbuilt[L], error) {
	p := b.p
	n := &p.nodes[i]
	if depth > MaxMistreevousDepth {
		return mbuilt[L]{}, p.errAt(n.pos, "the tree is deeper than %d nodes once branches are expanded", MaxMistreevousDepth)
	}
	if n.kind == mkwBranch {
		return b.branch(n.name, n.pos, depth)
	}
	var out Node[L]
	height := 0
	params := b.params(n)
	switch kinds[n.kind].arity {
	case noChildren:
		if kinds[n.kind].carries {
			v, err := b.leaf(p, p.calls[n.call-1])
			if err != nil {
				return mbuilt[L]{}, err
			}
			if n.kind == KindLeaf {
				out = Leaf(v)
			} else {
				out = Condition(v)
			}
		} else {
			var err error
			if out, err = Build[L](n.kind, params); err != nil {
				return mbuilt[L]{}, p.errAt(n.argPos, "%s", trimBuild(err))
			}
		}
	default:
		children := make([]Node[L], 0, n.nkids)
		size := 1
		for c := n.first; c != -1; c = p.nextOf(c) {
			d, err := b.child(c, depth+1)
			if err != nil {
				return mbuilt[L]{}, err
			}
			children = append(children, d.n)
			height = max(height, d.height)
			size += d.n.Size()
			if size > MaxMistreevousNodes {
				return mbuilt[L]{}, p.errAt(n.pos, "the tree has more than %d nodes once branches are expanded", MaxMistreevousNodes)
			}
		}
		var err error
		if out, err = Build(n.kind, params, children...); err != nil {
			return mbuilt[L]{}, newMDSLError(p.name, p.src, n.argPos, trimBuild(err), nil)
		}
	}
	out, err := b.attrs(out, i)
	if err != nil {
		return mbuilt[L]{}, err
	}
	return mbuilt[L]{n: out, height: height + 1}, nil
}

// params returns a node's parameters from its counts or weights.
func (b *mbuilder[L]) params(n *mnode) Params {
	if n.kind == mkwBranch || kinds[n.kind].param == paramNone {
		return Params{}
	}
	ints := b.p.ints[n.ilo:n.ihi]
	switch kinds[n.kind].param {
	case paramN:
		return Params{N: ints[0]}
	case paramWeights:
		return Params{Weights: append([]int(nil), ints...)}
	case paramLotto:
		if len(ints) == 0 {
			return Params{}
		}
		return Params{Weights: append([]int(nil), ints...)}
	case paramThreshold:
		return Params{Success: ints[0], Failure: ints[1]}
	case paramCounts: // in FluentBehaviourTree's order: fail, succeed
		return Params{Failure: ints[0], Success: ints[1]}
	case paramBound:
		switch len(ints) {
		case 1:
			return Params{Bound: Fixed, Min: ints[0], Max: ints[0]}
		case 2:
			return Params{Bound: Ranged, Min: ints[0], Max: ints[1]}
		}
	}
	return Params{}
}

// attrs adds node i's attributes to nd.
func (b *mbuilder[L]) attrs(nd Node[L], i int32) (Node[L], error) {
	n := &b.p.nodes[i]
	var as [numAttrs]Attr[L]
	k := 0
	for a := AttrWhile; a < numAttrs; a++ {
		if n.attrs[a] == 0 {
			continue
		}
		v, err := b.leaf(b.p, b.p.calls[n.attrs[a]-1])
		if err != nil {
			return nd, err
		}
		as[k] = Attr[L]{kind: a, v: v, succeed: n.succ[a]}
		k++
	}
	if k == 0 {
		return nd, nil
	}
	return withFresh(nd, as[:k]), nil
}
