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
// how to move between them: [Select], [Sequence], [Continually], [RepeatN],
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
// stepped_compile.go and stepped.go are the stepped engine. json.go and
// jsonscan.go read and write the Elixir JSON form, mistreevous.go the
// Mistreevous JSON form, mdsl*.go the MDSL text form (lexer, parser,
// printer). state.go and saved.go save and restore running versions,
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
// as compile.go caches the Elixir program; stepped.go is the engine's
// API, stepped_rules.go its rules of every kind (DESIGN.md, "Engine",
// lists the fast paths); stepped_fresh.go updates subtrees known to be all READY
// (after a reset), with compiled moves where the subtree is made of
// sequences, selects, decorators and leaves; stepped_memo.go is the step
// cache of small trees; mistreevous.go reads and writes Mistreevous JSON definitions
// ([ParseMistreevous], [MarshalMistreevous]), whose leaves are [Call]s run
// by a [Functions] registry (call.go).
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
// generator (splitmix64), seeded by [WithRandomSeed] or at random, and
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
// recursively); Mistreevous definitions have at most [MaxMistreevousNodes]
// nodes once branches are expanded, calls at most [MaxArgs] arguments, and
// names and strings at most [MaxStringBytes] bytes.
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
// functions and subtrees are not supported; [MarshalMistreevous] writes
// branches expanded; a random() outside [0, 1) is an error.
//
// # Text definitions: MDSL
//
// Trees can be written as text in MDSL, the definition language of
// Mistreevous 4.3.1, which its online visualiser and editor read:
//
//	root {
//	    sequence while(HasAmmo) {
//	        action [Aim, $target]
//	        wait [500]
//	        action [Fire, 2, "left"] exit(Reload)
//	    }
//	}
//
// [ParseMDSL] reads a text into a tree of [Call]s exactly as Mistreevous
// does, and [ParseMDSLFunc] reads one whose leaves are plain values of your
// own type (the Elixir-style trees of [Start]). [FormatMDSL] and
// [FormatMDSLFunc] print a tree in the canonical form, and
// [FormatMDSLSource] reformats a text, keeping its named roots, branches
// and comments (the `bt fmt` command, cmd/bt).
//
// The grammar, as Mistreevous 4.3.1 reads it:
//
//	definition = root+                                   (one without a name: the main tree)
//	root       = "root" ("[" Name "]")? attr* "{" node "}"
//	node       = composite | decorator | leaf | "branch" "[" Name "]"
//	composite  = ("sequence" | "selector" | "parallel" | "race" | "all") attr* "{" node+ "}"
//	           | "lotto" ("[" weight ("," weight)* "]")? attr* "{" node+ "}"
//	decorator  = ("flip" | "succeed" | "fail") attr* "{" node "}"
//	           | ("repeat" | "retry") ("[" n "]" | "[" min "," max "]")? attr* "{" node "}"
//	leaf       = ("action" | "condition") "[" Name ("," value)* "]" attr*
//	           | "wait" ("[" ms "]" | "[" min "," max "]")? attr*
//	attr       = ("while" | "until") "(" Name ("," value)* ")" ("then" ("succeed" | "fail"))?
//	           | ("entry" | "step" | "exit") "(" Name ("," value)* ")"
//	value      = "null" | "true" | "false" | number | string | "$" property
//
// Every [ ] may be written ( ) and the other way round. Keywords are
// compared without case (after JavaScript's toUpperCase, so "ROOT",
// "Sequence" and even "ſequence" are keywords); null, true and false are
// lower case. A number is what JavaScript's Number reads in decimal: -2.5,
// .5, +1, 1e3, 5. (counts, weights and durations must be integers as
// Mistreevous decides it, parseFloat(x) === parseInt(x, 10), so 1e3 is not
// one). A string is "..." with no line break after a backslash; its first
// \" stands for a quote and every other character stands for itself (so
// "a\tb" is four characters, as in Mistreevous). A Name is any other word:
// anything up to white space or one of ( ) { } [ ] , and a $ followed by a
// letter or _ starts a property reference ([Property]). /* comments */ may
// go anywhere, even inside a word or a string: they are deleted first. Any
// number of attributes may follow a node, in any order, each once.
// Arguments of a call after its name must not be names ("invalid action
// argument value 'B', must be string, number, boolean, agent property
// reference or null").
//
// Branches are expanded as [ParseMistreevous] expands them: each branch
// [Name] becomes the child of root [Name] (that root's own attributes are
// ignored), a fresh copy at every place; an unknown name or a cycle is an
// error, and so is a named root that is never used but invalid. The limits
// are those of Mistreevous definitions: [MaxMistreevousNodes] nodes once
// expanded, [MaxMistreevousDepth] levels of nesting (the parser uses an
// explicit stack and refuses deeper texts; the builder recurses at most
// that deep), [MaxArgs] arguments, [MaxStringBytes] per name or string,
// [MaxMDSLBytes] of text.
//
// Our own kinds. Where Mistreevous has a node with the same semantics, its
// keyword is used; the others have keywords of their own in the same
// syntax (one table, mdslKeywords):
//
//	kind                      keyword                 arguments
//	Leaf                      action [Name, ...]      (a leaf: its call, or one value for ParseMDSLFunc)
//	Condition                 condition [Name, ...]
//	Select                    selector
//	Sequence                  sequence
//	Negate                    flip                    (Mistreevous's flip is Negate)
//	AlwaysSucceed             succeed
//	AlwaysFail                fail
//	Continually               repeat_until_fail       (Mistreevous's repeat fails when its child fails: another kind)
//	RepeatUntilSucceed        repeat_until_succeed    (Mistreevous's retry fails after its attempts, or never ends)
//	RepeatN                   repeat_n [n]            n >= 2
//	Random                    random                  (Mistreevous's lotto is the stepped engine's, with its own draws)
//	RandomWeighted            random_weighted [w, ...] one weight >= 1 per child
//	Threshold                 threshold [s, f]        success and failure counts (negative: all but k)
//	Root, Wait, Parallel, Race, All, Lotto, Repeat, Retry: root, wait, parallel, race, all, lotto, repeat, retry
//
// Custom nodes have no text form. These keywords are the only thing the
// parser reads that Mistreevous would not: a text without them is plain
// Mistreevous MDSL.
//
// Leaves of Elixir-style trees. [ParseMDSLFunc] takes a function from a
// leaf's text to your leaf type; a leaf (and an attribute) is then one
// identifier or one string: action [go_right] or action ["go right"].
//
// Errors are [*MDSLError]s with the file name, line and column (in bytes,
// from 1), and the line quoted with a caret under the column:
//
//	bot.mdsl:3:9: repeat takes one child, got 2
//	        action [B]
//	        ^
//
// Departures, all refusals of texts Mistreevous takes: a string touching a
// word (`a"b"`, which Mistreevous reads as the name a@@0@@), a word
// @@digits@@, the number forms Infinity, 0x.., 0o.. and 0b.. (which
// Mistreevous reads as Infinity and 0), a comma in place of a name
// (`action [,]`), an unterminated string (which Mistreevous leaves as
// characters of a name), and invalid UTF-8.
package behaviortree
