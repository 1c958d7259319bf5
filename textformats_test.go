package behaviortree

// The text formats are packages mdsl and mistreevous, which import this
// one, so that the internal tests cannot import them: the external test
// package sets these hooks to them (textformats_ext_test.go) before any
// test runs, and the internal tests call them through the functions below.
var (
	HookParseMistreevous   func(data []byte) (Node[Call], error)
	HookMarshalMistreevous func(def Node[Call]) ([]byte, error)
)

// maxMistreevousDepth is mistreevous.MaxDepth.
const maxMistreevousDepth = 4096

// parseMistreevous is mistreevous.Parse.
func parseMistreevous(data []byte) (Node[Call], error) { return HookParseMistreevous(data) }

// marshalMistreevous is mistreevous.Marshal.
func marshalMistreevous(def Node[Call]) ([]byte, error) { return HookMarshalMistreevous(def) }
