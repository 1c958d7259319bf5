package mdsl

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mistreevous"
)

// This file is the MDSL parser: it reads the lexer's tokens into a syntax
// tree held in flat arrays (nodes, calls, arguments and counts, linked by
// index), with a stack of open nodes instead of recursion, as Mistreevous's
// own parser does; then a builder turns the syntax tree into a [bt.Node],
// expanding branches.
//
// Holding the whole syntax tree and the Nodes made from it at once would
// double the parser's peak heap, so Parse's builder also builds
// subtrees while the parser reads them (parser.spec): when a node is
// complete and all its children were built, the builder makes its Node
// then, and the parser drops the node's syntax (its nodes, calls,
// arguments and counts are the last ones in the arrays) and links the
// built Node into its parent instead, as index -2-k of the builder's list
// pre. This is only done where it cannot change the result or the error:
// the builder then does what it would have done later, with a leaf
// function that cannot fail or be seen (ParseFunc's may be either, and
// its calls must not happen for a text with a syntax error), and a node
// with a branch below it is never built early.
//
// Check builds early the same way, with a builder whose built nodes are
// stubs (builder.collapse), so that it holds neither the syntax nor the
// Nodes of what it built; the nodes of the syntax tree are kept in blocks
// (no copies as they grow) of 72 bytes each.
//
// Depth is the one thing that is not known early everywhere. A node of the
// main root is built at its depth, as the builder would. A node of a named
// root is built at its depth as if the root's child were the main root's
// child (depth 2), which is where the depth limit cannot be reached; its
// depth once expanded depends on the branches to its root, so when the
// builder links it (builder.child) it checks the depth of the deepest
// node in it: the node's depth plus its height, less one. When that is too
// deep, the builder would have stopped at the first node too deep inside
// it, whose syntax is gone: Parse then reads the text again, building
// only the main root's nodes early (parser.specMainOnly), to give the
// same error. Building does not depend on depth otherwise, and a node's
// other errors (its parameters, the node limit counted inside it) do not
// depend on where it is, so a node built early is the one the builder
// would make, and one that fails to build fails in the builder too: every
// named root is built (one no branch reaches, at depth 1), unless the
// builder stops at an error before it. A build that fails is dropped: the
// node's syntax stays, and the builder meets the error again in its turn.

// argType is the type of an argument in the syntax tree.
type argType uint8

const (
	argNull argType = iota
	argBool
	argNum
	argString
	argProp
	argIdent
)

// arg is one argument as written.
type arg struct {
	typ   argType
	isInt bool // a number that Mistreevous takes as an integer
	b     bool
	pos   int
	num   float64
	str   string // an identifier, a string's value or a property's name
}

// callSyntax is a function call (an action's, a condition's, an attribute's):
// its arguments are args[lo:hi], the first one its name.
type callSyntax struct {
	pos    int
	lo, hi int32
}

// kwBranch is the keyword index of "branch", which is no kind.
const kwBranch = kind.Kind(255)

// node is one node of the syntax tree. Its offsets are int32s (a text
// is at most MaxBytes long), so that a text of many short roots holds
// 64 bytes a node.
type node struct {
	kind     kind.Kind // or kwBranch
	named    bool      // a root with a name, or a branch
	hasInts  bool      // an argument list was written (it may be empty)
	pos      int32     // the keyword
	end      int32     // the end of the header
	close    int32     // the closing brace, for nodes with children
	argPos   int32     // the argument list, or pos
	second   int32     // the position of the second child, for "takes one child"
	ilo, ihi int32     // counts or weights: ints[ilo:ihi]
	call     int32     // the leaf's call, +1; 0 for none
	attr     int32     // its attributes: attrTab[attr-1]; 0 for none
	first    int32     // first child, -1 for none, -2-k for the builder's pre[k]
	last     int32
	next     int32 // next sibling, as first
	nkids    int32
	name     string
}

// nodeAttrs are a node's attributes, apart from the node, as few nodes
// have any.
type nodeAttrs struct {
	calls [numAttrs]int32 // each attribute's call, +1; 0 for none
	succ  [numAttrs]bool  // then succeed, for while and until
}

// noAttrs are the attributes of a node with none; never written.
var noAttrs nodeAttrs

// attrsOf returns n's attributes, to read.
func (p *parser) attrsOf(n *node) *nodeAttrs {
	if n.attr == 0 {
		return &noAttrs
	}
	return &p.attrTab[n.attr-1]
}

// parse modes.
const (
	modeCall = iota // leaves are Calls: a name and arguments
	modeLeaf        // leaves are one identifier or string
)

// parser reads one MDSL text.
type parser struct {
	name    string
	src     []byte
	lex     *lexer
	mode    int
	peekd   bool
	tok     token
	prevEnd int
	nodes   blocks[node]
	calls   []callSyntax
	args    []arg
	ints    []int
	attrTab []nodeAttrs
	roots   []int32
	intern  map[string]string
	count   int // nodes read

	// spec, when set, builds subtrees of the main root while they are
	// read (see the top of this file); prenext[k] is the next sibling of
	// the built pre[k], as node.next.
	spec    speculator
	specOn  bool // inside a root whose nodes are built early
	prenext blocks[int32]
	// specMainOnly builds only the main root's nodes early.
	specMainOnly bool

	// For Check: collect, when set, keeps the errors of validate in errs
	// and reads on (they do not stop the parser from reading the rest);
	// cur is the offset of the keyword of the node being read, or -1, and
	// inside whether it is inside a root, where an error stopped.
	collect bool
	errs    []*Error
	cur     int
	inside  bool
	mended  *mendLog // what mend blanked, over the readings of a check
	noMain  bool     // build the named roots of a text without a main root (Check has said so once)
	// buildErrs are the errors of the named roots, each built on after
	// the error of another (collect only).
	buildErrs []error
}

// mendLog says whether Check's mending blanked roots: a root, and a main
// root (one with no name).
type mendLog struct{ root, main bool }

// blocks is a stack that grows by blocks of blockLen values, without the
// copies of append: a flat tree's children are all on it at once, and a
// slice that grows by append would allocate several times their size.
type blocks[T any] struct {
	b [][]T
	n int32
}

const blockLen = 1024

func (s *blocks[T]) len() int32 { return s.n }

// at returns the k-th value, k < s.len().
func (s *blocks[T]) at(k int32) *T { return &s.b[k/blockLen][k%blockLen] }

// truncate drops the values from the n-th on.
func (s *blocks[T]) truncate(n int32) { s.n = n }

// push adds v on top. The first block grows by append, so that a short
// stack costs little.
func (s *blocks[T]) push(v T) {
	i, j := s.n/blockLen, s.n%blockLen
	if int(i) == len(s.b) {
		size := blockLen
		if i == 0 {
			size = 8
		}
		s.b = append(s.b, make([]T, 0, size))
	}
	if b := &s.b[i]; int(j) < len(*b) {
		(*b)[j] = v
	} else {
		*b = append(*b, v)
	}
	s.n++
}

// speculator builds complete nodes while the parser reads.
type speculator interface {
	// speculate builds node i, whose children are all built and are the
	// builder's pre[lo:], at depth depth (for a named root's node, its
	// depth below the root as if the root were the main one). When it
	// succeeds, the result replaces pre[lo:] in the builder's list and it
	// returns true.
	speculate(i int32, depth int, lo int32) bool
}

// openNode is a node on the parser's stack of open nodes, with the lengths
// of the arrays before its header.
type openNode struct {
	i                          int32
	args, calls, ints, attrTab int32
	pre                        int32
	allBuilt                   bool // all children read so far were built
}

// MaxBytes is the longest MDSL text that [Parse] reads.
const MaxBytes = 64 << 20

func newParser(name string, src []byte, mode int, keepComments bool) *parser {
	p := &parser{name: name, src: src, lex: newLexer(src, keepComments), mode: mode, intern: map[string]string{}}
	p.reserve(len(src))
	return p
}

// reserve makes room in the syntax tree's arrays for n more bytes of text.
func (p *parser) reserve(n int) {
	if guess := n / 32; guess > 16 && len(p.src) <= MaxBytes {
		p.args = slices.Grow(p.args, guess)
		p.calls = slices.Grow(p.calls, guess)
	}
}

func (p *parser) next() token {
	if !p.peekd {
		p.tok = p.lex.next()
	}
	p.peekd = false
	p.prevEnd = p.tok.end
	if p.tok.typ == tokString {
		p.prevEnd++
	}
	return p.tok
}

func (p *parser) peek() token {
	if !p.peekd {
		p.tok = p.lex.next()
		p.peekd = true
	}
	return p.tok
}

// errAt returns an *Error at byte offset pos.
func (p *parser) errAt(pos int, format string, args ...any) *Error {
	return newError(p.name, p.src, pos, fmt.Sprintf(format, args...), nil)
}

// text returns a word's text.
func (p *parser) text(t token) string {
	if t.spliced {
		return t.val
	}
	return p.str(p.src[t.pos:t.end])
}

// str returns b as a string, interned, so that names used many times cost
// one allocation.
func (p *parser) str(b []byte) string {
	if s, ok := p.intern[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(p.intern) < 1<<12 {
		p.intern[s] = s
	}
	return s
}

// wordBytes returns a word's bytes.
func (p *parser) wordBytes(t token) []byte {
	if t.spliced {
		return []byte(t.val)
	}
	return p.src[t.pos:t.end]
}

// describe names a token for an error message.
func (p *parser) describe(t token) string {
	switch t.typ {
	case tokWord:
		return strconv.Quote(clip(p.text(t)))
	case tokString:
		return "a string"
	}
	return tokNames[t.typ]
}

// kindByKeyword maps lower-case keywords to kinds.
var kindByKeyword = func() map[string]kind.Kind {
	m := map[string]kind.Kind{"branch": kwBranch}
	for k, kw := range keywords {
		if kw != "" {
			m[kw] = kind.Kind(k)
		}
	}
	return m
}()

// upperSpecial are the characters whose JavaScript toUpperCase is
// ASCII letters although they are not: Mistreevous compares keywords after
// toUpperCase, so "ſequence" is SEQUENCE and "ﬂip" is FLIP.
var upperSpecial = map[rune]string{
	'ſ': "S", 'ı': "I", 'ß': "SS", 'ﬀ': "FF", 'ﬁ': "FI", 'ﬂ': "FL", 'ﬃ': "FFI", 'ﬄ': "FFL", 'ﬅ': "ST", 'ﬆ': "ST",
}

// keywordOf returns the keyword a word is, compared as Mistreevous does
// (toUpperCase), or "" when it is none.
func keywordOf(w []byte) (string, kind.Kind, bool) {
	var small [24]byte
	lw := small[:0]
	if len(w) > len(small) {
		return "", 0, false
	}
	ascii := true
	for _, c := range w {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lw = append(lw, c)
	}
	if !ascii {
		lw = lw[:0]
		for _, r := range string(w) {
			switch {
			case r < utf8.RuneSelf:
				c := byte(r)
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				lw = append(lw, c)
			case upperSpecial[r] != "":
				lw = append(lw, strings.ToLower(upperSpecial[r])...)
			default:
				return "", 0, false
			}
			if len(lw) > 20 {
				return "", 0, false
			}
		}
	}
	k, ok := kindByKeyword[string(lw)]
	if !ok {
		return "", 0, false
	}
	if k == kwBranch {
		return "branch", k, true
	}
	return keywords[k], k, true
}

// asciiFold reports whether w is s (lower-case ASCII) up to ASCII case,
// as Mistreevous's toLowerCase comparisons of attribute names and "then".
func asciiFold(w []byte, s string) bool {
	if len(w) != len(s) {
		return false
	}
	for i, c := range w {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// attrOf returns the attribute a word names, or 0.
func attrOf(w []byte) attr.Kind {
	for k := attr.KindWhile; k < numAttrs; k++ {
		if asciiFold(w, k.String()) {
			return k
		}
	}
	return 0
}

// nextOf returns the next sibling of child c (an index of nodes or a
// built node, -2-k).
func (p *parser) nextOf(c int32) int32 {
	if c < -1 {
		return *p.prenext.at(-2 - c)
	}
	return p.nodes.at(c).next
}

// done links the complete node o, the child of parent, into parent's
// children, first building it if p.spec can (see the top of this file).
// depth is o's: a root is at depth 1.
func (p *parser) done(parent *openNode, o openNode, depth int) {
	c := o.i
	n := p.nodes.at(c)
	try := p.specOn && o.allBuilt && n.kind != kwBranch && depth <= mistreevous.MaxDepth
	if try && p.spec.speculate(c, depth, o.pre) {
		p.nodes.truncate(c)
		p.args, p.calls, p.ints, p.attrTab = p.args[:o.args], p.calls[:o.calls], p.ints[:o.ints], p.attrTab[:o.attrTab]
		p.prenext.truncate(o.pre)
		p.prenext.push(-1)
		c = -2 - o.pre
	} else {
		parent.allBuilt = false
		if try {
			// The build failed, so the builder will fail in its turn (it
			// builds every root, see the top of this file): stop trying,
			// as each failure costs an error message.
			p.spec, p.specOn = nil, false
		}
	}
	pn := p.nodes.at(parent.i)
	switch {
	case pn.last == -1:
		pn.first = c
	case pn.last < -1:
		*p.prenext.at(-2 - pn.last) = c
	default:
		p.nodes.at(pn.last).next = c
	}
	pn.last = c
}

// parse reads the whole text into the syntax tree.
func (p *parser) parse() error {
	if len(p.src) > MaxBytes {
		return p.errAt(0, "the text is longer than %d bytes", MaxBytes)
	}
	var stack []openNode
	for {
		t := p.next()
		switch t.typ {
		case tokError:
			return p.errAt(t.pos, "%s", t.val)
		case tokEOF:
			if len(stack) > 0 {
				n := p.nodes.at(stack[len(stack)-1].i)
				return p.errAt(int(n.pos), "%s is never closed: a '}' is missing", keywords[n.kind])
			}
			if len(p.roots) == 0 {
				return p.errAt(t.pos, "no root: a definition needs root { ... }")
			}
			return nil
		case tokRBrace:
			if len(stack) == 0 {
				return p.errAt(t.pos, "unexpected '}': no node is open")
			}
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			p.nodes.at(o.i).close = int32(t.pos)
			if err := p.validate(o.i); err != nil {
				if !p.collect {
					return err
				}
				p.errs = append(p.errs, err)
				// Not built early: Check mends it by its syntax.
				o.allBuilt = false
			}
			if len(stack) > 0 {
				p.done(&stack[len(stack)-1], o, len(stack)+1)
			}
		case tokWord:
			p.cur, p.inside = t.pos, len(stack) > 0
			kw, nodeKind, ok := keywordOf(p.wordBytes(t))
			if !ok {
				if attrOf(p.wordBytes(t)) != 0 {
					return p.errAt(t.pos, "attribute %s must follow a node's arguments", p.describe(t))
				}
				if near := nearestKeyword(string(p.wordBytes(t))); near != "" {
					return p.errAt(t.pos, "unexpected %s: want a node; did you mean %s?", p.describe(t), near)
				}
				return p.errAt(t.pos, "unexpected %s: want a node (action, condition, sequence, selector, ...)", p.describe(t))
			}
			if nodeKind == kind.Root {
				if len(stack) > 0 {
					return p.errAt(t.pos, "a root cannot be inside another node")
				}
			} else if len(stack) == 0 {
				return p.errAt(t.pos, "%s outside a root: every node must be inside root { ... }", kw)
			}
			if p.count >= mistreevous.MaxNodes {
				return p.errAt(t.pos, "more than %d nodes", mistreevous.MaxNodes)
			}
			p.count++
			i := p.nodes.len()
			o := openNode{i: i, args: int32(len(p.args)), calls: int32(len(p.calls)), ints: int32(len(p.ints)), attrTab: int32(len(p.attrTab)), pre: p.prenext.len(), allBuilt: true}
			p.nodes.push(node{kind: nodeKind, pos: int32(t.pos), argPos: int32(t.pos), first: -1, last: -1, next: -1})
			if err := p.header(i, kw); err != nil {
				return err
			}
			if nodeKind == kind.Root {
				p.roots = append(p.roots, i)
				p.specOn = p.spec != nil && !(p.specMainOnly && p.nodes.at(i).named)
				if p.spec != nil && !p.specOn {
					// Its syntax is kept: make room for the rest of the
					// text, as newParser does for all of it.
					p.reserve(len(p.src) - t.pos)
				}
			} else {
				parent := p.nodes.at(stack[len(stack)-1].i)
				if parent.nkids == 1 {
					parent.second = int32(t.pos)
				}
				parent.nkids++
			}
			p.cur = -1 // the header is read
			if nodeKind == kwBranch || nodeKind.Arity() == kind.NoChildren {
				p.done(&stack[len(stack)-1], o, len(stack)+1)
			} else {
				p.cur = t.pos
				open := p.next()
				if open.typ != tokLBrace {
					if open.typ == tokError {
						return p.errAt(open.pos, "%s", open.val)
					}
					return p.errAt(open.pos, "want '{' after %s, got %s", kw, p.describe(open))
				}
				if len(stack) >= mistreevous.MaxDepth {
					return p.errAt(t.pos, "nodes nested deeper than %d levels", mistreevous.MaxDepth)
				}
				stack = append(stack, o)
				p.cur = -1
			}
		case tokString:
			return p.errAt(t.pos, "unexpected string: want a node")
		default:
			return p.errAt(t.pos, "unexpected %s: want a node", tokNames[t.typ])
		}
	}
}

// validate checks a node once its children are read.
func (p *parser) validate(i int32) *Error {
	n := p.nodes.at(i)
	kw := keywords[n.kind]
	switch n.kind.Arity() {
	case kind.OneChild:
		if n.nkids == 0 {
			return p.errAt(int(n.pos), "%s takes one child, got none", kw)
		}
		if n.nkids > 1 {
			return p.errAt(int(n.second), "%s takes one child, got %d", kw, n.nkids)
		}
	case kind.SomeChildren:
		if n.nkids == 0 {
			return p.errAt(int(n.pos), "%s needs at least one child, got none", kw)
		}
	}
	switch n.kind.Param() {
	case kind.ParamWeights, kind.ParamLotto:
		if w := n.ihi - n.ilo; (w > 0 || n.kind == kind.RandomWeighted) && w != n.nkids {
			return p.errAt(int(n.argPos), "%s has %d children but %d weights", kw, n.nkids, w)
		}
	}
	return nil
}

// header reads a node's arguments and attributes, after its keyword.
func (p *parser) header(i int32, kw string) error {
	nodeKind := p.nodes.at(i).kind
	lo, hi := int32(len(p.args)), int32(len(p.args))
	var argPos int
	has := false
	if t := p.peek(); t.typ == tokLBrack || t.typ == tokLParen {
		var err error
		argPos = t.pos
		lo, hi, err = p.argList()
		if err != nil {
			return err
		}
		has = true
	}
	n := p.nodes.at(i)
	if has {
		n.argPos = int32(argPos)
	}
	args := p.args[lo:hi]
	switch {
	case nodeKind == kind.Root || nodeKind == kwBranch:
		if len(args) > 1 || (len(args) == 1 && args[0].typ != argIdent) || (nodeKind == kwBranch && len(args) != 1) {
			return p.errAt(int(n.argPos), "%s takes one name argument: %s [Name]", kw, kw)
		}
		if len(args) == 1 {
			n.name, n.named = args[0].str, true
		}
		p.args = p.args[:lo]
	case nodeKind.Carries():
		if !has {
			return p.errAt(int(n.pos), "%s needs a function name: %s [Name]", kw, kw)
		}
		c, err := p.call(kw, "", lo, hi, int(n.argPos))
		if err != nil {
			return err
		}
		n.call = c
	case nodeKind.Param() == kind.ParamNone:
		if has {
			return p.errAt(argPos, "%s takes no arguments", kw)
		}
	default:
		if has {
			n.hasInts = true
		}
		n.ilo = int32(len(p.ints))
		for _, a := range args {
			if a.typ != argNum || !a.isInt {
				return p.errAt(a.pos, "%s arguments must be integers, got %s", kw, p.showArg(a))
			}
			min := 0
			switch nodeKind.Param() {
			case kind.ParamWeights:
				min = 1
			case kind.ParamThreshold, kind.ParamCounts:
				min = -maxInt31
			}
			if a.num < float64(min) || a.num > maxInt31 {
				return p.errAt(a.pos, "%s arguments must be integers from %d to %d, got %s", kw, min, maxInt31, p.showArg(a))
			}
			p.ints = append(p.ints, int(a.num))
		}
		n.ihi = int32(len(p.ints))
		p.args = p.args[:lo]
		got := n.ihi - n.ilo
		switch nodeKind.Param() {
		case kind.ParamN:
			if got != 1 {
				return p.errAt(int(n.argPos), "%s takes one count: %s [n]", kw, kw)
			}
			if p.ints[n.ilo] < 2 {
				return p.errAt(int(n.argPos), "%s needs a count of at least 2, got %d", kw, p.ints[n.ilo])
			}
		case kind.ParamThreshold:
			if got != 2 {
				return p.errAt(int(n.argPos), "%s takes two counts: %s [success, failure]", kw, kw)
			}
		case kind.ParamCounts:
			if got != 2 {
				return p.errAt(int(n.argPos), "%s takes two counts: %s [fail, succeed]", kw, kw)
			}
		case kind.ParamBound:
			if got > 2 {
				return p.errAt(int(n.argPos), "%s takes [n] or [min, max], got %d numbers", kw, got)
			}
			if got == 2 && p.ints[n.ilo] > p.ints[n.ilo+1] {
				return p.errAt(int(n.argPos), "%s minimum %d is more than maximum %d", kw, p.ints[n.ilo], p.ints[n.ilo+1])
			}
		}
	}
	if nodeKind == kwBranch {
		if t := p.peek(); t.typ == tokWord && attrOf(p.wordBytes(t)) != 0 {
			return p.errAt(t.pos, "branch takes no attributes")
		}
		n.end = int32(p.lastEnd())
		return nil
	}
	for {
		t := p.peek()
		if t.typ != tokWord {
			break
		}
		ak := attrOf(p.wordBytes(t))
		if ak == 0 {
			break
		}
		p.next()
		n := p.nodes.at(i)
		if p.attrsOf(n).calls[ak] != 0 {
			return p.errAt(t.pos, "duplicate %s attribute", ak.String())
		}
		at := p.peek()
		if at.typ != tokLBrack && at.typ != tokLParen {
			return p.errAt(t.pos, "%s needs a function name: %s(Name)", ak.String(), ak.String())
		}
		lo, hi, err := p.argList()
		if err != nil {
			return err
		}
		c, err := p.call(ak.String(), ak.String(), lo, hi, at.pos)
		if err != nil {
			return err
		}
		n = p.nodes.at(i)
		if n.attr == 0 {
			p.attrTab = append(p.attrTab, nodeAttrs{})
			n.attr = int32(len(p.attrTab))
		}
		p.attrTab[n.attr-1].calls[ak] = c
		if ak == attr.KindWhile || ak == attr.KindUntil {
			if th := p.peek(); th.typ == tokWord && asciiFold(p.wordBytes(th), "then") {
				p.next()
				r := p.next()
				if r.typ == tokError {
					return p.errAt(r.pos, "%s", r.val)
				}
				kwr, _, ok := keywordOf(p.wordBytes(r))
				if r.typ != tokWord || !ok || (kwr != "succeed" && kwr != "fail") {
					return p.errAt(r.pos, "want succeed or fail after then, got %s", p.describe(r))
				}
				p.attrTab[n.attr-1].succ[ak] = kwr == "succeed"
			}
		}
	}
	if t := p.peek(); t.typ == tokWord && asciiFold(p.wordBytes(t), "then") {
		return p.errAt(t.pos, "then must follow a while or until guard")
	}
	if t := p.peek(); t.typ == tokError {
		return p.errAt(t.pos, "%s", t.val)
	}
	p.nodes.at(i).end = int32(p.lastEnd())
	return nil
}

// lastEnd is where the last token consumed ends.
func (p *parser) lastEnd() int { return p.prevEnd }

// call checks the arguments args[lo:hi] of a call and records it.
func (p *parser) call(kw, at string, lo, hi int32, pos int) (int32, error) {
	args := p.args[lo:hi]
	what := kw
	if len(args) == 0 {
		form := kw + " [Name]"
		if at != "" {
			form = at + "(Name)"
		}
		return 0, p.errAt(pos, "%s needs a function name: %s", what, form)
	}
	if p.mode == modeLeaf {
		if len(args) != 1 {
			return 0, p.errAt(args[1].pos, "%s takes one leaf (an identifier or a string), got %d arguments", what, len(args))
		}
		if args[0].typ != argIdent && args[0].typ != argString {
			return 0, p.errAt(args[0].pos, "a leaf must be an identifier or a string, got %s", p.showArg(args[0]))
		}
	} else {
		if args[0].typ != argIdent {
			return 0, p.errAt(args[0].pos, "%s needs a function name first, got %s", what, p.showArg(args[0]))
		}
		for _, a := range args[1:] {
			if a.typ == argIdent {
				return 0, p.errAt(a.pos, "invalid %s argument value '%s', must be string, number, boolean, agent property reference or null", what, clip(a.str))
			}
		}
		if len(args)-1 > mistreevous.MaxArgs {
			return 0, p.errAt(args[mistreevous.MaxArgs+1].pos, "more than %d arguments", mistreevous.MaxArgs)
		}
	}
	p.calls = append(p.calls, callSyntax{pos: args[0].pos, lo: lo, hi: hi})
	return int32(len(p.calls)), nil
}

func (p *parser) showArg(a arg) string {
	switch a.typ {
	case argNull:
		return "null"
	case argBool:
		return strconv.FormatBool(a.b)
	case argNum:
		return "number " + formatNumber(a.num)
	case argString:
		return "a string"
	case argProp:
		return "$" + a.str
	}
	return "'" + clip(a.str) + "'"
}

// clip shortens s to at most 40 bytes (and whole runes) for a message.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	i := 40
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "..."
}

// argList reads a [ ... ] or ( ... ) list into p.args[lo:hi].
func (p *parser) argList() (lo, hi int32, err error) {
	open := p.next()
	closer := tokRBrack
	if open.typ == tokLParen {
		closer = tokRParen
	}
	lo = int32(len(p.args))
	for idx := 0; ; idx++ {
		t := p.next()
		if t.typ == closer {
			break
		}
		switch t.typ {
		case tokError:
			return 0, 0, p.errAt(t.pos, "%s", t.val)
		case tokEOF:
			return 0, 0, p.errAt(open.pos, "unclosed %s: want %s", tokNames[open.typ], tokNames[closer])
		}
		if idx&1 == 1 {
			if t.typ != tokComma {
				return 0, 0, p.errAt(t.pos, "want ',' or %s in an argument list, got %s", tokNames[closer], p.describe(t))
			}
			continue
		}
		a, err := p.arg(t)
		if err != nil {
			return 0, 0, err
		}
		if len(p.args)-int(lo) > mistreevous.MaxArgs+1 {
			return 0, 0, p.errAt(t.pos, "more than %d arguments", mistreevous.MaxArgs)
		}
		p.args = append(p.args, a)
	}
	return lo, int32(len(p.args)), nil
}

// arg reads one argument value, as Mistreevous's getArgumentDefinition.
func (p *parser) arg(t token) (arg, error) {
	switch t.typ {
	case tokString:
		raw := t.val
		if !t.spliced {
			raw = string(p.src[t.pos+1 : t.end])
		}
		if len(raw) > mistreevous.MaxStringBytes {
			return arg{}, p.errAt(t.pos, "a string is longer than %d bytes", mistreevous.MaxStringBytes)
		}
		return arg{typ: argString, pos: t.pos, str: unquote(raw)}, nil
	case tokWord:
	default:
		return arg{}, p.errAt(t.pos, "want an argument, got %s", p.describe(t))
	}
	w := p.wordBytes(t)
	switch string(w) {
	case "null":
		return arg{typ: argNull, pos: t.pos}, nil
	case "true", "false":
		return arg{typ: argBool, pos: t.pos, b: w[0] == 't'}, nil
	}
	if v, isInt, ok, bad := jsNumber(string(w)); ok {
		if bad != "" {
			return arg{}, p.errAt(t.pos, "number %s: %s", clip(string(w)), bad)
		}
		return arg{typ: argNum, pos: t.pos, num: v, isInt: isInt}, nil
	}
	if len(w) > mistreevous.MaxStringBytes {
		return arg{}, p.errAt(t.pos, "a name is longer than %d bytes", mistreevous.MaxStringBytes)
	}
	if placeholder(w) {
		return arg{}, p.errAt(t.pos, "%s is reserved (Mistreevous's string placeholders)", clip(string(w)))
	}
	if len(w) > 1 && w[0] == '$' && identStart(w[1]) {
		return arg{typ: argProp, pos: t.pos, str: p.str(w[1:])}, nil
	}
	return arg{typ: argIdent, pos: t.pos, str: p.text(t)}, nil
}

func identStart(c byte) bool { return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// placeholder reports whether w is @@digits@@.
func placeholder(w []byte) bool {
	if len(w) < 5 || string(w[:2]) != "@@" || string(w[len(w)-2:]) != "@@" {
		return false
	}
	for _, c := range w[2 : len(w)-2] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// unquote is Mistreevous's decoding of a string literal's content: the
// first \" becomes ", and nothing else changes.
func unquote(raw string) string {
	if i := strings.Index(raw, `\"`); i >= 0 {
		return raw[:i] + raw[i+1:]
	}
	return raw
}

// jsNumber reads w as JavaScript's Number(w) would, Mistreevous's test for
// a number argument. ok says it is a number; isInt is Mistreevous's
// parseFloat(w) === parseInt(w, 10); bad, when not empty, says why the
// number is refused here although JavaScript takes it (Infinity, hex,
// octal and binary forms, out of range).
func jsNumber(w string) (v float64, isInt, ok bool, bad string) {
	s := w
	switch s {
	case "Infinity", "+Infinity", "-Infinity":
		return 0, false, true, "not a finite number"
	}
	if len(s) > 2 && s[0] == '0' {
		digits := ""
		switch s[1] {
		case 'x', 'X':
			digits = "0123456789abcdefABCDEF"
		case 'o', 'O':
			digits = "01234567"
		case 'b', 'B':
			digits = "01"
		}
		if digits != "" {
			all := true
			for _, c := range s[2:] {
				all = all && strings.ContainsRune(digits, c)
			}
			if all {
				return 0, false, true, "hexadecimal, octal and binary numbers are not supported"
			}
			return 0, false, false, ""
		}
	}
	// [+-]? (digits (. digits?)? | . digits) ([eE] [+-]? digits)?
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	intStart := i
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	intEnd := i
	frac := 0
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
			frac++
		}
	}
	if intEnd == intStart && frac == 0 {
		return 0, false, false, ""
	}
	exp := false
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		d := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		if i == d {
			return 0, false, false, ""
		}
		exp = true
	}
	if i != len(s) {
		return 0, false, false, ""
	}
	f, err := strconv.ParseFloat(s, 64)
	if math.IsInf(f, 0) {
		return 0, false, true, "out of range"
	}
	if err != nil && !isRangeErr(err) {
		return 0, false, false, ""
	}
	_ = exp
	if intEnd > intStart {
		pi, _ := strconv.ParseFloat(s[:intEnd], 64)
		isInt = pi == f && !math.IsInf(pi, 0)
	}
	return f, isInt, true, ""
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
