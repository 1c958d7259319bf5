package behaviortree

import (
	"fmt"
	"strconv"
	"time"
)

// This file holds the words of outcomes that both styles share: Status
// (how a node or a tree ended, or that it has not), State (a node's state
// in a stepped tree and in every picture), Result (what an action
// returns) and TimeData (what a tick passes to every leaf).

// Status is how a node, or the whole tree, ended: Success or Failure; or
// Running, while it has not ended.
type Status int8

// The statuses.
const (
	Running Status = iota
	Success
	Failure
)

// String returns "running", "success" or "failure", and "Status(N)" for a
// value that is none of them.
func (s Status) String() string {
	switch s {
	case Running:
		return "running"
	case Success:
		return "success"
	case Failure:
		return "failure"
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// valid reports whether s is Running, Success or Failure.
func (s Status) valid() bool { return s == Running || s == Success || s == Failure }

// State is the state of a node of a stepped tree, or of the whole tree
// (its root's): Mistreevous's READY, RUNNING, SUCCEEDED and FAILED.
type State uint8

// The states.
const (
	StateReady     State = iota // not visited since its last reset
	StateRunning                // in progress: resumed at the next step
	StateSucceeded              // completed with success
	StateFailed                 // completed with failure
)

var stateNames = [...]string{"READY", "RUNNING", "SUCCEEDED", "FAILED"}

// String returns "READY", "RUNNING", "SUCCEEDED" or "FAILED", as
// Mistreevous spells them.
func (s State) String() string {
	if int(s) < len(stateNames) {
		return stateNames[s]
	}
	return fmt.Sprintf("State(%d)", uint8(s))
}

// Result is what an action returns: a Status (Success, Failure, or
// Running for work still under way), or a pending [Async] result, with
// Status left Running. The zero Result is Running, as an action that
// returns nothing is in Mistreevous.
type Result struct {
	Status Status
	Async  *Async
}

// The results of synchronous actions.
var (
	ResultSuccess = Result{Status: Success}
	ResultFailure = Result{Status: Failure}
	ResultRunning = Result{Status: Running}
)

// TimeData is what a tick passes to every leaf (FluentBehaviourTree's
// TimeData): DeltaTime, the time since the last tick. Nothing accumulates
// it: every leaf of one tick sees the same value. FluentBehaviourTree's
// deltaTime, a float of seconds, is DeltaTime.Seconds().
type TimeData struct {
	DeltaTime time.Duration
}
