// Command bt checks, formats, converts, draws and runs behavior tree files:
// MDSL texts (Mistreevous's definition language, with this library's
// keywords for the Elixir kinds), Mistreevous JSON definitions, and the
// JSON definitions of the Elixir corpus.
//
// Usage:
//
//	bt check FILE...
//	bt fmt [-w] [-l] [-lossy] FILE...
//	bt convert -to json|mdsl|mistreevous|elixir|xml [-expand] FILE
//	bt render [-format ascii|unicode|dot|mermaid] FILE
//	bt run [-steps N] [-seed S] [-script FILE] [-per-call] FILE
//	bt play [-addr HOST:PORT] [-script FILE] [-per-call] [-seed S] [-poll D] FILE
//
// check parses and validates every file and prints the errors of each
// (of an MDSL text, every error, up to 50, with the nearest keyword for a
// misspelt one), exiting 1 if there are any. fmt prints the canonical
// form of MDSL files (-w rewrites them in place, -l lists those whose
// formatting differs),
// keeping named roots, branches and comments. convert writes a tree in
// another format: json is Mistreevous JSON for trees of Mistreevous kinds
// and the Elixir corpus format for trees of Elixir kinds. Mistreevous JSON
// from MDSL is what Mistreevous's convertMDSLToJSON gives, named roots and
// branch nodes kept, so that Mistreevous reads it back; -expand writes the
// tree with branches expanded into one root instead. render draws the
// tree. run steps the tree with a scripted agent: the script (JSON) gives
// each action name a list of results ("success", "failure", "running")
// and each condition name a list of booleans, used in turn and cycling, as
// the Mistreevous corpus does; names it does not list succeed (actions)
// or hold (conditions). Its per-step form, {"steps": [{"actions":
// {"A": "running"}, "conditions": {"C": false}}, ...]}, gives step k the
// k-th entry (cycling), whose names take precedence over the lists. A
// difference from calling the agent as Mistreevous does: by default a
// condition name is answered once per step, and a guard checked again or
// a condition ticked again in the same step gets the same answer (a
// list advances once per step); -per-call answers every call. play serves a local page (default
// 127.0.0.1:8765) to step the tree in the browser with you as the agent,
// with undo, branches and editing; see package viewer/playground. Usage
// errors exit 2; -h prints the usage and exits 0.
//
// A FILE ending in .xml is a BehaviorTree.CPP tree (package btcpp): check,
// fmt (the canonical XML, with a <TreeNodesModel> entry for every leaf;
// it warns of what that form drops, comments, port descriptions and the
// models of unused leaves, and -w then leaves the file as it is unless
// -lossy is given),
// render, run and play take it, with its <include>s read beside it. Its
// leaves have no Go code here, so each leaf type answers from the script
// (run) or the page (play), with the ports that <TreeNodesModel> declares;
// the page of play lists every blackboard scope, sets a typed entry of
// one, and saves and loads versions. convert -to xml writes the canonical
// XML of an .xml file, a file of format 3 migrated to format 4 with a
// warning per rename. bt converts no tree between XML and MDSL or JSON:
// BehaviorTree.CPP and Mistreevous tick differently (halting, SKIPPED,
// the blackboard and its ports, against guards, callbacks and positional
// arguments), and the error names the first node without a counterpart.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/termsafe"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mdsl"
	"github.com/zipbt/behaviortree/mistreevous"
	"github.com/zipbt/behaviortree/observe"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = `usage:
  bt check FILE...                             parse and validate; exit 1 on errors
  bt fmt [-w] [-l] [-lossy] FILE...            print the canonical MDSL (-w: rewrite, -l: list)
  bt convert -to json|mdsl|mistreevous|elixir|xml [-expand] FILE
                                               convert between MDSL and JSON (xml: from .xml)
  bt render [-format ascii|unicode|dot|mermaid] FILE
                                               draw the tree
  bt run [-steps N] [-seed S] [-script FILE] [-per-call] FILE
                                               step the tree with a scripted agent
  bt play [-addr HOST:PORT] [-script FILE] [-per-call] [-seed S] [-poll D] FILE
                                               step the tree in the browser, with undo and editing
Flags may also follow the file names (bt convert FILE -to mdsl); after --,
every argument is a file name. A FILE ending in .xml is a BehaviorTree.CPP
tree: check, fmt, render, run and play take it (fmt -w keeps a file whose
canonical XML would drop comments or model details, unless -lossy; play: set blackboard entries,
save and load versions), and convert -to xml writes its canonical XML, format
3 migrated to 4. Nothing converts between XML and MDSL/JSON: BehaviorTree.CPP
and Mistreevous tick differently, so bt names the first node without a
counterpart instead.
`

// usageError is a usage error (exit 2).
type usageError string

func (e usageError) Error() string { return string(e) }

// usagef returns a usage error.
func usagef(format string, args ...any) error { return usageError(fmt.Sprintf(format, args...)) }

// run runs bt with args (without the program name) and returns the exit
// code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, "bt: no command\n"+usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	stdinRead = false
	if code, ok := xmlCommand(cmd, rest, stdout, stderr); ok {
		return code
	}
	var err error
	switch cmd {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "check":
		return check(rest, stdout, stderr)
	case "fmt":
		return fmtCmd(rest, stdout, stderr)
	case "convert":
		err = convert(rest, stdout, stderr)
	case "render":
		err = render(rest, stdout, stderr)
	case "run":
		err = runCmd(rest, stdout, stderr)
	case "play":
		err = playCmd(rest, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "bt: unknown command %s\n%s", termsafe.Text(strconv.Quote(cmd)), usage)
		return 2
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "bt %s: %s\nrun 'bt -h' for usage\n", cmd, termsafe.Lines(err.Error()))
		return 2
	}
	printError(stderr, err)
	return 1
}

// printError prints err on a line of its own (or more), with control
// characters and invalid UTF-8 quoted (termsafe.Lines): every error of bt
// goes through it or through termsafe, so that names, file names and
// source lines from a file reach the terminal as text.
func printError(w io.Writer, err error) {
	fmt.Fprintln(w, termsafe.Lines(err.Error()))
}

// newFlags returns a flag set for a subcommand that writes its usage to
// stdout for -h and reports bad flags as usage errors.
func newFlags(name, synopsis string, stdout io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(stdout, "usage: bt %s\n", synopsis)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parseFlags parses args, turning flag errors into usage errors. Flags
// may come before or after the file names, or between them (bt convert
// FILE -to mdsl); after "--" every argument is a file name, and "-" alone
// is one (the standard input). It prints the usage once for -h, and not
// for bad flags (whose error says to run bt -h): the flag package, which
// would print it for both, is kept from printing it.
func parseFlags(fs *flag.FlagSet, args []string) error {
	usage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = usage }()
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				usage()
				return err
			}
			return usagef("%v", err)
		}
		rest := fs.Args()
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			files = append(files, rest...) // all file names from here
			break
		}
		i := 0 // the file names up to the next flag
		for i < len(rest) && !isFlag(rest[i]) {
			i++
		}
		files = append(files, rest[:i]...)
		if i == len(rest) {
			break
		}
		args = rest[i:]
	}
	// Leave the file names as fs.Args, the flags as they were parsed.
	return fs.Parse(append([]string{"--"}, files...))
}

// isFlag reports whether the argument a is a flag rather than a file
// name: it starts with "-" and is not "-" alone.
func isFlag(a string) bool { return len(a) > 1 && a[0] == '-' }

// A tree read from a file: of Calls (MDSL, Mistreevous JSON) or of
// strings (MDSL with string leaves, Elixir JSON).
type tree struct {
	call   bt.Node[bt.Call]
	str    bt.Node[string]
	isStr  bool
	format string // "mdsl", "mistreevous", "elixir"
}

// load reads a tree from a file in any of the formats ("-" is the
// standard input), and returns it with the text it was read from, without
// a leading byte-order mark.
func load(path string) (tree, []byte, error) {
	src, _, err := readInput(path)
	if err != nil {
		return tree{}, nil, err
	}
	src = stripBOM(src)
	t, err := parse(displayName(path), src)
	return t, src, err
}

// parse reads a tree in any of the formats from src, which has no
// byte-order mark.
func parse(path string, src []byte) (tree, error) {
	trimmed := bytes.TrimLeft(src, " \t\r\n")
	if len(trimmed) > 0 && (trimmed[0] == '[' || trimmed[0] == '{' || trimmed[0] == '"') {
		n, err := mistreevous.Parse(src)
		if err == nil {
			return tree{call: n, format: "mistreevous"}, nil
		}
		s, err2 := bt.ParseJSON[string](src)
		if err2 == nil {
			return tree{str: s, isStr: true, format: "elixir"}, nil
		}
		if bytes.Contains(src, []byte(`"root"`)) {
			return tree{}, fmt.Errorf("%s: %w", path, err)
		}
		return tree{}, fmt.Errorf("%s: %w", path, err2)
	}
	n, err := mdsl.Parse(path, src)
	if err == nil {
		return tree{call: n, format: "mdsl"}, nil
	}
	s, err2 := mdsl.ParseFunc(path, src, func(s string) (string, error) { return s, nil })
	if err2 == nil {
		return tree{str: s, isStr: true, format: "mdsl"}, nil
	}
	var e1, e2 *mdsl.Error
	if errors.As(err, &e1) && errors.As(err2, &e2) && e2.Offset > e1.Offset {
		return tree{}, err2
	}
	return tree{}, err
}

func check(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("check", "check FILE...", stdout)
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "bt check: %s\n", termsafe.Lines(err.Error()))
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "bt check: no files")
		return 2
	}
	code := 0
	for _, f := range fs.Args() {
		src, _, err := readInput(f)
		if err != nil {
			printError(stderr, err)
			code = 1
			continue
		}
		src = stripBOM(src)
		// An MDSL text: every error, not only the first, from Check alone
		// (it reports none for a text that Parse or ParseFunc reads), which
		// builds no tree, so that its memory stays near the text's size.
		if trimmed := bytes.TrimLeft(src, " \t\r\n"); len(trimmed) == 0 || !bytes.ContainsRune([]byte(`[{"`), rune(trimmed[0])) {
			if errs := mdsl.Check(displayName(f), src); len(errs) > 0 {
				code = 1
				for _, e := range errs {
					printError(stderr, e)
				}
			}
			continue
		}
		if _, err := parse(displayName(f), src); err != nil {
			code = 1
			printError(stderr, err)
		}
	}
	return code
}

func fmtCmd(args []string, stdout, stderr io.Writer) int {
	fs := newFlags("fmt", "fmt [-w] [-l] [-lossy] FILE...", stdout)
	write := fs.Bool("w", false, "write the result to the file instead of stdout")
	list := fs.Bool("l", false, "list the files whose formatting differs")
	fs.Bool("lossy", false, "with -w, rewrite an XML file even if its canonical XML drops comments, port descriptions or unused model entries (MDSL loses nothing)")
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "bt fmt: %s\n", termsafe.Lines(err.Error()))
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(stderr, "bt fmt: no files")
		return 2
	}
	if *write {
		for _, f := range fs.Args() {
			if f == "-" {
				fmt.Fprintln(stderr, "bt fmt: -w cannot rewrite the standard input")
				return 2
			}
		}
	}
	code := 0
	for _, f := range fs.Args() {
		if err := fmtFile(f, *write, *list, stdout); err != nil {
			printError(stderr, err)
			code = 1
		}
	}
	return code
}

// formatSource returns the canonical form of an MDSL text. A variable so
// that tests can make it wrong.
var formatSource = mdsl.FormatSource

// fmtFile formats one file: it prints the canonical form, lists the file
// if its form differs (list), or rewrites it (write). It checks that the
// canonical form parses, and writes nothing otherwise.
func fmtFile(f string, write, list bool, stdout io.Writer) error {
	src, info, err := readInput(f)
	if err != nil {
		return err
	}
	name := displayName(f)
	out, err := formatSource(name, stripBOM(src))
	if err != nil {
		return err
	}
	// The safety net: never print or write a form that check refuses.
	if _, err := parse(name+" (canonical form)", out); err != nil {
		return fmt.Errorf("%s: the canonical form of this file does not parse back, so bt fmt leaves the file as it is: %w", name, err)
	}
	differs := !bytes.Equal(out, src)
	if list && differs {
		fmt.Fprintln(stdout, termsafe.Text(name))
	}
	if write {
		if differs {
			return replaceFile(f, out, info)
		}
		return nil
	}
	if !list {
		_, err = stdout.Write(out)
	}
	return err
}

// onlyFile returns the one file argument.
func onlyFile(fs *flag.FlagSet) (string, error) {
	switch fs.NArg() {
	case 0:
		return "", usagef("no file")
	case 1:
		return fs.Arg(0), nil
	}
	return "", usagef("one file, got %d", fs.NArg())
}

// The synopsis and flags of bt convert, for every format.
const (
	convertSynopsis    = "convert -to json|mdsl|mistreevous|elixir|xml [-expand] FILE"
	convertToUsage     = "the output format: json (Mistreevous JSON, or the Elixir corpus JSON for trees of Elixir kinds), mdsl, mistreevous, elixir; xml (BehaviorTree.CPP 4, from an .xml file only)"
	convertExpandUsage = "Mistreevous JSON from MDSL: expand branches into one root, rather than keep the named roots and branch nodes as Mistreevous's convertMDSLToJSON does"
)

func convert(args []string, stdout, _ io.Writer) error {
	fs := newFlags("convert", convertSynopsis, stdout)
	to := fs.String("to", "", convertToUsage)
	expand := fs.Bool("expand", false, convertExpandUsage)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	switch *to {
	case "json", "mdsl", "mistreevous", "elixir", "xml":
	case "":
		return usagef("-to is required")
	default:
		return usagef("unknown format %q for -to (json, mdsl, mistreevous, elixir, xml)", *to)
	}
	file, err := onlyFile(fs)
	if err != nil {
		return err
	}
	t, src, err := load(file)
	if err != nil {
		return err
	}
	if *to == "xml" {
		return mistreevousAcross(t, displayName(file))
	}
	out, err := convertTree(t, src, displayName(file), *to, *expand)
	if err != nil {
		return fmt.Errorf("%s: %w", displayName(file), err)
	}
	_, err = stdout.Write(out)
	return err
}

// hasElixirKinds reports whether a tree has kinds that only the
// Value/Succeed/Fail style (Elixir's) runs, which Mistreevous JSON cannot
// hold: -to json writes such a tree in the Elixir JSON form. A kind
// without a Mistreevous name that the stepped engine runs (the reactive
// kinds) does not make a tree Elixir's.
func hasElixirKinds[L any](n bt.Node[L]) bool {
	for c := range n.Preorder() {
		if !c.Kind().RunsOn(kind.Stepped) {
			return true
		}
	}
	return false
}

func convertTree(t tree, src []byte, file, to string, expand bool) ([]byte, error) {
	if to == "mdsl" {
		switch {
		case t.format == "mdsl":
			return mdsl.FormatSource(file, src)
		case t.isStr:
			return mdsl.FormatFunc(t.str, func(s string) (string, error) { return s, nil })
		}
		return mdsl.Format(t.call)
	}
	elixir := to == "elixir"
	if to == "json" {
		if t.isStr {
			elixir = hasElixirKinds(t.str) || t.format == "elixir"
		} else {
			elixir = hasElixirKinds(t.call)
		}
	}
	if elixir {
		s, err := elixirTree(t)
		if err != nil {
			return nil, err
		}
		// s.MarshalJSON, not json.MarshalIndent(s): encoding/json would
		// wrap the library's error in its own "error calling MarshalJSON".
		raw, err := s.MarshalJSON()
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if err := json.Indent(&b, raw, "", "  "); err != nil {
			return nil, err
		}
		return append(b.Bytes(), '\n'), nil
	}
	var b []byte
	var err error
	if t.format == "mdsl" && !t.isStr && !expand {
		// As Mistreevous's convertMDSLToJSON: named roots and branches kept.
		b, err = mdsl.ToJSON(file, src)
	} else {
		c := t.call
		if t.isStr {
			c = callTree(t.str)
		}
		b, err = mistreevous.Format(c)
	}
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := json.Indent(&buf, b, "", "  "); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

// elixirTree returns the tree as a definition of string leaves without a
// root, for the Elixir engine and its JSON.
func elixirTree(t tree) (bt.Node[string], error) {
	var s bt.Node[string]
	if t.isStr {
		s = t.str
	} else {
		var err error
		if s, err = stringTree(t.call); err != nil {
			return s, err
		}
	}
	if s.Kind() == kind.Root {
		if len(s.Attrs()) > 0 {
			return s, errors.New("the root has guards or callbacks, which Elixir-style trees do not have")
		}
		s = s.Child(0)
	}
	for c := range s.Preorder() {
		if !c.Kind().RunsOn(kind.ValueSucceedFail) {
			return s, fmt.Errorf("%s nodes run only on the stepped engine: no Elixir form", c.Kind())
		}
		if len(c.Attrs()) > 0 {
			return s, errors.New("guards and callbacks run only on the stepped engine: no Elixir form")
		}
	}
	return s, nil
}

// mapTree rebuilds a tree with new leaves and attribute values.
func mapTree[A, B any](n bt.Node[A], f func(A) (B, error)) (bt.Node[B], error) {
	type frame struct {
		n    bt.Node[A]
		kids []bt.Node[B]
	}
	var zero bt.Node[B]
	stack := []frame{{n: n}}
	var done bt.Node[B]
	for len(stack) > 0 {
		top := &stack[len(stack)-1]
		if len(top.kids) < top.n.Len() {
			stack = append(stack, frame{n: top.n.Child(len(top.kids))})
			continue
		}
		var out bt.Node[B]
		switch top.n.Kind() {
		case kind.Leaf, kind.Condition:
			a, _ := top.n.Leaf()
			b, err := f(a)
			if err != nil {
				return zero, err
			}
			if top.n.Kind() == kind.Leaf {
				out = bt.Leaf(b)
			} else {
				out = bt.Condition(b)
			}
		case kind.Custom:
			return zero, errors.New("custom nodes cannot be converted")
		default:
			var err error
			if out, err = bt.Build(top.n.Kind(), top.n.Params(), top.kids...); err != nil {
				return zero, err
			}
		}
		if as := top.n.Attrs(); len(as) > 0 {
			bs := make([]attr.Attr[B], 0, len(as))
			for _, a := range as {
				v, err := f(a.Value)
				if err != nil {
					return zero, err
				}
				var b attr.Attr[B]
				switch a.Kind {
				case attr.KindWhile:
					b = attr.While(v)
				case attr.KindUntil:
					b = attr.Until(v)
				case attr.KindEntry:
					b = attr.Entry(v)
				case attr.KindOnStep:
					b = attr.OnStep(v)
				case attr.KindExit:
					b = attr.Exit(v)
				}
				if a.SucceedOnAbort {
					b = b.ThenSucceed()
				}
				bs = append(bs, b)
			}
			out = out.With(bs...)
		}
		stack = stack[:len(stack)-1]
		if len(stack) == 0 {
			done = out
		} else {
			stack[len(stack)-1].kids = append(stack[len(stack)-1].kids, out)
		}
	}
	return done, nil
}

// stringTree turns a tree of Calls without arguments into a tree of
// their names.
func stringTree(n bt.Node[bt.Call]) (bt.Node[string], error) {
	return mapTree(n, func(c bt.Call) (string, error) {
		if len(c.Args) > 0 {
			return "", fmt.Errorf("%s has arguments, which Elixir-style leaves do not have", c)
		}
		return c.Name, nil
	})
}

// callTree turns a tree of strings into a tree of Calls without
// arguments.
func callTree(n bt.Node[string]) bt.Node[bt.Call] {
	c, _ := mapTree(n, func(s string) (bt.Call, error) { return bt.Call{Name: s}, nil })
	return c
}

func render(args []string, stdout, _ io.Writer) error {
	fs := newFlags("render", "render [-format ascii|unicode|dot|mermaid] FILE", stdout)
	format := fs.String("format", "ascii", "ascii, unicode, dot or mermaid")
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
	t, _, err := load(file)
	if err != nil {
		return err
	}
	var pic bt.Picture
	if t.isStr {
		pic = t.str.Picture()
	} else {
		pic = t.call.Picture()
	}
	switch *format {
	case "ascii":
		return pic.WriteText(stdout, bt.ASCII)
	case "unicode":
		return pic.WriteText(stdout, bt.Unicode)
	case "dot":
		return pic.WriteDOT(stdout)
	}
	return pic.WriteMermaid(stdout)
}

// script is what bt run's agent does: per action name its results, per
// condition name its answers, each used in turn, cycling; and, in the
// per-step form, per step the result or answer of the names it gives
// (see agentAnswers).
type script struct {
	Actions    map[string][]string `json:"actions"`
	Conditions map[string][]bool   `json:"conditions"`
	// Steps gives, per step (cycling), answers that take precedence over
	// the per-call lists for that step.
	Steps []scriptStep `json:"steps"`
	// Delta is the seconds that pass at each step, cycling (Mistreevous's
	// getDeltaTime); default 1.
	Delta []float64 `json:"delta"`
}

// runInputs parses bt run's flags (fs's, on args; steps and scriptFile are
// two of them), checks -steps, and
// returns the one file and the script that -script names (empty without
// it): what bt run takes for every format.
func runInputs(fs *flag.FlagSet, args []string, steps *int, scriptFile *string) (string, script, error) {
	var sc script
	if err := parseFlags(fs, args); err != nil {
		return "", sc, err
	}
	if *steps < 0 {
		return "", sc, usagef("-steps must be 0 or more, got %d", *steps)
	}
	file, err := onlyFile(fs)
	if err != nil {
		return "", sc, err
	}
	if *scriptFile != "" {
		if err := sc.load(*scriptFile); err != nil {
			return "", sc, err
		}
	}
	return file, sc, nil
}

func runCmd(args []string, stdout, _ io.Writer) error {
	fs := newFlags("run", "run [-steps N] [-seed S] [-script FILE] [-per-call] FILE", stdout)
	steps := fs.Int("steps", 10, "the number of steps (ticks, or signals for Elixir-style trees)")
	seed := fs.Uint64("seed", 1, "the seed of the tree's random draws")
	scriptFile := fs.String("script", "", scriptUsage)
	perCall := fs.Bool("per-call", false, perCallUsage)
	file, sc, err := runInputs(fs, args, steps, scriptFile)
	if err != nil {
		return err
	}
	t, _, err := load(file)
	if err != nil {
		return err
	}
	if *scriptFile != "" {
		if err := sc.check(displayName(*scriptFile), t); err != nil {
			return err
		}
	}
	if t.runsElixir() {
		s, err := elixirTree(t)
		if err != nil {
			return fmt.Errorf("%s: %w", displayName(file), err)
		}
		return runElixir(stdout, s, &sc, *steps, *seed)
	}
	c := t.call
	if t.isStr {
		c = callTree(t.str)
	}
	return runStepped(stdout, c, &sc, *steps, *seed, *perCall)
}

// scriptUsage is the usage of bt run's -script flag.
const scriptUsage = `a JSON script: {"actions": {"Name": ["success", "running", ...]}, "conditions": {"Name": [true, false, ...]}, "delta": [seconds, ...]}, answers per call, cycling; and/or per step: {"steps": [{"actions": {"Name": "success"}, "conditions": {"Name": true}}, ...]}, cycling, before the per-call lists`

// perCallUsage is the usage of the -per-call flag of bt run and bt play.
const perCallUsage = "answer a condition at each of its calls, as Mistreevous calls the agent (default: once per condition name per step, the answer reused within the step)"

var results = map[string]bt.Result{"success": bt.ResultSuccess, "failure": bt.ResultFailure, "running": bt.ResultRunning}

func runStepped(w io.Writer, def bt.Node[bt.Call], sc *script, steps int, seed uint64, perCall bool) error {
	ans := newAgentAnswers(sc, perCall)
	agent := bt.Agent[bt.Call]{
		Action:    func(c bt.Call) bt.Result { return results[ans.action(c.Name)] },
		Condition: func(c bt.Call) bool { return ans.condition(c.Name, c.String()) },
		Entry:     func(bt.Call) {},
		OnStep:    func(bt.Call) {},
		Exit:      func(bt.Call, bool, bool) {},
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
	tree, err := bt.NewStepped(def, agent, bt.WithSeed(seed), bt.WithDeltaTime(delta))
	if err != nil {
		return err
	}
	var b strings.Builder
	emit := observe.NewLogger(&b, tree)
	for s := 1; s <= steps; s++ {
		b.Reset()
		ans.begin(s - 1)
		next, err := tree.StepWith(emit)
		if err != nil {
			return fmt.Errorf("step %d: %w", s, err)
		}
		tree = next
		fmt.Fprintf(w, "step %d: %s\n%s", s, tree.State(), b.String())
	}
	return nil
}

func runElixir(w io.Writer, def bt.Node[string], sc *script, steps int, seed uint64) error {
	ans := newAgentAnswers(sc, true)
	tree := bt.Start(def, bt.WithSeed(seed))
	for s := 1; s <= steps; s++ {
		v := tree.Value()
		ans.begin(s - 1)
		ok := true
		switch ans.action(v) {
		case "failure":
			ok = false
		case "running":
			return fmt.Errorf("step %d: %s: Elixir-style leaves succeed or fail; \"running\" is for the stepped engine", s, v)
		}
		if ok {
			tree = tree.Succeed()
		} else {
			tree = tree.Fail()
		}
		status := "the tree goes on"
		if st := tree.Status(); st != bt.Running {
			status = "the tree ended: " + st.String() + "; it starts over"
		}
		res := "success"
		if !ok {
			res = "failure"
		}
		fmt.Fprintf(w, "step %d: %s -> %s (%s)\n", s, termsafe.Text(v), res, status)
	}
	return nil
}

// runsElixir reports whether t runs in the Value/Succeed/Fail style: a
// tree in the Elixir JSON format, or one with kinds only that style runs.
func (t tree) runsElixir() bool {
	if t.format == "elixir" {
		return true
	}
	if t.isStr {
		return hasElixirKinds(t.str)
	}
	return hasElixirKinds(t.call)
}
