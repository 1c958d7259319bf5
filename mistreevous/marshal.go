package mistreevous

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
)

// This file writes Mistreevous JSON definitions.

// Format writes def as a Mistreevous JSON definition (the verb of
// mdsl.Format, as Parse is mdsl.Parse's): an array holding
// one root (def, or a root over def when def is not a [bt.Root]). Shared
// subtrees are written out at every place (there are no branch nodes in
// the output). It fails for Elixir-only kinds, for arguments that are not
// nil, bool, finite float64, string or [bt.Property], and for trees
// deeper than [MaxDepth] or of more than [MaxNodes] nodes. Errors are
// of type [*bt.DefinitionError], naming the place.
func Format(def bt.Node[bt.Call]) ([]byte, error) {
	if def.IsZero() {
		return nil, &bt.DefinitionError{Msg: "cannot marshal the zero Node"}
	}
	if textNodes(def) > MaxNodes {
		return nil, &bt.DefinitionError{Msg: fmt.Sprintf("the tree has more than %d nodes", MaxNodes)}
	}
	if err := noJSONForm(def); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.WriteByte('[')
	if def.Kind() != kind.Root {
		buf.WriteString(`{"type":"root","child":`)
		if err := write(&buf, def, "[0].child", 2); err != nil {
			return nil, err
		}
		buf.WriteByte('}')
	} else if err := write(&buf, def, "[0]", 1); err != nil {
		return nil, err
	}
	buf.WriteByte(']')
	return buf.Bytes(), nil
}

// textNodes returns the number of nodes of def written in a text format,
// which [MaxNodes] bounds: its size, plus the root it is written inside
// when it is not a [bt.Root].
func textNodes[L any](def bt.Node[L]) int {
	if def.Kind() == kind.Root {
		return def.Size()
	}
	return def.Size() + 1
}

// noJSONForm returns an error naming the first node, in preorder, of a
// kind that neither Mistreevous JSON nor the Elixir JSON form holds, with
// its place in the Mistreevous JSON; nil if there is none.
func noJSONForm(root bt.Node[bt.Call]) error {
	type frame struct {
		n    bt.Node[bt.Call]
		next int
	}
	stack := []frame{{n: root}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if top.next == 0 {
			if k := top.n.Kind(); k.Mistreevous() == "" && !elixirForm[k] {
				path := "[0]"
				if root.Kind() != kind.Root {
					path += ".child"
				}
				for _, f := range stack[:len(stack)-1] {
					if f.n.Kind().Arity() == kind.OneChild {
						path += ".child"
					} else {
						path += ".children[" + strconv.Itoa(f.next-1) + "]"
					}
				}
				return derr(path, "%s nodes have no JSON form: neither Mistreevous JSON nor the Elixir JSON form holds them", k)
			}
		}
		if top.next == top.n.Len() {
			stack = stack[:len(stack)-1]
			continue
		}
		top.next++
		stack = append(stack, frame{n: top.n.Child(top.next - 1)})
	}
	return nil
}

// elixirForm says which kinds have an Elixir JSON form: those of which
// [bt.Node.MarshalJSON] writes a node.
var elixirForm = func() (ok [256]bool) {
	p := kind.Params{N: 2, Weights: []int{1}, Success: 1, Failure: 1}
	for k := range 256 {
		if kind.Kind(k) == kind.Leaf {
			ok[k] = true
			continue
		}
		if n, err := bt.Build(kind.Kind(k), p, bt.Leaf("")); err == nil {
			_, err = n.MarshalJSON()
			ok[k] = err == nil
		}
	}
	return ok
}()

// write writes node n at path, depth nodes below the top.
func write(buf *bytes.Buffer, n bt.Node[bt.Call], path string, depth int) error {
	if depth > MaxDepth {
		return derr(path, "the tree is deeper than %d nodes", MaxDepth)
	}
	k := n.Kind()
	typ := k.Mistreevous()
	if typ == "" {
		return derr(path, "%s nodes have no Mistreevous form (the Elixir JSON form that Node.MarshalJSON writes has them)", k)
	}
	if k == kind.Root && depth > 1 {
		return derr(path, "a root below the top")
	}
	buf.WriteString(`{"type":"`)
	buf.WriteString(typ)
	buf.WriteByte('"')
	if c, carries := n.Leaf(); carries {
		buf.WriteString(`,"call":`)
		if err := writeCall(buf, c, path); err != nil {
			return err
		}
	}
	switch {
	case k.Param() == kind.ParamLotto:
		if ws := n.Params().Weights; ws != nil {
			buf.WriteString(`,"weights":[`)
			for i, w := range ws {
				if i > 0 {
					buf.WriteByte(',')
				}
				buf.WriteString(strconv.Itoa(w))
			}
			buf.WriteByte(']')
		}
	case k.Param() == kind.ParamBound:
		field := k.BoundName()
		switch p := n.Params(); p.Bound {
		case kind.Fixed:
			fmt.Fprintf(buf, `,"%s":%d`, field, p.Min)
		case kind.Ranged:
			fmt.Fprintf(buf, `,"%s":[%d,%d]`, field, p.Min, p.Max)
		}
	}
	for _, a := range n.Attrs() {
		name := a.Kind.String()
		buf.WriteString(`,"` + name + `":{"call":`)
		if err := writeCall(buf, a.Value, path+"."+name); err != nil {
			return err
		}
		if a.SucceedOnAbort {
			buf.WriteString(`,"succeedOnAbort":true`)
		}
		buf.WriteByte('}')
	}
	switch {
	case k.Arity() == kind.OneChild:
		buf.WriteString(`,"child":`)
		if err := write(buf, n.Child(0), path+".child", depth+1); err != nil {
			return err
		}
	case n.Len() > 0:
		buf.WriteString(`,"children":[`)
		for i := range n.Len() {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := write(buf, n.Child(i), path+".children["+strconv.Itoa(i)+"]", depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	}
	buf.WriteByte('}')
	return nil
}

// writeCall writes a call's name, then its "args" if it has any.
func writeCall(buf *bytes.Buffer, c bt.Call, path string) error {
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
		if err := writeArg(buf, a); err != nil {
			return derr(path+".args["+strconv.Itoa(i)+"]", "%v", err)
		}
	}
	buf.WriteByte(']')
	return nil
}

// writeArg writes an argument's JSON form.
func writeArg(buf *bytes.Buffer, a any) error {
	switch v := a.(type) {
	case nil:
		buf.WriteString("null")
	case bool:
		buf.WriteString(strconv.FormatBool(v))
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("number %v has no JSON form", v)
		}
		buf.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	case string:
		b, _ := json.Marshal(v)
		buf.Write(b)
	case bt.Property:
		b, _ := json.Marshal(string(v))
		buf.WriteString(`{"$":`)
		buf.Write(b)
		buf.WriteByte('}')
	default:
		return fmt.Errorf("argument of type %T: must be nil, bool, float64, string or Property", a)
	}
	return nil
}
