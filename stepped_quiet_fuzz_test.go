package behaviortree

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

// quietAgent is a Functions agent for def that answers every name from
// the xorshift state *x (actions succeed, fail, run, or give an async
// result, settled or never; conditions and guards hold or not) and logs
// every call in *log.
func quietAgent(def Node[Call], x *uint64, log *strings.Builder) (Agent[Call], error) {
	next := func() uint64 {
		*x ^= *x << 13
		*x ^= *x >> 7
		*x ^= *x << 17
		return *x
	}
	fns := Functions{
		Actions:    map[string]func([]any) Result{},
		Conditions: map[string]func([]any) bool{},
		Callbacks:  map[string]func([]any){},
		Exits:      map[string]func([]any, bool, bool){},
		Property:   func(string) any { return 0.0 },
	}
	action := func(name string) func([]any) Result {
		return func([]any) Result {
			r := next() % 9
			fmt.Fprintf(log, "%s:%d,", name, r)
			switch r {
			case 0, 1, 2:
				return ResultSuccess
			case 3, 4:
				return ResultFailure
			case 5, 6:
				return ResultRunning
			case 7:
				a := NewAsync()
				a.Succeed()
				return a.Result()
			}
			return NewAsync().Result()
		}
	}
	condition := func(name string) func([]any) bool {
		return func([]any) bool {
			ok := next()%3 != 0
			fmt.Fprintf(log, "%s:%v,", name, ok)
			return ok
		}
	}
	for n := range def.Preorder() {
		v, _ := n.Leaf()
		switch n.Kind() {
		case kind.Leaf:
			fns.Actions[v.Name] = action(v.Name)
		case kind.Condition:
			fns.Conditions[v.Name] = condition(v.Name)
		}
		for _, a := range n.Attrs() {
			name := a.Value.Name
			switch a.Kind {
			case attr.KindWhile, attr.KindUntil:
				fns.Conditions[name] = condition(name)
			case attr.KindEntry, attr.KindOnStep:
				fns.Callbacks[name] = func([]any) { fmt.Fprintf(log, "cb %s,", name) }
			case attr.KindExit:
				fns.Exits[name] = func(_ []any, s, a bool) { fmt.Fprintf(log, "exit %s %v %v,", name, s, a) }
			}
		}
	}
	return fns.Agent(def)
}

// FuzzStepQuiet steps arbitrary MDSL trees with scripted answers, with
// events (the engine's general rules) and without (its fast paths: the
// step cache, fresh evaluation, moves): the agent's calls, every node's
// state and the saved versions must be the same.
func FuzzStepQuiet(f *testing.F) {
	files, _ := filepath.Glob("testdata/mdsl/*.mdsl")
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil {
			f.Add(src, uint64(1))
		}
	}
	for _, s := range []string{
		"root { sequence { action [TopLeft] repeat { selector { action [GoRight] action [NextRow] } } } }",
		"root { selector { sequence while(Calm) { repeat { sequence { action [Walk] action [Look] entry(In) exit(Out) } } } action [Fight] } }",
		"root { repeat { parallel { action [W0] action [W1] step(S) } } }",
		"root { sequence { reactive_sequence { action [A] condition [C] } selector { action [B] flip { action [D] } } } }",
		"root { race { all { action [A] action [B] } sequence { wait [100] action [C] } lotto [1,2] { action [D] action [E] } } }",
	} {
		f.Add([]byte(s), uint64(7))
	}
	f.Fuzz(func(t *testing.T, src []byte, seed uint64) {
		def, err := parseMDSL("fuzz.mdsl", src)
		if err != nil || def.Size() > 200 {
			return
		}
		run := func(events bool) string {
			var log strings.Builder
			x := seed | 1
			agent, err := quietAgent(def, &x, &log)
			if err != nil {
				return "agent: " + err.Error()
			}
			tr, err := NewStepped(def, agent, WithTurnClock(50*time.Millisecond), WithSeed(seed))
			if err != nil {
				return "build: " + err.Error()
			}
			var emit func(Event[Call])
			if events {
				emit = func(Event[Call]) {}
			}
			for range 25 {
				if tr, err = tr.StepWith(emit); err != nil {
					fmt.Fprintf(&log, " error %v", err)
					break
				}
				log.WriteByte(' ')
				for i := range tr.size() {
					log.WriteByte('0' + byte(tr.NodeState(i)))
				}
				if b, err := tr.MarshalBinary(); err == nil {
					fmt.Fprintf(&log, " %x", b)
				}
				log.WriteByte('\n')
			}
			return log.String()
		}
		if with, without := run(true), run(false); with != without {
			t.Fatalf("%s\nwith events:\n%s\nwithout:\n%s", src, with, without)
		}
	})
}
