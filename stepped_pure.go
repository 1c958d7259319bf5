package behaviortree

import "github.com/zipbt/behaviortree/kind"

// The pure evaluation of memoryless subtrees. A subtree whose nodes are
// all reactive composites, Negate, AlwaysSucceed, AlwaysFail, actions,
// conditions or empty inverters, without guards or callbacks, keeps
// nothing between updates: updating it afresh gives what the engine's
// general rules (stepped_rules.go: run's case for the sequences,
// reactiveParallel) give. Without
// events and pending async results, the engine clears its states at once
// and evaluates it afresh (stepped_fresh.go), writing each node's state as
// it is decided.

// markPure sets p.pure for the roots of pure subtrees, if p has any
// reactive node.
func markPure[L any](p *sprogram[L]) {
	has := false
	for i := range p.nodes {
		k := p.nodes[i].kind
		has = has || k == kind.ReactiveSequence || k == kind.ReactiveSelect || k == kind.ReactiveParallel
	}
	if !has {
		return
	}
	p.pure = make([]bool, len(p.nodes))
	for i := len(p.nodes) - 1; i >= 0; i-- { // children come after their parent
		s := &p.nodes[i]
		ok := kinds[s.kind].pure && s.g < 0 && s.at == nil
		for _, c := range s.kids {
			ok = ok && p.pure[c]
		}
		p.pure[i] = ok
	}
}

// pureUpdate evaluates the pure subtree n afresh.
func (s *stepper[L]) pureUpdate(n int32) {
	s.clearSubtree(n)
	s.fresh(n)
}

// badStatus abandons the step: action n returned r, an invalid status.
//
//go:noinline
func (s *stepper[L]) badStatus(n int32, r Status) {
	s.fail(n, "action returned an invalid status %d", r)
}
