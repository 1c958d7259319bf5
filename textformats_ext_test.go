package behaviortree_test

import (
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mdsl"
	"github.com/zipbt/behaviortree/mistreevous"
)

// init hands the text formats to the internal tests (textformats_test.go).
func init() {
	bt.HookParseMistreevous = mistreevous.Parse
	bt.HookMarshalMistreevous = mistreevous.Format
	bt.HookParseMDSL = mdsl.Parse
}

// TestLimitsMatchMistreevous checks that NewStepped takes every tree that
// package mistreevous (and so package mdsl) reads: as many nodes.
func TestLimitsMatchMistreevous(t *testing.T) {
	if bt.MaxSteppedNodes < mistreevous.MaxNodes {
		t.Fatalf("NewStepped takes %d nodes, less than mistreevous.MaxNodes = %d: a parsed tree may not run", bt.MaxSteppedNodes, mistreevous.MaxNodes)
	}
}
