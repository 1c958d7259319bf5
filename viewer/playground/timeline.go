package playground

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/viewer"
)

// vnode is one version of the timeline: the version, how it was made, and
// its place in the tree of versions. Versions are never removed (a new
// definition starts another timeline, and keeps this one aside), so an id
// is an index.
type vnode struct {
	id, parent int
	kids       []int
	redo       int // the child Redo goes to, -1 for none
	step       int // the step's number on its line, 0 for the start
	v          any
	label      string
	answers    []answer
	events     []string
	raw        []bt.Event[bt.Call]
	signal     bt.Status
	root       byte // the root's state letter, once computed
}

// timeline is the tree of versions and the current one.
type timeline struct {
	nodes []*vnode
	cur   int
	rev   int64 // names this timeline among those of the process: a page that has N entries of it has nodes[:N]
}

// timelines counts the timelines made, for their revs.
var timelines atomic.Int64

func newTimeline(start any) *timeline {
	return &timeline{nodes: []*vnode{{id: 0, parent: -1, redo: -1, v: start, label: "start", signal: bt.Running}}, rev: timelines.Add(1)}
}

// add adds n as a child of parent, makes it current, and returns it.
func (tl *timeline) add(parent int, n *vnode) *vnode {
	n.id, n.parent, n.redo = len(tl.nodes), parent, -1
	p := tl.nodes[parent]
	n.step = p.step + 1
	p.kids = append(p.kids, n.id)
	tl.nodes = append(tl.nodes, n)
	tl.moveTo(n.id)
	return n
}

// moveTo makes version id current, and points the redo of each of its
// ancestors at the path to it, so that Redo after Undo comes back.
func (tl *timeline) moveTo(id int) {
	tl.cur = id
	for n := tl.nodes[id]; n.parent >= 0; n = tl.nodes[n.parent] {
		tl.nodes[n.parent].redo = n.id
	}
}

// line returns the versions from the start to id.
func (tl *timeline) line(id int) []*vnode {
	var out []*vnode
	for n := tl.nodes[id]; ; n = tl.nodes[n.parent] {
		out = append(out, n)
		if n.parent < 0 {
			break
		}
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// pending is a step waiting for an answer: the version it steps from, the
// answers given so far, and the question.
type pending struct {
	from    int
	answers []answer
	ask     *askError
	perCall bool // asks a condition at each call (the setting when the step started)
}

// startStep starts a step from the current version and runs it as far as
// the answers known take it.
func (s *Server) startStep() error {
	if err := s.ready(); err != nil {
		return err
	}
	if s.pend != nil {
		return errors.New("a step is waiting for an answer: answer it, or cancel it")
	}
	if len(s.tl.nodes) >= s.cfg.MaxVersions {
		return fmt.Errorf("the timeline holds %d versions, the most it keeps: restart it", len(s.tl.nodes))
	}
	s.pend = &pending{from: s.tl.cur, perCall: s.perCall}
	return s.advance()
}

// advance runs the pending step from its version with its answers: it
// either asks the next question or adds the version it made.
func (s *Server) advance() error {
	p := s.pend
	from := s.tl.nodes[p.from]
	r := &run{answers: p.answers, script: s.cfg.Script, delta: 1, step: from.step, perCall: p.perCall}
	if sc := s.cfg.Script; sc != nil {
		r.counts = map[string]int{}
		for _, n := range s.tl.line(p.from) {
			for _, a := range n.answers {
				if n.step == 0 || !sc.inStep(n.step-1, a) {
					r.counts[a.Name]++
				}
			}
		}
		if len(sc.Delta) > 0 {
			r.delta = sc.Delta[from.step%len(sc.Delta)]
		}
	}
	out, err := s.eng.step(from.v, r)
	p.answers = r.answers
	var ask *askError
	if errors.As(err, &ask) {
		p.ask = ask
		return nil
	}
	s.pend = nil
	if err != nil {
		return fmt.Errorf("step from version %d: %w", p.from, err)
	}
	s.tl.add(p.from, &vnode{v: out.v, label: fmt.Sprintf("step %d: %s", from.step+1, out.label),
		answers: r.answers, events: out.events, raw: out.raw, signal: out.signal})
	return nil
}

// ready returns an error when there is no valid tree to step.
func (s *Server) ready() error {
	if s.eng == nil {
		return errors.New("the file has no valid tree yet")
	}
	return nil
}

func (s *Server) step(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.startStep()
	s.bump()
	s.reply(w, r, err)
}

func (s *Server) answer(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Value string `json:"value"`
	}
	if !decode(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := func() error {
		p := s.pend
		if p == nil || p.ask == nil {
			return errors.New("no question is waiting for an answer")
		}
		ok := false
		for _, c := range choices[p.ask.Kind] {
			ok = ok || c == req.Value
		}
		if !ok {
			return fmt.Errorf("%q does not answer %s %s (%v)", req.Value, p.ask.Call, p.ask.Text, choices[p.ask.Kind])
		}
		p.answers = append(p.answers, answer{Kind: p.ask.Kind, Name: p.ask.Name, Value: req.Value, Call: p.ask.Text})
		p.ask = nil
		return s.advance()
	}()
	s.bump()
	s.reply(w, r, err)
}

func (s *Server) cancel(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pend = nil
	s.bump()
	s.reply(w, r, nil)
}

// move makes version id current, dropping a pending step.
func (s *Server) move(id int) error {
	if err := s.ready(); err != nil {
		return err
	}
	if id < 0 || id >= len(s.tl.nodes) {
		return fmt.Errorf("no version %d", id)
	}
	s.pend = nil
	s.tl.moveTo(id)
	return nil
}

func (s *Server) gotoVersion(w http.ResponseWriter, r *http.Request) {
	var req struct {
		ID int `json:"id"`
	}
	if !decode(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.move(req.ID)
	s.bump()
	s.reply(w, r, err)
}

// setPerCall switches how conditions are asked: at each call ({"on":
// true}) or once per step. A step under way keeps its setting.
func (s *Server) setPerCall(w http.ResponseWriter, r *http.Request) {
	var req struct {
		On bool `json:"on"`
	}
	if !decode(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.perCall = req.On
	s.bump()
	s.reply(w, r, nil)
}

// act runs f under the server's lock once the tree is ready, then tells
// the waiting pages and answers the request with f's error, if any.
func (s *Server) act(w http.ResponseWriter, r *http.Request, f func() error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.ready()
	if err == nil {
		err = f()
	}
	s.bump()
	s.reply(w, r, err)
}

func (s *Server) undo(w http.ResponseWriter, r *http.Request) {
	s.act(w, r, func() error {
		if p := s.tl.nodes[s.tl.cur].parent; p >= 0 {
			return s.move(p)
		}
		return errors.New("nothing to undo: this is the start")
	})
}

func (s *Server) redo(w http.ResponseWriter, r *http.Request) {
	s.act(w, r, func() error {
		if k := s.tl.nodes[s.tl.cur].redo; k >= 0 {
			return s.move(k)
		}
		return errors.New("nothing to redo")
	})
}

func (s *Server) restart(w http.ResponseWriter, r *http.Request) {
	s.act(w, r, func() error {
		s.tl = newTimeline(s.eng.start())
		s.pend = nil
		return nil
	})
}

// liveAsyncs returns the async results pending at version id (a loaded
// version's included), by node.
func (s *Server) liveAsyncs(id int) []asyncRef {
	if s.eng.name() != "stepped" {
		return nil
	}
	var out []asyncRef
	for node, a := range s.tl.nodes[id].v.(bt.Stepped[bt.Call]).Pending() {
		out = append(out, asyncRef{node, a})
	}
	return out
}

// settle settles the async result of a node of the current version. An
// Async is shared by every version that holds it; the settlement applies
// at the first step of the node that no version had made (the library's
// rule, which keeps undo exact): the next step of the current version.
func (s *Server) settle(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Node  int    `json:"node"`
		Value string `json:"value"`
	}
	if !decode(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := func() error {
		if err := s.ready(); err != nil {
			return err
		}
		for _, a := range s.liveAsyncs(s.tl.cur) {
			if a.node != req.Node {
				continue
			}
			var ok bool
			switch req.Value {
			case "success":
				ok = a.a.Succeed()
			case "failure":
				ok = a.a.Fail()
			default:
				return fmt.Errorf("settle with success or failure, not %q", req.Value)
			}
			if !ok {
				return fmt.Errorf("node %d's async result is already settled", req.Node)
			}
			s.notice = fmt.Sprintf("node %d's async result settled with %s: it applies at the next step", req.Node, req.Value)
			return nil
		}
		return fmt.Errorf("node %d has no pending async result in this version", req.Node)
	}()
	s.bump()
	s.reply(w, r, err)
}

// setMemory makes a version with one key of the current version's memory
// set (or deleted, for null): strings, numbers and booleans.
func (s *Server) setMemory(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Key   string          `json:"key"`
		Value json.RawMessage `json:"value"`
	}
	if !decode(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := func() error {
		if err := s.ready(); err != nil {
			return err
		}
		if req.Key == "" {
			return errors.New("a memory key must not be empty")
		}
		if s.eng.name() == "btcpp" {
			return errors.New("a BehaviorTree.CPP blackboard is set by scope and type (/api/blackboard), not as a memory")
		}
		if len(s.tl.nodes) >= s.cfg.MaxVersions {
			return fmt.Errorf("the timeline holds %d versions, the most it keeps: restart it", len(s.tl.nodes))
		}
		var v any
		if err := json.Unmarshal(req.Value, &v); err != nil {
			return fmt.Errorf("memory value: %w", err)
		}
		cur := s.tl.nodes[s.tl.cur]
		m := s.eng.memory(cur.v)
		label := fmt.Sprintf("memory: %s = %s", req.Key, bytes.TrimSpace(req.Value))
		switch v.(type) {
		case nil:
			m = m.Delete(req.Key)
			label = "memory: " + req.Key + " deleted"
		case string, float64, bool:
			m = m.Set(req.Key, v)
		default:
			return errors.New("a memory value from the page is a string, a number, a boolean, or null to delete the key")
		}
		s.pend = nil
		s.tl.add(cur.id, &vnode{v: s.eng.withMemory(cur.v, m), label: shorten(label, maxLabel), signal: bt.Running})
		return nil
	}()
	s.bump()
	s.reply(w, r, err)
}

// maxLabel bounds the bytes of a version's label: every state the page
// fetches lists every label of the timeline.
const maxLabel = 200

// shorten cuts s to about limit bytes, on a rune boundary.
func shorten(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// save serves the current version's saved state.
func (s *Server) save(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	var data []byte
	err := s.ready()
	if err == nil {
		data, err = s.eng.marshal(s.tl.nodes[s.tl.cur].v)
	}
	name := filepath.Base(s.cfg.Name) + ".state"
	if err != nil {
		s.notice = "saving the version: " + err.Error()
		s.bump()
	}
	s.mu.Unlock()
	if err != nil {
		http.Error(w, "playground: saving the version: "+err.Error(), http.StatusConflict)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("Content-Disposition", "attachment; filename="+strconv.Quote(name))
	w.Write(data)
}

// loadState restores a saved state (the request's body) onto the current
// definition, as a new version after the current one.
func (s *Server) loadState(w http.ResponseWriter, r *http.Request) {
	// One load at a time, decoded outside the lock: the other requests
	// go on meanwhile, and the memory of a decoding is one load's.
	select {
	case s.loading <- struct{}{}:
		defer func() { <-s.loading }()
	case <-r.Context().Done():
		return
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxLoad))
	if err != nil {
		http.Error(w, "playground: reading the saved state: "+err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	s.mu.Lock()
	eng := s.eng
	s.mu.Unlock()
	var v any
	if eng != nil {
		v, err = eng.restore(data)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err = func() error {
		if err := s.ready(); err != nil {
			return err
		}
		if s.eng != eng {
			return errors.New("the tree changed while the saved state was read: load it again")
		}
		if len(s.tl.nodes) >= s.cfg.MaxVersions {
			return fmt.Errorf("the timeline holds %d versions, the most it keeps: restart it", len(s.tl.nodes))
		}
		if err != nil {
			return fmt.Errorf("loading the saved state: %w", err)
		}
		s.pend = nil
		s.tl.add(s.tl.cur, &vnode{v: v, label: "loaded", signal: bt.Running})
		return nil
	}()
	if err != nil {
		s.notice = err.Error()
	}
	s.bump()
	s.reply(w, r, err)
}

// export serves the replay page of the line from the start to the current
// version (package viewer's static page).
func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	var buf bytes.Buffer
	err := s.ready()
	if err == nil {
		err = s.eng.export(&buf, s.cfg.Name, s.tl.line(s.tl.cur))
	}
	s.mu.Unlock()
	if err != nil {
		http.Error(w, "playground: exporting: "+err.Error(), http.StatusConflict)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Disposition", "attachment; filename="+strconv.Quote(filepath.Base(s.cfg.Name)+".html"))
	// The exported page has its own inline script and policy: as a
	// download it is not run here.
	w.Write(buf.Bytes())
}

// letters returns the states of a picture as the viewer's letters.
func letters(p bt.Picture) (string, []int) {
	b := make([]byte, len(p.Nodes))
	var focus []int
	for i, n := range p.Nodes {
		b[i] = viewer.Letter(n.State)
		if n.Focus {
			focus = append(focus, i)
		}
	}
	return string(b), focus
}
