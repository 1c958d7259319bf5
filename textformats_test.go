package behaviortree

import (
	"testing"

	"github.com/zipbt/behaviortree/internal/testlong"
)

// The text formats are packages mdsl and mistreevous, which import this
// one, so that the internal tests cannot import them: the external test
// package sets these hooks to them (textformats_ext_test.go) before any
// test runs, and the internal tests call them through the functions below.
var (
	HookParseMistreevous   func(data []byte) (Node[Call], error)
	HookMarshalMistreevous func(def Node[Call]) ([]byte, error)
	HookParseMDSL          func(name string, src []byte) (Node[Call], error)
)

// maxMistreevousDepth and maxMistreevousNodes are mistreevous.MaxDepth and
// mistreevous.MaxNodes.
const (
	maxMistreevousDepth = 4096
	maxMistreevousNodes = 1 << 20
)

// parseMistreevous is mistreevous.Parse.
func parseMistreevous(data []byte) (Node[Call], error) { return HookParseMistreevous(data) }

// marshalMistreevous is mistreevous.Format.
func marshalMistreevous(def Node[Call]) ([]byte, error) { return HookMarshalMistreevous(def) }

// parseMDSL is mdsl.Parse.
func parseMDSL(name string, src []byte) (Node[Call], error) { return HookParseMDSL(name, src) }

// TestMDSLCorpusReplays replays every corpus case from the tree that its
// mdsl text reads to: the trace must be the recorded one (package mdsl
// checks that the tree equals the case's JSON definition).
func TestMDSLCorpusReplays(t *testing.T) {
	type mdslCase struct {
		ID   string `json:"id"`
		MDSL string `json:"mdsl"`
	}
	texts := readCorpus[mdslCase](t, mistreevousCorpus())
	cases := readMistreevousCorpus(t, mistreevousCorpus())
	if len(texts) != len(cases) {
		t.Fatalf("%d cases, %d with traces", len(texts), len(cases))
	}
	// Every 3rd case by default (package mdsl reads them all); BT_LONG=1
	// replays every case.
	replayed, tried := 0, 0
	for i := 0; i < len(cases); i += testlong.Stride(3) {
		c := cases[i]
		tried++
		if texts[i].ID != c.ID {
			t.Fatalf("case %d: ids %s and %s", i, texts[i].ID, c.ID)
		}
		def, err := parseMDSL(c.ID+".mdsl", []byte(texts[i].MDSL))
		if err == nil {
			c.Definition, err = marshalMistreevous(def)
		}
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		if d := runMistreevousCase(&c, false); d != "" {
			t.Errorf("%s: replay from MDSL: %s", c.ID, d)
			continue
		}
		replayed++
	}
	t.Logf("MDSL corpus (%s): %d/%d replay identically", mistreevousCorpus(), replayed, tried)
}
