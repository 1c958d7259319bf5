// Package hook holds the types that package behaviortree shares with its
// own clients in this module (the text formats mdsl, mistreevous and
// btcpp, and the builder fluent) and with no one else.
//
// Seam is the first parameter of the root's functions for those clients
// (behaviortree.InternalFill, behaviortree.InternalNewFluent and
// behaviortree.InternalAsync): a module that is not this one cannot
// import this package, and so cannot name a Seam, nor make any but the
// zero one, which those functions refuse. Fill is what InternalFill writes
// into a node just built. Source, Site and Pos say where the nodes of a
// text are, which mdsl.Parse gives the root of the tree it reads. AsyncOp
// is what InternalAsync does with an Async that a btcpp tree holds.
// Everything here is typed: the compiler checks both sides of every call.
// DESIGN.md ("The seam") says why.
package hook

import "github.com/zipbt/behaviortree/attr"

// Seam is the pass of this module's own packages: the first argument of
// the functions that package behaviortree exports for them only. Module is
// the only Seam those functions accept; the zero Seam, the only one code
// outside this module can come by (by type inference from the function's
// type), makes them do nothing harmful.
type Seam struct {
	p *byte
}

// Module is the Seam that this module's packages pass.
var Module = Seam{p: new(byte)}

// Valid reports whether s is Module.
func (s Seam) Valid() bool { return s.p != nil } // Module is the only Seam with a p

// Fill is what behaviortree.InternalFill gives a node that was just built
// and that nothing else holds yet, in place: its Name (package fluent's
// Builder names every node), its attributes (the readers: Node.With
// would copy the node), and Source, the text the root was read from
// (mdsl.Parse). The zero fields leave the node as it is.
type Fill[L any] struct {
	Name   string
	Attrs  []attr.Attr[L] // of distinct kinds, as Node.With takes them
	Source *Source
}

// Source says where the nodes of a definition read from a text are, for
// the errors that name them later. Sites is worked out only when an error
// needs it.
type Source struct {
	File string // the name given to the reader
	// Sites returns where each node is, by preorder index, with nil for a
	// text it cannot place (one changed since, for example).
	Sites func() []Site
}

// Site is where one node is in a text: At[0] its call (for a node that
// carries one) or its keyword, At[k] the call of its attribute of kind k
// (an attr.Kind); a zero Pos where it has none.
type Site struct {
	At [attr.KindExit + 1]Pos
}

// Pos is a line and a column in a text, from 1 (the column counts bytes).
type Pos struct {
	Line, Col int32
}

// AsyncOp is what behaviortree.InternalAsync does with an Async for package
// btcpp, whose trees hold the root's Async results: the bookkeeping of
// looks stays in the root (stepped_async.go), its one home.
type AsyncOp uint8

// The operations of behaviortree.InternalAsync, each with its number n.
const (
	// AsyncTake gives the Async the id n if it has none, as the step
	// that takes it does.
	AsyncTake AsyncOp = iota + 1
	// AsyncLook is look n of a node waiting for the Async: its result
	// from the look that the first look after the settlement fixed, else
	// Running.
	AsyncLook
	// AsyncFixed is what a save keeps for a version whose next look is
	// n: the result, and the looks from n that still see it pending
	// (Running and 0 while it is not settled).
	AsyncFixed
)
