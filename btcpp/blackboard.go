package btcpp

// The blackboard of BehaviorTree.CPP 4.10 (README §6), persistent.
//
// What each function does and costs (n = entries of one scope, s = scopes):
//
//	newBoard()                  one root scope (index 0, path ""). O(1).
//	b.addScope(info)            a SubTree's new scope (build time). O(1).
//	b.clone(), b.next()         the next version's board: O(1), no allocation (next; clone
//	                            allocates the board); the clone shares b's scopes, and its
//	                            slice of them, until its first write copies the slice
//	                            (O(s)); then each scope until it writes to it.
//	b.lookup(scope, key)        §6.1 lookup (@k, remapping, _autoremap). O(log n) per scope
//	                            visited; no allocation.
//	b.createEntry(scope, key, declared)
//	                            §6.1 createEntry; an error is a *Error (LogicError).
//	b.set(scope, key, v, T)     §6.1 set with static type T (a port's type, or "Any" for
//	                            SetBlackboard); errors are *Error (LogicError for a type
//	                            change, std::runtime_error when the copy rule fails).
//	b.unset(scope, key)         UnsetBlackboard: the scope's own entry only.
//	b.setInitial(key, v)        a case's initial bb value (json.Number, string, bool).
//	b.declareRef(scope, port, raw, typ)
//	                            §6.2's build-time entry of a {k} port.
//	b.setLiteral(scope, key, raw)
//	                            §6.2's literal remapping of a SubTree (its value is
//	                            subtreeLiteral(raw)), stored in the new scope itself.
//	b.dump()                    every scope's entries as the corpus writes them.
//	b.seq(scope, key)           the write counter of TIMED.md §8.
//
// ports.go adds, on the same board:
//
//	isRef(raw), refKey(raw, port)   "{k}" / "{=}" references (§6.2, §6.3).
//	parseLiteral(raw, typ)          §6.3 literal parsing; also the build-time literal check.
//	b.readPort(scope, port, raw, typ)     §6.3: (value, false when the read fails).
//	b.writePort(scope, port, raw, typ, v) §6.4: set through a {k} port, else nothing.
//	b.readKey(scope, key, typ), b.writeKey(scope, key, typ, v)
//	                                the same for a reference whose key is known.
//	b.setBlackboard(scope, outputKeyRaw, valueRaw)
//	                                SetBlackboard's tick (§5.3): false is FAILURE.
//
// port_plans.go adds b.readPlan(scope, plan, typ), readPort for a port
// planned at build (its reference's key, or its literal parsed as each
// type), and b.entryValue(scope, key), the entry a read finds.
//
// Costs in allocations: next none, clone 1 (the board); the first write
// after a clone 1 (8 bytes per scope); the first write to an existing
// entry after a clone 3 more (the scope, its pointer slice, the entry:
// about 200 bytes for a scope of 9 entries); further writes to it none.
//
// Writes: scopes and entries are copy-on-write. The first write to a scope
// after a clone copies that scope's slice of entry pointers (one allocation
// of 8n bytes, 4n on 386), and the first write to an entry copies it (one
// allocation of 96 bytes); later writes to the same entry of the same board
// write in place with no allocation. A board handed out in a version must
// not be written again: write only to the newest clone.

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
)

// scopeInfo is the static description of one blackboard scope, filled at
// build time and shared by every version.
type scopeInfo struct {
	TreeID, Path string
	Parent       int               // index of the parent scope, -1 for the root
	Remap        map[string]string // port -> parent key (as written, may start with @)
	Auto         bool              // _autoremap
}

// entry is one blackboard entry.
type entry struct {
	key      string
	declared string // declared type: "any"/"Any" when untyped
	value    Value
	seq      uint64 // write counter (TIMED.md §8)
	owner    uint64 // the token of the board that may write it in place
}

// scopeData holds a scope's entries sorted by key; owner is the token of
// the board that may change the slice in place.
type scopeData struct {
	owner   uint64
	entries []*entry
}

// board is the blackboard of one version of a tree: every scope's entries.
// tok is the token of the board, 0 until its first write (own): a board
// with no token shares its slice of scopes with the board it was cloned
// from.
type board struct {
	info   []scopeInfo
	scopes []*scopeData
	tok    uint64
}

var boardTokens atomic.Uint64

func newToken() uint64 { return boardTokens.Add(1) }

// newBoard returns a board with one empty root scope.
func newBoard() *board {
	b := &board{tok: newToken()}
	b.info = []scopeInfo{{Parent: -1}}
	b.scopes = []*scopeData{{owner: b.tok}}
	return b
}

// addScope adds a scope (a SubTree's, at build time) and returns its index.
func (b *board) addScope(info scopeInfo) int {
	b.info = append(b.info, info)
	b.scopes = append(b.scopes, &scopeData{owner: b.tok})
	return len(b.scopes) - 1
}

// clone returns the next version's board (next, allocated). Writes to the
// clone never show in b; b itself must not be written afterwards.
func (b *board) clone() *board {
	nb := b.next()
	return &nb
}

// next returns the next version's board in O(1): it shares b's scopes
// until its first write (own).
func (b *board) next() board { return board{info: b.info, scopes: b.scopes} }

// index returns the position of key in scope s, or where it would go.
func (b *board) index(s int, key string) (int, bool) {
	es := b.scopes[s].entries
	if len(es) <= 8 {
		// Small scopes: equality first (cheaper than ordering compares).
		for i, e := range es {
			if e.key == key {
				return i, true
			}
		}
	}
	lo, hi := 0, len(es)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if es[m].key < key {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < len(es) && es[lo].key == key
}

// own makes scope s writable by b (copying it if it is shared) and returns
// its entries.
func (b *board) own(s int, grow int) *scopeData {
	if b.tok == 0 {
		b.tok = newToken()
		scopes := make([]*scopeData, len(b.scopes))
		copy(scopes, b.scopes)
		b.scopes = scopes
	}
	sd := b.scopes[s]
	if sd.owner != b.tok {
		nd := &scopeData{owner: b.tok, entries: make([]*entry, len(sd.entries), len(sd.entries)+grow)}
		copy(nd.entries, sd.entries)
		b.scopes[s] = nd
		return nd
	}
	return sd
}

// at returns a writable pointer to entry i of scope s (copying the scope's
// slice and the entry when b does not own them yet).
func (b *board) at(s, i int) *entry {
	sd := b.own(s, 0)
	e := sd.entries[i]
	if e.owner != b.tok {
		c := *e
		c.owner = b.tok
		e = &c
		sd.entries[i] = e
	}
	return e
}

// insert stores a new entry at position i of scope s.
func (b *board) insert(s, i int, e entry) {
	sd := b.own(s, 1)
	e.owner = b.tok
	sd.entries = append(sd.entries, nil)
	copy(sd.entries[i+1:], sd.entries[i:])
	sd.entries[i] = &e
}

// find resolves key in scope (§6.1 lookup) to the scope and position that
// store it.
func (b *board) find(scope int, key string) (s, i int, ok bool) {
	for {
		if len(key) > 0 && key[0] == '@' {
			scope, key = 0, key[1:]
			continue
		}
		if i, ok := b.index(scope, key); ok {
			return scope, i, true
		}
		inf := &b.info[scope]
		if inf.Parent < 0 {
			return 0, 0, false
		}
		if r, ok := inf.Remap[key]; ok {
			scope, key = inf.Parent, r
			continue
		}
		if inf.Auto && !strings.HasPrefix(key, "_") {
			scope = inf.Parent
			continue
		}
		return 0, 0, false
	}
}

// lookup returns the entry key names in scope (§6.1).
func (b *board) lookup(scope int, key string) (entry, bool) {
	s, i, ok := b.find(scope, key)
	if !ok {
		return entry{}, false
	}
	return *b.scopes[s].entries[i], true
}

// typed reports whether a declared type is strongly typed (not any/Any).
func typed(declared string) bool { return declared != "any" && declared != "Any" }

// createEntry creates key in scope with a declared type, or reuses it
// (§6.1 createEntry).
func (b *board) createEntry(scope int, key, declared string) error {
	if strings.HasPrefix(key, "@") {
		if strings.Contains(key[1:], "@") {
			return newError(LogicError, "blackboard key [%s]: character '@' used multiple times", key)
		}
		_, _, err := b.createEntryImpl(0, key[1:], declared)
		if e, ok := err.(*Error); ok { // the message names the key as written
			c := *e
			c.Msg = strings.Replace(e.Msg, "["+key[1:]+"]", "["+key+"]", 1)
			return &c
		}
		return err
	}
	_, _, err := b.createEntryImpl(scope, key, declared)
	return err
}

// createEntryImpl is BT's createEntryImpl: it returns where the entry is.
func (b *board) createEntryImpl(scope int, key, declared string) (s, i int, err error) {
	for {
		i, ok := b.index(scope, key)
		if ok {
			prev := b.scopes[scope].entries[i].declared
			if prev != declared && typed(prev) && typed(declared) {
				return 0, 0, newError(LogicError, "Blackboard entry [%s]: once declared, the type of a port shall not change. Previously declared type [%s], current type [%s]", key, demangled(prev), demangled(declared))
			}
			return scope, i, nil
		}
		inf := &b.info[scope]
		if inf.Parent >= 0 {
			if r, ok := inf.Remap[key]; ok {
				scope, key = inf.Parent, r
				continue
			}
			if inf.Auto && !strings.HasPrefix(key, "_") {
				scope = inf.Parent
				continue
			}
		}
		b.insert(scope, i, entry{key: key, declared: declared, value: emptyValue(declared)})
		return scope, i, nil
	}
}

// isNumberType reports whether T is an arithmetic static type.
func isNumberType(t string) bool {
	switch t {
	case "int", "int64", "double", "bool", "uint":
		return true
	}
	return false
}

// set writes v to key in scope with the static type T (§6.1 set): a port's
// type for outputs ("string" for untyped ports), "Any" for SetBlackboard.
func (b *board) set(scope int, key string, v Value, T string) error {
	for len(key) > 0 && key[0] == '@' {
		scope, key = 0, key[1:]
	}
	i, ok := b.index(scope, key)
	if !ok {
		decl := v.Type()
		if T == "string" {
			decl = "any"
		}
		s, j, err := b.createEntryImpl(scope, key, decl)
		if err != nil {
			return err
		}
		e := b.at(s, j)
		e.value = v
		e.seq++
		return nil
	}
	cur := b.scopes[scope].entries[i]
	if !typed(cur.declared) {
		e := b.at(scope, i)
		e.declared = T
		e.value = v
		e.seq++
		return nil
	}
	if cur.declared != T && cur.declared != v.Type() {
		mismatch := true
		if T == "string" && v.kind == kindString {
			if pv, ok := parseLiteral(v.s, cur.declared); ok {
				v, mismatch = pv, false
			}
		}
		if mismatch && isNumberType(T) && castSafe(cur.declared, v) {
			mismatch = false
		}
		if mismatch {
			return newError(LogicError, "Blackboard::set(%s): once declared, the type of a port shall not change. Previously declared type [%s], current type [%s]", key, demangled(cur.declared), demangled(T))
		}
	}
	nv := v
	if T != "Any" {
		var err error
		if nv, err = copyInto(v, cur.value); err != nil {
			return err
		}
	}
	e := b.at(scope, i)
	e.value = nv
	e.seq++
	return nil
}

// castSafe is BT's isCastingSafe: v converts to the number type declared
// exactly.
func castSafe(declared string, v Value) bool {
	if !v.IsNumber() {
		return false
	}
	switch declared {
	case "int":
		i, ok := exactInt(v)
		return ok && i >= -1<<31 && i <= 1<<31-1
	case "int64":
		_, ok := exactInt(v)
		return ok
	case "uint":
		i, ok := exactInt(v)
		return ok && i >= 0 && i <= 1<<32-1
	case "double":
		if v.kind == kindDouble {
			return true
		}
		return int64(float64(v.i)) == v.i
	}
	return false
}

// exactInt returns a number as an int64 when it is integral and in range.
func exactInt(v Value) (int64, bool) {
	switch v.kind {
	case kindInt:
		return v.i, true
	case kindDouble:
		f := v.f
		if f != f || f < -9223372036854775808.0 || f >= 9223372036854775808.0 || f != float64(int64(f)) {
			return 0, false
		}
		return int64(f), true
	}
	return 0, false
}

// copyInto is BT::Any::copyInto: src stored over dst keeps dst's type name
// when both have the same representation, converts between numbers
// exactly, and fails (std::runtime_error) otherwise.
func copyInto(src, dst Value) (Value, error) {
	if dst.kind == kindEmpty {
		return src, nil
	}
	if src.kind == dst.kind {
		src.tc = dst.tc
		return src, nil
	}
	if src.IsNumber() && dst.IsNumber() {
		if dst.kind == kindInt {
			i, ok := exactInt(src)
			if !ok {
				return dst, newError(StdRuntimeError, "Invalid floating point to integer conversion")
			}
			dst.i = i
			return dst, nil
		}
		dst.f = float64(src.i)
		return dst, nil
	}
	return dst, newError(StdRuntimeError, "Any::copyInto fails: [%s] into [%s]", src.Type(), dst.Type())
}

// unset removes key from scope's own entries (UnsetBlackboard).
func (b *board) unset(scope int, key string) {
	i, ok := b.index(scope, key)
	if !ok {
		return
	}
	sd := b.own(scope, 0)
	sd.entries = append(sd.entries[:i], sd.entries[i+1:]...)
}

// setInitial sets a case's initial value in the root scope (§6.1): a
// json.Number without '.', 'e' or 'E' is an int, any other number a
// double, a string is untyped, a bool a bool.
func (b *board) setInitial(key string, v any) error {
	switch x := v.(type) {
	case json.Number:
		s := string(x)
		if !strings.ContainsAny(s, ".eE") {
			i, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return &Error{Type: RuntimeError, Node: -1, Msg: "initial blackboard value of [" + key + "]", Err: err}
			}
			return b.set(0, key, IntValue(i, "int"), "int")
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return &Error{Type: RuntimeError, Node: -1, Msg: "initial blackboard value of [" + key + "]", Err: err}
		}
		return b.set(0, key, DoubleValue(f), "double")
	case float64:
		return b.set(0, key, DoubleValue(x), "double")
	case int:
		return b.set(0, key, IntValue(int64(x), "int"), "int")
	case string:
		return b.set(0, key, StringValue(x), "string")
	case bool:
		return b.set(0, key, BoolValue(x), "bool")
	}
	return newError(RuntimeError, "WithEntry %q: a value of Go type %T is not supported (use an integer, a float, a string, a bool or a Value)", key, v)
}

// declareRef is §6.2's build-time entry of a port written as raw whose
// registered type is typ ("any" for untyped ports): nothing unless raw is
// {k} or {=}; a clash with an existing entry is a RuntimeError.
func (b *board) declareRef(scope int, port, raw, typ string) error {
	key, ok := refKey(raw, port)
	if !ok {
		return nil
	}
	if e, ok := b.lookup(scope, key); ok {
		if typed(e.declared) && typed(typ) && e.declared != typ && e.declared != "string" {
			return newError(RuntimeError, "The creation of the tree failed because the port [%s] was initially created with type [%s] and, later type [%s] was used somewhere else.", key, demangled(e.declared), demangled(typ))
		}
		return nil
	}
	return b.createEntry(scope, key, typ)
}

// subtreeLiteral is the value of a SubTree's literal remapping (§6.2): an
// int if the whole string is a decimal integer fitting 32 bits (int64
// beyond), else a double if the whole string is one, else a string.
func subtreeLiteral(raw string) Value {
	if raw != "" && !strings.ContainsAny(raw, ".eE") {
		if i, err := strconv.ParseInt(raw, 10, 64); err == nil && raw[0] != '+' {
			if i >= -1<<31 && i <= 1<<31-1 {
				return IntValue(i, "int")
			}
			return IntValue(i, "int64")
		}
	}
	if f, n, ok := strtod(raw, false); ok && n == len(raw) {
		return DoubleValue(f)
	}
	return StringValue(raw)
}

// setLiteral stores a SubTree's literal remapping in its new scope (§6.2):
// the entry is declared with the value's type, or "any" for a string. It is
// stored in the scope itself (auto-remapping does not apply).
func (b *board) setLiteral(scope int, key, raw string) {
	v := subtreeLiteral(raw)
	decl := v.Type()
	if v.kind == kindString {
		decl = "any"
	}
	i, ok := b.index(scope, key)
	if !ok {
		b.insert(scope, i, entry{key: key})
	}
	e := b.at(scope, i)
	e.declared, e.value = decl, v
	e.seq++
}

// dump returns every scope's entries as the corpus writes them:
// key -> [declaredType, valueType, value].
func (b *board) dump() []map[string][3]any {
	out := make([]map[string][3]any, len(b.scopes))
	for s, sd := range b.scopes {
		m := make(map[string][3]any, len(sd.entries))
		for _, e := range sd.entries {
			m[e.key] = [3]any{e.declared, e.value.Type(), e.value.jsonValue()}
		}
		out[s] = m
	}
	return out
}

// seq returns the write counter of key's entry (0 if absent).
func (b *board) seq(scope int, key string) uint64 {
	e, ok := b.lookup(scope, key)
	if !ok {
		return 0
	}
	return e.seq
}
