package btcpp

import (
	"strings"
	"testing"
)

// TestParseV3 reads a 3.x tree that Parse refuses (a 3.x SubTree
// remapping without braces and a misspelled RetryUntilSuccesful), builds
// it, and ticks it: the remapped port reaches the subtree's entry.
func TestParseV3(t *testing.T) {
	src := `<root BTCPP_format="3" main_tree_to_execute="Main">
  <BehaviorTree ID="Main">
    <SequenceStar>
      <SetBlackboard output_key="goal" value="7"/>
      <RetryUntilSuccesful num_attempts="2">
        <SubTree ID="Sub" target="goal"/>
      </RetryUntilSuccesful>
    </SequenceStar>
  </BehaviorTree>
  <BehaviorTree ID="Sub">
    <ScriptCondition code="target == 7"/>
  </BehaviorTree>
</root>`
	f := NewFactory()
	if _, err := f.Parse(src); err == nil {
		t.Fatal("Parse read a 3.x name that 4.10 does not register")
	}
	d, warnings, err := f.ParseV3(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) < 2 {
		t.Fatalf("warnings %q: want one per rename", warnings)
	}
	for _, w := range warnings {
		if !strings.Contains(w, ":") || w[0] < '1' || w[0] > '9' {
			t.Errorf("warning %q does not start with its line:column", w)
		}
	}
	tr, err := d.Build("")
	if err != nil {
		t.Fatal(err)
	}
	st := Running
	for i := 0; i < 10 && st == Running && err == nil; i++ {
		tr, st, err = tr.Tick()
	}
	if err != nil || st != Success {
		t.Fatalf("tick: %v, %v (the remapping did not reach the subtree?)", st, err)
	}
	// A 4.x document reads as with Parse, with no warning.
	if _, w, err := f.ParseV3(`<root BTCPP_format="4"><BehaviorTree ID="T"><AlwaysSuccess/></BehaviorTree></root>`); err != nil || len(w) != 0 {
		t.Errorf("a 4.x document: warnings %q, error %v", w, err)
	}
	if _, _, err := f.ParseV3("<root"); err == nil {
		t.Error("unreadable text: no error")
	}
}
