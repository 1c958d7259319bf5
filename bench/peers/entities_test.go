package peers

// Many entities: entityCount entities, each its own version of the NPC of
// npcShape (shapes_test.go) with its own answers (its own random stream and
// counters in the oracle), ticked round robin. One benchmark iteration is one
// entity's tick; B/entity is the live heap the entities hold, measured once
// after every entity has been ticked entityWarmRounds times.

import (
	"runtime"
	"testing"

	bt "github.com/joeycumines/go-behaviortree"
	ours "github.com/zipbt/behaviortree"
)

const (
	entityCount = 10000
	// entityRounds is the number of round-robin rounds over which ours and
	// the peer are compared.
	entityRounds = 3
	// entityWarmRounds is the number of rounds ticked before measuring the
	// entities' memory and starting the clock.
	entityWarmRounds = 2
	// entityFloorRounds is the number of rounds, after the warm-up rounds,
	// that the floor records and replays.
	entityFloorRounds = 100
)

// oursEntities are our entities: one definition, one Stepped version each.
type oursEntities struct {
	o    *oracle
	ents []ours.Stepped[int]
}

func newOursEntities(tb testing.TB, s *shape, o *oracle, call func(*oracle) func(int) answer) *oursEntities {
	t0 := newOurs(tb, s, call(o))
	ents := make([]ours.Stepped[int], entityCount)
	for i := range ents {
		ents[i] = t0
	}
	return &oursEntities{o: o, ents: ents}
}

// tick ticks entity i%entityCount.
func (e *oursEntities) tick(tb testing.TB, i int) {
	k := i % entityCount
	e.o.setEntity(k)
	var err error
	if e.ents[k], err = e.ents[k].Step(); err != nil {
		tb.Fatal(err)
	}
}

// peerEntities are the peer's entities: go-behaviortree's trees hold their
// state, so each entity is a tree of its own.
type peerEntities struct {
	o     *oracle
	roots []bt.Node
}

func newPeerEntities(s *shape, o *oracle, call func(*oracle) func(int) answer) *peerEntities {
	c := call(o)
	roots := make([]bt.Node, entityCount)
	for i := range roots {
		roots[i] = newPeer(s, c)
	}
	return &peerEntities{o: o, roots: roots}
}

func (e *peerEntities) tick(tb testing.TB, i int) {
	k := i % entityCount
	e.o.setEntity(k)
	if _, err := e.roots[k].Tick(); err != nil {
		tb.Fatal(err)
	}
}

// countingCall returns a counter of calls and a maker of a call function
// that counts in it.
func countingCall() (*int, func(*oracle) func(int) answer) {
	n := new(int)
	return n, func(o *oracle) func(int) answer {
		return func(id int) answer { *n++; return o.call(id) }
	}
}

func recordingCall(tr *trace) func(*oracle) func(int) answer {
	return func(o *oracle) func(int) answer { return tr.recorder(o.call) }
}

// recordEntities records entityRounds rounds of ticks of every entity.
func recordEntities(tb testing.TB, s *shape, peer bool) *trace {
	tr := &trace{}
	n := entityRounds * entityCount
	if peer {
		e := newPeerEntities(s, newOracle(s, entityCount), recordingCall(tr))
		for i := range n {
			tr.ticks = append(tr.ticks, int32(tr.calls()))
			e.tick(tb, i)
		}
	} else {
		e := newOursEntities(tb, s, newOracle(s, entityCount), recordingCall(tr))
		for i := range n {
			tr.ticks = append(tr.ticks, int32(tr.calls()))
			e.tick(tb, i)
		}
	}
	return tr
}

// checkSameEntities fails tb unless ours and the peer make the same calls
// with the same answers over entityRounds rounds.
func checkSameEntities(tb testing.TB, s *shape) *trace {
	tb.Helper()
	tr := recordEntities(tb, s, false)
	sameTraces(tb, "Entities", tr, recordEntities(tb, s, true))
	return tr
}

// TestEntitiesSame checks that our entities and the peer's make the same
// calls, and that entities have answers of their own.
func TestEntitiesSame(t *testing.T) {
	s := npcShape()
	tr := checkSameEntities(t, &s)
	// Entity ticks of the first round are all first ticks of one
	// definition; with their own answers, they must not all make the same
	// calls.
	s0, e0 := tr.tickRange(0)
	differ := false
	for i := 1; i < entityCount && !differ; i++ {
		s1, e1 := tr.tickRange(i)
		if e1-s1 != e0-s0 {
			differ = true
			continue
		}
		for j := range e1 - s1 {
			if tr.answers[s1+j] != tr.answers[s0+j] {
				differ = true
			}
		}
	}
	if !differ {
		t.Error("every entity answered its first tick alike")
	}
}

// heapAfterGC returns the live heap after a garbage collection.
func heapAfterGC() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// perEntity returns the growth of the live heap since before, per entity.
func perEntity(before uint64) float64 {
	after := heapAfterGC()
	if after < before {
		return 0
	}
	return float64(after-before) / entityCount
}

// BenchmarkOursEntities ticks 10,000 NPCs, each its own version of one
// definition, round robin, on our stepped engine.
func BenchmarkOursEntities(b *testing.B) {
	s := npcShape()
	checkSameEntities(b, &s)
	// The oracle (the agent's state) is made before the measure.
	o := newOracle(&s, entityCount)
	counter, call := countingCall()
	before := heapAfterGC()
	e := newOursEntities(b, &s, o, call)
	for i := range entityWarmRounds * entityCount {
		e.tick(b, i)
	}
	bytes := perEntity(before)
	calls := *counter
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		e.tick(b, i)
	}
	b.StopTimer()
	runtime.KeepAlive(e)
	b.ReportMetric(bytes, "B/entity")
	b.ReportMetric(float64(*counter-calls)/float64(b.N), "calls/op")
}

// BenchmarkPeerEntities is BenchmarkOursEntities with go-behaviortree: one
// tree per entity.
func BenchmarkPeerEntities(b *testing.B) {
	s := npcShape()
	checkSameEntities(b, &s)
	// The oracle (the agent's state) is made before the measure.
	o := newOracle(&s, entityCount)
	counter, call := countingCall()
	before := heapAfterGC()
	e := newPeerEntities(&s, o, call)
	for i := range entityWarmRounds * entityCount {
		e.tick(b, i)
	}
	bytes := perEntity(before)
	calls := *counter
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		e.tick(b, i)
	}
	b.StopTimer()
	runtime.KeepAlive(e)
	b.ReportMetric(bytes, "B/entity")
	b.ReportMetric(float64(*counter-calls)/float64(b.N), "calls/op")
}

// BenchmarkFloorEntities replays the entities' calls with no tree: those of
// the entityFloorRounds rounds after the warm-up rounds, the ticks that
// BenchmarkOursEntities and BenchmarkPeerEntities time first.
func BenchmarkFloorEntities(b *testing.B) {
	s := npcShape()
	checkSameEntities(b, &s)
	tr := &trace{}
	e := newOursEntities(b, &s, newOracle(&s, entityCount), recordingCall(tr))
	i := 0
	for ; i < entityWarmRounds*entityCount; i++ {
		e.tick(b, i)
	}
	tr.ids, tr.answers = tr.ids[:0], tr.answers[:0]
	tr.start = e.o.snapshot()
	for ; i < (entityWarmRounds+entityFloorRounds)*entityCount; i++ {
		tr.ticks = append(tr.ticks, int32(tr.calls()))
		e.tick(b, i)
	}
	benchFloor(b, &s, tr, entityCount)
}
