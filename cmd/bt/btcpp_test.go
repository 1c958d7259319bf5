package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// xmlTree is a BehaviorTree.CPP tree with a model entry, a leaf the model
// does not declare, a script, a pre-condition and a SubTree.
const xmlTree = `<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main">
  <Sequence name="main seq">
    <Script code="x := 1"/>
    <Repeat num_cycles="2">
      <Fallback>
        <IsOpen _skipIf="x &gt; 5"/>
        <Walk speed="{x}"/>
      </Fallback>
    </Repeat>
    <SubTree ID="Sub" name="inner" y="{x}"/>
  </Sequence>
</BehaviorTree>
<BehaviorTree ID="Sub"><Script code="y += 10"/></BehaviorTree>
<TreeNodesModel><Condition ID="IsOpen"/></TreeNodesModel>
</root>
`

// TestRunXML runs bt commands on XML files and checks exit codes and
// output.
func TestRunXML(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.xml", xmlTree)
	mdslFile := write("good.mdsl", "root {\n    action [A]\n}\n")
	badPort := write("bad.xml", "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"A\">\n  <Repeat num_cycles=\"abc\"><AlwaysSuccess/></Repeat>\n</BehaviorTree>\n<BehaviorTree ID=\"B\">\n  <Script code=\"x := := 1\"/>\n</BehaviorTree>\n</root>\n")
	badKids := write("kids.xml", "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"A\">\n  <Inverter/>\n</BehaviorTree>\n</root>\n")
	badSyntax := write("syntax.XML", "<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"A\">\n  <Sequence>\n</BehaviorTree></root>\n")
	scr := write("s.json", `{"actions": {"Walk": ["running", "success"]}, "conditions": {"IsOpen": [false]}}`)
	wrongScr := write("w.json", `{"actions": {"Run": ["success"]}}`)
	condAsAction := write("c.json", `{"actions": {"IsOpen": ["success"]}}`)
	tests := []struct {
		args         []string
		code         int
		stdout, errs string // substrings
	}{
		{args: []string{"check", good}, code: 0},
		{args: []string{"check", good, mdslFile}, code: 0},
		{args: []string{"check", badPort}, code: 1, errs: "bad.xml:3:11: LogicError: The port with name \"num_cycles\" and value \"abc\" can not be converted to int"},
		{args: []string{"check", badPort}, code: 1, errs: "bad.xml:6:11: RuntimeError: Expected operand at position 5 (got ':=')"},
		{args: []string{"check", badKids, good}, code: 1, errs: "kids.xml:3:3: RuntimeError: The node 'Inverter' must have exactly 1 child"},
		{args: []string{"check", badSyntax}, code: 1, errs: "syntax.XML:4:1: "},
		{args: []string{"check", "-h", good}, code: 0, stdout: "usage: bt check"},
		{args: []string{"fmt", good}, code: 0, stdout: "<Action ID=\"Walk\">\n      <inout_port name=\"speed\" type=\"BT::AnyTypeAllowed\"/>"},
		{args: []string{"fmt", good}, code: 0, stdout: "  <BehaviorTree ID=\"Sub\">\n    <Script code=\"y += 10\"/>\n  </BehaviorTree>"},
		{args: []string{"fmt", "-l", good, mdslFile}, code: 0, stdout: "good.xml\n"},
		{args: []string{"fmt", badKids}, code: 1, errs: "kids.xml:3:3:"},
		{args: []string{"render", good}, code: 0, stdout: "[ ] Sequence main seq\n|- [ ] Script[code=\"x := 1\"]\n|- [ ] Repeat[num_cycles=2]\n"},
		{args: []string{"render", good}, code: 0, stdout: "`- [ ] SubTree[y={x}] Sub \"inner\"\n   `- [ ] Script[code=\"y += 10\"]\n"},
		{args: []string{"render", "-format", "dot", good}, code: 0, stdout: `label="Repeat[num_cycles=2]"`},
		{args: []string{"render", "-format", "mermaid", "-tree", "Sub", good}, code: 0, stdout: "flowchart TD\n    n0([\"Script"},
		{args: []string{"render", "-tree", "Nope", good}, code: 1, errs: "good.xml: std::runtime_error: can't find a tree with name: Nope"},
		{args: []string{"render", "-format", "svg", good}, code: 2, errs: "unknown format"},
		{args: []string{"run", "-steps", "2", "-script", scr, good}, code: 0, stdout: "tick 1: RUNNING\n  condition IsOpen::5 -> failure\n  action Walk::6 speed=1 -> running\n  blackboard Main:\n    x = 1 (int64)\n"},
		{args: []string{"run", "-steps", "2", "-script", scr, good}, code: 0, stdout: "tick 2: RUNNING\n  action (running) Walk::6 speed=1 -> success\n"},
		{args: []string{"run", "-steps", "3", good}, code: 0, stdout: "tick 1: SUCCESS (2 root executions)\n  condition IsOpen::5 -> success\n  condition IsOpen::5 -> success\n  blackboard Main:\n    x = 11 (int64)\n"},
		{args: []string{"run", "-script", wrongScr, good}, code: 1, errs: `the script gives results for action "Run", which is no action leaf of`},
		{args: []string{"run", "-script", condAsAction, good}, code: 1, errs: `the script gives results for action "IsOpen", which the file's model declares as a condition`},
		{args: []string{"run", "-steps", "1", badPort}, code: 1, errs: "[main_tree_to_execute] was not specified correctly"},
		{args: []string{"run", "-steps", "1", "-tree", "A", badPort}, code: 1, errs: "bad.xml:3:11: LogicError"},
		{args: []string{"run", "-steps", "-1", good}, code: 2, errs: "-steps must be 0 or more"},
		{args: []string{"run", good, good}, code: 2, errs: "one file, got 2"},
		{args: []string{"convert", "-to", "mdsl", good}, code: 1, errs: "bt converts BehaviorTree.CPP XML only to XML, not to MDSL"},
	}
	for _, tc := range tests {
		var out, errs bytes.Buffer
		code := run(tc.args, &out, &errs)
		if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errs.String(), tc.errs) {
			t.Errorf("bt %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tc.args, " "), code, tc.code, out.String(), errs.String())
		}
	}
	// fmt -w rewrites in place; the result checks, runs the same, and is
	// its own canonical form.
	var before, out, errs bytes.Buffer
	if code := run([]string{"run", "-steps", "4", "-script", scr, good}, &before, &errs); code != 0 {
		t.Fatalf("run: %d %s", code, errs.String())
	}
	if code := run([]string{"fmt", "-w", good}, &out, &errs); code != 0 || out.Len() != 0 {
		t.Fatalf("fmt -w: %d %s %s", code, out.String(), errs.String())
	}
	b, _ := os.ReadFile(good)
	if !strings.HasPrefix(string(b), "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<root BTCPP_format=\"4\" main_tree_to_execute=\"Main\">\n") {
		t.Errorf("fmt -w wrote %q", b)
	}
	if code := run([]string{"fmt", "-l", good}, &out, &errs); code != 0 || out.Len() != 0 {
		t.Errorf("fmt -l after -w: %d %q", code, out.String())
	}
	var after bytes.Buffer
	if code := run([]string{"run", "-steps", "4", "-script", scr, good}, &after, &errs); code != 0 || after.String() != before.String() {
		t.Errorf("the formatted file runs differently:\n%s\n----\n%s", before.String(), after.String())
	}
}

// TestXMLInclude: a file's <include>s are read from the disk, relative
// to the file, and their leaves get stand-ins too.
func TestXMLInclude(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "sub", "lib"), 0o777); err != nil {
		t.Fatal(err)
	}
	main := filepath.Join(dir, "sub", "main.xml")
	files := map[string]string{
		main: `<root BTCPP_format="4" main_tree_to_execute="Main"><include path="lib/walk.xml"/>
<BehaviorTree ID="Main"><SubTree ID="Walking"/></BehaviorTree></root>`,
		filepath.Join(dir, "sub", "lib", "walk.xml"): `<root BTCPP_format="4"><include path="../../common.xml"/>
<BehaviorTree ID="Walking"><Sequence><Step/><Common/></Sequence></BehaviorTree></root>`,
		filepath.Join(dir, "common.xml"): `<root BTCPP_format="4"><BehaviorTree ID="CommonTree"><Common/></BehaviorTree></root>`,
	}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	var out, errs bytes.Buffer
	if code := run([]string{"run", "-steps", "1", main}, &out, &errs); code != 0 || !strings.Contains(out.String(), "tick 1: SUCCESS\n  action Walking::1/Step::3 -> success\n  action Walking::1/Common::4 -> success\n") {
		t.Errorf("run: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errs.String())
	}
	out.Reset()
	if code := run([]string{"fmt", main}, &out, &errs); code != 0 || !strings.Contains(out.String(), `<BehaviorTree ID="CommonTree">`) || strings.Contains(out.String(), "include") {
		t.Errorf("fmt: exit %d\nstdout:\n%s\nstderr:\n%s", code, out.String(), errs.String())
	}
	before, _ := os.ReadFile(main)
	errs.Reset()
	if code := run([]string{"fmt", "-w", main}, &out, &errs); code != 1 || !strings.Contains(errs.String(), "main.xml: the file includes "+filepath.Join(dir, "sub", "lib", "walk.xml")+", "+filepath.Join(dir, "common.xml")+":") {
		t.Errorf("fmt -w: exit %d\nstderr:\n%s", code, errs.String())
	}
	if after, _ := os.ReadFile(main); !bytes.Equal(before, after) {
		t.Errorf("fmt -w rewrote a file with includes:\n%s", after)
	}
}

func TestFileArgs(t *testing.T) {
	got := strings.Join(fileArgs([]string{"-format", "dot", "-w", "a.xml", "-tree=X", "--script", "s.xml", "b", "--", "-c"}), ",")
	if want := "a.xml,b,-c"; got != want {
		t.Errorf("fileArgs = %s, want %s", got, want)
	}
}

// TestXMLTerminalSafe: control characters in names, keys and values
// (written as character references in the XML) reach the terminal as
// escapes.
func TestXMLTerminalSafe(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "esc.xml")
	text := `<root BTCPP_format="4"><BehaviorTree ID="A"><Sequence>
<SetBlackboard output_key="k&#27;]0;x&#7;" value="v&#27;c"/>
<Walk name="w&#10;c" to="{k&#27;]0;x&#7;}"/>
</Sequence></BehaviorTree></root>`
	if err := os.WriteFile(p, []byte(text), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := run([]string{"run", "-steps", "1", p}, &out, &errs)
	if code != 0 || strings.ContainsAny(out.String()+errs.String(), "\x1b\x07") || !strings.Contains(out.String(), `w\nc`) || !strings.Contains(out.String(), `k\x1b]0;x\a`) {
		t.Errorf("exit %d\nstdout:\n%q\nstderr:\n%q", code, out.String(), errs.String())
	}
	bad := filepath.Join(dir, "bad.xml")
	if err := os.WriteFile(bad, []byte(`<root BTCPP_format="4" main_tree_to_execute="M&#27;c"><BehaviorTree ID="A"><AlwaysSuccess/></BehaviorTree></root>`), 0o666); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errs.Reset()
	code = run([]string{"render", bad}, &out, &errs)
	if code != 1 || strings.Contains(errs.String(), "\x1b") || !strings.Contains(errs.String(), `M\x1bc`) {
		t.Errorf("render: exit %d, stderr %q", code, errs.String())
	}
}

// TestPlayXML runs bt play on an XML file that includes another: the page
// answers its leaves (the script those it lists), a step is a tickOnce,
// the memory lists the blackboard, and a broken edit on disk is shown at
// its line and column.
func TestPlayXML(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.xml")
	sub := `<root BTCPP_format="4"><BehaviorTree ID="Sub"><Script code="y := 2"/></BehaviorTree></root>`
	if err := os.WriteFile(filepath.Join(dir, "sub.xml"), []byte(sub), 0o644); err != nil {
		t.Fatal(err)
	}
	main := `<root BTCPP_format="4" main_tree_to_execute="Main"><include path="sub.xml"/>
<BehaviorTree ID="Main"><Sequence><Script code="x := 1"/><IsOpen/><Walk speed="{x}"/><SubTree ID="Sub"/></Sequence></BehaviorTree>
<TreeNodesModel><Condition ID="IsOpen"/></TreeNodesModel></root>`
	if err := os.WriteFile(file, []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	scr := filepath.Join(dir, "s.json")
	if err := os.WriteFile(scr, []byte(`{"actions": {"Walk": ["success"]}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPlay(t, "-addr", "127.0.0.1:0", "-poll", "10ms", "-script", scr, file)
	st := p.post("/api/step", "")
	if st.Engine != "btcpp" || st.Ask == nil || st.Ask.Call != "condition" || !strings.HasPrefix(st.Ask.Text, "IsOpen") {
		t.Fatalf("engine %q, ask %+v, error %+v", st.Engine, st.Ask, st.Error)
	}
	st = p.post("/api/answer", `{"value":"true"}`)
	if st.Ask != nil || st.Version.ID != 1 {
		t.Errorf("after the answer: ask %+v, version %d", st.Ask, st.Version.ID)
	}
	code, b := p.do("GET", "/api/state", "")
	if code != 200 || !strings.Contains(string(b), `["x","1 (int64)"]`) || !strings.Contains(string(b), `Sub::5/y`) {
		t.Errorf("state: %d %s", code, b)
	}
	if err := os.WriteFile(file, []byte("<root BTCPP_format=\"4\">\n<BehaviorTree ID=\"M\">\n  <Inverter/>\n</BehaviorTree></root>"), 0o644); err != nil {
		t.Fatal(err)
	}
	st = p.waitState(func(s playState) bool { return s.Error != nil })
	if st.Error.Line != 3 || st.Error.Col != 3 || !strings.Contains(st.Error.Msg, "bot.xml:3:3: ") {
		t.Errorf("error %+v, want at 3:3", st.Error)
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d: %s", code, p.stderr)
	}
}
