package behaviortree

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/hook"
	"github.com/zipbt/behaviortree/internal/near"
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

// Functions is an agent for trees of [Call]s, as a registry of functions
// by name. [Functions.Agent] checks a definition against it and makes the
// [Agent] that [NewStepped] takes.
//
// Each role (actions, conditions, callbacks, exits) has three forms: the
// plain one, whose handlers get the arguments as a []any (numbers are
// float64); the memory one, which gets the step's [Blackboard] as well;
// and the typed one, whose handlers get an [Args], which reads each
// argument with its type checked (args.Int(0)) and says which node and
// argument is wrong, and carries the Blackboard too. A name may be in one
// form of its role only.
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
	// stepped.
	MemoryActions    map[string]func(b *Blackboard, args []any) Result
	MemoryConditions map[string]func(b *Blackboard, args []any) bool
	MemoryCallbacks  map[string]func(b *Blackboard, args []any)
	MemoryExits      map[string]func(b *Blackboard, args []any, succeeded, aborted bool)
	// The typed forms: each gets the call's [Args], whose accessors check
	// the arguments' types, and whose Blackboard method gives the step's.
	TypedActions    map[string]func(args Args) Result
	TypedConditions map[string]func(args Args) bool
	TypedCallbacks  map[string]func(args Args)
	TypedExits      map[string]func(args Args, succeeded, aborted bool)
	// Property returns the value of the agent's property name, for a
	// [Property] argument ($name in MDSL) whose key the memory of the
	// version being stepped does not have: the memory comes first. With
	// Property nil, such an argument is nil (as an absent property is
	// undefined in Mistreevous).
	Property func(name string) any
}

// Agent returns an agent that calls f's functions by name, after checking
// that every name def uses is there, so that no step can meet a missing
// function. An unknown name is an error naming the node (its preorder
// index and, for a definition that mdsl.Parse read, its file, line and
// column), and the known name nearest to it if one is near enough to be
// a typo ("did you mean").
//
// Each call of a plain or memory handler gets a new slice of arguments,
// with [Property] arguments replaced by their values: a handler may keep
// it or write to it without changing the definition. A call with no
// arguments gets nil.
func (f Functions) Agent(def Node[Call]) (Agent[Call], error) {
	if def.n == nil {
		return Agent[Call]{}, fmt.Errorf("behaviortree.Functions.Agent: zero Node")
	}
	i := 0
	props := false // def has Property arguments
	var sites []hook.Site
	for c := range def.Preorder() {
		nd := c.n
		// check reports a missing function (absent from the plain, memory
		// and typed maps) or a name in more than one of them.
		check := func(role string, slot attr.Kind, plain, mem, typed bool, names func(yield func(string) bool), call Call) error {
			if !plain && !mem && !typed {
				if sites == nil {
					sites = sitesOf(def)
				}
				msg := fmt.Sprintf("behaviortree.Functions.Agent: %snode %d (%s): no %s function named %q", placeText(def, sites, i, slot), i, kinds[nd.kind].mistreevous, role, call.Name)
				if near := near.Nearest(call.Name, names); near != "" {
					msg += fmt.Sprintf("; did you mean %q?", near)
				}
				return errors.New(msg)
			}
			if plain && mem {
				return fmt.Errorf("behaviortree.Functions.Agent: node %d (%s): the %s function %q has both a plain and a memory form", i, kinds[nd.kind].mistreevous, role, call.Name)
			}
			if typed && (plain || mem) {
				return fmt.Errorf("behaviortree.Functions.Agent: node %d (%s): the %s function %q has both a typed form and a plain or memory one", i, kinds[nd.kind].mistreevous, role, call.Name)
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
			_, tok := f.TypedActions[nd.leaf.Name]
			err = check("action", 0, ok, mok, tok, keysOf(f.Actions, f.MemoryActions, f.TypedActions), nd.leaf)
		case kind.Condition:
			_, ok := f.Conditions[nd.leaf.Name]
			_, mok := f.MemoryConditions[nd.leaf.Name]
			_, tok := f.TypedConditions[nd.leaf.Name]
			err = check("condition", 0, ok, mok, tok, keysOf(f.Conditions, f.MemoryConditions, f.TypedConditions), nd.leaf)
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
				var ok, mok, tok bool
				var names func(yield func(string) bool)
				role := k.String()
				switch k {
				case attr.KindWhile, attr.KindUntil:
					_, ok = f.Conditions[v.Name]
					_, mok = f.MemoryConditions[v.Name]
					_, tok = f.TypedConditions[v.Name]
					names = keysOf(f.Conditions, f.MemoryConditions, f.TypedConditions)
					role += " guard's condition"
				case attr.KindEntry, attr.KindOnStep:
					_, ok = f.Callbacks[v.Name]
					_, mok = f.MemoryCallbacks[v.Name]
					_, tok = f.TypedCallbacks[v.Name]
					names = keysOf(f.Callbacks, f.MemoryCallbacks, f.TypedCallbacks)
					role += " callback"
				case attr.KindExit:
					_, ok = f.Exits[v.Name]
					_, mok = f.MemoryExits[v.Name]
					_, tok = f.TypedExits[v.Name]
					names = keysOf(f.Exits, f.MemoryExits, f.TypedExits)
					role += " callback"
				}
				if err := check(role, k, ok, mok, tok, names, v); err != nil {
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
				a = f.lookup(p, b)
			}
			out[k] = a
		}
		return out
	}
	typed := len(f.TypedActions)+len(f.TypedConditions)+len(f.TypedCallbacks)+len(f.TypedExits) > 0
	if !props && !typed && len(f.MemoryActions)+len(f.MemoryConditions)+len(f.MemoryCallbacks)+len(f.MemoryExits) == 0 {
		return Agent[Call]{
			Action:    func(c Call) Result { return f.Actions[c.Name](args(c, nil)) },
			Condition: func(c Call) bool { return f.Conditions[c.Name](args(c, nil)) },
			Entry:     func(c Call) { f.Callbacks[c.Name](args(c, nil)) },
			OnStep:    func(c Call) { f.Callbacks[c.Name](args(c, nil)) },
			Exit:      func(c Call, s, a bool) { f.Exits[c.Name](args(c, nil), s, a) },
		}, nil
	}
	ctx := &argsContext{def: def, f: &f}
	// typedArgs returns the Args of a call of a typed handler.
	typedArgs := func(c Call, b *Blackboard) Args {
		vals, copied := c.Args, false // shared with the definition until a property is looked up
		for k, a := range c.Args {
			if p, ok := a.(Property); ok {
				if !copied {
					vals, copied = append([]any(nil), c.Args...), true
				}
				vals[k] = f.lookup(p, b)
			}
		}
		return Args{call: c, vals: vals, ctx: ctx, b: b}
	}
	callback := func(c Call, b *Blackboard) {
		if h := f.TypedCallbacks[c.Name]; h != nil {
			h(typedArgs(c, b))
			return
		}
		if h := f.MemoryCallbacks[c.Name]; h != nil {
			h(b, args(c, b))
			return
		}
		f.Callbacks[c.Name](args(c, b))
	}
	return Agent[Call]{
		MemoryAction: func(c Call, b *Blackboard) Result {
			if h := f.TypedActions[c.Name]; h != nil {
				return h(typedArgs(c, b))
			}
			if h := f.MemoryActions[c.Name]; h != nil {
				return h(b, args(c, b))
			}
			return f.Actions[c.Name](args(c, b))
		},
		MemoryCondition: func(c Call, b *Blackboard) bool {
			if h := f.TypedConditions[c.Name]; h != nil {
				return h(typedArgs(c, b))
			}
			if h := f.MemoryConditions[c.Name]; h != nil {
				return h(b, args(c, b))
			}
			return f.Conditions[c.Name](args(c, b))
		},
		MemoryEntry:  callback,
		MemoryOnStep: callback,
		MemoryExit: func(c Call, b *Blackboard, s, a bool) {
			if h := f.TypedExits[c.Name]; h != nil {
				h(typedArgs(c, b), s, a)
				return
			}
			if h := f.MemoryExits[c.Name]; h != nil {
				h(b, args(c, b), s, a)
				return
			}
			f.Exits[c.Name](args(c, b), s, a)
		},
	}, nil
}

// lookup returns the value of the property p: b's memory's key p when it
// has it (b may be nil), f.Property's answer otherwise, or nil.
func (f *Functions) lookup(p Property, b *Blackboard) any {
	v, found := b.getIfAny(string(p))
	if !found && f.Property != nil {
		v = f.Property(string(p))
	}
	return v
}

// keysOf returns the names of the three maps of a role, sorted, for the
// "did you mean" of an unknown name.
func keysOf[A, B, C any](a map[string]A, b map[string]B, c map[string]C) func(yield func(string) bool) {
	names := make([]string, 0, len(a)+len(b)+len(c))
	for k := range a {
		names = append(names, k)
	}
	for k := range b {
		names = append(names, k)
	}
	for k := range c {
		names = append(names, k)
	}
	sort.Strings(names)
	return func(yield func(string) bool) {
		for _, n := range names {
			if !yield(n) {
				return
			}
		}
	}
}

// sitesOf returns where def's nodes are in the text it was read from, by
// preorder index, or nil when that is not known.
func sitesOf(def Node[Call]) []hook.Site {
	src := def.n.src
	if src == nil || src.Sites == nil {
		return nil
	}
	sites := src.Sites()
	if len(sites) != def.n.size {
		return nil // not the text's tree: place nothing rather than wrongly
	}
	return sites
}

// textPlace returns the file, line and column of node i's slot (0: its call
// or keyword; an attr.Kind: that attribute's call), with line 0 when
// they are not known.
func textPlace(def Node[Call], sites []hook.Site, i int, slot attr.Kind) (file string, line, col int) {
	if i < 0 || i >= len(sites) || int(slot) >= len(sites[i].At) {
		return "", 0, 0
	}
	p := sites[i].At[slot]
	if p.Line == 0 {
		return "", 0, 0
	}
	return def.n.src.File, int(p.Line), int(p.Col)
}

// placeText is textPlace as the start of a message: "FILE:LINE:COL: ", or
// "LINE:COL: " for a text read without a name, or "" when not known.
func placeText(def Node[Call], sites []hook.Site, i int, slot attr.Kind) string {
	file, line, col := textPlace(def, sites, i, slot)
	switch {
	case line == 0:
		return ""
	case file == "":
		return fmt.Sprintf("%d:%d: ", line, col)
	}
	return fmt.Sprintf("%s:%d:%d: ", file, line, col)
}
