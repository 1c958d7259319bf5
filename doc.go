// Package behaviortree is a library of persistent behavior trees for game
// AI. Every step of a tree returns a new version and leaves the old one
// valid: a version is a small value that may be kept, shared between
// goroutines, undone to, branched from, or saved. A version holds the
// tree's running state and the agent's memory (a [memory.Map]), so undo,
// replay and saving cover what the AI remembers too.
//
// # Choose a style
//
// Three ways to drive a tree run over one table of node kinds, one
// persistent state, one [Saved] form and one renderer:
//
//   - Stepped (the style to begin with): [NewStepped] makes a [Stepped] version whose
//     leaves call an [Agent]; [Stepped.Step] ticks the whole tree once.
//     Actions may run for several steps or settle later ([Async]), guards
//     ([attr.While], [attr.Until]) abort running work, [Parallel], [Race] and [All]
//     run children side by side, [Wait] counts time. The semantics are
//     exactly Mistreevous 4.3.1's, and the model is BehaviorTree.CPP's and
//     go-behaviortree's. Definitions come from Go constructors, MDSL text
//     (package mdsl) or Mistreevous JSON (package mistreevous).
//   - Value/Succeed/Fail: [Start] makes a [Tree] that names the behavior
//     it wants done next ([Tree.Value]); the game does it whenever it likes
//     and reports with [Tree.Succeed] or [Tree.Fail]. The semantics are
//     exactly those of the Elixir library behavior_tree 0.3.1. Use it when
//     the handlers live far from the tree: over a network, in a UI, in a
//     turn that ends later.
//   - Fluent: package fluent builds trees with FluentBehaviourTree's
//     calls and runs them on the stepped engine ([Stepped.Tick]). Its
//     nodes start again from their first child at every tick.
//
// A stepped NPC that walks, waits, and attacks while an enemy is near
// (from Example_stepped; each turn, the game calls npc.Step()):
//
//	agent := bt.Agent[string]{
//		Action:    func(a string) bt.Result { fmt.Println(a); return bt.ResultSuccess }, // the game acts
//		Condition: func(c string) bool { return enemyNear },                             // the game answers
//	}
//	def := bt.Root(bt.Select(
//		bt.Leaf("attack").With(attr.While("enemy near")),
//		bt.Sequence(bt.Leaf("walk"), bt.Wait[string](200*time.Millisecond)),
//	))
//	npc, err := bt.NewStepped(def, agent, bt.WithTurnClock(100*time.Millisecond))
//
// The runnable examples (Example_npc first) show the rest: undo with a
// [History], saving with [Stepped.Save], memory through a
// [Blackboard].
//
// # Versions, memory and saving
//
// A version stays valid forever and may be used from many goroutines at
// once without locks. [History] keeps timelines of
// versions with undo and redo. [Tree.Save] and [Stepped.Save] return a
// [Saved], which marshals to JSON or binary on its own and restores with
// its definition ([Saved.Restore], [Saved.RestoreStepped]). The game world
// is not in a version: put what the AI decides from into its memory, or
// keep a snapshot of the world beside each version, so that an undo
// brings both back.
//
// # Errors and panics
//
// Constructors of definitions in Go code ([Sequence], [Wait], [Lotto] and
// the rest) panic on misuse, with a message that names the constructor,
// as regexp.MustCompile does. Everything that reads outside data (MDSL and
// JSON definitions, saved states) returns an error that says what was
// wrong and where, and never panics. A style given a node it cannot run
// says so in the same words, naming the node: [NewStepped], which returns
// an error for its other failures too, returns it; [Start], which has no
// error to return, panics with it (that mistake is in the code: readers
// never give it such a node, since [ParseJSON] reads only the kinds Start
// runs and every MDSL or Mistreevous tree has a Root). An agent function
// that panics or returns an invalid result makes [Stepped.Step] return an
// error, and the version stepped stays valid.
//
// # Time and randomness
//
// Anything random or timed takes an explicit source. [WithSeed] seeds a
// tree's own generator, kept in every version, so the same version given
// the same input always gives the same result; [WithRandom] injects
// Mistreevous's random(). Waits count [time.Duration]s: [WithTurnClock]
// advances a fixed time per step, [WithDeltaTime] takes the game's own
// clock, and without either a wait reads the wall clock, as Mistreevous
// does. A wait counts the step that starts it (see ExampleWithTurnClock).
//
// # Observing and drawing
//
// [Stepped.StepWith] reports every agent call and state change as an
// [Event], in the order of the calls; package observe prints them as
// `bt run` does (observe.NewLogger) and counts updates, successes and
// failures per node (observe.Stats).
// [Tree.Picture] and [Stepped.Picture] draw a version as text, Graphviz
// DOT or Mermaid.
//
// # Conformance
//
// Each style is checked against a corpus recorded from the library it
// follows: 2,000 Elixir traces, 1,500 Mistreevous cases (every event, in
// order) and 1,000 FluentBehaviourTree cases. Departures, all refusals of
// likely mistakes or documented additions, are listed where they apply.
// How the engines work, and why, is in DESIGN.md.
package behaviortree
