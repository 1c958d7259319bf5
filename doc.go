// Package behaviortree is a library of persistent behavior trees: every
// change to a running tree returns a new version and leaves the old one
// valid, so a game can keep versions to undo, replay, branch or save. It
// drives trees in two styles over one table of node kinds: the Elixir
// library behavior_tree 0.3.1's (Start, Value, Succeed, Fail), described
// first, and Mistreevous 4.3.1's stepped engine (NewStepped, Step),
// described under "Stepped trees".
//
// A behavior tree is a static definition, a [Node], built from leaves (the
// "behaviors", often a small string or enum type L) and inner nodes that say
// how to move between them: [Select], [Sequence], [RepeatUntilFail], [RepeatN],
// [Random] and the rest. [Start] turns a definition into a running [Tree],
// focused on one leaf. The tree only says what it wants to do next
// ([Tree.Value]); the caller does it and reports back with [Tree.Succeed] or
// [Tree.Fail], and each of those returns a new Tree, leaving the old one
// untouched. When the root itself succeeds or fails, the tree starts over from
// the root, so a tree never ends; [Tree.Status] tells whether the signal that
// made a version completed the whole tree, and how.
//
// # Persistence and its trade-offs
//
// Every Tree version is a small value (a few words) that stays valid forever
// and may be used from many goroutines at once without locks. This is what lets
// a game keep versions to undo a move, replay a match, or try both outcomes.
//
// The first Start of a definition compiles it, once, into a tree of positions
// with parent links, precomputed first descents and precomputed moves: for
// every position and outcome, where the traversal goes next, worked out up to
// the next node whose reaction depends on running state (a RepeatN counter or
// a custom node). The compiled form is cached in the root node and shared by
// every Start and every version after it. A running version then needs only:
//
//   - the focused position (which also encodes every Select, Sequence and
//     Random choice on the path, since a position knows its parent and its
//     index there);
//   - a persistent stack of RepeatN counters that differ from their initial
//     value, one cell per counting RepeatN on the path;
//   - the random state (a PCG generator stored by value);
//   - a persistent map (github.com/benbjohnson/immutable) of the state of
//     custom nodes that have changed.
//
// So a signal is a table lookup and a load, plus one step per counting RepeatN
// or custom node it passes (O(depth) at worst); it allocates nothing for
// Select, Sequence and decorators, and only a RepeatN count, a random draw or
// a custom node's state change costs an allocation. The width of a node never
// matters, and nothing recurses, so a chain of 100,000 decorators works. The
// price is the one-time O(size) compilation per definition and the memory of
// the compiled copy (about 130 bytes per node with string leaves).
//
// The running state can be saved and restored ([Tree.MarshalBinary],
// [Restore]), and a [History] keeps a timeline of versions with undo and
// redo.
//
// # Memory: what a version holds, and what it does not
//
// A version holds the tree's running state and the agent's [Memory]: a
// persistent map of keys to values (a blackboard) that the agent reads and
// writes. Undo, replay, branching and saving cover exactly that. With the
// Value/Succeed/Fail style, a handler reads [Tree.Memory] of the version
// it acts for and reports with [Tree.WithMemory] (or
// [History.SignalWith]). With a stepped tree, the agent's memory forms
// ([Agent] MemoryAction and the others, or the Memory maps of
// [Functions]) get the step's [Blackboard]; MDSL's $name arguments read
// memory first. Declare keys with [NewKey] to read and write them typed.
//
// The game world is not in a version: it is the caller's. Put what the
// AI decides from into memory (the target, the turns left in an attack,
// the waypoint it walks to), or keep a snapshot of the world beside each
// version (a History of the game's own values), so that an undo brings
// both back. An agent that keeps state in its own variables instead goes
// out of step with an undone or restored tree.
//
// # Layout
//
// One file per concern: kinds.go is the table of node kinds (names, arity,
// parameters and their checks, how they print), which the constructors
// (node.go, continually.go, random.go, parallel.go, attrs.go), [Build],
// every reader and writer and package proptest read. compile.go compiles a
// definition for the Value/Succeed/Fail style into a transition table, and
// holds that style's runtime rule of every kind ([pos.ended]); zipper.go is
// the persistent cursor over it, tree.go the [Tree] version, parallel.go
// its frontier of several focused leaves, custom.go the custom nodes.
// stepped_compile.go and stepped.go are the stepped engine. json.go (with
// internal/jsonscan) reads and writes the Elixir JSON form; packages
// mistreevous and mdsl the Mistreevous JSON and MDSL text forms. state.go and saved.go save and restore running versions,
// history.go keeps timelines of them, and render*.go draws trees.
//
// # Parallel branches
//
// [Parallel], [Race] and [Threshold] enter all of their children at once in
// the Value/Succeed/Fail style, as BehaviorTree.CPP's M-of-N Parallel:
// [Tree.Frontier] lists the focused leaves, [Tree.SignalAt] answers one of
// them, [Tree.Halted] tells which branches a resolution stopped, and
// [Tree.Value], [Tree.Succeed] and [Tree.Fail] act on the first leaf of the
// frontier. A version whose parallel node is running cannot be saved yet.
//
// # Semantics
//
// The traversal is exactly Elixir behavior_tree 0.3.1's, checked against a
// corpus of 2,000 traces recorded from the real library (testdata/). Elixir's
// names are kept in the docs and in JSON: Continually is repeat_until_fail.
//
// Randomness is part of the value: [WithSeed] fixes it, and the same version
// given the same signal always gives the same result.
//
// # Stepped trees: the Mistreevous engine
//
// Besides the Elixir-style driving of a [Tree] (Start, Value, Succeed,
// Fail), the package runs trees the way Mistreevous 4.3.1, BehaviorTree.CPP
// and go-behaviortree do: [NewStepped] makes a [Stepped] version whose
// leaves call an [Agent], and [Stepped.Step] updates the whole tree once
// (one tick), returning a new version. Actions may run for several steps
// (Running) or complete later ([Async]); guards ([While], [Until]) abort
// running work when the world changes; [Parallel], [Race] and [All] run
// children side by side; [Wait] measures time; [Lotto] draws;
// [Repeat] and [Retry] loop; [Entry], [OnStep] and [Exit] callbacks
// observe. The semantics are exactly Mistreevous 4.3.1's, checked event
// for event against the 1,500 cases recorded from the real library
// (testdata/mistreevous-4.3.1.jsonl.gz; mistreevous_conformance_test.go).
//
// Layout. The kinds are rows of the table of kinds (kinds.go), with their
// Mistreevous JSON names: a [Leaf] is Mistreevous's action (the game does
// it and reports back), Select is the selector, Negate is flip,
// AlwaysSucceed and AlwaysFail are succeed and fail, and KindRoot,
// KindCondition, KindWait, KindParallel, KindRace, KindAll, KindLotto,
// KindRepeat and KindRetry are the stepped-only kinds (attrs.go holds
// their constructors and the attributes). stepped_compile.go compiles a
// definition once into flat arrays in preorder, cached in the root node
// as compile.go caches the Elixir program; stepped.go is the engine, its
// general rules of every kind (update, run) and the fast paths of a step
// without events; stepped_fresh.go updates subtrees known to be all READY
// (after a reset), with compiled moves where the subtree is made of
// sequences, selects, decorators and leaves; stepped_memo.go is the step
// cache of small trees; package mistreevous reads and writes Mistreevous
// JSON definitions (mistreevous.Parse, mistreevous.Marshal), whose leaves
// are [Call]s run by a [Functions] registry (call.go).
//
// State. A version is four words: the shared machine (program, agent,
// options), the node states inline (2 bits per node, for trees of up to
// 32 nodes), a pointer to an immutable word array, and a pointer (nil
// for most versions) to the persistent list of pending async results and
// the agent's memory. The word array holds, for trees of more than
// 32 nodes, the node states (2 bits each: 511 nodes are 128 bytes), then
// two words for each node that keeps something between steps (a bounded
// repeat's or retry's count and target, a bounded wait's time waited and
// total, a lotto's pick; numbered at compile time, only for such nodes),
// then the seed of the version's own generator if anything draws. A step
// copies the array at its first write (copy on write), so old versions
// never change, and a step that writes nothing allocates nothing: workload
// (a) of issue 10 allocates nothing per step and keeps 32 bytes per
// version; workload (b), which completes and resets 511 nodes per step,
// allocates its 128-byte array and keeps 160 bytes per version. Preorder
// makes every subtree a contiguous range of states, so a reset is a masked
// clear of a bit range, and the extras of a node are read only while the
// node is not READY (they are set up afresh when it starts), so a reset
// need not touch them. Chunked path copying for very big trees is not
// done: a step of a tree of n nodes that writes a state copies n/4 bytes.
//
// Speed. A step with events runs the general rules, which emit each
// event as it happens. A step without events takes three shortcuts, each
// checked against the general rules by the conformance test (the corpus
// replayed without events, comparing the agent's calls and every node's
// state) and by proptest's law S5:
//   - The step cache (stepped_memo.go). A tree of at most 32 nodes with
//     nothing but node states to keep (no lotto, no counted, ranged or
//     timed node) steps as a function of its state word and of the
//     agent's answers. The cache keeps, for each start word, the trie of
//     the calls the step makes, answer by answer, down to the word it
//     ends in, so a step is one table probe and then only the agent's
//     calls. The engine fills it as steps miss, and replays its rules
//     with the answers given so far (calling nothing twice) when a step
//     meets an answer the trie lacks. It is shared by every version and
//     goroutine of the definition, and bounded (512 start words, 4,096
//     calls: a 4 KB table, and at most about half a megabyte of calls for
//     [Call] leaves); past the bound, a missing step runs the rules.
//   - Fresh evaluation (stepped_fresh.go). After a reset (the root's when
//     the tree had completed, or a pure Fluent subtree's), every state below is
//     READY, so the engine writes states without reading them. Where the
//     subtree is made of sequences, selects (and the Fluent reactive
//     ones), decorators, actions and conditions, what follows each leaf's
//     outcome is compiled into a move (the states it decides and the next
//     leaf), so there is no recursion and no decision between two calls.
//   - Specialised updates of small and big trees (updSmall, updBig) for
//     the kinds most trees are made of.
//
// A version saves to a compact binary form ([Stepped.MarshalBinary]: node
// states, extras, generator) and restores onto any version of the same
// definition ([Stepped.Restore], which checks a fingerprint of the
// compiled definition and every state and extra, and never panics); a
// pending async result makes saving fail ([ErrPendingAsync]).
//
// Agents, events, errors. The [Agent] is typed and explicit (no
// reflection): Action, Condition (for conditions and guards), Entry, Step
// and Exit functions of the leaf type, checked at NewStepped (a function
// the definition needs and the agent lacks is an error).
// [Functions.Agent] checks every name a [Call] tree uses against its
// registry. [Stepped.StepWith] reports every agent call and state change
// as an [Event] value, in exactly the order of the calls; Step without
// events pays nothing for them. An agent function that panics, an action
// that returns an invalid Result, or an injected random or delta-time
// function that returns a bad value makes Step return an error naming the
// node; the version stepped is unchanged and still valid.
//
// Randomness and time. By default a stepped tree draws from its own
// generator (splitmix64), seeded by [WithSeed] or at random, and
// kept in the version, so the same version stepped again draws the same;
// [WithRandom] injects Mistreevous's random(). Waits read the wall clock
// by default (as Mistreevous without getDeltaTime), [WithDeltaTime]
// injects getDeltaTime, and [WithTurnClock] advances a fixed number of
// seconds per update, so that replays are exact. Floating point is
// computed as in JavaScript (no fused multiply-add).
//
// The two engines. Elixir-only kinds (Continually, RepeatUntilSucceed,
// RepeatN, Random, RandomWeighted, custom nodes) are refused by
// NewStepped with an error naming the node; stepped-only kinds and
// attributes are refused by [Start], which panics naming the kind
// ("behaviortree.Start: wait nodes need the stepped engine (use
// NewStepped)"). The check is one flag, computed by the constructors, read
// once per Start: the Elixir hot path (Value, Succeed, Fail) is untouched.
//
// Limits. Stepped trees are at most 4,096 levels deep (the engine updates
// recursively); Mistreevous definitions have at most mistreevous.MaxNodes
// nodes once branches are expanded, calls at most mistreevous.MaxArgs arguments, and
// names and strings at most mistreevous.MaxStringBytes bytes.
//
// Departures from Mistreevous (none in the corpus's behaviour): a
// definition that is not a [Root] runs as if wrapped in one; the default
// randomness is the version's own seeded generator, not Math.random; an
// agent's failure is an error from Step with the previous version intact,
// where Mistreevous leaves a half-updated tree and throws; an Async has
// no rejection (a failing action settles with Fail, or panics); exit
// callbacks get (value, succeeded, aborted) rather than an object first;
// conditions, callbacks and exits live in separate maps of [Functions]
// (one name may serve as action and condition); globally registered
// functions and subtrees are not supported; mistreevous.Marshal writes
// branches expanded; a random() outside [0, 1) is an error.
//
// # Text definitions
//
// Package mdsl reads and writes trees as MDSL text, the definition
// language of Mistreevous 4.3.1 (mdsl.Parse, mdsl.ParseFunc, mdsl.Format,
// mdsl.FormatSource), and package mistreevous its JSON definitions
// (mistreevous.Parse, mistreevous.Marshal); both build trees with this
// package's constructors, and read the MDSL keyword of each kind from
// [Kind.MDSL].
package behaviortree
