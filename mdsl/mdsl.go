package mdsl

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/hook"
	"github.com/zipbt/behaviortree/internal/termsafe"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mistreevous"
)

// numAttrs is one more than the last attribute kind.
const numAttrs = attr.KindExit + 1

// maxInt31 is the largest count or weight: 2^31-1, as kind.Params says.
const maxInt31 = 1<<31 - 1

// keywords is the MDSL keyword of every kind (kind.Kind.MDSL), by kind.
// The arguments each kind takes follow from its kind.Param: ParamN [n], ParamWeights [w, ...]
// (one per child), ParamLotto [w, ...] (optional), ParamBound [n] or
// [min, max] (optional), ParamThreshold [success, failure], ParamCounts
// [fail, succeed]; leaves that carry a value take a call.
var keywords = func() (kw [256]string) {
	for k := range kw {
		kw[k] = kind.Kind(k).MDSL()
	}
	return kw
}()

// Error is an error in an MDSL text: where it is and what is wrong.
type Error struct {
	File      string // the name given to the parser
	Line, Col int    // from 1; Col counts bytes
	Offset    int    // the byte offset in the text
	Msg       string
	Source    string // the line, shortened around the column when it is long, control characters and invalid UTF-8 quoted as Go escapes
	caret     int    // the column of the caret in Source, in bytes
	Err       error  // the underlying error (a leaf function's), if any
}

// Error returns "FILE:LINE:COL: MSG", then the line and a caret under the
// column on two more lines. COL counts bytes, as Go's compilers do; the
// caret stands under the character as a terminal shows the line: a tab
// of the line is a tab under it, an East Asian wide character takes two
// columns, a combining mark none (termsafe.Width). Control characters and invalid UTF-8 of the
// file name, the message and the line are quoted as Go escapes (\x1b,
// \u2028, \xff), so that the text is safe to print on a terminal.
func (e *Error) Error() string {
	var b bytes.Buffer
	if e.File != "" {
		b.WriteString(termsafe.Text(e.File))
		b.WriteByte(':')
	}
	fmt.Fprintf(&b, "%d:%d: %s", e.Line, e.Col, termsafe.Text(e.Msg))
	b.WriteByte('\n')
	b.WriteString(e.Source)
	b.WriteByte('\n')
	for _, r := range e.Source[:e.caret] {
		if r == '\t' {
			b.WriteByte('\t')
			continue
		}
		for range termsafe.Width(r) {
			b.WriteByte(' ')
		}
	}
	b.WriteByte('^')
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// newError places msg at byte offset pos of src.
func newError(file string, src []byte, pos int, msg string, err error) *Error {
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
		// Cut at a rune's start, looking no further than a rune's length:
		// a run of stray continuation bytes has none.
		for i := 0; i < utf8.UTFMax-1 && lo > 0 && lo < len(text) && !utf8.RuneStart(text[lo]); i++ {
			lo--
		}
		for i := 0; i < utf8.UTFMax-1 && hi < len(text) && !utf8.RuneStart(text[hi]); i++ {
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
	caret = min(caret, len(prefix)+len(text))
	for caret > len(prefix) && caret < len(prefix)+len(text) && !utf8.RuneStart(text[caret-len(prefix)]) {
		caret--
	}
	// Control characters and invalid UTF-8 quoted (termsafe.Text), the
	// caret moved with them.
	before := prefix + termsafe.Text(string(text[:caret-len(prefix)]))
	s := before + termsafe.Text(string(text[caret-len(prefix):])) + suffix
	caret = len(before)
	return &Error{File: file, Line: line, Col: pos - start + 1, Offset: pos, Msg: msg, Source: s, caret: caret, Err: err}
}

// Parse reads an MDSL text (see the grammar above) into a tree of
// [bt.Call] leaves: the main root, a [bt.Root], with branches expanded, equal to what
// [mistreevous.Parse] reads from the same tree's JSON definition. name is
// the file name for error messages. Errors are of type [*Error]; any input
// gives a Node or an error, never a panic. The root keeps a copy of the
// text, so that [bt.Functions] can give the line and column of the nodes
// it reports (a misspelt function name, a wrong argument).
func Parse(name string, src []byte) (bt.Node[bt.Call], error) {
	n, err := parse(name, src, false)
	if err == errTooDeep {
		// A node built early is too deep: read again to say where (see
		// the top of parse.go).
		n, err = parse(name, src, true)
	}
	if err != nil {
		return n, err
	}
	return withSource(n, name, src), nil
}

// errTooDeep says that a node built while reading is deeper than
// mistreevous.MaxDepth once branches are expanded. Parse never returns
// it.
var errTooDeep = errors.New("a node built early is too deep")

// parse is Parse, building nodes while it reads: only the main
// root's when mainOnly is set.
func parse(name string, src []byte, mainOnly bool) (bt.Node[bt.Call], error) {
	p := &parser{name: name, src: src, lex: newLexer(src, false), mode: modeCall, intern: map[string]string{}, specMainOnly: mainOnly}
	b := newBuilder(p, callOf)
	p.spec = b
	if err := p.parse(); err != nil {
		return bt.Node[bt.Call]{}, err
	}
	return b.build()
}

// ParseFunc reads an MDSL text whose leaves (and attributes) are each
// one identifier or one string, calling leaf with that text to make the
// value of type L: action [go_right] and action ["go right"] are leaves
// "go_right" and "go right". An error from leaf is returned as an
// [*Error] placed at the leaf, wrapping it. The result is the main
// root, a [bt.Root]: its Child(0) is the definition to [bt.Start] for a
// Value/Succeed/Fail tree.
func ParseFunc[L any](name string, src []byte, leaf func(text string) (L, error)) (bt.Node[L], error) {
	if leaf == nil {
		return bt.Node[L]{}, errors.New("mdsl.ParseFunc: nil leaf function")
	}
	p := newParser(name, src, modeLeaf, false)
	if err := p.parse(); err != nil {
		return bt.Node[L]{}, err
	}
	return build(p, func(p *parser, c callSyntax) (L, error) {
		a := p.args[c.lo]
		v, err := leaf(a.str)
		if err != nil {
			return v, newError(p.name, p.src, a.pos, fmt.Sprintf("leaf %s: %v", strconv.Quote(clip(a.str)), err), err)
		}
		return v, nil
	})
}

// callOf makes the bt.Call of a call in the syntax tree.
func callOf(p *parser, c callSyntax) (bt.Call, error) {
	args := p.args[c.lo:c.hi]
	call := bt.Call{Name: args[0].str}
	if len(args) > 1 {
		call.Args = make([]any, len(args)-1)
		for i, a := range args[1:] {
			switch a.typ {
			case argNull:
			case argBool:
				call.Args[i] = a.b
			case argNum:
				call.Args[i] = a.num
			case argString:
				call.Args[i] = a.str
			case argProp:
				call.Args[i] = bt.Property(a.str)
			}
		}
	}
	return call, nil
}

// builder turns a syntax tree into a Node, expanding branches as
// package mistreevous's reader does (it cannot be reused: it reads decoded JSON
// of Calls, and this one makes trees of any leaf type).
type builder[L any] struct {
	p     *parser
	leaf  func(*parser, callSyntax) (L, error)
	names map[string]int32 // the named roots, by name: their index in p.roots
	built []built[L]       // by index in p.roots
	state []uint8          // by index in p.roots: 1 being built (on open), 2 built
	pre   blocks[built[L]] // nodes built while parsing (parser.spec)
	as    []attr.Attr[L]   // the attributes of the node being built
	open  []int32          // the roots being built, by branch (state 1)
	// stub, when set (for Check, which needs only the errors), stands for
	// every node once it is built: a node is built from stubs and
	// dropped, so that checking holds no tree of Nodes (bt.Build's errors
	// depend on a node's kind, parameters and number of children, not on
	// what the children are; sizes are counted in built.size).
	stub     bt.Node[L]
	collapse bool // stub is set
}

type built[L any] struct {
	n      bt.Node[L]
	height int
	size   int // the nodes of n, as n.Size() (n may be the stub)
}

func build[L any](p *parser, leaf func(*parser, callSyntax) (L, error)) (bt.Node[L], error) {
	return newBuilder(p, leaf).build()
}

func newBuilder[L any](p *parser, leaf func(*parser, callSyntax) (L, error)) *builder[L] {
	b := &builder[L]{p: p, leaf: leaf, names: map[string]int32{}}
	if p.collect {
		var zero L
		b.stub, b.collapse = bt.Leaf(zero), true
	}
	return b
}

// speculate builds node i while the parser reads (see parse.go).
// Its leaf function must neither fail nor be seen.
func (b *builder[L]) speculate(i int32, depth int, lo int32) bool {
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
func (b *builder[L]) child(c int32, depth int) (built[L], error) {
	if c < -1 {
		// Built already, but a named root's node at another depth (see
		// the top of parse.go).
		d := b.pre.at(-2 - c)
		if depth+d.height-1 > mistreevous.MaxDepth {
			return built[L]{}, errTooDeep
		}
		return *d, nil
	}
	return b.node(c, depth)
}

// build turns the parsed syntax tree into the main root's Node.
func (b *builder[L]) build() (bt.Node[L], error) {
	p := b.p
	main := int32(-1)
	clear(b.names) // built again by Check, once it said "no main root"
	b.open = b.open[:0]
	for k, r := range p.roots {
		n := p.nodes.at(r)
		if !n.named {
			if main >= 0 {
				return bt.Node[L]{}, p.errAt(int(n.pos), "a second main root (without a name); the first is on line %d", newError("", p.src, int(p.nodes.at(main).pos), "", nil).Line)
			}
			main = r
			continue
		}
		if j, dup := b.names[n.name]; dup {
			return bt.Node[L]{}, p.errAt(int(n.argPos), "root %q is defined twice (first on line %d)", clip(n.name), newError("", p.src, int(p.nodes.at(p.roots[j]).pos), "", nil).Line)
		}
		b.names[n.name] = int32(k)
	}
	if main < 0 && !p.noMain {
		return bt.Node[L]{}, p.errAt(int(p.nodes.at(p.roots[0]).pos), "no main root: one root must have no name")
	}
	if len(b.names) > 0 {
		b.built, b.state = make([]built[L], len(p.roots)), make([]uint8, len(p.roots))
	}
	var root bt.Node[L]
	if main >= 0 {
		m := p.nodes.at(main)
		c, err := b.child(m.first, 2)
		if err != nil {
			return bt.Node[L]{}, err
		}
		if 1+c.size > mistreevous.MaxNodes {
			return bt.Node[L]{}, p.errAt(int(m.pos), "the tree has more than %d nodes once branches are expanded", mistreevous.MaxNodes)
		}
		if root, err = bt.Build(kind.Root, kind.Params{}, c.n); err != nil {
			return bt.Node[L]{}, p.errAt(int(m.pos), "%s", trimBuild(err))
		}
		if root, err = b.attrs(root, main); err != nil {
			return bt.Node[L]{}, err
		}
	}
	for k, r := range p.roots {
		n := p.nodes.at(r)
		if n.named && b.state[k] != 2 {
			if _, err := b.branch(n.name, int(n.pos), 1); err != nil {
				if !p.collect || err == errTooDeep {
					return bt.Node[L]{}, err
				}
				// For Check: each named root's error, from one reading.
				for _, o := range b.open {
					b.state[o] = 0
				}
				b.open = b.open[:0]
				if p.buildErrs = append(p.buildErrs, err); len(p.buildErrs) == maxCheckErrors {
					break
				}
			}
		}
	}
	if len(p.buildErrs) > 0 {
		return bt.Node[L]{}, p.buildErrs[0]
	}
	return root, nil
}

// branch returns the child of the named root name, building it once.
func (b *builder[L]) branch(name string, pos, depth int) (built[L], error) {
	k, ok := b.names[name]
	if !ok {
		return built[L]{}, b.p.errAt(pos, "branch to an unknown root %q", clip(name))
	}
	switch b.state[k] {
	case 2:
		d := b.built[k]
		if depth+d.height-1 > mistreevous.MaxDepth {
			return built[L]{}, b.p.errAt(pos, "the tree is deeper than %d nodes once branches are expanded", mistreevous.MaxDepth)
		}
		return d, nil
	case 1:
		return built[L]{}, b.p.errAt(pos, "branch to %q makes a cycle", clip(name))
	}
	b.state[k] = 1
	b.open = append(b.open, k)
	d, err := b.child(b.p.nodes.at(b.p.roots[k]).first, depth)
	if err != nil {
		return built[L]{}, err
	}
	b.open = b.open[:len(b.open)-1]
	b.state[k] = 2
	b.built[k] = d
	return d, nil
}

// node builds node i of the syntax tree, depth levels below the top (1 for
// the main root). The recursion is at most mistreevous.MaxDepth deep.
func (b *builder[L]) node(i int32, depth int) (built[L], error) {
	p := b.p
	n := p.nodes.at(i)
	if depth > mistreevous.MaxDepth {
		return built[L]{}, p.errAt(int(n.pos), "the tree is deeper than %d nodes once branches are expanded", mistreevous.MaxDepth)
	}
	if n.kind == kwBranch {
		return b.branch(n.name, int(n.pos), depth)
	}
	var out bt.Node[L]
	height, size := 0, 1
	params := b.params(n)
	switch n.kind.Arity() {
	case kind.NoChildren:
		if n.kind.Carries() {
			v, err := b.leaf(p, p.calls[n.call-1])
			if err != nil {
				return built[L]{}, err
			}
			if b.collapse && n.attr == 0 {
				// A leaf that gets no attributes is its stub at once.
				out = b.stub
			} else if n.kind == kind.Leaf {
				out = bt.Leaf(v)
			} else {
				out = bt.Condition(v)
			}
		} else {
			var err error
			if out, err = bt.Build[L](n.kind, params); err != nil {
				return built[L]{}, p.errAt(int(n.argPos), "%s", trimBuild(err))
			}
		}
	default:
		children := make([]bt.Node[L], 0, n.nkids)
		for c := n.first; c != -1; c = p.nextOf(c) {
			d, err := b.child(c, depth+1)
			if err != nil {
				return built[L]{}, err
			}
			children = append(children, d.n)
			height = max(height, d.height)
			size += d.size
			if size > mistreevous.MaxNodes {
				return built[L]{}, p.errAt(int(n.pos), "the tree has more than %d nodes once branches are expanded", mistreevous.MaxNodes)
			}
		}
		var err error
		if out, err = bt.Build(n.kind, params, children...); err != nil {
			return built[L]{}, newError(p.name, p.src, int(n.argPos), trimBuild(err), nil)
		}
	}
	out, err := b.attrs(out, i)
	if err != nil {
		return built[L]{}, err
	}
	if b.collapse {
		out = b.stub
	}
	return built[L]{n: out, height: height + 1, size: size}, nil
}

// params returns a node's parameters from its counts or weights.
func (b *builder[L]) params(n *node) kind.Params {
	if n.kind == kwBranch || n.kind.Param() == kind.ParamNone {
		return kind.Params{}
	}
	ints := b.p.ints[n.ilo:n.ihi]
	switch n.kind.Param() {
	case kind.ParamN:
		return kind.Params{N: ints[0]}
	case kind.ParamWeights:
		return kind.Params{Weights: append([]int(nil), ints...)}
	case kind.ParamLotto:
		if len(ints) == 0 {
			return kind.Params{}
		}
		return kind.Params{Weights: append([]int(nil), ints...)}
	case kind.ParamThreshold:
		return kind.Params{Success: ints[0], Failure: ints[1]}
	case kind.ParamCounts: // in FluentBehaviourTree's order: fail, succeed
		return kind.Params{Failure: ints[0], Success: ints[1]}
	case kind.ParamBound:
		switch len(ints) {
		case 1:
			return kind.Params{Bound: kind.Fixed, Min: ints[0], Max: ints[0]}
		case 2:
			return kind.Params{Bound: kind.Ranged, Min: ints[0], Max: ints[1]}
		}
	}
	return kind.Params{}
}

// attrs adds node i's attributes to nd.
func (b *builder[L]) attrs(nd bt.Node[L], i int32) (bt.Node[L], error) {
	n := b.p.nodes.at(i)
	k := 0
	for a := attr.KindWhile; a < numAttrs; a++ {
		if b.p.attrsOf(n).calls[a] != 0 {
			k++
		}
	}
	if k == 0 {
		return nd, nil
	}
	as := b.as[:0] // InternalFill copies them: one buffer serves every node
	for a := attr.KindWhile; a < numAttrs; a++ {
		if b.p.attrsOf(n).calls[a] == 0 {
			continue
		}
		v, err := b.leaf(b.p, b.p.calls[b.p.attrsOf(n).calls[a]-1])
		if err != nil {
			return nd, err
		}
		at := attr.Attr[L]{Kind: a, Value: v}
		if b.p.attrsOf(n).succ[a] {
			at = at.ThenSucceed()
		}
		as = append(as, at)
	}
	b.as = as
	// In place: nd was just built, and nothing else holds it (Node.With
	// would copy it).
	return bt.InternalFill(hook.Module, nd, hook.Fill[L]{Attrs: as}), nil
}

// trimBuild returns bt.Build's message without its "behaviortree.Build: ".
func trimBuild(err error) string {
	return strings.TrimPrefix(err.Error(), "behaviortree.Build: ")
}

// textNodes returns the number of nodes of def written in MDSL, which
// mistreevous.MaxNodes bounds: its size, plus the root it is written
// inside when it is not a [bt.Root].
func textNodes[L any](def bt.Node[L]) int {
	if def.Kind() == kind.Root {
		return def.Size()
	}
	return def.Size() + 1
}
