package proptest_test

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/commands"
	"github.com/leanovate/gopter/gen"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/proptest"
)

// The stateful test drives a system that keeps every tree version it ever
// made, against the reference model with snapshots. Commands are Succeed,
// Fail and Back(k), which returns to the k-th earlier version on the current
// line; every postcondition compares values (and how the root ended).

// sut is the system under test: every version made, and the current line.
type sut struct {
	all  []bt.Tree[string] // every version, never dropped
	line []int             // indexes into all, the current version last
}

func (s *sut) current() bt.Tree[string] { return s.all[s.line[len(s.line)-1]] }

// modelState is the model: the definition, and a snapshot per line entry
// with how the root ended there. It is treated as immutable: NextState
// returns a new one.
type modelState struct {
	def      bt.Node[string]
	snaps    []*proptest.Model[string]
	statuses []bt.Status
}

func (m *modelState) String() string {
	return fmt.Sprintf("%v at %q (line of %d)", m.def, m.snaps[len(m.snaps)-1].Value(), len(m.snaps))
}

// result is what a command observes on the system.
type result struct {
	value  string
	status bt.Status
	// the values of every retained version on the line, to prove that
	// moving around did not change them
	lineValues []string
}

func observe(s *sut) result {
	r := result{value: s.current().Value(), status: s.current().Status()}
	for _, i := range s.line {
		r.lineValues = append(r.lineValues, s.all[i].Value())
	}
	return r
}

func checkAgainst(st commands.State, res commands.Result) *gopter.PropResult {
	m, r := st.(*modelState), res.(result)
	want, status := m.snaps[len(m.snaps)-1].Value(), m.statuses[len(m.statuses)-1]
	if r.value != want || r.status != status {
		return &gopter.PropResult{Status: gopter.PropFalse,
			Labels: []string{fmt.Sprintf("tree at %q (%v), model at %q (%v)", r.value, r.status, want, status)}}
	}
	for i, v := range r.lineValues {
		if w := m.snaps[i].Value(); v != w {
			return &gopter.PropResult{Status: gopter.PropFalse,
				Labels: []string{fmt.Sprintf("retained version %d now at %q, its snapshot at %q", i, v, w)}}
		}
	}
	return &gopter.PropResult{Status: gopter.PropTrue}
}

// signalCmd is Succeed or Fail.
type signalCmd bt.Status

func (c signalCmd) Run(s commands.SystemUnderTest) commands.Result {
	sys := s.(*sut)
	sys.all = append(sys.all, sys.current().Signal(bt.Status(c)))
	sys.line = append(sys.line, len(sys.all)-1)
	return observe(sys)
}

func (c signalCmd) NextState(st commands.State) commands.State {
	m := st.(*modelState)
	next := m.snaps[len(m.snaps)-1].Clone()
	status := next.Signal(bt.Status(c))
	return &modelState{
		def:      m.def,
		snaps:    append(append([]*proptest.Model[string]{}, m.snaps...), next),
		statuses: append(append([]bt.Status{}, m.statuses...), status),
	}
}

func (signalCmd) PreCondition(commands.State) bool { return true }

func (signalCmd) PostCondition(st commands.State, res commands.Result) *gopter.PropResult {
	return checkAgainst(st, res)
}

func (c signalCmd) String() string {
	if bt.Status(c) == bt.Success {
		return "Succeed"
	}
	return "Fail"
}

// backCmd returns to the k-th earlier version of the line.
type backCmd int

func (k backCmd) Run(s commands.SystemUnderTest) commands.Result {
	sys := s.(*sut)
	sys.line = sys.line[:len(sys.line)-int(k)]
	return observe(sys)
}

func (k backCmd) NextState(st commands.State) commands.State {
	m := st.(*modelState)
	keep := len(m.snaps) - int(k)
	return &modelState{def: m.def, snaps: m.snaps[:keep:keep], statuses: m.statuses[:keep:keep]}
}

func (k backCmd) PreCondition(st commands.State) bool {
	return int(k) >= 1 && int(k) < len(st.(*modelState).snaps)
}

func (backCmd) PostCondition(st commands.State, res commands.Result) *gopter.PropResult {
	return checkAgainst(st, res)
}

func (k backCmd) String() string { return fmt.Sprintf("Back(%d)", int(k)) }

// TestStateful runs the command sequences.
func TestStateful(t *testing.T) {
	cmds := &commands.ProtoCommands{
		NewSystemUnderTestFunc: func(st commands.State) commands.SystemUnderTest {
			m := st.(*modelState)
			return &sut{all: []bt.Tree[string]{bt.Start(m.def)}, line: []int{0}}
		},
		// A fresh model per run, built with Map, never a shared pointer.
		InitialStateGen: detTree.Map(func(n bt.Node[string]) *modelState {
			return &modelState{def: n, snaps: []*proptest.Model[string]{proptest.NewModel(n, nil)}, statuses: []bt.Status{bt.Running}}
		}),
		GenCommandFunc: func(st commands.State) gopter.Gen {
			m := st.(*modelState)
			gens := []gopter.Gen{gen.Const(signalCmd(bt.Success)), gen.Const(signalCmd(bt.Failure))}
			if len(m.snaps) > 1 {
				gens = append(gens, gen.IntRange(1, len(m.snaps)-1).Map(func(k int) commands.Command { return backCmd(k) }))
			}
			return gen.OneGenOf(gens...)
		},
	}
	props := gopter.NewProperties(parameters(t))
	props.Property("stateful: Succeed, Fail and Back(k) over kept versions match the model", commands.Prop(cmds))
	props.TestingRun(t)
}
