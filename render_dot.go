package behaviortree

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// stateColors are the fill and border colours of the states, in DOT,
// Mermaid and the viewer: grey ready, amber running, green succeeded, red
// failed.
var stateColors = [4][2]string{
	StateReady:     {"#f3f3f3", "#999999"},
	StateRunning:   {"#ffe599", "#bf9000"},
	StateSucceeded: {"#b6d7a8", "#38761d"},
	StateFailed:    {"#ea9999", "#990000"},
}

// focusColor is the border colour of the focus.
const focusColor = "#1155cc"

// stateColor returns the fill and border colours of s.
func stateColor(s State) (fill, border string) {
	if int(s) < len(stateColors) {
		return stateColors[s][0], stateColors[s][1]
	}
	return "#ffffff", "#000000"
}

// dotQuote returns s as a DOT double-quoted string: backslashes and
// quotes escaped, so that escString sequences such as \N or \G in a label
// stay literal, and newlines as \n line breaks.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// WriteDOT writes p to w as a Graphviz digraph, top down: one node per
// tree node (named n0, n1, ... in preorder), labelled with its kind and
// parameters on the first line and its label and attributes on the
// second, shaped by kind (see the list below), filled by state (grey
// ready, amber running, green succeeded, red failed), the focus drawn
// with a thick blue double border; and one edge per parent and child, in
// child order.
//
// Shapes: a rounded box for an action, an ellipse for a
// condition, a box for a sequence, a diamond for a selector, a
// parallelogram for parallel, race and all, an octagon for a threshold,
// a trapezium for random, random_weighted and lotto, a house for a root,
// a hexagon for the other decorators, a cds for a wait and a component
// for a custom node. The reactive kinds draw as their twins with a
// dashed border: reactive_sequence as a sequence, reactive_selector as a
// selector, reactive_parallel as a parallel, and empty_inverter as a
// flip. A kind that is not one of the package's draws as a box with a
// dotted border.
//
// It returns an error for a Picture whose nodes are not in preorder (see
// [Picture]) or that w refuses.
func (p Picture) WriteDOT(w io.Writer) error {
	if _, err := p.check(); err != nil {
		return fmt.Errorf("behaviortree.Picture.WriteDOT: %w", err)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph behaviortree {\n")
	bw.WriteString("\tgraph [rankdir=TB, ordering=out, nodesep=0.25, ranksep=0.4];\n")
	bw.WriteString("\tnode [fontname=\"Helvetica\", fontsize=11, margin=\"0.12,0.04\"];\n")
	bw.WriteString("\tedge [arrowsize=0.6, color=\"#666666\"];\n")
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		label := nd.Word() + nd.Params
		if second := strings.TrimSpace(cleanLabel(nd.Label) + " " + cleanLabel(nd.Attrs)); second != "" {
			label += "\n" + second
		}
		lk := lookOf(nd.Kind)
		fill, border := stateColor(nd.State)
		if nd.Focus {
			border = focusColor
		}
		fmt.Fprintf(bw, "\tn%d [label=%s, shape=%s, style=%s, fillcolor=%s, color=%s, tooltip=%s",
			i, dotQuote(label), lk.dot, dotQuote(lk.dotStyle), dotQuote(fill), dotQuote(border), dotQuote(stateName(nd.State)))
		if nd.Focus {
			bw.WriteString(", penwidth=3, peripheries=2, fontname=\"Helvetica-Bold\"")
		}
		bw.WriteString("];\n")
	}
	for i := 1; i < len(p.Nodes); i++ {
		fmt.Fprintf(bw, "\tn%d -> n%d;\n", p.Nodes[i].Parent, i)
	}
	bw.WriteString("}\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("behaviortree.Picture.WriteDOT: %w", err)
	}
	return nil
}
