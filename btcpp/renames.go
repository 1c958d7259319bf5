package btcpp

import (
	"fmt"
	"strings"
)

// This file upgrades trees written for BehaviorTree.CPP 3.x to the 4.x
// form, as the library's migration guide ("Migrating from version 3.8 to
// 4.X") and its conversion script (convert_v3_to_v4.py) do. It is applied
// only when the caller asks: by default a tree is read as 4.10 reads it,
// where SequenceStar is still another name of SequenceWithMemory and the
// other 3.x names below are "Node not recognized".
//
// The rewrites, each reported by one warning:
//   - <root> gets BTCPP_format="4" (the guide; the script sets it too),
//     so that a tree is not upgraded twice.
//   - SequenceStar → SequenceWithMemory, as an element name or as the ID
//     of the explicit form <Control ID="SequenceStar"> (the guide and the
//     script; the script means to rename the ID too).
//   - SubTreePlus → SubTree, its __autoremap attribute → _autoremap (the
//     guide and the script).
//   - A 3.x <SubTree>, whose attributes remapped ports to parent entries by
//     key, gets its values wrapped in braces (port="key" → port="{key}"),
//     and __shared_blackboard="true" becomes _autoremap="1", which the
//     script warns may change behaviour (a shared blackboard is not
//     remapping). ID and name are kept, and so is a value already written
//     {…}, and attributes starting with '_' (an editor's, which 4.x
//     ignores). This is done only when <root> does not say BTCPP_format="4":
//     in a 4.x tree <SubTree> is already the new one.
//   - RetryUntilSuccesful (3.x's spelling) → RetryUntilSuccessful: the same
//     node with the same port.
//   - Parallel's 3.x ports success_threshold and failure_threshold →
//     success_count and failure_count, and the older threshold →
//     success_count: the same ports under their 4.x names.
//
// Not rewritten, with a warning because 4.10 does not register them and
// has no node that behaves the same: BlackboardCheckInt, BlackboardCheckDouble,
// BlackboardCheckString, BlackboardCheckBool (the guide shows them
// replaced by hand with a script and a precondition, which is not the same
// node: a precondition is checked only when the node starts), FallbackStar
// and ManualSelector. An attribute named like a 4.x pre/post condition
// (_successIf, _failureIf, _skipIf, _while, _onSuccess, _onFailure,
// _onHalted, _post), which 3.x passed as a port, is reported too.
//
// The entries of <TreeNodesModel> are left as they are.

// v3Renames are the element names (and explicit-form IDs) 3.x used for a
// node that 4.x registers under another name.
var v3Renames = map[string]string{
	"SequenceStar":        "SequenceWithMemory",
	"RetryUntilSuccesful": "RetryUntilSuccessful",
}

// v3Unsupported are 3.x names with no 4.x node, and why.
var v3Unsupported = map[string]string{
	"BlackboardCheckInt":    "replace it by a Script and a precondition (_failureIf) by hand",
	"BlackboardCheckDouble": "replace it by a Script and a precondition (_failureIf) by hand",
	"BlackboardCheckString": "replace it by a Script and a precondition (_failureIf) by hand",
	"BlackboardCheckBool":   "replace it by a Script and a precondition (_failureIf) by hand",
	"FallbackStar":          "4.x has no Fallback that keeps its place after a failure",
	"ManualSelector":        "4.x builds without it",
}

// v3ParallelPorts are Parallel's 3.x port names and their 4.x names.
var v3ParallelPorts = map[string]string{
	"success_threshold": "success_count",
	"failure_threshold": "failure_count",
	"threshold":         "success_count",
}

// prePostNames are the attribute names 4.x reserves for pre- and
// post-conditions.
var prePostNames = map[string]bool{
	"_successIf": true, "_failureIf": true, "_skipIf": true, "_while": true,
	"_onSuccess": true, "_onFailure": true, "_onHalted": true, "_post": true,
}

// explicitForms are the element names of the explicit form <Kind ID="X">.
var explicitForms = map[string]bool{"Action": true, "Condition": true, "Control": true, "Decorator": true}

// upgradeV3 rewrites the tree of a 3.x document in place into its 4.x form
// (see the top of this file) and returns one warning per change, and per
// 3.x name it cannot change, each starting with the line:col of the
// element or attribute.
func upgradeV3(root *element) (warnings []string) {
	if root == nil {
		return nil
	}
	warn := func(line, col int, format string, args ...any) {
		warnings = append(warnings, fmt.Sprintf("%d:%d: ", line, col)+fmt.Sprintf(format, args...))
	}
	format, hasFormat := root.attr("BTCPP_format")
	oldSubTrees := !hasFormat || format != "4"
	if root.Name == "root" && oldSubTrees {
		// Marked as 4.x, the tree is not upgraded twice.
		if hasFormat {
			for i := range root.Attrs {
				if a := &root.Attrs[i]; a.Name == "BTCPP_format" {
					warn(a.Line, a.Col, `BTCPP_format="%s" of <root> became "4"`, a.Value)
					a.Value = "4"
				}
			}
		} else {
			root.Attrs = append(root.Attrs, xmlAttr{Name: "BTCPP_format", Value: "4", Line: root.Line, Col: root.Col})
			warn(root.Line, root.Col, `added BTCPP_format="4" to <root>`)
		}
	}
	stack := []*element{root}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e.Name == "TreeNodesModel" {
			continue
		}
		upgradeElement(e, oldSubTrees, warn)
		for i := len(e.Children) - 1; i >= 0; i-- {
			stack = append(stack, e.Children[i])
		}
	}
	return warnings
}

// upgradeElement rewrites one element (see upgradeV3).
func upgradeElement(e *element, oldSubTrees bool, warn func(line, col int, format string, args ...any)) {
	typeID := e.Name
	if explicitForms[e.Name] {
		for i := range e.Attrs {
			a := &e.Attrs[i]
			if a.Name != "ID" {
				continue
			}
			typeID = a.Value
			if to, ok := v3Renames[a.Value]; ok {
				warn(a.Line, a.Col, "renamed %s to %s (ID of <%s>)", a.Value, to, e.Name)
				a.Value, typeID = to, to
			}
		}
	} else if to, ok := v3Renames[e.Name]; ok {
		warn(e.Line, e.Col, "renamed <%s> to <%s>", e.Name, to)
		e.Name, typeID = to, to
	}
	if why, ok := v3Unsupported[typeID]; ok {
		warn(e.Line, e.Col, "%s is not a 4.x node and is left as it is: %s", typeID, why)
	}
	switch {
	case e.Name == "SubTreePlus":
		warn(e.Line, e.Col, "renamed <SubTreePlus> to <SubTree>")
		e.Name = "SubTree"
		for i := range e.Attrs {
			if a := &e.Attrs[i]; a.Name == "__autoremap" {
				warn(a.Line, a.Col, "renamed the attribute __autoremap to _autoremap")
				a.Name = "_autoremap"
			}
		}
		removeDuplicateAttrs(e, "_autoremap", warn)
	case e.Name == "SubTree" && oldSubTrees:
		upgradeOldSubTree(e, warn)
	case typeID == "Parallel":
		for i := range e.Attrs {
			a := &e.Attrs[i]
			if to, ok := v3ParallelPorts[a.Name]; ok {
				warn(a.Line, a.Col, "renamed Parallel's port %s to %s", a.Name, to)
				a.Name = to
			}
		}
		removeDuplicateAttrs(e, "success_count", warn)
		removeDuplicateAttrs(e, "failure_count", warn)
	}
	for _, a := range e.Attrs {
		if prePostNames[a.Name] {
			warn(a.Line, a.Col, "the attribute %s of <%s> is a pre/post condition script in 4.x, not a port", a.Name, e.Name)
		}
	}
}

// upgradeOldSubTree rewrites a 3.x <SubTree>: values become {key}
// remappings, __shared_blackboard="true" becomes _autoremap="1".
func upgradeOldSubTree(e *element, warn func(line, col int, format string, args ...any)) {
	for i := range e.Attrs {
		a := &e.Attrs[i]
		switch {
		case a.Name == "ID" || a.Name == "name" || a.Name == "_autoremap":
		case strings.HasPrefix(a.Name, "_") && a.Name != "__shared_blackboard":
			// Editor attributes (_description, …): 4.x ignores them.
		case a.Name == "__shared_blackboard":
			if v3True(a.Value) {
				warn(a.Line, a.Col, `__shared_blackboard="%s" became _autoremap="1": the subtree now remaps every port to the parent's entry of the same name instead of sharing the blackboard`, a.Value)
				a.Name, a.Value = "_autoremap", "1"
			}
		case strings.HasPrefix(a.Value, "{") && strings.HasSuffix(a.Value, "}"):
		default:
			warn(a.Line, a.Col, `the 3.x SubTree remapping %s="%s" became %s="{%s}"`, a.Name, a.Value, a.Name, a.Value)
			a.Value = "{" + a.Value + "}"
		}
	}
	removeDuplicateAttrs(e, "_autoremap", warn)
}

// removeDuplicateAttrs keeps the first attribute named name of e and drops
// the others, which a rename may have made (the reader refuses duplicates).
func removeDuplicateAttrs(e *element, name string, warn func(line, col int, format string, args ...any)) {
	seen := false
	kept := e.Attrs[:0]
	for _, a := range e.Attrs {
		if a.Name == name {
			if seen {
				warn(a.Line, a.Col, "dropped a second attribute %s of <%s>", name, e.Name)
				continue
			}
			seen = true
		}
		kept = append(kept, a)
	}
	e.Attrs = kept
}

// v3True reports whether the 3.x conversion script takes s as true.
func v3True(s string) bool {
	switch strings.ToLower(s) {
	case "yes", "true", "t", "1":
		return true
	}
	return false
}
