package behaviortree

import (
	"fmt"
	"strings"

	"github.com/zipbt/behaviortree/kind"
)

// String returns a compact one-line form of n's definition, for messages and
// test failures: leaves as fmt's %v of their value, inner nodes as their kind
// with their children in parentheses, for example
// "sequence(top_left, repeat_until_fail(select(go_right, beginning_of_next_row)))".
// RepeatN shows its count ("repeat_n[2](a)") and RandomWeighted its weights
// ("random_weighted[3,1](a, b)"). It works for any depth. The zero Node is
// "<zero>".
func (n Node[L]) String() string {
	if n.n == nil {
		return "<zero>"
	}
	var b strings.Builder
	type item struct {
		nd   *node[L]
		next int
	}
	stack := []item{{nd: n.n}}
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		nd := top.nd
		if kinds[nd.kind].arity == noChildren {
			switch nd.kind {
			case kind.Leaf:
				fmt.Fprintf(&b, "%v", nd.leaf)
			case kind.Condition: // stepped trees only
				fmt.Fprintf(&b, "condition(%v)", nd.leaf)
			default: // a wait: "wait", "wait[500]", "wait[100,900]"
				b.WriteString(nd.kind.String())
				nd.appendParams(&b)
			}
			stack = stack[:len(stack)-1]
			continue
		}
		switch {
		case top.next == 0:
			if nd.kind == kind.Custom {
				fmt.Fprintf(&b, "custom[%T]", nd.custom)
			} else {
				b.WriteString(nd.kind.String())
			}
			nd.appendParams(&b)
			b.WriteByte('(')
			if len(nd.children) == 0 { // a reactive node may have none
				b.WriteByte(')')
				stack = stack[:len(stack)-1]
				continue
			}
		case top.next == len(nd.children):
			b.WriteByte(')')
			stack = stack[:len(stack)-1]
			continue
		default:
			b.WriteString(", ")
		}
		child := nd.children[top.next]
		top.next++
		stack = append(stack, item{nd: child})
	}
	return b.String()
}
