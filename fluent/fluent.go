package fluent

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/hook"
)

// nameFresh gives nd, just built by the Builder and held by nothing else,
// its name, in place (the library has no public way to name a node).
func nameFresh(nd bt.Node[bt.Fluent], name string) bt.Node[bt.Fluent] {
	return bt.InternalFill(hook.Module, nd, hook.Fill[bt.Fluent]{Name: name})
}

// agent runs Fluent leaves.
var agent = bt.Agent[bt.Fluent]{
	TimedAction: func(v bt.Fluent, td bt.TimeData) bt.Result {
		if v.Do == nil && v.DoWith != nil {
			panic(needsMemory(v))
		}
		return bt.Result{Status: v.Do(td)}
	},
	TimedCondition: func(v bt.Fluent, td bt.TimeData) bool {
		if v.If == nil && v.IfWith != nil {
			panic(needsMemory(v))
		}
		return v.If(td)
	},
}

// needsMemory is the error of a leaf that takes the Blackboard, called by
// Agent's functions, which have none to give: the step returns it, in a
// *bt.PanicError naming the node.
func needsMemory(v bt.Fluent) error {
	return fmt.Errorf("fluent: leaf %q takes the step's Blackboard (DoWith or ConditionWith): run the tree with New, or with an agent made from MemoryAgent", v.Name)
}

// memoryAgent runs Fluent leaves, passing the step's Blackboard to those
// that take it.
var memoryAgent = bt.Agent[bt.Fluent]{
	MemoryAction: func(v bt.Fluent, b *bt.Blackboard) bt.Result {
		if v.DoWith != nil {
			return v.DoWith(b)
		}
		return bt.Result{Status: v.Do(b.TimeData())}
	},
	MemoryCondition: func(v bt.Fluent, b *bt.Blackboard) bool {
		if v.IfWith != nil {
			return v.IfWith(b)
		}
		return v.If(b.TimeData())
	},
}

// Agent returns the agent that runs [bt.Fluent] leaves: an action calls
// its Do function and a condition its If function, with the tick's
// [bt.TimeData]. [New] runs trees with it; start from it to run a tree of
// Fluent leaves with [bt.NewStepped] and hooks of your own (an Exit, say).
// A leaf that takes the step's Blackboard ([Builder.DoWith],
// [Builder.ConditionWith]) needs [MemoryAgent] instead: with Agent, the
// step that reaches it returns an error naming it.
func Agent() bt.Agent[bt.Fluent] { return agent }

// MemoryAgent returns the agent that runs every [bt.Fluent] leaf, those
// that take the step's [bt.Blackboard] included: an action calls its
// DoWith function with the Blackboard, or else its Do function with the
// tick's TimeData, and a condition likewise IfWith or If. It has the
// memory forms of bt.Agent only (MemoryAction, MemoryCondition), which a
// stepped tree prefers to any other: hooks of your own go in its
// MemoryEntry, MemoryOnStep or MemoryExit, or in Entry, OnStep or Exit.
// [New] runs a tree with it when a leaf takes the Blackboard.
func MemoryAgent() bt.Agent[bt.Fluent] { return memoryAgent }

// New returns a ready stepped tree for def, a tree of [bt.Fluent] leaves
// (usually from [Builder.Build]), run by [Agent], or by [MemoryAgent] when
// a leaf takes the step's Blackboard. Tick it with [bt.Stepped.Tick],
// FluentBehaviourTree's Tick(TimeData), whose DeltaTime also advances the
// waits spliced into the tree (when no clock option is given). Where the
// library's Tick returns Running, Success or Failure, the tree's
// [bt.Stepped.State] is RUNNING, SUCCEEDED or FAILED.
//
// New is [bt.NewStepped] with [Agent], and faster: the leaves of a
// memoryless part of def (reactive nodes, inverters and leaves without
// guards or callbacks, as the Builder makes) are called directly, unless
// a leaf takes the Blackboard. It returns NewStepped's error for a
// definition the stepped engine cannot run.
func New(def bt.Node[bt.Fluent], opts ...bt.Option) (bt.Stepped[bt.Fluent], error) {
	t, err := bt.InternalNewFluent(hook.Module, def, agent, memoryAgent, opts)
	if err != nil {
		return t, fmt.Errorf("fluent.New: %w", err)
	}
	return t, nil
}
