// Package fluent builds behavior trees with the calls of
// FluentBehaviourTree, the C# library
// (github.com/codecapers/Fluent-Behaviour-Tree, its last commit), and runs
// them exactly as it does. A [Builder] has the library's calls (Sequence,
// Selector, Parallel, Inverter, Do, Condition, Splice, End, Build), typed
// for Go (and DoWith and ConditionWith, for leaves that use the tree's
// memory), and builds an ordinary bt.Node of leaf type bt.Fluent; [New]
// runs it on the stepped engine of package behaviortree (imported here as
// bt), and bt.Stepped.Tick is the library's Tick(TimeData):
//
//	tree, err := fluent.NewBuilder().
//		Selector("root").
//		Sequence("work").
//		Condition("rested", func(bt.TimeData) bool { return energy > 0 }).
//		Do("dig", func(td bt.TimeData) bt.Status {
//			energy--
//			fmt.Println("dig for", td.DeltaTime)
//			return bt.Running
//		}).
//		End().
//		Do("sleep", func(bt.TimeData) bt.Status {
//			energy = 2
//			fmt.Println("sleep")
//			return bt.Success
//		}).
//		End().
//		Build()
//
// Since the tree is a stepped tree like any other, histories, saving,
// pictures and events work for it, and it may sit inside a larger stepped
// tree.
//
// # Every node starts again from its first child at every tick
//
// A Fluent node keeps nothing between ticks: at every tick, every
// Sequence, Selector and Parallel ticks its children again from the
// first. A Sequence asks its first condition again even while its second
// child is running, and a running child is left, without a call, as soon
// as an earlier child decides otherwise. In the tree above, "rested" is
// asked at every tick, and "dig" is left the moment it returns false.
// That is FluentBehaviourTree's semantics (and BehaviorTree.CPP's
// ReactiveSequence), and this package keeps it exactly.
//
// If a node should keep its place between ticks (resume the child that
// was running, as most behavior tree libraries do), build that part with
// bt.Sequence and bt.Select instead, and run it with [New] alone or
// spliced into a Builder's tree ([Builder.Splice]); from Example_resume:
//
//	t, err := fluent.New(bt.Sequence(rested, dig)) // bt.Sequence keeps its place; Builder.Sequence does not
//
// # Nodes
//
// The Builder makes nodes of these kinds of package behaviortree, whose
// rules live in its stepped engine:
//
//   - Sequence is a bt.ReactiveSequence and Selector a bt.ReactiveSelect:
//     every tick updates the children from the first, and the first child
//     that does not go on (Failure or Running for a sequence, Success or
//     Running for a selector) decides. An empty sequence succeeds and an
//     empty selector fails.
//   - Parallel(name, failN, succeedN) is a bt.ReactiveParallel: every tick
//     updates every child, then counts the successes and failures of that
//     tick only; succeedN successes succeed (checked first), failN
//     failures fail, and a count of 0 or less switches that outcome off.
//     Children still running are never stopped.
//   - Inverter is a bt.Negate (which passes Running through), or, without
//     a child, a bt.EmptyInverter, whose tick fails with
//     bt.ErrEmptyInverter ("InverterNode must have a child node!").
//   - Do is a bt.Leaf (an action) and Condition a bt.Condition; both call
//     the function in their bt.Fluent value with the tick's bt.TimeData,
//     whose DeltaTime is a time.Duration: the library's float of seconds
//     is DeltaTime.Seconds().
//
// # Leaves with memory or an async result; an exit hook through Agent
//
// Do and Condition take the tick's bt.TimeData and return a bt.Status or
// a bool, as the library's leaves do. DoWith and ConditionWith take the
// step's *bt.Blackboard instead, the handle a stepped agent's memory
// forms get: through it a leaf reads and writes the memory that every
// version of the tree carries (kept by undo, saved with the version),
// and gets the tick's TimeData (b.TimeData()); and DoWith returns a
// bt.Result, which may be a pending bt.Async that the game settles
// later, where Do would poll with Running; from Example_memory:
//
//	tree, err := fluent.NewBuilder().
//		Sequence("report").
//		DoWith("count", func(b *bt.Blackboard) bt.Result {
//			n, _ := ticks.Get(b)
//			ticks.Put(b, n+1)
//			return bt.ResultSuccess
//		}).
//		DoWith("radio", func(b *bt.Blackboard) bt.Result {
//			call = bt.NewAsync() // the game settles it later
//			return call.Result()
//		}).
//		End().
//		Build()
//
// A Wait spliced into a tree (bt.Wait) counts the ticks' DeltaTime when
// the tree has no clock option (bt.WithTurnClock, bt.WithDeltaTime); see
// Example_wait and bt.Stepped.Tick.
//
// The Builder has no exit (halt) hook, as FluentBehaviourTree has none,
// though the engine does abort a running leaf that a Sequence or Selector
// stops reaching. For one, run the tree with bt.NewStepped and an agent
// made from [Agent] (or [MemoryAgent], when a leaf takes the Blackboard)
// whose Exit stops the work, and give the leaves that need it attr.Exit
// (see ExampleAgent): Exit is then called with aborted set when a leaf is
// left running.
//
// # Errors and departures
//
// The first misuse of a Builder is kept, and Build returns it: a
// fluent.Error with the library's exception class and message, and the
// index of the call. A conformance test replays 1,000 cases recorded from
// the real library: the same leaf calls in the same order, with the same
// deltas, the same status or error at every tick, and the same builder
// errors at the same call.
//
// Where the C# builder silently accepts a likely mistake, a Builder
// refuses with a fluent.Error whose Strict field is set:
//
//   - Build while nodes are still open (C# returns the node that was ended
//     last, an inner node, and ignores the open ones);
//   - a second top-level tree after the first was ended (C# builds both and
//     returns the one ended last);
//   - Build called a second time (C# returns the same tree again, or a later
//     one);
//   - Do or Condition (or DoWith, ConditionWith) with a nil function (C#
//     fails only at the tick);
//   - a tree of more than 67,108,864 places (C# has no limit).
package fluent
