package behaviortree

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/memory"
)

// This file saves and restores stepped versions: the node states, the
// extras of the nodes that keep some (repeat and retry counts, wait
// progress, lotto picks) and the version's own generator.
//
// The binary form is: "BTS1"; the definition's fingerprint (sprogram.fp,
// its Node.Fingerprint; in a save of a definition that both styles run
// made by an older release, sprogram.shapeFP) (8 bytes, little-endian); the node count (uvarint); the inline states
// (8 bytes); the word count (uvarint) and the words (8 bytes each). A
// version whose memory is not empty starts with "BTS2" instead, and ends
// with its memory (package memory's binary form). A version whose line
// took an async result starts with "BTS3": after the words comes the
// async section (stepped_async.go), then the memory, if it is not empty.

const (
	steppedMagic       = "BTS1"
	steppedMemoryMagic = "BTS2"
	steppedAsyncMagic  = "BTS3"
)

// isSteppedMagic reports whether m, 4 bytes, starts a saved stepped
// state.
func isSteppedMagic(m string) bool {
	return m == steppedMagic || m == steppedMemoryMagic || m == steppedAsyncMagic
}

// fingerprints returns the hash of what a saved state depends on (every
// node's kind, children, bound and lotto weights, in preorder, the
// implicit root included), and the fingerprint that the program's saves
// carry, its definition's Node.Fingerprint: the same hash, but for a
// definition that both styles run (both), whose saves of either style
// carry its Value/Succeed/Fail fingerprint (fingerprintOf). Such a
// definition has none of the parameters that fingerprintOf hashes, and
// its Value/Succeed/Fail places are its nodes in the same preorder, but
// for the implicit root: that fingerprint is the hash of their kinds and
// child counts (TestFingerprintBothStyles holds the two together).
func (p *sprogram[L]) fingerprints(both bool) (shape, saves uint64) {
	var h, v fpHash
	h.init()
	v.init()
	for i := range p.nodes {
		s := &p.nodes[i]
		h.put(uint64(s.kind))
		h.put(uint64(len(s.kids)))
		h.put(uint64(s.bound))
		h.put(uint64(s.min))
		h.put(uint64(s.max))
		for _, c := range s.cum {
			h.put(uint64(c))
		}
		if both && i > 0 {
			v.put(uint64(s.kind))
			v.put(uint64(len(s.kids)))
		}
	}
	if both {
		return h.sum(), v.sum()
	}
	return h.sum(), h.sum()
}

// ErrPendingAsync was the error of saving a version in which an action
// waits for an [Async] result. Such a version saves now, with its pending
// results, which settle by id after a restore ([Stepped.Async]).
//
// Deprecated: nothing returns it any longer.
var ErrPendingAsync = errors.New("an action has a pending async result")

// MarshalBinary returns the version's state in a compact binary form, for
// [RestoreStepped]: its node states and their extras, its own generator,
// its async results (a pending one by its id: see [Async]) and its
// memory. It fails with a [*memory.Error] for a value in memory that has
// no saved form (see [memory.NewKey]).
func (t Stepped[L]) MarshalBinary() ([]byte, error) { return t.marshalBinary("MarshalBinary") }

// marshalBinary is MarshalBinary; fn names the caller in errors.
func (t Stepped[L]) marshalBinary(fn string) ([]byte, error) {
	m := t.mustM(fn)
	w := t.wordsOf()
	out := make([]byte, 0, 4+8+2*binary.MaxVarintLen64+8+8*len(w))
	mem := t.Memory()
	async := t.asyncSection()
	switch {
	case async != nil:
		out = append(out, steppedAsyncMagic...)
	case mem.Len() > 0:
		out = append(out, steppedMemoryMagic...)
	default:
		out = append(out, steppedMagic...)
	}
	out = binary.LittleEndian.AppendUint64(out, m.p.fp)
	out = binary.AppendUvarint(out, uint64(len(m.p.nodes)))
	out = binary.LittleEndian.AppendUint64(out, t.small)
	out = binary.AppendUvarint(out, uint64(len(w)))
	for _, x := range w {
		out = binary.LittleEndian.AppendUint64(out, x)
	}
	out = append(out, async...)
	if mem.Len() > 0 {
		var err error
		if out, err = mem.AppendBinary(out); err != nil {
			return nil, fmt.Errorf("behaviortree.Stepped.%s: %w", fn, err)
		}
	}
	return out, nil
}

// restoreBinary returns the version saved in data, the binary form, with
// t's definition, agent and options; fn names the caller in errors.
func (t Stepped[L]) restoreBinary(data []byte, fn string) (Stepped[L], error) {
	m := t.m
	p := m.p
	bad := func(format string, args ...any) (Stepped[L], error) {
		return Stepped[L]{}, fmt.Errorf("behaviortree."+fn+": "+format, args...)
	}
	if len(data) >= 4 && string(data[:3]) == "BTS" && (data[3] == 1 || data[3] == 2) {
		return bad("a saved tree state (Value/Succeed/Fail), not a stepped one: restore it with Restore")
	}
	if len(data) < 4 || !isSteppedMagic(string(data[:4])) {
		return bad("not a saved stepped state")
	}
	withMemory, withAsync := string(data[:4]) == steppedMemoryMagic, string(data[:4]) == steppedAsyncMagic
	whole := len(data)
	data = data[4:]
	if len(data) < 8 {
		return bad("truncated")
	}
	if fp := binary.LittleEndian.Uint64(data); fp != p.fp && fp != p.shapeFP {
		return bad("%w", ErrWrongDefinition)
	}
	data = data[8:]
	n, k := uvarint(data)
	if k <= 0 {
		return bad("damaged node count")
	}
	if n != uint64(len(p.nodes)) {
		return bad("%w: node count", ErrWrongDefinition)
	}
	data = data[k:]
	if len(data) < 8 {
		return bad("truncated")
	}
	out := Stepped[L]{m: m, small: binary.LittleEndian.Uint64(data)}
	data = data[8:]
	nw, k := uvarint(data)
	if k <= 0 {
		return bad("damaged word count")
	}
	if nw != uint64(p.nwords) {
		return bad("%d words, want %d", nw, p.nwords)
	}
	data = data[k:]
	if uint64(len(data)) < 8*nw || !withMemory && !withAsync && uint64(len(data)) != 8*nw {
		return bad("%d bytes of words, want %d", len(data), 8*nw)
	}
	var w []uint64 // the words, flat
	if nw > 0 {
		w = make([]uint64, nw)
		for i := range w {
			w[i] = binary.LittleEndian.Uint64(data[8*i:])
		}
		out.words = wordsFrom(p, w)
	}
	if p.small {
		if len(p.nodes) < 32 && out.small>>(2*uint(len(p.nodes))) != 0 {
			return bad("states beyond the last node")
		}
	} else {
		if out.small != 0 {
			return bad("inline states in a big tree")
		}
		if r := uint(len(p.nodes) % 32); r != 0 && w[p.sw-1]>>(2*r) != 0 {
			return bad("states beyond the last node")
		}
	}
	// The extras of running nodes must be ones the engine can have made.
	// Those of other nodes are never read (a node sets its extras up when
	// it starts), and a node that a guard ended on its first update
	// completed without setting them.
	for i := range p.nodes {
		s := &p.nodes[i]
		if s.slot < 0 || out.nodeState(int32(i)) != StateRunning {
			continue
		}
		a, b := w[p.sw+2*s.slot], w[p.sw+2*s.slot+1]
		switch s.kind {
		case kind.Lotto:
			if a >= uint64(len(s.kids)) || b != 0 {
				return bad("node %d (%s): lotto pick %d of %d children", i, s.displayName(), a, len(s.kids))
			}
		case kind.Repeat, kind.Retry:
			if b > uint64(max(s.min, s.max)) || b < uint64(s.min) || a > b {
				return bad("node %d (%s): count %d of %d", i, s.displayName(), a, b)
			}
		case kind.Wait:
			f := math.Abs(math.Float64frombits(b)) // negated: a wait on the ticks' clock
			if f != math.Floor(f) || f < float64(s.min) || f > float64(max(s.min, s.max)) || math.IsNaN(math.Float64frombits(a)) {
				return bad("node %d (%s): waited %v of %v ms", i, s.displayName(), math.Float64frombits(a), f)
			}
		}
	}
	if err := out.checkReachable(); err != nil {
		return bad("%w", err)
	}
	// The async section and the memory, after the words.
	rest, at := data[8*nw:], whole-len(data)+int(8*nw)
	var async *asyncEntry
	var ids uint64
	if withAsync {
		var k int
		var err error
		if async, ids, k, err = readAsyncSection(out, rest, at); err != nil {
			return bad("%w", err)
		}
		rest, at = rest[k:], at+k
	}
	var mem memory.Map
	if withMemory || withAsync && len(rest) > 0 {
		var err error
		if mem, err = readMemorySection(rest, at); err != nil {
			return bad("%w", err)
		}
	}
	out.x = withExtra(nil, async, mem, ids)
	return out, nil
}

// uvarint is binary.Uvarint that takes only the shortest encoding, the
// one MarshalBinary writes (k is 0 for another), so that what restores
// saves back to the same bytes.
func uvarint(data []byte) (x uint64, k int) {
	x, k = binary.Uvarint(data)
	if k > 0 && k != len(binary.AppendUvarint(nil, x)) {
		return 0, 0
	}
	return x, k
}

// checkReachable returns an error naming the first node (in preorder)
// whose state, with its children's, no sequence of steps from a reset
// reaches; nil if there is none. Restore refuses such states: from them
// the engine's paths (the general rules that StepWith follows, and Step's
// fresh evaluation of pure subtrees and its step cache) may disagree.
//
// It checks only what holds in every reachable state (a refused reachable
// state would be worse than an accepted unreachable one), by the rules of
// stepped.go. For a node n in state st, with the states of its children:
//
//   - READY: every child is READY (reset and abort clear whole subtrees,
//     and no update that has updated a child leaves its node READY).
//   - A completed node with a While or Until guard: nothing below it is
//     checked. When a guard fails at a node below it, the update of n is
//     abandoned where it is; n's abort then clears its subtree only if n
//     was RUNNING, so that a node that was READY completes over children
//     left as they were (as in Mistreevous).
//   - An action: any state. A condition is never RUNNING. A wait never
//     fails, and an unbounded wait never succeeds, unless a guard on it
//     ended it. An empty inverter is never RUNNING, and completes only by
//     a guard on it (its update fails the step).
//   - Root, Flip, Succeed, Fail (not READY): the child is not READY, and
//     n's state is the child's, mapped as the decorator maps it.
//   - Sequence, Selector and their reactive counterparts (not READY): the
//     children before some child k are in the state that goes on
//     (SUCCEEDED for a sequence, FAILED for a selector), child k is in n's
//     state, and those after it are READY; k is the last child when all
//     went on. A reactive one without children is in the state that goes
//     on.
//   - Parallel, Race, All RUNNING: no child READY, one RUNNING. Completed:
//     no child RUNNING (those left running are aborted, hence READY).
//     Parallel and Race follow their rule (concurrentNeeds, read here):
//     RUNNING while neither need is reached, else the outcome whose need
//     is. All has no child READY once completed, and it is SUCCEEDED when
//     one succeeded, FAILED when all failed (its rule is concurrent's own
//     and restated here).
//   - Lotto (not READY): exactly one child is not READY, in n's state;
//     while n is RUNNING, it is the child that n picked.
//   - Repeat and Retry: "again" is the outcome that repeats (SUCCEEDED for
//     Repeat, FAILED for Retry) and "stop" the other. RUNNING: the child is
//     RUNNING, and then (bounded) the count is below the target, or in
//     "again", and then (bounded) the count is at least one. Completed in
//     "stop": the child is in "stop". Completed in "again": the node is
//     bounded (it reached its count), the child READY (a count of 0) or in
//     "again".
//   - ReactiveParallel (not READY): no child READY (every update updates
//     every child, and those running are left running, even once n
//     completes), and n's state is what the counts of its children's
//     outcomes give.
func (t Stepped[L]) checkReachable() error {
	p := t.m.p
	w := t.wordsOf()
	for i := int32(0); i < int32(len(p.nodes)); i++ {
		s := &p.nodes[i]
		st := t.nodeState(i)
		bad := func(format string, args ...any) error {
			return fmt.Errorf("node %d (%s) cannot be %s: %s", i, s.displayName(), st, fmt.Sprintf(format, args...))
		}
		kid := func(k int) State { return t.nodeState(s.kids[k]) }
		guarded := s.at != nil && (s.at.has[attr.KindWhile] || s.at.has[attr.KindUntil])
		if st == StateReady {
			for k, c := range s.kids {
				if cs := kid(k); cs != StateReady {
					return bad("its child %d is %s", c, cs)
				}
			}
			continue
		}
		switch s.kind {
		case kind.Condition:
			if st == StateRunning {
				return bad("a condition completes at its update")
			}
		case kind.Wait:
			if !guarded && st == StateFailed {
				return bad("a wait without a guard never fails")
			}
			if !guarded && st == StateSucceeded && s.bound == kind.Unbounded {
				return bad("a wait forever without a guard never succeeds")
			}
		case kind.EmptyInverter:
			if st == StateRunning || !guarded {
				return bad("an empty inverter's update fails the step")
			}
		}
		if guarded && st >= StateSucceeded {
			i = s.end - 1 // a guard may have left the subtree half updated
			continue
		}
		var count [4]int // children by state
		for k := range s.kids {
			count[kid(k)]++
		}
		ready, running, succeeded, failed := count[StateReady], count[StateRunning], count[StateSucceeded], count[StateFailed]
		switch s.kind {
		case kind.Root, kind.Negate, kind.AlwaysSucceed, kind.AlwaysFail:
			if cs := kid(0); cs == StateReady || decorated(s.kind, cs) != st {
				return bad("its child %d is %s", s.kids[0], cs)
			}
		case kind.Sequence, kind.Select, kind.ReactiveSequence, kind.ReactiveSelect:
			_, goOn := goesOn(s.kind)
			if len(s.kids) == 0 {
				if st != goOn {
					return bad("it has no children")
				}
				break
			}
			k := 0
			for k < len(s.kids)-1 && kid(k) == goOn {
				k++
			}
			if cs := kid(k); cs != st {
				return bad("its child %d, the one that decides, is %s", s.kids[k], cs)
			}
			for j := k + 1; j < len(s.kids); j++ {
				if cs := kid(j); cs != StateReady {
					return bad("its child %d, after child %d that decided, is %s", s.kids[j], s.kids[k], cs)
				}
			}
		case kind.Parallel, kind.Race, kind.All:
			n, what := len(s.kids), ""
			switch {
			case st == StateRunning && (ready > 0 || running == 0):
				what = "running, it updated every child, and one still runs"
			case st != StateRunning && running > 0:
				what = "completed, no child runs"
			case s.kind != kind.All:
				// The rule of Parallel and Race (concurrentNeeds): running
				// until a need is reached, then its outcome.
				fail, succeed := concurrentNeeds(s.kind, n)
				switch {
				case st == StateRunning && failed >= fail:
					what = fmt.Sprintf("running, but it fails at %d failed", fail)
				case st == StateRunning && succeeded >= succeed:
					what = fmt.Sprintf("running, but it succeeds at %d succeeded", succeed)
				case st == StateSucceeded && succeeded < succeed:
					what = fmt.Sprintf("succeeded, which needs %d succeeded", succeed)
				case st == StateFailed && failed < fail:
					what = fmt.Sprintf("failed, which needs %d failed", fail)
				}
			case s.kind == kind.All && st != StateRunning && ready > 0:
				what = "completed, every child completed"
			case s.kind == kind.All && st == StateSucceeded && succeeded == 0:
				what = "succeeded, a child succeeded"
			case s.kind == kind.All && st == StateFailed && failed != n:
				what = "failed, every child failed"
			}
			if what != "" {
				return bad("%d children are READY, %d RUNNING, %d SUCCEEDED and %d FAILED (%s)", ready, running, succeeded, failed, what)
			}
		case kind.Lotto:
			if ready != len(s.kids)-1 {
				return bad("%d of its %d children are not READY, not 1", len(s.kids)-ready, len(s.kids))
			}
			k := 0
			for kid(k) == StateReady {
				k++
			}
			if cs := kid(k); cs != st {
				return bad("its child %d is %s", s.kids[k], cs)
			}
			if pick := w[p.sw+2*s.slot]; st == StateRunning && pick != uint64(k) {
				return bad("it picked child %d of its children, but child %d (node %d) runs", pick, k, s.kids[k])
			}
		case kind.Repeat, kind.Retry:
			again, stop := StateSucceeded, StateFailed
			if s.kind == kind.Retry {
				again, stop = StateFailed, StateSucceeded
			}
			cs, c := kid(0), s.kids[0]
			bounded := s.bound != kind.Unbounded
			var n, target uint64
			if bounded {
				n, target = w[p.sw+2*s.slot], w[p.sw+2*s.slot+1]
			}
			switch {
			case st == StateRunning && cs != StateRunning && cs != again:
				return bad("its child %d is %s", c, cs)
			case st == StateRunning && bounded && cs == StateRunning && n >= target:
				return bad("its count %d reached %d, but its child %d runs", n, target, c)
			case st == StateRunning && bounded && cs == again && n == 0:
				return bad("its count is 0, but its child %d completed an iteration", c)
			case st == stop && cs != stop:
				return bad("its child %d is %s", c, cs)
			case st == again && !bounded:
				return bad("it has no count to reach")
			case st == again && cs != StateReady && cs != again:
				return bad("its child %d is %s", c, cs)
			}
		case kind.ReactiveParallel:
			want := StateRunning
			switch {
			case s.max > 0 && int32(succeeded) >= s.max:
				want = StateSucceeded
			case s.min > 0 && int32(failed) >= s.min:
				want = StateFailed
			}
			if ready > 0 {
				return bad("%d of its children are READY, and it updates every child", ready)
			}
			if st != want {
				return bad("%d children succeeded and %d failed, which make it %s", succeeded, failed, want)
			}
		}
	}
	return nil
}
