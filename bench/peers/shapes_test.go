package peers

// Side-by-side shapes of issue 21 (item 3): the same tree, described once
// here without reference to any library, built with our stepped engine
// (BenchmarkOurs<Shape>) and with go-behaviortree (BenchmarkPeer<Shape>), and
// its floor (BenchmarkFloor<Shape>): the same agent calls, in the same order
// with the same answers, replayed in a loop with no tree at all.
//
// Every leaf is an int (its id); the agent answers every call through one
// oracle (oracle.call), whose answers depend only on the order of calls, so
// two libraries that make the same calls get the same answers. Each
// benchmark first checks, outside the timed loop, that ours and the peer make
// the same calls with the same answers for the first compareTicks ticks
// (TestShapesSame runs that check for every shape).

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	bt "github.com/joeycumines/go-behaviortree"
	ours "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
)

// answer is what the oracle answers to one agent call.
type answer int8

const (
	answerRunning answer = iota
	answerSuccess
	answerFailure
)

// nodeKind is the kind of a node of a shape.
type nodeKind uint8

const (
	kindAction nodeKind = iota
	kindCondition
	kindSelector
	kindSequence
	// kindReactiveSequence asks its children from the first at every tick
	// (the peer's plain Sequence, never memorized).
	kindReactiveSequence
	// kindParallel updates every child that has not completed at every
	// tick, fails at the first failure and succeeds when all succeeded
	// (Mistreevous's parallel; the peer's is peerParallel).
	kindParallel
)

// shapeNode is a node of a library-independent tree. guard is the id of the
// leaf value of its while-guard, or -1.
type shapeNode struct {
	kind     nodeKind
	id       int
	guard    int
	children []*shapeNode
}

func action(id int) *shapeNode    { return &shapeNode{kind: kindAction, id: id, guard: -1} }
func condition(id int) *shapeNode { return &shapeNode{kind: kindCondition, id: id, guard: -1} }
func selector(children ...*shapeNode) *shapeNode {
	return &shapeNode{kind: kindSelector, guard: -1, children: children}
}
func sequence(children ...*shapeNode) *shapeNode {
	return &shapeNode{kind: kindSequence, guard: -1, children: children}
}
func reactiveSequence(children ...*shapeNode) *shapeNode {
	return &shapeNode{kind: kindReactiveSequence, guard: -1, children: children}
}
func parallel(children ...*shapeNode) *shapeNode {
	return &shapeNode{kind: kindParallel, guard: -1, children: children}
}

// specKind is how the oracle answers the calls of one leaf value.
type specKind uint8

const (
	// specRandom: success when the next number of the entity's xorshift64
	// stream is below p, failure otherwise.
	specRandom specKind = iota
	// specRunThen: Running n times, then Success, again and again (a
	// counter per entity and leaf).
	specRunThen
	// specWindow: success for n calls, failure for 3n calls, again and
	// again (a counter per entity and leaf): an enemy in sight a quarter of
	// the time.
	specWindow
	specSucceed
	specFail
	specRunning
)

type leafSpec struct {
	kind specKind
	n    int32
	p    uint64
}

// shape is one workload: a tree, how its leaves answer, and whether the peer
// needs go-behaviortree's Memorize to resume running children as ours does
// (shapes that complete every tick use the peer's plain, cheaper composites).
type shape struct {
	name     string
	root     *shapeNode
	specs    []leafSpec
	seed     uint64
	memorize bool
}

// oracle answers every agent call of a shape, for one or more entities.
type oracle struct {
	specs  []leafSpec
	seed   uint64
	rngs   []uint64 // one stream per entity
	counts []int32  // per entity and leaf
	cur    int      // the entity being ticked
	base   int      // cur * len(specs)
}

func newOracle(s *shape, entities int) *oracle {
	o := &oracle{specs: s.specs, seed: s.seed, rngs: make([]uint64, entities),
		counts: make([]int32, entities*len(s.specs))}
	o.reset()
	return o
}

// reset puts the oracle back in its initial state.
func (o *oracle) reset() {
	x := o.seed
	for i := range o.rngs {
		// Each entity's stream starts at a different point of one
		// splitmix64 sequence, so entities have their own answers.
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
		z = (z ^ (z >> 27)) * 0x94D049BB133111EB
		z ^= z >> 31
		if z == 0 {
			z = 1
		}
		o.rngs[i] = z
	}
	clear(o.counts)
	o.setEntity(0)
}

// snapshot returns a copy of the oracle's state.
func (o *oracle) snapshot() *oracle {
	c := *o
	c.rngs = slices.Clone(o.rngs)
	c.counts = slices.Clone(o.counts)
	return &c
}

// restore puts the oracle back in the state of snap, a snapshot of it.
func (o *oracle) restore(snap *oracle) {
	copy(o.rngs, snap.rngs)
	copy(o.counts, snap.counts)
	o.setEntity(snap.cur)
}

func (o *oracle) setEntity(e int) {
	o.cur = e
	o.base = e * len(o.specs)
}

// call answers one agent call about leaf value id.
func (o *oracle) call(id int) answer {
	s := &o.specs[id]
	switch s.kind {
	case specRandom:
		x := o.rngs[o.cur]
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		o.rngs[o.cur] = x
		if x < s.p {
			return answerSuccess
		}
		return answerFailure
	case specRunThen:
		c := &o.counts[o.base+id]
		if *c >= s.n {
			*c = 0
			return answerSuccess
		}
		*c++
		return answerRunning
	case specWindow:
		c := &o.counts[o.base+id]
		v := *c
		*c = (v + 1) % (4 * s.n)
		if v < s.n {
			return answerSuccess
		}
		return answerFailure
	case specSucceed:
		return answerSuccess
	case specFail:
		return answerFailure
	}
	return answerRunning
}

const half = 1 << 63

// sweepShape is a balanced binary tree with 2^height leaves, levels
// alternating selector and sequence from a selector at the root, each leaf
// an action that succeeds or fails with probability 1/2.
func sweepShape(height int) shape {
	leaves := 1 << height
	specs := make([]leafSpec, leaves)
	for i := range specs {
		specs[i] = leafSpec{kind: specRandom, p: half}
	}
	var build func(h, first int) *shapeNode
	build = func(h, first int) *shapeNode {
		if h == 0 {
			return action(first)
		}
		l, r := build(h-1, first), build(h-1, first+1<<(h-1))
		if (height-h)%2 == 0 {
			return selector(l, r)
		}
		return sequence(l, r)
	}
	return shape{name: fmt.Sprintf("leaves=%d", leaves), root: build(height, 0), specs: specs,
		seed: 0x5EED0000 + uint64(height)}
}

// sweepHeights gives 16, 64, 256, 1024 and 4096 leaves.
var sweepHeights = []int{4, 6, 8, 10, 12}

const wideN = 1000

// wideConditionsShape is a selector of wideN conditions of which only the
// last succeeds: wideN calls per tick, completing every tick.
func wideConditionsShape() shape {
	specs := make([]leafSpec, wideN)
	children := make([]*shapeNode, wideN)
	for i := range children {
		specs[i] = leafSpec{kind: specFail}
		children[i] = condition(i)
	}
	specs[wideN-1].kind = specSucceed
	return shape{name: "WideConditions", root: selector(children...), specs: specs}
}

// wideRunning is the index of the running action of wideRunningShape.
const wideRunning = 500

// wideRunningShape is a selector of wideN actions: those before #500 fail,
// #500 returns Running on every call. The first tick makes 501 calls, every
// later tick one (the selector resumes at its running child).
func wideRunningShape() shape {
	specs := make([]leafSpec, wideN)
	children := make([]*shapeNode, wideN)
	for i := range children {
		specs[i] = leafSpec{kind: specFail}
		children[i] = action(i)
	}
	specs[wideRunning].kind = specRunning
	return shape{name: "WideRunning", root: selector(children...), specs: specs, memorize: true}
}

// npcWaypoints is the number of waypoints of the NPC's patrol.
const npcWaypoints = 8

// npcShape is an NPC of 37 nodes (counting our root):
//
//	selector {
//	  sequence while(enemyVisible) { condition hasAmmo, action aim, action fire, action takeCover }
//	  sequence { condition lowHealth, action heal }
//	  sequence { 8 × sequence { condition pathClear(i), action moveTo(i) } }
//	  action idle
//	}
//
// enemyVisible is true for 8 calls, then false for 24; hasAmmo holds with
// probability 7/8, lowHealth 1/8, pathClear 15/16; aim runs 2 ticks, fire 1,
// takeCover 3, heal 4 and each moveTo 5 before succeeding; idle succeeds.
func npcShape() shape {
	var specs []leafSpec
	leaf := func(s leafSpec) int { specs = append(specs, s); return len(specs) - 1 }
	p := func(num, den uint64) leafSpec { return leafSpec{kind: specRandom, p: (^uint64(0) / den) * num} }
	run := func(n int32) leafSpec { return leafSpec{kind: specRunThen, n: n} }
	enemy := leaf(leafSpec{kind: specWindow, n: 8})
	combat := sequence(condition(leaf(p(7, 8))), action(leaf(run(2))), action(leaf(run(1))), action(leaf(run(3))))
	combat.guard = enemy
	heal := sequence(condition(leaf(p(1, 8))), action(leaf(run(4))))
	var wps []*shapeNode
	for range npcWaypoints {
		wps = append(wps, sequence(condition(leaf(p(15, 16))), action(leaf(run(5)))))
	}
	root := selector(combat, heal, sequence(wps...), action(leaf(leafSpec{kind: specSucceed})))
	return shape{name: "NPC", root: root, specs: specs, seed: 0xC0FFEE, memorize: true}
}

// deepLevels is the depth of deepShape's action.
const deepLevels = 30

// deepShape is an action 30 levels deep (under 30 one-child composites
// alternating sequence and selector) that runs 15 ticks, then succeeds.
func deepShape() shape {
	n := action(0)
	for i := range deepLevels {
		if i%2 == 0 {
			n = sequence(n)
		} else {
			n = selector(n)
		}
	}
	return shape{name: "Deep30", root: n, specs: []leafSpec{{kind: specRunThen, n: 15}}}
}

// guardedConditions is the number of conditions of guardedShape.
const guardedConditions = 16

// guardedShape is many conditions guarding one long action: a reactive
// sequence of 16 conditions, each holding with probability 255/256, then
// an action that runs 40 ticks, then succeeds. Every tick asks the
// conditions again before it updates the action; one that fails ends
// the tick (the action is aborted and starts afresh at the next tick
// whose conditions hold).
func guardedShape() shape {
	specs := make([]leafSpec, guardedConditions+1)
	children := make([]*shapeNode, guardedConditions+1)
	for i := range guardedConditions {
		specs[i] = leafSpec{kind: specRandom, p: (^uint64(0) / 256) * 255}
		children[i] = condition(i)
	}
	specs[guardedConditions] = leafSpec{kind: specRunThen, n: 40}
	children[guardedConditions] = action(guardedConditions)
	return shape{name: "Guarded16", root: reactiveSequence(children...), specs: specs, seed: 0x6A4D}
}

// parallelActions is the number of actions of parallelShape.
const parallelActions = 8

// parallelShape is a parallel of 8 running actions (move, animate, aim,
// ...): action i runs 10+5i ticks, then succeeds; the parallel succeeds
// when the last one does, and starts again at the next tick. Each tick
// updates the actions still running.
func parallelShape() shape {
	specs := make([]leafSpec, parallelActions)
	children := make([]*shapeNode, parallelActions)
	for i := range children {
		specs[i] = leafSpec{kind: specRunThen, n: int32(10 + 5*i)}
		children[i] = action(i)
	}
	return shape{name: "Parallel8", root: parallel(children...), specs: specs}
}

// guardedTasks is the number of tasks of tasksShape.
const guardedTasks = 12

// tasksShape is a worker's task list of 39 nodes (counting our root), a
// second tree between 33 and 64 nodes beside the NPC:
//
//	selector { 12 × sequence { condition ready(i), action work(i) }, action idle }
//
// each task is ready with probability 1/8 when asked, and its work runs
// i%4+1 ticks, then succeeds; idle succeeds.
func tasksShape() shape {
	var specs []leafSpec
	leaf := func(s leafSpec) int { specs = append(specs, s); return len(specs) - 1 }
	var tasks []*shapeNode
	for i := range guardedTasks {
		ready := condition(leaf(leafSpec{kind: specRandom, p: ^uint64(0) / 8}))
		tasks = append(tasks, sequence(ready, action(leaf(leafSpec{kind: specRunThen, n: int32(i%4 + 1)}))))
	}
	root := selector(append(tasks, action(leaf(leafSpec{kind: specSucceed})))...)
	return shape{name: "Tasks12", root: root, specs: specs, seed: 0x7A5C, memorize: true}
}

// countNodes returns the number of nodes of the tree under n.
func countNodes(n *shapeNode) int {
	c := 1
	for _, ch := range n.children {
		c += countNodes(ch)
	}
	return c
}

// oursDef builds the shape with our constructors.
func oursDef(n *shapeNode) ours.Node[int] {
	var node ours.Node[int]
	switch n.kind {
	case kindAction:
		node = ours.Leaf(n.id)
	case kindCondition:
		node = ours.Condition(n.id)
	default:
		children := make([]ours.Node[int], len(n.children))
		for i, c := range n.children {
			children[i] = oursDef(c)
		}
		switch n.kind {
		case kindSelector:
			node = ours.Select(children...)
		case kindReactiveSequence:
			node = ours.ReactiveSequence(children...)
		case kindParallel:
			node = ours.Parallel(children...)
		default:
			node = ours.Sequence(children...)
		}
	}
	if n.guard >= 0 {
		node = node.With(attr.While(n.guard))
	}
	return node
}

// oursAgentFor is the agent of our trees: every call goes to call.
func oursAgentFor(call func(int) answer) ours.Agent[int] {
	return ours.Agent[int]{
		Action: func(id int) ours.Result {
			switch call(id) {
			case answerSuccess:
				return ours.ResultSuccess
			case answerFailure:
				return ours.ResultFailure
			}
			return ours.ResultRunning
		},
		Condition: func(id int) bool { return call(id) == answerSuccess },
	}
}

func newOurs(tb testing.TB, s *shape, call func(int) answer) ours.Stepped[int] {
	t, err := ours.NewStepped(ours.Root(oursDef(s.root)), oursAgentFor(call))
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// guardFailed is the error by which a failed while-guard of the peer's tree
// unwinds to the guarded node, carrying the guard's leaf value.
type guardFailed int

func (g guardFailed) Error() string { return fmt.Sprintf("guard %d failed", int(g)) }

func toStatus(a answer) bt.Status {
	switch a {
	case answerSuccess:
		return bt.Success
	case answerFailure:
		return bt.Failure
	}
	return bt.Running
}

// peerDef builds the shape with go-behaviortree. go-behaviortree has no
// guards, so a while-guard is emulated with Mistreevous's semantics (which
// ours follows): every node at or below the guarded node asks the guard
// before each of its updates; when it fails, the error unwinds (resetting
// the memorized composites on the way) to the guarded node, which fails.
func peerDef(s *shape, n *shapeNode, call func(int) answer, guards []int) bt.Node {
	var tick bt.Tick
	var children []bt.Node
	own := n.guard
	if own >= 0 {
		guards = append(slices.Clip(guards), own)
	}
	switch n.kind {
	case kindAction, kindCondition:
		id := n.id
		tick = func([]bt.Node) (bt.Status, error) { return toStatus(call(id)), nil }
	default:
		children = make([]bt.Node, len(n.children))
		for i, c := range n.children {
			children[i] = peerDef(s, c, call, guards)
		}
		switch n.kind {
		case kindSelector:
			tick = bt.Selector
		case kindParallel:
			tick = peerParallel()
		default:
			tick = bt.Sequence
		}
		if s.memorize && n.kind != kindReactiveSequence && n.kind != kindParallel {
			tick = bt.Memorize(tick)
		}
	}
	if len(guards) > 0 {
		inner := tick
		tick = func(children []bt.Node) (bt.Status, error) {
			for _, g := range guards {
				if call(g) != answerSuccess {
					if g == own {
						return bt.Failure, nil
					}
					return bt.Failure, guardFailed(g)
				}
			}
			status, err := inner(children)
			if own >= 0 && err == guardFailed(own) {
				return bt.Failure, nil
			}
			return status, err
		}
	}
	return bt.New(tick, children...)
}

// peerParallel is Mistreevous's parallel written for go-behaviortree,
// whose only parallel (Fork) ticks children on goroutines, in no fixed
// order: it ticks, in order, every child that has not succeeded in this
// cycle; it fails when one failed and succeeds when all succeeded (the
// cycle then starts again), else it runs. (Its children here are actions,
// which need no abort.)
func peerParallel() bt.Tick {
	var done []bool // the children that succeeded in this cycle
	return func(children []bt.Node) (bt.Status, error) {
		if done == nil {
			done = make([]bool, len(children))
		}
		running, failed := false, false
		for i, c := range children {
			if done[i] {
				continue
			}
			st, err := c.Tick()
			if err != nil {
				return bt.Failure, err
			}
			switch st {
			case bt.Success:
				done[i] = true
			case bt.Failure:
				failed = true
			default:
				running = true
			}
		}
		switch {
		case failed:
			clear(done)
			return bt.Failure, nil
		case running:
			return bt.Running, nil
		}
		clear(done)
		return bt.Success, nil
	}
}

func newPeer(s *shape, call func(int) answer) bt.Node { return peerDef(s, s.root, call, nil) }

// trace is a record of agent calls: ids and answers, and where each tick's
// calls begin (ticks[i] is the index of tick i's first call), and the
// oracle's state when the recording began (nil: its initial state).
type trace struct {
	start   *oracle
	ids     []int32
	answers []answer
	ticks   []int32
}

func (tr *trace) recorder(call func(int) answer) func(int) answer {
	return func(id int) answer {
		a := call(id)
		tr.ids = append(tr.ids, int32(id))
		tr.answers = append(tr.answers, a)
		return a
	}
}

func (tr *trace) calls() int { return len(tr.ids) }

// resetter returns a function that puts o back in the state it had when
// tr began.
func (tr *trace) resetter(o *oracle) func() {
	return func() {
		if tr.start != nil {
			o.restore(tr.start)
		} else {
			o.reset()
		}
	}
}

// tickRange returns the calls of tick i.
func (tr *trace) tickRange(i int) (int, int) {
	end := len(tr.ids)
	if i+1 < len(tr.ticks) {
		end = int(tr.ticks[i+1])
	}
	return int(tr.ticks[i]), end
}

// compareTicks is the number of ticks (entity ticks, for the entities) over
// which ours and the peer are checked to make the same calls.
const compareTicks = 300

// recordOurs ticks our tree of s n times from the start and records its calls.
func recordOurs(tb testing.TB, s *shape, n int) *trace {
	tr := &trace{}
	o := newOracle(s, 1)
	t := newOurs(tb, s, tr.recorder(o.call))
	var err error
	for range n {
		tr.ticks = append(tr.ticks, int32(tr.calls()))
		if t, err = t.Step(); err != nil {
			tb.Fatal(err)
		}
	}
	return tr
}

// recordPeer ticks the peer's tree of s n times from the start and records
// its calls.
func recordPeer(tb testing.TB, s *shape, n int) *trace {
	tr := &trace{}
	o := newOracle(s, 1)
	root := newPeer(s, tr.recorder(o.call))
	for range n {
		tr.ticks = append(tr.ticks, int32(tr.calls()))
		if _, err := root.Tick(); err != nil {
			tb.Fatal(err)
		}
	}
	return tr
}

// sameTraces fails tb unless a and b are the same calls, tick by tick.
func sameTraces(tb testing.TB, name string, a, b *trace) {
	tb.Helper()
	if len(a.ticks) != len(b.ticks) {
		tb.Fatalf("%s: %d ticks against %d", name, len(a.ticks), len(b.ticks))
	}
	for i := range a.ticks {
		as, ae := a.tickRange(i)
		bs, be := b.tickRange(i)
		if !slices.Equal(a.ids[as:ae], b.ids[bs:be]) || !slices.Equal(a.answers[as:ae], b.answers[bs:be]) {
			tb.Fatalf("%s: tick %d: ours calls %v answered %v; the peer calls %v answered %v",
				name, i, a.ids[as:ae], a.answers[as:ae], b.ids[bs:be], b.answers[bs:be])
		}
	}
	if a.calls() == 0 {
		tb.Fatalf("%s: no calls", name)
	}
}

// checkSame fails tb unless ours and the peer make the same calls with the
// same answers over the first compareTicks ticks of s.
func checkSame(tb testing.TB, s *shape) {
	tb.Helper()
	sameTraces(tb, s.name, recordOurs(tb, s, compareTicks), recordPeer(tb, s, compareTicks))
}

func allShapes() []shape {
	var shapes []shape
	for _, h := range sweepHeights {
		shapes = append(shapes, sweepShape(h))
	}
	return append(shapes, sweepShape(5), wideConditionsShape(), wideRunningShape(), npcShape(), deepShape(), guardedShape(), parallelShape(), tasksShape())
}

// TestShapesSame checks that, for every shape, ours and the peer make the
// same agent calls with the same answers, tick by tick, and that the shapes
// are what their comments say.
func TestShapesSame(t *testing.T) {
	for _, s := range allShapes() {
		t.Run(s.name, func(t *testing.T) { checkSame(t, &s) })
	}
	if n := countNodes(npcShape().root) + 1; n <= 32 {
		t.Errorf("the NPC has %d nodes; want more than 32", n)
	}
	wr := recordOurs(t, ptr(wideRunningShape()), 3)
	if s, e := wr.tickRange(0); e-s != wideRunning+1 {
		t.Errorf("WideRunning: %d calls in the first tick; want %d", e-s, wideRunning+1)
	}
	if s, e := wr.tickRange(2); e-s != 1 || wr.ids[s] != wideRunning {
		t.Errorf("WideRunning: third tick calls %v; want [%d]", wr.ids[s:e], wideRunning)
	}
	wc := recordOurs(t, ptr(wideConditionsShape()), 3)
	if wc.calls() != 3*wideN {
		t.Errorf("WideConditions: %d calls in 3 ticks; want %d", wc.calls(), 3*wideN)
	}
	// Guarded16 asks its 16 conditions and updates its action every tick but
	// when a condition fails, which happens now and then; Parallel8 updates its running
	// actions only (8 calls at first, 1 in its last 5 ticks).
	gs := recordOurs(t, ptr(guardedShape()), 2000)
	if n := gs.calls(); n < 2000*(guardedConditions+1)*9/10 || n > 2000*(guardedConditions+1) {
		t.Errorf("Guarded16: %d calls in 2000 ticks; want about %d", n, 2000*(guardedConditions+1))
	}
	if !slices.Contains(gs.answers[:guardedConditions*2000], answerFailure) {
		t.Error("Guarded16: no condition failed")
	}
	ps := recordOurs(t, ptr(parallelShape()), 200)
	if s, e := ps.tickRange(0); e-s != parallelActions {
		t.Errorf("Parallel8: %d calls in the first tick; want %d", e-s, parallelActions)
	}
	last := 10 + 5*(parallelActions-1) + 1 // the ticks of the slowest action
	if s, e := ps.tickRange(last - 1); e-s != 1 {
		t.Errorf("Parallel8: %d calls in tick %d, the last of a cycle; want 1", e-s, last-1)
	}
	if s, e := ps.tickRange(last); e-s != parallelActions {
		t.Errorf("Parallel8: %d calls in tick %d, which starts a cycle again; want %d", e-s, last, parallelActions)
	}
	// The NPC must fight, heal, patrol and idle, and be aborted by its guard.
	npc := recordOurs(t, ptr(npcShape()), 2000)
	seen := map[answer]int{}
	for _, a := range npc.answers {
		seen[a]++
	}
	if seen[answerRunning] == 0 || seen[answerSuccess] == 0 || seen[answerFailure] == 0 {
		t.Errorf("NPC answers %v; want all three", seen)
	}
}

// TestShapesDiffer checks that the comparison can fail: a peer tree with one
// leaf changed makes other calls.
func TestShapesDiffer(t *testing.T) {
	s := npcShape()
	ourTrace := recordOurs(t, &s, compareTicks)
	s.root.children[3] = action(0) // idle asks enemyVisible instead
	peerTrace := recordPeer(t, &s, compareTicks)
	ft := &fakeTB{TB: t}
	func() {
		defer func() { _ = recover() }()
		sameTraces(ft, s.name, ourTrace, peerTrace)
	}()
	if !ft.failed {
		t.Error("sameTraces accepted two different trees")
	}
}

// fakeTB records a Fatalf instead of failing the test.
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(string, ...any) {
	f.failed = true
	panic(errFake)
}

var errFake = errors.New("fatal")

// floorFor records calls of our tree of s (which checkSame showed are the
// peer's too), to be replayed by benchFloor: those of the ticks after the
// first (a costly first tick, WideRunning's, weighs next to nothing in the
// timed loops of ours and the peer), at most 1<<12 ticks, and no more once
// there are 1<<16 calls and 64 ticks, so that the recording stays small
// enough for the caches and the floor measures calls, not memory.
func floorFor(b testing.TB, s *shape) *trace {
	tr := &trace{}
	o := newOracle(s, 1)
	t := newOurs(b, s, tr.recorder(o.call))
	t, err := t.Step()
	if err != nil {
		b.Fatal(err)
	}
	tr.ids, tr.answers = tr.ids[:0], tr.answers[:0]
	tr.start = o.snapshot()
	for len(tr.ticks) < 1<<12 && (tr.calls() < 1<<16 || len(tr.ticks) < 64) {
		tr.ticks = append(tr.ticks, int32(tr.calls()))
		if t, err = t.Step(); err != nil {
			b.Fatal(err)
		}
	}
	return tr
}

// benchFloor replays tr's calls, tick by tick, in a loop, against an oracle
// of s for the given number of entities (tr's tick i being entity
// i%entities's), in the state it had when tr began. It checks first, once,
// that the replay gets the recorded answers; the oracle goes back to that
// state whenever the replay starts over, so the answers stay the recorded
// ones.
func benchFloor(b *testing.B, s *shape, tr *trace, entities int) {
	o := newOracle(s, entities)
	if tr.start != nil {
		o.restore(tr.start)
	}
	ticks := len(tr.ticks)
	for i := range ticks {
		o.setEntity(i % entities)
		start, end := tr.tickRange(i)
		for j, id := range tr.ids[start:end] {
			if a := o.call(int(id)); a != tr.answers[start+j] {
				b.Fatalf("floor: tick %d call %d: answer %d; recorded %d", i, j, a, tr.answers[start+j])
			}
		}
	}
	reset := tr.resetter(o)
	reset()
	call := o.call
	sink := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		k := i % ticks
		if k == 0 && i > 0 {
			reset()
		}
		o.setEntity(k % entities)
		start, end := tr.tickRange(k)
		for _, id := range tr.ids[start:end] {
			sink += int(call(int(id)))
		}
	}
	b.StopTimer()
	floorSink = sink
	b.ReportMetric(float64(tr.calls())/float64(ticks), "calls/op")
}

// floorSink keeps the floor's answers alive.
var floorSink int

func benchOursShape(b *testing.B, s *shape) {
	checkSame(b, s)
	o := newOracle(s, 1)
	var calls int
	t := newOurs(b, s, func(id int) answer { calls++; return o.call(id) })
	var err error
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if t, err = t.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
}

func benchPeerShape(b *testing.B, s *shape) {
	checkSame(b, s)
	o := newOracle(s, 1)
	var calls int
	root := newPeer(s, func(id int) answer { calls++; return o.call(id) })
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if _, err := root.Tick(); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(calls)/float64(b.N), "calls/op")
}

func benchFloorShape(b *testing.B, s *shape) {
	checkSame(b, s)
	benchFloor(b, s, floorFor(b, s), 1)
}

func runSweep(b *testing.B, bench func(*testing.B, *shape)) {
	for _, h := range sweepHeights {
		s := sweepShape(h)
		b.Run(s.name, func(b *testing.B) { bench(b, &s) })
	}
}

// BenchmarkOursSweep ticks balanced selector/sequence trees of 16 to 4096
// random 50/50 actions, completing every tick, on our stepped engine.
func BenchmarkOursSweep(b *testing.B) { runSweep(b, benchOursShape) }

// BenchmarkPeerSweep is BenchmarkOursSweep with go-behaviortree.
func BenchmarkPeerSweep(b *testing.B) { runSweep(b, benchPeerShape) }

// BenchmarkFloorSweep replays BenchmarkOursSweep's agent calls with no tree.
func BenchmarkFloorSweep(b *testing.B) { runSweep(b, benchFloorShape) }

// BenchmarkOursWideConditions ticks a selector of 1000 conditions of which
// only the last succeeds, on our stepped engine.
func BenchmarkOursWideConditions(b *testing.B) { benchOursShape(b, ptr(wideConditionsShape())) }

// BenchmarkPeerWideConditions is BenchmarkOursWideConditions with
// go-behaviortree.
func BenchmarkPeerWideConditions(b *testing.B) { benchPeerShape(b, ptr(wideConditionsShape())) }

// BenchmarkFloorWideConditions replays BenchmarkOursWideConditions's calls.
func BenchmarkFloorWideConditions(b *testing.B) { benchFloorShape(b, ptr(wideConditionsShape())) }

// BenchmarkOursWideRunning ticks a selector of 1000 actions whose #500 runs
// forever, on our stepped engine.
func BenchmarkOursWideRunning(b *testing.B) { benchOursShape(b, ptr(wideRunningShape())) }

// BenchmarkPeerWideRunning is BenchmarkOursWideRunning with go-behaviortree
// (memorized selector).
func BenchmarkPeerWideRunning(b *testing.B) { benchPeerShape(b, ptr(wideRunningShape())) }

// BenchmarkFloorWideRunning replays BenchmarkOursWideRunning's calls.
func BenchmarkFloorWideRunning(b *testing.B) { benchFloorShape(b, ptr(wideRunningShape())) }

// BenchmarkOursNPC ticks the NPC of npcShape on our stepped engine.
func BenchmarkOursNPC(b *testing.B) { benchOursShape(b, ptr(npcShape())) }

// BenchmarkPeerNPC is BenchmarkOursNPC with go-behaviortree (memorized
// composites, emulated guard).
func BenchmarkPeerNPC(b *testing.B) { benchPeerShape(b, ptr(npcShape())) }

// BenchmarkFloorNPC replays BenchmarkOursNPC's calls.
func BenchmarkFloorNPC(b *testing.B) { benchFloorShape(b, ptr(npcShape())) }

// BenchmarkOursDeep30 ticks an action 30 levels deep on our stepped engine.
func BenchmarkOursDeep30(b *testing.B) { benchOursShape(b, ptr(deepShape())) }

// BenchmarkPeerDeep30 is BenchmarkOursDeep30 with go-behaviortree.
func BenchmarkPeerDeep30(b *testing.B) { benchPeerShape(b, ptr(deepShape())) }

// BenchmarkFloorDeep30 replays BenchmarkOursDeep30's calls.
func BenchmarkFloorDeep30(b *testing.B) { benchFloorShape(b, ptr(deepShape())) }

// BenchmarkOursGuarded16 ticks 16 conditions guarding a long action on our
// stepped engine.
func BenchmarkOursGuarded16(b *testing.B) { benchOursShape(b, ptr(guardedShape())) }

// BenchmarkPeerGuarded16 is BenchmarkOursGuarded16 with go-behaviortree
// (its plain Sequence).
func BenchmarkPeerGuarded16(b *testing.B) { benchPeerShape(b, ptr(guardedShape())) }

// BenchmarkFloorGuarded16 replays BenchmarkOursGuarded16's calls.
func BenchmarkFloorGuarded16(b *testing.B) { benchFloorShape(b, ptr(guardedShape())) }

// BenchmarkOursParallel8 ticks a parallel of 8 running actions on our
// stepped engine.
func BenchmarkOursParallel8(b *testing.B) { benchOursShape(b, ptr(parallelShape())) }

// BenchmarkPeerParallel8 is BenchmarkOursParallel8 with go-behaviortree
// (peerParallel).
func BenchmarkPeerParallel8(b *testing.B) { benchPeerShape(b, ptr(parallelShape())) }

// BenchmarkFloorParallel8 replays BenchmarkOursParallel8's calls.
func BenchmarkFloorParallel8(b *testing.B) { benchFloorShape(b, ptr(parallelShape())) }

// BenchmarkOursTasks12 ticks the task list of tasksShape on our stepped
// engine.
func BenchmarkOursTasks12(b *testing.B) { benchOursShape(b, ptr(tasksShape())) }

// BenchmarkPeerTasks12 is BenchmarkOursTasks12 with go-behaviortree
// (memorized composites).
func BenchmarkPeerTasks12(b *testing.B) { benchPeerShape(b, ptr(tasksShape())) }

// BenchmarkFloorTasks12 replays BenchmarkOursTasks12's calls.
func BenchmarkFloorTasks12(b *testing.B) { benchFloorShape(b, ptr(tasksShape())) }

// BenchmarkOursSweep32 ticks the balanced tree of 32 random actions (63
// nodes, 64 with our root: the most that states of two words hold) on our
// stepped engine.
func BenchmarkOursSweep32(b *testing.B) { benchOursShape(b, ptr(sweepShape(5))) }

// BenchmarkPeerSweep32 is BenchmarkOursSweep32 with go-behaviortree.
func BenchmarkPeerSweep32(b *testing.B) { benchPeerShape(b, ptr(sweepShape(5))) }

// BenchmarkFloorSweep32 replays BenchmarkOursSweep32's calls.
func BenchmarkFloorSweep32(b *testing.B) { benchFloorShape(b, ptr(sweepShape(5))) }

// ptr returns a pointer to a copy of s.
func ptr(s shape) *shape { return &s }
