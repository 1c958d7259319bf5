// Package mistreevous reads and writes the JSON definitions of
// Mistreevous 4.3.1 (https://github.com/nikkorn/mistreevous): [Parse]
// reads one into a [bt.Node] of [bt.Call] leaves for [bt.NewStepped], and
// [Format] writes one back. The MDSL text form of the same definitions
// is package mdsl.
//
//	def, err := mistreevous.Parse(data)
//	...
//	agent, err := bt.Functions{Actions: ...}.Agent(def)
//	tree, err := bt.NewStepped(def, agent)
package mistreevous

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/hook"
	"github.com/zipbt/behaviortree/internal/jsonscan"
	"github.com/zipbt/behaviortree/kind"
)

// This file reads Mistreevous JSON definitions.

// Limits on definitions, enforced by [Parse] and [Format], and by package
// mdsl for MDSL texts.
const (
	// MaxNodes is the most nodes a tree may have in the text formats, MDSL
	// and Mistreevous JSON, once branches are expanded, counting every
	// node, the root included: [Parse], [Format] and package mdsl's Parse
	// and Format take a tree of this many nodes and refuse one more. A
	// definition that is not a [bt.Root] is written inside one, which
	// counts. [bt.NewStepped] runs trees of this many nodes.
	MaxNodes = 1 << 20
	// MaxDepth is the deepest a tree may be, counted in nodes from the
	// root, once its branches are expanded: the depth that
	// [bt.NewStepped] runs.
	MaxDepth = 4096
	// MaxArgs is the most arguments a call may have.
	MaxArgs = 256
	// MaxStringBytes is the longest a function name, root id or string
	// argument may be, in bytes.
	MaxStringBytes = 4096
	// MaxBytes is the longest definition that [Parse] reads, and the
	// longest MDSL text.
	MaxBytes = 64 << 20
)

// maxInt31 is the largest count, weight or duration: 2^31-1, as
// [kind.Params] says.
const maxInt31 = 1<<31 - 1

// Parse reads a Mistreevous JSON definition: an array of root
// node definitions (or a single one), exactly one of them without an "id"
// (the main tree), the others named roots that "branch" nodes refer to.
// Every branch is replaced by its named root's child (a named root's own
// guards and callbacks are ignored, as in Mistreevous); an unknown
// reference or a cycle of branches is an error. Actions, conditions,
// guards and callbacks carry a [bt.Call]; an argument {"$": "name"}
// becomes a [bt.Property].
//
// Errors are of type [*bt.DefinitionError], naming the place, for example
// "[0].child.children[2]: lotto has 3 children but 2 weights". Any input
// gives a Node or an error, never a panic; see [MaxNodes] and
// the other limits.
func Parse(data []byte) (bt.Node[bt.Call], error) {
	if len(data) > MaxBytes {
		return bt.Node[bt.Call]{}, &bt.DefinitionError{Msg: fmt.Sprintf("the definition is longer than %d bytes", MaxBytes)}
	}
	r, err := scan(data)
	if err != nil {
		return bt.Node[bt.Call]{}, err
	}
	r.named, r.built, r.state = map[string]int{}, map[string]built{}, map[string]uint8{}
	var roots []value
	switch r.kind(0) {
	case jsonscan.Array:
		for v := r.first(0); v >= 0; v = r.after(0, v) {
			roots = append(roots, v)
		}
	case jsonscan.Object:
		roots = []value{0}
	default:
		return bt.Node[bt.Call]{}, &bt.DefinitionError{Msg: "a definition must be an array of root nodes, got " + r.kindName(0)}
	}
	main := -1
	for i, v := range roots {
		path := "[" + strconv.Itoa(i) + "]"
		if r.kind(v) != jsonscan.Object {
			return bt.Node[bt.Call]{}, &bt.DefinitionError{Path: path, Msg: "a root definition must be an object, got " + r.kindName(v)}
		}
		typ := r.get(v, "type")
		if t, _ := r.str(typ); t != "root" {
			return bt.Node[bt.Call]{}, &bt.DefinitionError{Path: path, Msg: fmt.Sprintf("a top-level node must have type \"root\", got %s", r.show(typ))}
		}
		id := r.get(v, "id")
		if id < 0 {
			if main >= 0 {
				return bt.Node[bt.Call]{}, &bt.DefinitionError{Path: path, Msg: fmt.Sprintf("a second main root (without id); the first is [%d]", main)}
			}
			main = i
			continue
		}
		name, ok := r.str(id)
		if !ok || name == "" || len(name) > MaxStringBytes || !utf8.ValidString(name) {
			return bt.Node[bt.Call]{}, &bt.DefinitionError{Path: path + ".id", Msg: fmt.Sprintf("id must be a non-empty string of at most %d bytes, got %s", MaxStringBytes, r.show(id))}
		}
		if j, dup := r.named[name]; dup {
			return bt.Node[bt.Call]{}, &bt.DefinitionError{Path: path + ".id", Msg: fmt.Sprintf("root %q is defined twice (first at [%d])", name, j)}
		}
		r.named[name] = i
	}
	if main < 0 {
		return bt.Node[bt.Call]{}, &bt.DefinitionError{Msg: "no main root (a root without id)"}
	}
	r.roots = roots
	b, err := r.node(roots[main], "["+strconv.Itoa(main)+"]", 1)
	if err != nil {
		return bt.Node[bt.Call]{}, err
	}
	// Named roots that no branch reaches are checked too, in order.
	for i, v := range roots {
		if i == main {
			continue
		}
		name, _ := r.str(r.get(v, "id"))
		if _, done := r.built[name]; done {
			continue
		}
		if _, err := r.branch(name, "["+strconv.Itoa(i)+"]", 1); err != nil {
			return bt.Node[bt.Call]{}, err
		}
	}
	return b.n, nil
}

// value is a JSON value of a definition: the index of its first token in
// reader.toks, or -1 for none (a key not present).
type value int32

// tok is one token of a definition read whole, in 12 bytes: its kind,
// whether it is a simple string, and where it is. For objects and arrays
// end is the index of the token after the last one inside; for the others,
// start and end are its bytes, quotes included.
type tok struct {
	kind       jsonscan.Kind
	simple     bool
	start, end int32
}

// scan checks the syntax of data and reads it into a flat
// array of tokens, counted first so that it is allocated once: no value
// is decoded until the reader asks for it (and checks its size).
func scan(data []byte) (*reader, error) {
	count := 0
	s := jsonscan.Scanner{Data: data}
	for {
		t, err := s.Next()
		if err != nil {
			return nil, &bt.DefinitionError{Msg: err.Error(), Err: err}
		}
		if t.Kind == jsonscan.None {
			break
		}
		if t.Kind != jsonscan.ObjectEnd && t.Kind != jsonscan.ArrayEnd {
			count++
		}
	}
	r := &reader{data: data, toks: make([]tok, 0, count)}
	var open []int32
	s = jsonscan.Scanner{Data: data}
	for {
		t, _ := s.Next()
		switch t.Kind {
		case jsonscan.None:
			return r, nil
		case jsonscan.ObjectEnd, jsonscan.ArrayEnd:
			r.toks[open[len(open)-1]].end = int32(len(r.toks))
			open = open[:len(open)-1]
			continue
		case jsonscan.Object, jsonscan.Array:
			open = append(open, int32(len(r.toks)))
		}
		r.toks = append(r.toks, tok{kind: t.Kind, simple: t.Simple, start: int32(t.Start), end: int32(t.End)})
	}
}

// kind returns the kind of v's token, jsonscan.None for none.
func (r *reader) kind(v value) jsonscan.Kind {
	if v < 0 {
		return jsonscan.None
	}
	return r.toks[v].kind
}

// next returns the index just past value v.
func (r *reader) next(v value) value {
	if k := r.toks[v].kind; k == jsonscan.Object || k == jsonscan.Array {
		return value(r.toks[v].end)
	}
	return v + 1
}

// first returns the first element of array v, or -1.
func (r *reader) first(v value) value {
	if v+1 < value(r.toks[v].end) {
		return v + 1
	}
	return -1
}

// after returns the element of array v after element e, or -1.
func (r *reader) after(v, e value) value {
	if n := r.next(e); n < value(r.toks[v].end) {
		return n
	}
	return -1
}

// length returns the number of elements of array v.
func (r *reader) length(v value) int {
	n := 0
	for e := r.first(v); e >= 0; e = r.after(v, e) {
		n++
	}
	return n
}

// keys calls f with each key of object v and its value, in order; it
// stops at the first error.
func (r *reader) keys(v value, f func(k string, val value) error) error {
	for i := v + 1; i < value(r.toks[v].end); i = r.next(i + 1) {
		if err := f(r.text(i), i+1); err != nil {
			return err
		}
	}
	return nil
}

// get returns the value of key k in object v (the last one, as
// encoding/json does), or -1.
func (r *reader) get(v value, k string) value {
	if r.kind(v) != jsonscan.Object {
		return -1
	}
	found := value(-1)
	for i := v + 1; i < value(r.toks[v].end); i = r.next(i + 1) {
		t := r.toks[i]
		if t.simple && string(r.data[t.start+1:t.end-1]) == k || !t.simple && r.text(i) == k {
			found = i + 1
		}
	}
	return found
}

// text decodes the string or key token i.
func (r *reader) text(i value) string {
	t := r.toks[i]
	return jsonscan.DecodeString(r.data, jsonscan.Token{Kind: t.kind, Simple: t.simple, Start: int(t.start), End: int(t.end)})
}

// str returns string v decoded, if it is a string of at most
// MaxStringBytes bytes; a longer one is not decoded, and gives false.
func (r *reader) str(v value) (string, bool) {
	if r.kind(v) != jsonscan.String {
		return "", false
	}
	t := r.toks[v]
	if raw := int(t.end - t.start - 2); raw > MaxStringBytes && (t.simple || raw > 6*MaxStringBytes) {
		return "", false // each byte decodes to at least a byte, an escape of up to 6 to one
	}
	s := r.text(v)
	return s, len(s) <= MaxStringBytes
}

// raw returns the bytes of scalar v.
func (r *reader) raw(v value) string {
	t := r.toks[v]
	return string(r.data[t.start:t.end])
}

// reader reads one definition.
type reader struct {
	data  []byte
	toks  []tok
	roots []value
	named map[string]int   // id -> index in roots
	built map[string]built // id -> its child, built
	state map[string]uint8 // 1: being built (a cycle if met again)
}

// built is a node read, with its height once branches are expanded.
type built struct {
	n      bt.Node[bt.Call]
	height int
}

func derr(path, format string, args ...any) error {
	return &bt.DefinitionError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// branch returns the child of the named root name, building it once.
func (r *reader) branch(name, path string, depth int) (built, error) {
	if b, ok := r.built[name]; ok {
		if depth+b.height-1 > MaxDepth {
			return built{}, derr(path, "the tree is deeper than %d nodes once branches are expanded", MaxDepth)
		}
		return b, nil
	}
	i, ok := r.named[name]
	if !ok {
		return built{}, derr(path, "branch to an unknown root %q", name)
	}
	if r.state[name] == 1 {
		return built{}, derr(path, "branch to %q makes a cycle", name)
	}
	r.state[name] = 1
	rp := "[" + strconv.Itoa(i) + "]"
	obj := r.roots[i]
	if err := r.keys(obj, func(k string, _ value) error {
		switch k {
		case "type", "id", "child", "while", "until", "entry", "step", "exit":
			return nil
		}
		return derr(rp, "root has no field %q", clip(k))
	}); err != nil {
		return built{}, err
	}
	// The named root's attributes are ignored, but must be well-formed.
	if _, err := r.attrs(obj, rp); err != nil {
		return built{}, err
	}
	c := r.get(obj, "child")
	if c < 0 {
		return built{}, derr(rp, "root needs a child")
	}
	b, err := r.node(c, rp+".child", depth)
	if err != nil {
		return built{}, err
	}
	r.state[name] = 2
	r.built[name] = b
	return b, nil
}

// kindOf maps the Mistreevous type names to their kinds ("branch" is not
// a kind: the reader expands it), and typeFields gives the fields each
// type may have besides "type" and the attributes, the first saying what
// the node holds: "child", "children", or a leaf's. Both follow from the
// table of kinds.
var kindOf, typeFields = func() (map[string]kind.Kind, map[string][]string) {
	kinds := make(map[string]kind.Kind)
	fields := map[string][]string{"branch": {"ref"}}
	for k := range 256 {
		f := kind.Kind(k)
		if f.Mistreevous() == "" {
			continue
		}
		kinds[f.Mistreevous()] = f
		var fs []string
		switch {
		case f.Carries():
			fs = []string{"call", "args"}
		case f.Arity() == kind.OneChild:
			fs = []string{"child"}
		case f.Arity() != kind.NoChildren:
			fs = []string{"children"}
		}
		switch f.Param() {
		case kind.ParamLotto:
			fs = append(fs, "weights")
		case kind.ParamBound:
			fs = append(fs, f.BoundName())
		}
		if kind.Kind(k) == kind.Root {
			fs = append(fs, "id")
		}
		fields[f.Mistreevous()] = fs
	}
	return kinds, fields
}()

// node reads the node definition v at path, depth nodes below the top
// (1 for the main root).
func (r *reader) node(v value, path string, depth int) (built, error) {
	if depth > MaxDepth {
		return built{}, derr(path, "the tree is deeper than %d nodes", MaxDepth)
	}
	if r.kind(v) != jsonscan.Object {
		return built{}, derr(path, "a node must be an object, got %s", r.kindName(v))
	}
	raw := r.get(v, "type")
	if raw < 0 {
		return built{}, derr(path, "a node needs a type")
	}
	typ, ok := r.str(raw)
	fields, known := typeFields[typ]
	if !ok || !known {
		return built{}, derr(path, "unknown node type %s", r.show(raw))
	}
	if err := r.keys(v, func(k string, _ value) error {
		switch k {
		case "type":
			return nil
		case "while", "until", "entry", "step", "exit":
			if typ != "branch" {
				return nil
			}
			return derr(path, "branch cannot have attributes (%s)", k)
		}
		for _, f := range fields {
			if f == k {
				return nil
			}
		}
		return derr(path, "%s has no field %q", typ, clip(k))
	}); err != nil {
		return built{}, err
	}
	if typ == "branch" {
		ref, ok := r.str(r.get(v, "ref"))
		if !ok {
			return built{}, derr(path, "branch needs a ref string, got %s", r.show(r.get(v, "ref")))
		}
		return r.branch(ref, path, depth)
	}
	if typ == "root" {
		if depth > 1 {
			return built{}, derr(path, "a root can only be at the top")
		}
		if r.get(v, "id") >= 0 {
			return built{}, derr(path, "the main root has an id")
		}
	}
	nodeKind := kindOf[typ]
	var p kind.Params
	var children []bt.Node[bt.Call]
	height := 0
	var n bt.Node[bt.Call]
	switch fields[0] {
	default: // a leaf
		switch nodeKind {
		case kind.Leaf, kind.Condition:
			c, err := r.call(v, path)
			if err != nil {
				return built{}, err
			}
			if nodeKind == kind.Leaf {
				n = bt.Leaf(c)
			} else {
				n = bt.Condition(c)
			}
		default: // wait
			if err := r.bound(v, nodeKind.BoundName(), path, &p); err != nil {
				return built{}, err
			}
		}
	case "child":
		c := r.get(v, "child")
		if c < 0 {
			return built{}, derr(path, "%s needs a child", typ)
		}
		b, err := r.node(c, path+".child", depth+1)
		if err != nil {
			return built{}, err
		}
		children, height = []bt.Node[bt.Call]{b.n}, b.height
		if nodeKind.Param() == kind.ParamBound {
			err = r.bound(v, nodeKind.BoundName(), path, &p)
		}
		if err != nil {
			return built{}, err
		}
	case "children":
		list := r.get(v, "children")
		if list < 0 {
			return built{}, derr(path, "%s needs children", typ)
		}
		if r.kind(list) != jsonscan.Array {
			return built{}, derr(path+".children", "children must be an array, got %s", r.kindName(list))
		}
		if r.first(list) < 0 {
			return built{}, derr(path+".children", "%s needs at least one child", typ)
		}
		children = make([]bt.Node[bt.Call], 0, r.length(list))
		size := 1
		i := 0
		for c := r.first(list); c >= 0; c = r.after(list, c) {
			b, err := r.node(c, path+".children["+strconv.Itoa(i)+"]", depth+1)
			if err != nil {
				return built{}, err
			}
			i++
			children = append(children, b.n)
			height = max(height, b.height)
			size += b.n.Size()
			if size > MaxNodes {
				return built{}, derr(path, "the tree has more than %d nodes once branches are expanded", MaxNodes)
			}
		}
		if w := r.get(v, "weights"); w >= 0 {
			if r.kind(w) != jsonscan.Array {
				return built{}, derr(path+".weights", "weights must be an array, got %s", r.kindName(w))
			}
			if r.length(w) > len(children) {
				return built{}, derr(path+".weights", "%s has %d children but %d weights", typ, len(children), r.length(w))
			}
			p.Weights = make([]int, 0, r.length(w))
			for x := r.first(w); x >= 0; x = r.after(w, x) {
				v, ok := r.int31(x)
				if !ok {
					return built{}, derr(path+".weights["+strconv.Itoa(len(p.Weights))+"]", "a weight must be an integer >= 0, got %s", r.show(x))
				}
				p.Weights = append(p.Weights, v)
			}
		}
	}
	if n.IsZero() {
		if len(children) > 0 && 1+children[0].Size() > MaxNodes {
			return built{}, derr(path, "the tree has more than %d nodes once branches are expanded", MaxNodes)
		}
		var err error
		n, err = bt.Build(nodeKind, p, children...)
		if err != nil {
			return built{}, &bt.DefinitionError{Path: path, Msg: trimBuild(err), Err: err}
		}
	}
	at, err := r.attrs(v, path)
	if err != nil {
		return built{}, err
	}
	if len(at) > 0 {
		n = withAttrs(n, at)
	}
	return built{n: n, height: height + 1}, nil
}

// withAttrs gives n, just built and held by nothing else, the attributes
// as, in place: bt.Node.With would copy n.
func withAttrs(n bt.Node[bt.Call], as []attr.Attr[bt.Call]) bt.Node[bt.Call] {
	return bt.InternalFill(hook.Module, n, hook.Fill[bt.Call]{Attrs: as})
}

// clip cuts s to at most 40 bytes (on a rune boundary), with "..." when
// it cut.
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

// trimBuild returns Build's message without its "behaviortree.Build: ".
func trimBuild(err error) string {
	const pre = "behaviortree.Build: "
	s := err.Error()
	if len(s) > len(pre) && s[:len(pre)] == pre {
		return s[len(pre):]
	}
	return s
}

// bound reads a count or duration field.
func (r *reader) bound(obj value, field, path string, p *kind.Params) error {
	raw := r.get(obj, field)
	if raw < 0 {
		return nil
	}
	if v, ok := r.int31(raw); ok {
		p.Bound, p.Min, p.Max = kind.Fixed, v, v
		return nil
	}
	if r.kind(raw) == jsonscan.Array && r.length(raw) == 2 {
		a, ok1 := r.int31(r.first(raw))
		b, ok2 := r.int31(r.after(raw, r.first(raw)))
		if ok1 && ok2 {
			if a > b {
				return derr(path+"."+field, "%s minimum %d is more than maximum %d", field, a, b)
			}
			p.Bound, p.Min, p.Max = kind.Ranged, a, b
			return nil
		}
	}
	return derr(path+"."+field, "%s must be an integer from 0 to %d or [min, max], got %s", field, maxInt31, r.show(raw))
}

// call reads an action's or condition's call and args, checking the
// number of arguments before reading any.
func (r *reader) call(obj value, path string) (bt.Call, error) {
	raw := r.get(obj, "call")
	if raw < 0 {
		return bt.Call{}, derr(path, "needs a call")
	}
	name, ok := r.str(raw)
	if !ok || name == "" || !utf8.ValidString(name) {
		return bt.Call{}, derr(path+".call", "call must be a non-empty string of at most %d bytes, got %s", MaxStringBytes, r.show(raw))
	}
	c := bt.Call{Name: name}
	if a := r.get(obj, "args"); a >= 0 {
		if r.kind(a) != jsonscan.Array {
			return bt.Call{}, derr(path+".args", "args must be an array, got %s", r.kindName(a))
		}
		n := r.length(a)
		if n > MaxArgs {
			return bt.Call{}, derr(path+".args", "more than %d arguments", MaxArgs)
		}
		if n > 0 {
			c.Args = make([]any, 0, n)
		}
		for x := r.first(a); x >= 0; x = r.after(a, x) {
			v, err := r.arg(x)
			if err != nil {
				return bt.Call{}, derr(path+".args["+strconv.Itoa(len(c.Args))+"]", "%v", err)
			}
			c.Args = append(c.Args, v)
		}
	}
	return c, nil
}

// arg converts one argument.
func (r *reader) arg(x value) (any, error) {
	switch r.kind(x) {
	case jsonscan.Null:
		return nil, nil
	case jsonscan.True:
		return true, nil
	case jsonscan.False:
		return false, nil
	case jsonscan.String:
		s, ok := r.str(x)
		if !ok {
			return nil, fmt.Errorf("a string argument is longer than %d bytes", MaxStringBytes)
		}
		return s, nil
	case jsonscan.Number:
		f, err := strconv.ParseFloat(r.raw(x), 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fmt.Errorf("number %s is out of range", clip(r.raw(x)))
		}
		return f, nil
	case jsonscan.Object:
		if p := r.get(x, "$"); p >= 0 && r.toks[x].end == int32(x)+3 {
			if s, ok := r.str(p); ok && s != "" {
				return bt.Property(s), nil
			}
		}
	}
	return nil, fmt.Errorf("an argument must be null, a boolean, a number, a string or {\"$\": name}, got %s", r.show(x))
}

// attrs reads a node's guards and callbacks.
func (r *reader) attrs(obj value, path string) ([]attr.Attr[bt.Call], error) {
	var out []attr.Attr[bt.Call]
	for _, k := range [...]attr.Kind{attr.KindWhile, attr.KindUntil, attr.KindEntry, attr.KindOnStep, attr.KindExit} {
		o := r.get(obj, k.String())
		if o < 0 {
			continue
		}
		ap := path + "." + k.String()
		if r.kind(o) != jsonscan.Object {
			return nil, derr(ap, "%s must be an object, got %s", k, r.kindName(o))
		}
		guard := k == attr.KindWhile || k == attr.KindUntil
		if err := r.keys(o, func(f string, _ value) error {
			if f != "call" && f != "args" && !(guard && f == "succeedOnAbort") {
				return derr(ap, "%s has no field %q", k, clip(f))
			}
			return nil
		}); err != nil {
			return nil, err
		}
		c, err := r.call(o, ap)
		if err != nil {
			return nil, err
		}
		a := attr.Attr[bt.Call]{Kind: k, Value: c}
		if s := r.get(o, "succeedOnAbort"); s >= 0 {
			switch r.kind(s) {
			case jsonscan.True:
				a = a.ThenSucceed()
			case jsonscan.False:
			default:
				return nil, derr(ap+".succeedOnAbort", "succeedOnAbort must be a boolean, got %s", r.show(s))
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// int31 returns x as an int if it is an integer in [0, 2^31-1].
func (r *reader) int31(x value) (int, bool) {
	if r.kind(x) != jsonscan.Number {
		return 0, false
	}
	n := r.raw(x)
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(n, 64)
		if ferr != nil || f != math.Trunc(f) || f < 0 || f > maxInt31 {
			return 0, false
		}
		return int(f), true
	}
	if v < 0 || v > maxInt31 {
		return 0, false
	}
	return int(v), true
}

// kindName names the JSON kind of a value.
func (r *reader) kindName(v value) string { return r.kind(v).Noun() }

// show shows a scalar, at most 40 bytes of it, or its kind.
func (r *reader) show(v value) string {
	switch r.kind(v) {
	case jsonscan.Number:
		return clip(r.raw(v))
	case jsonscan.String:
		t := r.toks[v]
		raw := r.data[t.start+1 : t.end-1]
		cut := len(raw) > 6*40
		if cut {
			raw = raw[:6*40]
			for len(raw) > 0 && raw[len(raw)-1] == '\\' { // not half an escape
				raw = raw[:len(raw)-1]
			}
		}
		q := append(append([]byte{'"'}, raw...), '"')
		x := jsonscan.DecodeString(q, jsonscan.Token{Kind: jsonscan.String, Start: 0, End: len(q)})
		if len(x) > 40 {
			x, cut = x[:40], true
		}
		if cut {
			x += "..."
		}
		return strconv.Quote(x)
	case jsonscan.True:
		return "true"
	case jsonscan.False:
		return "false"
	case jsonscan.Null, jsonscan.None:
		return "null"
	}
	return r.kindName(v)
}
