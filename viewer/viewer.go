// Package viewer writes HTML replay viewers for behavior trees: one
// self-contained file (inline JavaScript and CSS, no network) that replays
// a [bt.History], any sequence of tree versions, or stepped versions, step
// by step. It imports nothing of the Battleship example: package
// battleship/replay builds its game pages from this one.
//
// The page lays the tree out once, one node per row, and at each step only
// recolours the nodes whose state changed (ready, running, succeeded,
// failed) and moves the focus mark, so it stays smooth for histories of
// tens of thousands of steps. It has a timeline scrubber, buttons,
// play/pause with a speed, and keys: ← and → (with Shift, ten steps),
// Home, End and space. For a game on a grid it draws the board beside the
// tree with each turn's shot ([Replay.SetBoard]), and for every step it lists that step's
// events, and the agent's memory, with the keys the step changed
// highlighted. Subtrees collapse (click the triangle), a search box finds
// nodes by name (/ to focus it, Enter for the next match), and the URL's
// fragment keeps the step shown (#step=17, or #replay=2&step=17 past the
// first replay), read when the page opens.
//
// The steps are encoded compactly: for each step, the nodes whose state
// changed since the step before ("12s3f": node 12 succeeded, node 3
// failed), then the focus ("|5"); the page rebuilds states from a keyframe
// every 64 steps. A 10,000-step History of a small tree makes a page of a
// few hundred kilobytes.
//
// Build a page from [Replay] values ([NewReplay], or [HistoryReplay],
// [TreesReplay] and [SteppedReplay]) and write it with [Write];
// [WriteHistory] does both at once.
//
// To watch trees while a program runs them, mount a [Monitor] (an
// http.Handler), make a [Feed] of it per tree ([NewTreeFeed],
// [NewSteppedFeed]) and publish every version the program steps to: the
// monitor's page follows a tree live with the same drawing, and a publish
// costs tens of nanoseconds and no allocation while no page watches.
package viewer

import (
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"slices"
	"strconv"
	"strings"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
)

//go:embed viewer.html
var pageHTML string

//go:embed viewer.css
var pageCSS string

//go:embed viewer.js
var pageJS string

// staticCSP is the Content-Security-Policy of the pages Write writes: no
// network, and only the page's own script and style sheet, by their
// hashes.
var staticCSP = "default-src 'none'; base-uri 'none'; form-action 'none'; script-src '" + hash(pageJS) + "'; style-src '" + hash(pageCSS) + "'"

// hash returns the CSP source of text by its SHA-256.
func hash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// stateLetters are the letters of the states in the page's encoding.
const stateLetters = "irsf"

// Letter returns the letter by which the page encodes s: 'i' ready (idle),
// 'r' running, 's' succeeded, 'f' failed. The page's nodes carry it in
// their data-s attribute.
func Letter(s bt.State) byte {
	if int(s) < len(stateLetters) {
		return stateLetters[s]
	}
	return '?'
}

// Replay is the replay of one tree: its layout, drawn once, and its
// steps. Make one with [NewReplay] and add steps with [Replay.Add]; each
// step is encoded as it is added, so a Replay keeps only a few bytes per
// step.
type Replay struct {
	title  string
	nodes  [][5]any // parent, kind, params, label, attrs
	shown  []bt.State
	steps  []string
	labels map[int]string   // the steps that have a label
	events map[int][]string // the steps that have events
	sigs   []byte           // TreesReplay: each step's signal, 's', 'f' or '-'
	board  *board
	shots  []*[4]any // x, y, "m"/"h"/"s", ship
	hasSig bool
	// The agent's memory: the listing (key, value as text) of each step
	// whose listing differs from the step before's, the memory and the
	// listing last added, and whether any step had memory.
	mems    map[int][][2]string
	lastMem memory.Map
	listing [][2]string
	hasMem  bool
}

// board is a grid game's board: its size and its ships' cells.
type board struct {
	Cols  int     `json:"cols"`
	Rows  int     `json:"rows"`
	Ships [][]int `json:"ships"` // x0, y0, x1, y1, ...
}

// NewReplay returns a Replay of the tree drawn by layout (its nodes, kinds,
// labels; the states and focus of layout are ignored: each step brings
// its own), with no steps yet. It returns an error for a layout with no
// nodes, or whose nodes are not in preorder (see [bt.Picture]).
func NewReplay(title string, layout bt.Picture) (*Replay, error) {
	if err := layout.WriteText(io.Discard, bt.ASCII); err != nil {
		return nil, fmt.Errorf("viewer.NewReplay: %w", err)
	}
	r := &Replay{title: title, nodes: make([][5]any, len(layout.Nodes)), shown: make([]bt.State, len(layout.Nodes)),
		labels: map[int]string{}, events: map[int][]string{}}
	for i, nd := range layout.Nodes {
		r.nodes[i] = [5]any{nd.Parent, nd.Word(), nd.Params, nd.Label, nd.Attrs}
	}
	return r, nil
}

// Step is one step of a [Replay]: the state of every node, the focus, and
// what to show beside the tree.
type Step struct {
	// Label is the step's title ("turn 3: go_right at B1"); "" shows
	// "step k".
	Label string
	// States holds the state of each node of the layout, in its order.
	States []bt.State
	// Focus holds the indexes of the nodes to mark: a Tree's focused leaf,
	// or a Stepped tree's running tips.
	Focus []int
	// Events are the lines listed for the step.
	Events []string
	// Shot is the step's shot on the board set by [Replay.SetBoard], or
	// nil.
	Shot *Shot
	// Memory is the agent's memory at the step ([bt.Tree.Memory],
	// [bt.Stepped.Memory]). The page lists it, key: value, and highlights
	// the keys whose value differs from the step before's (and lists the
	// keys the step forgot). A replay in which no step has memory shows no
	// memory panel.
	Memory memory.Map
}

// Shot is a shot on the board of [Replay.SetBoard]: its column and row (from 0), what
// it hit ("miss", "hit" or "sunk") and the ship it hit (from 0), or -1.
type Shot struct {
	X, Y   int
	Answer string
	Ship   int
}

// SetBoard makes the page draw a board of cols × rows cells (a grid game's,
// such as Battleship's)
// beside the tree, with the given ships (each a list of cells, [x, y]
// from 0) drawn faintly until they are hit. Steps show their [Step.Shot]
// on it, and every earlier one.
func (r *Replay) SetBoard(cols, rows int, ships [][][2]int) error {
	if cols < 1 || rows < 1 || cols > 1000 || rows > 1000 {
		return fmt.Errorf("viewer.Replay.SetBoard: a %dx%d board", cols, rows)
	}
	b := &board{Cols: cols, Rows: rows, Ships: make([][]int, len(ships))}
	for i, s := range ships {
		b.Ships[i] = []int{}
		for _, c := range s {
			if c[0] < 0 || c[1] < 0 || c[0] >= cols || c[1] >= rows {
				return fmt.Errorf("viewer.Replay.SetBoard: ship %d has cell %v, off the %dx%d board", i, c, cols, rows)
			}
			b.Ships[i] = append(b.Ships[i], c[0], c[1])
		}
	}
	r.board = b
	return nil
}

// Len returns the number of steps added.
func (r *Replay) Len() int { return len(r.steps) }

// Add appends a step. It returns an error when the step does not have one
// state per node, names a focus outside the tree, or has a shot off the
// board (or a shot without a board).
func (r *Replay) Add(s Step) error { return r.add(s, '-') }

// add is Add, with the signal that made the step: 's' success, 'f'
// failure, '-' none. The page says "step k: success, now at X" and lists
// "success signalled" for a step without a label of its own.
func (r *Replay) add(s Step, sig byte) error {
	if len(s.States) != len(r.nodes) {
		return fmt.Errorf("viewer.Replay.Add: step %d has %d states for %d nodes", len(r.steps), len(s.States), len(r.nodes))
	}
	var b strings.Builder
	for i, st := range s.States {
		if int(st) >= len(stateLetters) {
			return fmt.Errorf("viewer.Replay.Add: step %d: node %d has invalid %v", len(r.steps), i, st)
		}
		if st != r.shown[i] {
			b.WriteString(strconv.Itoa(i))
			b.WriteByte(stateLetters[st])
		}
	}
	for j, f := range s.Focus {
		if f < 0 || f >= len(r.nodes) {
			return fmt.Errorf("viewer.Replay.Add: step %d: focus %d outside the tree of %d nodes", len(r.steps), f, len(r.nodes))
		}
		if j == 0 {
			b.WriteByte('|')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(f))
	}
	var shot *[4]any
	if s.Shot != nil {
		sh := s.Shot
		if r.board == nil || sh.X < 0 || sh.Y < 0 || sh.X >= r.board.Cols || sh.Y >= r.board.Rows {
			return fmt.Errorf("viewer.Replay.Add: step %d: shot (%d,%d) off the board", len(r.steps), sh.X, sh.Y)
		}
		code := map[string]string{"miss": "m", "hit": "h", "sunk": "s"}[sh.Answer]
		if code == "" {
			return fmt.Errorf("viewer.Replay.Add: step %d: shot answer %q, want miss, hit or sunk", len(r.steps), sh.Answer)
		}
		shot = &[4]any{sh.X, sh.Y, code, sh.Ship}
	}
	copy(r.shown, s.States)
	r.addMemory(s.Memory)
	if s.Label != "" {
		r.labels[len(r.steps)] = s.Label
	}
	if len(s.Events) > 0 {
		r.events[len(r.steps)] = s.Events
	}
	r.steps = append(r.steps, b.String())
	r.shots = append(r.shots, shot)
	r.sigs = append(r.sigs, sig)
	r.hasSig = r.hasSig || sig != '-'
	return nil
}

// addMemory records the memory of the step being added, when its listing
// differs from the step before's.
func (r *Replay) addMemory(m memory.Map) {
	k := len(r.steps)
	if k > 0 && m == r.lastMem {
		return // the same memory as the step before: nothing to record
	}
	r.lastMem = m
	listing := make([][2]string, 0, m.Len())
	for key, v := range m.All() {
		listing = append(listing, [2]string{key, memoryText(v)})
	}
	if k > 0 && slices.Equal(listing, r.listing) {
		return
	}
	if m.Len() > 0 {
		r.hasMem = true
	}
	if r.mems == nil {
		r.mems = map[int][][2]string{}
	}
	r.mems[k], r.listing = listing, listing
}

// memoryText shows a memory value as memory.Map.String does: strings
// quoted, other values as %v prints them.
func memoryText(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprintf("%v", v)
}

// data is the page's JSON for one replay.
type data struct {
	Title  string           `json:"title"`
	Nodes  [][5]any         `json:"nodes"`
	Steps  []string         `json:"steps"`
	Labels map[int]string   `json:"labels,omitempty"`
	Events map[int][]string `json:"events,omitempty"`
	Sig    string           `json:"sig,omitempty"`
	Board  *board           `json:"board,omitempty"`
	Shots  []*[4]any        `json:"shots,omitempty"`
	// Mem holds the memory listing of each step whose listing differs
	// from the step before's; a step without one has the listing before.
	Mem map[int][][2]string `json:"mem,omitempty"`
}

// Write writes a viewer page titled title that replays rs (a menu switches
// between them when there are several) to w. It returns an error when
// there is no replay, a replay has no step, or w fails.
func Write(w io.Writer, title string, rs ...*Replay) error {
	if len(rs) == 0 {
		return errors.New("viewer.Write: no replay")
	}
	page := struct {
		Title   string `json:"title"`
		Replays []data `json:"replays"`
	}{Title: title}
	for i, r := range rs {
		if r == nil || len(r.steps) == 0 {
			return fmt.Errorf("viewer.Write: replay %d has no steps", i)
		}
		d := data{Title: r.title, Nodes: r.nodes, Steps: r.steps, Board: r.board, Labels: r.labels, Events: r.events}
		if r.hasSig {
			d.Sig = string(r.sigs)
		}
		if r.board != nil {
			d.Shots = r.shots
		}
		if r.hasMem {
			d.Mem = r.mems
		}
		page.Replays = append(page.Replays, d)
	}
	js, err := json.Marshal(page) // escapes <, > and &: safe inside <script>
	if err != nil {
		return fmt.Errorf("viewer.Write: %w", err)
	}
	out := strings.NewReplacer(
		"{{CSP}}", staticCSP,
		"{{TITLE}}", html.EscapeString(title),
		"{{HEAD}}", "<style>"+pageCSS+"</style>",
		"{{LIVE}}", "",
		"{{BODY}}", `<script type="application/json" id="bt-data">`+string(js)+"</script>\n<script>"+pageJS+"</script>",
	).Replace(pageHTML)
	if _, err := io.WriteString(w, out); err != nil {
		return fmt.Errorf("viewer.Write: %w", err)
	}
	return nil
}
