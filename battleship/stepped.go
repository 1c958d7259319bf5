package battleship

import (
	"fmt"
	"sync"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
)

// steppedPlan is a strategy on the stepped engine: its tree, and the
// handler functions that the tree's actions and conditions call. Each
// decision steps the tree until an action names a shot; the answer is not
// a signal, since the next step's guards and conditions read the board.
type steppedPlan struct {
	def bt.Node[Intent]
	// action carries out an action: it fires with c.fire, or not, and
	// returns the action's status (Running to go on at the next step).
	action func(c *stepContext, in Intent) bt.Status
	// condition answers a condition node or a guard.
	condition func(c *stepContext, in Intent) bool
	// doing says what the bot is doing, for display.
	doing func(b *Bot) string
	// actions are the preorder indexes of the tree's action nodes, and
	// their intents, to say which one is running.
	actions []actionNode
}

// actionNode is an action of a stepped tree: its preorder index and its
// intent.
type actionNode struct {
	index  int
	intent Intent
}

// stepContext is what a stepped tree's agent reads the game through: the
// view of the decision under way, set for the steps of one decision and
// cleared after, and the blackboard of the call under way, through which
// the handler reads and writes the memory of the version being stepped.
// Every version of one bot shares it (the agent is part of the tree's
// machine); its lock makes decisions of one bot's versions from several
// goroutines take turns. It also holds the handler's working buffers, but
// nothing that lasts from one decision to the next: that is in memory.
type stepContext struct {
	mu     sync.Mutex
	bb     *bt.Blackboard
	view   *View
	ticks  *[]Tick
	shot   Point
	fired  bool
	loaded bool    // plan holds this decision's view
	plan   planner // bot E's buffers
}

// start returns a new stepped tree of the plan, with its agent's context.
func (s *steppedPlan) start() (bt.Stepped[Intent], *stepContext) {
	agent, c := s.agent()
	t, err := bt.NewStepped(s.def, agent)
	if err != nil {
		panic("battleship: unreachable: the stepped tree does not start: " + err.Error())
	}
	return t, c
}

// agent returns a new agent of the plan, and the context it reads.
func (s *steppedPlan) agent() (bt.Agent[Intent], *stepContext) {
	c := new(stepContext)
	agent := bt.Agent[Intent]{
		MemoryAction: func(in Intent, bb *bt.Blackboard) bt.Result {
			c.bb = bb
			st := s.action(c, in)
			c.bb = nil
			sig := st
			if c.fired {
				sig = bt.Running // the shot's signal comes with the answer
			}
			*c.ticks = append(*c.ticks, Tick{Intent: in, Signal: sig})
			return bt.Result{Status: st}
		},
		MemoryCondition: func(in Intent, bb *bt.Blackboard) bool {
			c.bb = bb
			ok := s.condition(c, in)
			c.bb = nil
			sig := bt.Failure
			if ok {
				sig = bt.Success
			}
			*c.ticks = append(*c.ticks, Tick{Intent: in, Signal: sig})
			return ok
		},
	}
	return agent, c
}

// decide steps the tree until an action names a shot, for at most
// maxTicks agent calls, appending each call to ticks.
func (s *steppedPlan) decide(b *Bot, v *View, ticks *[]Tick) (Point, error) {
	c := b.ctx
	c.mu.Lock()
	defer c.mu.Unlock()
	c.view, c.ticks, c.fired, c.loaded = v, ticks, false, false
	defer func() { c.view, c.ticks = nil, nil }()
	from := len(*ticks)
	for len(*ticks)-from < maxTicks {
		next, err := b.steps.Step()
		if err != nil {
			return Point{}, fmt.Errorf("the stepped tree failed: %w", err)
		}
		b.steps = next
		if c.fired {
			return c.shot, nil
		}
	}
	return Point{}, fmt.Errorf("no shot named in %d ticks (the tree is %v)", maxTicks, b.steps.State())
}

// fire names the shot of the decision under way.
func (c *stepContext) fire(p Point) { c.shot, c.fired = p, true }

// load gives the planner the view of the decision under way, once per
// decision.
func (c *stepContext) load() *planner {
	if !c.loaded {
		c.plan.load(c.view)
		c.loaded = true
	}
	return &c.plan
}

// actionNodes lists the action nodes of def in preorder.
func actionNodes(def bt.Node[Intent]) []actionNode {
	var out []actionNode
	i := 0
	for n := range def.Preorder() {
		if v, ok := n.Leaf(); ok && n.Kind() == kind.Leaf {
			out = append(out, actionNode{i, v})
		}
		i++
	}
	return out
}

// runningAction returns the intent of t's running action, or "".
func runningAction(t bt.Stepped[Intent], actions []actionNode) Intent {
	for _, a := range actions {
		if t.NodeState(a.index) == bt.StateRunning {
			return a.intent
		}
	}
	return ""
}
