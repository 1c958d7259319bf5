package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/btcpp"
	"github.com/zipbt/behaviortree/internal/termsafe"
	"github.com/zipbt/behaviortree/viewer/playground"
)

// This file is bt for BehaviorTree.CPP 4 XML files (package btcpp), which
// bt tells from the other formats by their extension, .xml:
//
//	bt check FILE...
//	bt fmt [-w] [-l] FILE...
//	bt render [-format ascii|unicode|dot|mermaid] [-tree ID] FILE
//	bt run [-steps N] [-script FILE] [-per-call] [-tree ID] FILE
//	bt play [-addr HOST:PORT] [-script FILE] [-per-call] [-poll D] FILE
//	bt convert -to xml FILE (btcpp_convert.go)
//
// check prints the error that stops the reading of a document, or else
// the build error of each of its trees, each as FILE:LINE:COL: TYPE: MSG.
// fmt prints the canonical XML (btcpp.Document.WriteXML: the <include>d
// trees written in, a <TreeNodesModel> for every leaf used). render draws
// the tree's first version (btcpp.Tree.Picture). run ticks the tree
// (BehaviorTree.CPP's tickOnce) and prints each tick's status, the leaf
// calls with the ports they read, and every blackboard scope that holds
// entries. -tree chooses the tree; by default, the document's main tree.
// play serves the page of package viewer/playground for the main tree
// (xmlPlayDefinition); the page sets blackboard entries and saves and
// loads versions.
//
// The file's leaves have no Go code here: every leaf type that the file
// declares in its <TreeNodesModel> or uses without declaring is
// registered as a stand-in (Factory.LeafModels), a condition if the model
// or the script of bt run says so and an action otherwise. A stand-in
// answers from the script of bt run, as the leaves of the other formats
// do: the script's "actions" give an action ID a list of results
// ("success", "failure", "running") and its "conditions" a condition ID
// a list of answers (true, false), used in turn and cycling; leaves the
// script does not list succeed. "delta" gives the seconds that pass
// between two ticks for Delay, Timeout and Sleep, cycling (1 by default).

// isXML reports whether a file argument is a BehaviorTree.CPP XML file.
func isXML(file string) bool { return strings.EqualFold(filepath.Ext(file), ".xml") }

// xmlCommand runs the command cmd when one of its file arguments is an
// XML file: ok is false otherwise, and bt goes on with its other formats.
// A flag's value never counts as a file.
func xmlCommand(cmd string, args []string, stdout, stderr io.Writer) (code int, ok bool) {
	files := fileArgs(args)
	if !slices.ContainsFunc(files, isXML) {
		return 0, false
	}
	var err error
	switch cmd {
	case "check":
		return checkXMLCmd(args, stdout, stderr), true
	case "fmt":
		return fmtXMLCmd(args, stdout, stderr), true
	case "render":
		err = renderXML(args, stdout)
	case "run":
		err = runXML(args, stdout)
	case "convert":
		err = convertXML(args, stdout, stderr)
	default:
		return 0, false
	}
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0, true
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "bt %s: %v\nrun 'bt -h' for usage\n", cmd, err)
		return 2, true
	}
	fmt.Fprintln(stderr, termsafe.Text(err.Error()))
	return 1, true
}

// valueFlags are the flags of bt's commands that take a value.
var valueFlags = map[string]bool{"format": true, "to": true, "steps": true, "seed": true, "script": true, "addr": true, "poll": true, "tree": true}

// fileArgs returns the arguments of a command that are not flags or
// flag values.
func fileArgs(args []string) []string {
	var files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(files, args[i+1:]...)
		}
		if len(a) > 1 && a[0] == '-' {
			name := strings.TrimLeft(a, "-")
			if !strings.Contains(name, "=") && valueFlags[name] {
				i++
			}
			continue
		}
		files = append(files, a)
	}
	return files
}

// xmlDoc is a file read as a BehaviorTree.CPP document.
type xmlDoc struct {
	name    string // as messages show it
	src     []byte
	info    fs.FileInfo
	factory *btcpp.Factory
	doc     *btcpp.Document
	leaves  map[string]*xmlLeaf
	calls   []string // the leaf calls since bt run last printed them
	fsys    *fileFS  // where it was read from
	ans     *agentAnswers
}

// xmlLeaf is a stand-in leaf: its model, and whether it is a condition.
type xmlLeaf struct {
	model     btcpp.LeafModel
	condition bool
}

// fileFS reads the file bt was given from its text already read, and
// every other file (its <include>s) from the disk: paths are slash-
// separated, from the root of the file system (of the volume on Windows).
type fileFS struct {
	root fs.FS
	name string
	src  []byte
	dir  string // the directory of the file system root ("" for the working directory)
}

// osPath returns the path on disk of the file name of f.
func (f *fileFS) osPath(name string) string {
	if f.dir == "" {
		return filepath.FromSlash(name)
	}
	return filepath.Join(f.dir, filepath.FromSlash(name))
}

func (f *fileFS) Open(name string) (fs.File, error) { return f.root.Open(name) }

func (f *fileFS) ReadFile(name string) ([]byte, error) {
	if name == f.name {
		return slices.Clone(f.src), nil
	}
	return fs.ReadFile(f.root, name)
}

// newFileFS returns the fileFS of the file at path ("-": the standard
// input, whose includes are read from the working directory), whose text
// is src.
func newFileFS(file string, src []byte) (*fileFS, error) {
	fsys := &fileFS{name: "file.xml", src: src}
	if file == "-" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		fsys.root = os.DirFS(wd)
		return fsys, nil
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	vol := filepath.VolumeName(abs)
	fsys.dir = vol + string(filepath.Separator)
	fsys.root = os.DirFS(fsys.dir)
	fsys.name = strings.TrimPrefix(filepath.ToSlash(abs[len(vol):]), "/")
	return fsys, nil
}

// xmlPlayDefinition reads an XML file for bt play: the leaf types the
// page answers for, and how to build the tree (its main tree) on a
// Factory with their stand-ins.
func xmlPlayDefinition(name string, src []byte) (playground.Definition, error) {
	fsys, err := newFileFS(name, src)
	if err != nil {
		return playground.Definition{}, fmt.Errorf("%s: %w", name, err)
	}
	models := btcpp.NewFactory().LeafModels(string(src), fsys, path.Dir(fsys.name))
	build := func(f *btcpp.Factory, opts ...btcpp.Option) (*btcpp.Tree, error) {
		doc, err := f.ParseFS(fsys, fsys.name)
		if err == nil {
			var t *btcpp.Tree
			if t, err = doc.Build("", opts...); err == nil {
				return t, nil
			}
		}
		return nil, fmt.Errorf("%s:%w", termsafe.Text(name), xmlErr(err))
	}
	return playground.Definition{BTCPP: &playground.BTCPPTree{Leaves: models, Build: build}}, nil
}

// loadXML reads the XML file at path ("-": the standard input), registers
// stand-ins for its leaves (conditions: the IDs the script answers as
// conditions, besides the model's), answering from sc (nil: all
// succeed; perCall: see agentAnswers), and parses it.
func loadXML(file string, sc *script, perCall bool) (*xmlDoc, error) {
	src, info, err := readInput(file)
	if err != nil {
		return nil, err
	}
	src = stripBOM(src)
	x := &xmlDoc{name: displayName(file), src: src, info: info, factory: btcpp.NewFactory(), leaves: map[string]*xmlLeaf{}, ans: newAgentAnswers(sc, perCall)}
	fsys, err := newFileFS(file, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", x.name, err)
	}
	for _, m := range x.factory.LeafModels(string(src), fsys, path.Dir(fsys.name)) {
		l := &xmlLeaf{model: m, condition: m.Condition}
		if sc != nil {
			isCond := slices.Contains(sc.conditionNames(), m.ID)
			isAction := slices.Contains(sc.actionNames(), m.ID)
			switch {
			case isCond && m.Declared && !m.Condition:
				return nil, fmt.Errorf("%s: the script gives answers for condition %q, which the file's model declares as an action", x.name, m.ID)
			case isAction && m.Condition:
				return nil, fmt.Errorf("%s: the script gives results for action %q, which the file's model declares as a condition", x.name, m.ID)
			}
			l.condition = m.Condition || isCond
		}
		x.leaves[m.ID] = l
	}
	if err := x.register(); err != nil {
		return nil, err
	}
	x.fsys = fsys
	x.doc, err = x.factory.ParseFS(fsys, fsys.name)
	if err != nil {
		var e *btcpp.Error
		if errors.As(err, &e) && fsys.dir != "" {
			// The reader names the file as the file system does: name
			// it as the command line did.
			c := *e
			c.Msg = strings.ReplaceAll(c.Msg, " "+fsys.name, " "+x.name)
			err = &c
		}
		return nil, fmt.Errorf("%s:%w%s", x.name, xmlErr(err), x.v3Hint(file))
	}
	return x, nil
}

// v3Hint returns what to add to the error of reading x when its text is
// of BehaviorTree.CPP 3.x, which BehaviorTree.CPP 4.10 (and so bt) reads
// as format 4, never migrating: BTCPP_format="3", or no BTCPP_format and
// a text that the migration (btcpp.Factory.ParseV3) reads. "" otherwise.
func (x *xmlDoc) v3Hint(file string) string {
	format, ok := xmlFormat(x.src)
	if !ok || format == "4" {
		return ""
	}
	_, renames, err := x.factory.ParseV3(string(x.src))
	if format != "3" && (err != nil || len(renames) == 0) {
		return ""
	}
	what := "it"
	if err == nil {
		what = fmt.Sprintf("it (%d changes)", len(renames))
	}
	return fmt.Sprintf(" (the file looks like BehaviorTree.CPP 3.x, which BehaviorTree.CPP 4.10 reads as format 4: bt convert -to xml %s migrates %s)", termsafe.Text(file), what)
}

// xmlErr returns err with a space in front of a message without a
// position, so that "FILE:" + err reads "FILE:LINE:COL: ..." or
// "FILE: ...".
func xmlErr(err error) error {
	var e *btcpp.Error
	if errors.As(err, &e) && e.Line > 0 {
		return err
	}
	return prefixed{" ", err}
}

// prefixed is an error written with a prefix.
type prefixed struct {
	prefix string
	err    error
}

func (p prefixed) Error() string { return p.prefix + p.err.Error() }
func (p prefixed) Unwrap() error { return p.err }

// register registers the stand-ins, which add their calls to x.calls.
func (x *xmlDoc) register() error {
	record := func(s string) { x.calls = append(x.calls, s) }
	for _, id := range slices.Sorted(maps.Keys(x.leaves)) {
		l := x.leaves[id]
		var err error
		if l.condition {
			err = x.factory.RegisterCondition(id, func(c *btcpp.Call) (btcpp.Status, error) {
				st := btcpp.Success
				if !x.ans.condition(id, portsKey(id, c, l.model.Ports)) {
					st = btcpp.Failure
				}
				record(callText("condition", c, l.model.Ports, st))
				return st, nil
			}, l.model.Ports...)
		} else {
			next := func(c *btcpp.Call, what string) (btcpp.Status, error) {
				st := xmlResults[x.ans.action(id)]
				record(callText(what, c, l.model.Ports, st))
				return st, nil
			}
			err = x.factory.RegisterAction(id, btcpp.Action{
				OnStart:   func(c *btcpp.Call) (btcpp.Status, error) { return next(c, "action") },
				OnRunning: func(c *btcpp.Call) (btcpp.Status, error) { return next(c, "action (running)") },
				OnHalted:  func(c *btcpp.Call) { record("halt " + termsafe.Text(c.Path())) },
			}, l.model.Ports...)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", x.name, err)
		}
	}
	return nil
}

// xmlResults are the script's results of actions.
var xmlResults = map[string]btcpp.Status{"success": btcpp.Success, "failure": btcpp.Failure, "running": btcpp.Running}

// callText is a leaf call as bt run prints it: "action PATH port=value
// ... -> running".
func callText(what string, c *btcpp.Call, ports []btcpp.Port, st btcpp.Status) string {
	var b strings.Builder
	b.WriteString(what)
	b.WriteByte(' ')
	b.WriteString(termsafe.Text(c.Path()))
	for _, p := range ports {
		if p.Dir == btcpp.Out {
			continue
		}
		v, err := c.String(p.Name)
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, " %s=%s", p.Name, quoteIfNeeded(v))
	}
	b.WriteString(" -> ")
	b.WriteString(strings.ToLower(st.String()))
	return b.String()
}

// portsKey is a condition call as agentAnswers holds it within a tick:
// its ID and the values of the input ports it reads.
func portsKey(id string, c *btcpp.Call, ports []btcpp.Port) string {
	var b strings.Builder
	b.WriteString(id)
	for _, p := range ports {
		if p.Dir == btcpp.Out {
			continue
		}
		if v, err := c.String(p.Name); err == nil {
			fmt.Fprintf(&b, " %s=%q", p.Name, v)
		}
	}
	return b.String()
}

// quoteIfNeeded returns v quoted when it is empty or holds a space, a
// quote or a control character.
func quoteIfNeeded(v string) string {
	if v == "" || strings.ContainsAny(v, " \t\n\r\"'=") || strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Sprintf("%q", v)
	}
	return v
}

// checkXMLCmd is bt check with XML files among its files: each XML file's
// errors (the document's first, else every tree's build error), the other
// files checked as bt check checks them.
func checkXMLCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "check FILE...", stdout)
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "bt check: %v\n", err)
		return 2
	}
	code := 0
	for _, f := range fs.Args() {
		if !isXML(f) {
			if c := check([]string{"--", f}, stdout, stderr); c > code {
				code = c
			}
			continue
		}
		errs := checkXML(f)
		for _, err := range errs {
			fmt.Fprintln(stderr, termsafe.Text(err.Error()))
		}
		if len(errs) > 0 && code == 0 {
			code = 1
		}
	}
	return code
}

// checkXML returns the errors of an XML file: the error that stops its
// reading, or else the build error of each of its trees (each once).
func checkXML(file string) []error {
	x, err := loadXML(file, nil, false)
	if err != nil {
		return []error{err}
	}
	var errs []error
	seen := map[string]bool{}
	for _, id := range x.doc.Trees() {
		if _, err := x.doc.Build(id); err != nil {
			if msg := xmlErr(err).Error(); !seen[msg] {
				seen[msg] = true
				errs = append(errs, fmt.Errorf("%s:%w", x.name, xmlErr(err)))
			}
		}
	}
	return errs
}

// fmtXMLCmd is bt fmt with XML files among its files.
func fmtXMLCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("fmt", "fmt [-w] [-l] [-lossy] FILE...", stdout)
	write := fs.Bool("w", false, "write the result to the file instead of stdout")
	list := fs.Bool("l", false, "list the files whose formatting differs")
	lossy := fs.Bool("lossy", false, "with -w, rewrite an XML file even if its canonical XML drops comments, port descriptions or unused model entries")
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "bt fmt: %v\n", err)
		return 2
	}
	if *write && slices.Contains(fs.Args(), "-") {
		fmt.Fprintln(stderr, "bt fmt: -w cannot rewrite the standard input")
		return 2
	}
	code := 0
	for _, f := range fs.Args() {
		var err error
		if isXML(f) {
			err = fmtXMLFile(f, *write, *list, *lossy, stdout, stderr)
		} else {
			err = fmtFile(f, *write, *list, stdout)
		}
		if err != nil {
			fmt.Fprintln(stderr, err)
			code = 1
		}
	}
	return code
}

// fmtXMLFile prints the canonical XML of a file, lists the file if it
// differs (list), or rewrites it (write). The canonical XML must read back
// to a document whose canonical XML is the same, or nothing is written;
// a file that includes others is never rewritten (its canonical XML holds
// the included trees). What the canonical XML drops or guesses (lossesOf)
// is written to stderr as warnings; a file that would lose something is
// rewritten only with lossy.
func fmtXMLFile(file string, write, list, lossy bool, stdout, stderr io.Writer) error {
	x, err := loadXML(file, nil, false)
	if err != nil {
		return err
	}
	if inc := x.doc.Included(); write && len(inc) > 0 {
		for i := range inc {
			inc[i] = x.fsys.osPath(inc[i])
		}
		return fmt.Errorf("%s: the file includes %s: its canonical XML writes the included trees in, so bt fmt -w leaves it as it is (bt fmt prints it)", x.name, termsafe.Text(strings.Join(inc, ", ")))
	}
	out, err := x.doc.Format()
	if err != nil {
		return fmt.Errorf("%s: %w", x.name, err)
	}
	// The safety net: never print or write a form that does not read back.
	again, err := x.factory.Parse(string(out))
	if err == nil {
		var out2 []byte
		if out2, err = again.Format(); err == nil && !bytes.Equal(out, out2) {
			err = errors.New("its canonical XML formats to another text")
		}
	}
	if err != nil {
		return fmt.Errorf("%s: the canonical XML of this file does not read back, so bt fmt leaves the file as it is: %w", x.name, err)
	}
	differs := !bytes.Equal(out, x.src)
	if list && differs {
		fmt.Fprintln(stdout, x.name)
	}
	if !list && differs {
		loss := lossesOf(x, out)
		if write && !lossy {
			if err := loss.refusal(x.name); err != nil {
				return err
			}
		}
		for _, w := range append(loss.lost, loss.guess...) {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
	}
	if write {
		if differs {
			return replaceFile(file, out, x.info)
		}
		return nil
	}
	if !list {
		_, err = stdout.Write(out)
	}
	return err
}

// build builds the tree id of x (the main tree for "").
func (x *xmlDoc) build(id string, opts ...btcpp.Option) (*btcpp.Tree, error) {
	t, err := x.doc.Build(id, opts...)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", x.name, xmlErr(err))
	}
	return t, nil
}

// renderXML is bt render of an XML file: the picture of the tree's first
// version (btcpp.Tree.Picture).
func renderXML(args []string, stdout io.Writer) error {
	fs := newFlags("render", "render [-format ascii|unicode|dot|mermaid] [-tree ID] FILE", stdout)
	format := fs.String("format", "ascii", "ascii, unicode, dot or mermaid")
	treeID := fs.String("tree", "", "the tree to draw (default: the document's main tree)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch *format {
	case "ascii", "unicode", "dot", "mermaid":
	default:
		return usagef("unknown format %q (ascii, unicode, dot, mermaid)", *format)
	}
	file, err := onlyFile(fs)
	if err != nil {
		return err
	}
	x, err := loadXML(file, nil, false)
	if err != nil {
		return err
	}
	tree, err := x.build(*treeID)
	if err != nil {
		return err
	}
	return writePicture(stdout, tree.Picture(), *format)
}

// writePicture draws pic in a format of bt render.
func writePicture(w io.Writer, pic bt.Picture, format string) error {
	switch format {
	case "ascii":
		return pic.WriteText(w, bt.ASCII)
	case "unicode":
		return pic.WriteText(w, bt.Unicode)
	case "dot":
		return pic.WriteDOT(w)
	}
	return pic.WriteMermaid(w)
}

// runXML is bt run of an XML file: it ticks the tree (tickOnce) -steps
// times and prints, for each tick, its status, the leaf calls, and every
// blackboard scope with its entries.
func runXML(args []string, stdout io.Writer) error {
	fs := newFlags("run", "run [-steps N] [-script FILE] [-per-call] [-tree ID] FILE", stdout)
	steps := fs.Int("steps", 10, "the number of ticks")
	scriptFile := fs.String("script", "", strings.ReplaceAll(scriptUsage, "Name", "ID"))
	perCall := fs.Bool("per-call", false, strings.ReplaceAll(perCallUsage, "Mistreevous calls the agent", "BehaviorTree.CPP calls the leaf")+" (a step is a tick)")
	treeID := fs.String("tree", "", "the tree to run (default: the document's main tree)")
	file, sc, err := runInputs(fs, args, steps, scriptFile)
	if err != nil {
		return err
	}
	x, err := loadXML(file, &sc, *perCall)
	if err != nil {
		return err
	}
	if err := x.checkScript(displayName(*scriptFile), &sc); err != nil {
		return err
	}
	nd := 0
	delta := func() time.Duration {
		if len(sc.Delta) == 0 {
			return time.Second
		}
		d := sc.Delta[nd%len(sc.Delta)]
		nd++
		return seconds(d)
	}
	tree, err := x.build(*treeID, btcpp.WithDeltaTime(delta))
	if err != nil {
		return err
	}
	for k := 1; k <= *steps; k++ {
		x.calls = x.calls[:0]
		x.ans.begin(k - 1)
		next, st, err := tree.TickOnce()
		fmt.Fprintf(stdout, "tick %d: %s", k, st)
		if n := next.RootTicks(); n > 1 {
			fmt.Fprintf(stdout, " (%d root executions)", n)
		}
		fmt.Fprintln(stdout)
		for _, c := range x.calls {
			fmt.Fprintf(stdout, "  %s\n", c)
		}
		writeScopes(stdout, next)
		if err != nil {
			return fmt.Errorf("%s: tick %d: %w", x.name, k, err)
		}
		tree = next
	}
	return nil
}

// writeScopes prints the blackboard scopes of a version that hold
// entries: "  blackboard Main:" (or "  blackboard PATH (TREE):" for a
// SubTree's), then "    key = value (type)".
func writeScopes(w io.Writer, t *btcpp.Tree) {
	for i, s := range t.Scopes() {
		entries := t.Entries(i)
		if len(entries) == 0 {
			continue
		}
		if s.Path == "" {
			fmt.Fprintf(w, "  blackboard %s:\n", s.TreeID)
		} else {
			fmt.Fprintf(w, "  blackboard %s (%s):\n", termsafe.Text(s.Path), s.TreeID)
		}
		for _, e := range entries {
			v := "(empty)"
			if !e.Value.IsEmpty() {
				v = e.Value.String()
				if e.Value.IsString() {
					v = fmt.Sprintf("%q", v)
				}
			}
			fmt.Fprintf(w, "    %s = %s (%s)\n", termsafe.Text(e.Key), v, e.Value.Type())
		}
	}
}

// checkScript returns an error naming the first action or condition of
// the script (in the order of their IDs) that is no leaf of the file: an
// ID misspelt in the script would otherwise be ignored without a word.
func (x *xmlDoc) checkScript(name string, sc *script) error {
	for _, a := range sc.actionNames() {
		if l, ok := x.leaves[a]; !ok || l.condition {
			return fmt.Errorf("%s: the script gives results for action %q, which is no action leaf of %s", name, a, x.name)
		}
	}
	for _, c := range sc.conditionNames() {
		if _, ok := x.leaves[c]; !ok {
			return fmt.Errorf("%s: the script gives answers for condition %q, which is no leaf of %s", name, c, x.name)
		}
	}
	for i, d := range sc.Delta {
		if d < 0 || d > maxDeltaSeconds {
			return fmt.Errorf("%s: delta %d is %g seconds: want 0 to %g", name, i, d, float64(maxDeltaSeconds))
		}
	}
	return nil
}
