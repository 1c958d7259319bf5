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

// Example_typedArgs runs a tree read from MDSL with typed handlers, whose
// Args read each argument with its type checked: a wrong argument is an
// error that names the node, its place in the text and the argument,
// instead of a panic on a type assertion. A misspelt name is refused
// before any step, with its place and the nearest known name.
func Example_typedArgs() {
	src := `root {
    sequence {
        action [Aim, "left"]
        action [Fire, "twice"]
    }
}`
	def, err := mdsl.Parse("guard.mdsl", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fns := bt.Functions{
		TypedActions: map[string]func(bt.Args) bt.Result{
			"Aim": func(args bt.Args) bt.Result {
				side, err := args.String(0)
				if err != nil {
					fmt.Println(err)
					return bt.ResultFailure
				}
				fmt.Println("aim", side)
				return bt.ResultSuccess
			},
			"Fire": func(args bt.Args) bt.Result {
				shots, err := args.Int(0) // MDSL numbers are float64s: Int checks for a whole number
				if err != nil {
					fmt.Println(err)
					return bt.ResultFailure
				}
				fmt.Println("fire", shots)
				return bt.ResultSuccess
			},
		},
	}
	agent, err := fns.Agent(def)
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, err := bt.NewStepped(def, agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	if tree, err = tree.Step(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tree.State())

	typo, err := mdsl.Parse("typo.mdsl", []byte(`root { action [Fre, 2] }`))
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = fns.Agent(typo)
	fmt.Println(err)
	// Output:
	// aim left
	// guard.mdsl:4:17: node 3 (action Fire): argument 0 is the string "twice", not an integer
	// FAILED
	// behaviortree.Functions.Agent: typo.mdsl:1:16: node 1 (action): no action function named "Fre"; did you mean "Fire"?
}
