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

// ExampleFluentBuilder_resume shows what to use when a node should keep
// its place between ticks. A FluentBuilder sequence starts again from its
// first child at every tick, so "rested" is asked every time (see the
// first example). The stepped Sequence and Select resume the child that
// was running instead: here "rested" is asked once, when the work starts,
// and the dig runs to its end. Both are stepped trees of Fluent leaves, so
// the same NewFluent runs them.
func ExampleFluentBuilder_resume() {
	energy := 2
	dig := bt.Leaf(bt.Fluent{Name: "dig", Do: func(bt.TimeData) bt.Status {
		energy--
		fmt.Println("dig")
		if energy > 0 {
			return bt.Running
		}
		return bt.Success
	}})
	rested := bt.Condition(bt.Fluent{Name: "rested", If: func(bt.TimeData) bool {
		fmt.Println("rested?")
		return energy > 0
	}})
	t, err := bt.NewFluent(bt.Sequence(rested, dig)) // not ReactiveSequence
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 3 {
		if t, err = t.Tick(bt.TimeData{DeltaTime: 0.5}); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("->", t.State().Status())
	}
	// Output:
	// rested?
	// dig
	// -> running
	// dig
	// -> success
	// rested?
	// -> failure
}
