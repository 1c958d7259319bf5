package btcpp

import (
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"
)

// This file reads a document and builds trees from it, as
// BehaviorTree.CPP 4.10.0's createTreeFromText does (README §7 and §11):
// first the document checks on every <BehaviorTree>, before any node
// exists; then the nodes in preorder, each with its checks in the
// library's order; and when building fails after some nodes were created,
// the halts of the half-built tree (§9).

// maxDocDepth is how deep the document checks go inside a <BehaviorTree>.
const maxDocDepth = 256

// maxNodes is the most nodes a built tree may have, subtrees expanded: a
// few lines of XML whose trees each use the next one several times would
// otherwise expand into billions of nodes. Tests lower it.
var maxNodes = 1 << 20

// The pre/post attribute names, in the order of nodeState's pre and post.
var (
	preNames  = [4]string{"_failureIf", "_successIf", "_skipIf", "_while"}
	postNames = [4]string{"_onSuccess", "_onFailure", "_post", "_onHalted"}
)

// reservedAttr reports whether an attribute name is never a port.
func reservedAttr(name string) bool {
	switch name {
	case "name", "ID", "_autoremap":
		return true
	}
	for i := range preNames {
		if name == preNames[i] || name == postNames[i] {
			return true
		}
	}
	return false
}

// forbiddenByte reports whether c may not appear in a model or port name.
func forbiddenByte(c byte) bool {
	if c < 0x20 || c == 0x7f {
		return true
	}
	return strings.IndexByte(" <>&\"'/\\:*?|.", c) >= 0
}

// validModelName reports whether s is a valid tree or node ID (§11).
func validModelName(s string) bool {
	if s == "" || s == "Root" || s == "root" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if forbiddenByte(s[i]) {
			return false
		}
	}
	return true
}

// portLike reports whether an attribute of a node is a port (or, on a
// SubTree, a remapping): IsAllowedPortName.
func portLike(name string) bool {
	if name == "" || !(name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z') {
		return false
	}
	for i := 0; i < len(name); i++ {
		if forbiddenByte(name[i]) {
			return false
		}
	}
	return !reservedAttr(name)
}

// explicitForm reports whether an element name is one of the explicit
// forms whose type ID is the ID attribute.
func explicitForm(name string) bool {
	switch name {
	case "Action", "Condition", "Control", "Decorator", "SubTree":
		return true
	}
	return false
}

// smPort is a port of a <TreeNodesModel> SubTree entry.
type smPort struct {
	name, def string // def "" when none
}

// Document is a parsed XML document whose checks passed: its trees are
// registered under their IDs, ready to build. A Document is immutable and
// may build any number of trees.
type Document struct {
	kinds     map[string]*kind
	enums     map[string]int64
	trees     map[string]*element // ID -> <BehaviorTree>
	models    map[string][]smPort
	main      string // main_tree_to_execute
	hasMain   bool
	treeCount int      // <BehaviorTree> elements
	anon      int      // ID-less trees registered
	onlyID    string   // the ID of the only <BehaviorTree>, if there is one
	included  []string // the files <include>d, in loading order
}

// docError is a RuntimeError of the document at element e.
func docError(e *element, format string, args ...any) *Error {
	err := newError(RuntimeError, format, args...)
	if e != nil {
		err.Line, err.Col = e.Line, e.Col
	}
	return err
}

// xmlError is docError in the form of BehaviorTree.CPP's XML reader,
// whose message starts "Error at line N: -> " (Error.What).
func xmlError(e *element, format string, args ...any) *Error {
	err := docError(e, format, args...)
	err.lineForm, err.printedLine = lineArrow, e.printedLine
	return err
}

// nameError is the error of a model or port name that is not allowed:
// BehaviorTree.CPP's message ("Error at line N: Model name 'a b' contains
// forbidden character ' '") where it is known, else what says. what
// names the name's role ("Model", "Port").
func nameError(e *element, role, name, other string) *Error {
	for i := 0; i < len(name); i++ {
		if role == "Port" && i == 0 && name[0] >= '0' && name[0] <= '9' {
			err := docError(e, "Port name '%s' cannot start with a digit", name)
			err.lineForm, err.printedLine = lineOnly, e.Line
			return err
		}
		if forbiddenByte(name[i]) {
			err := docError(e, "%s name '%s' contains forbidden character '%c'", role, name, name[i])
			err.lineForm, err.printedLine = lineOnly, e.Line
			return err
		}
	}
	return docError(e, "%s", other)
}

// maxIncludeDepth bounds nested <include>s (a file that includes itself).
const maxIncludeDepth = 32

// readDoc reads an XML text; its errors are RuntimeErrors.
func readDoc(src, file string) (*element, error) {
	root, err := parseXML(src)
	if err != nil {
		e := newError(RuntimeError, "error parsing the XML")
		if file != "" {
			e.Msg += " " + file
		}
		e.Err = err
		if se, ok := err.(*SyntaxError); ok {
			e.Line, e.Col = se.Line, se.Col
		}
		return nil, e
	}
	return root, nil
}

// parse reads src and runs the checks of §11's loading order, steps 1–4.
// With fsys, <include> paths are read from it, relative to dir (the
// directory of the including file).
func (f *Factory) parse(src string, fsys fs.FS, file string) (*Document, error) {
	root, err := readDoc(src, file)
	if err != nil {
		return nil, err
	}
	return f.document(root, fsys, file)
}

// document loads the document whose top element is root.
func (f *Factory) document(root *element, fsys fs.FS, file string) (*Document, error) {
	d := &Document{kinds: f.snapshot(), enums: f.enumsCopy(), trees: map[string]*element{}, models: map[string][]smPort{}}
	if err := d.load(root, fsys, path.Dir(file), 0); err != nil {
		return nil, err
	}
	d.main, d.hasMain = root.attr("main_tree_to_execute")
	return d, nil
}

// load loads one document: its includes, its checks, its models and its
// trees.
func (d *Document) load(root *element, fsys fs.FS, dir string, depth int) error {
	// 1. <include>, each loaded whole before this document.
	for _, c := range root.Children {
		if c.Name != "include" {
			continue
		}
		p, ok := c.attr("path")
		if !ok {
			return docError(c, "invalid <include> tag: missing 'path' attribute")
		}
		if _, ok := c.attr("ros_pkg"); ok && !strings.HasPrefix(p, "/") {
			return docError(c, "Using attribute [ros_pkg] in <include>, but this library was compiled without ROS support. Recompile the BehaviorTree.CPP using catkin")
		}
		if fsys == nil {
			return docError(c, "error parsing the XML: cannot include %q: no file system to read it from (use ParseFS)", p)
		}
		if depth >= maxIncludeDepth {
			return docError(c, "cannot include %q: more than %d nested includes", p, maxIncludeDepth)
		}
		name := path.Clean(strings.TrimPrefix(p, "/"))
		if !strings.HasPrefix(p, "/") {
			name = path.Join(dir, p)
		}
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			e := docError(c, "error parsing the XML: XML_ERROR_FILE_NOT_FOUND: %s", name)
			e.Err = err
			return e
		}
		inc, err := readDoc(string(b), name)
		if err != nil {
			return err
		}
		d.included = append(d.included, name)
		if err := d.load(inc, fsys, path.Dir(name), depth+1); err != nil {
			if e, ok := err.(*Error); ok && !strings.HasPrefix(e.Msg, "in ") {
				c := *e
				c.Msg = "in " + name + ": " + e.Msg
				return &c
			}
			return err
		}
	}
	// 2. The document checks.
	if err := d.check(root); err != nil {
		return err
	}
	// 3. SubTree models.
	for _, c := range root.Children {
		if c.Name != "TreeNodesModel" {
			continue
		}
		for _, s := range c.Children {
			if s.Name != "SubTree" {
				continue
			}
			id, ok := s.attr("ID")
			if !ok {
				return docError(s, "missing attribute [ID] in a <SubTree> of <TreeNodesModel>")
			}
			var ports []smPort
			for _, p := range s.Children {
				if p.Name != "input_port" && p.Name != "output_port" && p.Name != "inout_port" {
					continue
				}
				name, ok := p.attr("name")
				if !ok {
					return docError(p, "missing attribute [name] in port (SubTree model)")
				}
				if !modelPortName(name) {
					return nameError(p, "Port", name, fmt.Sprintf("the port name [%s] of the SubTree model %q is not allowed", name, id))
				}
				def, _ := p.attr("default")
				mp := smPort{name: name, def: def}
				replaced := false
				for i := range ports {
					if ports[i].name == name {
						ports[i], replaced = mp, true
					}
				}
				if !replaced {
					ports = append(ports, mp)
				}
			}
			d.models[id] = ports
		}
	}
	// 4. Register the trees.
	for _, c := range root.Children {
		if c.Name != "BehaviorTree" {
			continue
		}
		d.treeCount++
		id, ok := c.attr("ID")
		if !ok {
			id = "BehaviorTree_" + strconv.Itoa(d.anon)
			d.anon++
		}
		if d.treeCount == 1 {
			d.onlyID = id
			if !ok {
				d.onlyID = ""
			}
		}
		d.trees[id] = c
	}
	return nil
}

// modelPortName reports whether a SubTree model's port name is allowed.
func modelPortName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' || reservedAttr(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if forbiddenByte(s[i]) {
			return false
		}
	}
	return true
}

// registered reports whether id is a registered node ID (a built-in, a Go
// leaf, or SubTree).
func (d *Document) registered(id string) bool {
	_, ok := d.kinds[id]
	return ok || isBuiltinID(id)
}

// check runs the document checks (§7, §11) on root and every
// <BehaviorTree>.
func (d *Document) check(root *element) error {
	if root.Name != "root" {
		return docError(root, "the XML must have a root node called <root>")
	}
	models := 0
	for _, c := range root.Children {
		if c.Name == "TreeNodesModel" {
			models++
			if models > 1 {
				return xmlError(c, " Only a single node <TreeNodesModel> is supported")
			}
		}
	}
	if models > 0 {
		for _, c := range root.Children {
			if explicitForm(c.Name) {
				if _, ok := c.attr("ID"); !ok {
					return docError(c, "the attribute [ID] is mandatory")
				}
			}
		}
	}
	for _, c := range root.Children {
		if c.Name != "BehaviorTree" {
			continue
		}
		if err := d.checkElement(c, len(root.Children), 0); err != nil {
			return err
		}
	}
	return nil
}

// checkElement checks e and its descendants.
func (d *Document) checkElement(e *element, rootKids, depth int) error {
	if depth > maxDocDepth {
		return docError(e, "the tree is more than %d levels deep", maxDocDepth)
	}
	id, _ := e.attr("ID")
	kids := len(e.Children)
	if explicitForm(e.Name) && id == "" {
		return xmlError(e, "The tag <%s> must have the attribute [ID]", e.Name)
	}
	switch e.Name {
	case "BehaviorTree":
		if id == "" && rootKids > 1 {
			return xmlError(e, "The tag <BehaviorTree> must have the attribute [ID]")
		}
		if id != "" && !validModelName(id) {
			return nameError(e, "Model", id, fmt.Sprintf("the ID %q of <BehaviorTree> is not a valid name", id))
		}
		if id != "" && d.registered(id) {
			return xmlError(e, "The attribute [ID] of tag <BehaviorTree> must not use the name of a registered Node")
		}
		if kids != 1 {
			return docError(e, "the tag <BehaviorTree> with ID %q must have exactly 1 child", id)
		}
	case "SubTree":
		if kids != 0 {
			return docError(e, "<SubTree> with ID %q should not have any child", id)
		}
		if !validModelName(id) {
			return docError(e, "the ID %q of <SubTree> is not a valid name", id)
		}
		if d.registered(id) {
			return xmlError(e, "The attribute [ID] of tag <SubTree> must not use the name of a registered Node")
		}
	default:
		typeID := e.Name
		if explicitForm(e.Name) {
			typeID = id
		} else if !validModelName(typeID) {
			return docError(e, "node not recognized: %s", typeID)
		}
		k, ok := d.kinds[typeID]
		if !ok {
			return docError(e, "node not recognized: %s", typeID)
		}
		switch k.cat {
		case catDecorator:
			if kids != 1 {
				return xmlError(e, "The node '%s' must have exactly 1 child", typeID)
			}
		case catControl:
			if kids < k.minKids {
				return xmlError(e, "The node '%s' must have %d or more children", typeID, k.minKids)
			}
			if typeID == "ReactiveSequence" {
				async := 0
				for _, c := range e.Children {
					if !d.registered(c.Name) {
						return xmlError(c, "Unknown node type: %s", c.Name)
					}
					if c.Name == "AsyncSequence" {
						async++
						if async > 1 {
							return docError(e, "a ReactiveSequence cannot have more than one async child")
						}
					}
				}
			}
		case catLeaf:
			if kids != 0 {
				return xmlError(e, "The node '%s' must not have any child", typeID)
			}
		}
	}
	for _, c := range e.Children {
		if err := d.checkElement(c, rootKids, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// mainTree picks the tree to build when the caller names none (§11 step 5).
func (d *Document) mainTree() (string, error) {
	switch {
	case d.hasMain && d.main != "":
		return d.main, nil
	case d.treeCount == 1 && d.onlyID != "":
		return d.onlyID, nil
	case len(d.trees) == 1:
		for id := range d.trees {
			return id, nil
		}
	case d.hasMain:
		return "", newError(StdRuntimeError, "can't find a tree with name: \"\"")
	}
	return "", newError(RuntimeError, "[main_tree_to_execute] was not specified correctly")
}

// nodeDef is a node of a built tree: what never changes between versions.
type nodeDef struct {
	k      *kind
	regID  string // registration ID as `nodes` shows it: "SubTree" for subtrees
	typeID string // the element's type ID: the tree ID for a SubTree
	name   string
	path   string
	uid    int
	parent int
	kids   []int
	scope  int
	attrs  map[string]string // the port attributes as written
	// planAt and nPlans are where the node's port plans are in the
	// program's (port_plans.go).
	planAt, nPlans int32
	pre            [4]*script
	post           [4]*script
	// code is the script of Script, ScriptCondition (code) and
	// Precondition (if), parsed at build from the text codeSrc.
	code    *script
	codeSrc string
	// Loop nodes: the static list, or listRef with the key listKey.
	list    []Value
	listRef bool
	listKey string
	// entryKey is the watched key of the entry-updated nodes.
	entryKey string
}

// builder builds one tree.
type builder struct {
	d       *Document
	p       *program
	bb      *board
	stack   []string        // the trees being expanded, for recursion
	paths   map[string]bool // subtree instance paths
	scripts map[string]*script
}

// parse parses a script, once per text: a parsed script is immutable, so
// the nodes of a subtree used many times share theirs.
func (b *builder) parse(src string) (*script, error) {
	if s, ok := b.scripts[src]; ok {
		return s, nil
	}
	s, err := parseScript(src)
	if err != nil {
		return nil, err
	}
	if b.scripts == nil {
		b.scripts = map[string]*script{}
	}
	b.scripts[src] = s
	return s, nil
}

// build creates the nodes of tree id in preorder (§7). The returned error
// is the build error; on error the half-built tree is halted (§9), which
// may turn it into Terminate.
func (b *builder) build(id string) error {
	b.paths = map[string]bool{"": true}
	if n := b.planCount(id, map[string]int{}); n > 0 {
		b.p.plans = make([]portPlan, 0, n)
	}
	err := b.tree(nil, id, "", -1, 0)
	if err == nil || len(b.p.nodes) == 0 {
		return err
	}
	// Destroying the half-built tree halts it (haltTree).
	t := &ticker{p: b.p, st: make([]nodeState, len(b.p.nodes)), bb: b.bb}
	if herr := t.haltTree(); herr != nil {
		return &Error{Type: Terminate, Node: -1, Msg: "an exception left a destructor: the process terminates", Err: herr}
	}
	return err
}

// tree expands tree id under parent (the SubTree node, -1 for the main
// tree) in scope; at is the <SubTree> element, nil for the main tree, and
// locates the errors.
func (b *builder) tree(at *element, id, prefix string, parent, scope int) error {
	for _, s := range b.stack {
		if s == id {
			return docError(at, "recursive behavior trees are not allowed: %q is its own subtree", id)
		}
	}
	el, ok := b.d.trees[id]
	if !ok {
		err := newError(StdRuntimeError, "can't find a tree with name: %s", id)
		if at != nil {
			err.Line, err.Col = at.Line, at.Col
		}
		return err
	}
	b.stack = append(b.stack, id)
	defer func() { b.stack = b.stack[:len(b.stack)-1] }()
	return b.create(el.Children[0], parent, scope, prefix)
}

// create creates the node of element e and its descendants.
func (b *builder) create(e *element, parent, scope int, prefix string) error {
	id, hasID := e.attr("ID")
	typeID := e.Name
	var k *kind
	switch {
	case e.Name == "SubTree":
		typeID, k = id, subtreeKind
	case explicitForm(e.Name):
		typeID, k = id, b.d.kinds[id]
	default:
		k = b.d.kinds[typeID]
		if hasID {
			return docError(e, "attribute [ID] is not allowed in <%s>", typeID)
		}
	}
	if k == nil {
		return docError(e, "%s is not a registered node", typeID)
	}
	name, hasName := e.attr("name")
	if !hasName {
		name = typeID
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return docError(e, "the name of a node may not hold control characters")
		}
	}
	if len(b.p.nodes) >= maxNodes {
		return docError(e, "the tree has more than %d nodes", maxNodes)
	}
	uid := len(b.p.nodes) + 1
	nd := nodeDef{k: k, regID: typeID, typeID: typeID, name: name, path: prefix + name, uid: uid, parent: parent, scope: scope}
	if name == typeID {
		nd.path += "::" + strconv.Itoa(uid)
	}
	if k == subtreeKind {
		nd.regID = "SubTree"
	}
	// 1. The attributes in XML order.
	var refs []xmlAttr
	for _, a := range e.Attrs {
		if !portLike(a.Name) {
			continue
		}
		if nd.attrs == nil {
			nd.attrs = map[string]string{}
		}
		nd.attrs[a.Name] = a.Value
		if k == subtreeKind {
			continue
		}
		p, ok := k.port(a.Name)
		if !ok {
			return attrError(a, RuntimeError, "a port with name [%s] is found in the XML (<%s>, line %d) but not in the providedPorts() of its registered node type.", a.Name, e.Name, e.Line)
		}
		blackboard := len(a.Value) >= 3 && a.Value[0] == '{' && a.Value[len(a.Value)-1] == '}'
		if !blackboard && literalChecked(p.Type) {
			if _, ok := parseLiteral(a.Value, p.Type); !ok {
				return attrError(a, LogicError, "The port with name \"%s\" and value \"%s\" can not be converted to %s", a.Name, a.Value, demangled(p.Type))
			}
		}
		refs = append(refs, a)
	}
	nd.planAt, nd.nPlans = b.p.addPlans(e.Attrs, k)
	// 2. The build-time entries of its {k} ports.
	for _, a := range refs {
		p, _ := k.port(a.Name)
		if err := b.bb.declareRef(scope, a.Name, a.Value, p.Type); err != nil {
			return retypeAt(err, RuntimeError, a)
		}
	}
	// 3. The node itself, then its pre/post attributes.
	if err := b.construct(&nd, e); err != nil {
		return err
	}
	for j, names := range [2]*[4]string{&preNames, &postNames} {
		for i, attrName := range names {
			src, ok := e.attr(attrName)
			if !ok {
				continue
			}
			s, err := b.parse(src)
			if err != nil {
				a := xmlAttr{Name: attrName, Line: e.Line, Col: e.Col}
				for _, x := range e.Attrs {
					if x.Name == attrName {
						a = x
					}
				}
				return scriptErrorAt(err, LogicError, a, src)
			}
			if j == 0 {
				nd.pre[i] = s
			} else {
				nd.post[i] = s
			}
		}
	}
	// 4. Attach it.
	n := len(b.p.nodes)
	if n == cap(b.p.nodes) {
		// Double: append grows big slices by a quarter, and a node is
		// a few hundred bytes.
		grown := make([]nodeDef, n, 2*n+16)
		copy(grown, b.p.nodes)
		b.p.nodes = grown
	}
	b.p.nodes = append(b.p.nodes, nd)
	if parent >= 0 {
		b.p.nodes[parent].kids = append(b.p.nodes[parent].kids, n)
	}
	// 5. Its children, or its subtree.
	if k != subtreeKind {
		for _, c := range e.Children {
			if err := b.create(c, n, scope, prefix); err != nil {
				return err
			}
		}
		return nil
	}
	return b.subtree(e, n, scope, prefix)
}

// subtree creates the scope of SubTree node n and expands its tree (§6.2).
func (b *builder) subtree(e *element, n, scope int, prefix string) error {
	nd := &b.p.nodes[n]
	treeID := nd.typeID
	info := scopeInfo{TreeID: treeID, Parent: scope, Remap: map[string]string{}}
	auto := false
	if v, ok := e.attr("_autoremap"); ok {
		// The library reads the value with convertFromString<bool>,
		// which throws for anything but these eight spellings.
		switch v {
		case "true", "1", "TRUE", "True":
			auto = true
		case "false", "0", "FALSE", "False":
		default:
			return docError(e, "convertFromString(): invalid bool conversion")
		}
	}
	info.Auto = auto
	remaps := map[string]string{} // port -> value, in the order below
	var order []string
	for _, a := range e.Attrs {
		if !portLike(a.Name) {
			continue
		}
		if _, ok := remaps[a.Name]; !ok {
			order = append(order, a.Name)
		}
		remaps[a.Name] = a.Value
	}
	if ports, ok := b.d.models[treeID]; ok && !auto {
		for _, p := range ports {
			if _, set := remaps[p.name]; set {
				continue
			}
			if p.def == "" {
				return docError(e, "In the <TreeNodesModel> the <Subtree ID=\"%s\"> is defining a mandatory port called [%s], but you are not remapping it", treeID, p.name)
			}
			remaps[p.name] = p.def
			order = append(order, p.name)
		}
	}
	var literals []string
	for _, port := range order {
		v := remaps[port]
		if v == "{=}" {
			v = "{" + port + "}"
		}
		if key, ok := subtreeRef(v); ok {
			info.Remap[port] = key
		} else {
			literals = append(literals, port)
		}
	}
	inst := nd.name
	if _, named := e.attr("name"); !named {
		inst = treeID + "::" + strconv.Itoa(nd.uid)
	}
	if p := b.bb.info[scope].Path; p != "" {
		inst = p + "/" + inst
	}
	info.Path = inst
	s := b.bb.addScope(info)
	for _, port := range literals {
		b.bb.setLiteral(s, port, remaps[port])
	}
	if b.paths[inst] {
		return docError(e, "the subtree instance path %q is used twice", inst)
	}
	b.paths[inst] = true
	b.p.trees = append(b.p.trees, [2]string{treeID, inst})
	return b.tree(e, treeID, inst+"/", n, s)
}

// subtreeRef returns k when a SubTree remapping value is {k} (spaces
// around the braces allowed, at least 3 characters).
func subtreeRef(v string) (string, bool) {
	t := strings.TrimSpace(v)
	if len(t) >= 3 && t[0] == '{' && t[len(t)-1] == '}' {
		return t[1 : len(t)-1], true
	}
	return "", false
}

// construct is the node's own construction (§7 step 3): Script,
// ScriptCondition and Precondition parse their script; the Loop nodes read
// their static list; the entry-updated nodes their key.
func (b *builder) construct(nd *nodeDef, e *element) error {
	read := func(port string) (string, bool) {
		raw, ok := nd.attrs[port]
		if !ok {
			p, _ := nd.k.port(port)
			if !p.HasDefault {
				return "", false
			}
			raw = p.Default
		}
		v, ok := b.bb.readPort(nd.scope, port, raw, "string")
		if !ok {
			return "", false
		}
		return valueString(v)
	}
	switch {
	case nd.k.script != "":
		port := nd.k.script
		src, ok := read(port)
		if !ok {
			return docError(e, "missing port [%s] in %s", port, nd.k.id)
		}
		s, err := b.parse(src)
		if err != nil {
			a := xmlAttr{Name: port, Line: e.Line, Col: e.Col}
			for _, x := range e.Attrs {
				if x.Name == port {
					a = x
				}
			}
			return scriptErrorAt(err, RuntimeError, a, src)
		}
		nd.code, nd.codeSrc = s, src
	case nd.k.loops:
		raw, ok := nd.attrs["queue"]
		if !ok {
			err := docError(e, "missing port [queue] in %s", nd.k.id)
			err.Type = StdLogicError
			return err
		}
		if key, ok := refKey(raw, "queue"); ok {
			nd.listRef, nd.listKey = true, key
			return nil
		}
		list, err := parseList(raw, nd.k.loop)
		if err != nil {
			return docError(e, "%v", err)
		}
		nd.list = list
	case nd.k.watches:
		raw := nd.attrs["entry"]
		if raw == "" {
			err := docError(e, "Missing port 'entry' in %s", nd.k.id)
			err.Type = LogicError
			return err
		}
		if key, ok := refKey(raw, "entry"); ok {
			nd.entryKey = key
		} else {
			nd.entryKey = raw
		}
	}
	return nil
}

// parseList splits a Loop node's queue text on ';' and parses each part
// as typ (TIMED.md §8).
func parseList(s, typ string) ([]Value, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ";")
	if parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	list := make([]Value, 0, len(parts))
	for _, p := range parts {
		v, ok := parseLiteral(p, typ)
		if !ok {
			return nil, fmt.Errorf("%s", cantConvert(p, typ))
		}
		list = append(list, v)
	}
	return list, nil
}

// attrError is an error of type typ at attribute a.
func attrError(a xmlAttr, typ ErrorType, format string, args ...any) *Error {
	e := newError(typ, format, args...)
	e.Line, e.Col = a.Line, a.Col
	return e
}

// retype returns err as an *Error of type typ (a script parse error is
// typed by its caller, §7 step 3).
func retype(err error, typ ErrorType) *Error {
	if e, ok := err.(*Error); ok {
		c := *e
		c.Type = typ
		return &c
	}
	return &Error{Type: typ, Node: -1, Msg: err.Error(), Err: err}
}

// scriptErrorAt is the parse error err of the script src in attribute a
// (or of a script read from a default, a being then its element's place),
// typed typ: located at a. Its message is BehaviorTree.CPP's where the
// parser's is ("Expected operand at position 5 (got ':=')"), else it
// says where in the script ("the script of code, 1:6: unterminated
// string"); a condition's (a LogicError) starts "Error in the script
// \"src\"" and goes on on the next line, as BehaviorTree.CPP's does.
func scriptErrorAt(err error, typ ErrorType, a xmlAttr, src string) *Error {
	e := retype(err, typ)
	if e.Line > 0 && !strings.Contains(e.Msg, " at position ") {
		e.Msg = fmt.Sprintf("the script of %s, %d:%d: %s", a.Name, e.Line, e.Col, e.Msg)
	}
	if typ == LogicError {
		e.Msg = "Error in the script \"" + src + "\"\n" + e.Msg
	}
	e.Line, e.Col = a.Line, a.Col
	return e
}

// retypeAt is retype, located at attribute a when err has no position.
func retypeAt(err error, typ ErrorType, a xmlAttr) *Error {
	e := retype(err, typ)
	if e.Line == 0 {
		e.Line, e.Col = a.Line, a.Col
	}
	return e
}
