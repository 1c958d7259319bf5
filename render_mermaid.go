package behaviortree

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// mermaidText returns s as the text of a Mermaid node, to go between
// double quotes: letters, digits, spaces and a few safe punctuation
// marks stay, and every other character becomes an entity code ("#34;"
// for a quote, "#91;" for "["), which Mermaid decodes. So no label can
// end the string, open a shape or start markup.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9',
			r == ' ', r == '_', r == '-', r == '.', r == ',', r == ':', r == '+', r == '=', r == '!', r == '?', r == '@', r == '$', r == '%', r == '\'':
			b.WriteRune(r)
		default:
			b.WriteByte('#')
			b.WriteString(strconv.Itoa(int(r)))
			b.WriteByte(';')
		}
	}
	return b.String()
}

// mermaidClassChunk is the number of node ids per class line.
const mermaidClassChunk = 40

// WriteMermaid writes p to w as a Mermaid flowchart, top down
// ("flowchart TD"): one node per tree node (ids n0, n1, ... in preorder),
// its text the kind and parameters, then the label and attributes, all
// characters that Mermaid could read as syntax written as entity codes;
// shaped by kind (see below); one edge per parent and child, in child
// order; a classDef per state (ready, running, succeeded, failed) and
// class lines putting each node in its state's class; and style lines
// giving the focus a thick blue border and the reactive kinds a dashed
// one.
//
// Shapes: a stadium for an action, a circle for a condition, a
// flag for a wait, a rectangle for a sequence, a rhombus for a selector, a
// parallelogram for parallel, race and all, a parallelogram leaning the
// other way for a threshold, a trapezoid for random, random_weighted and
// lotto, a subroutine for a root, a hexagon for the other decorators and
// a cylinder for a custom node. The reactive kinds draw as their twins
// with a dashed border: reactive_sequence as a sequence, reactive_selector
// as a selector, reactive_parallel as a parallel, and empty_inverter as a
// flip. A kind that is not one of the package's draws as a rectangle
// with a dotted border.
//
// Mermaid itself renders at most 50,000 characters of text and 500 edges
// by default (its maxTextSize and maxEdges settings), so pictures of big
// trees need those raised. WriteMermaid returns an error for a Picture
// whose nodes are not in preorder (see [Picture]) or that w refuses.
func (p Picture) WriteMermaid(w io.Writer) error {
	if _, err := p.check(); err != nil {
		return fmt.Errorf("behaviortree.Picture.WriteMermaid: %w", err)
	}
	bw := bufio.NewWriter(w)
	bw.WriteString("flowchart TD\n")
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		text := nd.Word() + nd.Params
		if nd.Label != "" {
			text += " " + nd.Label
		}
		if nd.Attrs != "" {
			text += " " + nd.Attrs
		}
		lk := lookOf(nd.Kind)
		fmt.Fprintf(bw, "    n%d%s\"%s\"%s\n", i, lk.open, mermaidText(cleanLabel(text)), lk.close)
	}
	for i := 1; i < len(p.Nodes); i++ {
		fmt.Fprintf(bw, "    n%d --> n%d\n", p.Nodes[i].Parent, i)
	}
	var byState [4][]int
	for i := range p.Nodes {
		if s := p.Nodes[i].State; int(s) < len(byState) {
			byState[s] = append(byState[s], i)
		}
	}
	for s := range byState {
		fill, border := stateColor(State(s))
		fmt.Fprintf(bw, "    classDef %s fill:%s,stroke:%s,color:#000000\n", stateName(State(s)), fill, border)
	}
	for s, ids := range byState {
		for len(ids) > 0 {
			k := min(len(ids), mermaidClassChunk)
			bw.WriteString("    class ")
			for j, id := range ids[:k] {
				if j > 0 {
					bw.WriteByte(',')
				}
				bw.WriteByte('n')
				bw.WriteString(strconv.Itoa(id))
			}
			bw.WriteByte(' ')
			bw.WriteString(stateName(State(s)))
			bw.WriteByte('\n')
			ids = ids[k:]
		}
	}
	for i := range p.Nodes {
		border, focus := lookOf(p.Nodes[i].Kind).border, p.Nodes[i].Focus
		switch {
		case focus && border != "":
			fmt.Fprintf(bw, "    style n%d stroke:%s,stroke-width:4px,%s\n", i, focusColor, border)
		case focus:
			fmt.Fprintf(bw, "    style n%d stroke:%s,stroke-width:4px\n", i, focusColor)
		case border != "":
			fmt.Fprintf(bw, "    style n%d %s\n", i, border)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("behaviortree.Picture.WriteMermaid: %w", err)
	}
	return nil
}
