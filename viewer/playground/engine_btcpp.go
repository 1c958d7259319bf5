package playground

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/btcpp"
	"github.com/zipbt/behaviortree/memory"
	"github.com/zipbt/behaviortree/viewer"
)

// BTCPPTree is a BehaviorTree.CPP tree (package btcpp) for the page: the
// leaf types its document needs (btcpp.Factory.LeafModels), and Build,
// which parses the document with a Factory that holds a stand-in for each
// of them and builds the tree with the options given. The page answers
// the stand-ins' calls: an action's with success, failure or running, a
// condition's with true or false (unless the Script gives them, by leaf
// ID).
type BTCPPTree struct {
	Leaves []btcpp.LeafModel
	Build  func(f *btcpp.Factory, opts ...btcpp.Option) (*btcpp.Tree, error)
}

// btcppAction is the kind of question of a BehaviorTree.CPP action, whose
// answers are success, failure and running: no async results (a stand-in
// that runs is asked again at its next tick).
const btcppAction = "leaf"

// btcppEngine ticks a BehaviorTree.CPP tree (tickOnce) with stand-in
// leaves that answer from the run of the step under way (cur), which the
// server sets under its lock.
type btcppEngine struct {
	first *btcpp.Tree
	cur   *run
	calls []string // the leaf calls of the step under way
}

// btcppAsk is the panic of a stand-in whose queue ran dry.
type btcppAsk struct {
	q    needAnswer
	node int
	call string
}

func newBTCPPEngine(def *BTCPPTree) (*btcppEngine, error) {
	if def.Build == nil {
		return nil, errors.New("playground: a BehaviorTree.CPP tree without Build")
	}
	e := &btcppEngine{}
	f := btcpp.NewFactory()
	for _, m := range def.Leaves {
		id, ports := m.ID, m.Ports
		var err error
		if m.Condition {
			err = f.RegisterCondition(id, func(c *btcpp.Call) (btcpp.Status, error) {
				ans := e.take("condition", c, ports)
				st := btcpp.Success
				if ans != "true" {
					st = btcpp.Failure
				}
				e.calls = append(e.calls, fmt.Sprintf("condition %s -> %s", callText(c, ports), ans))
				return st, nil
			}, ports...)
		} else {
			tick := func(c *btcpp.Call, how string) (btcpp.Status, error) {
				ans := e.take(btcppAction, c, ports)
				e.calls = append(e.calls, fmt.Sprintf("action %s%s -> %s", callText(c, ports), how, ans))
				switch ans {
				case "success":
					return btcpp.Success, nil
				case "failure":
					return btcpp.Failure, nil
				}
				return btcpp.Running, nil
			}
			err = f.RegisterAction(id, btcpp.Action{
				OnStart:   func(c *btcpp.Call) (btcpp.Status, error) { return tick(c, "") },
				OnRunning: func(c *btcpp.Call) (btcpp.Status, error) { return tick(c, " (running)") },
				OnHalted:  func(c *btcpp.Call) { e.calls = append(e.calls, "halted "+c.Path()) },
			}, ports...)
		}
		if err != nil {
			return nil, err
		}
	}
	t, err := def.Build(f, btcpp.WithDeltaTime(func() time.Duration {
		return time.Duration(math.Round(e.cur.delta * 1e9)) // seconds, checked by Script.check
	}))
	if err != nil {
		return nil, err
	}
	e.first = t
	return e, nil
}

// take returns the answer to the call c of kind ("leaf" or "condition"),
// or panics with a btcppAsk.
func (e *btcppEngine) take(kind string, c *btcpp.Call, ports []btcpp.Port) string {
	defer func() {
		if p := recover(); p != nil {
			if q, ok := p.(needAnswer); ok {
				call := "action"
				if kind == "condition" {
					call = "condition"
				}
				panic(btcppAsk{q: q, node: c.Index(), call: call})
			}
			panic(p)
		}
	}()
	return e.cur.take(kind, c.ID(), callText(c, ports))
}

// callText is a leaf call as the page shows it: its path and the values
// of the ports it reads.
func callText(c *btcpp.Call, ports []btcpp.Port) string {
	var b strings.Builder
	b.WriteString(c.Path())
	for _, p := range ports {
		if p.Dir == btcpp.Out {
			continue
		}
		if v, err := c.String(p.Name); err == nil {
			fmt.Fprintf(&b, " %s=%s", p.Name, strconv.Quote(v))
		}
	}
	return b.String()
}

func (e *btcppEngine) name() string             { return "btcpp" }
func (e *btcppEngine) layout() bt.Picture       { return e.first.Picture() }
func (e *btcppEngine) start() any               { return e.first }
func (e *btcppEngine) picture(v any) bt.Picture { return v.(*btcpp.Tree).Picture() }

// memory lists the blackboard scopes (viewer.BTCPPMemory).
func (e *btcppEngine) memory(v any) memory.Map { return viewer.BTCPPMemory(v.(*btcpp.Tree)) }

// withMemory is never called: the page edits a BehaviorTree.CPP
// blackboard by scope and type (/api/blackboard), not as a memory.
func (e *btcppEngine) withMemory(v any, m memory.Map) any { return v }

// marshal saves a version (btcpp.Tree.MarshalBinary: the node states,
// every blackboard scope, the clock).
func (e *btcppEngine) marshal(v any) ([]byte, error) { return v.(*btcpp.Tree).MarshalBinary() }

// restore reads a save onto the tree: a save of another tree (another
// structure, scopes or ports) is refused, wrapping btcpp.ErrWrongTree.
func (e *btcppEngine) restore(data []byte) (any, error) {
	t, err := e.first.Restore(data)
	if err != nil {
		return nil, err
	}
	return t, nil
}

func (e *btcppEngine) step(v any, r *run) (out stepped, err error) {
	t := v.(*btcpp.Tree)
	e.cur, e.calls = r, nil
	defer func() { e.cur = nil }()
	var next *btcpp.Tree
	var st btcpp.Status
	func() {
		defer func() {
			if p := recover(); p != nil {
				a, ok := p.(btcppAsk)
				if !ok {
					panic(p)
				}
				err = &askError{Node: a.node, Call: a.call, Kind: a.q.kind, Name: a.q.name, Text: a.q.text, Events: append([]string{}, e.calls...)}
			}
		}()
		next, st, err = t.TickOnce()
	}()
	var ask *askError
	if errors.As(err, &ask) {
		return out, err
	}
	out.events = append(e.calls, fmt.Sprintf("the root returned %s", st))
	if n := next.RootTicks(); n > 1 {
		out.events[len(out.events)-1] += fmt.Sprintf(" (%d root executions)", n)
	}
	if err != nil {
		return stepped{}, err
	}
	out.v, out.label = next, st.String()
	return out, nil
}

// export writes the replay page of a line of versions: each version's
// picture, its step's events, and its blackboard as the memory.
func (e *btcppEngine) export(w io.Writer, title string, line []*vnode) error {
	r, err := viewer.NewReplay(title, e.first.Picture())
	if err != nil {
		return err
	}
	for i, n := range line {
		p := n.v.(*btcpp.Tree).Picture()
		s := viewer.Step{Label: n.label, States: make([]bt.State, len(p.Nodes)), Events: n.events, Memory: e.memory(n.v)}
		if i == 0 {
			s.Label = "start"
		}
		for j, nd := range p.Nodes {
			s.States[j] = nd.State
			if nd.Focus {
				s.Focus = append(s.Focus, j)
			}
		}
		if err := r.Add(s); err != nil {
			return err
		}
	}
	return viewer.Write(w, title, r)
}
