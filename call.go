package behaviortree

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

// Call is the leaf type of trees read from Mistreevous definitions
// (package mistreevous): the name of an agent function and its arguments.
// Actions, conditions, guards and callbacks all carry a Call.
//
// An argument is nil, a bool, a float64, a string, or a [Property].
// A definition's Calls are shared by all its versions: an [Agent] of
// Calls gets the definition's own, whose Args it must not modify
// ([Functions] hands its handlers a copy).
type Call struct {
	Name string
	Args []any
}

// Property is an argument that refers to a property of the agent
// (Mistreevous's $name; {"$": "name"} in JSON): [Functions] looks its value
// up when the function is called, in the memory of the version being
// stepped first (the key name), then through [Functions.Property].
type Property string

// String returns the call in MDSL form: Name, then its arguments, for
// example `Attack, 2, "left", $target`.
func (c Call) String() string {
	var b strings.Builder
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteString(", ")
		switch v := a.(type) {
		case nil:
			b.WriteString("null")
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case float64:
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		case string:
			b.WriteString(strconv.Quote(v))
		case Property:
			b.WriteString("$" + string(v))
		default:
			fmt.Fprintf(&b, "%v", v)
		}
	}
	return b.String()
}

// checkArg reports whether a is a valid argument.
func checkArg(a any) error {
	switch a.(type) {
	case nil, bool, float64, string, Property:
		return nil
	}
	return fmt.Errorf("argument of type %T: must be nil, bool, float64, string or Property", a)
}

// Functions is an agent for trees of [Call]s, as a registry of functions
// by name. [Functions.Agent] checks a definition against it and makes the
// [Agent] that [NewStepped] takes.
type Functions struct {
	// Actions are called by action nodes ([Leaf]).
	Actions map[string]func(args []any) Result
	// Conditions are called by condition nodes and by guards.
	Conditions map[string]func(args []any) bool
	// Callbacks are called by entry and step callbacks.
	Callbacks map[string]func(args []any)
	// Exits are called by exit callbacks.
	Exits map[string]func(args []any, succeeded, aborted bool)
	// The memory forms of the handlers: each gets the [Blackboard] of the
	// step as well, to read and write the memory of the version being
	// stepped. A name may be in Actions or in MemoryActions, not in both
	// (and so on for the others).
	MemoryActions    map[string]func(b *Blackboard, args []any) Result
	MemoryConditions map[string]func(b *Blackboard, args []any) bool
	MemoryCallbacks  map[string]func(b *Blackboard, args []any)
	MemoryExits      map[string]func(b *Blackboard, args []any, succeeded, aborted bool)
	// Property returns the value of the agent's property name, for a
	// [Property] argument ($name in MDSL) whose key the memory of the
	// version being stepped does not have: the memory comes first. With
	// Property nil, such an argument is nil (as an absent property is
	// undefined in Mistreevous).
	Property func(name string) any
}

// Agent returns an agent that calls f's functions by name, after checking
// that every name def uses is there (an unknown name is an error naming it
// and the node), so that no step can meet a missing function.
//
// Each call gets a new slice of arguments, with [Property] arguments
// replaced by their values: a handler may keep it or write to it without
// changing the definition. A call with no arguments gets nil.
func (f Functions) Agent(def Node[Call]) (Agent[Call], error) {
	if def.n == nil {
		return Agent[Call]{}, fmt.Errorf("behaviortree.Functions.Agent: zero Node")
	}
	i := 0
	props := false // def has Property arguments
	for c := range def.Preorder() {
		nd := c.n
		// check reports a missing function (plain and memory form both
		// absent: in the plain map, in the memory map) or a name in both.
		check := func(role string, plain, mem bool, call Call) error {
			if !plain && !mem {
				return fmt.Errorf("behaviortree.Functions.Agent: node %d (%s): no %s function named %q", i, kinds[nd.kind].mistreevous, role, call.Name)
			}
			if plain && mem {
				return fmt.Errorf("behaviortree.Functions.Agent: node %d (%s): the %s function %q has both a plain and a memory form", i, kinds[nd.kind].mistreevous, role, call.Name)
			}
			for _, a := range call.Args {
				if _, isProp := a.(Property); isProp {
					props = true
				}
			}
			return nil
		}
		var err error
		switch nd.kind {
		case kind.Leaf:
			_, ok := f.Actions[nd.leaf.Name]
			_, mok := f.MemoryActions[nd.leaf.Name]
			err = check("action", ok, mok, nd.leaf)
		case kind.Condition:
			_, ok := f.Conditions[nd.leaf.Name]
			_, mok := f.MemoryConditions[nd.leaf.Name]
			err = check("condition", ok, mok, nd.leaf)
		}
		if err != nil {
			return Agent[Call]{}, err
		}
		if at := nd.attrs; at != nil {
			for k := attr.KindWhile; k < numAttrs; k++ {
				if !at.has[k] {
					continue
				}
				v := at.a[k].Value
				var ok, mok bool
				role := k.String()
				switch k {
				case attr.KindWhile, attr.KindUntil:
					_, ok = f.Conditions[v.Name]
					_, mok = f.MemoryConditions[v.Name]
					role += " guard's condition"
				case attr.KindEntry, attr.KindOnStep:
					_, ok = f.Callbacks[v.Name]
					_, mok = f.MemoryCallbacks[v.Name]
					role += " callback"
				case attr.KindExit:
					_, ok = f.Exits[v.Name]
					_, mok = f.MemoryExits[v.Name]
					role += " callback"
				}
				if err := check(role, ok, mok, v); err != nil {
					return Agent[Call]{}, err
				}
			}
		}
		i++
	}
	// args returns a fresh copy of c's arguments, with properties looked
	// up (in b's memory first, when b is not nil): the handler may keep or
	// change it, while c.Args belongs to the immutable definition that
	// every version shares.
	args := func(c Call, b *Blackboard) []any {
		if len(c.Args) == 0 {
			return nil
		}
		out := make([]any, len(c.Args))
		for k, a := range c.Args {
			if p, ok := a.(Property); ok {
				v, found := b.getIfAny(string(p))
				if !found && f.Property != nil {
					v = f.Property(string(p))
				}
				a = v
			}
			out[k] = a
		}
		return out
	}
	if !props && len(f.MemoryActions)+len(f.MemoryConditions)+len(f.MemoryCallbacks)+len(f.MemoryExits) == 0 {
		return Agent[Call]{
			Action:    func(c Call) Result { return f.Actions[c.Name](args(c, nil)) },
			Condition: func(c Call) bool { return f.Conditions[c.Name](args(c, nil)) },
			Entry:     func(c Call) { f.Callbacks[c.Name](args(c, nil)) },
			OnStep:    func(c Call) { f.Callbacks[c.Name](args(c, nil)) },
			Exit:      func(c Call, s, a bool) { f.Exits[c.Name](args(c, nil), s, a) },
		}, nil
	}
	callback := func(c Call, b *Blackboard) {
		if h := f.MemoryCallbacks[c.Name]; h != nil {
			h(b, args(c, b))
			return
		}
		f.Callbacks[c.Name](args(c, b))
	}
	return Agent[Call]{
		MemoryAction: func(c Call, b *Blackboard) Result {
			if h := f.MemoryActions[c.Name]; h != nil {
				return h(b, args(c, b))
			}
			return f.Actions[c.Name](args(c, b))
		},
		MemoryCondition: func(c Call, b *Blackboard) bool {
			if h := f.MemoryConditions[c.Name]; h != nil {
				return h(b, args(c, b))
			}
			return f.Conditions[c.Name](args(c, b))
		},
		MemoryEntry:  callback,
		MemoryOnStep: callback,
		MemoryExit: func(c Call, b *Blackboard, s, a bool) {
			if h := f.MemoryExits[c.Name]; h != nil {
				h(b, args(c, b), s, a)
				return
			}
			f.Exits[c.Name](args(c, b), s, a)
		},
	}, nil
}
