package behaviortree

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// This file draws a Picture as text, in ASCII or Unicode.

// TextStyle says how [Picture.WriteText] draws branches and states.
type TextStyle uint8

// The text styles.
const (
	// Unicode draws branches with box-drawing characters (├─ └─ │), states
	// as ○ ready, ▶ running, ✔ succeeded, ✘ failed, and marks the focus
	// with "◀ focus".
	Unicode TextStyle = iota
	// ASCII draws branches with |- `- and |, states as [ ] ready,
	// [>] running, [+] succeeded, [x] failed, and marks the focus with
	// "<- focus".
	ASCII
)

// textGlyphs are the pieces of one TextStyle.
type textGlyphs struct {
	tee, elbow, pipe, blank string
	states                  [4]string
	focus                   string
}

var glyphs = [...]textGlyphs{
	Unicode: {"├─ ", "└─ ", "│  ", "   ", [4]string{"○", "▶", "✔", "✘"}, "  ◀ focus"},
	ASCII:   {"|- ", "`- ", "|  ", "   ", [4]string{"[ ]", "[>]", "[+]", "[x]"}, "  <- focus"},
}

// maxTextIndent is the number of levels of branches that [Picture.WriteText]
// draws in front of a node.
const maxTextIndent = 48

// WriteText writes p to w in the given style, one node per line: the
// branches from its parent, its state, its kind (as the table of kinds
// names it), its parameters, its label (a leaf's value), its attributes,
// and the focus mark. For example, in the ASCII style:
//
//	[>] sequence
//	|- [+] leaf top_left
//	`- [>] repeat_until_fail
//	   `- [>] select
//	      |- [x] leaf go_right
//	      `- [>] leaf beginning_of_next_row  <- focus
//
// A node more than 48 levels deep is drawn with its depth in front
// ("…(depth 5000) ") and only the last 48 levels of branches, so that a
// chain of 100,000 decorators prints in linear space. It uses no
// recursion, and returns an error for a Picture whose nodes are not in
// preorder (see [Picture]) or that w refuses.
func (p Picture) WriteText(w io.Writer, style TextStyle) error {
	if int(style) >= len(glyphs) {
		return fmt.Errorf("behaviortree.Picture.WriteText: unknown style %d", style)
	}
	last, err := p.check()
	if err != nil {
		return fmt.Errorf("behaviortree.Picture.WriteText: %w", err)
	}
	g := &glyphs[style]
	bw := bufio.NewWriter(w)
	more := make([]bool, 0, 64) // more[d]: the ancestor at depth d has siblings after it
	for i := range p.Nodes {
		nd := &p.Nodes[i]
		d := nd.Depth
		more = append(more[:min(d, len(more))], false)
		if d > 0 {
			from := 1
			if d-1 > maxTextIndent {
				from = d - maxTextIndent
				if style == ASCII {
					fmt.Fprintf(bw, "...(depth %d) ", d)
				} else {
					fmt.Fprintf(bw, "…(depth %d) ", d)
				}
			}
			for k := from; k < d; k++ {
				if more[k] {
					bw.WriteString(g.pipe)
				} else {
					bw.WriteString(g.blank)
				}
			}
			if last[i] {
				bw.WriteString(g.elbow)
			} else {
				bw.WriteString(g.tee)
			}
			more[d] = !last[i]
		}
		if int(nd.State) < len(g.states) {
			bw.WriteString(g.states[nd.State])
		} else {
			bw.WriteString("?")
		}
		bw.WriteByte(' ')
		bw.WriteString(nd.Word())
		bw.WriteString(nd.Params)
		if nd.Label != "" {
			bw.WriteByte(' ')
			bw.WriteString(termLabel(nd.Label))
		}
		if nd.Attrs != "" {
			bw.WriteByte(' ')
			bw.WriteString(termLabel(nd.Attrs))
		}
		if nd.Focus {
			bw.WriteString(g.focus)
		}
		if err := bw.WriteByte('\n'); err != nil {
			break
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("behaviortree.Picture.WriteText: %w", err)
	}
	return nil
}

// String returns p in the [Unicode] text style, or the error's message
// for a Picture that is not in preorder.
func (p Picture) String() string {
	var b strings.Builder
	if err := p.WriteText(&b, Unicode); err != nil {
		return err.Error()
	}
	return b.String()
}

// check checks that p's nodes are in preorder (see [Picture]) and returns,
// for each node, whether it is its parent's last child.
func (p Picture) check() ([]bool, error) {
	if len(p.Nodes) == 0 {
		return nil, fmt.Errorf("the picture has no nodes")
	}
	if p.Nodes[0].Parent != -1 || p.Nodes[0].Depth != 0 {
		return nil, fmt.Errorf("node 0 has parent %d and depth %d, want -1 and 0", p.Nodes[0].Parent, p.Nodes[0].Depth)
	}
	last := make([]bool, len(p.Nodes))
	lastKid := make([]int, len(p.Nodes))
	// open holds the path from the root to the previous node: a node's
	// parent must be on it, since its subtree must be contiguous.
	open := []int{0}
	for i := 1; i < len(p.Nodes); i++ {
		nd := &p.Nodes[i]
		par := nd.Parent
		if par < 0 || par >= i {
			return nil, fmt.Errorf("node %d has parent %d: want a node before it", i, par)
		}
		if nd.Depth != p.Nodes[par].Depth+1 {
			return nil, fmt.Errorf("node %d has depth %d, but its parent %d has depth %d", i, nd.Depth, par, p.Nodes[par].Depth)
		}
		pd := p.Nodes[par].Depth
		if pd >= len(open) || open[pd] != par {
			return nil, fmt.Errorf("node %d: its parent %d's subtree has ended (nodes not in preorder)", i, par)
		}
		open = append(open[:pd+1], i)
		lastKid[par] = i
	}
	for i := 1; i < len(p.Nodes); i++ {
		last[i] = lastKid[p.Nodes[i].Parent] == i
	}
	last[0] = true
	return last, nil
}
