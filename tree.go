package behaviortree

import (
	"iter"
	"math/rand/v2"
	"unsafe"

	"github.com/zipbt/behaviortree/memory"
)

// Tree is a running behavior tree: a definition with a focus on one of its
// leaves. Its methods never modify it: [Tree.Succeed] and [Tree.Fail] return
// a new version, and every version stays valid, so a caller may keep as many
// as it likes and use them from any number of goroutines at once.
//
// A version also carries the agent's memory, a [memory.Map], which
// signals keep and [Tree.WithMemory] replaces.
//
// A Tree is a small value (four words); copying it copies a version. The zero
// Tree is not valid: get one from [Start], [Restore] or [Saved.Restore]. A
// Tree cannot be restored without its definition, so [Tree.UnmarshalJSON]
// always fails: a struct that is saved and read back whole should hold a
// [Saved] instead.
type Tree[L any] struct {
	z zipper[L]
	// made holds how the root ended with the signal that made this version,
	// and that signal (Success or Failure; Running for Start), in one byte
	// (madeOf), so that a Tree is four words.
	made made
}

// made is a version's status and last signal: status | signal<<2.
type made uint8

// madeOf packs a status and a signal.
func madeOf(status, signal Status) made { return made(status) | made(signal)<<2 }

// status returns the status that m holds.
func (m made) status() Status { return Status(m & 3) }

// signal returns the signal that m holds.
func (m made) signal() Status { return Status(m >> 2) }

// Start returns a running tree for the definition root, focused on the leaf
// that a first descent from the root reaches: for a tree of Selects and
// Sequences, its deepest left-most leaf. Random nodes pick their child on the
// way down, and every RepeatN starts counting afresh.
//
// The first Start of a definition compiles it, in O(size); later Starts of
// the same definition reuse that and cost O(depth) at most. Start panics with
// "behaviortree.Start: zero Node" when root is the zero Node.
func Start[L any](root Node[L], opts ...Option) Tree[L] {
	if root.n == nil {
		panic("behaviortree.Start: zero Node")
	}
	if root.n.stepped {
		panic(steppedOnly("Start", root.n))
	}
	var c config
	for _, o := range opts {
		o(&c)
	}
	if c.steppedOnly != "" {
		panic("behaviortree.Start: " + c.steppedOnly + " is an option of stepped trees (NewStepped)")
	}
	return start(compiled(root.n), c)
}

// start is Start of the compiled definition prog with the options c.
func start[L any](prog *program[L], c config) Tree[L] {
	var t Tree[L]
	if prog.random || prog.custom || prog.par {
		if !c.seeded {
			c.seed = rand.Uint64()
		}
		t.z.ext = &extra[L]{rng: seedPCG(c.seed), par: prog.par}
	}
	t.z = t.z.descend(&prog.all[0])
	return t
}

// Value returns the behavior the tree wants done next: the focused leaf's
// value. It allocates nothing.
func (t Tree[L]) Value() L {
	if t.z.focus == nil {
		zeroTree("Value")
	}
	return t.z.focus.leaf
}

// Succeed returns a new version of the tree in which the current behavior
// has succeeded. The leaf's parent decides what comes next: another child
// (then its first leaf), or the parent's own success or failure, passed on
// up. When the root ends, the tree starts over from the root, and the new
// version's [Tree.Status] says how the root ended. t itself is unchanged.
func (t Tree[L]) Succeed() Tree[L] { return t.signal(1, succeedWords) }

// Fail returns a new version of the tree in which the current behavior has
// failed; otherwise as [Tree.Succeed]. t itself is unchanged.
func (t Tree[L]) Fail() Tree[L] { return t.signal(0, failWords) }

// signal is Succeed (o == 1) and Fail (o == 0). Its common case inlines
// into the caller: a move compiled to the next leaf and the version's byte
// (moveLeaf, compile.go), two loads from the focus's first cache line. The
// zero Tree and every other move go to slow, which is succeedWords or
// failWords.
//
// What keeps it within the inliner's budget of 80 (Succeed and Fail cost
// 77: go build -gcflags=-m=2): slow is a parameter, whose call the inliner
// counts as 17 rather than 57, and once inlined it is a constant; it has no
// type parameters, since a generic function value costs a dictionary load
// and some 20 more. The slow path copies t to u and hands slow u's words by
// value: t never has its address taken, so it stays in registers, and
// nothing escapes even where escape analysis does not see which function
// slow is (a pointer to u would move u to the heap there).
func (t Tree[L]) signal(o int, slow func(treeWords) treeWords) Tree[L] {
	f := t.z.focus
	if f == nil || f.up[o].kind != moveLeaf {
		u := t
		*(*treeWords)(unsafe.Pointer(&u)) = slow(*(*treeWords)(unsafe.Pointer(&u)))
		return u
	}
	t.z.focus, t.made = f.up[o].to, f.up[o].made
	return t
}

// treeWords is the layout of every Tree[L] without its type parameter
// (TestTreeWordsLayout checks it), for succeedWords and failWords.
type treeWords struct {
	focus, counts, ext unsafe.Pointer // *place[L], *count[L], *extra[L]
	made               made
}

// placeHead is the first field of every place[L]: what succeedWords and
// failWords reach of the focus without knowing L.
type placeHead struct {
	signalled func(w treeWords, ok bool) treeWords // signalledWords[L]
}

// succeedWords and failWords are Succeed and Fail past the inlined fast
// path: they panic for the zero Tree, and otherwise signal through the
// focus's placeHead. They are not inlined, so that the fast path that
// calls them stays small.
//
//go:noinline
func succeedWords(w treeWords) treeWords {
	if w.focus == nil {
		zeroTree("Succeed")
	}
	return (*placeHead)(w.focus).signalled(w, true)
}

//go:noinline
func failWords(w treeWords) treeWords {
	if w.focus == nil {
		zeroTree("Fail")
	}
	return (*placeHead)(w.focus).signalled(w, false)
}

// signalledWords is Succeed (ok) or Fail past the inlined fast path, on
// the words of a Tree[L] that is not zero: the general loop, zipper.signal.
func signalledWords[L any](w treeWords, ok bool) treeWords {
	t := (*Tree[L])(unsafe.Pointer(&w))
	var st Status
	t.z, st = t.z.signal(ok)
	t.made = madeOf(st, signalOf(ok))
	return w
}

// Signal returns the version that s makes: t.Succeed() for Success,
// t.Fail() for Failure, and t itself for Running, which leaves the tree as it
// is (the signal of a behavior still under way). It panics with
// "behaviortree.Tree.Signal: invalid Status(N)" for any other value.
func (t Tree[L]) Signal(s Status) Tree[L] {
	switch s {
	case Success:
		return t.Succeed()
	case Failure:
		return t.Fail()
	case Running:
		return t
	}
	panic("behaviortree.Tree.Signal: invalid " + s.String())
}

// Status tells whether the signal that made this version completed the whole
// tree: Success or Failure if the root ended that way (and the tree started
// over), Running if it did not. A version made by Start is Running.
func (t Tree[L]) Status() Status { return t.made.status() }

// LastSignal returns the signal that made this version: Success or Failure,
// or Running for a version made by Start. [Tree.WithMemory] keeps it.
func (t Tree[L]) LastSignal() Status { return t.made.signal() }

// Memory returns the agent's memory in this version: what [Tree.WithMemory]
// gave it, or the version it came from had. A version made by [Start] has
// an empty memory. A handler that does what [Tree.Value] asks should read
// the memory of the same version, and report with the new memory:
//
//	next := t.WithMemory(t.Memory().Set("shots", n+1)).Succeed()
//
// Signals keep the memory: Succeed and Fail make a version with the
// memory of the version they are called on.
func (t Tree[L]) Memory() memory.Map {
	if t.z.ext == nil {
		return memory.Map{}
	}
	return t.z.ext.mem
}

// WithMemory returns a new version of t with the memory m and everything
// else as in t (the same focus: the same behavior wanted next). It returns
// t itself when m is already t's memory. t itself is unchanged.
func (t Tree[L]) WithMemory(m memory.Map) Tree[L] {
	if t.z.focus == nil {
		zeroTree("WithMemory")
	}
	t.z.ext = t.z.ext.withMemory(m)
	return t
}

// withMemory returns x with the memory m: nil for a memory-only extra of
// an empty memory.
func (x *extra[L]) withMemory(m memory.Map) *extra[L] {
	switch {
	case x == nil && m.Len() == 0:
		return nil
	case x == nil:
		return &extra[L]{mem: m, memOnly: true}
	case x.mem == m: // shared storage: == implies Equal
		return x
	case x.memOnly && m.Len() == 0:
		return nil
	}
	y := *x
	y.mem = m
	return &y
}

// Definition returns the tree's definition, as [Stepped.Definition] does.
func (t Tree[L]) Definition() Node[L] {
	if t.z.focus == nil {
		zeroTree("Definition")
	}
	return Node[L]{t.z.root().def}
}

// Path returns an iterator over the path from the root to the focused leaf:
// for each node on it, the node and, for inner nodes, the index of the child
// the path goes on to (-1 for the leaf itself).
func (t Tree[L]) Path() iter.Seq2[Node[L], int] {
	if t.z.focus == nil {
		zeroTree("Path")
	}
	return func(yield func(Node[L], int) bool) {
		d := t.z.depth()
		path := make([]*place[L], d+1)
		p := t.z.focus
		for i := d; i >= 0; i-- {
			path[i], p = p, p.parent
		}
		for i, p := range path {
			next := -1
			if i+1 < len(path) {
				next = int(path[i+1].index)
			}
			if !yield(Node[L]{p.def}, next) {
				return
			}
		}
	}
}

// signalOf is Success for true and Failure for false.
func signalOf(ok bool) Status {
	if ok {
		return Success
	}
	return Failure
}

// zeroTree panics for a method called on the zero Tree. It takes no Tree,
// so that the check does not make callers spill their receiver.
func zeroTree(method string) {
	panic("behaviortree.Tree." + method + ": zero Tree (use Start)")
}

// Equal reports whether t and u are the same version: the same compiled
// definition, focus, RepeatN counts, random state, custom node states,
// status, last signal and memory (the same keys, with values that
// reflect.DeepEqual finds equal, or that save to the same bytes, as a NaN
// does). Versions reached by separate but identical runs
// are Equal even though they share no memory; == on Trees compares memory.
func (t Tree[L]) Equal(u Tree[L]) bool {
	if t.z.focus != u.z.focus || t.made != u.made {
		return false
	}
	a, b := t.z.counts, u.z.counts
	for a != nil && b != nil {
		if a == b {
			break // shared from here on
		}
		if a.at != b.at || a.left != b.left {
			return false
		}
		a, b = a.next, b.next
	}
	if (a == nil) != (b == nil) {
		return false
	}
	return t.z.ext.equal(u.z.ext)
}
