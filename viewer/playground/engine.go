package playground

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
	"github.com/zipbt/behaviortree/viewer"
)

// An engine runs one definition in one driving style. Its versions are
// bt.Stepped[bt.Call] or bt.Tree[string] values, held as any.
type engine interface {
	name() string             // "stepped" or "elixir"
	layout() bt.Picture       // the definition, drawn
	start() any               // the first version
	picture(v any) bt.Picture // a version, drawn
	memory(v any) memory.Map
	withMemory(v any, m memory.Map) any
	// step steps v with the answers of r. It returns an *askError when
	// the step needs an answer that r lacks; v is then unchanged.
	step(v any, r *run) (stepped, error)
	marshal(v any) ([]byte, error)
	restore(data []byte) (any, error)
	// export writes the replay page of a line of versions.
	export(w io.Writer, title string, line []*vnode) error
}

// stepped is what a step made: the version, its events as text, and the
// raw events or signal the replay page needs.
type stepped struct {
	v      any
	events []string
	raw    []bt.Event[bt.Call] // stepped engine
	signal bt.Status           // Elixir style: the signal given
	label  string
}

// asyncRef is an async result that an action of a version waits for, and
// its node.
type asyncRef struct {
	node int
	a    *bt.Async
}

// answer is one answer of the agent: to an action (success, failure,
// running, async), a condition or guard (true, false), or an Elixir-style
// leaf's Value (success, failure).
type answer struct {
	Kind   string `json:"kind"` // "action", "condition", "value"
	Name   string `json:"name"`
	Value  string `json:"value"`
	Script bool   `json:"script,omitempty"` // given by the script
	// Call is the call as the tree writes it (a condition's: the answer
	// holds for the calls of the step written so, unless per call).
	Call string `json:"call,omitempty"`
}

// choices are the answers the page may give to each kind of question.
var choices = map[string][]string{
	"action":    {"success", "failure", "running", "async"},
	"condition": {"true", "false"},
	"value":     {"success", "failure"},
	btcppAction: {"success", "failure", "running"},
}

// run is the agent's side of one attempt at a step: the answers known,
// in call order, and how many the attempt has used.
type run struct {
	answers []answer
	next    int
	script  *Script
	counts  map[string]int // per-call answers of each name on the line before the step
	delta   float64        // the seconds the step takes (stepped engine)
	step    int            // the step's index on its line, from 0 (the number of the version stepped)
	perCall bool           // ask a condition at each call, not once per step
}

// needAnswer is the panic of an agent whose queue ran dry.
type needAnswer struct{ kind, name, text string }

// askError is the error of a step that needs an answer: the question.
type askError struct {
	Node   int      `json:"node"`
	Call   string   `json:"call"` // "action", "condition", "while guard", "value"...
	Kind   string   `json:"kind"` // "action", "condition", "value"
	Name   string   `json:"name"`
	Text   string   `json:"text"` // the call as the tree writes it
	Events []string `json:"events"`
}

func (e *askError) Error() string {
	return fmt.Sprintf("node %d: %s %s needs an answer", e.Node, e.Call, e.Text)
}

// take returns the next answer, of a call of kind to name: for a
// condition already answered in the step (the same call text), unless
// perCall, that answer again; else from the queue, else from the script,
// else it panics with a needAnswer.
func (r *run) take(kind, name, text string) string {
	if kind == "condition" && !r.perCall {
		for _, a := range r.answers[:r.next] {
			if a.Kind == kind && a.Name == name && a.Call == text {
				return a.Value
			}
		}
	}
	if r.next < len(r.answers) {
		a := r.answers[r.next]
		r.next++
		return a.Value
	}
	if v, ok := r.fromScript(kind, name); ok {
		r.answers = append(r.answers, answer{Kind: kind, Name: name, Value: v, Script: true, Call: text})
		r.next++
		return v
	}
	panic(needAnswer{kind, name, text})
}

// fromScript returns the script's answer to the next call of name, if
// the script gives one: the step's entry in Steps, else the name's list,
// whose count is that of the per-call answers of name (of either kind,
// as bt run counts) on the line and in this step.
func (r *run) fromScript(kind, name string) (string, bool) {
	if r.script == nil {
		return "", false
	}
	if v, ok := r.script.fromStep(r.step, kind, name); ok {
		return v, true
	}
	k := r.counts[name]
	for _, a := range r.answers {
		if a.Name == name && !r.script.inStep(r.step, a) {
			k++
		}
	}
	switch kind {
	case "action", "value", btcppAction:
		if list := r.script.Actions[name]; len(list) > 0 {
			return list[k%len(list)], true
		}
	case "condition":
		if list := r.script.Conditions[name]; len(list) > 0 {
			return fmt.Sprint(list[k%len(list)]), true
		}
	}
	return "", false
}

// fromStep returns the answer that the entry of step k (from 0) in
// Steps gives to a call of kind to name, if any.
func (sc *Script) fromStep(k int, kind, name string) (string, bool) {
	if len(sc.Steps) == 0 {
		return "", false
	}
	e := sc.Steps[k%len(sc.Steps)]
	switch kind {
	case "action", "value", btcppAction:
		v, ok := e.Actions[name]
		return v, ok
	case "condition":
		v, ok := e.Conditions[name]
		return fmt.Sprint(v), ok
	}
	return "", false
}

// inStep reports whether the answer a, given in step k, came from the
// step's entry in Steps (and does not count as a per-call answer).
func (sc *Script) inStep(k int, a answer) bool {
	if !a.Script {
		return false
	}
	_, ok := sc.fromStep(k, a.Kind, a.Name)
	return ok
}

// check returns an error for a script with a name without answers or a
// result other than success, failure and running.
func (sc *Script) check() error {
	if sc == nil {
		return nil
	}
	for name, list := range sc.Actions {
		if len(list) == 0 {
			return fmt.Errorf("script: action %s has no results", name)
		}
		for _, v := range list {
			if v != "success" && v != "failure" && v != "running" {
				return fmt.Errorf("script: action %s: unknown result %q (success, failure, running)", name, v)
			}
		}
	}
	for name, list := range sc.Conditions {
		if len(list) == 0 {
			return fmt.Errorf("script: condition %s has no answers", name)
		}
	}
	for i, e := range sc.Steps {
		for name, v := range e.Actions {
			if v != "success" && v != "failure" && v != "running" {
				return fmt.Errorf("script: step %d: action %s: unknown result %q (success, failure, running)", i, name, v)
			}
		}
	}
	for _, d := range sc.Delta {
		if !(d >= 0) || d > 1e9 {
			return fmt.Errorf("script: delta %v: want seconds, from 0 to 1e9", d)
		}
	}
	return nil
}

// newEngine returns the engine of def.
func newEngine(def Definition, seed uint64) (engine, error) {
	switch {
	case !def.Stepped.IsZero() && !def.Elixir.IsZero():
		return nil, errors.New("playground: a definition with both a stepped and an Elixir-style tree")
	case def.BTCPP != nil && (!def.Stepped.IsZero() || !def.Elixir.IsZero()):
		return nil, errors.New("playground: a definition with both a BehaviorTree.CPP tree and another")
	case def.BTCPP != nil:
		return newBTCPPEngine(def.BTCPP)
	case !def.Stepped.IsZero():
		return newSteppedEngine(def.Stepped, seed)
	case !def.Elixir.IsZero():
		return newElixirEngine(def.Elixir, seed)
	}
	return nil, errors.New("playground: an empty definition")
}

// steppedEngine runs a tree of Calls on the stepped engine. Its agent
// answers from the run of the step under way (cur), which the server
// sets under its lock.
type steppedEngine struct {
	first bt.Stepped[bt.Call]
	agent bt.Agent[bt.Call]
	opts  []bt.Option
	cur   *run
}

func newSteppedEngine(def bt.Node[bt.Call], seed uint64) (*steppedEngine, error) {
	e := &steppedEngine{}
	agent := bt.Agent[bt.Call]{
		Action: func(c bt.Call) bt.Result {
			switch e.cur.take("action", c.Name, c.String()) {
			case "success":
				return bt.Result{Status: bt.Success}
			case "failure":
				return bt.Result{Status: bt.Failure}
			case "async":
				return bt.NewAsync().Result()
			}
			return bt.Result{Status: bt.Running}
		},
		Condition: func(c bt.Call) bool { return e.cur.take("condition", c.Name, c.String()) == "true" },
		Entry:     func(bt.Call) {},
		OnStep:    func(bt.Call) {},
		Exit:      func(bt.Call, bool, bool) {},
	}
	e.agent = agent
	e.opts = []bt.Option{bt.WithSeed(seed), bt.WithDeltaTime(func() time.Duration {
		return time.Duration(math.Round(e.cur.delta * 1e9)) // seconds, checked by Script.check
	})}
	t, err := bt.NewStepped(def, agent, e.opts...)
	if err != nil {
		return nil, err
	}
	e.first = t
	return e, nil
}

func (e *steppedEngine) name() string             { return "stepped" }
func (e *steppedEngine) layout() bt.Picture       { return e.first.Picture() }
func (e *steppedEngine) start() any               { return e.first }
func (e *steppedEngine) picture(v any) bt.Picture { return v.(bt.Stepped[bt.Call]).Picture() }
func (e *steppedEngine) memory(v any) memory.Map  { return v.(bt.Stepped[bt.Call]).Memory() }
func (e *steppedEngine) withMemory(v any, m memory.Map) any {
	return v.(bt.Stepped[bt.Call]).WithMemory(m)
}
func (e *steppedEngine) marshal(v any) ([]byte, error) {
	return v.(bt.Stepped[bt.Call]).MarshalBinary()
}
func (e *steppedEngine) restore(data []byte) (any, error) {
	return bt.RestoreStepped(e.first.Definition(), e.agent, data, e.opts...)
}

func (e *steppedEngine) step(v any, r *run) (stepped, error) {
	t := v.(bt.Stepped[bt.Call])
	e.cur = r
	defer func() { e.cur = nil }()
	var raw []bt.Event[bt.Call]
	next, err := t.StepWith(func(ev bt.Event[bt.Call]) { raw = append(raw, ev) })
	events := make([]string, len(raw))
	for i, ev := range raw {
		events[i] = ev.String()
	}
	if err != nil {
		var pe *bt.PanicError
		if errors.As(err, &pe) {
			if q, ok := pe.Value.(needAnswer); ok {
				return stepped{}, &askError{Node: pe.Node, Call: pe.Call, Kind: q.kind, Name: q.name, Text: q.text, Events: events}
			}
		}
		return stepped{}, err
	}
	return stepped{v: next, events: events, raw: raw, label: next.State().String()}, nil
}

func (e *steppedEngine) export(w io.Writer, title string, line []*vnode) error {
	versions := make([]bt.Stepped[bt.Call], len(line))
	events := make([][]bt.Event[bt.Call], len(line))
	for i, n := range line {
		versions[i] = n.v.(bt.Stepped[bt.Call])
		events[i] = n.raw
	}
	r, err := viewer.SteppedReplay(title, versions, events)
	if err != nil {
		return err
	}
	return viewer.Write(w, title, r)
}

// elixirEngine runs a tree of Elixir kinds with Value, Succeed and Fail.
type elixirEngine struct {
	def   bt.Node[string]
	first bt.Tree[string]
}

func newElixirEngine(def bt.Node[string], seed uint64) (e *elixirEngine, err error) {
	// Start panics for kinds it cannot run, naming the kind.
	defer func() {
		if p := recover(); p != nil {
			e, err = nil, fmt.Errorf("%v", p)
		}
	}()
	return &elixirEngine{def: def, first: bt.Start(def, bt.WithSeed(seed))}, nil
}

func (e *elixirEngine) name() string             { return "elixir" }
func (e *elixirEngine) layout() bt.Picture       { return e.def.Picture() }
func (e *elixirEngine) start() any               { return e.first }
func (e *elixirEngine) picture(v any) bt.Picture { return v.(bt.Tree[string]).Picture() }
func (e *elixirEngine) memory(v any) memory.Map  { return v.(bt.Tree[string]).Memory() }
func (e *elixirEngine) withMemory(v any, m memory.Map) any {
	return v.(bt.Tree[string]).WithMemory(m)
}
func (e *elixirEngine) marshal(v any) ([]byte, error) { return v.(bt.Tree[string]).MarshalBinary() }
func (e *elixirEngine) restore(data []byte) (any, error) {
	return bt.Restore(e.def, data)
}

func (e *elixirEngine) step(v any, r *run) (out stepped, err error) {
	t := v.(bt.Tree[string])
	val := t.Value()
	focus := t.FocusIndex()
	var ans string
	func() {
		defer func() {
			if p := recover(); p != nil {
				q, ok := p.(needAnswer)
				if !ok {
					panic(p)
				}
				err = &askError{Node: focus, Call: "value", Kind: q.kind, Name: q.name, Text: q.text, Events: []string{}}
			}
		}()
		ans = r.take("value", val, val)
	}()
	if err != nil {
		return out, err
	}
	var next bt.Tree[string]
	switch ans {
	case "success":
		next, out.signal = t.Succeed(), bt.Success
	case "failure":
		next, out.signal = t.Fail(), bt.Failure
	default:
		return out, fmt.Errorf("%s: Elixir-style leaves succeed or fail, not %q", val, ans)
	}
	out.v = next
	out.label = fmt.Sprintf("%s %s", val, ans)
	out.events = []string{fmt.Sprintf("Value() = %s: %s", val, out.signal)}
	if st := next.Status(); st != bt.Running {
		out.events = append(out.events, fmt.Sprintf("the root ended with %v; the tree starts over", st))
	}
	return out, nil
}

func (e *elixirEngine) export(w io.Writer, title string, line []*vnode) error {
	seq := iter.Seq[bt.Tree[string]](func(yield func(bt.Tree[string]) bool) {
		for _, n := range line {
			if !yield(n.v.(bt.Tree[string])) {
				return
			}
		}
	})
	r, err := viewer.TreesReplay(title, e.def, seq)
	if err != nil {
		return err
	}
	return viewer.Write(w, title, r)
}
