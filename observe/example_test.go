package observe_test

import (
	"fmt"
	"os"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/observe"
)

// A logger prints what each step does, as bt run does.
func ExampleNewLogger() {
	agent := bt.Agent[string]{
		Action:    func(string) bt.Result { return bt.ResultSuccess },
		Condition: func(v string) bool { return v == "door open" },
	}
	tree, err := bt.NewStepped(bt.Root(bt.Sequence(bt.Condition("door open"), bt.Leaf("walk in"))), agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, err = tree.StepWith(observe.NewLogger(os.Stdout, tree))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("tree", tree.State())
	// Output:
	//   condition door open -> true
	//   node 2 door open: READY -> SUCCEEDED
	//   action walk in -> success
	//   node 3 walk in: READY -> SUCCEEDED
	//   node 1 SEQUENCE: READY -> SUCCEEDED
	//   node 0 ROOT: READY -> SUCCEEDED
	// tree SUCCEEDED
}

// Stats counts how each node did over the steps it observes.
func ExampleStats() {
	n := 0
	agent := bt.Agent[string]{
		Action: func(string) bt.Result {
			n++
			if n%3 == 0 {
				return bt.ResultFailure
			}
			return bt.ResultRunning
		},
	}
	tree, err := bt.NewStepped(bt.Root(bt.AlwaysSucceed(bt.Leaf("patrol"))), agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	var stats observe.Stats[string]
	for range 6 {
		if tree, err = tree.StepWith(stats.Observe); err != nil {
			fmt.Println(err)
			return
		}
		stats.EndStep(tree)
	}
	for s := range stats.All() {
		fmt.Printf("%-8s updates %d: %d succeeded, %d failed, %d running\n", s.Name, s.Updates, s.Successes, s.Failures, s.Running)
	}
	// Output:
	// ROOT     updates 6: 2 succeeded, 0 failed, 4 running
	// SUCCEED  updates 6: 2 succeeded, 0 failed, 4 running
	// patrol   updates 6: 0 succeeded, 2 failed, 4 running
}
