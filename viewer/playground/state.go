package playground

import (
	"fmt"
	"strconv"

	"github.com/zipbt/behaviortree/viewer"
)

// stateJSON is what the page shows, as the API serves it.
type stateJSON struct {
	Change    int      `json:"change"`
	Name      string   `json:"name"`
	Engine    string   `json:"engine"` // "stepped", "elixir", "btcpp"; "" before a first valid tree
	TreeRev   int      `json:"treeRev"`
	Nodes     [][5]any `json:"nodes,omitempty"` // parent, kind, params, label, attrs; only for a page without this tree
	SrcRev    int      `json:"srcRev"`
	Source    string   `json:"source"`
	Error     *errJSON `json:"error"`
	FileError string   `json:"fileError,omitempty"`
	CanSave   bool     `json:"canSave"`
	Script    bool     `json:"script"`
	Timeline  []tvJSON `json:"timeline"`
	Current   int      `json:"current"`
	Redo      int      `json:"redo"`
	Version   *verJSON `json:"version"`
	Ask       *askJSON `json:"ask"`
	Notice    string   `json:"notice,omitempty"`
}

// tvJSON is one version of the timeline.
type tvJSON struct {
	ID     int    `json:"id"`
	Parent int    `json:"parent"`
	Label  string `json:"label"`
	State  string `json:"state"` // the root's state letter
}

// verJSON is the current version.
type verJSON struct {
	ID      int         `json:"id"`
	Step    int         `json:"step"`
	Label   string      `json:"label"`
	States  string      `json:"states"` // one letter per node: i r s f
	Focus   []int       `json:"focus"`
	Events  []string    `json:"events"`
	Answers []answer    `json:"answers"`
	Memory  [][2]string `json:"memory"`
	Asyncs  []asyncJSON `json:"asyncs"`
}

type asyncJSON struct {
	Node    int    `json:"node"`
	Settled string `json:"settled"` // "", "success", "failure"
}

// askJSON is the question of a pending step.
type askJSON struct {
	askError
	From    int      `json:"from"`
	Choices []string `json:"choices"`
	Answers []answer `json:"answers"`
}

// state returns the state; have is the tree revision the page has drawn
// (the layout is sent only to a page without it). s.mu is held.
func (s *Server) state(have int) stateJSON {
	st := stateJSON{
		Change: s.change, Name: s.cfg.Name, TreeRev: s.treeRev, SrcRev: s.srcRev, Source: string(s.src),
		Error: parseError(s.parseErr), CanSave: s.cfg.Write != nil, Script: s.cfg.Script != nil,
		Notice: s.shown, Current: -1, Redo: -1,
	}
	if s.fileErr != nil {
		st.FileError = s.fileErr.Error()
	}
	if s.eng == nil {
		return st
	}
	st.Engine = s.eng.name()
	if have != s.treeRev {
		for _, n := range s.eng.layout().Nodes {
			st.Nodes = append(st.Nodes, [5]any{n.Parent, n.Word(), n.Params, n.Label, n.Attrs}) // the MDSL keyword, as every picture
		}
	}
	st.Timeline = make([]tvJSON, len(s.tl.nodes))
	for i, n := range s.tl.nodes {
		if n.root == 0 { // drawn once per version, not at every request
			n.root = viewer.Letter(s.eng.picture(n.v).Nodes[0].State)
		}
		st.Timeline[i] = tvJSON{ID: n.id, Parent: n.parent, Label: n.label, State: string(n.root)}
	}
	cur := s.tl.nodes[s.tl.cur]
	st.Current, st.Redo = cur.id, cur.redo
	states, focus := letters(s.eng.picture(cur.v))
	v := &verJSON{ID: cur.id, Step: cur.step, Label: cur.label, States: states, Focus: focus,
		Events: cur.events, Answers: cur.answers, Memory: [][2]string{}, Asyncs: []asyncJSON{}}
	if v.Events == nil {
		v.Events = []string{}
	}
	if v.Answers == nil {
		v.Answers = []answer{}
	}
	if v.Focus == nil {
		v.Focus = []int{}
	}
	for k, val := range s.eng.memory(cur.v).All() {
		v.Memory = append(v.Memory, [2]string{k, memoryText(val)})
	}
	for _, a := range s.liveAsyncs(cur.id) {
		j := asyncJSON{Node: a.node}
		if r, ok := a.a.Settled(); ok {
			j.Settled = r.String()
		}
		v.Asyncs = append(v.Asyncs, j)
	}
	st.Version = v
	if p := s.pend; p != nil && p.ask != nil {
		ans := p.answers
		if ans == nil {
			ans = []answer{}
		}
		st.Ask = &askJSON{askError: *p.ask, From: p.from, Choices: choices[p.ask.Kind], Answers: ans}
	}
	return st
}

// memoryText shows a memory value as memory.Map.String does: strings
// quoted, other values as %v prints them.
func memoryText(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%v", v)
}
