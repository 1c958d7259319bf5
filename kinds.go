package behaviortree

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/zipbt/behaviortree/kind"
)

// This file is the table of node kinds: for every kind, what the root
// alone needs of it (its Elixir JSON names, its constructor, whether it
// draws, how it is drawn, whether the stepped engine may evaluate it
// afresh), beside the facts that package kind holds (names, arity,
// parameter, styles), which withFacts copies into each row. Parameters are
// checked and printed here. The constructors, String, the Elixir JSON form
// and the pictures (render*.go) read the table; the module's clients
// (packages mdsl, mistreevous and proptest, the bt command, the viewer)
// read package kind. So a new kind is one row there, one row here, plus
// its runtime rules (see DESIGN.md, "A new kind").

// numKinds is the number of kinds: the table below has a row for each.
const numKinds = kind.EmptyInverter + 1

// arity is how many children a kind takes, and param the parameter a kind
// may take besides its children: package kind's.
type (
	arity = kind.Arity
	param = kind.Param
)

const (
	noChildren   = kind.NoChildren   // a leaf
	oneChild     = kind.OneChild     // a decorator
	someChildren = kind.SomeChildren // one or more
	anyChildren  = kind.AnyChildren  // zero or more (the reactive kinds)

	paramNone      = kind.ParamNone
	paramN         = kind.ParamN         // Params.N: a count >= 2 (RepeatN)
	paramWeights   = kind.ParamWeights   // Params.Weights: one weight > 0 per child (RandomWeighted)
	paramLotto     = kind.ParamLotto     // Params.Weights: none, or one weight >= 0 per child (Lotto)
	paramBound     = kind.ParamBound     // Params.Bound, Min, Max: a count or duration (Repeat, Retry, Wait)
	paramThreshold = kind.ParamThreshold // Params.Success, Failure: M-of-N counts (Threshold)
	paramCounts    = kind.ParamCounts    // Params.Failure, Success: any ints, per-step counts (ReactiveParallel)
)

// kindInfo is one entry of the table of kinds.
type kindInfo struct {
	alias  string // another Elixir JSON name read as this kind, or ""
	elixir bool   // the kind is in the Elixir JSON form (ParseJSON, Node.MarshalJSON)
	ctor   string // the Go constructor, for its panics
	draws  bool   // entering it draws from the tree's random state
	// The facts of package kind, copied by withFacts: Kind.Arity,
	// Param, Mistreevous, MDSL, Carries and BoundName, and stepped, which
	// is !RunsOn(kind.ValueSucceedFail) (Start refuses it).
	arity       arity
	param       param
	mistreevous string
	mdsl        string
	bound       string
	stepped     bool
	carries     bool
	// frontier: in the Value/Succeed/Fail style, entering it enters every
	// child at once, and it ends by M-of-N thresholds (parallel.go).
	frontier bool
	// passed is what [Tree.Picture] shows for the children of a node of
	// this kind before the one that the focus path goes through: succeeded
	// for a sequence, failed for a select (seqRules' goOn, set by
	// withFacts); StateReady (not known) for the other kinds.
	passed State
	// look is how [Picture.WriteDOT] and [Picture.WriteMermaid] draw it;
	// the zero look draws as lookUnknown, which no kind should have.
	look look
	// pure: a node of the kind keeps nothing between updates of the
	// stepped engine when it has no guard or callback, so that a subtree
	// of pure nodes may be evaluated afresh at once (markPure, stepped_pure.go).
	pure bool
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
func lookOf(k kind.Kind) look {
	if k < numKinds && kinds[k].look.dot != "" {
		return kinds[k].look
	}
	return lookUnknown
}

// kinds is the table of node kinds, indexed by Kind. The facts that
// package kind holds (arity, parameter, names, styles) are copied into
// each row from there (withFacts), for the engines' quick reads.
var kinds = withFacts([numKinds]kindInfo{
	kind.Leaf:               {ctor: "Leaf", look: lookAction, pure: true},
	kind.Select:             {elixir: true, ctor: "Select", look: lookSelect},
	kind.Sequence:           {elixir: true, ctor: "Sequence", look: lookSequence},
	kind.RepeatUntilFail:    {alias: "continually", elixir: true, ctor: "RepeatUntilFail", look: lookDecorator},
	kind.RepeatUntilSucceed: {elixir: true, ctor: "RepeatUntilSucceed", look: lookDecorator},
	kind.RepeatN:            {elixir: true, ctor: "RepeatN", look: lookDecorator},
	kind.Random:             {elixir: true, ctor: "Random", draws: true, look: lookRandom},
	kind.RandomWeighted:     {elixir: true, ctor: "RandomWeighted", draws: true, look: lookRandom},
	kind.AlwaysSucceed:      {elixir: true, ctor: "AlwaysSucceed", look: lookDecorator, pure: true},
	kind.AlwaysFail:         {elixir: true, ctor: "AlwaysFail", look: lookDecorator, pure: true},
	kind.Negate:             {elixir: true, ctor: "Negate", look: lookDecorator, pure: true},
	kind.Custom:             {ctor: "CustomNode", look: lookCustom},
	kind.Root:               {ctor: "Root", look: lookRoot, pure: true},
	kind.Condition:          {ctor: "Condition", look: lookCondition, pure: true},
	kind.Wait:               {ctor: "Wait", look: lookWait},
	kind.Parallel:           {ctor: "Parallel", frontier: true, look: lookParallel},
	kind.Race:               {ctor: "Race", frontier: true, look: lookParallel},
	kind.All:                {ctor: "All", look: lookParallel},
	kind.Lotto:              {ctor: "Lotto", look: lookRandom},
	kind.Repeat:             {ctor: "Repeat", look: lookDecorator},
	kind.Retry:              {ctor: "Retry", look: lookDecorator},
	kind.Threshold:          {ctor: "Threshold", frontier: true, look: lookThreshold},
	kind.ReactiveSequence:   {ctor: "ReactiveSequence", look: dashed(lookSequence), pure: true},
	kind.ReactiveSelect:     {ctor: "ReactiveSelect", look: dashed(lookSelect), pure: true},
	kind.ReactiveParallel:   {ctor: "ReactiveParallel", look: dashed(lookParallel), pure: true},
	kind.EmptyInverter:      {ctor: "EmptyInverter", look: dashed(lookDecorator), pure: true},
})

// withFacts returns t with the facts of each row's kind from package kind,
// and passed from the rule of sequences and selects (seqRules).
func withFacts(t [numKinds]kindInfo) [numKinds]kindInfo {
	for i := range t {
		k, info := kind.Kind(i), &t[i]
		info.arity, info.param, info.bound = k.Arity(), k.Param(), k.BoundName()
		info.mistreevous, info.mdsl, info.carries = k.Mistreevous(), k.MDSL(), k.Carries()
		info.stepped = !k.RunsOn(kind.ValueSucceedFail)
		if r := seqRules[k]; r.is && !r.reactive {
			info.passed = r.goOn // the children before the focused one went on
		}
	}
	return t
}

// kindByMistreevous maps the Mistreevous JSON type names to their kinds
// ("branch" is not a kind: the reader expands it).
var kindByMistreevous = func() map[string]kind.Kind {
	m := make(map[string]kind.Kind)
	for k := kind.Kind(0); k < numKinds; k++ {
		if n := kinds[k].mistreevous; n != "" {
			m[n] = k
		}
	}
	return m
}()

// kindByName maps the Elixir JSON names of inner kinds to their kinds.
var kindByName = func() map[string]kind.Kind {
	m := make(map[string]kind.Kind)
	for k := kind.Leaf + 1; k < numKinds; k++ {
		if !kinds[k].elixir {
			continue
		}
		m[k.String()] = k
		if a := kinds[k].alias; a != "" {
			m[a] = k
		}
	}
	return m
}()

// Limits on parameters, the same on 32- and 64-bit platforms.
const (
	maxRepeat      = 1<<31 - 1 // RepeatN's largest count
	maxWeightTotal = 1<<31 - 1 // the largest sum of a RandomWeighted's weights
)

// check returns an error saying what is wrong with a node of kind k with
// params p and the given number of children, or nil. Its messages are the
// ones that constructors panic with and that JSON reading reports with the
// node's path.
func checkKind(k kind.Kind, p kind.Params, children int) error {
	info := kinds[k]
	switch {
	case info.arity == noChildren && children != 0:
		return fmt.Errorf("%s takes no children, got %d", k.String(), children)
	case info.arity == oneChild && children != 1:
		return fmt.Errorf("%s needs exactly 1 child, got %d", k.String(), children)
	case info.arity == someChildren && children == 0:
		return fmt.Errorf("%s needs at least one child, got none", k.String())
	}
	switch info.param {
	case paramN:
		return checkN(p.N)
	case paramWeights:
		return checkWeights(p.Weights, children)
	case paramLotto:
		return checkLottoWeights(p.Weights, children)
	case paramBound:
		return checkBound(k.String(), info.bound, p)
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
func thresholds(p kind.Params, n int) (success, failure int, err error) {
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

// concurrentNeeds is the rule of Parallel and Race, in both styles: over n
// children, a node of kind k fails once fail children have failed, and
// succeeds once succeed children have succeeded. A Parallel fails at the
// first failure and succeeds when all succeed; a Race is its mirror image.
// The stepped engine reads it in concurrent, the Value/Succeed/Fail style
// in parallelNeeds (with Threshold, whose counts are its parameters).
func concurrentNeeds(k kind.Kind, n int) (fail, succeed int) {
	if k == kind.Race {
		return n, 1
	}
	return 1, n
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
func checkBound(name, what string, p kind.Params) error {
	switch p.Bound {
	case kind.Unbounded:
		return nil
	case kind.Fixed:
		if p.Min < 0 || p.Min > maxRepeat {
			return fmt.Errorf("%s: %s must be 0 to %d, got %d", name, what, maxRepeat, p.Min)
		}
		return nil
	case kind.Ranged:
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
// constructor of k called with them (Select for kind.Select, RepeatN with
// p.N for kind.RepeatN, and so on). Fields of p that k does not take are
// ignored. It is how code that handles every kind at once (readers,
// generators, shrinkers) makes nodes; where the kind is known, call its
// constructor.
//
// A Wait's p.Min and p.Max are milliseconds (see [Node.Params]).
//
// Build returns an error for a wrong number of children, a parameter out
// of range, a zero child, and for kind.Leaf and kind.Custom, which have their
// own constructors ([Leaf], [CustomNode]).
func Build[L any](k kind.Kind, p kind.Params, children ...Node[L]) (Node[L], error) {
	if k >= numKinds || kinds[k].carries || k == kind.Custom {
		return Node[L]{}, fmt.Errorf("behaviortree.Build: cannot build a %s node; use its constructor", k)
	}
	if err := checkKind(k, p, len(children)); err != nil {
		return Node[L]{}, fmt.Errorf("behaviortree.Build: %w", err)
	}
	for i, c := range children {
		if c.n == nil {
			return Node[L]{}, fmt.Errorf("behaviortree.Build: child %d is the zero Node", i)
		}
	}
	nd := build(k, p, children)
	if nd.n == nil {
		return nd, fmt.Errorf("behaviortree.Build: %s: %w", k.String(), errTooBig)
	}
	return nd, nil
}

// errTooBig is the error of a definition with more than maxNodes places.
var errTooBig = fmt.Errorf("the tree would have more than %d places", maxNodes)

// build makes a node of kind k whose params and children were checked. It
// returns the zero Node for a definition of more than maxNodes places.
func build[L any](k kind.Kind, p kind.Params, children []Node[L]) Node[L] {
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
		if p.Bound == kind.Fixed {
			nd.n.max = p.Min
		}
		nd.n.random = nd.n.random || p.Bound == kind.Ranged
	case paramThreshold, paramCounts:
		nd.n.success, nd.n.failure = p.Success, p.Failure
	}
	return nd
}

// mustBuild is build for constructors: it panics with the table's message,
// qualified by the constructor's name, when params or children are wrong.
func mustBuild[L any](k kind.Kind, p kind.Params, children []Node[L]) Node[L] {
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
	if err := checkKind(k, p, len(children)); err != nil {
		panic("behaviortree." + ctor + ": " + err.Error())
	}
	nd := build(k, p, children)
	if nd.n == nil {
		panic("behaviortree." + ctor + ": " + errTooBig.Error())
	}
	return nd
}

// Params returns n's parameters: the fields of [kind.Params] that its kind
// takes (weights in a new slice), and zero values for the others. A
// Wait's Min and Max are milliseconds, as in MDSL and Mistreevous JSON,
// though [Wait] takes a time.Duration.
func (n Node[L]) Params() kind.Params {
	nd := n.must("Params")
	switch kinds[nd.kind].param {
	case paramN:
		return kind.Params{N: nd.n}
	case paramWeights:
		return kind.Params{Weights: append([]int(nil), nd.weights...)}
	case paramLotto:
		if nd.weights == nil {
			return kind.Params{}
		}
		return kind.Params{Weights: append([]int(nil), nd.weights...)}
	case paramBound:
		return kind.Params{Bound: nd.bound, Min: nd.min, Max: nd.max}
	case paramThreshold, paramCounts:
		return kind.Params{Success: nd.success, Failure: nd.failure}
	}
	return kind.Params{}
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
		case kind.Fixed:
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(nd.min))
			b.WriteByte(']')
		case kind.Ranged:
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
