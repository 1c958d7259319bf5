package btcpp_test

import (
	"fmt"
	"os"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/btcpp"
)

// guardFactory registers the Go leaves of testdata/guard.xml.
func guardFactory() *btcpp.Factory {
	f := btcpp.NewFactory()
	// A condition: is an intruder nearer than 5?
	f.RegisterCondition("SeesIntruder", func(c *btcpp.Call) (btcpp.Status, error) {
		d, err := c.Int("distance")
		if err != nil || d >= 5 {
			return btcpp.Failure, nil
		}
		return btcpp.Success, nil
	}, btcpp.InputPort("distance", "int"))
	// A stateful action: one step closer per tick, until it is there.
	closer := func(c *btcpp.Call) (btcpp.Status, error) {
		d, err := c.Int("target")
		if err != nil {
			return btcpp.Failure, err
		}
		if d == 0 {
			return btcpp.Success, nil
		}
		return btcpp.Running, c.Set("target", d-1)
	}
	f.RegisterAction("MoveCloser", btcpp.Action{OnStart: closer, OnRunning: closer}, btcpp.InOutPort("target", "int"))
	// A synchronous action: count the patrol's steps.
	f.RegisterSync("Patrol", func(c *btcpp.Call) (btcpp.Status, error) {
		n, err := c.Int("steps")
		if err != nil {
			return btcpp.Failure, err
		}
		return btcpp.Success, c.Set("steps", n+1)
	}, btcpp.InOutPort("steps", "int"))
	return f
}

// A tree from an XML file (what Groot2 writes), its leaves written in Go,
// and its blackboard: initial entries, and what the tree wrote.
func Example_fromXMLFile() {
	doc, err := guardFactory().ParseFS(os.DirFS("testdata"), "guard.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, err := doc.Build("", btcpp.WithEntry("distance", 9), btcpp.WithEntry("steps", 0), btcpp.WithEntry("alarms", 0))
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, status, err := tree.Tick() // far away: patrol
	fmt.Println(status, err)
	for _, e := range tree.Entries(0) {
		fmt.Printf("%s (%s) = %s\n", e.Key, e.Declared, e.Value)
	}
	// Output:
	// SUCCESS <nil>
	// alarms (int) = 0
	// distance (int) = 9
	// steps (int) = 1
}

// Undo and save: versions of a BehaviorTree.CPP tree go in a History,
// and a version saves to bytes that restore it, blackboard and all.
func Example_undoAndSave() {
	doc, err := guardFactory().ParseFS(os.DirFS("testdata"), "guard.xml")
	if err != nil {
		fmt.Println(err)
		return
	}
	start, err := doc.Build("", btcpp.WithEntry("distance", 3), btcpp.WithEntry("steps", 0), btcpp.WithEntry("alarms", 0))
	if err != nil {
		fmt.Println(err)
		return
	}
	get := func(t *btcpp.Tree, key string) string { v, _ := t.Get(key); return v.String() }
	h := bt.NewHistory(start)
	for i := 0; i < 3; i++ {
		next, status, err := h.Current().Tick()
		if err != nil {
			fmt.Println(err)
			return
		}
		h = h.Push(next)
		fmt.Println(status, "distance", get(next, "distance"), "alarms", get(next, "alarms"))
	}
	h = h.Undo() // back to the version after the second tick
	fmt.Println("undone: distance", get(h.Current(), "distance"))

	data, err := h.Current().MarshalBinary() // a save file's bytes
	if err != nil {
		fmt.Println(err)
		return
	}
	restored, err := start.Restore(data) // any version of the built tree restores
	if err != nil {
		fmt.Println(err)
		return
	}
	next, status, err := restored.Tick()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("restored, then", status, "distance", get(next, "distance"), "alarms", get(next, "alarms"))
	// Output:
	// RUNNING distance 2 alarms 1
	// RUNNING distance 1 alarms 1
	// RUNNING distance 0 alarms 1
	// undone: distance 1
	// restored, then RUNNING distance 0 alarms 1
}
