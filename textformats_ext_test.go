package behaviortree_test

import (
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mdsl"
	"github.com/zipbt/behaviortree/mistreevous"
)

// init hands the text formats to the internal tests (textformats_test.go).
func init() {
	bt.HookParseMistreevous = mistreevous.Parse
	bt.HookMarshalMistreevous = mistreevous.Marshal
	bt.HookParseMDSL = mdsl.Parse
}
