package btcpp

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

// TestValueText: String is BehaviorTree.CPP's text of a value.
func TestValueText(t *testing.T) {
	cases := []struct {
		v          Value
		text, typ  string
		json       any
		num, isStr bool
	}{
		{IntValue(3, "int"), "3", "int", int64(3), true, false},
		{IntValue(-4, "int64"), "-4", "int64", int64(-4), true, false},
		{BoolValue(true), "1", "bool", true, true, false},
		{BoolValue(false), "0", "bool", false, true, false},
		{DoubleValue(2.5), "2.500000", "double", 2.5, true, false},
		{DoubleValue(math.Inf(1)), "inf", "double", "inf", true, false},
		{DoubleValue(math.Inf(-1)), "-inf", "double", "-inf", true, false},
		{StringValue("a b"), "a b", "string", "a b", false, true},
		{emptyValue("int"), "", "int", nil, false, false},
		{Value{}, "", "none", nil, false, false},
	}
	for _, c := range cases {
		if c.v.String() != c.text || c.v.Type() != c.typ || c.v.jsonValue() != c.json || c.v.IsNumber() != c.num || c.v.IsString() != c.isStr {
			t.Errorf("%#v: %q %q %v %v %v; want %q %q %v %v %v", c.v, c.v.String(), c.v.Type(), c.v.jsonValue(), c.v.IsNumber(), c.v.IsString(), c.text, c.typ, c.json, c.num, c.isStr)
		}
		if c.v.IsEmpty() != (c.json == nil) {
			t.Errorf("%#v: IsEmpty = %v", c.v, c.v.IsEmpty())
		}
	}
	if n := DoubleValue(math.NaN()); n.jsonValue() != "nan" {
		t.Errorf("NaN in JSON: %v", n.jsonValue())
	}
	for _, x := range []any{1, int64(2), 2.5, "s", true} {
		v, typ, err := goValue(x)
		if err != nil || v.Type() != typ {
			t.Errorf("goValue(%v) = %v, %q, %v", x, v, typ, err)
		}
	}
	if _, _, err := goValue([]int{}); errType(err) != RuntimeError {
		t.Errorf("goValue([]int): %v, want a RuntimeError", err)
	}
}

// TestErrorText: Error says where, what type, and the inner error, which
// Unwrap returns.
func TestErrorText(t *testing.T) {
	inner := fmt.Errorf("inner")
	e := &Error{Type: NodeExecutionError, Node: 3, Line: 2, Col: 5, Msg: "tick", Err: inner}
	if got, want := e.Error(), "2:5: NodeExecutionError at node 3: tick: inner"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(e, inner) {
		t.Error("errors.Is through Unwrap")
	}
	if got, want := newError(StdRuntimeError, "x %d", 1).Error(), "std::runtime_error: x 1"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}
