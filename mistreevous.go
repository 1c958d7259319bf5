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
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var top any
	if err := dec.Decode(&top); err != nil {
		return Node[Call]{}, &DefinitionError{Msg: "invalid JSON: " + err.Error(), Err: err}
	}
	if dec.More() {
		return Node[Call]{}, &DefinitionError{Msg: "invalid JSON: data after the definition"}
	}
	var roots []any
	switch v := top.(type) {
	case []any:
		roots = v
	case map[string]any:
		roots = []any{v}
	default:
		return Node[Call]{}, &DefinitionError{Msg: "a definition must be an array of root nodes, got " + mjKind(top)}
	}
	r := &mreader{named: map[string]int{}, built: map[string]built{}, state: map[string]uint8{}}
	main := -1
	for i, v := range roots {
		path := "[" + strconv.Itoa(i) + "]"
		obj, ok := v.(map[string]any)
		if !ok {
			return Node[Call]{}, &DefinitionError{Path: path, Msg: "a root definition must be an object, got " + mjKind(v)}
		}
		if t, _ := obj["type"].(string); t != "root" {
			return Node[Call]{}, &DefinitionError{Path: path, Msg: fmt.Sprintf("a top-level node must have type \"root\", got %s", mjShow(obj["type"]))}
		}
		id, has := obj["id"]
		if !has {
			if main >= 0 {
				return Node[Call]{}, &DefinitionError{Path: path, Msg: fmt.Sprintf("a second main root (without id); the first is [%d]", main)}
			}
			main = i
			continue
		}
		name, ok := id.(string)
		if !ok || name == "" || len(name) > MaxStringBytes || !utf8.ValidString(name) {
			return Node[Call]{}, &DefinitionError{Path: path + ".id", Msg: fmt.Sprintf("id must be a non-empty string of at most %d bytes, got %s", MaxStringBytes, mjShow(id))}
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
	// Named roots that no branch reaches are checked too.
	for name, i := range r.named {
		if _, done := r.built[name]; done {
			continue
		}
		if _, err := r.branch(name, "["+strconv.Itoa(i)+"]", 1); err != nil {
			return Node[Call]{}, err
		}
	}
	return b.n, nil
}

// mreader reads one definition.
type mreader struct {
	roots []any
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
	obj := r.roots[i].(map[string]any)
	for k := range obj {
		switch k {
		case "type", "id", "child", "while", "until", "entry", "step", "exit":
		default:
			return built{}, derr(rp, "root has no field %q", k)
		}
	}
	// The named root's attributes are ignored, but must be well-formed.
	if _, err := r.attrs(obj, rp); err != nil {
		return built{}, err
	}
	c, ok := obj["child"]
	if !ok {
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
func (r *mreader) node(v any, path string, depth int) (built, error) {
	if depth > MaxMistreevousDepth {
		return built{}, derr(path, "the tree is deeper than %d nodes", MaxMistreevousDepth)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return built{}, derr(path, "a node must be an object, got %s", mjKind(v))
	}
	raw, ok := obj["type"]
	if !ok {
		return built{}, derr(path, "a node needs a type")
	}
	typ, ok := raw.(string)
	fields, known := mjFields[typ]
	if !ok || !known {
		return built{}, derr(path, "unknown node type %s", mjShow(raw))
	}
	for k := range obj {
		if k == "type" {
			continue
		}
		switch k {
		case "while", "until", "entry", "step", "exit":
			if typ != "branch" {
				continue
			}
			return built{}, derr(path, "branch cannot have attributes (%s)", k)
		}
		found := false
		for _, f := range fields {
			found = found || f == k
		}
		if !found {
			return built{}, derr(path, "%s has no field %q", typ, k)
		}
	}
	if typ == "branch" {
		ref, ok := obj["ref"].(string)
		if !ok {
			return built{}, derr(path, "branch needs a ref string, got %s", mjShow(obj["ref"]))
		}
		return r.branch(ref, path, depth)
	}
	if typ == "root" {
		if depth > 1 {
			return built{}, derr(path, "a root can only be at the top")
		}
		if _, has := obj["id"]; has {
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
			c, err := r.call(obj, path)
			if err != nil {
				return built{}, err
			}
			if kind == KindLeaf {
				n = Leaf(c)
			} else {
				n = Condition(c)
			}
		default: // wait
			if err := r.bound(obj, "duration", path, &p); err != nil {
				return built{}, err
			}
		}
	case oneChild:
		c, ok := obj["child"]
		if !ok {
			return built{}, derr(path, "%s needs a child", typ)
		}
		b, err := r.node(c, path+".child", depth+1)
		if err != nil {
			return built{}, err
		}
		children, height = []Node[Call]{b.n}, b.height
		switch typ {
		case "repeat":
			err = r.bound(obj, "iterations", path, &p)
		case "retry":
			err = r.bound(obj, "attempts", path, &p)
		}
		if err != nil {
			return built{}, err
		}
	default:
		raw, ok := obj["children"]
		if !ok {
			return built{}, derr(path, "%s needs children", typ)
		}
		list, ok := raw.([]any)
		if !ok {
			return built{}, derr(path+".children", "children must be an array, got %s", mjKind(raw))
		}
		if len(list) == 0 {
			return built{}, derr(path+".children", "%s needs at least one child", typ)
		}
		size := 1
		for i, c := range list {
			b, err := r.node(c, path+".children["+strconv.Itoa(i)+"]", depth+1)
			if err != nil {
				return built{}, err
			}
			children = append(children, b.n)
			height = max(height, b.height)
			size += b.n.Size()
			if size > MaxMistreevousNodes {
				return built{}, derr(path, "the tree has more than %d nodes once branches are expanded", MaxMistreevousNodes)
			}
		}
		if w, ok := obj["weights"]; ok {
			list, ok := w.([]any)
			if !ok {
				return built{}, derr(path+".weights", "weights must be an array, got %s", mjKind(w))
			}
			p.Weights = make([]int, len(list))
			for i, x := range list {
				v, ok := mjInt(x)
				if !ok {
					return built{}, derr(path+".weights["+strconv.Itoa(i)+"]", "a weight must be an integer >= 0, got %s", mjShow(x))
				}
				p.Weights[i] = v
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
			var de *DefinitionError
			_ = de
			return built{}, &DefinitionError{Path: path, Msg: trimBuild(err), Err: err}
		}
	}
	at, err := r.attrs(obj, path)
	if err != nil {
		return built{}, err
	}
	if len(at) > 0 {
		n = n.With(at...)
	}
	return built{n: n, height: height + 1}, nil
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
func (r *mreader) bound(obj map[string]any, field, path string, p *Params) error {
	raw, ok := obj[field]
	if !ok {
		return nil
	}
	if v, ok := mjInt(raw); ok {
		p.Bound, p.Min, p.Max = Fixed, v, v
		return nil
	}
	if list, ok := raw.([]any); ok && len(list) == 2 {
		a, ok1 := mjInt(list[0])
		b, ok2 := mjInt(list[1])
		if ok1 && ok2 {
			if a > b {
				return derr(path+"."+field, "%s minimum %d is more than maximum %d", field, a, b)
			}
			p.Bound, p.Min, p.Max = Ranged, a, b
			return nil
		}
	}
	return derr(path+"."+field, "%s must be an integer from 0 to %d or [min, max], got %s", field, maxRepeat, mjShow(raw))
}

// call reads an action's or condition's call and args.
func (r *mreader) call(obj map[string]any, path string) (Call, error) {
	raw, ok := obj["call"]
	if !ok {
		return Call{}, derr(path, "needs a call")
	}
	name, ok := raw.(string)
	if !ok || name == "" || len(name) > MaxStringBytes || !utf8.ValidString(name) {
		return Call{}, derr(path+".call", "call must be a non-empty string of at most %d bytes, got %s", MaxStringBytes, mjShow(raw))
	}
	c := Call{Name: name}
	if a, ok := obj["args"]; ok {
		list, ok := a.([]any)
		if !ok {
			return Call{}, derr(path+".args", "args must be an array, got %s", mjKind(a))
		}
		if len(list) > MaxArgs {
			return Call{}, derr(path+".args", "more than %d arguments", MaxArgs)
		}
		if len(list) > 0 {
			c.Args = make([]any, len(list))
		}
		for i, x := range list {
			v, err := mjArg(x)
			if err != nil {
				return Call{}, derr(path+".args["+strconv.Itoa(i)+"]", "%v", err)
			}
			c.Args[i] = v
		}
	}
	return c, nil
}

// mjArg converts one decoded argument.
func mjArg(x any) (any, error) {
	switch v := x.(type) {
	case nil, bool:
		return v, nil
	case string:
		if len(v) > MaxStringBytes {
			return nil, fmt.Errorf("a string argument is longer than %d bytes", MaxStringBytes)
		}
		return v, nil
	case json.Number:
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, fmt.Errorf("number %s is out of range", v)
		}
		return f, nil
	case map[string]any:
		if p, ok := v["$"].(string); ok && len(v) == 1 && p != "" && len(p) <= MaxStringBytes {
			return Property(p), nil
		}
	}
	return nil, fmt.Errorf("an argument must be null, a boolean, a number, a string or {\"$\": name}, got %s", mjShow(x))
}

// attrs reads a node's guards and callbacks.
func (r *mreader) attrs(obj map[string]any, path string) ([]Attr[Call], error) {
	var out []Attr[Call]
	for _, k := range [...]AttrKind{AttrWhile, AttrUntil, AttrEntry, AttrStep, AttrExit} {
		raw, ok := obj[k.String()]
		if !ok {
			continue
		}
		ap := path + "." + k.String()
		o, ok := raw.(map[string]any)
		if !ok {
			return nil, derr(ap, "%s must be an object, got %s", k, mjKind(raw))
		}
		guard := k == AttrWhile || k == AttrUntil
		for f := range o {
			if f != "call" && f != "args" && !(guard && f == "succeedOnAbort") {
				return nil, derr(ap, "%s has no field %q", k, f)
			}
		}
		c, err := r.call(o, ap)
		if err != nil {
			return nil, err
		}
		a := Attr[Call]{kind: k, v: c}
		if s, ok := o["succeedOnAbort"]; ok {
			b, ok := s.(bool)
			if !ok {
				return nil, derr(ap+".succeedOnAbort", "succeedOnAbort must be a boolean, got %s", mjShow(s))
			}
			a.succeed = b
		}
		out = append(out, a)
	}
	return out, nil
}

// mjInt returns x as an int if it is an integer in [0, 2^31-1].
func mjInt(x any) (int, bool) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(string(n), 64)
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

// mjKind names the JSON kind of a decoded value.
func mjKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	}
	return "an object"
}

// mjShow shows a decoded scalar, or its kind.
func mjShow(v any) string {
	switch x := v.(type) {
	case json.Number:
		return string(x)
	case string:
		if len(x) > 40 {
			x = x[:40] + "..."
		}
		return strconv.Quote(x)
	case bool:
		return strconv.FormatBool(x)
	case nil:
		return "null"
	}
	return mjKind(v)
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
