package btcpp

import (
	bin "encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// This file saves and restores versions (Tree.MarshalBinary, Tree.Restore,
// Document.Restore): every node's state, every blackboard scope's entries,
// the clock and the timers, the wake-up flag.

// saveMagic starts every save; the byte after it is the format version.
const (
	saveMagic   = "BTC"
	saveVersion = 1
)

// ErrWrongTree is wrapped by the error of restoring a save onto a tree
// other than the one it was saved from (another document, main tree or
// structure).
var ErrWrongTree = errors.New("the state was saved from a different tree")

// StateError reports a save that cannot be restored: Offset is the byte
// of the save where the problem is (-1 when it is not in the bytes, as for
// a nil tree).
type StateError struct {
	Offset int
	Msg    string
	Err    error
}

// Error returns "btcpp: restore: byte N: MSG[: ERR]".
func (e *StateError) Error() string {
	s := "btcpp: restore: "
	if e.Offset >= 0 {
		s += "byte " + strconv.Itoa(e.Offset) + ": "
	}
	s += e.Msg
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *StateError) Unwrap() error { return e.Err }

// Fingerprint returns a hash of the built tree that every version of it
// shares: each node's ID, name, parent, children, scope, port attributes
// and scripts, and each blackboard scope's tree, path, parent and
// remappings. A save carries it, so that a save of another tree is refused.
func (t *Tree) Fingerprint() uint64 { return t.p.fingerprint() }

// fingerprint hashes what a saved state depends on (see Fingerprint).
func (p *program) fingerprint() uint64 {
	h := fnv.New64a()
	var buf [bin.MaxVarintLen64]byte
	num := func(x int) { h.Write(buf[:bin.PutVarint(buf[:], int64(x))]) }
	str := func(s string) {
		num(len(s))
		h.Write([]byte(s))
	}
	scr := func(s *script) {
		if s == nil {
			num(-1)
			return
		}
		str(s.src)
	}
	num(len(p.nodes))
	for i := range p.nodes {
		n := &p.nodes[i]
		str(n.regID)
		str(n.typeID)
		str(n.name)
		num(int(n.k.cat))
		if n.k.leaf != nil {
			num(int(n.k.leaf.kind))
		} else {
			num(-1)
		}
		num(n.parent)
		num(len(n.kids))
		num(n.scope)
		keys := make([]string, 0, len(n.attrs))
		for k := range n.attrs {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		num(len(keys))
		for _, k := range keys {
			str(k)
			str(n.attrs[k])
		}
		for j := range n.pre {
			scr(n.pre[j])
			scr(n.post[j])
		}
	}
	num(len(p.trees))
	for _, tr := range p.trees {
		str(tr[0])
		str(tr[1])
	}
	return h.Sum64()
}

// The bits of a node's field mask: which fields of its state follow.
const (
	mStatus = 1 << iota
	mLast
	mFlags
	mA
	mB
	mSeq
	mDeadline
	mList
)

// allFlags is every flag a nodeState may hold.
const allFlags = fArmed<<1 - 1

// The bits of the version's flags byte.
const (
	vWake  = 1 << iota // the wake-up flag
	vWall              // the wall time of the last tick follows
	vAsync             // the async section follows the scopes (async.go)
)

// MarshalBinary returns the version in a binary form that Restore (of any
// version of the same built tree) or Document.Restore reads back. It
// implements encoding.BinaryMarshaler. The form is:
//
//   - the magic "BTC" and the format version, the byte 1;
//   - the fingerprint of the built tree (Fingerprint), 8 bytes
//     little-endian;
//   - the number of nodes and of blackboard scopes, uvarints;
//   - a flags byte (1: the wake-up flag is set; 2: the wall time of the
//     last tick follows; 4: the async results follow the scopes), then the status the last tick returned (a byte, 0 to 4 for IDLE
//     to SKIPPED),
//     the clock (Clock, in nanoseconds, a varint), the number of timers
//     armed so far, whether a tick made the version (1) or not (0) and the root executions of the last tick
//     (uvarints), and when flagged the wall time (Unix
//     nanoseconds, a varint);
//   - for each node in preorder: a byte saying which fields are not zero,
//     then those fields in this order: status (1, a byte), the child's
//     result of RunOnce (2, a byte), the flags (4, a uvarint), the kind's
//     two counters (8 and 16, varints), the write counter last seen or
//     the arming order (32, a uvarint), the timer's deadline (64, a
//     varint, nanoseconds) and a Loop node's working list (128, the
//     number of values, then each value);
//   - for each scope, in the order of Scopes: the number of entries, then
//     each entry by increasing key: its key and declared type (each a
//     uvarint length and the bytes), its value, and its write counter (a
//     uvarint);
//   - a value is a byte (its representation times 16 plus its type code:
//     empty 0, int-like 17 to 20 (int, int64, bool, uint), double 37,
//     string 54, NodeStatus 55) and its content:
//     an empty value's type name as a length and bytes, an int-like value
//     as a varint, a double as its 8 bytes of IEEE 754 little-endian, a
//     string as a length and bytes;
//   - when flagged (the line of versions gave an id to an Async: see
//     Call.Await), the async results: the last id given (a uvarint), the
//     number of actions that wait for one, then for each by increasing
//     node: the node and the id (uvarints), the result (a byte: 0
//     pending, 1 SUCCESS, 2 FAILURE) and, for a result, the looks from the
//     version's next one that still see it pending (a uvarint: a save
//     after the settlement fixes them as a look would).
//
// A restored version holds a new Async, of the saved id, for each action
// that waits for one (Tree.Async finds it); a saved result is settled
// already. A save without async results is the same as before they
// existed, and restores as it did.
//
// A save holds no Go leaf's own memory: a leaf keeps its state on the
// blackboard, or outside the tree. A version on the wall clock saves the
// wall time of its last tick, so that the tick after a restore sees the
// time passed since then.
func (t *Tree) MarshalBinary() ([]byte, error) {
	if t == nil || t.p == nil {
		return nil, errors.New("btcpp: MarshalBinary of a nil Tree")
	}
	b := make([]byte, 0, 32+4*len(t.st))
	b = append(b, saveMagic...)
	b = append(b, saveVersion)
	b = bin.LittleEndian.AppendUint64(b, t.p.fingerprint())
	b = bin.AppendUvarint(b, uint64(len(t.st)))
	b = bin.AppendUvarint(b, uint64(len(t.bb.scopes)))
	var flags byte
	if t.wake {
		flags |= vWake
	}
	if !t.wall.IsZero() {
		flags |= vWall
	}
	if t.ids != 0 {
		flags |= vAsync
	}
	b = append(b, flags, byte(t.status))
	b = bin.AppendVarint(b, int64(t.now))
	b = bin.AppendUvarint(b, t.armSeq)
	ticked := uint64(0)
	if t.ticked {
		ticked = 1
	}
	b = bin.AppendUvarint(b, ticked)
	b = bin.AppendUvarint(b, uint64(t.rootTicks))
	if flags&vWall != 0 {
		b = bin.AppendVarint(b, t.wall.UnixNano())
	}
	for i := range t.st {
		var x nodeExt
		if j := t.p.extIndex(i); j >= 0 {
			x = t.ext[j]
		}
		b = appendNodeState(b, &t.st[i], &x)
	}
	for _, sd := range t.bb.scopes {
		b = bin.AppendUvarint(b, uint64(len(sd.entries)))
		for _, e := range sd.entries {
			b = appendString(b, e.key)
			b = appendString(b, e.declared)
			b = appendValue(b, e.value)
			b = bin.AppendUvarint(b, e.seq)
		}
	}
	if flags&vAsync != 0 {
		b = t.appendAsync(b)
	}
	return b, nil
}

// appendNodeState appends one node's mask and fields.
func appendNodeState(b []byte, s *nodeState, x *nodeExt) []byte {
	var m byte
	if s.status != Idle {
		m |= mStatus
	}
	if s.last != Idle {
		m |= mLast
	}
	if s.flags != 0 {
		m |= mFlags
	}
	if s.a != 0 {
		m |= mA
	}
	if s.b != 0 {
		m |= mB
	}
	if x.seq != 0 {
		m |= mSeq
	}
	if x.deadline != 0 {
		m |= mDeadline
	}
	if len(x.list) != 0 {
		m |= mList
	}
	b = append(b, m)
	if m&mStatus != 0 {
		b = append(b, byte(s.status))
	}
	if m&mLast != 0 {
		b = append(b, byte(s.last))
	}
	if m&mFlags != 0 {
		b = bin.AppendUvarint(b, uint64(s.flags))
	}
	if m&mA != 0 {
		b = bin.AppendVarint(b, int64(s.a))
	}
	if m&mB != 0 {
		b = bin.AppendVarint(b, int64(s.b))
	}
	if m&mSeq != 0 {
		b = bin.AppendUvarint(b, x.seq)
	}
	if m&mDeadline != 0 {
		b = bin.AppendVarint(b, int64(x.deadline))
	}
	if m&mList != 0 {
		b = bin.AppendUvarint(b, uint64(len(x.list)))
		for _, v := range x.list {
			b = appendValue(b, v)
		}
	}
	return b
}

// appendString appends a length and the bytes of s.
func appendString(b []byte, s string) []byte {
	b = bin.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendValue appends a value's tag byte and content.
func appendValue(b []byte, v Value) []byte {
	b = append(b, byte(v.kind)<<4|byte(v.tc))
	switch v.kind {
	case kindInt:
		return bin.AppendVarint(b, v.i)
	case kindDouble:
		return bin.LittleEndian.AppendUint64(b, math.Float64bits(v.f))
	}
	return appendString(b, v.s)
}

// Restore returns the version saved in data (by MarshalBinary) on t's
// built tree: t may be any version of the tree that was saved, or of one
// built again from the same document, main tree and options. The version
// resumes exactly: it shows the same statuses and blackboard, and ticks
// as the saved one would. Truncated, damaged or foreign data returns a
// *StateError naming the byte, never a panic; a save of another tree
// returns one that wraps ErrWrongTree.
func (t *Tree) Restore(data []byte) (*Tree, error) {
	if t == nil || t.p == nil {
		return nil, &StateError{Offset: -1, Msg: "Restore on a nil Tree"}
	}
	r := &stateReader{data: data, p: t.p}
	nt, err := r.read(t.bb.info)
	if err != nil {
		return nil, err
	}
	return nt, nil
}

// Restore builds the tree mainTreeID with opts, as Build does, and returns
// the version saved in data on it, as Tree.Restore does. The options must
// be those of the tree that was saved (the initial entries do not matter:
// the save holds the blackboard).
func (d *Document) Restore(mainTreeID string, data []byte, opts ...Option) (*Tree, error) {
	t, err := d.Build(mainTreeID, opts...)
	if err != nil {
		return nil, err
	}
	return t.Restore(data)
}

// stateReader reads a save.
type stateReader struct {
	data []byte
	off  int
	p    *program
}

// fail returns a *StateError at byte off.
func (r *stateReader) fail(off int, format string, args ...any) error {
	return &StateError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// byte1 reads one byte.
func (r *stateReader) byte1(what string) (byte, error) {
	if r.off >= len(r.data) {
		return 0, r.fail(r.off, "truncated: %s expected", what)
	}
	c := r.data[r.off]
	r.off++
	return c, nil
}

// uvarint reads a uvarint in its shortest form.
func (r *stateReader) uvarint(what string) (uint64, error) {
	x, n := bin.Uvarint(r.data[r.off:])
	switch {
	case n == 0:
		return 0, r.fail(r.off, "truncated: %s expected", what)
	case n < 0:
		return 0, r.fail(r.off, "%s: the number overflows 64 bits", what)
	case n != len(bin.AppendUvarint(nil, x)):
		return 0, r.fail(r.off, "%s: the number is not in its shortest form", what)
	}
	r.off += n
	return x, nil
}

// varint reads a varint in its shortest form.
func (r *stateReader) varint(what string) (int64, error) {
	x, n := bin.Varint(r.data[r.off:])
	switch {
	case n == 0:
		return 0, r.fail(r.off, "truncated: %s expected", what)
	case n < 0:
		return 0, r.fail(r.off, "%s: the number overflows 64 bits", what)
	case n != len(bin.AppendVarint(nil, x)):
		return 0, r.fail(r.off, "%s: the number is not in its shortest form", what)
	}
	r.off += n
	return x, nil
}

// count reads a count of items of at least min bytes each, which must fit
// in what is left.
func (r *stateReader) count(what string, min int) (int, error) {
	at := r.off
	x, err := r.uvarint(what)
	if err != nil {
		return 0, err
	}
	if x > uint64(len(r.data)-r.off)/uint64(min) {
		return 0, r.fail(at, "%s: %d, more than the %d bytes left can hold", what, x, len(r.data)-r.off)
	}
	return int(x), nil
}

// str reads a length and that many bytes.
func (r *stateReader) str(what string) (string, error) {
	n, err := r.count(what+" length", 1)
	if err != nil {
		return "", err
	}
	s := string(r.data[r.off : r.off+n])
	r.off += n
	return s, nil
}

// int32At reads a varint that must fit an int32 in [lo, hi].
func (r *stateReader) int32At(what string, lo, hi int64) (int32, error) {
	at := r.off
	x, err := r.varint(what)
	if err != nil {
		return 0, err
	}
	if x < lo || x > hi {
		return 0, r.fail(at, "%s: %d, want %d to %d", what, x, lo, hi)
	}
	return int32(x), nil
}

// status reads a stored status (IDLE to FAILURE; SKIPPED is never stored).
func (r *stateReader) status(what string) (Status, error) {
	at := r.off
	c, err := r.byte1(what)
	if err != nil {
		return 0, err
	}
	if Status(c) > Failure {
		return 0, r.fail(at, "%s: %d is not a stored status (0 to 3)", what, c)
	}
	return Status(c), nil
}

// value reads a value.
func (r *stateReader) value(what string) (Value, error) {
	at := r.off
	tag, err := r.byte1(what)
	if err != nil {
		return Value{}, err
	}
	v := Value{kind: valueKind(tag >> 4), tc: typeCode(tag & 15)}
	ok := false
	switch v.kind {
	case kindEmpty:
		ok = v.tc == tcEmpty
	case kindInt:
		ok = v.tc == tcInt || v.tc == tcInt64 || v.tc == tcBool || v.tc == tcUint
	case kindDouble:
		ok = v.tc == tcDouble
	case kindString:
		ok = v.tc == tcString || v.tc == tcNodeStatus
	}
	if !ok {
		return Value{}, r.fail(at, "%s: %#02x is not the tag of a value", what, tag)
	}
	switch v.kind {
	case kindInt:
		v.i, err = r.varint(what)
	case kindDouble:
		if len(r.data)-r.off < 8 {
			return Value{}, r.fail(r.off, "truncated: %s expected", what)
		}
		v.f = math.Float64frombits(bin.LittleEndian.Uint64(r.data[r.off:]))
		r.off += 8
	default:
		v.s, err = r.str(what)
	}
	return v, err
}

// read reads a whole save; info is the built tree's scopes.
func (r *stateReader) read(info []scopeInfo) (*Tree, error) {
	d := r.data
	if len(d) < 4 || string(d[:3]) != saveMagic {
		if len(d) >= 3 && string(d[:3]) == "BTS" {
			return nil, r.fail(0, "a save of the behaviortree package, not of a BehaviorTree.CPP tree")
		}
		return nil, r.fail(0, `not a saved BehaviorTree.CPP tree (no "BTC" magic)`)
	}
	if d[3] != saveVersion {
		return nil, r.fail(3, "format version %d, want %d", d[3], saveVersion)
	}
	r.off = 4
	if len(d) < 12 {
		return nil, r.fail(r.off, "truncated: fingerprint expected")
	}
	if fp, want := bin.LittleEndian.Uint64(d[4:]), r.p.fingerprint(); fp != want {
		return nil, &StateError{Offset: 4, Msg: fmt.Sprintf("fingerprint %016x, but this tree's is %016x", fp, want), Err: ErrWrongTree}
	}
	r.off = 12
	at := r.off
	nodes, err := r.uvarint("node count")
	if err != nil {
		return nil, err
	}
	if nodes != uint64(len(r.p.nodes)) {
		return nil, &StateError{Offset: at, Msg: fmt.Sprintf("%d nodes, but this tree has %d", nodes, len(r.p.nodes)), Err: ErrWrongTree}
	}
	at = r.off
	scopes, err := r.uvarint("scope count")
	if err != nil {
		return nil, err
	}
	if scopes != uint64(len(info)) {
		return nil, &StateError{Offset: at, Msg: fmt.Sprintf("%d scopes, but this tree has %d", scopes, len(info)), Err: ErrWrongTree}
	}
	t := &Tree{p: r.p}
	at = r.off
	flags, err := r.byte1("flags")
	if err != nil {
		return nil, err
	}
	if flags&^(vWake|vWall|vAsync) != 0 {
		return nil, r.fail(at, "unknown flags %#02x", flags)
	}
	t.wake = flags&vWake != 0
	at = r.off
	st, err := r.byte1("status")
	if err != nil {
		return nil, err
	}
	if Status(st) > Skipped {
		return nil, r.fail(at, "status: %d is not a status (0 to 4)", st)
	}
	t.status = Status(st)
	at = r.off
	now, err := r.varint("clock")
	if err != nil {
		return nil, err
	}
	if now < 0 {
		return nil, r.fail(at, "clock: %d is negative", now)
	}
	t.now = time.Duration(now)
	if t.armSeq, err = r.uvarint("timers armed"); err != nil {
		return nil, err
	}
	at = r.off
	ticks, err := r.uvarint("ticks")
	if err != nil {
		return nil, err
	}
	if ticks > 1 {
		return nil, r.fail(at, "ticked: %d (0 or 1)", ticks)
	}
	t.ticked = ticks == 1
	at = r.off
	rt, err := r.uvarint("root executions")
	if err != nil {
		return nil, err
	}
	if rt > math.MaxInt32 {
		return nil, r.fail(at, "root executions: %d is too many", rt)
	}
	t.rootTicks = int(rt)
	if flags&vWall != 0 {
		ns, err := r.varint("wall time")
		if err != nil {
			return nil, err
		}
		t.wall = time.Unix(0, ns)
	}
	t.st = make([]nodeState, len(r.p.nodes))
	for i := range t.st {
		var x *nodeExt
		if j := r.p.extIndex(i); j >= 0 {
			if t.ext == nil {
				t.ext = make([]nodeExt, r.p.nExt)
			}
			x = &t.ext[j]
		}
		if err := r.node(i, &t.st[i], x); err != nil {
			return nil, err
		}
	}
	bb := board{info: info, tok: newToken()}
	bb.scopes = make([]*scopeData, len(info))
	for s := range bb.scopes {
		n, err := r.count(fmt.Sprintf("scope %d: entry count", s), 4)
		if err != nil {
			return nil, err
		}
		sd := &scopeData{owner: bb.tok, entries: make([]*entry, n)}
		for j := range sd.entries {
			at := r.off
			e := &entry{owner: bb.tok}
			if e.key, err = r.str(fmt.Sprintf("scope %d: entry %d: key", s, j)); err != nil {
				return nil, err
			}
			if j > 0 && e.key <= sd.entries[j-1].key {
				return nil, r.fail(at, "scope %d: entry %d: key %s is not after %s", s, j, quote(e.key), quote(sd.entries[j-1].key))
			}
			if e.declared, err = r.str(fmt.Sprintf("scope %d: entry %s: declared type", s, quote(e.key))); err != nil {
				return nil, err
			}
			if e.value, err = r.value(fmt.Sprintf("scope %d: entry %s: value", s, quote(e.key))); err != nil {
				return nil, err
			}
			if e.seq, err = r.uvarint(fmt.Sprintf("scope %d: entry %s: write counter", s, quote(e.key))); err != nil {
				return nil, err
			}
			sd.entries[j] = e
		}
		bb.scopes[s] = sd
	}
	t.bb = bb
	if flags&vAsync != 0 {
		if err := r.async(t); err != nil {
			return nil, err
		}
	}
	if r.off != len(d) {
		return nil, r.fail(r.off, "%d bytes after the state", len(d)-r.off)
	}
	return t, nil
}

// quote quotes a key for an error message, cut to about 60 bytes.
func quote(s string) string {
	if len(s) > 60 {
		n := 60
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		return strconv.Quote(s[:n]) + "..."
	}
	return strconv.Quote(s)
}

// node reads node i's state, checking its counters against its kind so
// that a restored version never indexes past a node's children.
func (r *stateReader) node(i int, s *nodeState, x *nodeExt) error {
	at := r.off
	m, err := r.byte1(fmt.Sprintf("node %d", i))
	if err != nil {
		return err
	}
	nd := &r.p.nodes[i]
	nonzero := func(at int, what string) error {
		return r.fail(at, "node %d: %s is zero, but its bit in the field mask is set", i, what)
	}
	if m&mStatus != 0 {
		at := r.off
		if s.status, err = r.status(fmt.Sprintf("node %d: status", i)); err != nil {
			return err
		}
		if s.status == Idle {
			return nonzero(at, "status")
		}
	}
	if m&mLast != 0 {
		at := r.off
		if s.last, err = r.status(fmt.Sprintf("node %d: child's result", i)); err != nil {
			return err
		}
		if s.last == Idle {
			return nonzero(at, "child's result")
		}
	}
	if m&mFlags != 0 {
		at := r.off
		f, err := r.uvarint(fmt.Sprintf("node %d: flags", i))
		if err != nil {
			return err
		}
		if f == 0 {
			return nonzero(at, "flags")
		}
		if f&^uint64(allFlags) != 0 {
			return r.fail(at, "node %d: unknown flags %#x", i, f)
		}
		s.flags = uint16(f)
	}
	// The counters: for a control at most its number of children (an
	// index or a count of them); IfThenElse's branch below it; for the
	// others (Repeat's and RetryUntilSuccessful's count) any count.
	hiA, hiB := int64(math.MaxInt32), int64(math.MaxInt32)
	if nd.k.cat == catControl {
		hiA, hiB = int64(len(nd.kids)), int64(len(nd.kids))
		if nd.k.id == "IfThenElse" {
			hiA = int64(len(nd.kids)) - 1
		}
	}
	for _, c := range []struct {
		bit  byte
		dst  *int32
		hi   int64
		what string
	}{{mA, &s.a, hiA, "first counter"}, {mB, &s.b, hiB, "second counter"}} {
		if m&c.bit == 0 {
			continue
		}
		at := r.off
		if *c.dst, err = r.int32At(fmt.Sprintf("node %d: %s", i, c.what), 0, c.hi); err != nil {
			return err
		}
		if *c.dst == 0 {
			return nonzero(at, c.what)
		}
	}
	if x == nil && m&(mSeq|mDeadline|mList) != 0 {
		return r.fail(at, "node %d (%s) has no write counter, deadline or list, but its field mask says it has", i, nd.regID)
	}
	if m&mSeq != 0 {
		at := r.off
		if x.seq, err = r.uvarint(fmt.Sprintf("node %d: write counter", i)); err != nil {
			return err
		}
		if x.seq == 0 {
			return nonzero(at, "write counter")
		}
	}
	if m&mDeadline != 0 {
		at := r.off
		d, err := r.varint(fmt.Sprintf("node %d: deadline", i))
		if err != nil {
			return err
		}
		if d == 0 {
			return nonzero(at, "deadline")
		}
		x.deadline = time.Duration(d)
	}
	if m&mList != 0 {
		at := r.off
		n, err := r.count(fmt.Sprintf("node %d: list length", i), 2)
		if err != nil {
			return err
		}
		if n == 0 {
			return nonzero(at, "list length")
		}
		x.list = make([]Value, n)
		for j := range x.list {
			if x.list[j], err = r.value(fmt.Sprintf("node %d: list value %d", i, j)); err != nil {
				return err
			}
		}
	}
	return nil
}
