package btcpp_test

import (
	"fmt"

	"github.com/zipbt/behaviortree/btcpp"
)

// A tree with a Go leaf, ticked twice, then an undo: the version after
// the first tick is ticked again.
func Example() {
	f := btcpp.NewFactory()
	// Walk moves one step per tick until it reaches 3.
	walk := func(c *btcpp.Call) (btcpp.Status, error) {
		pos, err := c.Int("pos")
		if err != nil {
			return btcpp.Failure, err
		}
		if err := c.Set("pos", pos+1); err != nil {
			return btcpp.Failure, err
		}
		if pos+1 >= 3 {
			return btcpp.Success, nil
		}
		return btcpp.Running, nil
	}
	if err := f.RegisterAction("Walk", btcpp.Action{OnStart: walk, OnRunning: walk}, btcpp.InOutPort("pos", "int")); err != nil {
		fmt.Println(err)
		return
	}
	doc, err := f.Parse(`
<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Sequence>
      <Walk pos="{pos}"/>
      <Script code="arrived := true"/>
    </Sequence>
  </BehaviorTree>
</root>`)
	if err != nil {
		fmt.Println(err)
		return
	}
	v0, err := doc.Build("", btcpp.WithEntry("pos", 0))
	if err != nil {
		fmt.Println(err)
		return
	}
	pos := func(t *btcpp.Tree) string { v, _ := t.Get("pos"); return v.String() }

	v1, s1, _ := v0.Tick()
	fmt.Println("tick 1:", s1, "pos", pos(v1), "nodes", v1)
	v2, s2, _ := v1.Tick()
	fmt.Println("tick 2:", s2, "pos", pos(v2), "nodes", v2)

	// Undo the second tick: v1 is as it was.
	fmt.Println("back to tick 1: pos", pos(v1))
	v2b, s2b, _ := v1.Tick()
	fmt.Println("tick 2 again:", s2b, "pos", pos(v2b))
	v3, s3, _ := v2b.Tick()
	_, arrived := v3.Get("arrived")
	fmt.Println("tick 3:", s3, "pos", pos(v3), "arrived", arrived)
	// Output:
	// tick 1: RUNNING pos 1 nodes RRI
	// tick 2: RUNNING pos 2 nodes RRI
	// back to tick 1: pos 1
	// tick 2 again: RUNNING pos 2
	// tick 3: SUCCESS pos 3 arrived true
}
