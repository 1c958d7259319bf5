package mdsl_test

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mdsl"
)

// A tree written in MDSL, run by a registry of functions, and kept in a
// History so that a step can be undone.
func ExampleParse() {
	src := `root {
    selector {
        sequence while(SeesEnemy) {
            action [Aim, "left"]
            action [Fire, 2]
        }
        action [Patrol]
    }
}`
	def, err := mdsl.Parse("guard.mdsl", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	enemy := true
	agent, err := bt.Functions{
		Actions: map[string]func([]any) bt.Result{
			"Aim":    func(args []any) bt.Result { fmt.Println("aim", args[0]); return bt.ResultSuccess },
			"Fire":   func(args []any) bt.Result { fmt.Println("fire", args[0]); return bt.ResultRunning },
			"Patrol": func([]any) bt.Result { fmt.Println("patrol"); return bt.ResultRunning },
		},
		Conditions: map[string]func([]any) bool{"SeesEnemy": func([]any) bool { return enemy }},
	}.Agent(def)
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, err := bt.NewStepped(def, agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	h := bt.NewHistory(tree)
	step := func() {
		next, err := h.Current().Step()
		if err != nil {
			fmt.Println(err)
			return
		}
		h = h.Push(next)
	}
	step() // aims and fires: the shot is under way
	enemy = false
	step() // the guard no longer holds: the attack is aborted
	fmt.Println(h.Current().State(), "after", h.Pos(), "steps")
	h = h.Undo()
	fmt.Println("undone: back at step", h.Pos(), h.Current().State())
	// Output:
	// aim left
	// fire 2
	// patrol
	// RUNNING after 2 steps
	// undone: back at step 1 RUNNING
}
