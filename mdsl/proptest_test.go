package mdsl_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mdsl"
	"github.com/zipbt/behaviortree/proptest"
)

// TestMDSLProptest checks print/parse round trips of generated trees of
// every Elixir kind, with leaves that need quoting: parsing the print of
// t gives Root(t), and printing that again gives the same text.
func TestMDSLProptest(t *testing.T) {
	leaves := []any{"a", "go_right", "go right", "", "null", "1", "$x", `say "hi`, "ünïcode", "a,b", "[q]", "x\ty", "sequence"}
	id := func(s string) (string, error) { return s, nil }
	params := gopter.DefaultTestParametersWithSeed(1)
	params.MinSuccessfulTests = 500
	params.MaxSize = 60
	props := gopter.NewProperties(params)
	props.Property("Parse(Print(t)) == Root(t)", prop.ForAll(func(def bt.Node[string]) string {
		out, err := mdsl.FormatFunc(def, id)
		if err != nil {
			return err.Error()
		}
		back, err := mdsl.ParseFunc("gen.mdsl", out, id)
		if err != nil {
			return err.Error() + "\n" + string(out)
		}
		if back.Kind() != kind.Root {
			return "not a root"
		}
		got, err1 := json.Marshal(back.Child(0))
		want, err2 := json.Marshal(def)
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			return "differs:\n" + string(got) + "\n" + string(want) + "\n" + string(out)
		}
		again, _ := mdsl.FormatFunc(back, id)
		if !bytes.Equal(again, out) {
			return "not stable"
		}
		return ""
	}, proptest.Tree[string](gen.OneConstOf(leaves...), proptest.Config{MaxDepth: 5, MaxN: 4})))
	var buf bytes.Buffer
	if !props.Run(gopter.NewFormatedReporter(true, 100, &buf)) {
		t.Error(buf.String())
	}
}
