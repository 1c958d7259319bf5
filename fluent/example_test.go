package fluent_test

import (
	"errors"
	"fmt"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/fluent"
	"github.com/zipbt/behaviortree/memory"
)

// ExampleBuilder builds a FluentBehaviourTree tree with the library's
// calls and ticks it: the sequence starts again from its first child at
// every tick, so the condition is asked every time.
func ExampleBuilder() {
	energy := 2
	tree, err := fluent.NewBuilder().
		Selector("root").
		Sequence("work").
		Condition("rested", func(bt.TimeData) bool { return energy > 0 }).
		Do("dig", func(td bt.TimeData) bt.Status {
			energy--
			fmt.Println("dig for", td.DeltaTime)
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
	t, err := fluent.New(tree)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 4 {
		if t, err = t.Tick(bt.TimeData{DeltaTime: 500 * time.Millisecond}); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("->", t.State())
	}
	// Output:
	// dig for 500ms
	// -> RUNNING
	// dig for 500ms
	// -> RUNNING
	// sleep
	// -> SUCCEEDED
	// dig for 500ms
	// -> RUNNING
}

// ExampleBuilder_error shows a builder error: the library's exception
// class and message, and the call that failed.
func ExampleBuilder_error() {
	_, err := fluent.NewBuilder().
		Inverter("not").
		Do("a", func(bt.TimeData) bt.Status { return bt.Success }).
		Do("b", func(bt.TimeData) bt.Status { return bt.Success }).
		End().
		Build()
	fmt.Println(err)
	var fe fluent.Error
	if errors.As(err, &fe) {
		fmt.Println(fe.Exception, "at call", fe.Call)
	}
	// Output:
	// fluent.Builder.Do (call 2): Can't add more than a single child to InverterNode!
	// ApplicationException at call 2
}

// Example_resume shows what to use when a node should keep its place
// between ticks. A Builder's sequence starts again from its first child
// at every tick, so "rested" is asked every time (see ExampleBuilder).
// The stepped Sequence and Select of package behaviortree resume the
// child that was running instead: here "rested" is asked once, when the
// work starts, and the dig runs to its end. Such a part may stand alone,
// as here, or be spliced into a Builder's tree; New runs both.
func Example_resume() {
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
	t, err := fluent.New(bt.Sequence(rested, dig)) // bt.Sequence keeps its place; Builder.Sequence does not
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 3 {
		if t, err = t.Tick(bt.TimeData{DeltaTime: 500 * time.Millisecond}); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("->", t.State())
	}
	// Output:
	// rested?
	// dig
	// -> RUNNING
	// dig
	// -> SUCCEEDED
	// rested?
	// -> FAILED
}

// ExampleAgent runs a Builder's tree with an agent of one's own, made
// from Agent, to hear when a running leaf is left: the Fluent sequence
// asks "near" again at the next tick, and when it fails, "chase" is
// aborted and the agent's Exit is called for the leaf given attr.Exit.
func ExampleAgent() {
	near := true
	chase := bt.Fluent{Name: "chase", Do: func(bt.TimeData) bt.Status { return bt.Running }}
	tree, err := fluent.NewBuilder().
		Sequence("hunt").
		Condition("near", func(bt.TimeData) bool { return near }).
		Splice(bt.Leaf(chase).With(attr.Exit(chase))).
		End().
		Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	agent := fluent.Agent()
	agent.Exit = func(v bt.Fluent, succeeded, aborted bool) {
		fmt.Printf("exit %s: aborted=%v\n", v.Name, aborted)
	}
	t, err := bt.NewStepped(tree, agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 2 {
		if t, err = t.Tick(bt.TimeData{DeltaTime: 500 * time.Millisecond}); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("->", t.State())
		near = false
	}
	// Output:
	// -> RUNNING
	// exit chase: aborted=true
	// -> FAILED
}

// Example_memory ticks a Builder's tree whose leaves take the step's
// Blackboard: "count" keeps a count in the tree's memory (which every
// version carries, so that undo and saving keep it), and "radio" returns
// an async result, a call that the game answers later; until then the
// leaf runs, and its function is not called again.
func Example_memory() {
	ticks := memory.NewKey[int]("ticks")
	var call *bt.Async // the radio call in flight, answered by the game
	tree, err := fluent.NewBuilder().
		Sequence("report").
		DoWith("count", func(b *bt.Blackboard) bt.Result {
			n, _ := ticks.Get(b)
			ticks.Put(b, n+1)
			return bt.ResultSuccess
		}).
		DoWith("radio", func(b *bt.Blackboard) bt.Result {
			call = bt.NewAsync() // the game settles it later
			return call.Result()
		}).
		End().
		Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	t, err := fluent.New(tree)
	if err != nil {
		fmt.Println(err)
		return
	}
	for tick := 1; tick <= 3; tick++ {
		if t, err = t.Tick(bt.TimeData{DeltaTime: 500 * time.Millisecond}); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("tick", tick, "->", t.State(), t.Memory())
		if tick == 2 {
			call.Succeed() // the game answers the call
		}
	}
	// Output:
	// tick 1 -> RUNNING {ticks: 1}
	// tick 2 -> RUNNING {ticks: 2}
	// tick 3 -> SUCCEEDED {ticks: 3}
}

// Example_wait ticks a tree with a Wait spliced in: without a clock
// option, Tick is the tree's clock, and the wait counts each tick's
// DeltaTime (the tick that starts it included).
func Example_wait() {
	tree, err := fluent.NewBuilder().
		Sequence("volley").
		Splice(bt.Wait[bt.Fluent](time.Second)). // cool down for a second of game time
		Do("fire", func(td bt.TimeData) bt.Status {
			fmt.Println("fire")
			return bt.Success
		}).
		End().
		Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	t, err := fluent.New(tree)
	if err != nil {
		fmt.Println(err)
		return
	}
	for tick := 1; tick <= 3; tick++ {
		if t, err = t.Tick(bt.TimeData{DeltaTime: 400 * time.Millisecond}); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("tick", tick, "->", t.State())
	}
	// Output:
	// tick 1 -> RUNNING
	// tick 2 -> RUNNING
	// fire
	// tick 3 -> SUCCEEDED
}
