package behaviortree_test

import (
	"fmt"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// The tests of package fluent's Builder, and of the engine through it,
// are in fluent/; the conformance test is fluent_conformance_test.go.

// TestReactiveKindsStart checks that the Elixir-style engine refuses the
// reactive kinds.
func TestReactiveKindsStart(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "(reactive_sequence): the Value/Succeed/Fail style cannot run it") {
			t.Errorf("Start: %v", r)
		}
	}()
	bt.Start(bt.ReactiveSequence(bt.Leaf("a")))
}
