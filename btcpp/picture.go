package btcpp

import (
	"slices"
	"strconv"
	"strings"

	bt "github.com/zipbt/behaviortree"
	btkind "github.com/zipbt/behaviortree/kind"
)

// Picture returns the version t as a [bt.Picture], which package
// behaviortree draws as text, Graphviz DOT or Mermaid and package viewer
// as a page: every node of the built tree in preorder (a SubTree node
// followed by its subtree, as [Tree.Nodes]), each with
//
//   - Type: its registration ID ("Fallback", "Repeat", a Go leaf's ID;
//     "SubTree" for a subtree), which the writers draw as its name;
//   - Label: its name when it differs from the ID; for a SubTree, the
//     tree's ID, followed by the quoted name when the node has one of its
//     own;
//   - Params: its ports as the XML writes them, in name order, in
//     brackets: `[num_cycles=3]`, `[code="x := 1"]` (a value is quoted,
//     Go style, unless it is a plain word or a {key}); a SubTree's
//     remappings;
//   - Attrs: its pre- and post-condition attributes, in the order
//     _failureIf, _successIf, _skipIf, _while, _onSuccess, _onFailure,
//     _post, _onHalted, each as `_skipIf="..."`, and a SubTree's
//     _autoremap=true;
//   - State: its stored status, IDLE as ready, RUNNING as running,
//     SUCCESS as succeeded and FAILURE as failed;
//   - Focus: a running node none of whose children runs (a running leaf,
//     or a Delay waiting to tick its child).
//
// Kind is used by the writers only for the shape of a node (and for its
// name when Type is empty), so each node gets the package's kind that
// looks like it: a built-in's [btkind.CPP.Draw] (Sequence,
// SequenceWithMemory and AsyncSequence draw as sequences, Fallback and
// AsyncFallback as selects, ReactiveSequence and ReactiveFallback as the
// reactive ones (dashed), Parallel as a threshold (M of N) and
// ParallelAll as all, the other controls as custom nodes; Inverter as
// negate, ForceSuccess and ForceFailure as succeed and fail,
// KeepRunningUntilFailure as repeat_until_fail, RetryUntilSuccessful as
// retry and every other decorator as repeat (a decorator's hexagon); a
// SubTree as a root (a house, a subroutine in Mermaid); ScriptCondition
// and WasEntryUpdated as conditions, Sleep as a wait and every other leaf
// as an action), a Go condition as a condition and a Go action as an
// action. A Kind's semantics are not the node's: read Type for what the
// node is.
func (t *Tree) Picture() bt.Picture {
	p := bt.Picture{Nodes: make([]bt.PictureNode, len(t.p.nodes))}
	runningKid := make([]bool, len(t.p.nodes))
	for i := range t.p.nodes {
		nd := &t.p.nodes[i]
		pn := bt.PictureNode{Parent: nd.parent, Kind: pictureKind(nd.k), Type: nd.regID, State: pictureState(t.NodeStatus(i))}
		if nd.parent >= 0 {
			pn.Depth = p.Nodes[nd.parent].Depth + 1
			if pn.State == bt.StateRunning {
				runningKid[nd.parent] = true
			}
		}
		switch {
		case nd.k == subtreeKind:
			pn.Label = nd.typeID
			if nd.name != nd.typeID {
				pn.Label += " " + strconv.Quote(nd.name)
			}
		case nd.name != nd.regID:
			pn.Label = nd.name
		}
		pn.Params = portsText(nd.attrs)
		pn.Attrs = t.attrsText(i)
		p.Nodes[i] = pn
	}
	for i := range p.Nodes {
		p.Nodes[i].Focus = p.Nodes[i].State == bt.StateRunning && !runningKid[i]
	}
	return p
}

// pictureState is the state a status draws as.
func pictureState(s Status) bt.State {
	switch s {
	case Running:
		return bt.StateRunning
	case Success:
		return bt.StateSucceeded
	case Failure:
		return bt.StateFailed
	}
	return bt.StateReady
}

// pictureKind is the kind of package behaviortree whose shape a node of
// kind k takes (see Tree.Picture): a built-in's kind.CPP.Draw, a Go
// condition's Condition, a Go action's Leaf.
func pictureKind(k *kind) btkind.Kind {
	switch {
	case k.cpp != 0:
		return k.cpp.Draw()
	case k.leaf != nil && k.leaf.kind == leafCondition:
		return btkind.Condition
	}
	return btkind.Leaf
}

// portsText is how a node's ports print: "[a=1 code=\"x := 1\"]", in
// name order; "" for none.
func portsText(attrs map[string]string) string {
	if len(attrs) == 0 {
		return ""
	}
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteByte('[')
	for i, n := range names {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(n)
		b.WriteByte('=')
		b.WriteString(quoteValue(attrs[n]))
	}
	b.WriteByte(']')
	return b.String()
}

// quoteValue returns v as it is when it is a plain word (letters, digits
// and _ . : ; @ + - { }), else quoted Go style.
func quoteValue(v string) string {
	if v == "" {
		return `""`
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		plain := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_.:;@+-{}", c) >= 0
		if !plain {
			return strconv.Quote(v)
		}
	}
	return v
}

// attrsText is how node i's pre- and post-condition attributes print:
// `_skipIf="x > 1" _onSuccess="y := 2"`; a SubTree adds _autoremap=true.
func (t *Tree) attrsText(i int) string {
	nd := &t.p.nodes[i]
	var b strings.Builder
	add := func(name, src string) {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(name)
		b.WriteByte('=')
		b.WriteString(strconv.Quote(src))
	}
	for j, s := range nd.pre {
		if s != nil {
			add(preNames[j], s.src)
		}
	}
	for j, s := range nd.post {
		if s != nil {
			add(postNames[j], s.src)
		}
	}
	if nd.k == subtreeKind && len(nd.kids) > 0 {
		if sc := t.p.nodes[nd.kids[0]].scope; sc < len(t.bb.info) && t.bb.info[sc].Auto {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString("_autoremap=true")
		}
	}
	return b.String()
}

// SameTree reports whether t and u are versions of one built tree (made
// by the same Build): what a viewer needs to know to keep drawing the
// same layout.
func (t *Tree) SameTree(u *Tree) bool { return t != nil && u != nil && t.p == u.p }
