package btcpp

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Factory is the registry of node types a document is read against: the
// built-in nodes of BehaviorTree.CPP 4.10.0, the Go leaves registered
// with RegisterAction, RegisterSync and RegisterCondition, and the
// scripting enums. A Factory must not be changed while another goroutine
// uses it; the Documents it parsed keep the registrations they saw.
type Factory struct {
	leaves map[string]*kind
	enums  map[string]int64
}

// NewFactory returns a Factory with the built-in nodes only.
func NewFactory() *Factory {
	return &Factory{leaves: map[string]*kind{}, enums: map[string]int64{}}
}

// register adds a Go leaf.
func (f *Factory) register(r *leafReg) error {
	if !validModelName(r.id) {
		return newError(RuntimeError, "RegisterLeaf: %q is not a valid node ID", r.id)
	}
	if isBuiltinID(r.id) {
		return newError(RuntimeError, "RegisterLeaf: %q is the ID of a built-in node", r.id)
	}
	if _, ok := f.leaves[r.id]; ok {
		return newError(RuntimeError, "RegisterLeaf: %q is already registered", r.id)
	}
	seen := map[string]bool{}
	for _, p := range r.ports {
		if !portLike(p.Name) {
			return newError(RuntimeError, "RegisterLeaf %q: the port name %q is not allowed", r.id, p.Name)
		}
		if seen[p.Name] {
			return newError(RuntimeError, "RegisterLeaf %q: the port %q is declared twice", r.id, p.Name)
		}
		seen[p.Name] = true
		switch p.Type {
		case "int", "double", "string", "bool", "any":
		default:
			return newError(RuntimeError, "RegisterLeaf %q: port %q has the type %q (int, double, string, bool or any)", r.id, p.Name, p.Type)
		}
		if p.Dir > InOut {
			return newError(RuntimeError, "RegisterLeaf %q: port %q has no valid direction", r.id, p.Name)
		}
	}
	r.ports = slices.Clone(r.ports)
	f.leaves[r.id] = leafKindOf(r)
	return nil
}

// RegisterAction registers a stateful action leaf under id, with its
// ports. OnStart must not be nil.
func (f *Factory) RegisterAction(id string, a Action, ports ...Port) error {
	if a.OnStart == nil {
		return newError(RuntimeError, "RegisterAction %q: OnStart is nil", id)
	}
	return f.register(&leafReg{id: id, kind: leafAction, action: a, ports: ports})
}

// RegisterSync registers a synchronous action leaf under id: fn is called
// on every tick and must not return Running (BehaviorTree.CPP then throws
// a LogicError).
func (f *Factory) RegisterSync(id string, fn LeafFunc, ports ...Port) error {
	if fn == nil {
		return newError(RuntimeError, "RegisterSync %q: nil function", id)
	}
	return f.register(&leafReg{id: id, kind: leafSync, fn: fn, ports: ports})
}

// RegisterCondition registers a condition leaf under id: fn is called on
// every tick.
func (f *Factory) RegisterCondition(id string, fn LeafFunc, ports ...Port) error {
	if fn == nil {
		return newError(RuntimeError, "RegisterCondition %q: nil function", id)
	}
	return f.register(&leafReg{id: id, kind: leafCondition, fn: fn, ports: ports})
}

// Enum registers a scripting enum: in scripts, name is the number value.
func (f *Factory) Enum(name string, value int) {
	f.enums[name] = int64(value)
}

// snapshot returns the registered kinds by ID: the built-ins and the Go
// leaves.
func (f *Factory) snapshot() map[string]*kind {
	m := make(map[string]*kind, len(builtinByID)+len(f.leaves))
	for id, k := range builtinByID {
		m[id] = k
	}
	for id, k := range f.leaves {
		m[id] = k
	}
	return m
}

// enumsCopy returns a copy of the enums.
func (f *Factory) enumsCopy() map[string]int64 {
	m := make(map[string]int64, len(f.enums))
	for k, v := range f.enums {
		m[k] = v
	}
	return m
}

// Parse reads an XML document (BTCPP_format 4) and runs every check that
// BehaviorTree.CPP runs before it creates a node: the reading of the text,
// <include>, the shape of every <BehaviorTree> (also those no tree
// reaches), node IDs and child counts, and <TreeNodesModel>. The error is
// an *Error.
//
// An <include> is an error: Parse reads no files (ParseFS does).
func (f *Factory) Parse(src string) (*Document, error) {
	d, err := f.parse(src, nil, "")
	if err != nil {
		return nil, err
	}
	return d, nil
}

// ParseV3 reads a document written for BehaviorTree.CPP 3.x as Parse does,
// after the library's own migration to the 4.x form (its migration guide
// and script): SequenceStar becomes SequenceWithMemory, SubTreePlus and
// __autoremap become SubTree and _autoremap, a 3.x SubTree's remappings
// gain their braces, RetryUntilSuccesful is spelled RetryUntilSuccessful,
// and Parallel's thresholds become success_count and failure_count. It
// returns one warning per change, and per 3.x name that has no 4.x form
// (BlackboardCheckInt, FallbackStar, ManualSelector, ...), each starting
// with the line:column of its element or attribute. A 4.x document reads
// as with Parse, with no warning.
//
// Parse never renames: it reads what BehaviorTree.CPP 4.10 reads, and
// refuses what it refuses.
func (f *Factory) ParseV3(src string) (*Document, []string, error) {
	root, err := readDoc(src, "")
	if err != nil {
		return nil, nil, err
	}
	warnings := upgradeV3(root)
	d, err := f.document(root, nil, "")
	if err != nil {
		return nil, warnings, err
	}
	return d, warnings, nil
}

// ParseFS reads the document in the file name of fsys, as Parse does,
// and its <include path="..."/> elements from fsys too: a relative path
// is taken from the directory of the file that includes it (an absolute
// one from the root of fsys), and the included document is loaded before
// the one that includes it (its includes, checks, models and trees), as
// BehaviorTree.CPP's loadFromFile does. The main tree is the first
// document's main_tree_to_execute.
func (f *Factory) ParseFS(fsys fs.FS, name string) (*Document, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		e := newError(RuntimeError, "error parsing the XML: XML_ERROR_FILE_NOT_FOUND: %s", name)
		e.Err = err
		return nil, e
	}
	return f.parse(string(b), fsys, name)
}

// Trees returns the IDs of the document's registered trees, sorted.
func (d *Document) Trees() []string {
	ids := make([]string, 0, len(d.trees))
	for id := range d.trees {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// Option configures a tree that Build builds.
type Option func(*config)

// config is what the options set.
type config struct {
	entries []initialEntry
	err     error // a bad option's, which Build returns
	delta   func() time.Duration
	budget  int
}

// initialEntry is a WithEntry.
type initialEntry struct {
	key string
	v   any
}

// WithEntry sets an entry of the root blackboard before the tree is built,
// as an application does before createTreeFromText: an int is declared
// "int", a float64 "double", a bool "bool", and a string is untyped
// ("any"). A json.Number is an int when written without '.', 'e' or 'E',
// else a double. Every other Go integer type is an int (an unsigned value
// above math.MaxInt64 is an error), a float32 a double, and a non-empty
// Value is set as it is; another type makes Build fail with an error
// naming the key and the type.
func WithEntry(key string, value any) Option {
	return func(c *config) { c.entries = append(c.entries, initialEntry{key, value}) }
}

// WithDeltaTime makes the clock of the timed nodes (Delay, Timeout,
// Sleep) advance by delta() between two ticks: a clock of the game's own.
// A negative delta counts as zero, and the clock stops at the largest
// Duration rather than overflow.
// Time never passes during a tick, and timers fire only between ticks
// (see the package documentation). Without it, or WithTurnClock, the
// clock is the wall clock.
func WithDeltaTime(delta func() time.Duration) Option {
	return func(c *config) { c.delta = delta }
}

// WithTurnClock makes the clock of the timed nodes advance by turn
// between two ticks: a turn-based clock, under which ticking a version
// again behaves the same. With a turn of 100 ms, a Delay of 300 ms started
// in tick k executes its child in tick k+3.
func WithTurnClock(turn time.Duration) Option {
	return func(c *config) { c.delta = func() time.Duration { return turn } }
}

// DefaultTickBudget is the most root executions that one TickOnce runs
// unless WithTickBudget says otherwise.
const DefaultTickBudget = 1000

// WithTickBudget sets the most root executions that one TickOnce may run
// (a Repeat num_cycles="-1" over a child that succeeds at once would
// otherwise never return); past it TickOnce fails with ErrBudget. n <= 0
// means no limit.
func WithTickBudget(n int) Option {
	return func(c *config) { c.budget = n }
}

// program is a built tree: what every version shares.
type program struct {
	nodes []nodeDef
	// plans are the nodes' port plans, each node's together
	// (nodeDef.planAt, port_plans.go).
	plans  []portPlan
	trees  [][2]string // per scope: tree ID, instance path
	enums  map[string]int64
	delta  func() time.Duration // nil: the wall clock
	budget int
	// extOf is each node's index in a version's nodeExts, -1 for none;
	// nExt is how many there are. Both are set when the build ends.
	extOf []int32
	nExt  int
	// timed is whether a node is a Delay, Timeout or Sleep: without one,
	// a tree on the wall clock does not read it.
	timed bool
	// hot is each node's hotNode, set when the build ends.
	hot []hotNode
	// moves are the compiled moves of the movable regions, which start
	// at movesAt[n] for a region's root n (tick_moves.go); movesAt is -1
	// outside regions.
	moves   []move
	movesAt []int32
	// cache is the tick cache of a closed tree (tick_cache.go), else nil.
	cache *tickCache
}

// hotNode returns node n's hotNode (made again while the tree is being
// built, when a failed build halts it).
func (p *program) hotNode(n int) *hotNode {
	if n < len(p.hot) {
		return &p.hot[n]
	}
	return p.buildingHot(n)
}

// buildingHot returns node n's hotNode while the tree is being built.
//
//go:noinline
func (p *program) buildingHot(n int) *hotNode {
	h := hotOf(&p.nodes[n])
	return &h
}

// extIndex returns node n's index in the nodeExts, or -1.
func (p *program) extIndex(n int) int {
	if n < len(p.extOf) {
		return int(p.extOf[n])
	}
	return -1
}

// extCount returns the number of nodeExts of a version.
func (p *program) extCount() int { return p.nExt }

// finish sets what the program knows of its nodes once they are built.
func (p *program) finish() {
	p.extOf = make([]int32, len(p.nodes))
	p.hot = make([]hotNode, len(p.nodes))
	for i := range p.nodes {
		p.hot[i] = hotOf(&p.nodes[i])
		k := p.nodes[i].k
		p.extOf[i] = -1
		if hasExt(k) {
			p.extOf[i] = int32(p.nExt)
			p.nExt++
		}
		if k.timed {
			p.timed = true
		}
	}
	// Fresh execution (tick.go), from the leaves up: children come after
	// their parent in preorder.
	for i := len(p.hot) - 1; i >= 0; i-- {
		h := &p.hot[i]
		k := p.nodes[i].k
		if h.bits&bPlain == 0 {
			continue
		}
		ok := false
		switch {
		case k.cat == catLeaf:
			ok = freshLeaf(k)
		case k.cat == catControl && k.fresh: // Sequence, Fallback
			ok = len(h.kids) <= 64
			for _, c := range h.kids {
				ok = ok && p.hot[c].bits&bFresh != 0
			}
		}
		if ok {
			h.bits |= bFresh
		}
	}
	compileMoves(p)
	p.cache = newTickCache(p)
}

// Build builds the tree mainTreeID (the empty string chooses as
// BehaviorTree.CPP does: main_tree_to_execute, else the only tree). It
// returns the tree's first version, every node IDLE. The error is an
// *Error typed as the library's exception; its Type is Terminate when
// halting the half-built tree threw, which ends a C++ process.
func (d *Document) Build(mainTreeID string, opts ...Option) (*Tree, error) {
	if d == nil {
		return nil, newError(RuntimeError, "Build on a nil Document")
	}
	cfg := config{budget: DefaultTickBudget}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.err != nil {
		return nil, cfg.err
	}
	bb := newBoard()
	for _, e := range cfg.entries {
		v := e.v
		switch x := v.(type) {
		case int:
			v = json.Number(strconv.Itoa(x))
		case int8, int16, int32, int64:
			v = json.Number(strconv.FormatInt(reflect.ValueOf(x).Int(), 10))
		case uint, uint8, uint16, uint32, uint64, uintptr:
			u := reflect.ValueOf(x).Uint()
			if u > math.MaxInt64 {
				return nil, newError(RuntimeError, "WithEntry %q: the %T %d is above the largest int64", e.key, x, u)
			}
			v = json.Number(strconv.FormatUint(u, 10))
		case float32:
			v = float64(x)
		}
		switch x := v.(type) {
		case Value:
			if x.IsEmpty() {
				return nil, newError(RuntimeError, "WithEntry %q: the Value is empty", e.key)
			}
			if err := bb.set(0, e.key, x, x.Type()); err != nil {
				return nil, err
			}
			continue
		case float64:
			if math.IsInf(x, 0) || math.IsNaN(x) {
				return nil, newError(RuntimeError, "WithEntry %q: %v is not a JSON number", e.key, x)
			}
			s := strconv.FormatFloat(x, 'g', -1, 64)
			if !containsAny(s, ".eE") {
				s += ".0"
			}
			v = json.Number(s)
		}
		if err := bb.setInitial(e.key, v); err != nil {
			return nil, err
		}
	}
	if mainTreeID == "" {
		id, err := d.mainTree()
		if err != nil {
			return nil, err
		}
		mainTreeID = id
	}
	bb.info[0].TreeID = mainTreeID
	p := &program{trees: [][2]string{{mainTreeID, ""}}, enums: d.enums, delta: cfg.delta, budget: cfg.budget}
	b := &builder{d: d, p: p, bb: bb}
	if err := b.build(mainTreeID); err != nil {
		return nil, err
	}
	p.finish()
	t := &Tree{p: p, st: make([]nodeState, len(p.nodes)), bb: *bb}
	if p.nExt > 0 {
		t.ext = make([]nodeExt, p.nExt)
	}
	return t, nil
}

// containsAny reports whether s holds any byte of chars.
func containsAny(s, chars string) bool {
	for i := 0; i < len(s); i++ {
		for j := 0; j < len(chars); j++ {
			if s[i] == chars[j] {
				return true
			}
		}
	}
	return false
}

// Tree is one version of a built tree: every node's status and running
// state, the blackboard, and the clock. Tick returns the next version and
// leaves its receiver unchanged, so an old version can be ticked again
// (undo, branching, replay). A Tree may be read from many goroutines;
// ticking calls the Go leaves, which decide whether that is safe.
type Tree struct {
	p      *program
	st     []nodeState
	ext    []nodeExt
	bb     board
	wake   bool
	now    time.Duration
	armSeq uint64
	// ticked is whether a tick made the version (the clock advances
	// before every tick but the first). A version holds no count of its
	// ticks: equal versions made by different numbers of ticks are the
	// same version, which the tick cache (tick_cache.go) shares.
	ticked    bool
	wall      time.Time
	status    Status
	rootTicks int
	// in is what the tick cache keeps of an interned version, nil for a
	// version it does not hold (tick_cache.go).
	in *interned
	// pend is the pending async results of the Go actions, by node, and
	// ids the last id given to one in this line of versions (async.go).
	pend *asyncEntry
	ids  uint64
	// ring is the next *Tree of the ring of versions that differ from
	// this one only in their status and root executions (quietTwin), or
	// nil; set once, atomically.
	ring unsafe.Pointer
}

// Tick ticks the tree once as BehaviorTree.CPP's tickExactlyOnce: one
// execution of the root. On a nil Tree it returns a RuntimeError, as
// Build does on a nil Document. It returns the next version and the root's
// status. On error the returned version holds the state right after the
// exception (BehaviorTree.CPP leaves the tree so); the error is an *Error
// (NodeExecutionError names the node whose tick threw).
func (t *Tree) Tick() (*Tree, Status, error) { return t.tick(false) }

// TickOnce ticks the tree as BehaviorTree.CPP's tickOnce: the root is
// executed again at once while it returns RUNNING and a node asked to be
// woken up (a yield of SequenceWithMemory, AsyncSequence, AsyncFallback,
// Repeat or RetryUntilSuccessful, or a timer that fired), at most the
// tick budget's number of times (WithTickBudget).
func (t *Tree) TickOnce() (*Tree, Status, error) { return t.tick(true) }

// tickers holds the working state of ticks, with their copies of the
// node states, between ticks.
var tickers = sync.Pool{New: func() any { return new(ticker) }}

// begin returns the ticker that makes the next version of t, working on
// a copy of t's node states; the version itself (the ticker's next, its
// node states still t's) is made by end.
func (t *Tree) begin(ticked bool) *ticker {
	tk := tickers.Get().(*ticker)
	scratch := tk.scratch
	if cap(scratch) < len(t.st) {
		scratch = make([]nodeState, len(t.st))
	}
	scratch = scratch[:len(t.st)]
	if len(t.st) > 0 && tk.mirror != &t.st[0] {
		copy(scratch, t.st) // else the buffer holds t's states already
	}
	*tk = ticker{p: t.p, st: scratch, scratch: scratch, given: tk.given, ext: t.ext, wake: t.wake, now: t.now, armSeq: t.armSeq,
		pend: t.pend, ids: t.ids,
		next: Tree{p: t.p, st: t.st, ext: t.ext, bb: t.bb.next(), wake: t.wake, now: t.now, armSeq: t.armSeq, ticked: ticked}}
	tk.bb = &tk.next.bb
	return tk
}

// withStates is a version allocated with its node states, for small
// trees: one allocation instead of two.
type withStates[A any] struct {
	t Tree
	s A
}

// end returns the version that tk made from t, and puts the ticker back.
// The node states are t's when the tick left them as they were (no
// allocation), else a copy of the ticker's, allocated with the version
// for trees of up to 32 nodes.
func (tk *ticker) end(t *Tree) *Tree {
	tk.next.ext = tk.ext
	tk.next.wake, tk.next.armSeq = tk.wake, tk.armSeq
	tk.next.pend, tk.next.ids = tk.pend, tk.ids
	var nt *Tree
	n := len(tk.st)
	switch {
	case equalStates(tk.st, t.st):
		quiet := false
		if !ringOff {
			nt, quiet = t.quietTwin(&tk.next)
		}
		if nt == nil {
			nt = new(Tree)
			*nt = tk.next
			if quiet {
				nt.ring = unsafe.Pointer(t)
				atomic.CompareAndSwapPointer(&t.ring, nil, unsafe.Pointer(nt))
			}
		}
	case n <= 8:
		h := &withStates[[8]nodeState]{t: tk.next}
		copy(h.s[:], tk.st)
		nt = &h.t
		nt.st = h.s[:n:n]
	case n <= 16:
		h := &withStates[[16]nodeState]{t: tk.next}
		copy(h.s[:], tk.st)
		nt = &h.t
		nt.st = h.s[:n:n]
	case n <= 32:
		h := &withStates[[32]nodeState]{t: tk.next}
		copy(h.s[:], tk.st)
		nt = &h.t
		nt.st = h.s[:n:n]
	default:
		nt = new(Tree)
		*nt = tk.next
		nt.st = make([]nodeState, n)
		copy(nt.st, tk.st)
	}
	*tk = ticker{scratch: tk.scratch, given: tk.given[:0]}
	if n > 0 {
		tk.mirror = &nt.st[0]
	}
	tickers.Put(tk)
	return nt
}

// quietTwin returns a version equal to next, which has t's node states,
// from the ring of versions that differ from t only in their status and
// root executions (at most quietRing steps), or nil when next differs from
// t in more (quiet is false), or the ring has none. A tree whose ticks change nothing but
// their result (one that completes on every tick, as workload (b))
// returns versions it made before, allocating nothing.
func (t *Tree) quietTwin(next *Tree) (twin *Tree, quiet bool) {
	if !sameSlice(next.ext, t.ext) || !sameSlice(next.bb.info, t.bb.info) || !sameSlice(next.bb.scopes, t.bb.scopes) ||
		next.wake != t.wake || next.now != t.now || next.armSeq != t.armSeq || next.ticked != t.ticked || !next.wall.Equal(t.wall) ||
		next.pend != t.pend || next.ids != t.ids {
		return nil, false
	}
	w := t
	for i := 0; i < quietRing && w != nil; i++ {
		if w.status == next.status && w.rootTicks == next.rootTicks {
			return w, true
		}
		w = (*Tree)(atomic.LoadPointer(&w.ring))
	}
	return nil, true
}

// ringOff turns quietTwin off, for the tests that check it.
var ringOff bool

// quietRing is the most versions quietTwin looks at.
const quietRing = 4

// sameSlice reports whether a and b are the same storage.
func sameSlice[E any](a, b []E) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

// nodeStateSize is the size of a nodeState, which has no padding (so
// that equalStates may compare bytes): the two arrays fail to compile
// otherwise.
const nodeStateSize = 12

var (
	_ [nodeStateSize - unsafe.Sizeof(nodeState{})]byte
	_ [unsafe.Sizeof(nodeState{}) - nodeStateSize]byte
)

// equalStates reports whether two versions' node states are equal.
func equalStates(a, b []nodeState) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 || &a[0] == &b[0] {
		return true
	}
	ab := unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), len(a)*nodeStateSize)
	bb := unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*nodeStateSize)
	return string(ab) == string(bb)
}

// tick makes the next version: through the tick cache when the tree has
// one, else by the rules.
func (t *Tree) tick(once bool) (*Tree, Status, error) {
	if t == nil || t.p == nil {
		return nil, Idle, newError(RuntimeError, "Tick on a nil Tree")
	}
	if c := t.p.cache; c != nil && !c.off.Load() && !tickCacheOff {
		return c.tick(t, once)
	}
	return t.tickRules(once, nil)
}

// rulesTicks counts the ticks made by the rules, for the tests of the
// tick cache.
var rulesTicks atomic.Int64

// tickRules makes the next version by the rules; rec, when not nil,
// answers for the Go leaves and records their answers (tick_cache.go).
func (t *Tree) tickRules(once bool, rec *recorder) (*Tree, Status, error) {
	rulesTicks.Add(1)
	tk := t.begin(true)
	tk.rec = rec
	nt := &tk.next
	if once {
		tk.budget = t.p.budget
	}
	var err error
	if t.p.delta == nil && t.p.timed {
		nt.wall = time.Now()
	}
	if t.ticked && (t.p.delta != nil || t.p.timed) {
		var d time.Duration
		if t.p.delta != nil {
			d = t.p.delta()
		} else {
			d = nt.wall.Sub(t.wall)
		}
		if d < 0 {
			d = 0
		}
		if err = tk.advance(addClock(t.now, d)); err != nil {
			// In C++ the halt ran on the timer's thread, and an
			// exception that leaves a thread terminates the process.
			err = &Error{Type: Terminate, Node: -1, Msg: "an exception left a timer's thread: the process terminates", Err: err}
		}
	}
	res := Idle
	if err == nil {
		res, err = tk.tickRoot(once)
	}
	nt.now, nt.rootTicks = tk.now, tk.rootTicks
	nt.status = res
	return tk.end(t), res, err
}

// Halt halts the whole tree as BehaviorTree.CPP's haltTree does: the
// root, then every node in preorder (running actions get OnHalted and
// lose the Async they await, if any, and every node's _onHalted script
// runs), leaving every node IDLE. It returns the new version; on error (an
// _onHalted script that throws) the version holds the state right after
// the exception.
func (t *Tree) Halt() (*Tree, error) {
	tk := t.begin(t.ticked)
	tk.next.wall = t.wall
	err := tk.haltTree()
	return tk.end(t), err
}

// Status returns the status the tick that made this version returned
// (Idle for the first version, and after an error).
func (t *Tree) Status() Status { return t.status }

// RootTicks returns how many times the tick that made this version ran
// the root's tick (1 for Tick, unless a precondition of the root decided;
// more for TickOnce).
func (t *Tree) RootTicks() int { return t.rootTicks }

// Clock returns the time of the timed nodes' clock at this version's
// tick: 0 at the first tick, then advanced between ticks (WithDeltaTime,
// WithTurnClock, or the wall clock). A tree without Delay, Timeout or
// Sleep does not read the wall clock: on it, Clock stays 0.
func (t *Tree) Clock() time.Duration { return t.now }

// Len returns the number of nodes.
func (t *Tree) Len() int { return len(t.st) }

// NodeStatus returns the stored status of node i (preorder index).
// It panics with a message saying so when i is not in [0, Len()).
func (t *Tree) NodeStatus(i int) Status {
	if i < 0 || i >= len(t.st) {
		panic(fmt.Sprintf("btcpp: Tree.NodeStatus: node %d out of range [0, %d)", i, len(t.st)))
	}
	return t.st[i].status
}

// NodeInfo describes a node of a built tree.
type NodeInfo struct {
	Index  int    // preorder index
	ID     string // registration ID ("SubTree" for a subtree)
	Name   string // the name attribute, or the type ID
	Parent int    // preorder index of the parent, -1 for the root
	UID    int    // 1, 2, … in creation order
	Path   string // the full path, as Call.Path
	Scope  int    // the blackboard scope (index into Scopes)
}

// Nodes returns the nodes in preorder (the expanded tree: a SubTree node
// is followed by its subtree).
func (t *Tree) Nodes() []NodeInfo {
	out := make([]NodeInfo, len(t.p.nodes))
	for i := range t.p.nodes {
		n := &t.p.nodes[i]
		out[i] = NodeInfo{Index: i, ID: n.regID, Name: n.name, Parent: n.parent, UID: n.uid, Path: n.path, Scope: n.scope}
	}
	return out
}

// ScopeInfo describes a blackboard scope: the main tree's (index 0, path
// "") or a SubTree instance's.
type ScopeInfo struct {
	TreeID string
	Path   string
}

// Scopes returns the blackboard scopes in creation order.
func (t *Tree) Scopes() []ScopeInfo {
	out := make([]ScopeInfo, len(t.p.trees))
	for i, s := range t.p.trees {
		out[i] = ScopeInfo{TreeID: s[0], Path: s[1]}
	}
	return out
}

// Entry is a blackboard entry: its declared type ("any" when untyped) and
// its value.
type Entry struct {
	Key      string
	Declared string
	Value    Value
}

// Entries returns the entries stored in scope, sorted by key.
func (t *Tree) Entries(scope int) []Entry {
	if scope < 0 || scope >= len(t.bb.scopes) {
		return nil
	}
	// TODO(values): an accessor of blackboard.go listing a scope's own
	// entries would spare this read of its fields.
	sd := t.bb.scopes[scope]
	out := make([]Entry, len(sd.entries))
	for i, e := range sd.entries {
		out[i] = Entry{Key: e.key, Declared: e.declared, Value: e.value}
	}
	return out
}

// Get looks key up in the root scope (a key "@k" is the root's k too).
func (t *Tree) Get(key string) (Value, bool) {
	e, ok := t.bb.lookup(0, key)
	if !ok {
		return Value{}, false
	}
	return e.value, true
}

// SetEntry returns a version with key set to v in blackboard scope (an
// index into Scopes), as an application's blackboard->set(key, v) between
// two ticks (README §6.1 set, v's type the static type): a key "@k" is the
// root's k; a key the scope does not store is created where its remapping
// leads (declared with v's type, "any" for a string); an untyped entry
// takes v and its type; a typed entry keeps its type, a string parsed as
// it and a number converted exactly, anything else a LogicError. The
// write counts as an update of the entry (the entry-updated nodes see it).
// The receiver is unchanged; v must not be empty.
func (t *Tree) SetEntry(scope int, key string, v Value) (*Tree, error) {
	if err := t.checkEntry(scope, key); err != nil {
		return nil, err
	}
	if v.IsEmpty() {
		return nil, newError(RuntimeError, "SetEntry [%s]: an empty value", key)
	}
	nt := *t
	nt.bb = t.bb.next()
	if err := nt.bb.set(scope, key, v, v.Type()); err != nil {
		return nil, err
	}
	return &nt, nil
}

// UnsetEntry returns a version without the entry key that scope stores
// itself, as blackboard->unset(key) (UnsetBlackboard): no remapping is
// followed. ok is false, and the version is t, when the scope does not
// store key.
func (t *Tree) UnsetEntry(scope int, key string) (nt *Tree, ok bool, err error) {
	if err := t.checkEntry(scope, key); err != nil {
		return nil, false, err
	}
	if _, ok := t.bb.index(scope, key); !ok {
		return t, false, nil
	}
	c := *t
	c.bb = t.bb.next()
	c.bb.unset(scope, key)
	return &c, true, nil
}

// checkEntry returns an error for a scope that t does not have or an
// empty key.
func (t *Tree) checkEntry(scope int, key string) error {
	if t == nil || t.p == nil {
		return newError(RuntimeError, "a nil Tree has no blackboard")
	}
	if scope < 0 || scope >= len(t.bb.scopes) {
		return newError(RuntimeError, "no blackboard scope %d: the tree has %d", scope, len(t.bb.scopes))
	}
	if strings.TrimLeft(key, "@") == "" {
		return newError(RuntimeError, "an empty blackboard key %q", key)
	}
	return nil
}

// String returns a one-line picture of the version: each node's status
// letter in preorder (I, R, S, F).
func (t *Tree) String() string {
	b := make([]byte, len(t.st))
	for i := range t.st {
		b[i] = statusLetter(t.st[i].status)
	}
	return string(b)
}

// statusLetter is a status's letter in the corpus's status strings.
func statusLetter(s Status) byte {
	switch s {
	case Running:
		return 'R'
	case Success:
		return 'S'
	case Failure:
		return 'F'
	case Skipped:
		return 'K'
	}
	return 'I'
}

var _ fmt.Stringer = (*Tree)(nil)

// addClock is now+d for d >= 0, saturated at the largest Duration.
func addClock(now, d time.Duration) time.Duration {
	if d > math.MaxInt64-now {
		return math.MaxInt64
	}
	return now + d
}
