package btcpp

// Ports: reading (README §6.3), writing (§6.4), the build-time literal check,
// and SetBlackboard's tick (§5.3).

import (
	"math"
	"strconv"
	"strings"
)

// isRef reports whether a port's raw value is a blackboard reference
// "{k}" (spaces around the braces allowed, at least 3 characters with the
// braces) and returns the text inside the braces ("=" for "{=}").
func isRef(raw string) (key string, ok bool) {
	if len(raw) < 3 {
		return "", false
	}
	s := strings.Trim(raw, " ")
	if len(s) < 3 || s[0] != '{' || s[len(s)-1] != '}' {
		return "", false
	}
	return s[1 : len(s)-1], true
}

// refKey is isRef with "{=}" meaning the port's own name.
func refKey(raw, port string) (key string, ok bool) {
	key, ok = isRef(raw)
	if ok && key == "=" {
		key = port
	}
	return key, ok
}

// statusNames are the NodeStatus values in BT's enum order.
var statusNames = [...]string{"IDLE", "RUNNING", "SUCCESS", "FAILURE", "SKIPPED"}

// fromCharsInt is std::from_chars for a signed integer: an optional '-',
// then the longest run of decimal digits (at least one); the rest is
// ignored. ok is false without digits or when the number overflows int64.
func fromCharsInt(s string) (int64, bool) {
	i := 0
	neg := false
	if i < len(s) && s[i] == '-' {
		neg = true
		i++
	}
	start := i
	var u uint64
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		d := uint64(s[i] - '0')
		if u > (1<<63)/10 || u*10+d > 1<<63 {
			return 0, false
		}
		u = u*10 + d
		i++
	}
	if i == start {
		return 0, false
	}
	if neg {
		return -int64(u-1) - 1, true
	}
	if u > math.MaxInt64 {
		return 0, false
	}
	return int64(u), true
}

func isSpaceC(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isHex(c byte) bool {
	return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// strtod reads the leading double of s and returns it with the number of
// bytes it took. With cMode it is C's strtod (leading white space skipped,
// '+' and hexadecimal accepted); otherwise std::from_chars (no white space,
// no '+', no hexadecimal). Both accept inf, infinity and nan (any case). ok
// is false when there is no number, or it is out of the double's range.
func strtod(s string, cMode bool) (f float64, n int, ok bool) {
	i := 0
	if cMode {
		for i < len(s) && isSpaceC(s[i]) {
			i++
		}
	}
	neg := false
	if i < len(s) && (s[i] == '-' || (cMode && s[i] == '+')) {
		neg = s[i] == '-'
		i++
	}
	sign := 1.0
	if neg {
		sign = -1
	}
	rest := strings.ToLower(s[i:min(len(s), i+8)])
	switch {
	case rest == "infinity":
		return sign * math.Inf(1), i + 8, true
	case strings.HasPrefix(rest, "inf"):
		return sign * math.Inf(1), i + 3, true
	case strings.HasPrefix(rest, "nan"):
		i += 3
		if i < len(s) && s[i] == '(' {
			j := i + 1
			for j < len(s) && (isDigit(s[j]) || s[j] == '_' || (s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z')) {
				j++
			}
			if j < len(s) && s[j] == ')' {
				i = j + 1
			}
		}
		return math.Copysign(math.NaN(), sign), i, true
	}
	if cMode && i+1 < len(s) && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') &&
		((i+2 < len(s) && isHex(s[i+2])) || (i+3 < len(s) && s[i+2] == '.' && isHex(s[i+3]))) {
		j := i + 2
		for j < len(s) && isHex(s[j]) {
			j++
		}
		if j < len(s) && s[j] == '.' {
			j++
			for j < len(s) && isHex(s[j]) {
				j++
			}
		}
		mant := s[i:j]
		exp := "p0"
		if j < len(s) && (s[j] == 'p' || s[j] == 'P') {
			k := j + 1
			if k < len(s) && (s[k] == '+' || s[k] == '-') {
				k++
			}
			if k < len(s) && isDigit(s[k]) {
				for k < len(s) && isDigit(s[k]) {
					k++
				}
				exp, j = s[j:k], k
			}
		}
		v, err := strconv.ParseFloat(mant+exp, 64)
		if err != nil {
			return 0, 0, false
		}
		return sign * v, j, true
	}
	start := i
	digits, nonzero := 0, false
	for i < len(s) && isDigit(s[i]) {
		nonzero = nonzero || s[i] != '0'
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && isDigit(s[i]) {
			nonzero = nonzero || s[i] != '0'
			i++
			digits++
		}
	}
	if digits == 0 {
		return 0, 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		k := i + 1
		if k < len(s) && (s[k] == '+' || s[k] == '-') {
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			for k < len(s) && isDigit(s[k]) {
				k++
			}
			i = k
		}
	}
	v, err := strconv.ParseFloat(s[start:i], 64)
	if err != nil || (nonzero && v < 2.2250738585072014e-308) {
		return 0, 0, false // ERANGE: overflow or underflow
	}
	return sign * v, i, true
}

// parseLiteral parses a port's literal text as the type typ (§6.3, TIMED.md
// §0): int (a leading decimal integer within 32 bits), int64, uint (a
// leading integer within 0…4294967295), double (C's strtod), bool (0 1 true
// false TRUE FALSE True False), NodeStatus (its five names, as BT's enum:
// an int-like 0…4), string or any (as is). It is also the build-time check
// of literal port values.
func parseLiteral(raw, typ string) (Value, bool) {
	switch typ {
	case "int":
		i, ok := fromCharsInt(raw)
		if !ok || i < math.MinInt32 || i > math.MaxInt32 {
			return Value{}, false
		}
		return IntValue(i, "int"), true
	case "int64":
		i, ok := fromCharsInt(raw)
		if !ok {
			return Value{}, false
		}
		return IntValue(i, "int64"), true
	case "uint":
		i, ok := fromCharsInt(raw)
		if !ok || i < 0 || i > math.MaxUint32 {
			return Value{}, false
		}
		return IntValue(i, "uint"), true
	case "double":
		f, _, ok := strtod(raw, true)
		if !ok {
			return Value{}, false
		}
		return DoubleValue(f), true
	case "bool":
		switch raw {
		case "1", "true", "TRUE", "True":
			return BoolValue(true), true
		case "0", "false", "FALSE", "False":
			return BoolValue(false), true
		}
		return Value{}, false
	case "NodeStatus":
		for i, n := range statusNames {
			if raw == n {
				return Value{tc: tcNodeStatus, kind: kindInt, i: int64(i)}, true
			}
		}
		return Value{}, false
	case "Any":
		return Value{}, false
	}
	return StringValue(raw), true
}

// convertRead converts an entry's non-empty value for a read with type typ
// (§6.3).
func convertRead(v Value, typ string) (Value, bool) {
	switch typ {
	case "string", "any":
		if v.kind == kindString {
			return StringValue(v.s), true
		}
		return StringValue(v.String()), true
	}
	if v.kind == kindString {
		return parseLiteral(v.s, typ)
	}
	switch typ {
	case "int", "int64", "uint":
		i, ok := exactInt(v)
		if !ok || (typ == "int" && (i < math.MinInt32 || i > math.MaxInt32)) || (typ == "uint" && (i < 0 || i > math.MaxUint32)) {
			return Value{}, false
		}
		return IntValue(i, typ), true
	case "double":
		return DoubleValue(v.float()), true
	case "bool":
		if v.kind == kindDouble {
			return BoolValue(v.f != 0), true
		}
		if v.i != 0 && v.i != 1 {
			return Value{}, false
		}
		return BoolValue(v.i == 1), true
	case "NodeStatus":
		i, ok := exactInt(v)
		if !ok || i < 0 || i >= int64(len(statusNames)) {
			return Value{}, false
		}
		return Value{tc: tcNodeStatus, kind: kindInt, i: i}, true
	case "Any":
		return v, true
	}
	return v, true
}

// readPort reads a port whose raw value (its XML value, or its default) is
// raw with the type typ (§6.3): a {k} reference reads the entry (a missing
// entry or an empty value fails), anything else is a literal. The value has
// the type typ ("string" for "any").
//
// A NodeStatus is read as its name (a string of type "NodeStatus"), while
// the blackboard stores it as BT's enum, an int-like 0…4.
func (b *board) readPort(scope int, port, raw string, typ string) (Value, bool) {
	v, ok := b.readValue(scope, port, raw, typ)
	if ok && typ == "NodeStatus" {
		v = Value{tc: tcNodeStatus, kind: kindString, s: statusNames[v.i]}
	}
	return v, ok
}

func (b *board) readValue(scope int, port, raw string, typ string) (Value, bool) {
	if key, ok := refKey(raw, port); ok {
		return b.readKey(scope, key, typ)
	}
	if typ == "any" {
		typ = "string"
	}
	return parseLiteral(raw, typ)
}

// readKey reads the entry key for a port read with the type typ: a
// missing entry or an empty value fails.
func (b *board) readKey(scope int, key, typ string) (Value, bool) {
	s, i, ok := b.find(scope, key)
	if !ok {
		return Value{}, false
	}
	v := b.scopes[s].entries[i].value
	if v.kind == kindEmpty {
		return Value{}, false
	}
	return convertRead(v, typ)
}

// writePort writes v to a port whose raw XML value is raw (§6.4): only a
// {k} (or {=}) reference is written, with set and the port's type as the
// static type ("string" for an untyped port); anything else is ignored.
func (b *board) writePort(scope int, port, raw string, typ string, v Value) error {
	key, ok := refKey(raw, port)
	if !ok {
		return nil
	}
	return b.writeKey(scope, key, typ, v)
}

// writeKey is writePort for a port whose value is a reference to key.
func (b *board) writeKey(scope int, key, typ string, v Value) error {
	if typ == "any" {
		typ = "string"
	}
	return b.set(scope, key, v, typ)
}

// setBlackboard is SetBlackboard's tick (§5.3): ok false means FAILURE
// (the value to copy is empty); an error is the tick's exception.
func (b *board) setBlackboard(scope int, outputKeyRaw, valueRaw string) (ok bool, err error) {
	kv, ok := b.readPort(scope, "output_key", outputKeyRaw, "string")
	if !ok {
		return false, newError(RuntimeError, "missing port [output_key]")
	}
	key := kv.s
	ds, di, dok := b.find(scope, key)
	var out Value
	if src, isref := refKey(valueRaw, "value"); isref {
		ss, si, sok := b.find(scope, src)
		if !sok {
			return false, newError(RuntimeError, "SetBlackboard: can't find the entry [%s] referred by [value]", src)
		}
		se := b.scopes[ss].entries[si]
		if !dok {
			if err := b.createEntry(scope, key, se.declared); err != nil {
				return false, err
			}
			ds, di, dok = b.find(scope, key)
		}
		out = se.value
	} else {
		out = StringValue(valueRaw)
	}
	if out.kind == kindEmpty {
		return false, nil
	}
	if dok {
		d := b.scopes[ds].entries[di].declared
		if d != "string" && out.kind == kindString {
			if d == "any" {
				out = emptyValue("none")
			} else {
				pv, ok := parseLiteral(out.s, d)
				if !ok || d == "none" {
					return false, newError(LogicError, "%s", cantConvertTo(out.s, d))
				}
				out = pv
			}
		}
	}
	if err := b.set(scope, key, out, "Any"); err != nil {
		return false, err
	}
	return true, nil
}
