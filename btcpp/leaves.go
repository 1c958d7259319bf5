package btcpp

import (
	"fmt"
	"math"
)

// Status is a node's status, as BehaviorTree.CPP's NodeStatus.
type Status uint8

// The statuses. Idle is the status of a node that has not run or was
// reset; Skipped is returned by a node whose precondition skipped it and
// is never stored as a node's status.
const (
	Idle Status = iota
	Running
	Success
	Failure
	Skipped
)

// String returns the status as BehaviorTree.CPP writes it: "IDLE",
// "RUNNING", "SUCCESS", "FAILURE" or "SKIPPED".
func (s Status) String() string {
	switch s {
	case Idle:
		return "IDLE"
	case Running:
		return "RUNNING"
	case Success:
		return "SUCCESS"
	case Failure:
		return "FAILURE"
	case Skipped:
		return "SKIPPED"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// completed reports whether s is SUCCESS or FAILURE.
func (s Status) completed() bool { return s == Success || s == Failure }

// PortDir is the direction of a port.
type PortDir uint8

// The directions of a port.
const (
	In PortDir = iota
	Out
	InOut
)

// String returns "in", "out" or "inout".
func (d PortDir) String() string {
	switch d {
	case In:
		return "in"
	case Out:
		return "out"
	case InOut:
		return "inout"
	}
	return fmt.Sprintf("PortDir(%d)", uint8(d))
}

// Port declares a port of a node type: its name, direction and type, and
// an optional default (a literal, or a "{key}" reference).
//
// Type is one of "int", "double", "string", "bool" and "any" (untyped:
// the value is read as a string), or for the built-ins also "NodeStatus",
// "uint" and "Any".
type Port struct {
	Name       string
	Dir        PortDir
	Type       string
	Default    string
	HasDefault bool
}

// InputPort declares an input port of type typ.
func InputPort(name, typ string) Port { return Port{Name: name, Dir: In, Type: typ} }

// OutputPort declares an output port of type typ.
func OutputPort(name, typ string) Port { return Port{Name: name, Dir: Out, Type: typ} }

// InOutPort declares a port that is both read and written.
func InOutPort(name, typ string) Port { return Port{Name: name, Dir: InOut, Type: typ} }

// WithDefault returns p with the default value def, used when the XML
// does not set the port.
func (p Port) WithDefault(def string) Port {
	p.Default, p.HasDefault = def, true
	return p
}

// literalChecked reports whether a literal on a port of type t is checked
// when the tree is built (README §7 step 1).
func literalChecked(t string) bool {
	switch t {
	case "int", "double", "bool", "NodeStatus", "uint":
		return true
	}
	return false
}

// Action is a stateful action leaf (BehaviorTree.CPP's
// StatefulActionNode): OnStart is called when the node is ticked while
// IDLE, OnRunning while RUNNING, and OnHalted when a parent abandons it
// while RUNNING. OnStart and OnRunning must not return Idle. A nil
// OnRunning or OnHalted does nothing (OnRunning then returns RUNNING).
type Action struct {
	OnStart   func(*Call) (Status, error)
	OnRunning func(*Call) (Status, error)
	OnHalted  func(*Call)
}

// LeafFunc is a synchronous action or a condition: one call per tick.
type LeafFunc func(*Call) (Status, error)

// leafKind is the flavour of a registered Go leaf.
type leafKind uint8

const (
	leafAction leafKind = iota
	leafSync
	leafCondition
)

// leafReg is a leaf type registered in a Factory.
type leafReg struct {
	id     string
	kind   leafKind
	action Action
	fn     LeafFunc
	ports  []Port
}

// Call is the handle a Go leaf gets for one call: the node's identity and
// its ports. It is valid only during the call.
type Call struct {
	t *ticker
	n int
}

// Index returns the node's preorder index in the tree.
func (c *Call) Index() int { return c.n }

// Name returns the node's name.
func (c *Call) Name() string { return c.t.p.nodes[c.n].name }

// Path returns the node's full path: the subtree instance path, "/", and
// the name, with "::uid" when the name is the type ID (as BehaviorTree.CPP
// writes it).
func (c *Call) Path() string { return c.t.p.nodes[c.n].path }

// ID returns the node's registration ID.
func (c *Call) ID() string { return c.t.p.nodes[c.n].regID }

// plan returns the plan of the node's port (nil when it has none).
func (c *Call) plan(port string) *portPlan { return c.t.p.plan(c.n, port) }

// readPlan reads the port whose plan is pl (nil for none) with the type
// typ; the error says the port could not be read.
func (c *Call) readPlan(pl *portPlan, port, typ string) (Value, error) {
	if pl != nil && pl.bits&pHas != 0 {
		if v, ok := c.t.bb.readPlan(c.t.p.nodes[c.n].scope, pl, typ); ok {
			return v, nil
		}
	}
	return Value{}, newError(RuntimeError, "node %q: cannot read port [%s] as %s", c.t.p.nodes[c.n].path, port, typ)
}

// Int reads the input port as an int: a literal's leading decimal
// integer, or a blackboard entry's value, which must be integral and fit
// in 32 bits. The error says the port could not be read.
func (c *Call) Int(port string) (int, error) {
	pl := c.plan(port)
	if pl != nil && pl.bits&(pHas|pRef|pInt) == pHas|pInt {
		return int(pl.i), nil // a literal
	}
	if v := c.refValue(pl); v != nil && v.kind == kindInt && v.i >= math.MinInt32 && v.i <= math.MaxInt32 {
		return int(v.i), nil // convertRead's int
	}
	v, err := c.readPlan(pl, port, "int")
	if err != nil {
		return 0, err
	}
	i, ok := valueInt(v)
	if !ok {
		return 0, newError(RuntimeError, "node %q: port [%s] is not an int", c.t.p.nodes[c.n].path, port)
	}
	return int(i), nil
}

// Float reads the input port as a double.
func (c *Call) Float(port string) (float64, error) {
	pl := c.plan(port)
	if pl != nil && pl.bits&(pHas|pRef|pDouble) == pHas|pDouble {
		return pl.f, nil // a literal
	}
	if v := c.refValue(pl); v != nil && (v.kind == kindInt || v.kind == kindDouble) {
		return v.float(), nil // convertRead's double
	}
	v, err := c.readPlan(pl, port, "double")
	if err != nil {
		return 0, err
	}
	f, ok := valueFloat(v)
	if !ok {
		return math.NaN(), newError(RuntimeError, "node %q: port [%s] is not a double", c.t.p.nodes[c.n].path, port)
	}
	return f, nil
}

// String reads the input port as a string (a double has six decimals, a
// bool is "1" or "0").
func (c *Call) String(port string) (string, error) {
	pl := c.plan(port)
	if pl != nil && pl.bits&(pHas|pRef) == pHas {
		return pl.raw, nil // a literal
	}
	if v := c.refValue(pl); v != nil && v.kind == kindString {
		return v.s, nil // convertRead's string
	}
	v, err := c.readPlan(pl, port, "string")
	if err != nil {
		return "", err
	}
	s, ok := valueString(v)
	if !ok {
		return "", newError(RuntimeError, "node %q: port [%s] is not a string", c.t.p.nodes[c.n].path, port)
	}
	return s, nil
}

// Bool reads the input port as a bool.
func (c *Call) Bool(port string) (bool, error) {
	pl := c.plan(port)
	if pl != nil && pl.bits&(pHas|pRef|pBool) == pHas|pBool {
		return pl.bits&pTrue != 0, nil // a literal
	}
	if v := c.refValue(pl); v != nil && v.kind == kindInt && (v.i == 0 || v.i == 1) {
		return v.i == 1, nil // convertRead's bool
	}
	v, err := c.readPlan(pl, port, "bool")
	if err != nil {
		return false, err
	}
	b, ok := valueBool(v)
	if !ok {
		return false, newError(RuntimeError, "node %q: port [%s] is not a bool", c.t.p.nodes[c.n].path, port)
	}
	return b, nil
}

// Set writes v to the output port (BehaviorTree.CPP's setOutput): v is an
// int, int64, float64, string or bool, and its Go type is the static type
// of the write (an entry declared with another type takes the value only
// if it converts exactly). A port whose XML value is not a "{key}"
// reference, or that the XML does not set, is not written. Writing a port
// that the leaf type does not declare as an output is an error; otherwise
// the error is the blackboard's (for example a key declared with another
// type).
func (c *Call) Set(port string, v any) error {
	if pl := c.plan(port); pl == nil || pl.bits&pOutput == 0 {
		return newError(RuntimeError, "node %q: [%s] is not an output port", c.t.p.nodes[c.n].path, port)
	}
	val, typ, err := goValue(v)
	if err != nil {
		return fmt.Errorf("node %q: port [%s]: %w", c.t.p.nodes[c.n].path, port, err)
	}
	return c.t.writePort(c.n, port, typ, val)
}
