// Package btcpp runs BehaviorTree.CPP 4.10 XML trees (BTCPP_format="4",
// what the Groot2 editor writes) exactly as the C++ library does, with
// persistent versions: every tick returns a new version of the tree and
// leaves the old one untouched, so a game can undo a tick, branch, replay
// and compare.
//
// A Factory holds the node types: the library's built-in nodes, and Go
// leaves registered with their ports (RegisterAction for a stateful
// action with OnStart, OnRunning and OnHalted; RegisterSync and
// RegisterCondition for one function per tick). Factory.Parse reads a
// document and runs the checks the library runs before it creates any
// node; Document.Build builds a tree and returns its first version:
//
//	f := btcpp.NewFactory()
//	f.RegisterCondition("IsDoorOpen", func(c *btcpp.Call) (btcpp.Status, error) {
//		open, err := c.Bool("open")
//		if err != nil || !open {
//			return btcpp.Failure, nil
//		}
//		return btcpp.Success, nil
//	}, btcpp.InputPort("open", "bool"))
//	doc, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree ID="Main">
//	  <Fallback><IsDoorOpen open="{door}"/><Script code="door := true"/></Fallback>
//	</BehaviorTree></root>`)
//	...
//	tree, err := doc.Build("", btcpp.WithEntry("door", false))
//	next, status, err := tree.Tick() // tree is unchanged
//
// Tick is BehaviorTree.CPP's tickExactlyOnce (one execution of the root);
// TickOnce is its tickOnce (the root executed again at once while a node
// asks to be woken up). A Go leaf is called with a *Call: the node's
// identity and its ports, read with the library's conversions (Int,
// Float, String, Bool) and written with Set. Errors are *Error, typed as
// the library's exceptions (RuntimeError, LogicError, NodeExecutionError
// with the node whose tick threw, ...); Error.What is the exception's
// message as the library words it, Error adds the type and where.
// Between two ticks, Tree.SetEntry and Tree.UnsetEntry make a version
// with an entry of a blackboard scope set or removed, as an
// application's blackboard->set and unset do.
//
// A stateful action can wait for work that finishes later, as a
// StatefulActionNode whose onStart starts it and whose ticks poll it:
// OnStart (or OnRunning) returns Call.Await with an Async of package
// behaviortree, which the game settles from any goroutine (from
// ExampleCall_Await):
//
//	err := f.RegisterAction("PlanPath", btcpp.Action{
//		OnStart: func(c *btcpp.Call) (btcpp.Status, error) {
//			plan = bt.NewAsync()
//			return c.Await(plan) // RUNNING; OnRunning is not called while it waits
//		},
//	})
//
// The node stays RUNNING until a tick sees the settlement, then returns
// its SUCCESS or FAILURE; a halt throws the Async away and calls
// OnHalted. A settlement is fixed at the first tick that looks after it,
// as in the root package, so a kept version ticked again does what it
// did. Tree.Pending lists the results a version waits for; a save keeps
// them by id, and Tree.Async finds one in the restored version.
//
// Every built-in node of BehaviorTree.CPP 4.10.0 that XML can create is
// supported: the controls (Sequence, Fallback, their Reactive, Async and
// WithMemory forms, Parallel, ParallelAll, IfThenElse, WhileDoElse,
// Switch2 to Switch6, TryCatch), the decorators (Inverter, ForceSuccess,
// ForceFailure, KeepRunningUntilFailure, Repeat, RetryUntilSuccessful,
// RunOnce, Precondition, Delay, Timeout, the Loop nodes,
// SkipUnlessUpdated, WaitValueUpdate), the leaves (AlwaysSuccess,
// AlwaysFailure, Script, ScriptCondition, SetBlackboard, UnsetBlackboard,
// Sleep, WasEntryUpdated), SubTree with its remappings and _autoremap,
// <TreeNodesModel> port defaults, the pre- and post-condition attributes
// (_failureIf, _successIf, _skipIf, _while, _onSuccess, _onFailure,
// _post, _onHalted) and the scripting language (below).
//
// The package replays every case of a corpus recorded from the C++
// library (builds, node paths, blackboard scopes, each tick's result,
// leaf calls, statuses, blackboard and errors).
//
// The project's tools take these trees too: Tree.Picture draws a version
// with package behaviortree's writers (text, DOT, Mermaid) and package
// viewer's pages (NewReplay, the live monitor's NewBTCPPFeed, bt play);
// Document.WriteXML writes a document back as canonical XML, with a
// <TreeNodesModel> for the Go leaves it uses, so that Groot2 opens it;
// Factory.CheckModels checks the Go leaves' registrations against a
// text's <TreeNodesModel>; and Factory.LeafModels lists the leaf types a
// text declares or uses, so that a tool can register stand-ins for leaves
// it has no Go code for, as bt check, fmt, render, run and play do for
// .xml files.
//
// # Scripts
//
// The ports code (Script, ScriptCondition), if (Precondition) and the
// pre- and post-condition attributes hold scripts of BehaviorTree.CPP's
// language. A script is parsed once, when the tree is built (a syntax
// error is a build error at the attribute's line and column, the message
// saying where in the script), and evaluated without parsing again.
//
// Tokens: integers (42, 0x2A), reals (1.5, 2e3), strings in single quotes
// ('ok'), true and false, names of blackboard entries (x, @x for the root
// blackboard's x from any SubTree) or of enums registered with
// Factory.Enum, and the operators below. Statements are separated by ';';
// a script's value is its last statement's.
//
// Grammar, binding powers in brackets (higher binds tighter):
//
//	script     = { ";" } statement { ";" { ";" } statement } { ";" } EOF
//	statement  = expr
//	prefix     = INT | REAL | STRING | "true" | "false" | NAME
//	           | "(" expr ")" | ("-" | "~" | "!") expr[20]
//	infix      = (":=" | "=" | "+=" | "-=" | "*=" | "/=") expr   [2]  right-associative; the left side is a NAME
//	           | "?" expr ":" expr                               [4]  a ? b : c ? d : e is a ? b : (c ? d : e)
//	           | "||" expr                                       [6]
//	           | "&&" expr                                       [8]
//	           | cmp expr { cmp expr }                           [10] chained: a < b < c
//	           | ("|" | "^") expr                                [12]
//	           | "&" expr                                        [14]
//	           | ("+" | "-" | "..") expr                         [16] ".." joins strings
//	           | ("*" | "/") expr                                [18]
//	cmp        = "==" | "!=" | "<" | ">" | "<=" | ">="
//
// The binary operators are left-associative. x := v creates the entry x
// if it does not exist; x = v and the compound forms need an existing
// entry. A value keeps the type its entry is declared with: a string
// assigned to an int entry is parsed as an int, and a value that cannot be
// converted is an error of the tick ("Error in script [...]"), typed as
// the library types it. A condition's value (ScriptCondition, Precondition's
// if, the pre-conditions) is true when it is a non-zero real or true; an
// integer must be 0 or 1, another one is an error, as in the library.
//
// # What we do differently from BehaviorTree.CPP
//
//   - Persistence. A Tree is a version: Tick returns the next one and
//     never changes its receiver. The library's tree changes in place.
//     Ticking an old version again is the same as ticking it the first
//     time (given the same Go leaves' answers and clock).
//   - Timed nodes on an injected clock. Delay, Timeout and Sleep use a
//     timer thread and the wall clock in C++. Here the clock advances only
//     between two ticks, by WithDeltaTime or WithTurnClock (without them,
//     by the wall time between the ticks), and timers fire only then, in
//     deadline order: a timer armed in tick k for d fires before the first
//     tick j with T_j - T_k >= d. A Timeout that fires halts its child
//     before the next tick starts. Where the C++ library races (a timer
//     firing during a tick, the aborted callback of a cancelled Sleep, the
//     order of two timers due together), this package chooses: never
//     inside a tick, a cancelled timer never fires, deadline order and
//     then arming order.
//   - TickOnce has a budget of root executions (WithTickBudget, 1000 by
//     default): past it, it fails with ErrBudget instead of never
//     returning (a Repeat num_cycles="-1" over a child that succeeds at
//     once).
//   - Files are read only through an fs.FS: Factory.ParseFS reads a
//     document and its <include>s from one; Parse, given a text, fails
//     on an <include> (the library reads it relative to the process's
//     working directory).
//   - A built tree has at most 1,048,576 nodes, subtrees expanded.
//   - Ports are of the types int, double, string, bool and untyped (any);
//     the built-ins also use NodeStatus and unsigned milliseconds. Values
//     of other C++ types do not exist here.
//   - A build error after some nodes were created halts the half-built
//     tree as the library's destructor does; when one of those halts
//     throws, the C++ process terminates, and Build returns an *Error of
//     type Terminate instead. So does a tick whose timer's halt throws (a
//     Timeout halting its child from the timer's thread in C++).
//   - The queue nodes (PopFromQueue, QueueSize, ConsumeQueue) and
//     ManualSelector are unknown, as they are to the library's factory.
package btcpp
