package btcpp

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
)

// This file writes a Document back as XML (WriteXML, what bt fmt prints)
// and reads the leaf types a text declares or uses without registering
// them (LeafModels, how bt check, bt run and bt render read a file whose
// leaves have no Go code).

// WriteXML writes d as canonical XML, in the form Groot2 writes, which
// Factory.Parse (given the same registrations) and BehaviorTree.CPP 4.10
// read back to the same document: the same trees, building to the same
// nodes, paths and blackboard scopes, with the same main tree.
//
//   - <root BTCPP_format="4">, with main_tree_to_execute when the text had
//     it;
//   - every <BehaviorTree>, the main one first and then in ID order, with
//     its ID (a tree the text left without one gets the ID it was
//     registered under, BehaviorTree_0, ...), its nodes as they were
//     written (element names and attributes in their order), two spaces
//     of indentation per level; the trees of <include>d files are written
//     too, so the result includes nothing;
//   - a <TreeNodesModel> with an <Action> or <Condition> entry for every
//     Go leaf the trees use, with its ports (types as BehaviorTree.CPP
//     names them: int, double, std::string, bool, BT::AnyTypeAllowed),
//     so that Groot2 can open the file, and the <SubTree> entries of the
//     text's model with their defaults (as input ports: the direction of
//     a SubTree model's port is not kept). A lone tree whose ID is ""
//     gets no model, since BehaviorTree.CPP reads an empty ID only when
//     the tree is <root>'s one element.
//
// Comments, text, the descriptions of a model's ports and the model
// entries of types the trees do not use are dropped. Errors of w are
// returned wrapped.
func (d *Document) WriteXML(w io.Writer) error {
	root := &element{Name: "root", Attrs: []xmlAttr{{Name: "BTCPP_format", Value: "4"}}}
	if d.hasMain {
		root.Attrs = append(root.Attrs, xmlAttr{Name: "main_tree_to_execute", Value: d.main})
	}
	ids := d.Trees()
	if d.hasMain {
		if i := slices.Index(ids, d.main); i > 0 {
			ids = append(append([]string{d.main}, ids[:i]...), ids[i+1:]...)
		}
	}
	used := map[string]bool{}
	for _, id := range ids {
		t := d.trees[id].clone()
		if _, ok := t.attr("ID"); !ok {
			t.Attrs = append([]xmlAttr{{Name: "ID", Value: id}}, t.Attrs...)
		}
		root.Children = append(root.Children, t)
		d.usedLeaves(t, used)
	}
	var entries []modelEntry
	for _, id := range slices.Sorted(maps.Keys(used)) {
		k := d.kinds[id]
		me := modelEntry{Kind: "Action", ID: id}
		if k.leaf.kind == leafCondition {
			me.Kind = "Condition"
		}
		for _, p := range k.ports {
			mp := modelPort{Dir: "input", Name: p.Name, Type: cppType(p.Type)}
			switch p.Dir {
			case Out:
				mp.Dir = "output"
			case InOut:
				mp.Dir = "inout"
			}
			if p.HasDefault {
				mp.Default = p.Default
			}
			me.Ports = append(me.Ports, mp)
		}
		entries = append(entries, me)
	}
	model := treeNodesModel(entries)
	for _, id := range slices.Sorted(maps.Keys(d.models)) {
		e := &element{Name: "SubTree", Attrs: []xmlAttr{{Name: "ID", Value: id}}}
		for _, p := range d.models[id] {
			pe := &element{Name: "input_port", Attrs: []xmlAttr{{Name: "name", Value: p.name}}}
			if p.def != "" {
				pe.Attrs = append(pe.Attrs, xmlAttr{Name: "default", Value: p.def})
			}
			e.Children = append(e.Children, pe)
		}
		model.Children = append(model.Children, e)
	}
	// A tree whose ID is "" reads only as <root>'s one child (README
	// §11): beside a model it would be an error, so it goes without one.
	if len(model.Children) > 0 && !slices.Contains(ids, "") {
		root.Children = append(root.Children, model)
	}
	if err := writeXML(w, root); err != nil {
		return fmt.Errorf("btcpp: WriteXML: %w", err)
	}
	return nil
}

// Included returns the names of the files that d's text <include>d,
// directly or not, in the order they were loaded (as ParseFS names them
// in fsys): those whose trees WriteXML writes in.
func (d *Document) Included() []string { return slices.Clone(d.included) }

// Format returns the canonical XML of d (see WriteXML).
func (d *Document) Format() ([]byte, error) {
	var b bytes.Buffer
	if err := d.WriteXML(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// usedLeaves adds to used the IDs of the Go leaves under e.
func (d *Document) usedLeaves(e *element, used map[string]bool) {
	stack := []*element{e}
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := e.Name
		if explicitForm(e.Name) {
			id, _ = e.attr("ID")
		}
		if k, ok := d.kinds[id]; ok && k.leaf != nil && e.Name != "SubTree" {
			used[id] = true
		}
		stack = append(stack, e.Children...)
	}
}

// cppType is the C++ type name BehaviorTree.CPP writes in a model for a
// port type of this package.
func cppType(t string) string {
	switch t {
	case "string":
		return "std::string"
	case "any", "Any", "":
		return "BT::AnyTypeAllowed"
	case "NodeStatus":
		return "BT::NodeStatus"
	case "uint":
		return "unsigned int"
	}
	return t
}

// goType is the port type of this package for a C++ type name of a
// model: int, double, string and bool (under their C++ and Groot2
// spellings), any for every other.
func goType(t string) string {
	switch strings.TrimSpace(t) {
	case "int", "int32_t", "int64_t", "long", "unsigned int", "uint32_t", "unsigned", "size_t", "uint64_t":
		return "int"
	case "double", "float":
		return "double"
	case "std::string", "string", "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >":
		return "string"
	case "bool":
		return "bool"
	}
	return "any"
}

// LeafModel is a leaf type that a text declares in its <TreeNodesModel>
// or uses in its trees, which a Factory does not know: what a tool needs
// to register a stand-in for it (bt run registers scripted leaves).
type LeafModel struct {
	ID string
	// Condition is true for a <Condition> entry of the model; a leaf the
	// model does not declare is an action.
	Condition bool
	// Declared is true when the model declares the type; its Ports are
	// then the model's (types read as int, double, string, bool or any,
	// defaults kept). Otherwise Ports are guessed from the trees: one per
	// attribute the leaf is given anywhere, of type any, InOut when a
	// value is a {key} reference and In otherwise.
	Declared bool
	Ports    []Port
}

// eachDocument calls fn with the root element of the text src and of each
// document it includes, read from the directory dir of fsys as ParseFS
// reads them (none when fsys is nil), at most maxIncludeDepth deep. It
// skips what it cannot read or parse: Parse reports those errors.
func eachDocument(src string, fsys fs.FS, dir string, fn func(root *element)) {
	var scan func(src, dir string, depth int)
	scan = func(src, dir string, depth int) {
		root, err := parseXML(src)
		if err != nil || root == nil {
			return
		}
		fn(root)
		for _, c := range root.Children {
			if c.Name != "include" {
				continue
			}
			p, ok := c.attr("path")
			if !ok || fsys == nil || depth >= maxIncludeDepth {
				continue
			}
			name := path.Clean(strings.TrimPrefix(p, "/"))
			if !strings.HasPrefix(p, "/") {
				name = path.Join(dir, p)
			}
			if b, err := fs.ReadFile(fsys, name); err == nil {
				scan(string(b), path.Dir(name), depth+1)
			}
		}
	}
	scan(src, dir, 0)
}

// LeafModels returns, sorted by ID, the leaf types that src declares in
// its <TreeNodesModel> (<Action> and <Condition> entries) or uses in its
// trees (elements with no children, in the compact or the <Action> or
// <Condition> form) that f does not register, built-ins included. With
// fsys, the documents that src includes are read too, from the directory
// dir of fsys (as ParseFS reads them). It reads what it can and skips the
// rest: Parse reports the errors of the text. A type declared twice keeps
// its first declaration, the text's own before an included document's.
func (f *Factory) LeafModels(src string, fsys fs.FS, dir string) []LeafModel {
	known := f.snapshot()
	models := map[string]*LeafModel{}
	guessed := map[string]map[string]PortDir{}
	eachDocument(src, fsys, dir, func(root *element) {
		for _, c := range root.Children {
			switch c.Name {
			case "TreeNodesModel":
				for _, m := range c.Children {
					id, _ := m.attr("ID")
					if m.Name != "Action" && m.Name != "Condition" || !validModelName(id) || known[id] != nil || id == "SubTree" || models[id] != nil {
						continue
					}
					lm := &LeafModel{ID: id, Condition: m.Name == "Condition", Declared: true}
					for _, pe := range m.Children {
						name, ok := pe.attr("name")
						if !ok || !portLike(name) || slices.ContainsFunc(lm.Ports, func(p Port) bool { return p.Name == name }) {
							continue
						}
						typ, _ := pe.attr("type")
						var p Port
						switch pe.Name {
						case "input_port":
							p = InputPort(name, goType(typ))
						case "output_port":
							p = OutputPort(name, goType(typ))
						case "inout_port":
							p = InOutPort(name, goType(typ))
						default:
							continue
						}
						if def, ok := pe.attr("default"); ok {
							p = p.WithDefault(def)
						}
						lm.Ports = append(lm.Ports, p)
					}
					models[id] = lm
				}
			case "BehaviorTree":
				stack := slices.Clone(c.Children)
				for len(stack) > 0 {
					e := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					stack = append(stack, e.Children...)
					id := e.Name
					switch e.Name {
					case "Action", "Condition":
						id, _ = e.attr("ID")
					case "Control", "Decorator", "SubTree":
						continue
					}
					if len(e.Children) > 0 || !validModelName(id) || known[id] != nil {
						continue
					}
					ports := guessed[id]
					if ports == nil {
						ports = map[string]PortDir{}
						guessed[id] = ports
					}
					for _, a := range e.Attrs {
						if !portLike(a.Name) {
							continue
						}
						if _, ok := refKey(a.Value, a.Name); ok {
							ports[a.Name] = InOut
						} else if _, seen := ports[a.Name]; !seen {
							ports[a.Name] = In
						}
					}
				}
			}
		}
	})
	for id, ports := range guessed {
		if models[id] != nil {
			continue
		}
		lm := &LeafModel{ID: id}
		for _, name := range slices.Sorted(maps.Keys(ports)) {
			if ports[name] == InOut {
				lm.Ports = append(lm.Ports, InOutPort(name, "any"))
			} else {
				lm.Ports = append(lm.Ports, InputPort(name, "any"))
			}
		}
		models[id] = lm
	}
	out := make([]LeafModel, 0, len(models))
	for _, id := range slices.Sorted(maps.Keys(models)) {
		out = append(out, *models[id])
	}
	return out
}
