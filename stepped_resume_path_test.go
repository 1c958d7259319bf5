package behaviortree

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/testlong"
	"github.com/zipbt/behaviortree/kind"
)

// randomResumable returns a random tree of about size nodes for the
// resume path's test: mostly sequences and selects, some wide, over
// decorators, repeats, retries, lottos, with parallels, reactive nodes,
// waits, guards and callbacks among them, from the xorshift state *x.
func randomResumable(x *uint64, size int) Node[int] {
	next := func(k int) int {
		*x ^= *x << 13
		*x ^= *x >> 7
		*x ^= *x << 17
		return int(*x % uint64(k))
	}
	leaf := 0
	// with gives n attributes now and then: guards, callbacks.
	with := func(n Node[int]) Node[int] {
		leaf++
		switch next(24) {
		case 0:
			return n.With(attr.While(1000 + leaf))
		case 1:
			return n.With(attr.Until(2000 + leaf))
		case 2:
			return n.With(attr.OnStep(3000 + leaf))
		case 3:
			return n.With(attr.Entry(4000+leaf), attr.Exit(5000+leaf))
		case 4:
			return n.With(attr.While(1000+leaf), attr.OnStep(3000+leaf), attr.Exit(5000+leaf))
		}
		return n
	}
	var build func(size int) Node[int]
	build = func(size int) Node[int] {
		if size <= 1 {
			leaf++
			switch next(12) {
			case 0, 1:
				return with(Condition(leaf))
			case 2:
				return Wait[int](time.Duration(1+next(3)) * 50 * time.Millisecond)
			}
			return with(Leaf(leaf))
		}
		r := next(40)
		switch {
		case r < 2:
			return with(Negate(build(size - 1)))
		case r < 3:
			return with(AlwaysSucceed(build(size - 1)))
		case r < 4:
			return with(AlwaysFail(build(size - 1)))
		case r < 6:
			return with(RepeatCount(1+next(3), build(size-1)))
		case r < 7:
			return with(Repeat(build(size - 1)))
		case r < 8:
			return with(RetryCount(1+next(3), build(size-1)))
		case r < 9:
			return with(RetryRange(1, 3, build(size-1)))
		}
		k := 1 + next(min(size-1, 12))
		if next(6) == 0 {
			k = 1 + next(min(size-1, 60)) // wide: the search
		}
		kids := make([]Node[int], k)
		for i := range kids {
			kids[i] = build(max(1, (size-1)/k))
		}
		switch {
		case r < 22:
			return with(Sequence(kids...))
		case r < 34:
			return with(Select(kids...))
		case r < 35:
			w := make([]int, k)
			for i := range w {
				w[i] = 1 + next(3)
			}
			return with(Lotto(w, kids...))
		case r < 36:
			return with(ReactiveSequence(kids...))
		case r < 37:
			return with(ReactiveSelect(kids...))
		case r < 38:
			return with(Parallel(kids...))
		case r < 39:
			return with(Race(kids...))
		}
		return with(All(kids...))
	}
	return Root(build(size))
}

// resumeAgent is an agent whose answers come from *x: actions run most of
// the time (so that steps resume), succeed, fail, give async results
// (settled or not), an invalid status, or panic; conditions and guards
// mostly hold. With mem, it has the memory forms, and writes the memory.
// It logs every call in *log.
func resumeAgent(x *uint64, log *strings.Builder, mem bool) Agent[int] {
	next := func() uint64 {
		*x ^= *x << 13
		*x ^= *x >> 7
		*x ^= *x << 17
		return *x
	}
	action := func(v int) Result {
		r := next() % 40
		fmt.Fprintf(log, "a%d:%d,", v, r)
		switch {
		case r < 26:
			return ResultRunning
		case r < 31:
			return ResultSuccess
		case r < 36:
			return ResultFailure
		case r == 36:
			a := NewAsync()
			a.Succeed()
			return a.Result()
		case r == 37:
			return NewAsync().Result()
		case r == 38:
			return Result{Status: Status(9)}
		}
		panic(fmt.Sprintf("action %d panics", v))
	}
	condition := func(v int) bool {
		r := next() % 16
		fmt.Fprintf(log, "c%d:%d,", v, r)
		if r == 15 {
			panic(fmt.Sprintf("condition %d panics", v))
		}
		return r >= 2
	}
	a := Agent[int]{
		Entry:  func(v int) { fmt.Fprintf(log, "entry%d,", v) },
		OnStep: func(v int) { fmt.Fprintf(log, "step%d,", v) },
		Exit:   func(v int, s, ab bool) { fmt.Fprintf(log, "exit%d:%v:%v,", v, s, ab) },
	}
	if !mem {
		a.Action, a.Condition = action, condition
		return a
	}
	a.MemoryAction = func(v int, b *Blackboard) Result {
		n, _ := b.Get("calls")
		k, _ := n.(int)
		b.Set("calls", k+1)
		b.Set(fmt.Sprintf("a%d", v%7), v)
		return action(v)
	}
	a.MemoryCondition = func(v int, b *Blackboard) bool {
		b.Set("c", v)
		return condition(v)
	}
	a.MemoryOnStep = func(v int, b *Blackboard) {
		b.Set("step", v)
		fmt.Fprintf(log, "step%d,", v)
	}
	return a
}

// resumeStepLog steps t once (with events or not, Step or Tick) with the
// answers of seed, and returns the new version and what the step did: the
// calls, the error, the node states, the saved bytes and the memory.
func resumeStepLog(t Stepped[int], x *uint64, log *strings.Builder, seed uint64, events, tick bool) (Stepped[int], string) {
	log.Reset()
	*x = seed
	var emit func(Event[int])
	if events {
		emit = func(Event[int]) {}
	}
	var nt Stepped[int]
	var err error
	td := TimeData{DeltaTime: 30 * time.Millisecond}
	switch {
	case events && tick:
		nt, err = t.TickWith(td, emit)
	case events:
		nt, err = t.StepWith(emit)
	case tick:
		nt, err = t.Tick(td) // Step and Tick choose their path themselves
	default:
		nt, err = t.Step()
	}
	var b strings.Builder
	b.WriteString(log.String())
	if err != nil {
		var pe *PanicError
		if errors.As(err, &pe) {
			fmt.Fprintf(&b, " panic node %d (%s) %s: %v", pe.Node, pe.Name, pe.Call, pe.Value)
		} else {
			fmt.Fprintf(&b, " error %v", err)
		}
	}
	b.WriteString(" states ")
	for i := range nt.size() {
		b.WriteByte('0' + byte(nt.NodeState(i)))
	}
	saved, serr := nt.MarshalBinary()
	fmt.Fprintf(&b, " saved %x %v memory %v status %v", saved, serr, nt.Memory(), nt.Status())
	return nt, b.String()
}

// TestResumePathMatchesRules is the differential test of the resume path
// (stepped_resume.go): random trees of more than 64 nodes (in one array
// and in a trie, and small ones whose step cache is off), stepped with
// answers that keep actions running most of the time, with the path on
// and off from the same version with the same answers: the calls, the
// errors, the node states, the saved bytes and the memory must be the
// same after each step. Steps with events (the rules only) and ticks are
// mixed in, and older versions are stepped again (the path's hint then
// misses).
func TestResumePathMatchesRules(t *testing.T) {
	saved := flatWordsMax
	defer func() { flatWordsMax, resumeOn = saved, true }()
	steps, resumed := 0, 0
	for _, layout := range []string{"small", "flat", "trie"} {
		size, flat := 300, int32(1<<30)
		switch layout {
		case "small":
			size = 28
		case "trie":
			flat = 0
		}
		flatWordsMax = flat
		for seed := range testlong.Pick(uint64(20), 60) {
			x := 0x9E3779B97F4A7C15 ^ (seed+1)*0xBF58476D1CE4E5B9
			def := randomResumable(&x, size)
			var log strings.Builder
			var ax uint64
			tr, err := NewStepped(def, resumeAgent(&ax, &log, seed%3 == 2), WithTurnClock(50*time.Millisecond), WithSeed(seed))
			if err != nil {
				t.Fatal(err)
			}
			p := tr.m.p
			switch {
			case layout == "small" && !p.small, layout == "flat" && (p.small || p.trie || len(p.nodes) <= 64), layout == "trie" && !p.trie:
				continue // not the layout this pass is about
			}
			if p.cache != nil {
				p.cache.off.Store(true) // the rules, and the path, take every step
			}
			var versions []Stepped[int]
			for step := range 300 {
				versions = append(versions, tr)
				x ^= x << 13
				x ^= x >> 7
				x ^= x << 17
				if x%23 == 0 {
					tr = versions[int(x>>8)%len(versions)] // an older version again
				}
				answers := x | 1
				events, tick := x%11 == 0, x%7 == 0
				where := fmt.Sprintf("%s, seed %d, step %d (events %v, tick %v)", layout, seed, step, events, tick)
				resumeOn = false
				want, wantLog := resumeStepLog(tr, &ax, &log, answers, events, tick)
				resumeOn = true
				if !events && tr.pending() == nil && resumeLeaf(tr) >= 0 {
					resumed++
				}
				if x%5 == 0 {
					setResumeHint(p, int32(x>>16)%int32(len(p.nodes)+1)) // a hint that may not hold
				}
				got, gotLog := resumeStepLog(tr, &ax, &log, answers, events, tick)
				if gotLog != wantLog {
					t.Fatalf("%s: with the resume path the step did\n%s\nby the rules\n%s", where, gotLog, wantLog)
				}
				if !got.Equal(want) {
					t.Fatalf("%s: the versions differ", where)
				}
				steps++
				tr = got
			}
		}
	}
	t.Logf("%d steps compared, %d of them by the resume path", steps, resumed)
	if steps < 10000 || resumed < steps/10 {
		t.Fatalf("%d steps, %d resumed: too few", steps, resumed)
	}
}

// resumeLeaf returns the action at the end of t's running path when the
// resume path takes t's step (found from the root, not by the hint), or -1.
func resumeLeaf(t Stepped[int]) int32 {
	var r resumer[int]
	r.start(&t, TimeData{})
	if r.get(0) != StateRunning {
		return -1
	}
	n := int32(0)
	for n >= 0 && r.p.hot[n].kind != kind.Leaf {
		n = r.next(n)
	}
	return n
}

// TestResumePathConcurrent steps entities of one definition (the hint is
// the program's, shared) from several goroutines at once, each entity
// resuming its own action, in a flat array and in a trie, on Step and
// Tick: every step must call that action only, once, and leave the
// version as it was. Under -race it also checks that the hint's writes
// (the path, the paths made, the misses) are safe.
func TestResumePathConcurrent(t *testing.T) {
	saved := flatWordsMax
	defer func() { flatWordsMax = saved }()
	for _, flat := range []int32{1 << 30, 0} {
		flatWordsMax = flat
		const width, workers, steps = 400, 4, 2000
		kids := make([]Node[int], width)
		for i := range kids {
			kids[i] = Leaf(i)
		}
		def := Root(Sequence(AlwaysSucceed(Select(kids...)), Leaf(width)))
		// Worker w's entity resumes action 50+90w: the ones before it
		// fail, it runs. calls[w] counts its calls, by action.
		var calls [workers][width + 1]int
		agent := func(w int) Agent[int] {
			return Agent[int]{Action: func(i int) Result {
				calls[w][i]++
				if i < 50+90*w {
					return ResultFailure
				}
				return ResultRunning
			}}
		}
		var wg sync.WaitGroup
		errs := make(chan error, workers)
		for w := range workers {
			tr, err := NewStepped(def, agent(w))
			if err != nil {
				t.Fatal(err)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if tr, err = tr.Step(); err != nil {
					errs <- err
					return
				}
				calls[w] = [width + 1]int{}
				want := 50 + 90*w
				for s := range steps {
					var nt Stepped[int]
					if s%3 == 0 {
						nt, err = tr.Tick(TimeData{DeltaTime: time.Millisecond})
					} else {
						nt, err = tr.Step()
					}
					if err != nil {
						errs <- err
						return
					}
					if !nt.Equal(tr) {
						errs <- fmt.Errorf("worker %d, step %d: the version changed", w, s)
						return
					}
					tr = nt
				}
				for i, n := range calls[w] {
					if i == want && n != steps || i != want && n != 0 {
						errs <- fmt.Errorf("worker %d: action %d called %d times in %d steps; want only %d, each step", w, i, n, steps, want)
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("flat words max %d: %v", flat, err)
		}
	}
}
