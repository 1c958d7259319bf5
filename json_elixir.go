package behaviortree

import (
	"encoding"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/zipbt/behaviortree/internal/jsonscan"
	"github.com/zipbt/behaviortree/kind"
)

// DefinitionError reports a JSON definition that is not a valid tree, or
// not JSON. Path says where, as a chain of children indexes from the root
// ("children[1].children[0]"); it is empty for the root itself.
type DefinitionError struct {
	Path string
	Msg  string
	Err  error // the underlying error, if any (a leaf's decoding error)
}

// Error returns "behaviortree: PATH: MSG", or "behaviortree: MSG" at the
// root. A path of more than eight steps is shown by its first and last four.
func (e *DefinitionError) Error() string {
	if e.Path == "" {
		return "behaviortree: " + e.Msg
	}
	return "behaviortree: " + shortPath(e.Path) + ": " + e.Msg
}

// Unwrap returns the underlying error.
func (e *DefinitionError) Unwrap() error { return e.Err }

// MarshalJSON returns n's definition in the JSON form that [ParseJSON]
// reads. It fails, with a *[DefinitionError] saying where, for the zero
// Node, for kinds that have no JSON form (custom nodes), for leaves whose
// values do not marshal or marshal to null, and for definitions that would
// nest more than 10,000 levels of arrays and objects (5,000 levels of inner
// nodes with string leaves): the limit of ParseJSON, and of json.Marshal,
// which checks what MarshalJSON returns. So what MarshalJSON writes,
// ParseJSON, json.Marshal and json.Unmarshal all accept (json.Unmarshal
// also counts the levels of a document around the definition).
func (n Node[L]) MarshalJSON() ([]byte, error) {
	if n.n == nil {
		return nil, &DefinitionError{Msg: "cannot marshal the zero Node"}
	}
	var buf []byte
	type item struct {
		nd   *node[L]
		next int // next child to write
	}
	var stack []item
	var path []int // children indexes down to the node being written
	fail := func(msg string, err error) error {
		return &DefinitionError{Path: formatPath(path), Msg: msg, Err: err}
	}
	// open writes a leaf whole, or an inner node's header and pushes it.
	open := func(nd *node[L]) error {
		nesting := 2 * len(stack) // of the arrays and objects around nd
		if nd.kind == kind.Leaf {
			b, err := json.Marshal(nd.leaf)
			switch {
			case err != nil:
				return fail("leaf: "+clipMessage(err.Error()), err)
			case string(b) == "null":
				return fail(fmt.Sprintf("leaf: %T value marshals to null, which is not a node", nd.leaf), nil)
			case (b[0] == '{' || b[0] == '[') && nesting+jsonscan.Nesting(b) > jsonscan.MaxDepth:
				return fail(errTooDeep, nil)
			}
			buf = append(buf, b...)
			return nil
		}
		switch {
		case nd.kind == kind.Custom:
			return fail(fmt.Sprintf("custom node %T has no JSON form", nd.custom), nil)
		case !kinds[nd.kind].elixir:
			return fail(fmt.Sprintf("%s node has no JSON form", nd.kind), nil)
		case nesting+2 > jsonscan.MaxDepth:
			return fail(errTooDeep, nil)
		}
		buf = append(buf, `{"type":"`...)
		buf = append(buf, nd.kind.String()...)
		buf = append(buf, '"')
		switch kinds[nd.kind].param {
		case paramN:
			buf = append(buf, `,"n":`...)
			buf = strconv.AppendInt(buf, int64(nd.n), 10)
		case paramWeights:
			buf = append(buf, `,"weights":[`...)
			for i, w := range nd.weights {
				if i > 0 {
					buf = append(buf, ',')
				}
				buf = strconv.AppendInt(buf, int64(w), 10)
			}
			buf = append(buf, ']')
		}
		buf = append(buf, `,"children":[`...)
		stack = append(stack, item{nd: nd})
		return nil
	}
	if err := open(n.n); err != nil {
		return nil, err
	}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == len(top.nd.children) {
			buf = append(buf, "]}"...)
			stack = stack[:len(stack)-1]
			if len(path) > 0 { // every inner node but the root has one entry
				path = path[:len(path)-1]
			}
			continue
		}
		if top.next > 0 {
			buf = append(buf, ',')
		}
		child := top.nd.children[top.next]
		path = append(path, top.next)
		top.next++
		if err := open(child); err != nil {
			return nil, err
		}
		if child.kind == kind.Leaf {
			path = path[:len(path)-1]
		}
	}
	return buf, nil
}

// errTooDeep is the message of a definition nested past jsonscan.MaxDepth.
var errTooDeep = fmt.Sprintf("the JSON form would nest more than %d levels of arrays and objects", jsonscan.MaxDepth)

// UnmarshalJSON sets n to the definition in data, as [ParseJSON] reads it.
// n is left unchanged on error. Through json.Unmarshal, encoding/json
// checks the syntax of the whole document first, so a syntax error is
// encoding/json's *json.SyntaxError, and its nesting limit of 10,000
// levels counts the levels around the definition too.
func (n *Node[L]) UnmarshalJSON(data []byte) error {
	nd, err := ParseJSON[L](data)
	if err != nil {
		return err
	}
	*n = nd
	return nil
}

// ParseJSON returns the definition in data, in the JSON form of the Elixir
// conformance corpus, which [Node.MarshalJSON] writes:
//
//   - a leaf is the JSON of its value, which must not be null;
//   - an inner node is an object {"type": T, "children": [C, ...]}, where T
//     is its kind's name ([kind.Kind.String]; "continually" is read as
//     "repeat_until_fail") and each C is a node, with "n": N for repeat_n
//     and "weights": [W, ...] (one weight per child) for random_weighted.
//     Its keys may come in any order, each once, and no other key.
//
// An object with a "type" or a "children" key is always read as an inner
// node, so leaf types whose JSON is such an object are not supported.
// Kinds outside the Elixir form, such as custom nodes, have no JSON form:
// their names are unknown types.
//
// Leaves of type string, or of another type whose kind is string and which
// has no UnmarshalJSON or UnmarshalText method, are decoded directly (as
// encoding/json would: invalid UTF-8 becomes U+FFFD); other leaves are
// decoded by json.Unmarshal of their bytes. The document may nest at most
// 10,000 levels of arrays and objects, leaf values and weights included:
// encoding/json's limit, and that of MarshalJSON. With string leaves, that
// is 5,000 levels of inner nodes. Any width is fine. White space may
// follow the definition, nothing else.
//
// Every error is a *[DefinitionError], with the path of the node where the
// problem is; a syntax error gives its byte offset, counting from 0.
// ParseJSON reads the input once, from the start, and reports the first
// problem it finds: an inner node's header is checked when its "children"
// start, if its "type" came before them, and again, whole, at its closing
// brace (a missing key, a count out of range or the wrong number of
// children), after its children. Messages quote at most about 100 bytes of
// the input.
func ParseJSON[L any](data []byte) (Node[L], error) {
	p := parser[L]{s: jsonscan.Scanner{Data: data}, leaf: leafDecoderOf[L]()}
	return p.parse()
}

// leafDecoder is how ParseJSON decodes leaves of one type.
type leafDecoder uint8

const (
	leafUnmarshal leafDecoder = iota // json.Unmarshal of the leaf's bytes
	leafString                       // L's kind is string, with no decoding methods
)

// leafDecoderOf returns the decoder for leaves of type L.
func leafDecoderOf[L any]() leafDecoder {
	var leaf L
	_, isJSON := any(&leaf).(json.Unmarshaler)
	_, isText := any(&leaf).(encoding.TextUnmarshaler)
	if !isJSON && !isText && reflect.TypeFor[L]().Kind() == reflect.String {
		return leafString
	}
	return leafUnmarshal
}

// parser reads a definition from a JSON document, without recursion: each
// object at a node's place is a frame on a stack until its '}', and the
// nodes read so far wait in built for their parent.
type parser[L any] struct {
	s      jsonscan.Scanner
	leaf   leafDecoder
	frames []jsonFrame // the objects being read, the root's first
	built  []Node[L]   // the children read so far; frame f's are built[f.base:]
	root   Node[L]
}

// jsonFrame is an object being read at a node's place.
type jsonFrame struct {
	start   int // the offset of its '{'
	index   int // its index among its parent's children
	base    int // where its children start in parser.built
	reading bool
	header
}

// header is what an object's keys say, as tokens of the input, until the
// object is read whole. A jsonscan.Token of kind jsonscan.None is a key not seen.
type header struct {
	inner    bool           // it has "type" or "children": an inner node, not a leaf
	typ      jsonscan.Token // the value of "type"
	n        jsonscan.Token // the value of "n"
	weights  jsonscan.Token // the start of the value of "weights"
	children jsonscan.Token // the start of the value of "children"
	unknown  jsonscan.Token // the first other key
	dup      string         // the first of "n" and "weights" seen twice
	kind     kind.Kind      // the kind "type" names, once known
	known    bool
	params   kind.Params // the parameters, once read
	// haveParams is set once params are read: when the object is read
	// whole, or when the keys before "children" hold them.
	haveParams bool
}

// hasParam reports whether the keys read so far hold kind's parameter, if
// it takes one.
func (h *header) hasParam(nodeKind kind.Kind) bool {
	switch kinds[nodeKind].param {
	case paramN:
		return h.n.Kind != jsonscan.None
	case paramWeights:
		return h.weights.Kind != jsonscan.None
	}
	return true
}

// parse reads the whole document.
func (p *parser[L]) parse() (Node[L], error) {
	t, err := p.s.Next()
	if err == nil {
		err = p.startNode(t, 0)
	}
	for err == nil && len(p.frames) > 0 {
		err = p.step()
	}
	if err == nil {
		_, err = p.s.Next() // the end of the input
	}
	if err != nil {
		if se, ok := err.(*jsonscan.SyntaxError); ok {
			err = p.frameError(se.Error(), nil)
		}
		return Node[L]{}, err
	}
	return p.root, nil
}

// step reads the next jsonscan.Token of the innermost object.
func (p *parser[L]) step() error {
	f := &p.frames[len(p.frames)-1]
	t, err := p.s.Next()
	switch {
	case err != nil:
		return err
	case f.reading && t.Kind == jsonscan.ArrayEnd:
		f.reading = false
		return nil
	case f.reading:
		return p.startNode(t, len(p.built)-f.base)
	case t.Kind == jsonscan.ObjectEnd:
		return p.endObject(t.End)
	}
	return p.readKey(f, t)
}

// startNode reads the node that jsonscan.Token t begins, child i of the innermost
// object (or the root): a leaf whole, or an object's '{'.
func (p *parser[L]) startNode(t jsonscan.Token, i int) error {
	switch {
	case t.Kind == jsonscan.Object:
		p.frames = append(p.frames, jsonFrame{start: t.Start, index: i, base: len(p.built)})
		return nil
	case t.Kind == jsonscan.Null:
		return &DefinitionError{Path: p.childPath(i), Msg: "null is not a node"}
	case t.Kind == jsonscan.String && p.leaf == leafString:
		var leaf L
		*(*string)(unsafe.Pointer(&leaf)) = jsonscan.DecodeString(p.s.Data, t) // L's underlying type is string
		p.deliver(Leaf(leaf))
		return nil
	}
	end, err := p.s.Skip(t)
	if err != nil {
		return err
	}
	return p.readLeaf(i, t.Start, end)
}

// readLeaf decodes data[start:end], child i of the innermost object (or the
// root), as a leaf value.
func (p *parser[L]) readLeaf(i, start, end int) error {
	var leaf L
	if err := json.Unmarshal(p.s.Data[start:end], &leaf); err != nil {
		return &DefinitionError{Path: p.childPath(i), Msg: "leaf: " + clipMessage(err.Error()), Err: err}
	}
	p.deliver(Leaf(leaf))
	return nil
}

// deliver hands a node read whole to its parent, or makes it the root.
func (p *parser[L]) deliver(nd Node[L]) {
	if len(p.frames) == 0 {
		p.root = nd
		return
	}
	p.built = append(p.built, nd)
}

// readKey reads key t of object f and its value, except for the elements
// of "children", which are nodes that step reads next.
func (p *parser[L]) readKey(f *jsonFrame, t jsonscan.Token) error {
	key := jsonKey(p.s.Data, t)
	v, err := p.s.Next()
	if err != nil {
		return err
	}
	h := &f.header
	switch key {
	case "type", "children":
		seen := &h.typ
		if key == "children" {
			seen = &h.children
		}
		if seen.Kind != jsonscan.None {
			return p.frameError(fmt.Sprintf("duplicate key %q", key), nil)
		}
		h.inner = true
		*seen = v
		if key == "children" && v.Kind == jsonscan.Array {
			if h.typ.Kind != jsonscan.None { // report what the keys so far say first
				if _, _, msg := p.readHeader(h, false, 0); msg != "" {
					return p.frameError(msg, nil)
				}
			}
			f.reading = true
			return nil
		}
	case "n", "weights":
		seen := &h.n
		if key == "weights" {
			seen = &h.weights
		}
		if seen.Kind != jsonscan.None && h.dup == "" {
			h.dup = key
		}
		*seen = v
	default:
		if h.unknown.Kind == jsonscan.None {
			h.unknown = t
		}
	}
	_, err = p.s.Skip(v)
	return err
}

// endObject reads the '}' of the innermost object, which ends at end: it
// is a leaf's value, or an inner node with all its children read.
func (p *parser[L]) endObject(end int) error {
	f := &p.frames[len(p.frames)-1]
	if !f.inner {
		i, start := f.index, f.start
		p.frames = p.frames[:len(p.frames)-1]
		return p.readLeaf(i, start, end)
	}
	nodeKind, params, msg := p.readHeader(&f.header, true, len(p.built)-f.base)
	if msg != "" {
		return p.frameError(msg, nil)
	}
	nd := build(nodeKind, params, p.built[f.base:])
	if nd.n == nil {
		return p.frameError(errTooBig.Error(), nil)
	}
	clear(p.built[f.base:])
	p.built = p.built[:f.base]
	p.frames = p.frames[:len(p.frames)-1]
	p.deliver(nd)
	return nil
}

// readHeader checks an inner node's header against its kind's entry in the
// table of kinds, and returns its kind and params, or a message saying what
// is wrong. Until the object is read whole (final false), it checks only
// what the keys read so far say; then it checks the node whole, with its
// number of children.
func (p *parser[L]) readHeader(h *header, final bool, children int) (kind.Kind, kind.Params, string) {
	nodeKind, msg := p.headerKind(h)
	if msg == "" {
		msg = p.headerFields(h, kinds[nodeKind].param)
	}
	if msg == "" && final {
		msg = p.headerChildren(h)
	}
	if msg == "" && !h.haveParams {
		h.params, msg = p.headerParams(h, nodeKind, final)
		h.haveParams = msg == "" && (final || h.hasParam(nodeKind))
	}
	if msg == "" && final {
		if err := checkKind(nodeKind, h.params, children); err != nil {
			msg = err.Error()
		}
	}
	return nodeKind, h.params, msg
}

// headerKind returns the kind that "type" names.
func (p *parser[L]) headerKind(h *header) (kind.Kind, string) {
	if h.known {
		return h.kind, ""
	}
	switch h.typ.Kind {
	case jsonscan.None:
		return 0, `inner node needs a "type"`
	case jsonscan.String:
	default:
		return 0, "type must be a string, got " + h.typ.Kind.Noun()
	}
	if h.typ.Simple { // no escape to resolve: look it up without a copy
		if nodeKind, ok := kindByName[string(p.s.Data[h.typ.Start+1:h.typ.End-1])]; ok {
			h.kind, h.known = nodeKind, true
			return nodeKind, ""
		}
	}
	name := jsonscan.DecodeString(p.s.Data, h.typ)
	nodeKind, ok := kindByName[name]
	if !ok {
		return 0, "unknown type " + quoteInput(name)
	}
	h.kind, h.known = nodeKind, true
	return nodeKind, ""
}

// typeName returns the type as written, for messages.
func (p *parser[L]) typeName(h *header) string { return jsonscan.DecodeString(p.s.Data, h.typ) }

// headerFields checks that the object has no key its kind does not take,
// and no key twice.
func (p *parser[L]) headerFields(h *header, param param) string {
	switch {
	case h.unknown.Kind != jsonscan.None:
		return p.typeName(h) + " has an unknown field " + quoteInput(jsonscan.DecodeString(p.s.Data, h.unknown))
	case h.n.Kind != jsonscan.None && param != paramN:
		return p.typeName(h) + ` does not take "n"`
	case h.weights.Kind != jsonscan.None && param != paramWeights:
		return p.typeName(h) + ` does not take "weights"`
	case h.dup != "":
		return fmt.Sprintf("duplicate key %q", h.dup)
	}
	return ""
}

// headerChildren checks that the object has an array of children.
func (p *parser[L]) headerChildren(h *header) string {
	switch h.children.Kind {
	case jsonscan.None:
		return p.typeName(h) + ` needs "children"`
	case jsonscan.Array:
		return ""
	}
	return p.typeName(h) + ": children must be an array, got " + h.children.Kind.Noun()
}

// headerParams reads the parameter that kind takes, if any: "n" or
// "weights". Until the object is read whole (final false), a missing one
// is no error.
func (p *parser[L]) headerParams(h *header, nodeKind kind.Kind, final bool) (kind.Params, string) {
	var params kind.Params
	name := nodeKind.String()
	switch kinds[nodeKind].param {
	case paramN:
		if h.n.Kind == jsonscan.None {
			if final {
				return params, name + ` needs "n"`
			}
			return params, ""
		}
		n, ok := p.jsonInt(h.n)
		if !ok {
			return params, name + " needs an integer n, got " + p.jsonText(h.n)
		}
		params.N = clampInt(n)
	case paramWeights:
		switch h.weights.Kind {
		case jsonscan.None:
			if final {
				return params, name + ` needs "weights"`
			}
			return params, ""
		case jsonscan.Array:
		default:
			return params, name + ": weights must be an array, got " + h.weights.Kind.Noun()
		}
		// The array is valid JSON: read it again, from its '['.
		s := jsonscan.Scanner{Data: p.s.Data, Pos: h.weights.Start}
		s.Next()
		for i := 0; ; i++ {
			t, _ := s.Next()
			if t.Kind == jsonscan.ArrayEnd {
				break
			}
			w, ok := p.jsonInt(t)
			if !ok {
				return params, fmt.Sprintf("%s: weights[%d] must be an integer, got %s", name, i, p.jsonText(t))
			}
			params.Weights = append(params.Weights, clampInt(w))
		}
	}
	return params, ""
}

// jsonInt returns jsonscan.Token t as an int64 if it is a JSON integer.
func (p *parser[L]) jsonInt(t jsonscan.Token) (int64, bool) {
	if t.Kind != jsonscan.Number {
		return 0, false
	}
	x, err := strconv.ParseInt(string(p.s.Data[t.Start:t.End]), 10, 64)
	return x, err == nil
}

// jsonText shows the value that jsonscan.Token t begins: a scalar as written (cut to
// about maxQuoted bytes), or its kind.
func (p *parser[L]) jsonText(t jsonscan.Token) string {
	switch t.Kind {
	case jsonscan.Number:
		return clipMessage(string(p.s.Data[t.Start:t.End]))
	case jsonscan.String:
		return quoteInput(jsonscan.DecodeString(p.s.Data, t))
	}
	return t.Kind.Noun()
}

// jsonKey returns the text of the key jsonscan.Token t of data, without a copy for
// the keys of inner nodes.
func jsonKey(data []byte, t jsonscan.Token) string {
	if t.Simple {
		switch raw := data[t.Start+1 : t.End-1]; string(raw) {
		case "type":
			return "type"
		case "children":
			return "children"
		case "n":
			return "n"
		case "weights":
			return "weights"
		}
	}
	return jsonscan.DecodeString(data, t)
}

// childPath returns the path of child i of the innermost object, or of the
// root when no object is open.
func (p *parser[L]) childPath(i int) string {
	if len(p.frames) == 0 {
		return ""
	}
	return formatPath(append(p.framePath(), i))
}

// framePath returns the children indexes down to the innermost object.
func (p *parser[L]) framePath() []int {
	if len(p.frames) == 0 {
		return nil
	}
	path := make([]int, 0, len(p.frames))
	for _, f := range p.frames[1:] {
		path = append(path, f.index)
	}
	return path
}

// frameError returns the error msg at the innermost object (or the root).
func (p *parser[L]) frameError(msg string, err error) error {
	return &DefinitionError{Path: formatPath(p.framePath()), Msg: msg, Err: err}
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

// formatPath formats a chain of children indexes.
func formatPath(path []int) string {
	var b strings.Builder
	for k, i := range path {
		if k > 0 {
			b.WriteByte('.')
		}
		b.WriteString("children[")
		b.WriteString(strconv.Itoa(i))
		b.WriteByte(']')
	}
	return b.String()
}

// shortPath shows a path of more than eight steps by its first and last
// four, and how many are left out.
func shortPath(path string) string {
	const keep = 4
	steps := strings.Count(path, ".") + 1
	if steps <= 2*keep {
		return path
	}
	head, tail := 0, len(path)
	for k := 0; k < keep; k++ {
		head += strings.IndexByte(path[head:], '.') + 1
		tail = strings.LastIndexByte(path[:tail], '.')
	}
	return fmt.Sprintf("%s...(%d more)...%s", path[:head-1], steps-2*keep, path[tail+1:])
}
