package btcpp

import btkind "github.com/zipbt/behaviortree/kind"

// The table of kinds: one row per built-in node type of BehaviorTree.CPP
// 4.10.0 (a kind.CPP), and one per Go leaf registered in a Factory. A
// built-in's public facts (its ID, category, how many children its XML
// element may have, its ports) are package kind's: its row here names its
// kind.CPP, and withFacts copies them in when the package starts. The
// row adds the kind's rule (tick and halt, each a function of tick.go)
// and what only this engine needs. Every other part of the package reads
// a kind's facts from its row.

// category is the category of a kind of node: package kind's, whose
// values a saved tree's fingerprint writes.
type category = btkind.Category

// The categories.
const (
	catLeaf      = btkind.CategoryLeaf
	catDecorator = btkind.CategoryDecorator
	catControl   = btkind.CategoryControl
	catSubTree   = btkind.CategorySubTree
)

// kind is a row of the table.
type kind struct {
	// cpp is the built-in's node type, whose facts fill id, cat, minKids
	// and ports (withFacts); 0 for a Go leaf, whose registration fills
	// them.
	cpp btkind.CPP
	id  string
	cat category
	// minKids is the least number of children of a control (1, or 2 for
	// TryCatch); decorators have exactly one and leaves none.
	minKids int
	ports   []Port
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
	// loops marks the Loop nodes; loop is their element type ("int",
	// ...), their value port's (withFacts).
	loops bool
	loop  string
	// timed marks the nodes that run on the tree's clock (Delay, Timeout,
	// Sleep: TIMED.md); watches marks those that keep the sequence number
	// of an entry they saw (WasEntryUpdated, SkipUnlessUpdated,
	// WaitValueUpdate). Both keep a nodeExt in each version, as the Loop
	// nodes do (hasExt).
	timed, watches bool
	// script is the port whose text is a script, parsed when the tree is
	// built ("code" for Script and ScriptCondition, "if" for
	// Precondition), "" for the other kinds.
	script string
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
var subtreeKind = withFacts(&kind{cpp: btkind.CPPSubTree, tick: tickSubTree, halt: haltDecorator})[0]

// builtinKinds lists the built-in kinds of BehaviorTree.CPP 4.10.0 that
// XML can create. The queue nodes (PopFromQueue, QueueSize, ConsumeQueue)
// and ManualSelector are not registered by the library's factory
// (TIMED.md §8), so they are unknown here too.
var builtinKinds = withFacts([]*kind{
	// README §5.1 controls.
	{cpp: btkind.CPPSequence, fresh: true, tick: tickSequence, halt: haltSequence},
	{cpp: btkind.CPPFallback, mirror: true, fresh: true, tick: tickSequence, halt: haltSequence},
	{cpp: btkind.CPPAsyncSequence, yield: true, tick: tickSequence, halt: haltSequence},
	{cpp: btkind.CPPAsyncFallback, mirror: true, yield: true, tick: tickSequence, halt: haltSequence},
	{cpp: btkind.CPPSequenceWithMemory, memory: true, yield: true, tick: tickSequence, halt: haltSequenceWithMemory},
	{cpp: btkind.CPPSequenceStar, memory: true, yield: true, tick: tickSequence, halt: haltSequenceWithMemory},
	{cpp: btkind.CPPReactiveSequence, tick: tickReactive, halt: haltControl},
	{cpp: btkind.CPPReactiveFallback, mirror: true, tick: tickReactive, halt: haltControl},
	{cpp: btkind.CPPParallel, tick: tickParallel, halt: haltParallel},
	{cpp: btkind.CPPParallelAll, tick: tickParallelAll, halt: haltParallel},
	{cpp: btkind.CPPIfThenElse, tick: tickIfThenElse, halt: haltCounter},
	{cpp: btkind.CPPWhileDoElse, tick: tickWhileDoElse, halt: haltControl},
	{cpp: btkind.CPPSwitch2, tick: tickSwitch, halt: haltCounter},
	{cpp: btkind.CPPSwitch3, tick: tickSwitch, halt: haltCounter},
	{cpp: btkind.CPPSwitch4, tick: tickSwitch, halt: haltCounter},
	{cpp: btkind.CPPSwitch5, tick: tickSwitch, halt: haltCounter},
	{cpp: btkind.CPPSwitch6, tick: tickSwitch, halt: haltCounter},
	// TIMED.md §8 controls.
	{cpp: btkind.CPPTryCatch, tick: tickTryCatch, halt: haltTryCatch},

	// README §5.2 decorators.
	{cpp: btkind.CPPInverter, onChild: mapped(Running, Failure, Success, Skipped), tick: tickMapped, halt: haltDecorator},
	{cpp: btkind.CPPForceSuccess, onChild: mapped(Running, Success, Success, Skipped), tick: tickMapped, halt: haltDecorator},
	{cpp: btkind.CPPForceFailure, onChild: mapped(Running, Failure, Failure, Skipped), tick: tickMapped, halt: haltDecorator},
	{cpp: btkind.CPPKeepRunningUntilFailure, onChild: mapped(Running, Running, Failure, Running), tick: tickMapped, halt: haltDecorator},
	{cpp: btkind.CPPRepeat, tick: tickRepeat, halt: haltCounter},
	{cpp: btkind.CPPRetryUntilSuccessful, mirror: true, tick: tickRepeat, halt: haltCounter},
	{cpp: btkind.CPPRunOnce, tick: tickRunOnce, halt: haltDecorator},
	{cpp: btkind.CPPPrecondition, script: "if", tick: tickPrecondition, halt: haltDecorator},
	// TIMED.md decorators.
	{cpp: btkind.CPPDelay, timed: true, tick: tickDelay, halt: haltTimer},
	{cpp: btkind.CPPTimeout, timed: true, tick: tickTimeout, halt: haltTimer},
	{cpp: btkind.CPPLoopInt, tick: tickLoop, halt: haltDecorator, loops: true},
	{cpp: btkind.CPPLoopDouble, tick: tickLoop, halt: haltDecorator, loops: true},
	{cpp: btkind.CPPLoopString, tick: tickLoop, halt: haltDecorator, loops: true},
	{cpp: btkind.CPPLoopBool, tick: tickLoop, halt: haltDecorator, loops: true},
	{cpp: btkind.CPPSkipUnlessUpdated, watches: true, tick: tickUnlessUpdated, halt: haltUnlessUpdated, notUpdated: Skipped},
	{cpp: btkind.CPPWaitValueUpdate, watches: true, tick: tickUnlessUpdated, halt: haltUnlessUpdated, notUpdated: Running},

	// README §5.3 leaves.
	{cpp: btkind.CPPAlwaysSuccess, sync: true, fresh: true, tick: tickAlways, halt: haltNothing},
	{cpp: btkind.CPPAlwaysFailure, sync: true, mirror: true, fresh: true, tick: tickAlways, halt: haltNothing},
	{cpp: btkind.CPPScript, script: "code", sync: true, fresh: true, tick: tickScript, halt: haltNothing},
	{cpp: btkind.CPPScriptCondition, script: "code", cond: true, fresh: true, tick: tickScript, halt: haltNothing},
	{cpp: btkind.CPPSetBlackboard, sync: true, fresh: true, tick: tickSetBlackboard, halt: haltNothing},
	{cpp: btkind.CPPUnsetBlackboard, sync: true, tick: tickUnsetBlackboard, halt: haltNothing},
	// TIMED.md leaves.
	{cpp: btkind.CPPSleep, timed: true, tick: tickSleep, halt: haltTimer},
	{cpp: btkind.CPPWasEntryUpdated, sync: true, watches: true, tick: tickWasEntryUpdated, halt: haltNothing},
}...)

// withFacts fills each row's public facts from its kind.CPP (id, cat,
// minKids, ports), and a Loop node's element type from its value port,
// and returns the rows.
func withFacts(ks ...*kind) []*kind {
	for _, k := range ks {
		k.id, k.cat, k.minKids = k.cpp.ID(), k.cpp.Category(), 0
		if k.cat == catControl {
			k.minKids = k.cpp.MinChildren()
		}
		k.ports = nil
		for _, p := range k.cpp.Ports() {
			k.ports = append(k.ports, Port{Name: p.Name, Dir: portDirs[p.Dir], Type: p.Type, Default: p.Default, HasDefault: p.HasDefault})
			if k.loops && p.Name == "value" {
				k.loop = p.Type
			}
		}
	}
	return ks
}

// portDirs maps package kind's port directions to the package's.
var portDirs = [...]PortDir{btkind.PortIn: In, btkind.PortOut: Out, btkind.PortInOut: InOut}

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

// isBuiltinID reports whether id is the ID of a built-in node type (a
// SubTree's included), which a Go leaf may not take.
func isBuiltinID(id string) bool {
	_, ok := btkind.CPPByID(id)
	return ok
}
