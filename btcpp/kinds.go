package btcpp

import "strconv"

// The table of kinds: one row per built-in node ID of BehaviorTree.CPP
// 4.10.0, and one per Go leaf registered in a Factory. A row says the
// kind's category, how many children its XML element may have (checked on
// the whole document before any node is created, README §7), its ports,
// and its rule: tick and halt, each a function of tick.go. Every other
// part of the package reads a kind's facts from here.

// category is the category of a kind of node.
type category uint8

const (
	catLeaf      category = iota // no children
	catDecorator                 // exactly one child
	catControl                   // at least minKids children
	catSubTree                   // <SubTree ID="X"/>: no children in the XML, the subtree's root as its child when built
)

// String names the category.
func (c category) String() string {
	switch c {
	case catLeaf:
		return "leaf"
	case catDecorator:
		return "decorator"
	case catControl:
		return "control"
	case catSubTree:
		return "subtree"
	}
	return "?"
}

// kind is a row of the table.
type kind struct {
	id  string
	cat category
	// minKids is the least number of children of a control (1, or 2 for
	// TryCatch); decorators have exactly one and leaves none.
	minKids int
	ports   []Port
	// sec5 marks the kinds of README §5 (the random corpus uses them);
	// the others are TIMED.md's (timed nodes and §8).
	sec5 bool
	// sync marks a synchronous action: returning RUNNING is a LogicError
	// raised outside its tick (README §2).
	sync bool
	// tick is the kind's tick (README §5); n is the node's preorder index.
	tick func(t *ticker, n int) (Status, error)
	// halt is the kind's own halt behaviour (README §4 halt(n) before the
	// node is set IDLE and its _onHalted runs).
	halt func(t *ticker, n int) error
	// leaf is the registration of a Go leaf, nil for built-ins.
	leaf *leafReg
	// loop is the element type of the Loop nodes ("int", ...).
	loop string
	// notUpdated is what SkipUnlessUpdated / WaitValueUpdate return when
	// the entry was not updated.
	notUpdated Status
	// The variants of a rule that serves several kinds:
	//   - mirror: SUCCESS and FAILURE swap roles (Fallback and its
	//     Reactive and Async forms against Sequence's; RetryUntilSuccessful
	//     against Repeat; AlwaysFailure; ScriptCondition's result is its
	//     script's, not mirror's);
	//   - memory: a failure keeps the index and resets only the children
	//     from it on (SequenceWithMemory);
	//   - yield: a fresh child's completion that moves on sets the wake-up
	//     flag and returns RUNNING (the Async forms, SequenceWithMemory);
	//   - cond: ScriptCondition, whose script's value decides (Script's is
	//     ignored).
	mirror, memory, yield, cond bool
	// fresh marks the built-ins that fresh execution may run (tick.go):
	// the leaves whose tick keeps no state between ticks, and Sequence
	// and Fallback. (A Go leaf's row says it by its registration.)
	fresh bool
	// onChild is, for the decorators that only map their child's result
	// (Inverter, ForceSuccess, ForceFailure, KeepRunningUntilFailure),
	// what each result of the child becomes, indexed by Status.
	onChild *[numStatuses]Status
}

// goOn and stop return the results that move a Sequence-like rule on and
// that end it: SUCCESS and FAILURE, or the other way round for a mirror
// kind.
func (k *kind) goOn() Status {
	if k.mirror {
		return Failure
	}
	return Success
}

// stop is goOn's other result: the one that ends the rule.
func (k *kind) stop() Status {
	if k.mirror {
		return Success
	}
	return Failure
}

// numStatuses is the number of Status values: an index of onChild. (An
// IDLE result, which only WhileDoElse gives, maps to IDLE.)
const numStatuses = int(Skipped) + 1

// mapped returns the onChild rows: what a decorator that maps its child's
// result returns for a RUNNING, SUCCESS, FAILURE or SKIPPED child.
func mapped(running, success, failure, skipped Status) *[numStatuses]Status {
	var m [numStatuses]Status
	m[Running], m[Success], m[Failure], m[Skipped] = running, success, failure, skipped
	return &m
}

// port returns the kind's port named name.
func (k *kind) port(name string) (Port, bool) {
	for _, p := range k.ports {
		if p.Name == name {
			return p, true
		}
	}
	return Port{}, false
}

// decorator reports whether the node's children are reset by §4 step 5.
func (k *kind) decorator() bool { return k.cat == catDecorator || k.cat == catSubTree }

// subtreeKind is the row of every <SubTree ID="X"/> node.
var subtreeKind = &kind{id: "SubTree", cat: catSubTree, sec5: true, tick: tickSubTree, halt: haltDecorator}

// switchPorts returns the ports of SwitchN.
func switchPorts(n int) []Port {
	ps := []Port{InputPort("variable", "string")}
	for i := 1; i <= n; i++ {
		ps = append(ps, InputPort("case_"+strconv.Itoa(i), "string"))
	}
	return ps
}

// loopPorts returns the ports of a Loop node of element type t.
func loopPorts(t string) []Port {
	return []Port{
		InOutPort("queue", "any"),
		InputPort("if_empty", "NodeStatus").WithDefault("SUCCESS"),
		OutputPort("value", t),
	}
}

// builtinKinds lists the built-in kinds of BehaviorTree.CPP 4.10.0 that
// XML can create. The queue nodes (PopFromQueue, QueueSize, ConsumeQueue)
// and ManualSelector are not registered by the library's factory
// (TIMED.md §8), so they are unknown here too.
var builtinKinds = []*kind{
	// README §5.1 controls.
	{id: "Sequence", cat: catControl, minKids: 1, sec5: true, fresh: true, tick: tickSequence, halt: haltSequence},
	{id: "Fallback", cat: catControl, minKids: 1, sec5: true, mirror: true, fresh: true, tick: tickSequence, halt: haltSequence},
	{id: "AsyncSequence", cat: catControl, minKids: 1, sec5: true, yield: true, tick: tickSequence, halt: haltSequence},
	{id: "AsyncFallback", cat: catControl, minKids: 1, sec5: true, mirror: true, yield: true, tick: tickSequence, halt: haltSequence},
	{id: "SequenceWithMemory", cat: catControl, minKids: 1, sec5: true, memory: true, yield: true, tick: tickSequence, halt: haltSequenceWithMemory},
	{id: "SequenceStar", cat: catControl, minKids: 1, sec5: true, memory: true, yield: true, tick: tickSequence, halt: haltSequenceWithMemory},
	{id: "ReactiveSequence", cat: catControl, minKids: 1, sec5: true, tick: tickReactive, halt: haltControl},
	{id: "ReactiveFallback", cat: catControl, minKids: 1, sec5: true, mirror: true, tick: tickReactive, halt: haltControl},
	{id: "Parallel", cat: catControl, minKids: 1, sec5: true, tick: tickParallel, halt: haltParallel, ports: []Port{
		InputPort("success_count", "int").WithDefault("-1"),
		InputPort("failure_count", "int").WithDefault("1"),
	}},
	{id: "ParallelAll", cat: catControl, minKids: 1, sec5: true, tick: tickParallelAll, halt: haltParallel, ports: []Port{
		InputPort("max_failures", "int").WithDefault("1"),
	}},
	{id: "IfThenElse", cat: catControl, minKids: 1, sec5: true, tick: tickIfThenElse, halt: haltCounter},
	{id: "WhileDoElse", cat: catControl, minKids: 1, sec5: true, tick: tickWhileDoElse, halt: haltControl},
	{id: "Switch2", cat: catControl, minKids: 1, sec5: true, tick: tickSwitch, halt: haltCounter, ports: switchPorts(2)},
	{id: "Switch3", cat: catControl, minKids: 1, sec5: true, tick: tickSwitch, halt: haltCounter, ports: switchPorts(3)},
	{id: "Switch4", cat: catControl, minKids: 1, sec5: true, tick: tickSwitch, halt: haltCounter, ports: switchPorts(4)},
	{id: "Switch5", cat: catControl, minKids: 1, sec5: true, tick: tickSwitch, halt: haltCounter, ports: switchPorts(5)},
	{id: "Switch6", cat: catControl, minKids: 1, sec5: true, tick: tickSwitch, halt: haltCounter, ports: switchPorts(6)},
	// TIMED.md §8 controls.
	{id: "TryCatch", cat: catControl, minKids: 2, tick: tickTryCatch, halt: haltTryCatch, ports: []Port{
		InputPort("catch_on_halt", "bool").WithDefault("false"),
	}},

	// README §5.2 decorators.
	{id: "Inverter", cat: catDecorator, sec5: true, onChild: mapped(Running, Failure, Success, Skipped), tick: tickMapped, halt: haltDecorator},
	{id: "ForceSuccess", cat: catDecorator, sec5: true, onChild: mapped(Running, Success, Success, Skipped), tick: tickMapped, halt: haltDecorator},
	{id: "ForceFailure", cat: catDecorator, sec5: true, onChild: mapped(Running, Failure, Failure, Skipped), tick: tickMapped, halt: haltDecorator},
	{id: "KeepRunningUntilFailure", cat: catDecorator, sec5: true, onChild: mapped(Running, Running, Failure, Running), tick: tickMapped, halt: haltDecorator},
	{id: "Repeat", cat: catDecorator, sec5: true, tick: tickRepeat, halt: haltCounter, ports: []Port{
		InputPort("num_cycles", "int"),
	}},
	{id: "RetryUntilSuccessful", cat: catDecorator, sec5: true, mirror: true, tick: tickRepeat, halt: haltCounter, ports: []Port{
		InputPort("num_attempts", "int"),
	}},
	{id: "RunOnce", cat: catDecorator, sec5: true, tick: tickRunOnce, halt: haltDecorator, ports: []Port{
		InputPort("then_skip", "bool").WithDefault("true"),
	}},
	{id: "Precondition", cat: catDecorator, sec5: true, tick: tickPrecondition, halt: haltDecorator, ports: []Port{
		InputPort("if", "string"),
		InputPort("else", "NodeStatus").WithDefault("FAILURE"),
	}},
	// TIMED.md decorators.
	{id: "Delay", cat: catDecorator, tick: tickDelay, halt: haltTimer, ports: []Port{InputPort("delay_msec", "uint")}},
	{id: "Timeout", cat: catDecorator, tick: tickTimeout, halt: haltTimer, ports: []Port{InputPort("msec", "uint")}},
	{id: "LoopInt", cat: catDecorator, tick: tickLoop, halt: haltDecorator, loop: "int", ports: loopPorts("int")},
	{id: "LoopDouble", cat: catDecorator, tick: tickLoop, halt: haltDecorator, loop: "double", ports: loopPorts("double")},
	{id: "LoopString", cat: catDecorator, tick: tickLoop, halt: haltDecorator, loop: "string", ports: loopPorts("string")},
	{id: "LoopBool", cat: catDecorator, tick: tickLoop, halt: haltDecorator, loop: "bool", ports: loopPorts("bool")},
	{id: "SkipUnlessUpdated", cat: catDecorator, tick: tickUnlessUpdated, halt: haltUnlessUpdated, notUpdated: Skipped, ports: []Port{
		InputPort("entry", "Any"),
	}},
	{id: "WaitValueUpdate", cat: catDecorator, tick: tickUnlessUpdated, halt: haltUnlessUpdated, notUpdated: Running, ports: []Port{
		InputPort("entry", "Any"),
	}},

	// README §5.3 leaves.
	{id: "AlwaysSuccess", cat: catLeaf, sec5: true, sync: true, fresh: true, tick: tickAlways, halt: haltNothing},
	{id: "AlwaysFailure", cat: catLeaf, sec5: true, sync: true, mirror: true, fresh: true, tick: tickAlways, halt: haltNothing},
	{id: "Script", cat: catLeaf, sec5: true, sync: true, fresh: true, tick: tickScript, halt: haltNothing, ports: []Port{
		InputPort("code", "string"),
	}},
	{id: "ScriptCondition", cat: catLeaf, sec5: true, cond: true, fresh: true, tick: tickScript, halt: haltNothing, ports: []Port{
		InputPort("code", "any"),
	}},
	{id: "SetBlackboard", cat: catLeaf, sec5: true, sync: true, fresh: true, tick: tickSetBlackboard, halt: haltNothing, ports: []Port{
		InputPort("value", "any"),
		InOutPort("output_key", "any"),
	}},
	{id: "UnsetBlackboard", cat: catLeaf, sec5: true, sync: true, tick: tickUnsetBlackboard, halt: haltNothing, ports: []Port{
		InputPort("key", "string"),
	}},
	// TIMED.md leaves.
	{id: "Sleep", cat: catLeaf, tick: tickSleep, halt: haltTimer, ports: []Port{InputPort("msec", "uint")}},
	{id: "WasEntryUpdated", cat: catLeaf, sync: true, tick: tickWasEntryUpdated, halt: haltNothing, ports: []Port{
		InputPort("entry", "Any"),
	}},
}

// builtinByID indexes builtinKinds.
var builtinByID = func() map[string]*kind {
	m := make(map[string]*kind, len(builtinKinds))
	for _, k := range builtinKinds {
		m[k.id] = k
	}
	return m
}()

// leafKindOf makes the row of a Go leaf registration.
func leafKindOf(r *leafReg) *kind {
	k := &kind{id: r.id, cat: catLeaf, ports: r.ports, leaf: r, tick: tickGoLeaf, halt: haltGoLeaf}
	k.sync = r.kind == leafSync
	return k
}
