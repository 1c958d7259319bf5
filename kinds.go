package behaviortree

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zipbt/behaviortree/internal/hook"
)

// This file is the table of node kinds: for every kind, its names (Elixir
// JSON, Mistreevous JSON, MDSL), how many children it takes, which
// parameters it has and how they are checked and printed, and how it is
// drawn, and whether the stepped engine may evaluate it afresh (pure).
// The constructors, String, the Elixir JSON form and the pictures
// (render*.go) read it here; the module's clients (packages mdsl,
// mistreevous and proptest, the bt command, the viewer) read its rows
// through package internal/hook (kindFacts). So a new kind is one entry
// here plus its runtime rule (for the Value/Succeed/Fail traversal, in
// [place.ended] in compile.go).

// Kind says what a [Node] is. Its String form is the node's type name in the
// Elixir library and in JSON definitions ("select", "repeat_until_fail", ...).
type Kind uint8

// The kinds of node. KindCustom is a user's node built with [CustomNode].
const (
	KindLeaf Kind = iota
	KindSelect
	KindSequence
	KindRepeatUntilFail // RepeatUntilFail (the seed documentation's Continually)
	KindRepeatUntilSucceed
	KindRepeatN
	KindRandom
	KindRandomWeighted
	KindAlwaysSucceed
	KindAlwaysFail
	KindNegate
	KindCustom
	// The kinds below run only on the stepped engine ([NewStepped]); they
	// have no Elixir JSON form and [Start] refuses them.
	KindRoot      // Mistreevous root: Root
	KindCondition // a leaf asking a question: Condition
	KindWait      // a leaf that waits: Wait, WaitRange, WaitForever
	KindParallel  // Parallel
	KindRace      // Race
	KindAll       // All
	KindLotto     // Lotto
	KindRepeat    // Repeat, RepeatCount, RepeatRange
	KindRetry     // Retry, RetryCount, RetryRange
	// KindThreshold runs all its children at once in the Value/Succeed/Fail
	// style (Threshold); so do KindParallel and KindRace there, as its
	// presets.
	KindThreshold
	// The kinds below are FluentBehaviourTree's nodes (fluent.go), which
	// keep nothing between steps. They run only on the stepped engine and
	// take any number of children, none included.
	KindReactiveSequence // ReactiveSequence: Fluent's Sequence
	KindReactiveSelect   // ReactiveSelect: Fluent's Selector
	KindReactiveParallel // ReactiveParallel: Fluent's Parallel(fail, succeed)
	KindEmptyInverter    // EmptyInverter: Fluent's Inverter without a child
	numKinds
)

// arity is how many children a kind takes, and param the parameter a kind
// may take besides its children. Their values are package internal/hook's,
// which lends the table's rows to this module's clients (kindFacts).
type (
	arity = hook.Arity
	param = hook.Param
)

const (
	noChildren   = hook.NoChildren   // a leaf
	oneChild     = hook.OneChild     // a decorator
	someChildren = hook.SomeChildren // one or more
	anyChildren  = hook.AnyChildren  // zero or more (the reactive kinds)

	paramNone      = hook.ParamNone
	paramN         = hook.ParamN         // Params.N: a count >= 2 (RepeatN)
	paramWeights   = hook.ParamWeights   // Params.Weights: one weight > 0 per child (RandomWeighted)
	paramLotto     = hook.ParamLotto     // Params.Weights: none, or one weight >= 0 per child (Lotto)
	paramBound     = hook.ParamBound     // Params.Bound, Min, Max: a count or duration (Repeat, Retry, Wait)
	paramThreshold = hook.ParamThreshold // Params.Success, Failure: M-of-N counts (Threshold)
	paramCounts    = hook.ParamCounts    // Params.Failure, Success: any ints, per-step counts (ReactiveParallel)
)

// kindInfo is one entry of the table of kinds.
type kindInfo struct {
	name   string // in String and Kind.String; in the Elixir JSON form, if elixir
	alias  string // another Elixir JSON name read as this kind, or ""
	elixir bool   // the kind is in the Elixir JSON form (ParseJSON, Node.MarshalJSON)
	ctor   string // the Go constructor, for its panics
	arity  arity
	param  param
	draws  bool // entering it draws from the tree's random state
	// mistreevous is the kind's type name in Mistreevous JSON definitions
	// ("selector", "flip", ...), or "" for kinds the stepped engine refuses.
	mistreevous string
	stepped     bool // only the stepped engine runs it: Start refuses it
	carries     bool // a leaf kind that carries a value L (Leaf, Condition)
	// frontier: in the Value/Succeed/Fail style, entering it enters every
	// child at once, and it ends by M-of-N thresholds (parallel.go).
	frontier bool
	// mdsl is the kind's MDSL keyword (mdsl.go): Mistreevous's type name
	// where the kind has one, and a keyword of our own in the same syntax
	// for the kinds that Mistreevous has no node for; "" for a kind with
	// no text form (custom nodes).
	mdsl string
	// passed is what [Tree.Picture] shows for the children of a node of
	// this kind before the one that the focus path goes through: succeeded
	// for a sequence, failed for a select; StateReady (not known) for the
	// other kinds.
	passed State
	// look is how [Picture.WriteDOT] and [Picture.WriteMermaid] draw it;
	// the zero look draws as lookUnknown, which no kind should have.
	look look
	// pure: a node of the kind keeps nothing between updates of the
	// stepped engine when it has no guard or callback, so that a subtree
	// of pure nodes may be evaluated afresh at once (markPure, fluent.go).
	pure bool
	// bound names a paramBound kind's count or duration: its field in
	// Mistreevous JSON definitions, and its name in messages.
	bound string
}

// look is how a kind is drawn: its Graphviz shape and style, its Mermaid
// flowchart brackets, and a Mermaid style for its border ("" for none).
// The renderers read it from the table of kinds (lookOf) and nowhere else
// decide a shape; the doc comments of WriteDOT and WriteMermaid list the
// shapes in words, so a change here should be told there too.
type look struct {
	dot, dotStyle string // shape=, style=
	open, close   string // the brackets around a Mermaid node's text
	border        string // a Mermaid style line's declarations, or ""
}

// The looks that kinds share. A kind that differs from its twin only by
// keeping nothing between steps (the reactive kinds, from Fluent) draws as
// its twin with a dashed border (dashed).
var (
	lookAction    = look{dot: "box", dotStyle: "rounded,filled", open: "([", close: "])"}
	lookCondition = look{dot: "ellipse", dotStyle: "filled", open: "((", close: "))"}
	lookWait      = look{dot: "cds", dotStyle: "filled", open: ">", close: "]"}
	lookSequence  = look{dot: "box", dotStyle: "filled", open: "[", close: "]"}
	lookSelect    = look{dot: "diamond", dotStyle: "filled", open: "{", close: "}"}
	lookParallel  = look{dot: "parallelogram", dotStyle: "filled", open: "[/", close: "/]"}
	lookThreshold = look{dot: "octagon", dotStyle: "filled", open: `[\`, close: `\]`}
	lookRandom    = look{dot: "trapezium", dotStyle: "filled", open: "[/", close: `\]`}
	lookRoot      = look{dot: "house", dotStyle: "filled", open: "[[", close: "]]"}
	lookDecorator = look{dot: "hexagon", dotStyle: "filled", open: "{{", close: "}}"}
	lookCustom    = look{dot: "component", dotStyle: "filled", open: "[(", close: ")]"}
	// lookUnknown is for a kind out of range in a hand-made Picture, or a
	// row of the table without a look: a box with a dotted border, unlike
	// any kind's.
	lookUnknown = look{dot: "box", dotStyle: "filled,dotted", open: "[", close: "]", border: "stroke-dasharray:2 2"}
)

// dashed returns l with a dashed border.
func dashed(l look) look {
	l.dotStyle += ",dashed"
	l.border = "stroke-dasharray:6 3"
	return l
}

// lookOf returns how a node of kind k is drawn.
func lookOf(k Kind) look {
	if k < numKinds && kinds[k].look.dot != "" {
		return kinds[k].look
	}
	return lookUnknown
}

// kinds is the table of node kinds, indexed by Kind.
var kinds = [numKinds]kindInfo{
	KindLeaf:               {name: "leaf", ctor: "Leaf", arity: noChildren, mistreevous: "action", carries: true, mdsl: "action", look: lookAction, pure: true},
	KindSelect:             {name: "select", elixir: true, ctor: "Select", arity: someChildren, mistreevous: "selector", passed: StateFailed, mdsl: "selector", look: lookSelect},
	KindSequence:           {name: "sequence", elixir: true, ctor: "Sequence", arity: someChildren, mistreevous: "sequence", passed: StateSucceeded, mdsl: "sequence", look: lookSequence},
	KindRepeatUntilFail:    {name: "repeat_until_fail", alias: "continually", elixir: true, ctor: "RepeatUntilFail", arity: oneChild, mdsl: "repeat_until_fail", look: lookDecorator},
	KindRepeatUntilSucceed: {name: "repeat_until_succeed", elixir: true, ctor: "RepeatUntilSucceed", arity: oneChild, mdsl: "repeat_until_succeed", look: lookDecorator},
	KindRepeatN:            {name: "repeat_n", elixir: true, ctor: "RepeatN", arity: oneChild, param: paramN, mdsl: "repeat_n", look: lookDecorator},
	KindRandom:             {name: "random", elixir: true, ctor: "Random", arity: someChildren, draws: true, mdsl: "random", look: lookRandom},
	KindRandomWeighted:     {name: "random_weighted", elixir: true, ctor: "RandomWeighted", arity: someChildren, param: paramWeights, draws: true, mdsl: "random_weighted", look: lookRandom},
	KindAlwaysSucceed:      {name: "always_succeed", elixir: true, ctor: "AlwaysSucceed", arity: oneChild, mistreevous: "succeed", mdsl: "succeed", look: lookDecorator, pure: true},
	KindAlwaysFail:         {name: "always_fail", elixir: true, ctor: "AlwaysFail", arity: oneChild, mistreevous: "fail", mdsl: "fail", look: lookDecorator, pure: true},
	KindNegate:             {name: "negate", elixir: true, ctor: "Negate", arity: oneChild, mistreevous: "flip", mdsl: "flip", look: lookDecorator, pure: true},
	KindCustom:             {name: "custom", ctor: "CustomNode", arity: someChildren, look: lookCustom},
	KindRoot:               {name: "root", ctor: "Root", arity: oneChild, mistreevous: "root", stepped: true, mdsl: "root", look: lookRoot, pure: true},
	KindCondition:          {name: "condition", ctor: "Condition", arity: noChildren, mistreevous: "condition", stepped: true, carries: true, mdsl: "condition", look: lookCondition, pure: true},
	KindWait:               {name: "wait", ctor: "Wait", arity: noChildren, param: paramBound, mistreevous: "wait", stepped: true, mdsl: "wait", look: lookWait, bound: "duration"},
	KindParallel:           {name: "parallel", ctor: "Parallel", arity: someChildren, mistreevous: "parallel", frontier: true, mdsl: "parallel", look: lookParallel},
	KindRace:               {name: "race", ctor: "Race", arity: someChildren, mistreevous: "race", frontier: true, mdsl: "race", look: lookParallel},
	KindAll:                {name: "all", ctor: "All", arity: someChildren, mistreevous: "all", stepped: true, mdsl: "all", look: lookParallel},
	KindLotto:              {name: "lotto", ctor: "Lotto", arity: someChildren, param: paramLotto, mistreevous: "lotto", stepped: true, mdsl: "lotto", look: lookRandom},
	KindRepeat:             {name: "repeat", ctor: "Repeat", arity: oneChild, param: paramBound, mistreevous: "repeat", stepped: true, mdsl: "repeat", look: lookDecorator, bound: "iterations"},
	KindRetry:              {name: "retry", ctor: "Retry", arity: oneChild, param: paramBound, mistreevous: "retry", stepped: true, mdsl: "retry", look: lookDecorator, bound: "attempts"},
	KindThreshold:          {name: "threshold", ctor: "Threshold", arity: someChildren, param: paramThreshold, frontier: true, mdsl: "threshold", look: lookThreshold},
	KindReactiveSequence:   {name: "reactive_sequence", ctor: "ReactiveSequence", arity: anyChildren, stepped: true, mdsl: "reactive_sequence", look: dashed(lookSequence), pure: true},
	KindReactiveSelect:     {name: "reactive_select", ctor: "ReactiveSelect", arity: anyChildren, stepped: true, mdsl: "reactive_selector", look: dashed(lookSelect), pure: true},
	KindReactiveParallel:   {name: "reactive_parallel", ctor: "ReactiveParallel", arity: anyChildren, param: paramCounts, stepped: true, mdsl: "reactive_parallel", look: dashed(lookParallel), pure: true},
	KindEmptyInverter:      {name: "empty_inverter", ctor: "EmptyInverter", arity: noChildren, stepped: true, mdsl: "empty_inverter", look: dashed(lookDecorator), pure: true},
}

// kindByMistreevous maps the Mistreevous JSON type names to their kinds
// ("branch" is not a kind: the reader expands it).
var kindByMistreevous = func() map[string]Kind {
	m := make(map[string]Kind)
	for k := Kind(0); k < numKinds; k++ {
		if n := kinds[k].mistreevous; n != "" {
			m[n] = k
		}
	}
	return m
}()

// kindByName maps the Elixir JSON names of inner kinds to their kinds.
var kindByName = func() map[string]Kind {
	m := make(map[string]Kind)
	for k := KindLeaf + 1; k < numKinds; k++ {
		if !kinds[k].elixir {
			continue
		}
		m[kinds[k].name] = k
		if a := kinds[k].alias; a != "" {
			m[a] = k
		}
	}
	return m
}()

// String returns the kind's name as the Elixir library and JSON definitions
// spell it, for example "repeat_until_fail" for [KindRepeatUntilFail].
func (k Kind) String() string {
	if k < numKinds {
		return kinds[k].name
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// kindFacts returns the row of kind k that the module's clients read
// through package internal/hook (hook.Kind): the zero KindFacts for a k
// that is not a kind.
func kindFacts(k uint8) hook.KindFacts {
	if k >= uint8(numKinds) {
		return hook.KindFacts{}
	}
	info := &kinds[k]
	return hook.KindFacts{MDSL: info.mdsl, Mistreevous: info.mistreevous, Arity: info.arity, Param: info.param, Carries: info.carries, Stepped: info.stepped, Bound: info.bound}
}

// Bound says whether a Repeat or Retry has a count, or a Wait a duration,
// and whether it is fixed or drawn from a range.
type Bound uint8

// The bounds.
const (
	Unbounded Bound = iota // forever: no count, no duration
	Fixed                  // Params.Min exactly
	Ranged                 // drawn from [Params.Min, Params.Max] at each start
)

// Params are what a node has besides its kind and children: the fields that
// its kind takes, and zero values for the others.
type Params struct {
	// N is RepeatN's count: 2 to 2,147,483,647.
	N int
	// Weights are RandomWeighted's weights, one per child, each at least 1,
	// adding up to at most 2,147,483,647.
	//
	// For a Lotto they are optional: nil gives every child one ticket;
	// otherwise one weight per child, each 0 or more (0 counts as 1, as in
	// Mistreevous), adding up to at most 2,147,483,647.
	Weights []int
	// Bound says whether a Repeat (its iterations), Retry (its attempts) or
	// Wait (its duration in milliseconds) has a count: Unbounded (repeat,
	// retry or wait forever), Fixed (Min), or Ranged (a value drawn from
	// [Min, Max] each time the node starts). Min and Max are 0 to
	// 2,147,483,647, and Min <= Max when Ranged.
	Bound    Bound
	Min, Max int
	// Success and Failure are a Threshold's counts: it succeeds once
	// Success children have succeeded, and fails once Failure children have
	// failed or success can no longer be reached. A negative count means
	// "all but k": -1 is every child, -2 all but one. Both resolve to 1 to
	// the number of children.
	//
	// For a ReactiveParallel they are FluentBehaviourTree's
	// numRequiredToSucceed and numRequiredToFail, counted within one step:
	// any values, a count of 0 or less switching that outcome off.
	Success, Failure int
}

// Limits on parameters, the same on 32- and 64-bit platforms.
const (
	maxRepeat      = 1<<31 - 1 // RepeatN's largest count
	maxWeightTotal = 1<<31 - 1 // the largest sum of a RandomWeighted's weights
)

// check returns an error saying what is wrong with a node of kind k with
// params p and the given number of children, or nil. Its messages are the
// ones that constructors panic with and that JSON reading reports with the
// node's path.
func (k Kind) check(p Params, children int) error {
	info := kinds[k]
	switch {
	case info.arity == noChildren && children != 0:
		return fmt.Errorf("%s takes no children, got %d", info.name, children)
	case info.arity == oneChild && children != 1:
		return fmt.Errorf("%s needs exactly 1 child, got %d", info.name, children)
	case info.arity == someChildren && children == 0:
		return fmt.Errorf("%s needs at least one child, got none", info.name)
	}
	switch info.param {
	case paramN:
		return checkN(p.N)
	case paramWeights:
		return checkWeights(p.Weights, children)
	case paramLotto:
		return checkLottoWeights(p.Weights, children)
	case paramBound:
		return checkBound(info.name, info.bound, p)
	case paramThreshold:
		_, _, err := thresholds(p, children)
		return err
	}
	return nil
}

// thresholds returns a Threshold's success and failure counts for n
// children, with negative counts read as "all but k" (-1 is n, -2 is n-1),
// as BehaviorTree.CPP's Parallel reads them; or an error unless both are 1
// to n.
func thresholds(p Params, n int) (success, failure int, err error) {
	success, failure = p.Success, p.Failure
	if success < 0 {
		success += n + 1
	}
	if failure < 0 {
		failure += n + 1
	}
	if success < 1 || success > n {
		return 0, 0, fmt.Errorf("threshold: success count %d is not 1 to %d (or -1 to -%d) for %d children", p.Success, n, n, n)
	}
	if failure < 1 || failure > n {
		return 0, 0, fmt.Errorf("threshold: failure count %d is not 1 to %d (or -1 to -%d) for %d children", p.Failure, n, n, n)
	}
	return success, failure, nil
}

// checkLottoWeights checks a Lotto's optional weights.
func checkLottoWeights(ws []int, children int) error {
	if ws == nil {
		return nil
	}
	if len(ws) != children {
		return fmt.Errorf("lotto has %d children but %d weights", children, len(ws))
	}
	total := 0
	for i, w := range ws {
		if w < 0 {
			return fmt.Errorf("lotto: weights[%d] must be >= 0, got %d", i, w)
		}
		w = max(w, 1)
		if total > maxWeightTotal-w {
			return fmt.Errorf("lotto: weights add up to more than %d", maxWeightTotal)
		}
		total += w
	}
	return nil
}

// checkBound checks the count of a Repeat or Retry, or a Wait's duration,
// named what in messages.
func checkBound(name, what string, p Params) error {
	switch p.Bound {
	case Unbounded:
		return nil
	case Fixed:
		if p.Min < 0 || p.Min > maxRepeat {
			return fmt.Errorf("%s: %s must be 0 to %d, got %d", name, what, maxRepeat, p.Min)
		}
		return nil
	case Ranged:
		if p.Min < 0 || p.Min > maxRepeat || p.Max < 0 || p.Max > maxRepeat {
			return fmt.Errorf("%s: %s must be 0 to %d, got [%d,%d]", name, what, maxRepeat, p.Min, p.Max)
		}
		if p.Min > p.Max {
			return fmt.Errorf("%s: %s minimum %d is more than maximum %d", name, what, p.Min, p.Max)
		}
		return nil
	}
	return fmt.Errorf("%s: unknown bound %d", name, p.Bound)
}

// checkN checks RepeatN's count.
func checkN(n int) error {
	if n < 2 {
		return fmt.Errorf("repeat_n needs n >= 2, got %d", n)
	}
	if n > maxRepeat {
		return fmt.Errorf("repeat_n needs n <= %d, got %d", maxRepeat, n)
	}
	return nil
}

// checkWeights checks RandomWeighted's weights.
func checkWeights(ws []int, children int) error {
	if len(ws) != children {
		return fmt.Errorf("random_weighted has %d weights for %d children", len(ws), children)
	}
	total := 0
	for i, w := range ws {
		if w <= 0 {
			return fmt.Errorf("random_weighted: weights[%d] must be > 0, got %d", i, w)
		}
		if total > maxWeightTotal-w {
			return fmt.Errorf("random_weighted: weights add up to more than %d", maxWeightTotal)
		}
		total += w
	}
	return nil
}

// Build returns a node of kind k with params p over children: the
// constructor of k called with them (Select for KindSelect, RepeatN with
// p.N for KindRepeatN, and so on). Fields of p that k does not take are
// ignored. It is how code that handles every kind at once (readers,
// generators, shrinkers) makes nodes; where the kind is known, call its
// constructor.
//
// Build returns an error for a wrong number of children, a parameter out
// of range, a zero child, and for KindLeaf and KindCustom, which have their
// own constructors ([Leaf], [CustomNode]).
func Build[L any](k Kind, p Params, children ...Node[L]) (Node[L], error) {
	if k >= numKinds || kinds[k].carries || k == KindCustom {
		return Node[L]{}, fmt.Errorf("behaviortree.Build: cannot build a %s node; use its constructor", k)
	}
	if err := k.check(p, len(children)); err != nil {
		return Node[L]{}, fmt.Errorf("behaviortree.Build: %w", err)
	}
	for i, c := range children {
		if c.n == nil {
			return Node[L]{}, fmt.Errorf("behaviortree.Build: child %d is the zero Node", i)
		}
	}
	nd := build(k, p, children)
	if nd.n == nil {
		return nd, fmt.Errorf("behaviortree.Build: %s: %w", kinds[k].name, errTooBig)
	}
	return nd, nil
}

// errTooBig is the error of a definition with more than maxNodes places.
var errTooBig = fmt.Errorf("the tree would have more than %d places", maxNodes)

// build makes a node of kind k whose params and children were checked. It
// returns the zero Node for a definition of more than maxNodes places.
func build[L any](k Kind, p Params, children []Node[L]) Node[L] {
	nd := inner(k, children)
	if nd.n == nil {
		return nd
	}
	switch kinds[k].param {
	case paramN:
		nd.n.n = p.N
	case paramWeights:
		nd.n.setWeights(p.Weights)
	case paramLotto:
		if p.Weights != nil {
			nd.n.weights = append([]int(nil), p.Weights...)
		}
	case paramBound:
		nd.n.bound, nd.n.min, nd.n.max = p.Bound, p.Min, p.Max
		if p.Bound == Fixed {
			nd.n.max = p.Min
		}
		nd.n.random = nd.n.random || p.Bound == Ranged
	case paramThreshold, paramCounts:
		nd.n.success, nd.n.failure = p.Success, p.Failure
	}
	return nd
}

// mustBuild is build for constructors: it panics with the table's message,
// qualified by the constructor's name, when params or children are wrong.
func mustBuild[L any](k Kind, p Params, children []Node[L]) Node[L] {
	ctor := kinds[k].ctor
	if len(children) == 0 && kinds[k].arity == someChildren {
		panic("behaviortree." + ctor + ": no children")
	}
	for i, c := range children {
		if c.n == nil {
			if kinds[k].arity == oneChild {
				panic("behaviortree." + ctor + ": child is the zero Node")
			}
			panic(fmt.Sprintf("behaviortree.%s: child %d is the zero Node", ctor, i))
		}
	}
	if err := k.check(p, len(children)); err != nil {
		panic("behaviortree." + ctor + ": " + err.Error())
	}
	nd := build(k, p, children)
	if nd.n == nil {
		panic("behaviortree." + ctor + ": " + errTooBig.Error())
	}
	return nd
}

// Params returns n's parameters: its count for a RepeatN, its weights (a
// new slice) for a RandomWeighted, and the zero Params for other kinds.
func (n Node[L]) Params() Params {
	nd := n.must("Params")
	switch kinds[nd.kind].param {
	case paramN:
		return Params{N: nd.n}
	case paramWeights:
		return Params{Weights: append([]int(nil), nd.weights...)}
	case paramLotto:
		if nd.weights == nil {
			return Params{}
		}
		return Params{Weights: append([]int(nil), nd.weights...)}
	case paramBound:
		return Params{Bound: nd.bound, Min: nd.min, Max: nd.max}
	case paramThreshold, paramCounts:
		return Params{Success: nd.success, Failure: nd.failure}
	}
	return Params{}
}

// appendParams appends how nd's parameters print in String: "[2]" for a
// RepeatN, "[3,1]" for a RandomWeighted, nothing for other kinds. JSON
// writing uses the same table entry to write "n" and "weights".
func (nd *node[L]) appendParams(b *strings.Builder) {
	switch kinds[nd.kind].param {
	case paramN:
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(nd.n))
		b.WriteByte(']')
	case paramWeights, paramLotto:
		if nd.weights == nil {
			return
		}
		b.WriteByte('[')
		for i, w := range nd.weights {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(w))
		}
		b.WriteByte(']')
	case paramBound:
		switch nd.bound {
		case Fixed:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(nd.min))
			b.WriteByte(']')
		case Ranged:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(nd.min))
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(nd.max))
			b.WriteByte(']')
		}
	case paramThreshold:
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(nd.success))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(nd.failure))
		b.WriteByte(']')
	case paramCounts: // in ReactiveParallel's order: fail, succeed
		b.WriteByte('[')
		b.WriteString(strconv.Itoa(nd.failure))
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(nd.success))
		b.WriteByte(']')
	}
}
