package btcpp_test

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/btcpp"
)

// A stateful action whose OnStart starts work that finishes later (a path
// planner on its own goroutine): it returns c.Await(a), and the node stays
// RUNNING until a tick sees a settled. A save keeps the pending result by
// its id, which the game settles again after the restore.
func ExampleCall_Await() {
	var plan *bt.Async // the planner's job
	f := btcpp.NewFactory()
	err := f.RegisterAction("PlanPath", btcpp.Action{
		OnStart: func(c *btcpp.Call) (btcpp.Status, error) {
			plan = bt.NewAsync()
			return c.Await(plan) // RUNNING; OnRunning is not called while it waits
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	doc, err := f.Parse(`<root BTCPP_format="4"><BehaviorTree ID="Main">
  <Sequence><PlanPath/><Script code="moving := true"/></Sequence>
</BehaviorTree></root>`)
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, err := doc.Build("")
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, status, _ := tree.Tick()
	id := plan.ID()
	fmt.Println(status, "waiting for", id)
	saved, _ := tree.MarshalBinary() // holds the pending result by its id

	done := make(chan bool)
	go func() { plan.Succeed(); close(done) }() // the planner finishes
	<-done
	next, status, _ := tree.Tick()
	_, moving := next.Get("moving")
	fmt.Println(status, "moving", moving)

	restored, err := doc.Restore("", saved)
	if err != nil {
		fmt.Println(err)
		return
	}
	if a, ok := restored.Async(id); ok {
		a.Fail() // the game settles the restored result as it would have the first
	}
	_, status, _ = restored.Tick()
	fmt.Println("restored:", status)
	// Output:
	// RUNNING waiting for 1
	// SUCCESS moving true
	// restored: FAILURE
}
