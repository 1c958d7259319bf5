package memory_test

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mdsl"
	"github.com/zipbt/behaviortree/memory"
)

// ExampleMap makes versions of a Map: each change returns a new Map and
// leaves the old one as it was, and the binary form restores a Map equal
// to the one saved.
func ExampleMap() {
	var m memory.Map
	m1 := m.Set("target", "B7").Set("shots", 2)
	m2 := m1.Set("shots", 3).Delete("target")
	fmt.Println(m, m1, m2)

	shots, _ := m1.Get("shots")
	fmt.Println(shots, m1.Len())

	data, err := m1.MarshalBinary()
	if err != nil {
		fmt.Println(err)
		return
	}
	var back memory.Map
	if err := back.UnmarshalBinary(data); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(data), "bytes:", back, back.Equal(m1))

	_, err = m.Set("f", func() {}).MarshalBinary()
	fmt.Println(err)
	// Output:
	// {} {shots: 2, target: "B7"} {shots: 3}
	// 2 2
	// 20 bytes: {shots: 2, target: "B7"} true
	// memory: cannot save key "f": a value of type func() has no saved form (see NewKey)
}

// The NPC's memory: typed keys, declared once.
var (
	attackLeft = memory.NewKey[int]("attack.left")     // turns left in the attack under way
	waypoint   = memory.NewKey[int]("patrol.waypoint") // the waypoint the patrol walks to
)

// ExampleKey is an NPC whose multi-turn attack and patrol live in the
// memory of its versions, read and written through typed keys on the
// step's Blackboard: undone in the middle of the attack, saved and
// restored, it carries on exactly where it was.
func ExampleKey() {
	def, err := mdsl.Parse("npc.mdsl", []byte(`root { sequence { action [Attack] action [Patrol] } }`))
	if err != nil {
		fmt.Println(err)
		return
	}
	agent, err := bt.Functions{MemoryActions: map[string]func(*bt.Blackboard, []any) bt.Result{
		"Attack": func(b *bt.Blackboard, _ []any) bt.Result {
			left, ok := attackLeft.Get(b)
			if !ok {
				left = 3 // a new attack takes 3 turns
			}
			if left--; left > 0 {
				attackLeft.Put(b, left)
				return bt.ResultRunning
			}
			b.Delete(attackLeft.Name())
			return bt.ResultSuccess
		},
		"Patrol": func(b *bt.Blackboard, _ []any) bt.Result {
			at, _ := waypoint.Get(b)
			waypoint.Put(b, (at+1)%4)
			return bt.ResultSuccess
		},
	}}.Agent(def)
	if err != nil {
		fmt.Println(err)
		return
	}
	npc, err := bt.NewStepped(def, agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	h := bt.NewHistory(npc)
	for range 2 {
		next, err := h.Current().Step()
		if err != nil {
			fmt.Println(err)
			return
		}
		h = h.Push(next)
	}
	fmt.Println("two turns:", h.Current().State(), h.Current().Memory())
	h = h.Undo() // back into the attack: its turns left come back with the tree
	fmt.Println("undone:   ", h.Current().State(), h.Current().Memory())

	saved, err := h.Current().Save()
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := saved.MarshalBinary() // or json.Marshal(saved): the bytes of a save file
	if err != nil {
		fmt.Println(err)
		return
	}
	game, err := bt.RestoreStepped(def, agent, data) // a later session, the same definition and agent
	if err != nil {
		fmt.Println(err)
		return
	}
	for range 3 {
		if game, err = game.Step(); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("restored: ", game.State(), game.Memory())
	}
	// Output:
	// two turns: RUNNING {attack.left: 1}
	// undone:    RUNNING {attack.left: 2}
	// restored:  RUNNING {attack.left: 1}
	// restored:  SUCCEEDED {patrol.waypoint: 1}
	// restored:  RUNNING {attack.left: 2, patrol.waypoint: 1}
}
