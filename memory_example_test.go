package behaviortree_test

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mdsl"
)

// The NPC's memory: typed keys, declared once.
var (
	attackLeft = bt.NewKey[int]("attack.left")     // turns left in the attack under way
	waypoint   = bt.NewKey[int]("patrol.waypoint") // the waypoint the patrol walks to
)

// ExampleMemory is an NPC whose multi-turn attack and patrol live in the
// memory of its versions: undone in the middle of the attack, saved and
// restored, it carries on exactly where it was.
func ExampleMemory() {
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

// ExampleTree_WithMemory keeps a handler's count in the memory of the
// Tree's versions: the handler reads the version it acts for and reports
// with the new memory, so that an old version keeps the count it had.
func ExampleTree_WithMemory() {
	shots := bt.NewKey[int]("shots")
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
