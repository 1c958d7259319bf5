package btcpp

import (
	"io/fs"
	"slices"
)

// CheckModels compares the Go leaves f registers with their declarations
// in the <TreeNodesModel> of the text src, and of the documents it
// includes (read from the directory dir of fsys, as ParseFS reads them;
// none when fsys is nil): what Groot2 shows of a leaf against what the Go
// code does. For each <Action> or <Condition> entry whose ID f registers,
// it reports, as an *Error at the entry's line and column:
//   - a <Condition> registered as an action, or an <Action> registered
//     as a condition;
//   - a port the model declares and the registration lacks, and the other
//     way round;
//   - a port of another direction, of another type (int, double, string
//     and bool under their C++ spellings; any other type, and "any",
//     match every type), or with another default.
//
// It returns nil when every declaration agrees. Entries of IDs that f does
// not register are not checked (LeafModels lists them), nor is what the
// text gets wrong otherwise (Parse reports that). The cost is linear in
// the size of the texts.
func (f *Factory) CheckModels(src string, fsys fs.FS, dir string) []error {
	known := f.snapshot()
	var errs []error
	eachDocument(src, fsys, dir, func(root *element) {
		for _, c := range root.Children {
			if c.Name != "TreeNodesModel" {
				continue
			}
			for _, m := range c.Children {
				if m.Name != "Action" && m.Name != "Condition" {
					continue
				}
				id, _ := m.attr("ID")
				k := known[id]
				if k == nil || k.leaf == nil {
					continue
				}
				errs = append(errs, checkModel(m, k.leaf)...)
			}
		}
	})
	return errs
}

// checkModel compares one model entry m with the registration r.
func checkModel(m *element, r *leafReg) []error {
	var errs []error
	if cond := r.kind == leafCondition; cond != (m.Name == "Condition") {
		what := map[bool]string{true: "a condition", false: "an action"}
		errs = append(errs, docError(m, "the model declares %s as <%s>, but it is registered as %s", r.id, m.Name, what[cond]))
	}
	dirs := map[string]PortDir{"input_port": In, "output_port": Out, "inout_port": InOut}
	seen := map[string]bool{}
	for _, pe := range m.Children {
		dir, ok := dirs[pe.Name]
		name, named := pe.attr("name")
		if !ok || !named || seen[name] {
			continue
		}
		seen[name] = true
		i := slices.IndexFunc(r.ports, func(p Port) bool { return p.Name == name })
		if i < 0 {
			errs = append(errs, docError(pe, "the model declares the port [%s] of %s, which its registration does not", name, r.id))
			continue
		}
		p := r.ports[i]
		if p.Dir != dir {
			errs = append(errs, docError(pe, "the port [%s] of %s is %s in the model, %s in its registration", name, r.id, pe.Name, portElement(p.Dir)))
		}
		if typ, _ := pe.attr("type"); !sameType(goType(typ), goType(p.Type)) {
			errs = append(errs, docError(pe, "the port [%s] of %s has the type [%s] in the model, [%s] in its registration", name, r.id, typ, p.Type))
		}
		def, hasDef := pe.attr("default")
		if hasDef != p.HasDefault || def != p.Default {
			errs = append(errs, docError(pe, "the port [%s] of %s has %s in the model, %s in its registration", name, r.id, defaultText(def, hasDef), defaultText(p.Default, p.HasDefault)))
		}
	}
	for _, p := range r.ports {
		if !seen[p.Name] {
			errs = append(errs, docError(m, "the model of %s does not declare its port [%s]", r.id, p.Name))
		}
	}
	return errs
}

// portElement is the model's element name of a port of direction d.
func portElement(d PortDir) string {
	switch d {
	case Out:
		return "output_port"
	case InOut:
		return "inout_port"
	}
	return "input_port"
}

// sameType reports whether two ports' types (as goType gives them) agree:
// equal, or one of them untyped.
func sameType(a, b string) bool { return a == b || a == "any" || b == "any" }

// defaultText says a port's default for CheckModels's errors.
func defaultText(def string, ok bool) string {
	if !ok {
		return "no default"
	}
	return "the default [" + def + "]"
}
