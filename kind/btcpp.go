package kind

import (
	"fmt"
	"slices"
	"strconv"
)

// CPP is a built-in node type of BehaviorTree.CPP 4.10.0 that its XML can
// create, as package btcpp runs it: [CPPSequence], [CPPRepeat],
// [CPPSubTree] ... Its facts are the ones BehaviorTree.CPP states
// publicly, whatever engine runs the node: its registration ID
// ([CPP.ID]), its category ([CPP.Category]), how many children it takes
// ([CPP.MinChildren]), its ports ([CPP.Ports]), and the kind of package
// behaviortree whose shape it takes in pictures ([CPP.Draw]). What a node
// of the type does is package btcpp's (its table of rules) and the
// corpus README's.
//
// The zero CPP is no node type. The queue nodes (PopFromQueue, QueueSize,
// ConsumeQueue) and ManualSelector are not registered by
// BehaviorTree.CPP's factory, so they have no CPP either.
type CPP uint8

// The built-in node types, grouped as the corpus README's §5 groups them
// (controls, decorators, leaves), each group's timed and rarer types last.
const (
	noCPP CPP = iota
	// Controls.
	CPPSequence
	CPPFallback
	CPPAsyncSequence
	CPPAsyncFallback
	CPPSequenceWithMemory
	CPPSequenceStar // format 3's SequenceWithMemory, which 4.10 still registers
	CPPReactiveSequence
	CPPReactiveFallback
	CPPParallel
	CPPParallelAll
	CPPIfThenElse
	CPPWhileDoElse
	CPPSwitch2
	CPPSwitch3
	CPPSwitch4
	CPPSwitch5
	CPPSwitch6
	CPPTryCatch
	// Decorators.
	CPPInverter
	CPPForceSuccess
	CPPForceFailure
	CPPKeepRunningUntilFailure
	CPPRepeat
	CPPRetryUntilSuccessful
	CPPRunOnce
	CPPPrecondition
	CPPDelay
	CPPTimeout
	CPPLoopInt
	CPPLoopDouble
	CPPLoopString
	CPPLoopBool
	CPPSkipUnlessUpdated
	CPPWaitValueUpdate
	// Leaves.
	CPPAlwaysSuccess
	CPPAlwaysFailure
	CPPScript
	CPPScriptCondition
	CPPSetBlackboard
	CPPUnsetBlackboard
	CPPSleep
	CPPWasEntryUpdated
	// CPPSubTree is the node of <SubTree ID="X"/>: no children in the
	// XML, the subtree's root as its child once built.
	CPPSubTree
	numCPP
)

// Category is the category of a BehaviorTree.CPP node type, which says
// how many children its XML element takes.
type Category uint8

// The categories.
const (
	CategoryLeaf      Category = iota // no children (an action or a condition)
	CategoryDecorator                 // exactly one child
	CategoryControl                   // at least CPP.MinChildren children
	CategorySubTree                   // <SubTree ID="X"/>: no children in the XML
)

// String returns "leaf", "decorator", "control" or "subtree".
func (c Category) String() string {
	switch c {
	case CategoryLeaf:
		return "leaf"
	case CategoryDecorator:
		return "decorator"
	case CategoryControl:
		return "control"
	case CategorySubTree:
		return "subtree"
	}
	return "Category(" + strconv.Itoa(int(c)) + ")"
}

// PortDir is the direction of a port.
type PortDir uint8

// The directions of a port.
const (
	PortIn    PortDir = iota // input_port: read
	PortOut                  // output_port: written
	PortInOut                // inout_port: read and written
)

// String returns "in", "out" or "inout".
func (d PortDir) String() string {
	switch d {
	case PortIn:
		return "in"
	case PortOut:
		return "out"
	case PortInOut:
		return "inout"
	}
	return "PortDir(" + strconv.Itoa(int(d)) + ")"
}

// CPPPort is a port of a BehaviorTree.CPP built-in: its name, direction,
// type, default and description. Type is "int", "uint", "double",
// "string", "bool", "NodeStatus", "any" (untyped: read as a string) or
// "Any" (BT::Any, any type); the default, when HasDefault, is the text
// BehaviorTree.CPP uses when the XML does not set the port; Description
// is the library's own, as its node models give it (Groot2 shows it), ""
// where it has none.
type CPPPort struct {
	Name        string
	Dir         PortDir
	Type        string
	Default     string
	HasDefault  bool
	Description string
}

// cppFacts are what package kind knows of one CPP.
type cppFacts struct {
	id      string
	cat     Category
	minKids int // a control's least number of children
	ports   []CPPPort
	draw    Kind
}

// in, inDef, inout and out make the rows' ports; about adds a
// description.
func in(name, typ string) CPPPort { return CPPPort{Name: name, Type: typ} }

func inDef(name, typ, def string) CPPPort {
	return CPPPort{Name: name, Type: typ, Default: def, HasDefault: true}
}

func inout(name, typ string) CPPPort { return CPPPort{Name: name, Dir: PortInOut, Type: typ} }

func out(name, typ string) CPPPort { return CPPPort{Name: name, Dir: PortOut, Type: typ} }

func (p CPPPort) about(description string) CPPPort {
	p.Description = description
	return p
}

// switchPorts returns the ports of SwitchN.
func switchPorts(n int) []CPPPort {
	ps := []CPPPort{in("variable", "string")}
	for i := 1; i <= n; i++ {
		ps = append(ps, in("case_"+strconv.Itoa(i), "string"))
	}
	return ps
}

// loopPorts returns the ports of a Loop node of element type t.
func loopPorts(t string) []CPPPort {
	return []CPPPort{
		inout("queue", "any"),
		inDef("if_empty", "NodeStatus", "SUCCESS").about("Status to return if queue is empty: SUCCESS, FAILURE, SKIPPED"),
		out("value", t),
	}
}

// cppTable holds the facts of every CPP, indexed by CPP: the one place
// they are written. Package btcpp's table of rules reads them.
var cppTable = [numCPP]cppFacts{
	CPPSequence:           {id: "Sequence", cat: CategoryControl, minKids: 1, draw: Sequence},
	CPPFallback:           {id: "Fallback", cat: CategoryControl, minKids: 1, draw: Select},
	CPPAsyncSequence:      {id: "AsyncSequence", cat: CategoryControl, minKids: 1, draw: Sequence},
	CPPAsyncFallback:      {id: "AsyncFallback", cat: CategoryControl, minKids: 1, draw: Select},
	CPPSequenceWithMemory: {id: "SequenceWithMemory", cat: CategoryControl, minKids: 1, draw: Sequence},
	CPPSequenceStar:       {id: "SequenceStar", cat: CategoryControl, minKids: 1, draw: Sequence},
	CPPReactiveSequence:   {id: "ReactiveSequence", cat: CategoryControl, minKids: 1, draw: ReactiveSequence},
	CPPReactiveFallback:   {id: "ReactiveFallback", cat: CategoryControl, minKids: 1, draw: ReactiveSelect},
	CPPParallel: {id: "Parallel", cat: CategoryControl, minKids: 1, draw: Threshold, ports: []CPPPort{
		inDef("success_count", "int", "-1").about("number of children that need to succeed to trigger a SUCCESS"),
		inDef("failure_count", "int", "1").about("number of children that need to fail to trigger a FAILURE"),
	}},
	CPPParallelAll: {id: "ParallelAll", cat: CategoryControl, minKids: 1, draw: All, ports: []CPPPort{
		inDef("max_failures", "int", "1").about("If the number of children returning FAILURE exceeds this value, ParallelAll returns FAILURE"),
	}},
	CPPIfThenElse:  {id: "IfThenElse", cat: CategoryControl, minKids: 1, draw: Custom},
	CPPWhileDoElse: {id: "WhileDoElse", cat: CategoryControl, minKids: 1, draw: Custom},
	CPPSwitch2:     {id: "Switch2", cat: CategoryControl, minKids: 1, draw: Custom, ports: switchPorts(2)},
	CPPSwitch3:     {id: "Switch3", cat: CategoryControl, minKids: 1, draw: Custom, ports: switchPorts(3)},
	CPPSwitch4:     {id: "Switch4", cat: CategoryControl, minKids: 1, draw: Custom, ports: switchPorts(4)},
	CPPSwitch5:     {id: "Switch5", cat: CategoryControl, minKids: 1, draw: Custom, ports: switchPorts(5)},
	CPPSwitch6:     {id: "Switch6", cat: CategoryControl, minKids: 1, draw: Custom, ports: switchPorts(6)},
	CPPTryCatch: {id: "TryCatch", cat: CategoryControl, minKids: 2, draw: Custom, ports: []CPPPort{
		inDef("catch_on_halt", "bool", "false"),
	}},

	CPPInverter:                {id: "Inverter", cat: CategoryDecorator, draw: Negate},
	CPPForceSuccess:            {id: "ForceSuccess", cat: CategoryDecorator, draw: AlwaysSucceed},
	CPPForceFailure:            {id: "ForceFailure", cat: CategoryDecorator, draw: AlwaysFail},
	CPPKeepRunningUntilFailure: {id: "KeepRunningUntilFailure", cat: CategoryDecorator, draw: RepeatUntilFail},
	CPPRepeat: {id: "Repeat", cat: CategoryDecorator, draw: Repeat, ports: []CPPPort{
		in("num_cycles", "int").about("Repeat a successful child up to N times. Use -1 to create an infinite loop."),
	}},
	CPPRetryUntilSuccessful: {id: "RetryUntilSuccessful", cat: CategoryDecorator, draw: Retry, ports: []CPPPort{
		in("num_attempts", "int").about("Execute again a failing child up to N times. Use -1 to create an infinite loop."),
	}},
	CPPRunOnce: {id: "RunOnce", cat: CategoryDecorator, draw: Repeat, ports: []CPPPort{
		inDef("then_skip", "bool", "true").about("If true, skip after the first execution, otherwise return the same NodeStatus returned once bu the child."),
	}},
	CPPPrecondition: {id: "Precondition", cat: CategoryDecorator, draw: Repeat, ports: []CPPPort{
		in("if", "string"), inDef("else", "NodeStatus", "FAILURE").about("Return status if condition is false"),
	}},
	CPPDelay: {id: "Delay", cat: CategoryDecorator, draw: Repeat, ports: []CPPPort{in("delay_msec", "uint").about("Tick the child after a few milliseconds")}},
	CPPTimeout: {id: "Timeout", cat: CategoryDecorator, draw: Repeat, ports: []CPPPort{
		in("msec", "uint").about("After a certain amount of time, halt() the child if it is still running."),
	}},
	CPPLoopInt:           {id: "LoopInt", cat: CategoryDecorator, draw: Repeat, ports: loopPorts("int")},
	CPPLoopDouble:        {id: "LoopDouble", cat: CategoryDecorator, draw: Repeat, ports: loopPorts("double")},
	CPPLoopString:        {id: "LoopString", cat: CategoryDecorator, draw: Repeat, ports: loopPorts("string")},
	CPPLoopBool:          {id: "LoopBool", cat: CategoryDecorator, draw: Repeat, ports: loopPorts("bool")},
	CPPSkipUnlessUpdated: {id: "SkipUnlessUpdated", cat: CategoryDecorator, draw: Repeat, ports: []CPPPort{in("entry", "Any").about("Entry to check")}},
	CPPWaitValueUpdate:   {id: "WaitValueUpdate", cat: CategoryDecorator, draw: Repeat, ports: []CPPPort{in("entry", "Any").about("Entry to check")}},

	CPPAlwaysSuccess: {id: "AlwaysSuccess", cat: CategoryLeaf, draw: Leaf},
	CPPAlwaysFailure: {id: "AlwaysFailure", cat: CategoryLeaf, draw: Leaf},
	CPPScript:        {id: "Script", cat: CategoryLeaf, draw: Leaf, ports: []CPPPort{in("code", "string").about("Piece of code that can be parsed")}},
	CPPScriptCondition: {id: "ScriptCondition", cat: CategoryLeaf, draw: Condition, ports: []CPPPort{
		in("code", "any").about("Piece of code that can be parsed. Must return false or true"),
	}},
	CPPSetBlackboard: {id: "SetBlackboard", cat: CategoryLeaf, draw: Leaf, ports: []CPPPort{
		in("value", "any").about("Value to be written int othe output_key"),
		inout("output_key", "any").about("Name of the blackboard entry where the value should be written"),
	}},
	CPPUnsetBlackboard: {id: "UnsetBlackboard", cat: CategoryLeaf, draw: Leaf, ports: []CPPPort{in("key", "string").about("Key of the entry to remove")}},
	CPPSleep:           {id: "Sleep", cat: CategoryLeaf, draw: Wait, ports: []CPPPort{in("msec", "uint")}},
	CPPWasEntryUpdated: {id: "WasEntryUpdated", cat: CategoryLeaf, draw: Condition, ports: []CPPPort{in("entry", "Any").about("Entry to check")}},

	CPPSubTree: {id: "SubTree", cat: CategorySubTree, draw: Root},
}

// cppByID indexes cppTable by ID.
var cppByID = func() map[string]CPP {
	m := make(map[string]CPP, numCPP)
	for c := noCPP + 1; c < numCPP; c++ {
		m[cppTable[c].id] = c
	}
	return m
}()

// CPPByID returns the built-in node type whose registration ID is id
// ("Sequence", "SubTree", ...), and false when BehaviorTree.CPP 4.10.0
// registers no built-in of that ID.
func CPPByID(id string) (CPP, bool) {
	c, ok := cppByID[id]
	return c, ok
}

// CPPKinds returns every built-in node type, in the order of the
// constants.
func CPPKinds() []CPP {
	cs := make([]CPP, 0, numCPP-1)
	for c := noCPP + 1; c < numCPP; c++ {
		cs = append(cs, c)
	}
	return cs
}

// cpp returns c's facts: the zero facts for a value that is no CPP.
func (c CPP) cpp() *cppFacts {
	if c < numCPP {
		return &cppTable[c]
	}
	return &cppTable[noCPP]
}

// ID returns c's registration ID, as the XML names it ("Sequence",
// "RetryUntilSuccessful", "SubTree"); "" for a value that is no CPP.
func (c CPP) ID() string { return c.cpp().id }

// String returns c's ID, or "CPP(N)" for a value that is no CPP.
func (c CPP) String() string {
	if c == noCPP || c >= numCPP {
		return fmt.Sprintf("CPP(%d)", uint8(c))
	}
	return cppTable[c].id
}

// Category returns c's category; CategoryLeaf for a value that is no CPP.
func (c CPP) Category() Category { return c.cpp().cat }

// MinChildren returns the least number of children c's XML element takes:
// a control's own least (1, or 2 for TryCatch), 1 for a decorator (which
// takes exactly one), 0 for a leaf and a SubTree (which take none).
func (c CPP) MinChildren() int {
	f := c.cpp()
	switch f.cat {
	case CategoryControl:
		return f.minKids
	case CategoryDecorator:
		return 1
	}
	return 0
}

// Ports returns a copy of c's ports, in the order BehaviorTree.CPP
// declares them; none for a value that is no CPP. The attributes every
// node takes (name, _skipIf, ...) and a SubTree's remappings are not
// ports.
func (c CPP) Ports() []CPPPort { return slices.Clone(c.cpp().ports) }

// Draw returns the kind of package behaviortree whose shape a node of
// type c takes in the pictures of trees (text, DOT, Mermaid, the viewer):
// Sequence for the sequences, Select for the fallbacks, Negate for
// Inverter, Root for a SubTree, Custom for the other controls, Repeat for
// the other decorators, Condition for ScriptCondition and
// WasEntryUpdated, Wait for Sleep, Leaf for the other leaves. It is a
// look, not a semantics: no kind of package behaviortree runs as a
// BehaviorTree.CPP node does (SKIPPED, halting, the pre- and
// post-conditions are BehaviorTree.CPP's alone). Leaf for a value that is
// no CPP.
func (c CPP) Draw() Kind { return c.cpp().draw }
