package btcpp

import (
	"fmt"
	"strconv"
)

// ErrorType is the type of an error as BehaviorTree.CPP's exceptions name
// it, and as the conformance corpus records it.
type ErrorType string

// The error types of BehaviorTree.CPP (README §9).
const (
	// RuntimeError is BT::RuntimeError: most build errors and script errors.
	RuntimeError ErrorType = "RuntimeError"
	// LogicError is BT::LogicError: bad port literals, `:=` lookup failures.
	LogicError ErrorType = "LogicError"
	// StdLogicError is a std::logic_error (e.g. a failed number conversion).
	StdLogicError ErrorType = "std::logic_error"
	// StdRuntimeError is a std::runtime_error (e.g. a compound assignment
	// that cannot store its result, or a script integer condition other
	// than 0 or 1).
	StdRuntimeError ErrorType = "std::runtime_error"
	// NodeExecutionError wraps an error thrown inside a node's tick below
	// the root; Error.Node says which node.
	NodeExecutionError ErrorType = "NodeExecutionError"
	// ErrBudget is the corpus driver's error when a run exceeds its tick
	// budget (README §3).
	ErrBudget ErrorType = "budget"
	// Terminate records a build error thrown after some nodes were created,
	// which terminates the C++ process (README §9).
	Terminate ErrorType = "terminate"
)

// Error is an error of the package: its Type is the C++ exception type the
// library would throw.
type Error struct {
	// Type is the exception type.
	Type ErrorType
	// Node is the preorder index of the node for a NodeExecutionError, else -1.
	Node int
	// Line and Col locate the error in the XML text (a script's parse
	// error at the script's attribute, its message saying where in the
	// script); 0 when unknown.
	Line, Col int
	// Msg says what went wrong.
	Msg string
	// Err is the inner error, if any.
	Err error
}

// Error returns "[line:col: ]type: msg[: inner]".
func (e *Error) Error() string {
	s := ""
	if e.Line > 0 {
		s = strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": "
	}
	s += string(e.Type)
	if e.Type == NodeExecutionError && e.Node >= 0 {
		s += " at node " + strconv.Itoa(e.Node)
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the inner error.
func (e *Error) Unwrap() error { return e.Err }

// newError returns an *Error of type t with a formatted message and no
// node or position.
func newError(t ErrorType, format string, args ...any) *Error {
	return &Error{Type: t, Node: -1, Msg: fmt.Sprintf(format, args...)}
}
