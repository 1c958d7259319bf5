package main

import (
	"strings"
	"testing"
)

// TestXMLFormat3Hint: a format 3 file fails as BehaviorTree.CPP 4.10
// fails on it (bt never migrates but in convert), and the error says how
// to migrate it, with the number of changes; a file of format 4 with an
// error gets no such hint, nor does a file without BTCPP_format that the
// migration would not change.
func TestXMLFormat3Hint(t *testing.T) {
	dir := t.TempDir()
	v3 := writeTestFile(t, dir, "v3.xml", `<root main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <SequenceStar>
      <RetryUntilSuccesful num_attempts="3">
        <Walk/>
      </RetryUntilSuccesful>
    </SequenceStar>
  </BehaviorTree>
</root>
`)
	for _, cmd := range [][]string{{"check", v3}, {"render", v3}, {"run", v3}} {
		code, _, errs := runBT(cmd...)
		if code == 0 || !strings.Contains(errs, "node not recognized: RetryUntilSuccesful") || !strings.Contains(errs, "looks like BehaviorTree.CPP 3.x") || !strings.Contains(errs, "bt convert -to xml "+v3+" migrates it (3 changes)") {
			t.Errorf("bt %s: exit %d, stderr %q", cmd[0], code, errs)
		}
	}
	v4 := writeTestFile(t, dir, "v4.xml", `<root BTCPP_format="4"><BehaviorTree ID="M"><Sequence/></BehaviorTree></root>`)
	none := writeTestFile(t, dir, "none.xml", `<root><BehaviorTree ID="M"><Inverter/></BehaviorTree></root>`)
	for _, f := range []string{v4, none} {
		code, _, errs := runBT("check", f)
		if code == 0 || strings.Contains(errs, "3.x") {
			t.Errorf("bt check %s: exit %d, stderr %q", f, code, errs)
		}
	}
}
