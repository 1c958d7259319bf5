package behaviortree

import (
	"fmt"
	"io"
	"iter"
)

// NewLogger returns a function to pass as the events callback of
// [Stepped.StepWith], [Stepped.TickWith], [Stepped.ResetWith] or
// [SteppedHistory.StepWith]: it writes each event to w as one indented
// line, in the format of the bt command's run subcommand, naming the node
// of a state change with its name in t (t, or any version of the same
// tree, only gives the names).
//
// The lines are "  node N NAME: FROM -> TO" for a state change,
// "  action V -> RESULT" (RESULT is "async" for a pending [Async]),
// "  condition V -> HOLDS", "  entry V", "  step V",
// "  exit V (succeeded S, aborted A)", "  memory KEY: OLD -> NEW" (KEY
// quoted) and "  reset", with values written with %v.
//
// The function ignores w's errors: to learn of them, give a writer that
// keeps them, such as a [bufio.Writer], whose Flush reports the first.
func NewLogger[L any](w io.Writer, t Stepped[L]) func(Event[L]) {
	names := make([]string, 0, t.Len())
	for info := range t.Nodes() {
		names = append(names, info.Name)
	}
	return func(e Event[L]) {
		switch e.Kind {
		case EventState:
			name := ""
			if e.Node >= 0 && e.Node < len(names) {
				name = names[e.Node]
			}
			fmt.Fprintf(w, "  node %d %s: %s -> %s\n", e.Node, name, e.From, e.To)
		case EventAction:
			fmt.Fprintf(w, "  action %v -> %s\n", e.Value, resultString(e.Result))
		case EventCondition:
			fmt.Fprintf(w, "  condition %v -> %t\n", e.Value, e.Holds)
		case EventEntry:
			fmt.Fprintf(w, "  entry %v\n", e.Value)
		case EventStep:
			fmt.Fprintf(w, "  step %v\n", e.Value)
		case EventExit:
			fmt.Fprintf(w, "  exit %v (succeeded %t, aborted %t)\n", e.Value, e.Succeeded, e.Aborted)
		case EventMemory:
			fmt.Fprintf(w, "  memory %q: %v -> %v\n", e.Key, e.Old, e.New)
		case EventReset:
			fmt.Fprintf(w, "  reset\n")
		default:
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
}

// resultString is r's status, or "async" for a pending async result.
func resultString(r Result) string {
	if r.Async != nil {
		return "async"
	}
	return r.Status.String()
}

// NodeStats is what a [Stats] counted for one node.
type NodeStats struct {
	ID   int    // the node's preorder index (0 is the root)
	Name string // the node's name, as [NodeInfo] gives it
	// Ticks is the number of steps that updated the node (see [Stats]);
	// Successes, Failures and Running count those whose update left it
	// SUCCEEDED, FAILED and RUNNING, and add up to Ticks.
	Ticks, Successes, Failures, Running int
}

// Stats counts, per node, the updates seen in the events of steps. Pass
// its Observe method as the events callback of each step (of any version
// of one tree, through [Stepped.StepWith], [Stepped.TickWith] or
// [SteppedHistory.StepWith]) and call EndStep after each, with the
// version the step returned (or, when it failed, the version stepped).
//
// A step updated a node when it called the node's action or condition
// (not a guard's), changed the node's state to RUNNING, SUCCEEDED or
// FAILED, or leaves the node RUNNING: a running node is updated at every
// step, as in Mistreevous, without an event when it stays running. Each
// step counts at most one tick per node. Resets ([Stepped.ResetWith], and
// the reset that starts a step after the tree completed) are not updates.
//
// Time spent in nodes is not measured. The zero Stats is ready to use;
// it is not safe for concurrent use.
type Stats[L any] struct {
	nodes   []NodeStats
	touched []int   // nodes updated in the current step, each once
	marked  []bool  // by node: in touched
	result  []State // by node: the result of its update in the current step, when marked
}

// Observe records e, an event of the current step.
func (s *Stats[L]) Observe(e Event[L]) {
	var to State
	switch e.Kind {
	case EventAction:
		to = StateRunning
		if e.Result.Async == nil {
			switch e.Result.Status {
			case Success:
				to = StateSucceeded
			case Failure:
				to = StateFailed
			}
		}
	case EventCondition:
		if e.Guard {
			return
		}
		to = StateFailed
		if e.Holds {
			to = StateSucceeded
		}
	case EventState:
		if e.To == StateReady {
			return
		}
		to = e.To
	default:
		return
	}
	if e.Node < 0 {
		return
	}
	if e.Node >= len(s.marked) {
		s.grow(e.Node + 1)
	}
	if !s.marked[e.Node] {
		s.marked[e.Node] = true
		s.touched = append(s.touched, e.Node)
	}
	s.result[e.Node] = to
}

// grow makes room for n nodes' marks and results.
func (s *Stats[L]) grow(n int) {
	s.marked = append(s.marked, make([]bool, n-len(s.marked))...)
	s.result = append(s.result, make([]State, n-len(s.result))...)
}

// EndStep ends the current step, whose result is t: it counts the step's
// updates. An update's result is the state it left the node in, even when
// an abort later in the step (a race or a guard stopping the node's
// parent) made the node READY; a node left RUNNING without an event was
// updated and stays running.
func (s *Stats[L]) EndStep(t Stepped[L]) {
	if len(s.nodes) != t.Len() {
		s.nodes = s.nodes[:0]
		for info := range t.Nodes() {
			s.nodes = append(s.nodes, NodeStats{ID: info.ID, Name: info.Name})
		}
	}
	if len(s.marked) < len(s.nodes) {
		s.grow(len(s.nodes))
	}
	for i := range s.nodes {
		st := s.result[i]
		if !s.marked[i] {
			if t.NodeState(i) != StateRunning {
				continue
			}
			st = StateRunning
		}
		n := &s.nodes[i]
		n.Ticks++
		switch st {
		case StateRunning:
			n.Running++
		case StateSucceeded:
			n.Successes++
		case StateFailed:
			n.Failures++
		}
	}
	for _, i := range s.touched {
		s.marked[i] = false
	}
	s.touched = s.touched[:0]
}

// Node returns the counts of node i (in preorder; 0 is the root): zero
// counts before the first EndStep, or when i is not a node of the tree.
func (s *Stats[L]) Node(i int) NodeStats {
	if i < 0 || i >= len(s.nodes) {
		return NodeStats{ID: i}
	}
	return s.nodes[i]
}

// All returns an iterator over the counts of the tree's nodes, in
// preorder; it yields nothing before the first EndStep.
func (s *Stats[L]) All() iter.Seq[NodeStats] {
	return func(yield func(NodeStats) bool) {
		for _, n := range s.nodes {
			if !yield(n) {
				return
			}
		}
	}
}
