package behaviortree_test

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
)

// ExampleTree_WithMemory keeps a handler's count in the memory of the
// Tree's versions: the handler reads the version it acts for and reports
// with the new memory, so that an old version keeps the count it had.
func ExampleTree_WithMemory() {
	shots := memory.NewKey[int]("shots")
	tree := bt.Start(bt.Sequence(bt.Leaf("aim"), bt.Leaf("fire")))
	var versions []bt.Tree[string]
	for range 4 {
		versions = append(versions, tree)
		n, _ := shots.Get(tree.Memory())
		if tree.Value() == "fire" {
			n++
		}
		tree = tree.WithMemory(shots.Set(tree.Memory(), n)).Succeed()
	}
	fmt.Println(tree.Value(), tree.Memory())
	fmt.Println(versions[2].Value(), versions[2].Memory()) // an old version keeps its memory
	// Output:
	// aim {shots: 2}
	// aim {shots: 1}
}
