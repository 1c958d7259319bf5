// Package proptest is property-based testing for behavior trees, with
// gopter: generators of random definitions and signal sequences for users'
// own properties, and an independent reference interpreter of the Elixir
// semantics to test a tree against.
//
// The generators ([Tree], [DeterministicTree], [Signals]) take a caller's
// leaf generator, honor gopter's size parameter and a [Config] of depth and
// fan-out limits, and shrink a failing tree toward smaller ones: a subtree in
// place of its parent, a child fewer, a smaller count.
//
// [Model] is a deliberately naive interpreter: mutable, recursive, with a
// "current child" and a counter in every node, and no zipper. It shares
// nothing with the library but the node definitions it reads, which is what
// makes it a useful oracle for differential tests. It replays the Elixir
// conformance corpus like the library does.
//
// The package's own tests check the library's laws with these tools. To run
// them longer, set PROPTEST_CASES (cases per property) and, to reproduce a
// failure, PROPTEST_SEED to the seed the failure printed.
package proptest
