package btcpp

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// This file writes element trees back as XML text, in the form the Groot2
// editor writes: an XML declaration, then the elements with two spaces of
// indentation per level, attributes in their order, empty elements
// self-closing. What it writes, parseXML (and so BehaviorTree.CPP) reads
// back to the same tree (names, attributes and children; positions
// aside): values are escaped so that every byte survives TinyXML-2's
// reading, newlines, tabs and carriage returns included (as &#10; &#9;
// &#13;). A strict XML reader (Groot2's) reads it too, unless a value
// holds another control character (written &#N;, which XML 1.0 does not
// allow) or bytes that are not UTF-8.

// xmlDeclaration is the first line writeXML writes.
const xmlDeclaration = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// writeXML writes root and its descendants as an XML document. It fails,
// writing nothing, when parseXML could not read the result back to the
// same tree: a name that is not an XML name for the reader, an attribute
// that appears twice in an element, a NUL byte in a value (the library
// would end the value there), more than MaxXMLElements elements or nesting
// deeper than MaxXMLDepth allows. Errors of w are returned wrapped.
func writeXML(w io.Writer, root *element) error {
	if root == nil {
		return fmt.Errorf("writeXML: no root element")
	}
	if err := checkWritable(root); err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	bw.WriteString(xmlDeclaration)
	writeElement(bw, root, 0)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writeXML: %w", err)
	}
	return nil
}

// checkWritable checks that parseXML reads root, written, back to the same
// tree (see writeXML).
func checkWritable(root *element) error {
	type item struct {
		e     *element
		depth int
	}
	count := 0
	stack := []item{{root, 1}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		e := it.e
		if e == nil {
			return fmt.Errorf("writeXML: a nil child element")
		}
		count++
		if count > MaxXMLElements {
			return fmt.Errorf("writeXML: more than %d elements", MaxXMLElements)
		}
		if !isXMLName(e.Name) {
			return fmt.Errorf("writeXML: %q is not an element name", e.Name)
		}
		// An element with children (or text) is written open, which
		// TinyXML-2 reads to MaxXMLDepth-2 levels; an empty one is
		// self-closing, one level deeper.
		limit := MaxXMLDepth - 1
		if len(e.Children) > 0 || e.Text != "" {
			limit = MaxXMLDepth - 2
		}
		if it.depth > limit {
			return fmt.Errorf("writeXML: <%s> is nested %d levels deep, more than the %d that are read", e.Name, it.depth, limit)
		}
		seen := map[string]bool{}
		for _, a := range e.Attrs {
			if !isXMLName(a.Name) {
				return fmt.Errorf("writeXML: %q is not an attribute name (in <%s>)", a.Name, e.Name)
			}
			if seen[a.Name] {
				return fmt.Errorf("writeXML: attribute %s appears twice in <%s>", a.Name, e.Name)
			}
			seen[a.Name] = true
			for j := 0; j < len(a.Value); j++ {
				if a.Value[j] == 0 {
					return fmt.Errorf("writeXML: the value of the attribute %s of <%s> holds a NUL byte", a.Name, e.Name)
				}
			}
		}
		for i := len(e.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{e.Children[i], it.depth + 1})
		}
	}
	return nil
}

// isXMLName reports whether the reader reads s as a whole name.
func isXMLName(s string) bool {
	if s == "" || !isNameStart(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// writeElement writes e at the given level of indentation; e was checked.
func writeElement(w *bufio.Writer, e *element, level int) {
	indent(w, level)
	w.WriteByte('<')
	w.WriteString(e.Name)
	for _, a := range e.Attrs {
		w.WriteByte(' ')
		w.WriteString(a.Name)
		w.WriteString(`="`)
		escape(w, a.Value, true)
		w.WriteByte('"')
	}
	if len(e.Children) == 0 && e.Text == "" {
		w.WriteString("/>\n")
		return
	}
	w.WriteByte('>')
	escape(w, e.Text, false)
	if len(e.Children) > 0 {
		w.WriteByte('\n')
		for _, c := range e.Children {
			writeElement(w, c, level+1)
		}
		indent(w, level)
	}
	w.WriteString("</")
	w.WriteString(e.Name)
	w.WriteString(">\n")
}

func indent(w *bufio.Writer, level int) {
	for i := 0; i < level; i++ {
		w.WriteString("  ")
	}
}

// escape writes s escaped: & < > always, '"' in attribute values, and
// every ASCII control character (newlines and tabs included) as &#N;.
// Other bytes are written as they are.
func escape(w *bufio.Writer, s string, attr bool) {
	last := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var rep string
		switch {
		case c == '&':
			rep = "&amp;"
		case c == '<':
			rep = "&lt;"
		case c == '>':
			rep = "&gt;"
		case c == '"' && attr:
			rep = "&quot;"
		case c < 0x20 || c == 0x7f:
			rep = "&#" + strconv.Itoa(int(c)) + ";"
		default:
			continue
		}
		w.WriteString(s[last:i])
		w.WriteString(rep)
		last = i + 1
	}
	w.WriteString(s[last:])
}

// clone returns a deep copy of e, which must be a tree (no element
// reachable twice, as parseXML makes them): changing the copy never
// changes e.
func (e *element) clone() *element {
	if e == nil {
		return nil
	}
	c := *e
	c.Attrs = append([]xmlAttr(nil), e.Attrs...)
	if e.Children != nil {
		c.Children = make([]*element, len(e.Children))
		for i, ch := range e.Children {
			c.Children[i] = ch.clone()
		}
	}
	return &c
}

// newRoot returns the <root> element of a document in the form Groot2
// writes: <root BTCPP_format="4" main_tree_to_execute="main">, the
// second attribute only when main is not empty, holding children.
func newRoot(main string, children ...*element) *element {
	r := &element{Name: "root", Attrs: []xmlAttr{{Name: "BTCPP_format", Value: "4"}}, Children: children}
	if main != "" {
		r.Attrs = append(r.Attrs, xmlAttr{Name: "main_tree_to_execute", Value: main})
	}
	return r
}

// modelEntry is one node type of a <TreeNodesModel>: its kind (the
// element name: Action, Condition, Control, Decorator or SubTree), its
// registration ID and its ports.
type modelEntry struct {
	Kind, ID string
	Ports    []modelPort
}

// modelPort is one port of a modelEntry. Dir is "input", "output" or
// "inout"; Type, Default and Description are written only when not empty
// (as BehaviorTree.CPP writes its models), the description as the port
// element's text.
type modelPort struct {
	Dir, Name, Type, Default, Description string
}

// treeNodesModel returns the <TreeNodesModel> element that describes
// leaves in the form Groot2 and BehaviorTree.CPP write:
//
//	<TreeNodesModel>
//	  <Action ID="X">
//	    <input_port name="a" type="int" default="1">what a is</input_port>
//	    <output_port name="b" type="std::string"/>
//	  </Action>
//	</TreeNodesModel>
//
// A Dir other than "output" and "inout" writes an input_port.
func treeNodesModel(leaves []modelEntry) *element {
	m := &element{Name: "TreeNodesModel"}
	for _, l := range leaves {
		e := &element{Name: l.Kind, Attrs: []xmlAttr{{Name: "ID", Value: l.ID}}}
		for _, p := range l.Ports {
			name := "input_port"
			switch p.Dir {
			case "output":
				name = "output_port"
			case "inout":
				name = "inout_port"
			}
			pe := &element{Name: name, Attrs: []xmlAttr{{Name: "name", Value: p.Name}}, Text: p.Description}
			if p.Type != "" {
				pe.Attrs = append(pe.Attrs, xmlAttr{Name: "type", Value: p.Type})
			}
			if p.Default != "" {
				pe.Attrs = append(pe.Attrs, xmlAttr{Name: "default", Value: p.Default})
			}
			e.Children = append(e.Children, pe)
		}
		m.Children = append(m.Children, e)
	}
	return m
}
