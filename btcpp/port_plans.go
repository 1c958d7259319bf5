package btcpp

// Port plans: what a read or write of a node's port depends on that the
// XML fixes, worked out once when the node is built (README §6.3, §6.4).
// A read then costs a short lookup by name and, for a literal, no parsing;
// a {key} reference still reads the version's blackboard, without parsing
// the reference again.

import (
	"math"
	"slices"
	"strings"
)

// The bits of a portPlan.
const (
	pHas      uint16 = 1 << iota // the XML sets the port, or it has a default
	pRef                         // its value is a {key} (or {=}) reference
	pDeclared                    // the node's kind declares the port
	pOutput                      // declared with the direction out or inout
	pInt                         // the literal reads as an int (i)
	pInt64                       // as an int64 (i)
	pUint                        // as a uint (i)
	pDouble                      // as a double (f)
	pBool                        // as a bool (pTrue)
	pTrue                        // the bool
	pStatus                      // as a NodeStatus (st)
)

// portPlan is one port of a node: its raw value (the XML's, else the
// default), and either the reference's key or the literal parsed as each
// type that parseLiteral takes, with whether that parse succeeded.
type portPlan struct {
	name string
	raw  string
	key  string // a reference's key ("{=}" is the port's name)
	i    int64
	f    float64
	bits uint16
	st   uint8 // a NodeStatus literal's index in statusNames
}

// plansSortedAt is the number of plans from which a node's plans are
// sorted by name and searched by halves, rather than scanned.
const plansSortedAt = 9

// addPlans adds the plans of a node of kind k whose attributes are attrs
// (in XML order; the port-like ones are its ports, each named once, as the
// reader checks) and returns where they are in p.plans and how many: one
// per port attribute, then one per other port of k (the first of each
// name), which has pHas if it has a default.
func (p *program) addPlans(attrs []xmlAttr, k *kind) (at, n int32) {
	start := len(p.plans)
	seen := func(name string) bool {
		for i := start; i < len(p.plans); i++ {
			if p.plans[i].name == name {
				return true
			}
		}
		return false
	}
	for _, a := range attrs {
		if !portLike(a.Name) || seen(a.Name) {
			continue
		}
		p.plans = append(p.plans, planOf(a.Name, a.Value))
		if port, ok := k.port(a.Name); ok {
			p.plans[len(p.plans)-1].declare(port)
		}
	}
	for _, port := range k.ports {
		if seen(port.Name) {
			continue
		}
		pl := portPlan{name: port.Name}
		if port.HasDefault {
			pl = planOf(port.Name, port.Default)
		}
		pl.declare(port)
		p.plans = append(p.plans, pl)
	}
	mine := p.plans[start:]
	if len(mine) >= plansSortedAt {
		slices.SortFunc(mine, func(a, b portPlan) int { return strings.Compare(a.name, b.name) })
	}
	return int32(start), int32(len(mine))
}

// planCount returns how many port plans the build of tree id makes (its
// subtrees' included, at most maxNodes*4), to size program.plans: exact
// when the build succeeds, only an estimate when it fails. memo holds the
// trees counted.
func (b *builder) planCount(id string, memo map[string]int) int {
	if n, ok := memo[id]; ok {
		return n
	}
	memo[id] = 0 // a recursive tree fails to build
	el, ok := b.d.trees[id]
	if !ok || len(el.Children) == 0 {
		return 0
	}
	n := b.elementPlans(el.Children[0], memo)
	memo[id] = n
	return n
}

// elementPlans is planCount for the node of element e and its descendants.
func (b *builder) elementPlans(e *element, memo map[string]int) int {
	id, _ := e.attr("ID")
	n := 0
	var k *kind
	switch {
	case e.Name == "SubTree":
		k = subtreeKind
		n = b.planCount(id, memo)
	case explicitForm(e.Name):
		k = b.d.kinds[id]
	default:
		k = b.d.kinds[e.Name]
	}
	if k == nil {
		return n
	}
	n += len(k.ports)
	for _, a := range e.Attrs {
		if _, ok := k.port(a.Name); !ok && portLike(a.Name) {
			n++
		}
	}
	for _, c := range e.Children {
		n += b.elementPlans(c, memo)
	}
	return min(n, maxNodes*4)
}

// declare marks pl as declared by the kind as p.
func (pl *portPlan) declare(p Port) {
	pl.bits |= pDeclared
	if p.Dir != In {
		pl.bits |= pOutput
	}
}

// planOf returns the plan of the port name whose raw value is raw.
func planOf(name, raw string) portPlan {
	pl := portPlan{name: name, raw: raw, bits: pHas}
	if key, ok := refKey(raw, name); ok {
		pl.key = key
		pl.bits |= pRef
		return pl
	}
	if i, ok := fromCharsInt(raw); ok {
		pl.i = i
		pl.bits |= pInt64
		if i >= math.MinInt32 && i <= math.MaxInt32 {
			pl.bits |= pInt
		}
		if i >= 0 && i <= math.MaxUint32 {
			pl.bits |= pUint
		}
	}
	if f, _, ok := strtod(raw, true); ok {
		pl.f = f
		pl.bits |= pDouble
	}
	switch raw { // parseLiteral's bool
	case "1", "true", "TRUE", "True":
		pl.bits |= pBool | pTrue
	case "0", "false", "FALSE", "False":
		pl.bits |= pBool
	}
	for i, n := range statusNames { // parseLiteral's NodeStatus
		if raw == n {
			pl.st = uint8(i)
			pl.bits |= pStatus
		}
	}
	return pl
}

// plan returns the plan of node n's port, nil when the node has no such
// port (neither in the XML nor declared).
func (p *program) plan(n int, port string) *portPlan {
	nd := &p.nodes[n]
	ps := p.plans[nd.planAt : nd.planAt+nd.nPlans]
	if len(ps) >= plansSortedAt {
		return searchPlans(ps, port)
	}
	for i := range ps {
		if ps[i].name == port {
			return &ps[i]
		}
	}
	return nil
}

// searchPlans returns the plan of port in plans sorted by name, or nil.
func searchPlans(plans []portPlan, port string) *portPlan {
	if i, ok := slices.BinarySearchFunc(plans, port, func(pl portPlan, name string) int { return strings.Compare(pl.name, name) }); ok {
		return &plans[i]
	}
	return nil
}

// literal is parseLiteral(pl.raw, typ) for a plan that is not a reference,
// with "any" read as "string" (board.readValue).
func (pl *portPlan) literal(typ string) (Value, bool) {
	var need uint16
	switch typ {
	case "int":
		need = pInt
	case "int64":
		need = pInt64
	case "uint":
		need = pUint
	case "double":
		if pl.bits&pDouble == 0 {
			return Value{}, false
		}
		return DoubleValue(pl.f), true
	case "bool":
		if pl.bits&pBool == 0 {
			return Value{}, false
		}
		return BoolValue(pl.bits&pTrue != 0), true
	case "NodeStatus":
		if pl.bits&pStatus == 0 {
			return Value{}, false
		}
		return Value{tc: tcNodeStatus, kind: kindInt, i: int64(pl.st)}, true
	case "Any":
		return Value{}, false
	default:
		return StringValue(pl.raw), true
	}
	if pl.bits&need == 0 {
		return Value{}, false
	}
	return IntValue(pl.i, typ), true
}

// readPlan is board.readPort(scope, pl.name, pl.raw, typ) for a plan
// with pHas.
func (b *board) readPlan(scope int, pl *portPlan, typ string) (Value, bool) {
	var v Value
	var ok bool
	if pl.bits&pRef != 0 {
		v, ok = b.readKey(scope, pl.key, typ)
	} else {
		v, ok = pl.literal(typ)
	}
	if ok && typ == "NodeStatus" {
		v = Value{tc: tcNodeStatus, kind: kindString, s: statusNames[v.i]}
	}
	return v, ok
}

// entryValue returns a pointer to the value of the entry key as a port
// read from scope finds it, nil when there is none. The value must not be
// changed.
func (b *board) entryValue(scope int, key string) *Value {
	s, i, ok := b.find(scope, key)
	if !ok {
		return nil
	}
	return &b.scopes[s].entries[i].value
}

// refValue returns the value of the entry that the reference of plan pl
// names, as a Call's fast path reads it: nil when pl is not a reference
// or there is no such entry (readPlan then says why).
func (c *Call) refValue(pl *portPlan) *Value {
	if pl == nil || pl.bits&pRef == 0 {
		return nil
	}
	return c.t.bb.entryValue(c.t.p.nodes[c.n].scope, pl.key)
}
