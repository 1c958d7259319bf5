package fluent

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/hook"
)

// What package behaviortree lends this one (internal/hook): its NewStepped
// with the fast path of memoryless Fluent trees, and the naming of the
// nodes the Builder has just built.
var (
	newFluent = hook.NewFluent.(func(bt.Node[bt.Fluent], bt.Agent[bt.Fluent], []bt.Option) (bt.Stepped[bt.Fluent], error))
	nameFresh = hook.NameFluent.(func(bt.Node[bt.Fluent], string) bt.Node[bt.Fluent])
)

// agent runs Fluent leaves.
var agent = bt.Agent[bt.Fluent]{
	TimedAction:    func(v bt.Fluent, td bt.TimeData) bt.Result { return bt.Result{Status: v.Do(td)} },
	TimedCondition: func(v bt.Fluent, td bt.TimeData) bool { return v.If(td) },
}

// Agent returns the agent that runs [bt.Fluent] leaves: an action calls
// its Do function and a condition its If function, with the tick's
// [bt.TimeData]. [New] runs trees with it; start from it to run a tree of
// Fluent leaves with [bt.NewStepped] and hooks of your own (an Exit, say).
func Agent() bt.Agent[bt.Fluent] { return agent }

// New returns a ready stepped tree for def, a tree of [bt.Fluent] leaves
// (usually from [Builder.Build]), run by [Agent]. Tick it with
// [bt.Stepped.Tick], FluentBehaviourTree's Tick(TimeData). Where the
// library's Tick returns Running, Success or Failure, the tree's
// [bt.Stepped.State] is RUNNING, SUCCEEDED or FAILED.
//
// New is [bt.NewStepped] with [Agent], and faster: the leaves of a
// memoryless part of def (reactive nodes, inverters and leaves without
// guards or callbacks, as the Builder makes) are called directly. It
// returns NewStepped's error for a definition the stepped engine cannot
// run.
func New(def bt.Node[bt.Fluent], opts ...bt.Option) (bt.Stepped[bt.Fluent], error) {
	t, err := newFluent(def, agent, opts)
	if err != nil {
		return t, fmt.Errorf("fluent.New: %w", err)
	}
	return t, nil
}
