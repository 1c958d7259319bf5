package viewer

import (
	"fmt"
	"io"
	"iter"
	"reflect"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
)

// TreesReplay returns a Replay of versions of the Elixir-style tree def,
// one step per version, in order, as [bt.History.All] yields them. Each step
// shows the version's node states as [bt.Tree.Picture] does, its focus,
// the signal that made it ([bt.Tree.LastSignal]), and when the root ended, how. It returns an
// error for a version of another definition and for no versions at all.
func TreesReplay[L any](title string, def bt.Node[L], versions iter.Seq[bt.Tree[L]]) (*Replay, error) {
	if def.IsZero() {
		return nil, fmt.Errorf("viewer.TreesReplay: zero definition")
	}
	r, err := NewReplay(title, def.Picture())
	if err != nil {
		return nil, fmt.Errorf("viewer.TreesReplay: %w", err)
	}
	var states []bt.State
	focus := make([]int, 1)
	k := 0
	for v := range versions {
		if v.Definition() != def {
			return nil, fmt.Errorf("viewer.TreesReplay: version %d is of another definition (%v)", k, v.Definition())
		}
		states, focus[0] = v.NodeStates(states), v.FocusIndex()
		s, sig := treeStep(v, states, focus, v.Memory())
		if err := r.add(s, sig); err != nil {
			return nil, fmt.Errorf("viewer.TreesReplay: %w", err)
		}
		k++
	}
	if k == 0 {
		return nil, fmt.Errorf("viewer.TreesReplay: no versions")
	}
	return r, nil
}

// Version is what [HistoryReplay] and [WriteHistory] need of the versions
// a [bt.History] keeps. [bt.Tree] and [bt.Stepped] have it for every leaf
// type, so a History of Value/Succeed/Fail trees, of stepped trees, or of
// Fluent trees (a [bt.Stepped] of [bt.Fluent] leaves, as fluent.New makes
// them) can be drawn.
type Version interface {
	Picture() bt.Picture
	Memory() memory.Map
}

// HistoryReplay returns a Replay of h's versions from its start to its
// current one (the line that Undo and Redo walk, without the redo tail).
// A History of [bt.Tree]s is drawn as [TreesReplay] draws it (its focus,
// the signal that made each version, and when the root ended); one of
// [bt.Stepped] trees as [SteppedReplay] draws it, without events (a
// History keeps none: use SteppedReplay to show them). Every version must
// be of one definition.
func HistoryReplay[V Version](title string, h bt.History[V]) (*Replay, error) {
	var (
		r       *Replay
		layout  bt.Picture
		def     any // the first version's definition, when it can be read
		states  []bt.State
		running []bool
		focus   []int
		k       int
	)
	for v := range h.All() {
		if k == 0 {
			layout = v.Picture()
			var err error
			if r, err = NewReplay(title, layout); err != nil {
				return nil, fmt.Errorf("viewer.HistoryReplay: %w", err)
			}
			def = definitionOf(v)
			states = make([]bt.State, len(layout.Nodes))
			running = make([]bool, len(layout.Nodes))
		} else if d := definitionOf(v); d != def {
			return nil, fmt.Errorf("viewer.HistoryReplay: version %d is of another definition than version 0", k)
		}
		var err error
		switch tv := any(v).(type) {
		case treeVersion:
			f := tv.FocusIndex()
			if states = tv.NodeStates(states); len(states) != len(layout.Nodes) {
				return nil, fmt.Errorf("viewer.HistoryReplay: version %d has %d nodes, version 0 %d", k, len(states), len(layout.Nodes))
			}
			focus = append(focus[:0], f)
			s, sig := treeStep(tv, states, focus, v.Memory())
			err = r.add(s, sig)
		case steppedVersion: // of one definition with version 0, so of as many nodes
			clear(running)
			for i := range states {
				states[i] = tv.NodeState(i)
				if par := layout.Nodes[i].Parent; par >= 0 && states[i] == bt.StateRunning {
					running[par] = true
				}
			}
			focus = focus[:0]
			for i, st := range states {
				if st == bt.StateRunning && !running[i] {
					focus = append(focus, i)
				}
			}
			err = r.Add(steppedStep(k, tv.State(), states, focus, v.Memory()))
		default: // a Version of another type: what its Picture shows
			p := v.Picture()
			if len(p.Nodes) != len(layout.Nodes) {
				return nil, fmt.Errorf("viewer.HistoryReplay: version %d has %d nodes, version 0 %d", k, len(p.Nodes), len(layout.Nodes))
			}
			focus = focus[:0]
			for i, nd := range p.Nodes {
				states[i] = nd.State
				if nd.Focus {
					focus = append(focus, i)
				}
			}
			err = r.Add(Step{States: states, Focus: focus, Memory: v.Memory()})
		}
		if err != nil {
			return nil, fmt.Errorf("viewer.HistoryReplay: %w", err)
		}
		k++
	}
	if k == 0 {
		return nil, fmt.Errorf("viewer.HistoryReplay: no versions")
	}
	return r, nil
}

// treeVersion is what a [bt.Tree] has, whatever its leaf type, that
// TreesReplay draws.
type treeVersion interface {
	NodeStates(dst []bt.State) []bt.State
	FocusIndex() int
	LastSignal() bt.Status
	Status() bt.Status
}

// steppedVersion is what a [bt.Stepped] has, whatever its leaf type, that
// SteppedReplay draws.
type steppedVersion interface {
	NodeState(i int) bt.State
	State() bt.State
}

// treeStep is the step of a Tree version whose node states and focus are
// given, and the signal that made it.
func treeStep(v treeVersion, states []bt.State, focus []int, mem memory.Map) (Step, byte) {
	s := Step{States: states, Focus: focus, Memory: mem}
	sig := byte('-')
	switch v.LastSignal() {
	case bt.Success:
		sig = 's'
	case bt.Failure:
		sig = 'f'
	}
	if st := v.Status(); st != bt.Running {
		s.Events = []string{fmt.Sprintf("the root ended with %v; the tree started over", st)}
	}
	return s, sig
}

// steppedStep is the k-th step of a run of stepped versions, whose node
// states and running tips are given.
func steppedStep(k int, state bt.State, states []bt.State, focus []int, mem memory.Map) Step {
	s := Step{States: states, Focus: focus, Label: fmt.Sprintf("step %d: the tree is %v", k, state), Memory: mem}
	if k == 0 {
		s.Label = fmt.Sprintf("start: the tree is %v", state)
	}
	return s
}

// definitionOf returns v's definition (its Definition method's result,
// a bt.Node of some leaf type, which compares by identity), or nil when v
// has no such method.
func definitionOf(v any) any {
	m := reflect.ValueOf(v).MethodByName("Definition")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return nil
	}
	return m.Call(nil)[0].Interface()
}

// WriteHistory writes a viewer page of h (see [HistoryReplay]) to w: a
// History of [bt.Tree]s, of [bt.Stepped] trees or of Fluent trees.
func WriteHistory[V Version](w io.Writer, title string, h bt.History[V]) error {
	r, err := HistoryReplay(title, h)
	if err != nil {
		return err
	}
	return Write(w, title, r)
}

// SteppedReplay returns a Replay of stepped versions, one step per
// version, in order; they must all come from one [bt.NewStepped]
// definition. Each step shows the nodes' states and the running tips as
// [bt.Stepped.Picture] does. events, if not nil, holds for each version
// the events of the step that made it (as [bt.Stepped.StepWith] reports
// them), listed beside the tree.
func SteppedReplay[L any](title string, versions []bt.Stepped[L], events [][]bt.Event[L]) (*Replay, error) {
	if len(versions) == 0 {
		return nil, fmt.Errorf("viewer.SteppedReplay: no versions")
	}
	if events != nil && len(events) != len(versions) {
		return nil, fmt.Errorf("viewer.SteppedReplay: %d lists of events for %d versions", len(events), len(versions))
	}
	def := versions[0].Definition()
	p := versions[0].Picture()
	r, err := NewReplay(title, p)
	if err != nil {
		return nil, fmt.Errorf("viewer.SteppedReplay: %w", err)
	}
	n := len(p.Nodes)
	states := make([]bt.State, n)
	running := make([]bool, n)
	var focus []int
	for k, v := range versions {
		if v.Definition() != def {
			return nil, fmt.Errorf("viewer.SteppedReplay: version %d is of another definition", k)
		}
		states, focus = steppedStates(p, v, states, running, focus)
		s := steppedStep(k, v.State(), states, focus, v.Memory())
		if events != nil {
			for _, e := range events[k] {
				s.Events = append(s.Events, EventText(p, e))
			}
		}
		if err := r.Add(s); err != nil {
			return nil, fmt.Errorf("viewer.SteppedReplay: %w", err)
		}
	}
	return r, nil
}

// EventText describes a stepped tree's event in one line, as the pages
// list it: the node (its index, kind, parameters and label) and what
// happened.
func EventText[L any](p bt.Picture, e bt.Event[L]) string {
	name := fmt.Sprintf("node %d", e.Node)
	if e.Node >= 0 && e.Node < len(p.Nodes) {
		nd := p.Nodes[e.Node]
		name += " (" + nd.Word() + nd.Params
		if nd.Label != "" {
			name += " " + nd.Label
		}
		name += ")"
	}
	switch e.Kind {
	case bt.EventState:
		return fmt.Sprintf("%s: %v -> %v", name, e.From, e.To)
	case bt.EventAction:
		res := e.Result.Status.String()
		if e.Result.Async != nil {
			res = "pending (async)"
		}
		return fmt.Sprintf("%s: action %v returned %s", name, e.Value, res)
	case bt.EventCondition:
		what := "condition"
		if e.Guard {
			what = "guard"
		}
		return fmt.Sprintf("%s: %s %v is %t", name, what, e.Value, e.Holds)
	case bt.EventEntry:
		return fmt.Sprintf("%s: entry %v", name, e.Value)
	case bt.EventOnStep:
		return fmt.Sprintf("%s: step %v", name, e.Value)
	case bt.EventExit:
		return fmt.Sprintf("%s: exit %v (succeeded %t, aborted %t)", name, e.Value, e.Succeeded, e.Aborted)
	case bt.EventReset:
		return "the tree was reset"
	}
	return fmt.Sprintf("%s: event %d", name, e.Kind)
}

// steppedStates returns the node states of stepped version v of layout's
// tree in states, and its running tips (running nodes with no running
// child) in focus, reusing both slices and running, which has one entry
// per node.
func steppedStates[L any](layout bt.Picture, v bt.Stepped[L], states []bt.State, running []bool, focus []int) ([]bt.State, []int) {
	clear(running)
	for i := range states {
		states[i] = v.NodeState(i)
		if par := layout.Nodes[i].Parent; par >= 0 && states[i] == bt.StateRunning {
			running[par] = true
		}
	}
	focus = focus[:0]
	for i, st := range states {
		if st == bt.StateRunning && !running[i] {
			focus = append(focus, i)
		}
	}
	return states, focus
}

// SteppedStates returns the state of every node of stepped version v of
// layout's tree, appended to states[:0], and its running tips (running
// nodes with no running child: what a Step's Focus marks), appended to
// focus[:0]. It costs O(nodes).
func SteppedStates[L any](layout bt.Picture, v bt.Stepped[L], states []bt.State, focus []int) ([]bt.State, []int) {
	n := len(layout.Nodes)
	if cap(states) < n {
		states = make([]bt.State, n)
	}
	return steppedStates(layout, v, states[:n], make([]bool, n), focus)
}
