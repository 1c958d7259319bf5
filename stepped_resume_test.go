package behaviortree

import (
	"fmt"
	"testing"

	"github.com/zipbt/behaviortree/attr"
)

// wentOnScan is the plain pass that wentOnFar's binary search replaces:
// the number of kids, the last one left out, in state goOn, from the
// first.
func (s *stepper[L]) wentOnScan(kids []int32, goOn State) int {
	i := 0
	for i < len(kids)-1 && s.get(kids[i]) == goOn {
		i++
	}
	return i
}

// randomWide returns a random tree of about size nodes whose sequences and
// selects are wide (up to 40 children), with reactive nodes, parallels,
// repeats, decorators and guards among them, from the xorshift state *x.
func randomWide(x *uint64, size int) Node[int] {
	next := func(k int) int {
		*x ^= *x << 13
		*x ^= *x >> 7
		*x ^= *x << 17
		return int(*x % uint64(k))
	}
	leaf := 0
	var build func(size int) Node[int]
	build = func(size int) Node[int] {
		if size <= 1 {
			leaf++
			if next(4) == 0 {
				return Condition(leaf)
			}
			return Leaf(leaf)
		}
		r := next(20)
		switch {
		case r < 1:
			return Negate(build(size - 1))
		case r < 2:
			return AlwaysSucceed(build(size - 1))
		case r < 3:
			return RepeatCount(3, build(size-1))
		}
		k := 1 + next(min(size-1, 40))
		kids := make([]Node[int], k)
		for i := range kids {
			kids[i] = build(max(1, (size-1)/k))
		}
		switch {
		case r < 10:
			return Sequence(kids...)
		case r < 16:
			return Select(kids...)
		case r < 17:
			return ReactiveSequence(kids...)
		case r < 18:
			return Parallel(kids...)
		case r < 19:
			return Select(kids...).With(attr.While(1000 + leaf))
		}
		return Sequence(kids...).With(attr.Until(2000 + leaf))
	}
	return Root(build(size))
}

// TestWentOnMatchesScan is the differential test of the resume's binary
// search against the plain pass: random wide trees, small, in one array
// and in a trie, stepped with random answers (async ones too), and from
// every version reached (the versions a step starts from, including
// branches from older ones), every sequence and select that is not
// reactive and whose first child went on must resume at the child the
// plain pass finds. (A node's subtree, when its update begins, is either
// as in the version the step started from or all READY: a reset by its
// parent.)
func TestWentOnMatchesScan(t *testing.T) {
	saved := flatWordsMax
	defer func() { flatWordsMax = saved }()
	checked := 0
	for _, layout := range []string{"small", "flat", "trie"} {
		size, flat := 200, int32(1<<30)
		switch layout {
		case "small":
			size = 24
		case "trie":
			flat = 0
		}
		flatWordsMax = flat
		for seed := range uint64(40) {
			x := 0x9E3779B97F4A7C15 ^ (seed+1)*0xBF58476D1CE4E5B9
			def := randomWide(&x, size)
			var calls []string
			tr, err := NewStepped(def, cacheAgent(&x, &calls, seed%2 == 1))
			if err != nil {
				t.Fatal(err)
			}
			if layout == "small" && !tr.m.p.small || layout == "trie" && tr.m.p.small == tr.m.p.trie {
				continue // not the layout this pass is about
			}
			var versions []Stepped[int]
			for step := range 120 {
				versions = append(versions, tr)
				if step%29 == 28 {
					tr = versions[step/2] // a branch from an older version
				}
				if tr, err = tr.Step(); err != nil {
					t.Fatalf("%s, seed %d, step %d: %v", layout, seed, step, err)
				}
				calls = calls[:0]
			}
			for i, v := range versions {
				checked += checkWentOn(t, v, fmt.Sprintf("%s, seed %d, version %d", layout, seed, i))
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d resumes checked", checked)
	}
}

// checkWentOn compares wentOnFar and wentOn (or wentOnTrie) with wentOnScan at every node of v where a
// step would call it, and returns how many it compared.
func checkWentOn(t *testing.T, v Stepped[int], where string) int {
	t.Helper()
	var s stepper[int]
	s.start(&v, nil)
	n := 0
	for i := range v.m.p.nodes {
		nd := &v.m.p.nodes[i]
		rule := seqRules[nd.kind]
		if !rule.is || rule.reactive || len(nd.kids) < 2 || s.get(nd.kids[0]) != rule.goOn {
			continue
		}
		few := s.wentOn
		if v.m.p.trie {
			few = s.wentOnTrie
		}
		want := s.wentOnScan(nd.kids, rule.goOn)
		if got := s.wentOnFar(nd.kids, rule.goOn); got != want {
			t.Errorf("%s: node %d (%v, %d children): the search resumes at child %d; the plain pass finds %d", where, i, nd.kind, len(nd.kids), got, want)
		}
		if got := few(nd.kids, rule.goOn); got != want {
			t.Errorf("%s: node %d (%v, %d children): the pass resumes at child %d; the plain pass finds %d", where, i, nd.kind, len(nd.kids), got, want)
		}
		n++
	}
	return n
}

// resumeWide is a selector of width actions of which those before the
// middle one fail and the middle one runs for ever: after the first step,
// each step resumes the middle one.
func resumeWide(width int) (Stepped[int], error) {
	kids := make([]Node[int], width)
	for i := range kids {
		kids[i] = Leaf(i)
	}
	mid := width / 2
	return NewStepped(Root(Select(kids...)), Agent[int]{Action: func(i int) Result {
		if i < mid {
			return ResultFailure
		}
		return ResultRunning
	}})
}

// BenchmarkStepResumeWide is the cost of a step that resumes a running
// action in the middle of a selector of 10 to 10,000 actions (one action
// call a step; a selector of 10 goes through the step cache, 10,000 keeps
// its states in a trie). The goal is flat: a resume does not pass by the
// children that failed before the running one.
func BenchmarkStepResumeWide(b *testing.B) {
	for _, width := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("width=%d", width), func(b *testing.B) {
			tr, err := resumeWide(width)
			if err != nil {
				b.Fatal(err)
			}
			if tr, err = tr.Step(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if tr, err = tr.Step(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestResumeWide checks what BenchmarkStepResumeWide measures: after the
// first step, each step calls only the middle action, which runs.
func TestResumeWide(t *testing.T) {
	for _, width := range []int{10, 100, 1000, 10000} {
		tr, err := resumeWide(width)
		if err != nil {
			t.Fatal(err)
		}
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
		var calls []int
		for range 3 {
			if tr, err = tr.StepWith(func(e Event[int]) {
				if e.Kind == EventAction {
					calls = append(calls, e.Value)
				}
			}); err != nil {
				t.Fatal(err)
			}
		}
		if mid := width / 2; len(calls) != 3 || calls[0] != mid || calls[2] != mid {
			t.Errorf("width %d: the steps called %v; want the middle action %d three times", width, calls, mid)
		}
		if st := tr.NodeState(1); st != StateRunning {
			t.Errorf("width %d: the selector is %v; want RUNNING", width, st)
		}
	}
}

// BenchmarkStepResumeShapes is the cost of steps that the resume path's
// hint does not serve alone, beside the one it does (wide, as in
// BenchmarkStepResumeWide at width 1,000): entities of one definition
// that resume different actions by turns (entities=N), an action at the
// end of a path through decorators and sequences (deep), one below a
// guard (guarded), and a tree that completes every step after one call
// (completes: the path's test costs it, and finds nothing).
func BenchmarkStepResumeShapes(b *testing.B) {
	cur, runs := 0, []int{100, 700, 300, 900, 200, 800, 400, 600}
	act := func(i int) Result {
		if i < runs[cur] {
			return ResultFailure
		}
		return ResultRunning
	}
	wide := func() Node[int] {
		kids := make([]Node[int], 1000)
		for i := range kids {
			kids[i] = Leaf(i)
		}
		return Root(Select(kids...))
	}
	deep := func() Node[int] {
		n := Select(Leaf(1000), Leaf(1001))
		for d := range 12 {
			kids := []Node[int]{Negate(Leaf(2000 + d))}
			for j := range 8 {
				kids = append(kids, Leaf(3000+10*d+j))
			}
			n = Negate(Sequence(AlwaysSucceed(n), Select(kids...)))
		}
		return Root(n)
	}
	guarded := func() Node[int] {
		kids := make([]Node[int], 1000)
		for i := range kids {
			kids[i] = Leaf(i)
		}
		kids[500] = kids[500].With(attr.While(7))
		return Root(Select(kids...))
	}
	completes := func() Node[int] {
		kids := make([]Node[int], 100)
		for i := range kids {
			kids[i] = Leaf(i)
		}
		return Root(Sequence(kids...))
	}
	for _, c := range []struct {
		name     string
		def      Node[int]
		entities int
		act      func(int) Result
		cond     func(int) bool
	}{
		{"wide", wide(), 1, act, nil},
		{"entities=2", wide(), 2, act, nil},
		{"entities=4", wide(), 4, act, nil},
		{"entities=8", wide(), 8, act, nil},
		{"deep", deep(), 1, func(i int) Result {
			if i == 1001 {
				return ResultRunning
			}
			return ResultFailure
		}, nil},
		{"guarded", guarded(), 1, func(i int) Result {
			if i == 500 {
				return ResultRunning
			}
			return ResultFailure
		}, func(int) bool { return true }},
		{"completes", completes(), 1, func(int) Result { return ResultFailure }, nil},
	} {
		b.Run(c.name, func(b *testing.B) {
			t0, err := NewStepped(c.def, Agent[int]{Action: c.act, Condition: c.cond})
			if err != nil {
				b.Fatal(err)
			}
			ents := make([]Stepped[int], c.entities)
			for k := range ents {
				cur = k
				if ents[k], err = t0.Step(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				k := i % c.entities
				cur = k
				if ents[k], err = ents[k].Step(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
