// Package observe watches stepped trees (behaviortree.Stepped) through
// the events of their steps: [NewLogger] prints each event as a line, as
// the bt command's run subcommand does, and [Stats] counts per node the
// updates, successes, failures and running results, as
// BehaviorTree.CPP's StdCoutLogger and TreeObserver do.
//
// Both take the events callback of a step (StepWith, TickWith, ResetWith
// of [bt.Stepped]), and read the tree's node names from
// [bt.Stepped.Nodes].
package observe

import (
	"fmt"
	"io"
	"iter"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/termsafe"
)

// NewLogger returns a function to pass as the events callback of
// [bt.Stepped.StepWith], [bt.Stepped.TickWith] or [bt.Stepped.ResetWith]:
// it writes each event to w as one indented line, in the format of the
// bt command's run subcommand, naming the node of a state change with its
// name in t (t, or any version of the same tree, only gives the names).
//
// The lines are "  node N NAME: FROM -> TO" for a state change,
// "  action V -> RESULT" (RESULT is "async" for a pending [bt.Async]),
// "  condition V -> HOLDS", "  entry V", "  step V",
// "  exit V (succeeded S, aborted A)", "  memory KEY: OLD -> NEW" (KEY
// quoted) and "  reset", with values written with %v. Names and values
// show control characters and invalid UTF-8 as Go escapes (\x1b, \u2028,
// \xff), so that the lines are safe to print on a terminal.
//
// The function ignores w's errors: to learn of them, give a writer that
// keeps them, such as a [bufio.Writer], whose Flush reports the first.
func NewLogger[L any](w io.Writer, t bt.Stepped[L]) func(bt.Event[L]) {
	var names []string
	for info := range t.Nodes() {
		names = append(names, info.Name)
	}
	return func(e bt.Event[L]) {
		switch e.Kind {
		case bt.EventState:
			name := ""
			if e.Node >= 0 && e.Node < len(names) {
				name = names[e.Node]
			}
			fmt.Fprintf(w, "  node %d %s: %s -> %s\n", e.Node, termsafe.Text(name), e.From, e.To)
		case bt.EventAction:
			fmt.Fprintf(w, "  action %s -> %s\n", text(e.Value), resultName(e.Result))
		case bt.EventCondition:
			fmt.Fprintf(w, "  condition %s -> %t\n", text(e.Value), e.Holds)
		case bt.EventEntry:
			fmt.Fprintf(w, "  entry %s\n", text(e.Value))
		case bt.EventOnStep:
			fmt.Fprintf(w, "  step %s\n", text(e.Value))
		case bt.EventExit:
			fmt.Fprintf(w, "  exit %s (succeeded %t, aborted %t)\n", text(e.Value), e.Succeeded, e.Aborted)
		case bt.EventMemory:
			fmt.Fprintf(w, "  memory %q: %s -> %s\n", e.Key, text(e.Old), text(e.New))
		case bt.EventReset:
			fmt.Fprintf(w, "  reset\n")
		default:
			fmt.Fprintf(w, "  %s\n", termsafe.Text(e.String()))
		}
	}
}

// text is v as %v writes it, safe on a terminal (termsafe.Text).
func text(v any) string { return termsafe.Text(fmt.Sprint(v)) }

// resultName is r's status, or "async" for a pending async result.
func resultName(r bt.Result) string {
	if r.Async != nil {
		return "async"
	}
	return r.Status.String()
}

// NodeStats is what a [Stats] counted for one node.
type NodeStats struct {
	ID   int    // the node's preorder index (0 is the root)
	Name string // the node's name, as [bt.NodeInfo] gives it
	// Updates is the number of steps that updated the node (see [Stats]);
	// Successes, Failures and Running count those whose update left it
	// SUCCEEDED, FAILED and RUNNING, and add up to Updates.
	Updates, Successes, Failures, Running int
}

// Stats counts, per node, the updates seen in the events of steps. Pass
// its Observe method as the events callback of each step (of any version
// of one tree, through [bt.Stepped.StepWith] or [bt.Stepped.TickWith])
// and call EndStep after each, with the version the step returned (or,
// when it failed, the version stepped). An EndStep with a version of
// another tree (another definition) starts the counts again, for that
// tree's nodes.
//
// A step updated a node when it called the node's action or condition
// (not a guard's), changed the node's state to RUNNING, SUCCEEDED or
// FAILED, or leaves the node RUNNING: a running node is updated at every
// step, as in Mistreevous, without an event when it stays running. Each
// step counts at most one update per node. Resets ([bt.Stepped.ResetWith],
// and the reset that starts a step after the tree completed) are not
// updates.
//
// Time spent in nodes is not measured. The zero Stats is ready to use;
// it is not safe for concurrent use.
type Stats[L any] struct {
	nodes   []NodeStats
	def     bt.Node[L] // the definition of the tree the nodes are of
	touched []int      // nodes updated in the current step, each once
	marked  []bool     // by node: in touched
	result  []bt.State // by node: the result of its update in the current step, when marked
}

// Observe records e, an event of the current step.
func (s *Stats[L]) Observe(e bt.Event[L]) {
	var to bt.State
	switch e.Kind {
	case bt.EventAction:
		to = bt.StateRunning
		if e.Result.Async == nil {
			switch e.Result.Status {
			case bt.Success:
				to = bt.StateSucceeded
			case bt.Failure:
				to = bt.StateFailed
			}
		}
	case bt.EventCondition:
		if e.Guard {
			return
		}
		to = bt.StateFailed
		if e.Holds {
			to = bt.StateSucceeded
		}
	case bt.EventState:
		if e.To == bt.StateReady {
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
	s.result = append(s.result, make([]bt.State, n-len(s.result))...)
}

// EndStep ends the current step, whose result is t: it counts the step's
// updates. An update's result is the state it left the node in, even when
// an abort later in the step (a race or a guard stopping the node's
// parent) made the node READY; a node left RUNNING without an event was
// updated and stays running.
func (s *Stats[L]) EndStep(t bt.Stepped[L]) {
	if def := t.Definition(); s.def != def {
		s.def = def
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
			if t.NodeState(i) != bt.StateRunning {
				continue
			}
			st = bt.StateRunning
		}
		n := &s.nodes[i]
		n.Updates++
		switch st {
		case bt.StateRunning:
			n.Running++
		case bt.StateSucceeded:
			n.Successes++
		case bt.StateFailed:
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
