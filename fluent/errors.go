package fluent

import "strconv"

// The exception classes of FluentBehaviourTree's errors, as
// [Error.Exception] names them.
const (
	ApplicationException      = "ApplicationException"
	InvalidOperationException = "InvalidOperationException"
	ArgumentNullException     = "ArgumentNullException"
)

// Error is the error of a call of a [Builder]: the exception
// FluentBehaviourTree throws there, or, with Strict set, a refusal of our
// own where the library goes on silently (see the departures in the package
// documentation). The one exception of a tick, an Inverter without a child,
// is behaviortree's ErrEmptyInverter.
type Error struct {
	// Exception is the C# class of the exception: ApplicationException,
	// InvalidOperationException or ArgumentNullException; "" when Strict.
	Exception string
	// Message is the exception's message, exactly as the library's.
	Message string
	// Method is the builder call ("Sequence", "Do", "End", "Build", ...).
	Method string
	// Call is the 0-based index of the failing call among the calls made
	// on the builder.
	Call int
	// Strict reports a refusal of our own: FluentBehaviourTree accepts the
	// call.
	Strict bool
	// Err is the underlying error, if any.
	Err error
}

// Error returns the message, after the builder call that failed.
func (e Error) Error() string {
	return "fluent.Builder." + e.Method + " (call " + strconv.Itoa(e.Call) + "): " + e.Message
}

// Unwrap returns e.Err.
func (e Error) Unwrap() error { return e.Err }
