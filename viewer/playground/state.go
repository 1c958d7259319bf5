package playground

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/zipbt/behaviortree/viewer"
)

// stateJSON is what the page shows, as the API serves it.
type stateJSON struct {
	Change  int      `json:"change"`
	Name    string   `json:"name"`
	Engine  string   `json:"engine"` // "stepped", "elixir", "btcpp"; "" before a first valid tree
	TreeRev int      `json:"treeRev"`
	Nodes   [][5]any `json:"nodes,omitempty"` // parent, kind, params, label, attrs; only for a page without this tree
	// Scopes are the paths of a BehaviorTree.CPP tree's blackboard scopes
	// ("" for the main tree's), sent with Nodes.
	Scopes    []string `json:"scopes,omitempty"`
	SrcRev    int      `json:"srcRev"`
	Source    string   `json:"source"`
	Error     *errJSON `json:"error"`
	FileError string   `json:"fileError,omitempty"`
	CanSave   bool     `json:"canSave"`
	Script    bool     `json:"script"`
	// PerCall says that a condition is asked at each call, not once per
	// step (the page's switch).
	PerCall bool `json:"perCall"`
	// UndoEdit says that a valid change replaced a tree whose timeline is
	// kept, and that the page can write the old text back.
	UndoEdit bool     `json:"undoEdit"`
	Timeline []tvJSON `json:"timeline"` // the entries from TimelineFrom on
	// TimelineRev names the timeline (a new one starts with a new
	// definition or a restart), TimelineFrom is the index of the first
	// entry sent (the page has those before it, of the same TimelineRev),
	// TimelineLen the number of entries.
	TimelineRev  int64 `json:"timelineRev"`
	TimelineFrom int   `json:"timelineFrom"`
	TimelineLen  int   `json:"timelineLen"`
	// SourceKept says that Source is not sent: the page has the text of
	// SrcRev.
	SourceKept bool     `json:"sourceKept,omitempty"`
	Current    int      `json:"current"`
	Redo       int      `json:"redo"`
	Version    *verJSON `json:"version"`
	Ask        *askJSON `json:"ask"`
	Notice     string   `json:"notice,omitempty"`
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
	// PerCall is the setting of the step: a condition asked at each call
	// (true) or once per step.
	PerCall bool `json:"perCall"`
}

// pageHas is what the page says it has, so that a response does not
// send it again: the tree drawn (?tree=REV: the layout), the timeline's
// first entries (?tl=REV:N) and the text (?src=REV). -1 for none.
type pageHas struct {
	tree   int
	tlRev  int64
	tlLen  int
	source int
}

// has reads what the page of r has.
func has(r *http.Request) pageHas {
	q := r.URL.Query()
	h := pageHas{tree: -1, tlRev: -1, tlLen: 0, source: -1}
	if n, err := strconv.Atoi(q.Get("tree")); err == nil {
		h.tree = n
	}
	if n, err := strconv.Atoi(q.Get("src")); err == nil {
		h.source = n
	}
	if rev, n, ok := strings.Cut(q.Get("tl"), ":"); ok {
		r, err1 := strconv.ParseInt(rev, 10, 64)
		l, err2 := strconv.Atoi(n)
		if err1 == nil && err2 == nil && l >= 0 {
			h.tlRev, h.tlLen = r, l
		}
	}
	return h
}

// state returns the state, without what the page has: the layout of the
// tree it has drawn, the timeline's entries it has, the text it has. Its
// size does not grow with the timeline for a page that says what it has.
// s.mu is held.
func (s *Server) state(have pageHas) stateJSON {
	st := stateJSON{
		Change: s.change, Name: s.cfg.Name, TreeRev: s.treeRev, SrcRev: s.srcRev, Source: string(s.src),
		Error: parseError(s.parseErr), CanSave: s.cfg.Write != nil, Script: s.cfg.Script != nil, PerCall: s.perCall, UndoEdit: len(s.kept) > 0 && s.cfg.Write != nil,
		Notice: s.shown, Current: -1, Redo: -1,
	}
	if have.source == s.srcRev {
		st.Source, st.SourceKept = "", true
	}
	if s.fileErr != nil {
		st.FileError = s.fileErr.Error()
	}
	if s.eng == nil {
		return st
	}
	st.Engine = s.eng.name()
	if have.tree != s.treeRev {
		for _, n := range s.eng.layout().Nodes {
			st.Nodes = append(st.Nodes, [5]any{n.Parent, n.Word(), n.Params, n.Label, n.Attrs}) // the MDSL keyword, as every picture
		}
		if e, ok := s.eng.(*btcppEngine); ok {
			for _, sc := range e.first.Scopes() {
				st.Scopes = append(st.Scopes, sc.Path)
			}
		}
	}
	st.TimelineRev, st.TimelineLen = s.tl.rev, len(s.tl.nodes)
	if have.tlRev == s.tl.rev && have.tlLen <= len(s.tl.nodes) {
		st.TimelineFrom = have.tlLen // entries never change once added
	}
	st.Timeline = make([]tvJSON, 0, len(s.tl.nodes)-st.TimelineFrom)
	for _, n := range s.tl.nodes[st.TimelineFrom:] {
		if n.root == 0 { // drawn once per version, not at every request
			n.root = viewer.Letter(s.eng.picture(n.v).Nodes[0].State)
		}
		st.Timeline = append(st.Timeline, tvJSON{ID: n.id, Parent: n.parent, Label: n.label, State: string(n.root)})
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
		st.Ask = &askJSON{askError: *p.ask, From: p.from, Choices: choices[p.ask.Kind], Answers: ans, PerCall: p.perCall}
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
