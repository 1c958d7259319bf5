package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/btcpp"
	"github.com/zipbt/behaviortree/internal/termsafe"
	"github.com/zipbt/behaviortree/kind"
)

// bt convert and BehaviorTree.CPP XML.
//
//	bt convert -to xml FILE.xml
//
// writes the canonical XML of a BehaviorTree.CPP file, as bt fmt does; a
// file of format 3 (BTCPP_format="3", or none) is upgraded to format 4
// first with BehaviorTree.CPP's own renames (btcpp.Factory.ParseV3), each
// printed as a warning on the standard error.
//
// bt converts nothing between XML and MDSL or JSON: BehaviorTree.CPP and
// Mistreevous tick differently (tickOnce and its wake-ups, halting and
// resetting, SKIPPED, the blackboard and its ports, against Mistreevous's
// step, guards, callbacks and agent calls with positional arguments), and
// bt converts across only what runs the same, which it has shown for no
// tree yet. The error names the first node of the file with no
// counterpart in the other format, or says so for the tree as a whole.

const convertXMLSynopsis = "convert -to xml FILE.xml"

// convertXML is bt convert of an XML file.
func convertXML(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("convert", convertSynopsis, stdout)
	to := fs.String("to", "", convertToUsage)
	expand := fs.Bool("expand", false, convertExpandUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	file, err := onlyFile(fs)
	if err != nil {
		return err
	}
	switch *to {
	case "xml":
		if *expand {
			return usagef("-expand is for Mistreevous JSON, not for -to xml")
		}
		return xmlToXML(file, stdout, stderr)
	case "json", "mdsl", "mistreevous", "elixir":
		return xmlAcross(file, *to)
	case "":
		return usagef("-to is required")
	}
	return usagef("unknown format %q for -to (json, mdsl, mistreevous, elixir, xml)", *to)
}

// xmlFormat returns the BTCPP_format attribute of a document's root
// element ("" when it has none), and whether the text starts with an
// element at all (else the readers say what is wrong with it).
func xmlFormat(src []byte) (format string, ok bool) {
	d := xml.NewDecoder(bytes.NewReader(src))
	for {
		tok, err := d.RawToken()
		if err != nil {
			return "", false
		}
		if se, isStart := tok.(xml.StartElement); isStart {
			for _, a := range se.Attr {
				if a.Name.Space == "" && a.Name.Local == "BTCPP_format" {
					return a.Value, true
				}
			}
			return "", true
		}
	}
}

// loadXMLAnyFormat reads an XML file as loadXML does, or, when it is not
// of format 4 (BTCPP_format="3", or none), as BehaviorTree.CPP's own
// migration to format 4 reads it (btcpp.Factory.ParseV3), with the
// warnings of the migration, each "FILE:LINE:COL: format 3 to 4: MSG". A
// file of format 3 cannot <include> another.
func loadXMLAnyFormat(file string) (x *xmlDoc, upgraded bool, warnings []string, err error) {
	src, _, err := readInput(file)
	if err != nil {
		return nil, false, nil, err
	}
	src = stripBOM(src)
	if format, ok := xmlFormat(src); !ok || format == "4" {
		x, err := loadXML(file, nil, false)
		return x, false, nil, err
	}
	name := displayName(file)
	f := btcpp.NewFactory()
	x = &xmlDoc{name: name, src: src, factory: f, leaves: map[string]*xmlLeaf{}, ans: newAgentAnswers(nil, false)}
	fsys, err := newFileFS(file, src)
	if err != nil {
		return nil, true, nil, fmt.Errorf("%s: %w", name, err)
	}
	x.fsys = fsys
	// A stand-in for each leaf: a 3.x name that the migration renames is
	// a built-in once renamed, and a stand-in no tree uses is not written.
	for _, m := range f.LeafModels(string(src), fsys, path.Dir(fsys.name)) {
		x.leaves[m.ID] = &xmlLeaf{model: m, condition: m.Condition}
	}
	if err := x.register(); err != nil {
		return nil, true, nil, err
	}
	doc, ws, err := f.ParseV3(string(src))
	for _, w := range ws {
		pos, msg, _ := strings.Cut(w, ": ")
		warnings = append(warnings, fmt.Sprintf("%s:%s: format 3 to 4: %s", name, pos, msg))
	}
	if err != nil {
		if bytes.Contains(src, []byte("<include")) {
			// The migration reads one text: say what to do instead.
			err = fmt.Errorf("%w (a file of format 3 is migrated alone: convert each file it includes with bt convert -to xml, then include the results in a file of format 4)", err)
		}
		return nil, true, warnings, fmt.Errorf("%s:%w", name, xmlErr(err))
	}
	x.doc = doc
	return x, true, warnings, nil
}

// xmlToXML writes the canonical XML of file, as bt fmt does, migrated
// from format 3 when it is not of format 4, with the migration's warnings
// on stderr.
func xmlToXML(file string, stdout, stderr io.Writer) error {
	x, upgraded, warnings, err := loadXMLAnyFormat(file)
	for _, w := range warnings {
		fmt.Fprintln(stderr, termsafe.Text(w))
	}
	if err != nil {
		return err
	}
	if !upgraded {
		return fmtXMLFile(file, false, false, false, stdout, stderr)
	}
	name, f, doc := x.name, x.factory, x.doc
	out, err := doc.Format()
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	// As bt fmt: never print a form that does not read back.
	again, err := f.Parse(string(out))
	if err == nil {
		var out2 []byte
		if out2, err = again.Format(); err == nil && !bytes.Equal(out, out2) {
			err = errors.New("its canonical XML formats to another text")
		}
	}
	if err != nil {
		return fmt.Errorf("%s: the format 4 XML of this file does not read back: %w", name, err)
	}
	_, err = stdout.Write(out)
	return err
}

// acrossWhy is why bt converts no tree between BehaviorTree.CPP XML and
// the Mistreevous formats, when no node of it is named.
const acrossWhy = "BehaviorTree.CPP and Mistreevous tick differently (tickOnce and its wake-ups, halting and resetting, SKIPPED, the blackboard, against Mistreevous's steps, guards and agent calls), and bt converts only what runs the same, which it has shown for no tree yet"

// xmlAcross is the error of converting an XML file to a Mistreevous
// format: it names the first node of the main tree that has no
// counterpart there.
func xmlAcross(file, to string) error {
	x, _, _, err := loadXMLAnyFormat(file)
	if err != nil {
		return err
	}
	tree, err := x.build("")
	if err != nil {
		return err
	}
	target := map[string]string{"json": "JSON", "mistreevous": "Mistreevous JSON", "mdsl": "MDSL", "elixir": "the Elixir JSON"}[to]
	pic := tree.Picture()
	for i, nd := range tree.Nodes() {
		p := pic.Nodes[i]
		if why := btcppNoCounterpart(nd, p, x.leaves[nd.ID] != nil); why != "" {
			where := nd.Path
			if where == "" {
				where = nd.Name
			}
			return fmt.Errorf("%s: bt converts BehaviorTree.CPP XML only to XML, not to %s: %s at %s %s", x.name, target, termsafe.Text(nd.ID), termsafe.Text(strconv.Quote(where)), why)
		}
	}
	return fmt.Errorf("%s: bt converts BehaviorTree.CPP XML only to XML, not to %s: %s", x.name, target, acrossWhy)
}

// btcppNoCounterpart says why a node of a BehaviorTree.CPP tree has no
// counterpart in Mistreevous's trees, or "" for the nodes that have a
// namesake there (Sequence, Fallback, Inverter, ForceSuccess,
// ForceFailure, and leaves without ports).
func btcppNoCounterpart(nd btcpp.NodeInfo, p bt.PictureNode, leaf bool) string {
	if p.Attrs != "" {
		return fmt.Sprintf("has the pre- or post-condition attributes %s, scripts on the blackboard that Mistreevous has not", termsafe.Text(p.Attrs))
	}
	switch {
	case leaf && p.Params != "":
		return fmt.Sprintf("is a leaf with the ports %s, read and written on the blackboard by name; a Mistreevous leaf is an agent call with arguments by position", termsafe.Text(p.Params))
	case leaf:
		return ""
	}
	switch nd.ID {
	case "Sequence", "Fallback", "Inverter", "ForceSuccess", "ForceFailure":
		return ""
	case "SubTree":
		return "opens a blackboard scope of its own, with its remappings"
	case "Script", "ScriptCondition", "SetBlackboard", "UnsetBlackboard", "WasEntryUpdated", "SkipUnlessUpdated", "WaitValueUpdate":
		return "works on the blackboard, which Mistreevous has not"
	}
	return "has no Mistreevous counterpart with the same rules"
}

// mistreevousAcross is the error of bt convert -to xml of an MDSL or JSON
// tree: it names the first node with no BehaviorTree.CPP counterpart.
func mistreevousAcross(t tree, file string) error {
	const head = "bt converts to BehaviorTree.CPP XML only from XML"
	if t.isStr {
		return fmt.Errorf("%s: %s: a tree of Elixir kinds runs with Value, Succeed and Fail, which BehaviorTree.CPP has not", file, head)
	}
	pic := t.call.Picture() // in preorder, as Preorder
	i := 0
	for n := range t.call.Preorder() {
		p := pic.Nodes[i]
		i++
		if why := mistreevousNoCounterpart(n, p); why != "" {
			return fmt.Errorf("%s: %s: %s", file, head, why)
		}
	}
	return fmt.Errorf("%s: %s: %s", file, head, acrossWhy)
}

// mistreevousNoCounterpart says why a node of a Mistreevous tree has no
// counterpart in BehaviorTree.CPP, or "" for the nodes that have a
// namesake there (root, sequence, selector, flip, succeed, fail, and
// actions and conditions without arguments).
func mistreevousNoCounterpart(n bt.Node[bt.Call], p bt.PictureNode) string {
	word := termsafe.Text(p.Word())
	if p.Label != "" {
		word += " [" + termsafe.Text(p.Label) + "]"
	}
	if p.Params != "" {
		word += " " + termsafe.Text(p.Params)
	}
	if p.Attrs != "" {
		return fmt.Sprintf("%s has the guards or callbacks %s, which BehaviorTree.CPP's pre- and post-conditions do not match", word, termsafe.Text(p.Attrs))
	}
	switch n.Kind() {
	case kind.Leaf, kind.Condition:
		if c, ok := n.Leaf(); ok && len(c.Args) > 0 {
			return fmt.Sprintf("%s passes arguments by position; a BehaviorTree.CPP leaf reads named ports from the blackboard", word)
		}
		return ""
	case kind.Root, kind.Sequence, kind.Select, kind.Negate, kind.AlwaysSucceed, kind.AlwaysFail:
		return ""
	}
	return fmt.Sprintf("%s has no BehaviorTree.CPP counterpart with the same rules", word)
}
