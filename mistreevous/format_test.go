package mistreevous_test

import (
	"bytes"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mistreevous"
)

// TestFormatVerbs: Parse reads what Format writes, and the deprecated
// Marshal writes the same bytes as Format.
func TestFormatVerbs(t *testing.T) {
	def := bt.Root(bt.Sequence(bt.Leaf(bt.Call{Name: "Walk"}), bt.Repeat(bt.Leaf(bt.Call{Name: "Look", Args: []any{"left", 2.0}}))))
	out, err := mistreevous.Format(def)
	if err != nil {
		t.Fatal(err)
	}
	back, err := mistreevous.Parse(out)
	if err != nil {
		t.Fatalf("Parse(Format(def)): %v\n%s", err, out)
	}
	if back.String() != def.String() || back.Fingerprint() != def.Fingerprint() {
		t.Errorf("Parse(Format(def)) = %v, want %v", back, def)
	}
	old, err := mistreevous.Marshal(def)
	if err != nil || !bytes.Equal(old, out) {
		t.Errorf("Marshal = %s, %v; Format = %s", old, err, out)
	}
}
