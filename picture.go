package behaviortree

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/termsafe"
	"github.com/zipbt/behaviortree/kind"
)

// This file holds Picture, the drawable form of a definition or of a
// version with its node states. render_text.go draws a Picture as text
// (ASCII and Unicode), render_dot.go and render_mermaid.go as Graphviz DOT
// and Mermaid; package viewer draws a sequence of them as an HTML replay.

// Picture is a tree as it is drawn: its nodes in depth-first preorder, each
// with its kind, label and parameters, its state, and whether it is the
// focus. Get one from a definition ([Node.Picture]: every node ready), from
// a Value/Succeed/Fail version ([Tree.Picture]) or from a stepped version
// ([Stepped.Picture]), and draw it with [Picture.WriteText],
// [Picture.WriteDOT] or [Picture.WriteMermaid].
//
// A Picture is plain data and may be built or edited by hand: Nodes[0] is
// the root (Parent -1, Depth 0), and every other node comes after its
// parent, with Depth one more than its parent's, in preorder (a node's
// subtree follows it). The writers check this and return an error for a
// Picture that breaks it.
type Picture struct {
	Nodes []PictureNode
}

// PictureNode is one node of a [Picture].
type PictureNode struct {
	Parent int       // the parent's index in Picture.Nodes; -1 for the root
	Depth  int       // 0 for the root
	Kind   kind.Kind // drawn by its MDSL keyword ("selector", "repeat_n", ...) unless Type is set: see Word; gives the shape in DOT and Mermaid
	Type   string    // the type name in the node's own format, such as BehaviorTree.CPP's "Fallback": drawn instead of Kind's word when set
	Label  string    // a leaf's value (fmt's %v), a custom node's Traversal type; "" for other nodes
	Params string    // the parameters as [Node.String] prints them: "[2]", "[3,1]"; "" for none
	Attrs  string    // a stepped node's guards and callbacks: "while(x) exit(y)"; "" for none
	State  State     // StateReady for a definition
	Focus  bool      // the Tree's focused leaf, or a running tip of a Stepped tree
}

// Word returns the word that every picture and page shows for n's kind:
// its Type when set (a node of another format, such as BehaviorTree.CPP's
// "Fallback"; control characters escaped as Go does), else its MDSL
// keyword ("action", "selector", "flip", "repeat_until_fail", ...), the
// one word the text, the pictures, the viewer and bt play share; the
// kind's name ("custom") for a custom node, which has none; and "Kind(N)"
// for a value that is no kind.
func (n PictureNode) Word() string {
	if n.Type != "" {
		return cleanLabel(n.Type)
	}
	return kindWord(n.Kind)
}

// kindWord is [PictureNode.Word] for kind k.
func kindWord(k kind.Kind) string {
	if k < numKinds && kinds[k].mdsl != "" {
		return kinds[k].mdsl
	}
	return k.String()
}

// Picture returns n's definition as a [Picture]: every node ready, no
// focus. It uses an explicit stack, so any depth is fine.
func (n Node[L]) Picture() Picture {
	root := n.must("Picture")
	p := Picture{Nodes: make([]PictureNode, 0, root.size)}
	appendDef(&p, root, -1, 0)
	return p
}

// appendDef appends the nodes of the definition root to p in preorder,
// root's parent being parent at the given depth.
func appendDef[L any](p *Picture, root *node[L], parent, depth int) {
	type item struct {
		nd            *node[L]
		parent, depth int
	}
	stack := []item{{root, parent, depth}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		nd := it.nd
		pn := PictureNode{Parent: it.parent, Depth: it.depth, Kind: nd.kind}
		switch {
		case kinds[nd.kind].carries:
			pn.Label = cleanLabel(fmt.Sprint(nd.leaf))
		case nd.kind == kind.Custom:
			pn.Label = cleanLabel(fmt.Sprintf("%T", nd.custom))
		}
		var b strings.Builder
		nd.appendParams(&b)
		pn.Params = b.String()
		if nd.attrs != nil {
			pn.Attrs = attrsText(nd.attrs)
		}
		me := len(p.Nodes)
		p.Nodes = append(p.Nodes, pn)
		for i := len(nd.children) - 1; i >= 0; i-- {
			stack = append(stack, item{nd.children[i], me, it.depth + 1})
		}
	}
}

// attrsText is how a node's attributes print: "while(x) exit(y)", in the
// order of [Node.Attrs], "then succeed" after a guard made with
// [attr.Attr.ThenSucceed].
func attrsText[L any](at *attrs[L]) string {
	var b strings.Builder
	for k := attr.KindWhile; k < numAttrs; k++ {
		if !at.has[k] {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(k.String())
		b.WriteByte('(')
		b.WriteString(cleanLabel(fmt.Sprint(at.a[k].Value)))
		b.WriteByte(')')
		if at.a[k].SucceedOnAbort {
			b.WriteString(" then succeed")
		}
	}
	return b.String()
}

// cleanLabel makes s printable on one line: invalid UTF-8 becomes U+FFFD,
// and control characters are written as Go escapes ("\n", "\x00").
func cleanLabel(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || unicode.IsControl(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if unicode.IsControl(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// termLabel is cleanLabel(s) safe on a terminal (termsafe.Text: the line
// separators and bidirectional controls quoted too), as the pictures'
// texts write it.
func termLabel(s string) string { return termsafe.Text(cleanLabel(s)) }

// Picture returns the version t as a [Picture]: its definition, with the
// path from the root to the focused leaf running and the leaf the focus.
// A Value/Succeed/Fail version keeps no state for nodes off that path, so the
// picture shows what the path implies: the children of a Sequence before
// the one the path goes through succeeded, those of a Select failed, and
// every other node is ready (not visited in the current pass, as far as
// the version can tell).
func (t Tree[L]) Picture() Picture {
	p := t.Definition().Picture()
	for i, s := range t.NodeStates(nil) {
		p.Nodes[i].State = s
	}
	p.Nodes[t.FocusIndex()].Focus = true
	return p
}

// NodeStates returns the state of every node of t's definition in preorder,
// as [Tree.Picture] shows them, appended to dst[:0]. It allocates only
// when dst is too short, so a viewer can call it for every version of a
// long [History]. [Tree.FocusIndex] is the focused leaf's index, and
// [Stepped.NodeStates] the same for the stepped style.
func (t Tree[L]) NodeStates(dst []State) []State {
	root := t.Definition()
	n := root.n.size
	if cap(dst) < n {
		dst = make([]State, n)
	} else {
		dst = dst[:n]
		clear(dst)
	}
	for p := t.z.focus; p != nil; p = p.parent {
		dst[p.id] = StateRunning
		up := p.parent
		if up == nil || kinds[up.kind].passed == StateReady {
			continue
		}
		done := kinds[up.kind].passed
		for _, sib := range up.children[:p.index] {
			dst[sib.id] = done
		}
	}
	return dst
}

// NodeState returns the state of node i of t's definition (in preorder; 0
// is the root), as [Tree.NodeStates] gives it, in O(depth). It panics if i
// is out of range.
func (t Tree[L]) NodeState(i int) State {
	root := t.Definition()
	if i < 0 || i >= root.n.size {
		panic(fmt.Sprintf("behaviortree.Tree.NodeState: index %d out of range [0,%d)", i, root.n.size))
	}
	for p := t.z.focus; p != nil; p = p.parent {
		if int(p.id) == i {
			return StateRunning
		}
		up := p.parent
		if up == nil || int(up.id) >= i || i >= int(p.id) || kinds[up.kind].passed == StateReady {
			continue
		}
		for _, sib := range up.children[:p.index] {
			if int(sib.id) == i {
				return kinds[up.kind].passed
			}
		}
	}
	return StateReady
}

// FocusIndex returns the preorder index of the focused leaf, the one
// [Tree.Value] names (0 is the root), as [Tree.NodeStates] and
// [Tree.Picture] number the nodes.
func (t Tree[L]) FocusIndex() int {
	if t.z.focus == nil {
		zeroTree("FocusIndex")
	}
	return int(t.z.focus.id)
}

// Picture returns the stepped version t as a [Picture]: its nodes with the
// indexes of [Stepped.NodeState] and [Event.Node] (a definition that is
// not a [Root] gets the implicit root as node 0), each with its state, and
// every running tip (a running node with no running child) the focus.
func (t Stepped[L]) Picture() Picture {
	def := t.Definition()
	var p Picture
	if def.n.kind == kind.Root {
		p.Nodes = make([]PictureNode, 0, def.n.size)
		appendDef(&p, def.n, -1, 0)
	} else {
		p.Nodes = make([]PictureNode, 1, def.n.size+1)
		p.Nodes[0] = PictureNode{Parent: -1, Kind: kind.Root}
		appendDef(&p, def.n, 0, 1)
	}
	if len(p.Nodes) != t.size() {
		panic(fmt.Sprintf("behaviortree.Stepped.Picture: %d nodes drawn for a tree of %d", len(p.Nodes), t.size()))
	}
	runningKid := make([]bool, len(p.Nodes))
	for i := range p.Nodes {
		p.Nodes[i].State = t.NodeState(i)
		if par := p.Nodes[i].Parent; par >= 0 && p.Nodes[i].State == StateRunning {
			runningKid[par] = true
		}
	}
	for i := range p.Nodes {
		p.Nodes[i].Focus = p.Nodes[i].State == StateRunning && !runningKid[i]
	}
	return p
}

// stateName is the lower-case name of a state, for DOT and Mermaid
// classes and the viewer.
func stateName(s State) string {
	switch s {
	case StateReady:
		return "ready"
	case StateRunning:
		return "running"
	case StateSucceeded:
		return "succeeded"
	case StateFailed:
		return "failed"
	}
	return "unknown"
}
