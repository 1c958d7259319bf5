package behaviortree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"
)

// This file reads and writes Mistreevous JSON definitions.

// Limits on Mistreevous definitions, enforced by [ParseMistreevous] (and,
// for depth, by [NewStepped] and [MarshalMistreevous]).
const (
	// MaxMistreevousNodes is the most nodes a tree may have in the text
	// formats, MDSL and Mistreevous JSON, once branches are expanded,
	// counting every node, the root included: [ParseMDSL],
	// [ParseMistreevous], [FormatMDSL] and [MarshalMistreevous] take a
	// tree of this many nodes and refuse one more. A definition that is
	// not a [Root] is written inside one, which counts.
	MaxMistreevousNodes = 1 << 20
	// MaxMistreevousDepth is the deepest a tree may be, counted in nodes
	// from the root, once its branches are expanded.
	MaxMistreevousDepth = maxSteppedDepth
	// MaxArgs is the most arguments a call may have.
	MaxArgs = 256
	// MaxStringBytes is the longest a function name, root id or string
	// argument may be, in bytes.
	MaxStringBytes = 4096
)

// ParseMistreevous reads a Mistreevous JSON definition: an array of root
// node definitions (or a single one), exactly one of them without an "id"
// (the main tree), the others named roots that "branch" nodes refer to.
// Every branch is replaced by its named root's child (a named root's own
// guards and callbacks are ignored, as in Mistreevous); an unknown
// reference or a cycle of branches is an error. Actions, conditions,
// guards and callbacks carry a [Call]; an argument {"$": "name"} becomes a
// [Property].
//
// Errors are [*DefinitionError]s naming the place, for example
// "[0].child.children[2]: lotto has 3 children but 2 weights". Any input
// gives a Node or an error, never a panic; see [MaxMistreevousNodes] and
// the other limits.
func ParseMistreevous(data []byte) (Node[Call], error) {
	if len(data) > MaxMistreevousBytes {
		return Node[Call]{}, &DefinitionError{Msg: fmt.Sprintf("the definition is longer than %d bytes", MaxMistreevousBytes)}
	}
	r, err := scanMistreevous(data)
	if err != nil {
		return Node[Call]{}, err
	}
	r.named, r.built, r.state = map[string]int{}, map[string]built{}, map[string]uint8{}
	var roots []mjv
	switch r.kind(0) {
	case tokArray:
		for v := r.first(0); v >= 0; v = r.after(0, v) {
			roots = append(roots, v)
		}
	case tokObject:
		roots = []mjv{0}
	default:
		return Node[Call]{}, &DefinitionError{Msg: "a definition must be an array of root nodes, got " + r.mjKind(0)}
	}
	main := -1
	for i, v := range roots {
		path := "[" + strconv.Itoa(i) + "]"
		if r.kind(v) != tokObject {
			return Node[Call]{}, &DefinitionError{Path: path, Msg: "a root definition must be an object, got " + r.mjKind(v)}
		}
		typ := r.get(v, "type")
		if t, _ := r.str(typ); t != "root" {
			return Node[Call]{}, &DefinitionError{Path: path, Msg: fmt.Sprintf("a top-level node must have type \"root\", got %s", r.mjShow(typ))}
		}
		id := r.get(v, "id")
		if id < 0 {
			if main >= 0 {
				return Node[Call]{}, &DefinitionError{Path: path, Msg: fmt.Sprintf("a second main root (without id); the first is [%d]", main)}
			}
			main = i
			continue
		}
		name, ok := r.str(id)
		if !ok || name == "" || len(name) > MaxStringBytes || !utf8.ValidString(name) {
			return Node[Call]{}, &DefinitionError{Path: path + ".id", Msg: fmt.Sprintf("id must be a non-empty string of at most %d bytes, got %s", MaxStringBytes, r.mjShow(id))}
		}
		if j, dup := r.named[name]; dup {
			return Node[Call]{}, &DefinitionError{Path: path + ".id", Msg: fmt.Sprintf("root %q is defined twice (first at [%d])", name, j)}
		}
		r.named[name] = i
	}
	if main < 0 {
		return Node[Call]{}, &DefinitionError{Msg: "no main root (a root without id)"}
	}
	r.roots = roots
	b, err := r.node(roots[main], "["+strconv.Itoa(main)+"]", 1)
	if err != nil {
		return Node[Call]{}, err
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
			return Node[Call]{}, err
		}
	}
	return b.n, nil
}

// MaxMistreevousBytes is the longest Mistreevous JSON definition that
// [ParseMistreevous] reads: the limit of MDSL texts.
const MaxMistreevousBytes = MaxMDSLBytes

// mjv is a JSON value of a definition: the index of its first token in
// mreader.toks, or -1 for none (a key not present).
type mjv int32

// mtok is one token of a definition read whole, in 12 bytes: its kind,
// whether it is a simple string, and where it is. For objects and arrays
// end is the index of the token after the last one inside; for the others,
// start and end are its bytes, quotes included.
type mtok struct {
	kind       tokKind
	simple     bool
	start, end int32
}

// scanMistreevous checks the syntax of data and reads it into a flat
// array of tokens, counted first so that it is allocated once: no value
// is decoded until the reader asks for it (and checks its size).
func scanMistreevous(data []byte) (*mreader, error) {
	count := 0
	s := scanner{data: data}
	for {
		t, err := s.next()
		if err != nil {
			return nil, &DefinitionError{Msg: err.Error(), Err: err}
		}
		if t.kind == tokNone {
			break
		}
		if t.kind != tokObjectEnd && t.kind != tokArrayEnd {
			count++
		}
	}
	r := &mreader{data: data, toks: make([]mtok, 0, count)}
	var open []int32
	s = scanner{data: data}
	for {
		t, _ := s.next()
		switch t.kind {
		case tokNone:
			return r, nil
		case tokObjectEnd, tokArrayEnd:
			r.toks[open[len(open)-1]].end = int32(len(r.toks))
			open = open[:len(open)-1]
			continue
		case tokObject, tokArray:
			open = append(open, int32(len(r.toks)))
		}
		r.toks = append(r.toks, mtok{kind: t.kind, simple: t.simple, start: int32(t.start), end: int32(t.end)})
	}
}

// kind returns the kind of v's token, tokNone for none.
func (r *mreader) kind(v mjv) tokKind {
	if v < 0 {
		return tokNone
	}
	return r.toks[v].kind
}

// next returns the index just past value v.
func (r *mreader) next(v mjv) mjv {
	if k := r.toks[v].kind; k == tokObject || k == tokArray {
		return mjv(r.toks[v].end)
	}
	return v + 1
}

// first returns the first element of array v, or -1.
func (r *mreader) first(v mjv) mjv {
	if v+1 < mjv(r.toks[v].end) {
		return v + 1
	}
	return -1
}

// after returns the element of array v after element e, or -1.
func (r *mreader) after(v, e mjv) mjv {
	if n := r.next(e); n < mjv(r.toks[v].end) {
		return n
	}
	return -1
}

// length returns the number of elements of array v.
func (r *mreader) length(v mjv) int {
	n := 0
	for e := r.first(v); e >= 0; e = r.after(v, e) {
		n++
	}
	return n
}

// keys calls f with each key of object v and its value, in order; it
// stops at the first error.
func (r *mreader) keys(v mjv, f func(k string, val mjv) error) error {
	for i := v + 1; i < mjv(r.toks[v].end); i = r.next(i + 1) {
		if err := f(r.text(i), i+1); err != nil {
			return err
		}
	}
	return nil
}

// get returns the value of key k in object v (the last one, as
// encoding/json does), or -1.
func (r *mreader) get(v mjv, k string) mjv {
	if r.kind(v) != tokObject {
		return -1
	}
	found := mjv(-1)
	for i := v + 1; i < mjv(r.toks[v].end); i = r.next(i + 1) {
		t := r.toks[i]
		if t.simple && string(r.data[t.start+1:t.end-1]) == k || !t.simple && r.text(i) == k {
			found = i + 1
		}
	}
	return found
}

// text decodes the string or key token i.
func (r *mreader) text(i mjv) string {
	t := r.toks[i]
	return decodeString(r.data, token{kind: t.kind, simple: t.simple, start: int(t.start), end: int(t.end)})
}

// str returns string v decoded, if it is a string of at most
// MaxStringBytes bytes; a longer one is not decoded, and gives false.
func (r *mreader) str(v mjv) (string, bool) {
	if r.kind(v) != tokString {
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
func (r *mreader) raw(v mjv) string {
	t := r.toks[v]
	return string(r.data[t.start:t.end])
}

// mreader reads one definition.
type mreader struct {
	data  []byte
	toks  []mtok
	roots []mjv
	named map[string]int   // id -> index in roots
	built map[string]built // id -> its child, built
	state map[string]uint8 // 1: being built (a cycle if met again)
}

// built is a node read, with its height once branches are expanded.
type built struct {
	n      Node[Call]
	height int
}

func derr(path, format string, args ...any) error {
	return &DefinitionError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// branch returns the child of the named root name, building it once.
func (r *mreader) branch(name, path string, depth int) (built, error) {
	if b, ok := r.built[name]; ok {
		if depth+b.height-1 > MaxMistreevousDepth {
			return built{}, derr(path, "the tree is deeper than %d nodes once branches are expanded", MaxMistreevousDepth)
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
	if err := r.keys(obj, func(k string, _ mjv) error {
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

// fields each Mistreevous type may have besides "type" and the attributes.
var mjFields = map[string][]string{
	"root": {"child", "id"}, "sequence": {"children"}, "selector": {"children"}, "parallel": {"children"},
	"race": {"children"}, "all": {"children"}, "lotto": {"children", "weights"},
	"repeat": {"child", "iterations"}, "retry": {"child", "attempts"}, "flip": {"child"}, "succeed": {"child"},
	"fail": {"child"}, "action": {"call", "args"}, "condition": {"call", "args"}, "wait": {"duration"}, "branch": {"ref"},
}

// node reads the node definition v at path, depth nodes below the top
// (1 for the main root).
func (r *mreader) node(v mjv, path string, depth int) (built, error) {
	if depth > MaxMistreevousDepth {
		return built{}, derr(path, "the tree is deeper than %d nodes", MaxMistreevousDepth)
	}
	if r.kind(v) != tokObject {
		return built{}, derr(path, "a node must be an object, got %s", r.mjKind(v))
	}
	raw := r.get(v, "type")
	if raw < 0 {
		return built{}, derr(path, "a node needs a type")
	}
	typ, ok := r.str(raw)
	fields, known := mjFields[typ]
	if !ok || !known {
		return built{}, derr(path, "unknown node type %s", r.mjShow(raw))
	}
	if err := r.keys(v, func(k string, _ mjv) error {
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
			return built{}, derr(path, "branch needs a ref string, got %s", r.mjShow(r.get(v, "ref")))
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
	kind := kindByMistreevous[typ]
	var p Params
	var children []Node[Call]
	height := 0
	var n Node[Call]
	switch kinds[kind].arity {
	case noChildren:
		switch kind {
		case KindLeaf, KindCondition:
			c, err := r.call(v, path)
			if err != nil {
				return built{}, err
			}
			if kind == KindLeaf {
				n = Leaf(c)
			} else {
				n = Condition(c)
			}
		default: // wait
			if err := r.bound(v, "duration", path, &p); err != nil {
				return built{}, err
			}
		}
	case oneChild:
		c := r.get(v, "child")
		if c < 0 {
			return built{}, derr(path, "%s needs a child", typ)
		}
		b, err := r.node(c, path+".child", depth+1)
		if err != nil {
			return built{}, err
		}
		children, height = []Node[Call]{b.n}, b.height
		switch typ {
		case "repeat":
			err = r.bound(v, "iterations", path, &p)
		case "retry":
			err = r.bound(v, "attempts", path, &p)
		}
		if err != nil {
			return built{}, err
		}
	default:
		list := r.get(v, "children")
		if list < 0 {
			return built{}, derr(path, "%s needs children", typ)
		}
		if r.kind(list) != tokArray {
			return built{}, derr(path+".children", "children must be an array, got %s", r.mjKind(list))
		}
		if r.first(list) < 0 {
			return built{}, derr(path+".children", "%s needs at least one child", typ)
		}
		children = make([]Node[Call], 0, r.length(list))
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
			if size > MaxMistreevousNodes {
				return built{}, derr(path, "the tree has more than %d nodes once branches are expanded", MaxMistreevousNodes)
			}
		}
		if w := r.get(v, "weights"); w >= 0 {
			if r.kind(w) != tokArray {
				return built{}, derr(path+".weights", "weights must be an array, got %s", r.mjKind(w))
			}
			if r.length(w) > len(children) {
				return built{}, derr(path+".weights", "%s has %d children but %d weights", typ, len(children), r.length(w))
			}
			p.Weights = make([]int, 0, r.length(w))
			for x := r.first(w); x >= 0; x = r.after(w, x) {
				v, ok := r.mjInt(x)
				if !ok {
					return built{}, derr(path+".weights["+strconv.Itoa(len(p.Weights))+"]", "a weight must be an integer >= 0, got %s", r.mjShow(x))
				}
				p.Weights = append(p.Weights, v)
			}
		}
	}
	if n.n == nil {
		if len(children) > 0 && 1+children[0].Size() > MaxMistreevousNodes {
			return built{}, derr(path, "the tree has more than %d nodes once branches are expanded", MaxMistreevousNodes)
		}
		var err error
		n, err = Build(kind, p, children...)
		if err != nil {
			return built{}, &DefinitionError{Path: path, Msg: trimBuild(err), Err: err}
		}
	}
	at, err := r.attrs(v, path)
	if err != nil {
		return built{}, err
	}
	if len(at) > 0 {
		n = withFresh(n, at)
	}
	return built{n: n, height: height + 1}, nil
}

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

// bound reads a count or duration field.
func (r *mreader) bound(obj mjv, field, path string, p *Params) error {
	raw := r.get(obj, field)
	if raw < 0 {
		return nil
	}
	if v, ok := r.mjInt(raw); ok {
		p.Bound, p.Min, p.Max = Fixed, v, v
		return nil
	}
	if r.kind(raw) == tokArray && r.length(raw) == 2 {
		a, ok1 := r.mjInt(r.first(raw))
		b, ok2 := r.mjInt(r.after(raw, r.first(raw)))
		if ok1 && ok2 {
			if a > b {
				return derr(path+"."+field, "%s minimum %d is more than maximum %d", field, a, b)
			}
			p.Bound, p.Min, p.Max = Ranged, a, b
			return nil
		}
	}
	return derr(path+"."+field, "%s must be an integer from 0 to %d or [min, max], got %s", field, maxRepeat, r.mjShow(raw))
}

// call reads an action's or condition's call and args, checking the
// number of arguments before reading any.
func (r *mreader) call(obj mjv, path string) (Call, error) {
	raw := r.get(obj, "call")
	if raw < 0 {
		return Call{}, derr(path, "needs a call")
	}
	name, ok := r.str(raw)
	if !ok || name == "" || !utf8.ValidString(name) {
		return Call{}, derr(path+".call", "call must be a non-empty string of at most %d bytes, got %s", MaxStringBytes, r.mjShow(raw))
	}
	c := Call{Name: name}
	if a := r.get(obj, "args"); a >= 0 {
		if r.kind(a) != tokArray {
			return Call{}, derr(path+".args", "args must be an array, got %s", r.mjKind(a))
		}
		n := r.length(a)
		if n > MaxArgs {
			return Call{}, derr(path+".args", "more than %d arguments", MaxArgs)
		}
		if n > 0 {
			c.Args = make([]any, 0, n)
		}
		for x := r.first(a); x >= 0; x = r.after(a, x) {
			v, err := r.mjArg(x)
			if err != nil {
				return Call{}, derr(path+".args["+strconv.Itoa(len(c.Args))+"]", "%v", err)
			}
			c.Args = append(c.Args, v)
		}
	}
	return c, nil
}

// mjArg converts one argument.
func (r *mreader) mjArg(x mjv) (any, error) {
	switch r.kind(x) {
	case tokNull:
		return nil, nil
	case tokTrue:
		return true, nil
	case tokFalse:
		return false, nil
	case tokString:
		s, ok := r.str(x)
		if !ok {
			return nil, fmt.Errorf("a string argument is longer than %d bytes", MaxStringBytes)
		}
		return s, nil
	case tokNumber:
		f, err := strconv.ParseFloat(r.raw(x), 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fmt.Errorf("number %s is out of range", clip(r.raw(x)))
		}
		return f, nil
	case tokObject:
		if p := r.get(x, "$"); p >= 0 && r.toks[x].end == int32(x)+3 {
			if s, ok := r.str(p); ok && s != "" {
				return Property(s), nil
			}
		}
	}
	return nil, fmt.Errorf("an argument must be null, a boolean, a number, a string or {\"$\": name}, got %s", r.mjShow(x))
}

// attrs reads a node's guards and callbacks.
func (r *mreader) attrs(obj mjv, path string) ([]Attr[Call], error) {
	var out []Attr[Call]
	for _, k := range [...]AttrKind{AttrWhile, AttrUntil, AttrEntry, AttrStep, AttrExit} {
		o := r.get(obj, k.String())
		if o < 0 {
			continue
		}
		ap := path + "." + k.String()
		if r.kind(o) != tokObject {
			return nil, derr(ap, "%s must be an object, got %s", k, r.mjKind(o))
		}
		guard := k == AttrWhile || k == AttrUntil
		if err := r.keys(o, func(f string, _ mjv) error {
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
		a := Attr[Call]{kind: k, v: c}
		if s := r.get(o, "succeedOnAbort"); s >= 0 {
			switch r.kind(s) {
			case tokTrue:
				a.succeed = true
			case tokFalse:
			default:
				return nil, derr(ap+".succeedOnAbort", "succeedOnAbort must be a boolean, got %s", r.mjShow(s))
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// mjInt returns x as an int if it is an integer in [0, 2^31-1].
func (r *mreader) mjInt(x mjv) (int, bool) {
	if r.kind(x) != tokNumber {
		return 0, false
	}
	n := r.raw(x)
	v, err := strconv.ParseInt(n, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(n, 64)
		if ferr != nil || f != math.Trunc(f) || f < 0 || f > maxRepeat {
			return 0, false
		}
		return int(f), true
	}
	if v < 0 || v > maxRepeat {
		return 0, false
	}
	return int(v), true
}

// mjKind names the JSON kind of a value.
func (r *mreader) mjKind(v mjv) string {
	switch r.kind(v) {
	case tokNull:
		return "null"
	case tokTrue, tokFalse:
		return "a boolean"
	case tokNumber:
		return "a number"
	case tokString:
		return "a string"
	case tokArray:
		return "an array"
	case tokNone:
		return "nothing"
	}
	return "an object"
}

// mjShow shows a scalar, at most 40 bytes of it, or its kind.
func (r *mreader) mjShow(v mjv) string {
	switch r.kind(v) {
	case tokNumber:
		return clip(r.raw(v))
	case tokString:
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
		x := decodeString(q, token{kind: tokString, start: 0, end: len(q)})
		if len(x) > 40 {
			x, cut = x[:40], true
		}
		if cut {
			x += "..."
		}
		return strconv.Quote(x)
	case tokTrue:
		return "true"
	case tokFalse:
		return "false"
	case tokNull, tokNone:
		return "null"
	}
	return r.mjKind(v)
}

// MarshalMistreevous writes def as a Mistreevous JSON definition: an array
// holding one root (def, or a root over def when def is not a [Root]).
// Shared subtrees are written out at every place (there are no branch
// nodes in the output). It fails for Elixir-only kinds, for arguments that
// are not nil, bool, finite float64, string or [Property], and for trees
// deeper than [MaxMistreevousDepth].
func MarshalMistreevous(def Node[Call]) ([]byte, error) {
	if def.n == nil {
		return nil, &DefinitionError{Msg: "cannot marshal the zero Node"}
	}
	if textNodes(def) > MaxMistreevousNodes {
		return nil, &DefinitionError{Msg: fmt.Sprintf("the tree has more than %d nodes", MaxMistreevousNodes)}
	}
	if err := noJSONForm(def.n); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteByte('[')
	nd := def.n
	if nd.kind != KindRoot {
		buf.WriteString(`{"type":"root","child":`)
		if err := writeMistreevous(&buf, nd, "[0].child", 2); err != nil {
			return nil, err
		}
		buf.WriteByte('}')
	} else if err := writeMistreevous(&buf, nd, "[0]", 1); err != nil {
		return nil, err
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// noJSONForm returns an error naming the first node, in preorder, of a
// kind that neither Mistreevous JSON nor the Elixir JSON form holds, with
// its place in the Mistreevous JSON; nil if there is none.
func noJSONForm(root *node[Call]) error {
	type frame struct {
		nd   *node[Call]
		next int
	}
	stack := []frame{{nd: root}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == 0 {
			if k := top.nd.kind; kinds[k].mistreevous == "" && !kinds[k].elixir {
				path := "[0]"
				if root.kind != KindRoot {
					path += ".child"
				}
				for _, f := range stack[:len(stack)-1] {
					if kinds[f.nd.kind].arity == oneChild {
						path += ".child"
					} else {
						path += ".children[" + strconv.Itoa(f.next-1) + "]"
					}
				}
				return derr(path, "%s nodes have no JSON form: neither Mistreevous JSON nor the Elixir JSON form holds them", k)
			}
		}
		if top.next == len(top.nd.children) {
			stack = stack[:len(stack)-1]
			continue
		}
		top.next++
		stack = append(stack, frame{nd: top.nd.children[top.next-1]})
	}
	return nil
}

// textNodes returns the number of nodes of def written in a text format:
// its size, plus the root it is written inside when it is not a Root.
func textNodes[L any](def Node[L]) int {
	if def.n.kind == KindRoot {
		return def.n.size
	}
	return def.n.size + 1
}

func writeMistreevous(buf *bytes.Buffer, nd *node[Call], path string, depth int) error {
	if depth > MaxMistreevousDepth {
		return derr(path, "the tree is deeper than %d nodes", MaxMistreevousDepth)
	}
	info := kinds[nd.kind]
	if info.mistreevous == "" {
		return derr(path, "%s nodes have no Mistreevous form (the Elixir JSON form that Node.MarshalJSON writes has them)", nd.kind)
	}
	if nd.kind == KindRoot && depth > 1 {
		return derr(path, "a root below the top")
	}
	buf.WriteString(`{"type":"`)
	buf.WriteString(info.mistreevous)
	buf.WriteByte('"')
	if info.carries {
		buf.WriteString(`,"call":`)
		if err := writeCall(buf, nd.leaf, path); err != nil {
			return err
		}
	}
	switch info.param {
	case paramLotto:
		if nd.weights != nil {
			buf.WriteString(`,"weights":[`)
			for i, w := range nd.weights {
				if i > 0 {
					buf.WriteByte(',')
				}
				buf.WriteString(strconv.Itoa(w))
			}
			buf.WriteByte(']')
		}
	case paramBound:
		field := map[Kind]string{KindRepeat: "iterations", KindRetry: "attempts", KindWait: "duration"}[nd.kind]
		switch nd.bound {
		case Fixed:
			fmt.Fprintf(buf, `,"%s":%d`, field, nd.min)
		case Ranged:
			fmt.Fprintf(buf, `,"%s":[%d,%d]`, field, nd.min, nd.max)
		}
	}
	if at := nd.attrs; at != nil {
		for k := AttrWhile; k < numAttrs; k++ {
			if !at.has[k] {
				continue
			}
			a := at.a[k]
			buf.WriteString(`,"` + k.String() + `":{"call":`)
			if err := writeCall(buf, a.v, path+"."+k.String()); err != nil {
				return err
			}
			if a.succeed {
				buf.WriteString(`,"succeedOnAbort":true`)
			}
			buf.WriteByte('}')
		}
	}
	switch info.arity {
	case oneChild:
		buf.WriteString(`,"child":`)
		if err := writeMistreevous(buf, nd.children[0], path+".child", depth+1); err != nil {
			return err
		}
	case someChildren:
		buf.WriteString(`,"children":[`)
		for i, c := range nd.children {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeMistreevous(buf, c, path+".children["+strconv.Itoa(i)+"]", depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	}
	buf.WriteByte('}')
	return nil
}

// writeCall writes a call's name, then its "args" if it has any.
func writeCall(buf *bytes.Buffer, c Call, path string) error {
	b, _ := json.Marshal(c.Name)
	buf.Write(b)
	if len(c.Args) == 0 {
		return nil
	}
	buf.WriteString(`,"args":[`)
	for i, a := range c.Args {
		if i > 0 {
			buf.WriteByte(',')
		}
		switch v := a.(type) {
		case nil:
			buf.WriteString("null")
		case bool:
			buf.WriteString(strconv.FormatBool(v))
		case float64:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return derr(path+".args["+strconv.Itoa(i)+"]", "number %v has no JSON form", v)
			}
			buf.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		case string:
			b, _ := json.Marshal(v)
			buf.Write(b)
		case Property:
			b, _ := json.Marshal(string(v))
			buf.WriteString(`{"$":`)
			buf.Write(b)
			buf.WriteByte('}')
		default:
			return derr(path+".args["+strconv.Itoa(i)+"]", "%v", checkArg(a))
		}
	}
	buf.WriteByte(']')
	return nil
}
