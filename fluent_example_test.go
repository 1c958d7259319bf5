package behaviortree_test

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
)

// ExampleFluentBuilder builds a FluentBehaviourTree tree with the library's
// calls and ticks it: the sequence starts again from its first child at
// every tick, so the condition is asked every time.
func ExampleFluentBuilder() {
	energy := 2
	tree, err := bt.NewFluentBuilder().
		Selector("root").
		Sequence("work").
		Condition("rested", func(bt.TimeData) bool { return energy > 0 }).
		Do("dig", func(td bt.TimeData) bt.Status {
			energy--
			fmt.Printf("dig for %.1fs\n", td.DeltaTime)
			return bt.Running
		}).
		End().
		Do("sleep", func(bt.TimeData) bt.Status {
			energy = 2
			fmt.Println("sleep")
			return bt.Success
		}).
		End().
		Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	t, err := bt.NewFluent(tree)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 4 {
		if t, err = t.Tick(bt.TimeData{DeltaTime: 0.5}); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("->", t.State().Status())
	}
	// Output:
	// dig for 0.5s
	// -> running
	// dig for 0.5s
	// -> running
	// sleep
	// -> success
	// dig for 0.5s
	// -> running
}

// ExampleFluentBuilder_error shows a builder error: the library's
// exception class and message, and the call that failed.
func ExampleFluentBuilder_error() {
	_, err := bt.NewFluentBuilder().
		Inverter("not").
		Do("a", func(bt.TimeData) bt.Status { return bt.Success }).
		Do("b", func(bt.TimeData) bt.Status { return bt.Success }).
		End().
		Build()
	fmt.Println(err)
	// Output:
	// behaviortree.FluentBuilder.Do (call 2): Can't add more than a single child to InverterNode!
}
