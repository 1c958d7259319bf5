package behaviortree

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
)

// This file saves and restores stepped versions: the node states, the
// extras of the nodes that keep some (repeat and retry counts, wait
// progress, lotto picks) and the version's own generator.
//
// The binary form is: "BTS1"; the fingerprint of the compiled definition
// (8 bytes, little-endian); the node count (uvarint); the inline states
// (8 bytes); the word count (uvarint) and the words (8 bytes each). A
// version whose memory is not empty starts with "BTS2" instead, and ends
// with its memory (memory_codec.go).

const (
	steppedMagic       = "BTS1"
	steppedMemoryMagic = "BTS2"
)

// fingerprint hashes what a saved state depends on: every node's kind,
// children, bound and lotto weights, in preorder.
func (p *sprogram[L]) fingerprint() uint64 {
	h := fnv.New64a()
	var buf [binary.MaxVarintLen64]byte
	put := func(x uint64) { h.Write(buf[:binary.PutUvarint(buf[:], x)]) }
	for i := range p.nodes {
		s := &p.nodes[i]
		put(uint64(s.kind))
		put(uint64(len(s.kids)))
		put(uint64(s.bound))
		put(uint64(s.min))
		put(uint64(s.max))
		for _, c := range s.cum {
			put(uint64(c))
		}
	}
	return h.Sum64()
}

// ErrPendingAsync is the error of saving a version in which an action
// waits for an [Async] result: the handle cannot be saved.
var ErrPendingAsync = errors.New("an action has a pending async result")

// MarshalBinary returns the version's state in a compact binary form, for
// [Stepped.Restore]. It fails with [ErrPendingAsync] (wrapped, naming the
// node) while an action waits for an async result, and with a
// [*MemoryError] for a value in memory that has no saved form (see
// [NewKey]).
func (t Stepped[L]) MarshalBinary() ([]byte, error) {
	m := t.mustM("MarshalBinary")
	for e := t.pending(); e != nil; e = e.next {
		if t.nodeState(e.node) == StateRunning {
			return nil, fmt.Errorf("behaviortree.Stepped.MarshalBinary: node %d (%s): %w", e.node, m.p.nodes[e.node].displayName(), ErrPendingAsync)
		}
	}
	w := t.wordsOf()
	out := make([]byte, 0, 4+8+2*binary.MaxVarintLen64+8+8*len(w))
	mem := t.Memory()
	if mem.Len() > 0 {
		out = append(out, steppedMemoryMagic...)
	} else {
		out = append(out, steppedMagic...)
	}
	out = binary.LittleEndian.AppendUint64(out, m.p.fingerprint())
	out = binary.AppendUvarint(out, uint64(len(m.p.nodes)))
	out = binary.LittleEndian.AppendUint64(out, t.small)
	out = binary.AppendUvarint(out, uint64(len(w)))
	for _, x := range w {
		out = binary.LittleEndian.AppendUint64(out, x)
	}
	if mem.Len() > 0 {
		var err error
		if out, err = appendMemory(out, mem); err != nil {
			return nil, fmt.Errorf("behaviortree.Stepped.MarshalBinary: %w", err)
		}
	}
	return out, nil
}

// Restore returns the version saved in data by [Stepped.MarshalBinary],
// with t's definition, agent and options (t's own state is not used). It
// returns an error, never panics, for data saved from another definition
// ([ErrWrongDefinition], wrapped) and for damaged data.
func (t Stepped[L]) Restore(data []byte) (Stepped[L], error) {
	m := t.mustM("Restore")
	p := m.p
	bad := func(format string, args ...any) (Stepped[L], error) {
		return Stepped[L]{}, fmt.Errorf("behaviortree.Stepped.Restore: "+format, args...)
	}
	if len(data) < 4 || string(data[:4]) != steppedMagic && string(data[:4]) != steppedMemoryMagic {
		return bad("not a saved stepped state")
	}
	withMemory := string(data[:4]) == steppedMemoryMagic
	whole := len(data)
	data = data[4:]
	if len(data) < 8 {
		return bad("truncated")
	}
	if fp := binary.LittleEndian.Uint64(data); fp != p.fingerprint() {
		return bad("%w", ErrWrongDefinition)
	}
	data = data[8:]
	n, k := binary.Uvarint(data)
	if k <= 0 || n != uint64(len(p.nodes)) {
		return bad("%w: node count", ErrWrongDefinition)
	}
	data = data[k:]
	if len(data) < 8 {
		return bad("truncated")
	}
	out := Stepped[L]{m: m, small: binary.LittleEndian.Uint64(data)}
	data = data[8:]
	nw, k := binary.Uvarint(data)
	if k <= 0 || nw != uint64(p.nwords) {
		return bad("%d words, want %d", nw, p.nwords)
	}
	data = data[k:]
	if uint64(len(data)) < 8*nw || !withMemory && uint64(len(data)) != 8*nw {
		return bad("%d bytes of words, want %d", len(data), 8*nw)
	}
	if withMemory {
		mem, rest, err := readMemory(data[8*nw:], whole-len(data)+int(8*nw))
		if err != nil {
			return bad("%w", err)
		}
		if len(rest) > 0 {
			return bad("%d bytes after the memory", len(rest))
		}
		out.x = withExtra(nil, nil, mem)
	}
	if nw > 0 {
		w := make([]uint64, nw)
		for i := range w {
			w[i] = binary.LittleEndian.Uint64(data[8*i:])
		}
		out.words = &w[0]
	}
	if p.small {
		if len(p.nodes) < 32 && out.small>>(2*uint(len(p.nodes))) != 0 {
			return bad("states beyond the last node")
		}
	} else {
		if out.small != 0 {
			return bad("inline states in a big tree")
		}
		w := out.wordsOf()
		if r := uint(len(p.nodes) % 32); r != 0 && w[p.sw-1]>>(2*r) != 0 {
			return bad("states beyond the last node")
		}
	}
	// The extras of running nodes must be ones the engine can have made.
	// Those of other nodes are never read (a node sets its extras up when
	// it starts), and a node that a guard ended on its first update
	// completed without setting them.
	w := out.wordsOf()
	for i := range p.nodes {
		s := &p.nodes[i]
		if s.slot < 0 || out.nodeState(int32(i)) != StateRunning {
			continue
		}
		a, b := w[p.sw+2*s.slot], w[p.sw+2*s.slot+1]
		switch s.kind {
		case KindLotto:
			if a >= uint64(len(s.kids)) || b != 0 {
				return bad("node %d (%s): lotto pick %d of %d children", i, s.displayName(), a, len(s.kids))
			}
		case KindRepeat, KindRetry:
			if b > uint64(max(s.min, s.max)) || b < uint64(s.min) || a > b {
				return bad("node %d (%s): count %d of %d", i, s.displayName(), a, b)
			}
		case KindWait:
			f := math.Float64frombits(b)
			if f != math.Floor(f) || f < float64(s.min) || f > float64(max(s.min, s.max)) || math.IsNaN(math.Float64frombits(a)) {
				return bad("node %d (%s): waited %v of %v ms", i, s.displayName(), math.Float64frombits(a), f)
			}
		}
	}
	return out, nil
}
