// Package behaviortree is a library of persistent behavior trees: an immutable,
// functional port of the Elixir library behavior_tree 0.3.1.
//
// A behavior tree is a static definition, a [Node], built from leaves (the
// "behaviors", often a small string or enum type L) and inner nodes that say
// how to move between them: [Select], [Sequence], [Continually], [RepeatN],
// [Random] and the rest. [Start] turns a definition into a running [Tree],
// focused on one leaf. The tree only says what it wants to do next
// ([Tree.Value]); the caller does it and reports back with [Tree.Succeed] or
// [Tree.Fail], and each of those returns a new Tree, leaving the old one
// untouched. When the root itself succeeds or fails, the tree starts over from
// the root, so a tree never ends; [Tree.Status] tells whether the signal that
// made a version completed the whole tree, and how.
//
// # Persistence and its trade-offs
//
// Every Tree version is a small value (a few words) that stays valid forever
// and may be used from many goroutines at once without locks. This is what lets
// a game keep versions to undo a move, replay a match, or try both outcomes.
//
// The first Start of a definition compiles it, once, into a tree of positions
// with parent links, precomputed first descents and precomputed moves: for
// every position and outcome, where the traversal goes next, worked out up to
// the next node whose reaction depends on running state (a RepeatN counter or
// a custom node). The compiled form is cached in the root node and shared by
// every Start and every version after it. A running version then needs only:
//
//   - the focused position (which also encodes every Select, Sequence and
//     Random choice on the path, since a position knows its parent and its
//     index there);
//   - a persistent stack of RepeatN counters that differ from their initial
//     value, one cell per counting RepeatN on the path;
//   - the random state (a PCG generator stored by value);
//   - a persistent map (github.com/benbjohnson/immutable) of the state of
//     custom nodes that have changed.
//
// So a signal is a table lookup and a load, plus one step per counting RepeatN
// or custom node it passes (O(depth) at worst); it allocates nothing for
// Select, Sequence and decorators, and only a RepeatN count, a random draw or
// a custom node's state change costs an allocation. The width of a node never
// matters, and nothing recurses, so a chain of 100,000 decorators works. The
// price is the one-time O(size) compilation per definition and the memory of
// the compiled copy (about 130 bytes per node with string leaves).
//
// The running state can be saved and restored ([Tree.MarshalBinary],
// [Restore]), and a [History] keeps a timeline of versions with undo and
// redo.
//
// # Semantics
//
// The traversal is exactly Elixir behavior_tree 0.3.1's, checked against a
// corpus of 2,000 traces recorded from the real library (testdata/). Elixir's
// names are kept in the docs and in JSON: Continually is repeat_until_fail.
//
// Randomness is part of the value: [WithSeed] fixes it, and the same version
// given the same signal always gives the same result.
package behaviortree
