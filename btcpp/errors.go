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
	// at is the path of the node whose tick raised the error, which
	// Error says and What, as the library's message, does not.
	at string
	// atPath is the path of the node a NodeExecutionError's message
	// names, which Error does not say again for the inner error.
	atPath string
	// lineForm is how What says where, as BehaviorTree.CPP's XML reader
	// does: lineNone not at all, lineOnly "Error at line N: ", lineArrow
	// "Error at line N: -> ", N being printedLine.
	lineForm    uint8
	printedLine int
}

// The forms of Error.lineForm.
const (
	lineNone uint8 = iota
	lineOnly
	lineArrow
)

// Error returns "[line:col: ]type[: node "path"]: msg[: inner]".
func (e *Error) Error() string { return e.text(0, 0, "") }

// text is Error's string inside an error at line:col of node path at
// (0, 0, "" for none): the position and the node said there are not said
// again.
func (e *Error) text(line, col int, at string) string {
	s := ""
	if e.Line > 0 && (e.Line != line || e.Col != col) {
		s = strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": "
	}
	s += string(e.Type)
	if e.Type == NodeExecutionError && e.Node >= 0 {
		s += " at node " + strconv.Itoa(e.Node)
	}
	if e.at != "" && e.at != at {
		s += ": node " + strconv.Quote(e.at)
	}
	if e.Msg != "" {
		s += ": " + e.Msg
	}
	if e.Err != nil {
		if line == 0 && e.Line > 0 {
			line, col = e.Line, e.Col
		}
		if e.atPath != "" {
			at = e.atPath
		} else if e.at != "" {
			at = e.at
		}
		switch x := e.Err.(type) {
		case *Error:
			s += ": " + x.text(line, col, at)
		case *SyntaxError:
			if x.Line == line && x.Col == col {
				s += ": " + x.Msg
			} else {
				s += ": " + x.Error()
			}
		default:
			s += ": " + e.Err.Error()
		}
	}
	return s
}

// What returns the error's message as BehaviorTree.CPP 4.10.0's
// exception says it (its what()), without the type and the position that
// Error adds: for a NodeExecutionError "Exception in node 'path' [ID]: "
// and the inner message, for a script error "Error in script [code]" and
// the reason on the next line, and so on. Where the package's text is not
// the library's (the errors the corpus does not record, and a few it
// does: see the conformance test), What says the same thing in other
// words.
func (e *Error) What() string {
	msg := e.Msg
	switch e.lineForm {
	case lineOnly:
		msg = "Error at line " + strconv.Itoa(e.printedLine) + ": " + msg
	case lineArrow:
		msg = "Error at line " + strconv.Itoa(e.printedLine) + ": -> " + msg
	}
	switch {
	case e.Err == nil:
		return msg
	case msg == "":
		return what(e.Err)
	}
	return msg + ": " + what(e.Err)
}

// cantConvert is BehaviorTree.CPP's convertFromString's message for a
// string s that is not a value of type typ.
func cantConvert(s, typ string) string {
	switch typ {
	case "int", "int64", "uint":
		return "Can't convert string [" + s + "] to integer"
	case "double":
		return "Can't convert string [" + s + "] to double"
	}
	return "Can't convert string [" + s + "] to type [" + demangled(typ) + "]"
}

// cantConvertTo is the message of getInput or SetBlackboard for a string
// s that is not a value of type typ: "Can't convert string [s] to type
// [typ]: " and convertFromString's own message.
func cantConvertTo(s, typ string) string {
	m := "Can't convert string [" + s + "] to type [" + demangled(typ) + "]: "
	switch typ {
	case "any", "Any":
		return m + "You didn't implement the template specialization of convertFromString for this type: BT::Any"
	}
	return m + cantConvert(s, typ)
}

// missingParam is the message of a missing or unreadable int or duration
// port of node type id.
func missingParam(id, port string) string {
	switch id {
	case "Repeat":
		return "Missing parameter [" + port + "] in RepeatNode"
	case "RetryUntilSuccessful":
		return "Missing parameter [" + port + "] in RetryNode"
	}
	return "missing or invalid port [" + port + "]"
}

// what is err's What when it is an *Error, else its Error.
func what(err error) string {
	if e, ok := err.(*Error); ok {
		return e.What()
	}
	return err.Error()
}

// Unwrap returns the inner error.
func (e *Error) Unwrap() error { return e.Err }

// newError returns an *Error of type t with a formatted message and no
// node or position.
func newError(t ErrorType, format string, args ...any) *Error {
	return &Error{Type: t, Node: -1, Msg: fmt.Sprintf(format, args...)}
}
