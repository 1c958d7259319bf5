package behaviortree

import (
	"fmt"
	"math"
	"strconv"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

// Args are the arguments of one call of a typed handler of [Functions]
// (TypedActions and the others), read by position from 0 with their types
// checked. A missing argument or one of the wrong type is an [*ArgError]
// naming the node, its place in the text when mdsl.Parse read the
// definition, and the argument, so that a handler can return it or log
// it instead of panicking on a type assertion. A [Property] argument
// ($name in MDSL) reads as its value, looked up when the call is made.
//
// An Args is valid during the call only: it reads the definition's own
// arguments, which a handler cannot change through it.
type Args struct {
	call Call         // as in the definition
	vals []any        // call.Args, with properties looked up (a copy then)
	ctx  *argsContext // the definition, to say where the call is
	b    *Blackboard
}

// argsContext is what every Args of one agent shares.
type argsContext struct {
	def Node[Call]
	f   *Functions
}

// Name returns the name of the function called.
func (a Args) Name() string { return a.call.Name }

// Len returns the number of arguments.
func (a Args) Len() int { return len(a.vals) }

// Blackboard returns the [Blackboard] of the step, through which the
// handler reads and writes the memory of the version being stepped.
func (a Args) Blackboard() *Blackboard { return a.b }

// Slice returns a copy of the arguments, as the plain handlers get them.
func (a Args) Slice() []any {
	if len(a.vals) == 0 {
		return nil
	}
	return append([]any(nil), a.vals...)
}

// Any returns argument i whatever its type: nil, a bool, a float64, a
// string, or what a [Property] looked up.
func (a Args) Any(i int) (any, error) {
	if i < 0 || i >= len(a.vals) {
		return nil, a.missing(i)
	}
	return a.vals[i], nil
}

// Int returns argument i as an int: a number with no fractional part that
// an int holds (MDSL and JSON numbers are float64s), or a Go integer that
// a Property looked up.
func (a Args) Int(i int) (int, error) {
	v, err := a.Any(i)
	if err != nil {
		return 0, err
	}
	switch n := v.(type) {
	case float64:
		if n == math.Trunc(n) && n >= math.MinInt && n < -float64(math.MinInt) {
			return int(n), nil
		}
	case float32:
		if f := float64(n); f == math.Trunc(f) && f >= math.MinInt && f < -float64(math.MinInt) {
			return int(f), nil
		}
	case int:
		return n, nil
	case int8:
		return int(n), nil
	case int16:
		return int(n), nil
	case int32:
		return int(n), nil
	case int64:
		if n >= math.MinInt && n <= math.MaxInt {
			return int(n), nil
		}
	case uint8:
		return int(n), nil
	case uint16:
		return int(n), nil
	case uint32:
		if uint64(n) <= math.MaxInt {
			return int(n), nil
		}
	case uint:
		if uint64(n) <= math.MaxInt {
			return int(n), nil
		}
	case uint64:
		if n <= math.MaxInt {
			return int(n), nil
		}
	}
	return 0, a.wrong(i, "an integer")
}

// Float returns argument i as a float64: a number, or a Go integer or
// float32 that a Property looked up.
func (a Args) Float(i int) (float64, error) {
	v, err := a.Any(i)
	if err != nil {
		return 0, err
	}
	switch n := v.(type) {
	case float64:
		return n, nil
	case float32:
		return float64(n), nil
	case int:
		return float64(n), nil
	case int8:
		return float64(n), nil
	case int16:
		return float64(n), nil
	case int32:
		return float64(n), nil
	case int64:
		return float64(n), nil
	case uint:
		return float64(n), nil
	case uint8:
		return float64(n), nil
	case uint16:
		return float64(n), nil
	case uint32:
		return float64(n), nil
	case uint64:
		return float64(n), nil
	}
	return 0, a.wrong(i, "a number")
}

// String returns argument i, which must be a string.
func (a Args) String(i int) (string, error) {
	v, err := a.Any(i)
	if err != nil {
		return "", err
	}
	if s, ok := v.(string); ok {
		return s, nil
	}
	return "", a.wrong(i, "a string")
}

// Bool returns argument i, which must be a bool.
func (a Args) Bool(i int) (bool, error) {
	v, err := a.Any(i)
	if err != nil {
		return false, err
	}
	if b, ok := v.(bool); ok {
		return b, nil
	}
	return false, a.wrong(i, "a bool")
}

// ArgError is the error of an [Args] accessor: an argument that is
// missing or of another type than the handler asked for.
type ArgError struct {
	File      string // the text the definition was read from, when known
	Line, Col int    // where the call is in it (its function's name); 0 when not known
	Node      int    // the node's preorder index; -1 when not known
	Role      string // "action", "condition", "while guard's condition", "entry callback", ...; "" when not known
	Func      string // the function's name
	Index     int    // the argument asked for, from 0
	Msg       string // what is wrong with it
}

// Error returns "FILE:LINE:COL: node N (ROLE FUNC): argument I MSG", with
// the parts that are not known left out.
func (e *ArgError) Error() string {
	var b []byte
	if e.Line > 0 {
		if e.File != "" {
			b = append(b, e.File...)
			b = append(b, ':')
		}
		b = fmt.Appendf(b, "%d:%d: ", e.Line, e.Col)
	}
	if e.Node >= 0 {
		b = fmt.Appendf(b, "node %d ", e.Node)
	}
	b = append(b, '(')
	if e.Role != "" {
		b = append(b, e.Role...)
		b = append(b, ' ')
	}
	b = append(b, e.Func...)
	b = fmt.Appendf(b, "): argument %d %s", e.Index, e.Msg)
	return string(b)
}

// missing is the error of argument i, which the call does not have.
func (a Args) missing(i int) error {
	msg := "is missing: the call has none"
	switch n := len(a.vals); {
	case i < 0:
		msg = "does not exist: arguments count from 0"
	case n == 1:
		msg = "is missing: the call has 1 argument"
	case n > 1:
		msg = fmt.Sprintf("is missing: the call has %d arguments", n)
	}
	return a.errorf(i, msg)
}

// wrong is the error of argument i, which is not of the type want names.
func (a Args) wrong(i int, want string) error {
	v := a.vals[i]
	var got string
	switch x := v.(type) {
	case nil:
		got = "null"
	case bool:
		got = "the bool " + strconv.FormatBool(x)
	case float64:
		got = "the number " + strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		got = "the string " + strconv.Quote(clipArg(x))
	default:
		got = fmt.Sprintf("a %T", v)
	}
	if p, ok := a.call.Args[i].(Property); ok {
		got = fmt.Sprintf("$%s, %s", p, got)
	}
	return a.errorf(i, fmt.Sprintf("is %s, not %s", got, want))
}

// clipArg shortens a long string argument for a message.
func clipArg(s string) string {
	if len(s) > 40 {
		return s[:37] + "..."
	}
	return s
}

// errorf makes the ArgError of argument i, placing the call: found in the
// definition by its arguments (a definition's call has its own), or by
// its name when it is the only call of that name.
func (a Args) errorf(i int, msg string) *ArgError {
	e := &ArgError{Node: -1, Func: a.call.Name, Index: i, Msg: msg}
	if a.ctx == nil {
		return e
	}
	def := a.ctx.def
	node, slot, role := -1, attr.Kind(0), ""
	byName := 0
	j := 0
	for c := range def.Preorder() {
		nd := c.n
		match := func(v Call, s attr.Kind, r string) {
			if v.Name != a.call.Name {
				return
			}
			if len(v.Args) > 0 && len(a.call.Args) > 0 && &v.Args[0] == &a.call.Args[0] {
				node, slot, role, byName = j, s, r, -1 // the very call
				return
			}
			if byName >= 0 && len(v.Args) == len(a.call.Args) {
				byName++
				if byName == 1 {
					node, slot, role = j, s, r
				}
			}
		}
		if nd.kind == kind.Leaf || nd.kind == kind.Condition {
			match(nd.leaf, 0, kinds[nd.kind].mistreevous)
		}
		if at := nd.attrs; at != nil {
			for k := attr.KindWhile; k < numAttrs; k++ {
				if at.has[k] {
					r := k.String() + " callback"
					if k == attr.KindWhile || k == attr.KindUntil {
						r = k.String() + " guard's condition"
					}
					match(at.a[k].Value, k, r)
				}
			}
		}
		if byName < 0 {
			break
		}
		j++
	}
	if byName > 1 {
		return e // several calls could be this one: say none
	}
	if node < 0 {
		return e
	}
	e.Node, e.Role = node, role
	e.File, e.Line, e.Col = textPlace(def, sitesOf(def), node, slot)
	return e
}
