package behaviortree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The JSON form of a definition is the one of the Elixir conformance corpus:
//
//   - a leaf is the JSON of its value;
//   - an inner node is {"type": T, "children": [...]}, where T is a Kind's
//     name (see [Kind.String]; "continually" is read as "repeat_until_fail"),
//     with "n" for repeat_n and "weights" for random_weighted.
//
// A JSON object with a "type" or a "children" key is always read as an inner
// node, so leaf types whose JSON is such an object are not supported.
// Custom nodes have no JSON form.

// DefinitionError reports a JSON definition that is not a valid tree. Path
// says where, as a chain of children indexes from the root
// ("children[1].children[0]"); it is empty for the root itself.
type DefinitionError struct {
	Path string
	Msg  string
	Err  error // the underlying error, if any (a leaf's decoding error)
}

// Error returns "behaviortree: PATH: MSG", or "behaviortree: MSG" at the root.
func (e *DefinitionError) Error() string {
	if e.Path == "" {
		return "behaviortree: " + e.Msg
	}
	return "behaviortree: " + e.Path + ": " + e.Msg
}

// Unwrap returns the underlying error.
func (e *DefinitionError) Unwrap() error { return e.Err }

// MarshalJSON returns n's definition in the JSON form described above. It
// fails for the zero Node, for custom nodes, and for leaves whose values do
// not marshal. It works for any depth.
func (n Node[L]) MarshalJSON() ([]byte, error) {
	if n.n == nil {
		return nil, fmt.Errorf("behaviortree: cannot marshal the zero Node")
	}
	var buf bytes.Buffer
	type item struct {
		nd   *node[L]
		next int // next child to write
	}
	var stack []item
	var path []int // children indexes down to the node being written
	// open writes a leaf whole, or an inner node's header and pushes it.
	open := func(nd *node[L]) error {
		switch nd.kind {
		case KindLeaf:
			b, err := json.Marshal(nd.leaf)
			if err != nil {
				return &DefinitionError{Path: formatPath(path), Msg: "leaf: " + err.Error(), Err: err}
			}
			buf.Write(b)
			return nil
		case KindCustom:
			return &DefinitionError{Path: formatPath(path), Msg: fmt.Sprintf("custom node %T has no JSON form", nd.custom)}
		}
		buf.WriteString(`{"type":"`)
		buf.WriteString(nd.kind.String())
		buf.WriteByte('"')
		switch kinds[nd.kind].param {
		case paramN:
			buf.WriteString(`,"n":`)
			buf.WriteString(strconv.Itoa(nd.n))
		case paramWeights:
			buf.WriteString(`,"weights":[`)
			for i, w := range nd.weights {
				if i > 0 {
					buf.WriteByte(',')
				}
				buf.WriteString(strconv.Itoa(w))
			}
			buf.WriteByte(']')
		}
		buf.WriteString(`,"children":[`)
		stack = append(stack, item{nd: nd})
		return nil
	}
	if err := open(n.n); err != nil {
		return nil, err
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(top.nd.children) {
			buf.WriteString("]}")
			stack = stack[:len(stack)-1]
			if len(path) > 0 { // every inner node but the root has one entry
				path = path[:len(path)-1]
			}
			continue
		}
		if top.next > 0 {
			buf.WriteByte(',')
		}
		child := top.nd.children[top.next]
		path = append(path, top.next)
		top.next++
		if err := open(child); err != nil {
			return nil, err
		}
		if child.kind == KindLeaf {
			path = path[:len(path)-1]
		}
	}
	return buf.Bytes(), nil
}

// UnmarshalJSON sets n to the definition in data. Bad input returns an error
// that says what was wrong and where, a *DefinitionError for a well-formed
// document that is not a valid tree. n is left unchanged on error.
func (n *Node[L]) UnmarshalJSON(data []byte) error {
	nd, err := ParseJSON[L](data)
	if err != nil {
		return err
	}
	*n = nd
	return nil
}

// ParseJSON returns the definition in data, in the JSON form described
// above. It is what [Node.UnmarshalJSON] does. encoding/json limits nesting
// to 10,000 levels, which is about 5,000 levels of inner nodes.
func ParseJSON[L any](data []byte) (Node[L], error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return Node[L]{}, fmt.Errorf("behaviortree: invalid JSON definition: %w", err)
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return Node[L]{}, fmt.Errorf("behaviortree: invalid JSON definition: data after the definition at byte %d", dec.InputOffset())
	}
	return fromJSONValue[L](v)
}

// jsonFrame is an inner node being read: its checked header, and the
// children built so far.
type jsonFrame[L any] struct {
	kind   Kind
	params Params
	kids   []any
	built  []Node[L]
	index  int // this node's index in its parent
}

// fromJSONValue builds a definition from a decoded JSON value, without
// recursion, checking it fully before any constructor sees it.
func fromJSONValue[L any](v any) (Node[L], error) {
	var stack []*jsonFrame[L]
	var result Node[L]
	// place returns the path of the child at index i of the top frame, or of
	// the root when the stack is empty.
	place := func(i int) string {
		if len(stack) == 0 {
			return ""
		}
		path := make([]int, 0, len(stack))
		for _, f := range stack[1:] {
			path = append(path, f.index)
		}
		return formatPath(append(path, i))
	}
	deliver := func(nd Node[L]) {
		if len(stack) == 0 {
			result = nd
			return
		}
		top := stack[len(stack)-1]
		top.built = append(top.built, nd)
	}
	// visit reads value v, the child at index i of the top frame.
	visit := func(v any, i int) error {
		obj, isObj := v.(map[string]any)
		if isObj {
			_, hasType := obj["type"]
			_, hasKids := obj["children"]
			isObj = hasType || hasKids
		}
		if !isObj {
			leaf, err := decodeLeaf[L](v)
			if err != nil {
				return &DefinitionError{Path: place(i), Msg: "leaf: " + err.Error(), Err: err}
			}
			deliver(Leaf(leaf))
			return nil
		}
		f, msg := readHeader[L](obj)
		if msg != "" {
			return &DefinitionError{Path: place(i), Msg: msg}
		}
		f.index = i
		stack = append(stack, f)
		return nil
	}
	if err := visit(v, 0); err != nil {
		return Node[L]{}, err
	}
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		if i := len(top.built); i < len(top.kids) {
			if err := visit(top.kids[i], i); err != nil {
				return Node[L]{}, err
			}
			continue
		}
		stack = stack[:len(stack)-1]
		deliver(build(top.kind, top.params, top.built))
	}
	return result, nil
}

// readHeader checks an inner node's object against its kind's entry in the
// table of kinds, and returns its frame, or a message saying what is wrong.
func readHeader[L any](obj map[string]any) (*jsonFrame[L], string) {
	rawType, ok := obj["type"]
	if !ok {
		return nil, `inner node needs a "type"`
	}
	name, ok := rawType.(string)
	if !ok {
		return nil, fmt.Sprintf("type must be a string, got %s", jsonKind(rawType))
	}
	kind, ok := kindByName[name]
	if !ok {
		return nil, fmt.Sprintf("unknown type %s", quoteInput(name))
	}
	info := kinds[kind]
	for key := range obj {
		switch {
		case key == "type" || key == "children":
		case key == "n" || key == "weights":
			if (key == "n") != (info.param == paramN) || (key == "weights") != (info.param == paramWeights) {
				return nil, fmt.Sprintf(`%s does not take %q`, name, key)
			}
		default:
			return nil, fmt.Sprintf("%s has an unknown field %s", name, quoteInput(key))
		}
	}
	rawKids, ok := obj["children"]
	if !ok {
		return nil, name + ` needs "children"`
	}
	kids, ok := rawKids.([]any)
	if !ok {
		return nil, fmt.Sprintf("%s: children must be an array, got %s", name, jsonKind(rawKids))
	}
	f := &jsonFrame[L]{kind: kind, kids: kids, built: make([]Node[L], 0, len(kids))}
	switch info.param {
	case paramN:
		raw, ok := obj["n"]
		if !ok {
			return nil, `repeat_n needs "n"`
		}
		n, ok := jsonInt(raw)
		if !ok {
			return nil, fmt.Sprintf("repeat_n needs an integer n, got %s", jsonText(raw))
		}
		f.params.N = clampInt(n)
	case paramWeights:
		raw, ok := obj["weights"]
		if !ok {
			return nil, `random_weighted needs "weights"`
		}
		ws, ok := raw.([]any)
		if !ok {
			return nil, fmt.Sprintf("random_weighted: weights must be an array, got %s", jsonKind(raw))
		}
		for i, w := range ws {
			x, ok := jsonInt(w)
			if !ok {
				return nil, fmt.Sprintf("random_weighted: weights[%d] must be an integer, got %s", i, jsonText(w))
			}
			f.params.Weights = append(f.params.Weights, clampInt(x))
		}
	}
	if err := kind.check(f.params, len(kids)); err != nil {
		return nil, err.Error()
	}
	return f, ""
}

// clampInt converts x to an int, saturating where int is narrower, so that
// a value out of range is reported as out of range by the kind's check.
func clampInt(x int64) int {
	if x > math.MaxInt {
		return math.MaxInt
	}
	if x < math.MinInt {
		return math.MinInt
	}
	return int(x)
}

// maxQuoted is how many bytes of the input an error message quotes at most.
const maxQuoted = 100

// quoteInput quotes s for an error message, cut to maxQuoted bytes.
func quoteInput(s string) string {
	if len(s) <= maxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:maxQuoted]) + fmt.Sprintf("... (%d bytes)", len(s))
}

// decodeLeaf turns a decoded JSON value into a leaf value.
func decodeLeaf[L any](v any) (L, error) {
	var leaf L
	if s, ok := v.(string); ok {
		if p, ok := any(&leaf).(*string); ok {
			*p = s
			return leaf, nil
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return leaf, err
	}
	err = json.Unmarshal(b, &leaf)
	return leaf, err
}

// jsonInt returns v as an int64 if it is a JSON integer.
func jsonInt(v any) (int64, bool) {
	num, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	x, err := strconv.ParseInt(string(num), 10, 64)
	return x, err == nil
}

// jsonKind names the JSON kind of a decoded value.
func jsonKind(v any) string {
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
	default:
		return "an object"
	}
}

// jsonText shows a decoded scalar as it was written, or names its kind.
func jsonText(v any) string {
	switch x := v.(type) {
	case json.Number:
		return string(x)
	case string:
		return strconv.Quote(x)
	}
	return jsonKind(v)
}

// formatPath formats a chain of children indexes.
func formatPath(path []int) string {
	var b strings.Builder
	for k, i := range path {
		if k > 0 {
			b.WriteByte('.')
		}
		fmt.Fprintf(&b, "children[%d]", i)
	}
	return b.String()
}
