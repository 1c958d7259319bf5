package btcpp

import (
	"math"
	"strconv"
)

// valueKind is how a Value holds its content.
type valueKind uint8

const (
	kindEmpty  valueKind = iota // no value (its type name is the entry's declared type, or "none")
	kindInt                     // int-like: int, int64, bool, uint (content in i)
	kindDouble                  // double (content in f)
	kindString                  // string (content in s)
)

// typeCode is a non-empty value's type name.
type typeCode uint8

const (
	tcEmpty      typeCode = iota // empty: the type name is in s ("" is "none")
	tcInt                        // "int"
	tcInt64                      // "int64"
	tcBool                       // "bool"
	tcUint                       // "uint"
	tcDouble                     // "double"
	tcString                     // "string"
	tcNodeStatus                 // "NodeStatus" (a string)
)

var typeNames = [...]string{"none", "int", "int64", "bool", "uint", "double", "string", "NodeStatus"}

// intCode is the type code of an int-like type name (int64 for names it
// does not know).
func intCode(typ string) typeCode {
	switch typ {
	case "int":
		return tcInt
	case "bool":
		return tcBool
	case "uint":
		return tcUint
	}
	return tcInt64
}

// Value is a blackboard or script value of BehaviorTree.CPP: empty, or an
// int-like number (type names "int", "int64", "bool", "uint"), a double
// ("double") or a string ("string", or "NodeStatus" for a status read from a
// port), together with its type NAME as the library's BT::Any keeps it. The
// type name matters: an int64 written into an "int" entry stays "int", and
// the corpus dumps each value as [declaredType, valueType, value].
//
// The zero Value is empty with the type name "none". Values are small (40
// bytes on 64-bit machines) and passed by value.
type Value struct {
	s    string // a string's content; an empty value's type name
	i    int64
	f    float64
	kind valueKind
	tc   typeCode
}

// IntValue returns an int-like value of type name typ ("int", "int64",
// "uint").
func IntValue(i int64, typ string) Value { return Value{tc: intCode(typ), kind: kindInt, i: i} }

// DoubleValue returns a double.
func DoubleValue(f float64) Value { return Value{tc: tcDouble, kind: kindDouble, f: f} }

// StringValue returns a string.
func StringValue(s string) Value { return Value{tc: tcString, kind: kindString, s: s} }

// BoolValue returns a bool (an int-like 0 or 1 of type name "bool").
func BoolValue(b bool) Value {
	v := Value{tc: tcBool, kind: kindInt}
	if b {
		v.i = 1
	}
	return v
}

// emptyValue returns an empty value whose type name is typ.
func emptyValue(typ string) Value { return Value{s: typ} }

// Type returns the value's type name: "int", "int64", "double", "string",
// "bool", "uint", "NodeStatus", or for an empty value the declared type of
// its entry ("none" when it has none).
func (v Value) Type() string {
	if v.kind == kindEmpty {
		if v.s == "" {
			return "none"
		}
		return v.s
	}
	return typeNames[v.tc]
}

// IsEmpty reports whether v holds no value.
func (v Value) IsEmpty() bool { return v.kind == kindEmpty }

// IsNumber reports whether v is an int-like value or a double.
func (v Value) IsNumber() bool { return v.kind == kindInt || v.kind == kindDouble }

// IsString reports whether v is a string.
func (v Value) IsString() bool { return v.kind == kindString }

// Int returns an int-like value's content (a bool is 0 or 1); ok is false
// for other values.
func (v Value) Int() (i int64, ok bool) { return v.i, v.kind == kindInt }

// Float returns a number as a double; ok is false for strings and empty
// values.
func (v Value) Float() (f float64, ok bool) {
	switch v.kind {
	case kindInt:
		return float64(v.i), true
	case kindDouble:
		return v.f, true
	}
	return 0, false
}

// Str returns a string value's content; ok is false for other values.
func (v Value) Str() (s string, ok bool) { return v.s, v.kind == kindString }

// String returns the value as BehaviorTree.CPP writes it as text: an
// int-like value in decimal (a bool as "1" or "0"), a double with six
// decimals ("2.500000", "inf", "nan"), a string as is, and "" for an empty
// value.
func (v Value) String() string {
	switch v.kind {
	case kindInt:
		return strconv.FormatInt(v.i, 10)
	case kindDouble:
		return formatDouble(v.f)
	case kindString:
		return v.s
	}
	return ""
}

// float returns a number as a double (0 for other values).
func (v Value) float() float64 {
	if v.kind == kindInt {
		return float64(v.i)
	}
	return v.f
}

// formatDouble is std::to_string of a double: six decimals, "inf", "-inf",
// "nan" and "-nan".
func formatDouble(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		if math.Signbit(f) {
			return "-nan"
		}
		return "nan"
	}
	return strconv.FormatFloat(f, 'f', 6, 64)
}

// jsonValue returns v as the corpus writes a value in JSON: nil for an
// empty value, an int64 for int-like values (bool as true/false), a float64
// for a double ("inf", "-inf" and "nan" as strings), a string as is.
func (v Value) jsonValue() any {
	switch v.kind {
	case kindInt:
		if v.tc == tcBool {
			return v.i != 0
		}
		return v.i
	case kindDouble:
		switch {
		case math.IsInf(v.f, 1):
			return "inf"
		case math.IsInf(v.f, -1):
			return "-inf"
		case math.IsNaN(v.f):
			return "nan"
		}
		return v.f
	case kindString:
		return v.s
	}
	return nil
}

// sameRepr reports whether a and b have the same representation in the
// sense of BT::Any's copyInto: both int-like, both doubles or both strings.
func sameRepr(a, b Value) bool { return a.kind == b.kind }

// valueInt returns an int-like value's content.
func valueInt(v Value) (int64, bool) { return v.Int() }

// valueFloat returns a number as a double.
func valueFloat(v Value) (float64, bool) { return v.Float() }

// valueString returns a string value's content.
func valueString(v Value) (string, bool) { return v.Str() }

// valueBool returns an int-like value as a bool (non-zero is true).
func valueBool(v Value) (bool, bool) { return v.i != 0, v.kind == kindInt }

// goValue converts a Go value of a leaf's Set (int, int64, float64, string
// or bool) into a Value and its static type name for set (README §6.4).
func goValue(x any) (Value, string, error) {
	switch x := x.(type) {
	case int:
		return IntValue(int64(x), "int"), "int", nil
	case int64:
		return IntValue(x, "int64"), "int64", nil
	case float64:
		return DoubleValue(x), "double", nil
	case string:
		return StringValue(x), "string", nil
	case bool:
		return BoolValue(x), "bool", nil
	case Value:
		return x, x.Type(), nil
	}
	return Value{}, "", newError(RuntimeError, "a value of Go type %T cannot be written to the blackboard (int, int64, float64, string or bool)", x)
}
