package proptest_test

import (
	"fmt"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/proptest"
)

// Property-test your own AI: here, that a patrol wrapped in RepeatUntilFail
// never completes, whatever its body and however its behaviors turn out.
// The generators draw bodies over the game's own behaviors; a failure would
// shrink to a small body and a short signal sequence.
func Example() {
	behaviors := gen.OneConstOf("look", "walk", "turn", "wait")
	body := proptest.DeterministicTree[string](behaviors, proptest.Config{MaxDepth: 3})

	params := gopter.DefaultTestParametersWithSeed(1) // fixed: the run repeats
	props := gopter.NewProperties(params)
	props.Property("a patrol that always succeeds never completes", prop.ForAll(
		func(n bt.Node[string], sig []bt.Status) string {
			tree := bt.Start(bt.RepeatUntilFail(bt.AlwaysSucceed(n)))
			for i, s := range sig {
				if tree = tree.Signal(s); tree.Status() != bt.Running {
					return fmt.Sprintf("completed after %d signals", i+1)
				}
			}
			return ""
		}, body, proptest.Signals(40)))
	props.Run(gopter.ConsoleReporter(false))
	// Output:
	// + a patrol that always succeeds never completes: OK, passed 100 tests.
}

// The reference model runs side by side with a tree.
func ExampleModel() {
	def := bt.Sequence(bt.RepeatN(2, bt.Leaf("a")), bt.Leaf("b"))
	tree, model := bt.Start(def), proptest.NewModel(def, nil)
	for i := 0; i < 3; i++ {
		tree = tree.Succeed()
		model.Succeed()
		fmt.Println(tree.Value(), model.Value())
	}
	// Output:
	// a a
	// b b
	// a a
}
