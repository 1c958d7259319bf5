package main

import (
	"os"
	"strings"
	"testing"
)

// xmlLossy has what the canonical XML drops (a comment, a port's
// description, the model of a leaf no tree uses) and a leaf without a
// model, whose written model is a guess.
const xmlLossy = `<root BTCPP_format="4">
  <!-- the patrol -->
  <BehaviorTree ID="Main">
    <Sequence>
      <Walk goal="{g}"/>
      <SeesIntruder/>
    </Sequence>
  </BehaviorTree>
  <TreeNodesModel>
    <Action ID="Walk">
      <input_port name="goal" type="int" description="where to"/>
    </Action>
    <Action ID="Unused"/>
  </TreeNodesModel>
</root>
`

// TestFmtXMLLosses: bt fmt says what the canonical XML drops or guesses,
// each where it is; bt fmt -w leaves such a file byte for byte as it was
// and says why, unless -lossy; a file that loses nothing is rewritten
// without a word.
func TestFmtXMLLosses(t *testing.T) {
	dir := t.TempDir()
	p := writeTestFile(t, dir, "lossy.xml", xmlLossy)
	code, out, errs := runBT("fmt", p)
	if code != 0 || !strings.Contains(out, `<Action ID="Walk">`) {
		t.Fatalf("bt fmt: exit %d, %q, %s", code, out, errs)
	}
	for _, want := range []string{
		"warning: " + p + ":2:3: comments",
		"warning: " + p + ":11:42: the descriptions of the model's ports",
		"warning: " + p + ":13:5: the model of Unused, which no tree uses",
		"warning: " + p + ": leaf SeesIntruder has no <TreeNodesModel> entry",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("bt fmt's stderr lacks %q:\n%s", want, errs)
		}
	}
	if strings.Contains(errs, "leaf Walk") {
		t.Errorf("a modelled leaf is reported as guessed:\n%s", errs)
	}

	code, _, errs = runBT("fmt", "-w", p)
	if b, _ := os.ReadFile(p); code != 1 || string(b) != xmlLossy || !strings.Contains(errs, "bt fmt -w leaves the file as it is") || !strings.Contains(errs, ":2:3: comments") || !strings.Contains(errs, "-lossy") {
		t.Errorf("bt fmt -w of a lossy file: exit %d, stderr %q; the file is now:\n%s", code, errs, b)
	}

	code, _, errs = runBT("fmt", "-w", "-lossy", p)
	b, _ := os.ReadFile(p)
	if code != 0 || string(b) != out {
		t.Errorf("bt fmt -w -lossy: exit %d, stderr %q; the file is now:\n%s", code, errs, b)
	}

	// A file whose canonical XML keeps everything is rewritten quietly.
	clean := writeTestFile(t, dir, "clean.xml", "<root BTCPP_format=\"4\"><BehaviorTree ID=\"M\"><AlwaysSuccess/></BehaviorTree></root>")
	if code, _, errs := runBT("fmt", "-w", clean); code != 0 || errs != "" {
		t.Errorf("bt fmt -w of a lossless file: exit %d, stderr %q", code, errs)
	}
}
