package btcpp

// Compiled moves: fresh execution (tick.go) of a region of Sequences and
// Fallbacks over Go synchronous actions and conditions, AlwaysSuccess and
// AlwaysFailure (movable), as a table. While every leaf answers SUCCESS or
// FAILURE, fresh calls the leaves in an order that each answer decides,
// stores nothing but the zero counters of the Sequences and Fallbacks it
// completes, and returns the region's result: so a leaf's move says which
// leaf comes next after each answer, or which result ends the region
// (compileMoves derives it from fresh's rule: a Sequence goes on after
// SUCCESS, a Fallback, its mirror, after FAILURE), and which Sequences and
// Fallbacks start with it, whose counters it clears. Any other answer (an
// error, RUNNING, SKIPPED, IDLE or none of the five) hands the region
// back to fresh, which runs it from its start with the answers already
// given (a recorder's script: no leaf is called twice) and then goes on
// live, leaving the states that fresh leaves.
//
// TestFreshRandomTrees checks execute, fresh and the moves against each
// other, version by version (movesOff turns the moves off).

// movesOff turns the compiled moves off, for the tests that check them
// against fresh.
var movesOff bool

// given1 is an answer that a leaf gave in runMoves.
type given1 struct {
	n   int32
	res Status
}

// move is a leaf of a movable region.
type move struct {
	n     int32
	fn    LeafFunc // the Go leaf's function; nil for AlwaysSuccess and AlwaysFailure
	fixed Status   // AlwaysSuccess's or AlwaysFailure's result
	// next is, by answer (SUCCESS, FAILURE), the next move, or
	// -1 - result when the region ends with result.
	next [2]int32
	// enters are the Sequences and Fallbacks whose first leaf this is.
	enters []int32
}

// movable reports whether node n of p is the root of a movable region.
func movable(p *program, n int) bool {
	h := &p.hot[n]
	if h.bits&bFresh == 0 {
		return false
	}
	if len(h.kids) == 0 {
		k := p.nodes[n].k
		return (k.leaf != nil && k.leaf.kind != leafAction) || k.id == "AlwaysSuccess" || k.id == "AlwaysFailure"
	}
	for _, c := range h.kids {
		if !movable(p, c) {
			return false
		}
	}
	return true
}

// compileMoves sets p.movesAt for the Sequences and Fallbacks that are
// the roots of movable regions, and fills p.moves. Every such node has
// its own table (any of them may be executed on its own, by execute's
// rules, after a leaf ran): in preorder, while the tables hold at most
// movesPerNode moves per node of the tree.
func compileMoves(p *program) {
	p.movesAt = make([]int32, len(p.nodes))
	for n := range p.movesAt {
		p.movesAt[n] = -1
		if len(p.hot[n].kids) == 0 || len(p.moves) > movesPerNode*len(p.nodes) || !movable(p, n) {
			continue
		}
		p.movesAt[n] = compileMove(p, n, -1-int32(Success), -1-int32(Failure))
	}
}

// movesPerNode bounds the compiled moves of a tree.
const movesPerNode = 16

// compileMove compiles the subtree of n, which goes to onS after SUCCESS
// and to onF after FAILURE, and returns its first move.
func compileMove(p *program, n int, onS, onF int32) int32 {
	h := &p.hot[n]
	if len(h.kids) == 0 {
		m := move{n: int32(n), next: [2]int32{onS, onF}}
		if h.leaf != nil {
			m.fn = h.leaf.fn
		} else {
			m.fixed = Success
			if p.nodes[n].k.mirror {
				m.fixed = Failure
			}
		}
		p.moves = append(p.moves, m)
		return int32(len(p.moves) - 1)
	}
	fallback := h.bits&bFallback != 0
	target := onS // where the last child goes on to
	if fallback {
		target = onF
	}
	for i := len(h.kids) - 1; i >= 0; i-- {
		if fallback {
			target = compileMove(p, h.kids[i], onS, target)
		} else {
			target = compileMove(p, h.kids[i], target, onF)
		}
	}
	p.moves[target].enters = append(p.moves[target].enters, int32(n))
	return target
}

// runMoves executes the movable region n as fresh does.
func (t *ticker) runMoves(n int) (Status, error) {
	mv := t.p.moves
	i := t.p.movesAt[n]
	given := t.given[:0]
	for {
		m := &mv[i]
		for _, e := range m.enters {
			st := &t.st[e]
			st.a, st.b = 0, 0
		}
		res := m.fixed
		if m.fn != nil {
			var err error
			res, err = m.fn(t.callFor(int(m.n)))
			if err != nil || (res != Success && res != Failure) {
				t.given = given
				return t.movesBack(n, answer{m.n, res, err})
			}
			given = append(given, given1{m.n, res})
		}
		if i = m.next[res-Success]; i < 0 {
			t.given = given
			return Status(-1 - i), nil
		}
	}
}

// movesBack hands region n back to fresh after the answer last: fresh
// runs it from its start, the leaves that answered answering again from
// t.given.
func (t *ticker) movesBack(n int, last answer) (Status, error) {
	script := make([]answer, 0, len(t.given)+1)
	for _, g := range t.given {
		script = append(script, answer{n: g.n, res: g.res})
	}
	script = append(script, last)
	t.rec = &recorder{script: script, replay: true}
	r, err := t.fresh(n)
	t.rec = nil
	return r, err
}
