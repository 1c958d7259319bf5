package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// xmlV3 is a tree of BehaviorTree.CPP 3.x: no BTCPP_format, 3.x names,
// and a SubTree remapping without braces.
const xmlV3 = `<root main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <SequenceStar>
      <SetBlackboard output_key="goal" value="7"/>
      <RetryUntilSuccesful num_attempts="2">
        <SubTree ID="Sub" target="goal"/>
      </RetryUntilSuccesful>
      <Walk/>
    </SequenceStar>
  </BehaviorTree>
  <BehaviorTree ID="Sub">
    <ScriptCondition code="target == 7"/>
  </BehaviorTree>
</root>
`

// runBT runs bt with args and returns its exit code, stdout and stderr.
func runBT(args ...string) (int, string, string) {
	var out, errs bytes.Buffer
	code := run(args, &out, &errs)
	return code, out.String(), errs.String()
}

// TestConvertXML: -to xml of a format 4 file is its canonical XML, as bt
// fmt prints it; of a format 3 file, the format 4 XML after
// BehaviorTree.CPP's own migration, each change a warning at its line and
// column, and the result reads back and runs as migrated (the remapping
// with its braces reaches the subtree).
func TestConvertXML(t *testing.T) {
	dir := t.TempDir()
	v4 := writeTestFile(t, dir, "v4.xml", xmlTree)
	code, out, errs := runBT("convert", "-to", "xml", v4)
	_, fmtOut, fmtErrs := runBT("fmt", v4)
	if code != 0 || out != fmtOut || errs != fmtErrs {
		t.Errorf("-to xml of a format 4 file: exit %d, %q, stderr %q; bt fmt prints %q, stderr %q", code, out, errs, fmtOut, fmtErrs)
	}

	v3 := writeTestFile(t, dir, "v3.xml", xmlV3)
	code, out, errs = runBT("convert", v3, "-to", "xml")
	if code != 0 {
		t.Fatalf("-to xml of a format 3 file: exit %d: %s", code, errs)
	}
	for _, want := range []string{`BTCPP_format="4"`, "<SequenceWithMemory>", "<RetryUntilSuccessful ", `target="{goal}"`, `<Action ID="Walk"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the format 4 XML lacks %s:\n%s", want, out)
		}
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	for _, want := range []string{v3 + ":1:1: format 3 to 4: ", v3 + ":3:5: format 3 to 4: renamed <SequenceStar>", v3 + ":5:7: format 3 to 4: renamed <RetryUntilSuccesful>", v3 + ":6:27: format 3 to 4: "} {
		found := false
		for _, l := range lines {
			found = found || strings.HasPrefix(l, want)
		}
		if !found {
			t.Errorf("no warning %q in:\n%s", want, errs)
		}
	}
	back := writeTestFile(t, dir, "back.xml", out)
	if code, _, errs := runBT("check", back); code != 0 {
		t.Errorf("bt check of the format 4 XML: exit %d: %s", code, errs)
	}
	if code, out, errs := runBT("run", "-steps", "1", back); code != 0 || !strings.HasPrefix(out, "tick 1: SUCCESS") {
		t.Errorf("bt run of the format 4 XML: exit %d: %s%s", code, out, errs)
	}
	// Format 4 read as is: the same remapping is a literal, and the
	// subtree's condition does not hold.
	lit := writeTestFile(t, dir, "lit.xml", strings.Replace(out, `target="{goal}"`, `target="goal"`, 1))
	if _, out, _ := runBT("run", "-steps", "1", lit); strings.HasPrefix(out, "tick 1: SUCCESS") || !strings.Contains(out, `target = "goal"`) {
		t.Errorf("the literal remapping: %s", out)
	}
	inc := writeTestFile(t, dir, "inc.xml", `<root main_tree_to_execute="M"><include path="v3.xml"/><BehaviorTree ID="M"><SubTree ID="Main"/></BehaviorTree></root>`)
	if code, _, errs := runBT("convert", "-to", "xml", inc); code != 1 || !strings.Contains(errs, inc+":1:32: ") || !strings.Contains(errs, "convert each file it includes") {
		t.Errorf("-to xml of a format 3 file with an include: exit %d: %s", code, errs)
	}
	if code, _, errs := runBT("convert", "-to", "xml", "-expand", v4); code != 2 || !strings.Contains(errs, "-expand is for Mistreevous JSON") {
		t.Errorf("-to xml -expand: exit %d: %s", code, errs)
	}
	if code, out, _ := runBT("convert", "-h", v4); code != 0 || !strings.Contains(out, "mistreevous|elixir|xml") {
		t.Errorf("convert -h: exit %d: %s", code, out)
	}
}

// TestConvertAcross: bt converts nothing between XML and MDSL or JSON;
// the error names the first node with no counterpart in the other
// format, or says why for a tree without one.
func TestConvertAcross(t *testing.T) {
	dir := t.TempDir()
	plain := `<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence><A/><Inverter><B/></Inverter></Sequence></BehaviorTree></root>`
	for _, c := range []struct {
		name, src string
		to        string
		want      []string
	}{
		{"ports.xml", xmlTree, "mdsl", []string{"not to MDSL", `Script at "Script::`, "blackboard"}},
		{"walk.xml", `<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence><A/><Walk speed="2"/></Sequence></BehaviorTree></root>`, "json", []string{"not to JSON", `Walk at "Walk::`, "ports [speed=2]", "by position"}},
		{"pre.xml", `<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence><A _skipIf="x"/></Sequence></BehaviorTree></root>`, "mistreevous", []string{"pre- or post-condition", `A at "A::`}},
		{"plain.xml", plain, "elixir", []string{"tick differently", "shown for no tree yet"}},
		{"v3.xml", xmlV3, "mdsl", []string{"SequenceWithMemory at", "no Mistreevous counterpart"}},
		{"args.mdsl", "root { sequence { action [Fire, 2] } }", "xml", []string{"only from XML", "action [Fire, 2] passes arguments by position"}},
		{"guard.mdsl", "root { selector { action [A] condition [B] flip { action [C] while(D) } } }", "xml", []string{"action [C] has the guards or callbacks while(D)"}},
		{"wait.mdsl", "root { sequence { action [A] wait [5] } }", "xml", []string{"wait [5] has no BehaviorTree.CPP counterpart"}},
		{"plain.mdsl", "root { selector { action [A] flip { condition [B] } } }", "xml", []string{"tick differently"}},
		{"plain.json", `{"type":"root","child":{"type":"sequence","children":[{"type":"action","call":"A"},{"type":"action","call":"B","args":[1]}]}}`, "xml", []string{"action [B, 1] passes arguments"}},
		{"elixir.mdsl", "root { repeat_until_fail { action [go] } }", "xml", []string{"repeat_until_fail has no BehaviorTree.CPP counterpart"}},
	} {
		file := writeTestFile(t, dir, c.name, c.src)
		code, out, errs := runBT("convert", "-to", c.to, file)
		if code != 1 || out != "" || !strings.HasPrefix(errs, file+": ") {
			t.Errorf("%s -to %s: exit %d, stdout %q, stderr %q", c.name, c.to, code, out, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s -to %s: %q lacks %q", c.name, c.to, errs, w)
			}
		}
	}
	// The Elixir JSON of a tree: a tree of strings.
	_, ej, _ := runBT("convert", "-to", "elixir", filepath.Join(dir, "elixir.mdsl"))
	ejFile := writeTestFile(t, dir, "elixir.json", ej)
	if code, _, errs := runBT("convert", "-to", "xml", ejFile); code != 1 || !strings.Contains(errs, "a tree of Elixir kinds runs with Value, Succeed and Fail") {
		t.Errorf("Elixir JSON -to xml: exit %d: %s", code, errs)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "plain.xml")); err != nil || string(b) != plain {
		t.Errorf("the file changed: %q %v", b, err)
	}
}
