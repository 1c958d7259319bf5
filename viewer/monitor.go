package viewer

// The live monitor. Invariants:
//
//   - A Feed's ring holds its last len(ring) published versions: version
//     k (counting from 0) is at ring[k % len(ring)] while k >= seq -
//     len(ring). Publish writes one slot, counts, and wakes the feed's
//     watchers with non-blocking sends on their channels (capacity 1), all
//     under the feed's lock; it never waits on a watcher, allocates
//     nothing, and does no encoding.
//   - Each watcher (one SSE connection) runs in its own goroutine: it
//     copies the versions it has not sent from the ring (at most
//     len(ring): its bounded buffer) under the lock, encodes and writes
//     them outside it. If more than len(ring) versions were published
//     since it last looked, the ones between fell out of the ring: it
//     sends a "reset" with the kept ones (drop and resync). A write that
//     does not finish within MonitorOptions.WriteTimeout ends the
//     connection.
//   - A reset is encoded once per feed, by one stream at a time (resetMu),
//     and shared: a stream takes the feed's last reset when it shows the
//     version the stream is at or a later one still in its copy, and goes
//     on from its end with the encoder state saved with it. A reset holds
//     the newest versions whose text fits in maxResetBytes.
//   - At most MonitorOptions.MaxStreams streams are open; one more gets
//     a 503. So the monitor's heap is bounded (MonitorBudget).

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
)

//go:embed monitor.js
var monitorJS string

// MonitorOptions configure a [Monitor]. The zero value is usable.
type MonitorOptions struct {
	// Title is the page's title; "" is "behavior tree monitor".
	Title string
	// Keep is the number of versions each feed keeps for the page's
	// scrubber: the last Keep published. 0 means 1000. A feed holds Keep
	// versions from its creation (each a few words, see [Feed]).
	Keep int
	// Hosts are host names, besides IP addresses and "localhost", that
	// requests may name in their Host header (the name the server is
	// reached by, such as "mybox.lan"). Requests naming another host are
	// refused, so that a web page cannot read the monitor through DNS
	// rebinding.
	Hosts []string
	// WriteTimeout bounds each write to a page's event stream; a page that
	// does not take its events for that long is disconnected (it
	// reconnects, and resyncs, if it is still open). 0 means 30 seconds.
	WriteTimeout time.Duration
	// MaxStreams bounds the event streams (open pages) served at once;
	// one more is refused with 503 Service Unavailable. 0 means 64.
	MaxStreams int
}

// Limits of the monitor's memory (see MonitorBudget and DESIGN.md).
const (
	// maxResetBytes bounds the text of one reset (a feed's layout aside):
	// when the kept versions take more, the reset holds the newest that
	// fit, the first with its whole memory listing.
	maxResetBytes = 2 << 20
	// streamBytes bounds what one event stream holds besides the feed's
	// shared reset: its copy of the kept versions (Keep words of each),
	// its encoder and one step's event.
	streamBytes = 384 << 10
)

// MonitorBudget returns the most heap, in bytes, that a Monitor's event
// streams take with the given feeds and open streams, Keep at most 1,000
// (the versions themselves, which the program made, aside): each feed's
// reset, encoded once and shared by its streams (at most 2 MB of text,
// counted four times for its encoding, the worlds of [Feed.PublishWith]
// included), and 384 KB a stream (one step's event with its world
// included: a world's text and lines take at most about 130 KB once
// escaped as JSON). Streams past
// MonitorOptions.MaxStreams are refused, and a page that does not read
// its stream holds its share for at most MonitorOptions.WriteTimeout.
func MonitorBudget(feeds, streams int) int {
	return feeds*4*maxResetBytes + streams*streamBytes
}

// Monitor is an HTTP handler that shows behavior trees live as a program
// steps them. The program makes a feed for each tree it runs
// ([NewTreeFeed] for Value/Succeed/Fail trees, [NewSteppedFeed] for
// stepped trees) and publishes every version it steps to, with
// [Feed.Publish]. The page lists the feeds and follows one: its tree
// drawn as the static replay viewer draws it (the same script), recoloured
// at every published version, with the version's memory, the nodes whose
// state changed, and a scrubber over the versions the feed keeps.
//
// It serves, read only (GET and HEAD):
//
//	/             the page
//	/viewer.js    the drawing script, shared with the pages of [Write]
//	/monitor.js   the page's live part
//	/viewer.css   the style sheet
//	/trees        the feeds as JSON: [{"id":0,"name":"...","versions":N,"kept":K}]
//	/events       a stream of server-sent events: "trees" (the list of
//	              feeds) and, with ?tree=ID, "reset" (a feed's layout and
//	              kept versions), "step" (each new version) and "end" (the
//	              game ended, or the feed closed: [Feed.End], [Feed.Close])
//
// With [Feed.PublishWith], the page also shows, at each version, the
// program's picture of its world ([World]): a board, text, and lines of
// what happened.
//
// The page loads nothing from the network and is served with a strict
// Content-Security-Policy (scripts and styles from the server only).
// Names and labels are text, never markup. Requests whose Host is not an
// IP address, "localhost" or one of [MonitorOptions.Hosts] are refused.
//
// Mount it on a loopback address unless the trees may be seen by others:
//
//	srv := &http.Server{Addr: "127.0.0.1:8080", Handler: m,
//		ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 30 * time.Second}
//	srv.ListenAndServe()
//
// (http.ListenAndServe sets no timeout: idle connections would stay open
// for good.)
//
// A page that is slow or gone never slows the program: see [Feed.Publish].
// An event stream lasts as long as its page is open, so stop the server
// with [http.Server.Close]: [http.Server.Shutdown] waits for the pages to
// close.
type Monitor struct {
	title   string
	keep    int
	hosts   map[string]bool
	timeout time.Duration
	max     int // streams

	mu       sync.Mutex
	streams  int // open event streams
	feeds    []feedHandle
	watchers map[chan struct{}]struct{} // every open event stream, woken when a feed is added
}

// feedHandle is what a Monitor sees of a Feed, whatever its versions.
type feedHandle interface {
	info() feedInfo
	subscribe(ch chan struct{})
	unsubscribe(ch chan struct{})
	// streamer returns a function that writes the versions published since
	// its last call (or a reset) to an event stream.
	streamer() func(w *sseWriter) error
}

// feedInfo is a feed as /trees lists it.
type feedInfo struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Versions uint64 `json:"versions"`
	Kept     int    `json:"kept"`
	Closed   bool   `json:"closed,omitempty"`
}

// NewMonitor returns a Monitor with no feeds.
func NewMonitor(opts MonitorOptions) *Monitor {
	m := &Monitor{title: opts.Title, keep: opts.Keep, timeout: opts.WriteTimeout,
		hosts: map[string]bool{"localhost": true}, watchers: map[chan struct{}]struct{}{}}
	if m.title == "" {
		m.title = "behavior tree monitor"
	}
	if m.keep <= 0 {
		m.keep = 1000
	}
	if m.timeout <= 0 {
		m.timeout = 30 * time.Second
	}
	if m.max = opts.MaxStreams; m.max <= 0 {
		m.max = 64
	}
	for _, h := range opts.Hosts {
		m.hosts[strings.ToLower(h)] = true
	}
	return m
}

// Feed is one named tree of a [Monitor], to which a program publishes the
// versions of type V it steps to (bt.Tree[L] or bt.Stepped[L]). Make one
// with [NewTreeFeed] or [NewSteppedFeed]. It keeps the last
// [MonitorOptions.Keep] versions published, allocated once when it is
// made; they stay reachable (with their memory) until they are replaced.
//
// A Feed may be used from many goroutines.
type Feed[V any] struct {
	m     *Monitor
	id    int
	name  string
	codec codec[V]

	mu     sync.Mutex
	ring   []V
	worlds []*World // the world published with each version of ring, or nil
	pos    int      // the slot the next version goes to
	seq    uint64   // the number of versions published
	subs   []chan struct{}
	end    endData // the game's end, when End was called after the last version
	closed bool

	// resetMu orders the encoding of resets: one at a time, and a stream
	// that needs one takes the last made (reset) if it still fits.
	resetMu sync.Mutex
	reset   *sharedReset[V]
}

// sharedReset is a reset encoded once for every stream of a feed: its
// event's JSON, and what a stream needs to go on after it.
type sharedReset[V any] struct {
	start, end uint64 // the numbers of its first version and of the one after its last
	data       []byte
	last       V       // its last version
	enc        encoder // the encoder after it (layout, prev, mem, listing)
}

// NewTreeFeed returns a new feed of m, named name, for versions of
// Value/Succeed/Fail trees. Each version shows its node states and focus
// as [bt.Tree.NodeStates] gives them, the signal that made it, and its
// memory. Several feeds may have the same name; the page lists them in the
// order they were made.
func NewTreeFeed[L any](m *Monitor, name string) *Feed[bt.Tree[L]] {
	return newFeed[bt.Tree[L]](m, name, treeCodec[L]{})
}

// NewSteppedFeed returns a new feed of m, named name, for versions of
// stepped trees. Each version shows its node states and running tips as
// [bt.Stepped.Picture] draws them, and its memory.
func NewSteppedFeed[L any](m *Monitor, name string) *Feed[bt.Stepped[L]] {
	return newFeed[bt.Stepped[L]](m, name, steppedCodec[L]{})
}

func newFeed[V any](m *Monitor, name string, c codec[V]) *Feed[V] {
	f := &Feed[V]{m: m, name: name, codec: c, ring: make([]V, m.keep), worlds: make([]*World, m.keep)}
	m.mu.Lock()
	f.id = len(m.feeds)
	m.feeds = append(m.feeds, f)
	for ch := range m.watchers {
		wake(ch)
	}
	m.mu.Unlock()
	return f
}

// wake wakes the event stream waiting on ch, without waiting: a stream
// already woken has a wake-up pending.
func wake(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// Name returns the feed's name.
func (f *Feed[V]) Name() string { return f.name }

// Publish adds v as the feed's newest version: pages following the feed
// show it, and it replaces the oldest kept version. It never waits for a
// page: it stores v and wakes the pages' streams, which encode and send
// it from their own goroutines; a page that falls more than Keep versions
// behind gets the kept versions afresh. With no page open it costs a
// lock, a store and a count (tens of nanoseconds), and allocates nothing.
//
// Versions of another definition than the one before start the page's
// drawing afresh with the new tree. The zero value of V is not a version:
// the page skips it.
func (f *Feed[V]) Publish(v V) { f.publish(v, nil) }

// PublishWith is [Feed.Publish] with a picture of the program's world at
// v (a game's board, text, the turn's events), which the page shows beside
// the tree. It returns an error, and publishes nothing, when w is not
// valid (see [World] and [Grid]). The page shows at most 8 KB of w.Text,
// 40 of w.Events, and a grid of at most 10,000 cells.
func (f *Feed[V]) PublishWith(v V, w World) error {
	if err := w.check(); err != nil {
		return fmt.Errorf("viewer.Feed.PublishWith: feed %q: %w", f.name, err)
	}
	if w.Grid != nil {
		g := *w.Grid
		w.Grid = &g
	}
	w.Events = append([]string(nil), w.Events[:min(len(w.Events), maxEventLines)]...) // the program may reuse its slice
	f.publish(v, &w)
	return nil
}

func (f *Feed[V]) publish(v V, w *World) {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return
	}
	f.end = endData{}
	f.ring[f.pos] = v
	f.worlds[f.pos] = w
	if f.pos++; f.pos == len(f.ring) {
		f.pos = 0
	}
	f.seq++
	for _, ch := range f.subs {
		wake(ch)
	}
	f.mu.Unlock()
}

// End says that the game of the last version published ended, with
// result ("won in 42 shots"): the page says so at that version. A
// version published after it starts a new game. The page shows at most
// 300 bytes of result.
func (f *Feed[V]) End(result string) {
	f.mu.Lock()
	if f.seq > 0 && !f.closed {
		f.end = endData{N: f.seq, Result: truncate(result, maxLabelText)}
	}
	for _, ch := range f.subs {
		wake(ch)
	}
	f.mu.Unlock()
}

// Close closes the feed: versions published after it are ignored, and
// the page says the feed is closed (it still shows the kept versions).
func (f *Feed[V]) Close() {
	f.mu.Lock()
	f.closed = true
	for _, ch := range f.subs {
		wake(ch)
	}
	f.mu.Unlock()
}

// endData is a feed's end as the "end" event sends it: the number of the
// version after the game's last (0: not ended) and the result.
type endData struct {
	N      uint64 `json:"n"`
	Result string `json:"result"`
	Closed bool   `json:"closed"`
}

// Len returns the number of versions published.
func (f *Feed[V]) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return int(f.seq)
}

func (f *Feed[V]) info() feedInfo {
	f.mu.Lock()
	defer f.mu.Unlock()
	return feedInfo{ID: f.id, Name: f.name, Versions: f.seq, Kept: int(min(f.seq, uint64(len(f.ring)))), Closed: f.closed}
}

func (f *Feed[V]) subscribe(ch chan struct{}) {
	f.mu.Lock()
	f.subs = append(f.subs, ch)
	f.mu.Unlock()
}

func (f *Feed[V]) unsubscribe(ch chan struct{}) {
	f.mu.Lock()
	for i, c := range f.subs {
		if c == ch {
			f.subs = append(f.subs[:i], f.subs[i+1:]...)
			break
		}
	}
	f.mu.Unlock()
}

// codec reads what the page shows of a version of type V.
type codec[V any] interface {
	// valid reports whether v is a version (not a zero value).
	valid(v V) bool
	// same reports whether a and b are versions of one definition.
	same(a, b V) bool
	// layout returns the picture of v's definition.
	layout(v V) bt.Picture
	// states fills st with v's node states and focus.
	states(v V, st *encoder)
	// memory returns v's memory.
	memory(v V) memory.Map
	// label describes version n.
	label(v V, n uint64) string
}

// treeCodec reads versions of Value/Succeed/Fail trees.
type treeCodec[L any] struct{}

func (treeCodec[L]) valid(v bt.Tree[L]) bool   { return v != bt.Tree[L]{} }
func (treeCodec[L]) same(a, b bt.Tree[L]) bool { return a.Definition() == b.Definition() }
func (treeCodec[L]) layout(v bt.Tree[L]) bt.Picture {
	return v.Definition().Picture()
}
func (treeCodec[L]) states(v bt.Tree[L], st *encoder) {
	st.states = v.NodeStates(st.states)
	st.focus = append(st.focus[:0], v.FocusIndex())
}
func (treeCodec[L]) memory(v bt.Tree[L]) memory.Map { return v.Memory() }
func (treeCodec[L]) label(v bt.Tree[L], n uint64) string {
	s := fmt.Sprintf("version %d: ", n)
	if v.LastSignal() == bt.Running {
		s += fmt.Sprintf("at %v", v.Value())
	} else {
		s += fmt.Sprintf("%v signalled, now at %v", v.LastSignal(), v.Value())
	}
	if v.Status() != bt.Running {
		s += fmt.Sprintf(" (the root ended with %v; the tree started over)", v.Status())
	}
	return s
}

// steppedCodec reads versions of stepped trees.
type steppedCodec[L any] struct{}

func (steppedCodec[L]) valid(v bt.Stepped[L]) bool   { return v != bt.Stepped[L]{} }
func (steppedCodec[L]) same(a, b bt.Stepped[L]) bool { return a.Definition() == b.Definition() }
func (steppedCodec[L]) layout(v bt.Stepped[L]) bt.Picture {
	return v.Picture()
}
func (steppedCodec[L]) states(v bt.Stepped[L], st *encoder) {
	n := len(st.layout.Nodes) // the picture of v's tree
	if cap(st.states) < n {
		st.states = make([]bt.State, n)
		st.running = make([]bool, n)
	}
	st.states, st.running = st.states[:n], st.running[:n]
	st.states, st.focus = steppedStates(st.layout, v, st.states, st.running, st.focus)
}
func (steppedCodec[L]) memory(v bt.Stepped[L]) memory.Map { return v.Memory() }
func (steppedCodec[L]) label(v bt.Stepped[L], n uint64) string {
	return fmt.Sprintf("version %d: the tree is %v", n, v.State())
}

// encoder is one event stream's encoding state for one feed.
type encoder struct {
	layout  bt.Picture
	states  []bt.State
	prev    []bt.State // the states of the version sent before, for its events
	running []bool
	focus   []int
	mem     memory.Map
	listing [][2]string
}

// Limits of what one version sends: the page is for people.
const (
	maxEventLines = 40       // state changes listed per version
	maxMemoryKeys = 200      // memory keys listed per version
	maxMemoryText = 32 << 10 // bytes of a version's memory listing (a reset holds Keep of them)
	maxValueText  = 2000     // bytes of a memory value's text
	maxLabelText  = 300      // bytes of a label
)

// stepData is one version as the page receives it.
type stepData struct {
	N      uint64       `json:"n"`
	Step   string       `json:"step"`
	Label  string       `json:"label"`
	Events []string     `json:"events,omitempty"`
	Mem    *[][2]string `json:"mem,omitempty"`   // the memory listing, when it differs from the version before's
	Text   string       `json:"text,omitempty"`  // the world's text
	World  []string     `json:"world,omitempty"` // the world's events
	Grid   *Grid        `json:"grid,omitempty"`
}

// resetData is a feed's layout and kept versions.
type resetData struct {
	ID    int        `json:"id"`
	Title string     `json:"title"`
	Keep  int        `json:"keep"`
	Nodes [][5]any   `json:"nodes"`
	Steps []stepData `json:"steps"`
}

// encode encodes version n, v; fresh says it is the first of a reset
// (no events, its memory listed whatever it is).
func (e *encoder) encode(c codecAny, w *World, n uint64, fresh bool) stepData {
	c.states(e)
	var b strings.Builder
	for i, st := range e.states {
		if st != bt.StateReady && int(st) < len(stateLetters) {
			b.WriteString(strconv.Itoa(i))
			b.WriteByte(stateLetters[st])
		}
	}
	for j, f := range e.focus {
		if j == 0 {
			b.WriteByte('|')
		} else {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(f))
	}
	d := stepData{N: n, Step: b.String(), Label: truncate(c.label(n), maxLabelText)}
	if !fresh && len(e.prev) == len(e.states) {
		for i := range e.states {
			if e.prev[i] == e.states[i] {
				continue
			}
			if len(d.Events) == maxEventLines {
				d.Events = append(d.Events, "(more nodes changed)")
				break
			}
			d.Events = append(d.Events, EventText(e.layout, bt.Event[string]{Kind: bt.EventState, Node: i, From: e.prev[i], To: e.states[i]}))
		}
		if len(d.Events) == 0 {
			// A stepped tree that ends each step as the step before did
			// (a bot that takes one turn a step) changes no node's state.
			d.Events = append(d.Events, fmt.Sprintf("no node's state changed since version %d", n-1))
		}
	}
	e.prev = append(e.prev[:0], e.states...)
	if w != nil {
		d.Text = truncate(w.Text, maxWorldText)
		d.World = w.events()
		d.Grid = w.Grid
	}
	m := c.memory()
	if fresh || m != e.mem {
		listing := make([][2]string, 0, min(m.Len(), maxMemoryKeys))
		size := 0
		for key, v := range m.All() {
			if len(listing) == maxMemoryKeys || size >= maxMemoryText {
				listing = append(listing, [2]string{"…", fmt.Sprintf("(%d more keys)", m.Len()-len(listing))})
				break
			}
			kv := [2]string{truncate(key, maxValueText), truncate(memoryText(v), maxValueText)}
			size += len(kv[0]) + len(kv[1])
			listing = append(listing, kv)
		}
		if fresh || !equalListing(listing, e.listing) {
			d.Mem = &listing
			e.listing = listing
		}
		e.mem = m
	}
	return d
}

// codecAny is a codec bound to one version.
type codecAny interface {
	states(e *encoder)
	memory() memory.Map
	label(n uint64) string
}

// bound binds codec c to version v.
type bound[V any] struct {
	c codec[V]
	v V
}

func (b bound[V]) states(e *encoder)     { b.c.states(b.v, e) }
func (b bound[V]) memory() memory.Map    { return b.c.memory(b.v) }
func (b bound[V]) label(n uint64) string { return b.c.label(b.v, n) }

func equalListing(a, b [][2]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// truncate cuts s to about limit bytes, on a rune boundary.
func truncate(s string, limit int) string {
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// streamer returns the function that sends f's versions to one event
// stream; see the invariants at the top of the file.
func (f *Feed[V]) streamer() func(w *sseWriter) error {
	var (
		next   uint64 // the first version not sent
		synced bool   // a reset was sent, and every version since
		last   V      // the last version sent
		buf    = make([]V, 0, len(f.ring))
		wbuf   = make([]*World, 0, len(f.ring))
		enc    encoder
		ended  endData // the end last sent
	)
	// resync sends a reset of buf[i:], the first numbered from+i (or the
	// feed's shared reset of them or of later ones), and returns where
	// in buf to go on.
	resync := func(w *sseWriter, from uint64, i int) (int, error) {
		if i >= len(buf) || !f.codec.valid(buf[i]) {
			// Nothing to show yet, or a zero value (skipped).
			d := resetData{ID: f.id, Title: f.name, Keep: len(f.ring), Nodes: [][5]any{}, Steps: []stepData{}}
			return min(i+1, len(buf)), w.event("reset", d)
		}
		r, err := f.sharedReset(buf, wbuf, from, i)
		if err != nil {
			return i, err
		}
		last = r.last
		enc = encoder{layout: r.enc.layout, prev: append(enc.prev[:0], r.enc.prev...), mem: r.enc.mem, listing: r.enc.listing}
		return int(r.end - from), w.eventRaw("reset", r.data)
	}
	return func(w *sseWriter) error {
		f.mu.Lock()
		seq, from := f.seq, next
		reset := !synced
		if n := uint64(len(f.ring)); seq-from > n {
			from, reset = seq-n, true // the versions between were dropped
		}
		buf, wbuf = buf[:0], wbuf[:0]
		for k := from; k < seq; k++ {
			j := (f.pos + len(f.ring) - int(seq-k)) % len(f.ring)
			buf, wbuf = append(buf, f.ring[j]), append(wbuf, f.worlds[j])
		}
		end := f.end
		end.Closed = f.closed
		f.mu.Unlock()
		if reset {
			ended = endData{}
		}
		next = seq
		i := 0
		var err error
		if reset {
			// From the first of the kept versions of the latest definition.
			j := len(buf) - 1
			for j >= 0 && !f.codec.valid(buf[j]) {
				j--
			}
			i = max(j, 0)
			for i > 0 && f.codec.valid(buf[i-1]) && f.codec.same(buf[i-1], buf[j]) {
				i--
			}
			synced = true
			if i, err = resync(w, from, i); err != nil {
				return err
			}
		}
		for i < len(buf) {
			v, n := buf[i], from+uint64(i)
			switch {
			case !f.codec.valid(v):
				i++
			case !f.codec.valid(last) || !f.codec.same(v, last):
				if i, err = resync(w, from, i); err != nil {
					return err
				}
			default:
				last = v
				if err := w.event("step", enc.encode(bound[V]{f.codec, v}, wbuf[i], n, false)); err != nil {
					return err
				}
				i++
			}
		}
		if end != ended {
			ended = end
			return w.event("end", end)
		}
		return nil
	}
}

// sharedReset returns a reset of buf[i:], whose first version is numbered
// from+i: the feed's last reset if it shows version from+i or a later one
// and no version past buf, else a new one, which becomes the feed's.
// buf[i] is a version.
func (f *Feed[V]) sharedReset(buf []V, wbuf []*World, from uint64, i int) (*sharedReset[V], error) {
	f.resetMu.Lock()
	defer f.resetMu.Unlock()
	n, end := from+uint64(i), from+uint64(len(buf))
	if r := f.reset; r != nil && r.end > n && r.end <= end {
		return r, nil
	}
	r, err := f.encodeReset(buf[i:], wbuf[i:], n)
	if err != nil {
		return nil, err
	}
	if f.reset == nil || r.end >= f.reset.end {
		f.reset = r
	}
	return r, nil
}

// encodeReset encodes a reset of vs, the first numbered n: the layout of
// vs[0]'s definition and the versions of vs up to the first of another
// definition or a zero value; of them, the newest whose text fits in
// maxResetBytes (at least the last), the first with its whole memory
// listing and no events.
func (f *Feed[V]) encodeReset(vs []V, ws []*World, n uint64) (*sharedReset[V], error) {
	var enc encoder
	d := resetData{ID: f.id, Title: f.name, Keep: len(f.ring), Nodes: [][5]any{}}
	enc.layout = f.codec.layout(vs[0])
	for _, nd := range enc.layout.Nodes {
		d.Nodes = append(d.Nodes, [5]any{nd.Parent, nd.Word(), nd.Params, nd.Label, nd.Attrs})
	}
	var (
		steps []stepData
		lists [][][2]string // the memory listing of each version
		sizes []int
		total int
		first int // the first kept
	)
	k := 0
	for ; k < len(vs) && f.codec.valid(vs[k]) && f.codec.same(vs[k], vs[0]); k++ {
		s := enc.encode(bound[V]{f.codec, vs[k]}, ws[k], n+uint64(k), k == 0)
		size := stepSize(s)
		steps, lists, sizes = append(steps, s), append(lists, enc.listing), append(sizes, size)
		for total += size; total > maxResetBytes && len(steps)-first > 1; {
			total -= sizes[first]
			steps[first], lists[first] = stepData{}, nil // for the collector
			first++
			fs := &steps[first]
			fs.Events = nil
			if fs.Mem == nil {
				l := lists[first]
				fs.Mem = &l
				sizes[first] += listingSize(l)
				total += listingSize(l)
			}
		}
	}
	d.Steps = steps[first:]
	data, err := json.Marshal(d)
	if err != nil {
		return nil, err
	}
	return &sharedReset[V]{start: n + uint64(first), end: n + uint64(k), data: data, last: vs[k-1], enc: encoder{layout: enc.layout, prev: enc.prev, mem: enc.mem, listing: enc.listing}}, nil
}

// stepSize is about the bytes of s's text, as JSON.
func stepSize(s stepData) int {
	n := 48 + len(s.Step) + jsonLen(s.Label) + jsonLen(s.Text)
	for _, e := range s.Events {
		n += jsonLen(e) + 3
	}
	for _, e := range s.World {
		n += jsonLen(e) + 3
	}
	if s.Grid != nil {
		n += 40 + len(s.Grid.Cells)
	}
	if s.Mem != nil {
		n += listingSize(*s.Mem)
	}
	return n
}

// listingSize is about the bytes of a memory listing's text.
func listingSize(l [][2]string) int {
	n := 2
	for _, kv := range l {
		n += jsonLen(kv[0]) + jsonLen(kv[1]) + 8
	}
	return n
}

// jsonLen returns the bytes of s quoted as encoding/json quotes it: <, >,
// &, control characters, invalid bytes, U+2028 and U+2029 take six bytes
// (\u003c), " and \ two.
func jsonLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '<' || c == '>' || c == '&' || c < 0x20:
				n += 5
			case c == '"' || c == '\\':
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += 5 // \ufffd
		case r == '\u2028' || r == '\u2029':
			n += 6 - size
		}
		i += size
	}
	return n
}

// sseWriter writes server-sent events.
type sseWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
}

// event writes one event whose data is v as JSON: one line, since JSON
// escapes line breaks in strings (and U+2028, U+2029, <, > and &).
func (s *sseWriter) event(name string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.eventRaw(name, data)
}

// eventRaw writes one event whose data is data, JSON already, without
// copying it.
func (s *sseWriter) eventRaw(name string, data []byte) error {
	if err := s.rc.SetWriteDeadline(time.Now().Add(s.timeout)); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	if _, err := io.WriteString(s.w, "event: "+name+"\ndata: "); err != nil {
		return err
	}
	if _, err := s.w.Write(data); err != nil {
		return err
	}
	_, err := io.WriteString(s.w, "\n\n")
	return err
}

// flush sends what was written.
func (s *sseWriter) flush() error {
	if err := s.rc.Flush(); err != nil && !errors.Is(err, http.ErrNotSupported) {
		return err
	}
	return nil
}

// monitorCSP is the Content-Security-Policy of the monitor's responses:
// scripts, styles and connections to the server only, no inline script or
// style.
const monitorCSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; " +
	"base-uri 'none'; form-action 'none'"

// securityHeaders are set on every response.
var securityHeaders = map[string]string{
	"Content-Security-Policy": monitorCSP + "; frame-ancestors 'none'", // not in the page's meta, where browsers ignore it
	"X-Content-Type-Options":  "nosniff",
	"Referrer-Policy":         "no-referrer",
	"X-Frame-Options":         "DENY",
}

// ServeHTTP serves the page, its scripts and style, the list of feeds and
// the event streams (see [Monitor]).
func (m *Monitor) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for k, v := range securityHeaders {
		w.Header().Set(k, v)
	}
	if !m.hostAllowed(r.Host) {
		http.Error(w, fmt.Sprintf("viewer.Monitor: the Host %q is not this server's (add it to MonitorOptions.Hosts if it is)", r.Host), http.StatusForbidden)
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "viewer.Monitor: read only: "+r.Method+" is not allowed", http.StatusMethodNotAllowed)
		return
	}
	switch r.URL.Path {
	case "/":
		serveText(w, "text/html; charset=utf-8", m.page())
	case "/viewer.js":
		serveText(w, "text/javascript; charset=utf-8", pageJS)
	case "/monitor.js":
		serveText(w, "text/javascript; charset=utf-8", monitorJS)
	case "/viewer.css":
		serveText(w, "text/css; charset=utf-8", pageCSS)
	case "/favicon.ico":
		w.WriteHeader(http.StatusNoContent) // no icon, and no error in the browser's console
	case "/trees":
		data, _ := json.Marshal(m.list()) // a list of ints, strings and counts
		serveText(w, "application/json", string(data))
	case "/events":
		m.events(w, r)
	default:
		http.Error(w, "viewer.Monitor: no page "+strconv.Quote(r.URL.Path), http.StatusNotFound)
	}
}

// page returns the monitor's page: the static viewer's, with the scripts
// and style sheet served beside it and a live indicator.
func (m *Monitor) page() string {
	return strings.NewReplacer(
		"{{CSP}}", monitorCSP,
		"{{TITLE}}", html.EscapeString(m.title),
		"{{HEAD}}", `<link rel="stylesheet" href="viewer.css">`,
		"{{LIVE}}", `<span id="live" class="off">connecting</span> <span id="ended" class="hidden"></span>`,
		"{{BODY}}", `<script src="viewer.js"></script>`+"\n"+`<script src="monitor.js"></script>`,
	).Replace(pageHTML)
}

func serveText(w http.ResponseWriter, contentType, body string) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write([]byte(body))
}

// hostAllowed reports whether a request naming host (with or without a
// port) may be served.
func (m *Monitor) hostAllowed(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if host == "" {
		return false
	}
	if net.ParseIP(host) != nil {
		return true
	}
	return m.hosts[strings.ToLower(host)]
}

// list returns the feeds as /trees and the "trees" event list them.
func (m *Monitor) list() []feedInfo {
	m.mu.Lock()
	feeds := m.feeds[:len(m.feeds):len(m.feeds)]
	m.mu.Unlock()
	out := make([]feedInfo, len(feeds))
	for i, f := range feeds {
		out[i] = f.info()
	}
	return out
}

// events serves an event stream: the list of feeds whenever it changes,
// and with ?tree=ID, that feed's versions.
func (m *Monitor) events(w http.ResponseWriter, r *http.Request) {
	var feed feedHandle
	if q := r.URL.Query().Get("tree"); q != "" {
		id, err := strconv.Atoi(q)
		if err != nil {
			http.Error(w, fmt.Sprintf("viewer.Monitor: /events?tree=%s: want a tree's id, a number", strconv.Quote(q)), http.StatusBadRequest)
			return
		}
		m.mu.Lock()
		if id >= 0 && id < len(m.feeds) {
			feed = m.feeds[id]
		}
		n := len(m.feeds)
		m.mu.Unlock()
		if feed == nil {
			http.Error(w, fmt.Sprintf("viewer.Monitor: /events?tree=%d: no such tree (there are %d)", id, n), http.StatusNotFound)
			return
		}
	}
	m.mu.Lock()
	open := m.streams < m.max
	if open {
		m.streams++
	}
	m.mu.Unlock()
	if !open {
		w.Header().Set("Retry-After", "10")
		http.Error(w, fmt.Sprintf("viewer.Monitor: %d pages are open, the most this monitor serves (MonitorOptions.MaxStreams): close one, or try again later", m.max), http.StatusServiceUnavailable)
		return
	}
	defer func() {
		m.mu.Lock()
		m.streams--
		m.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	sw := &sseWriter{w: w, rc: http.NewResponseController(w), timeout: m.timeout}
	ch := make(chan struct{}, 1)
	m.mu.Lock()
	m.watchers[ch] = struct{}{}
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.watchers, ch)
		m.mu.Unlock()
	}()
	var pump func(*sseWriter) error
	if feed != nil {
		feed.subscribe(ch)
		defer feed.unsubscribe(ch)
		pump = feed.streamer()
	}
	listed := -1
	for {
		m.mu.Lock()
		n := len(m.feeds)
		m.mu.Unlock()
		if n != listed {
			if err := sw.event("trees", m.list()); err != nil {
				return
			}
			listed = n
		}
		if pump != nil {
			if err := pump(sw); err != nil {
				return
			}
		}
		if err := sw.flush(); err != nil {
			return
		}
		select {
		case <-ch:
		case <-r.Context().Done():
			return
		}
	}
}
