package behaviortree_test

import (
	"fmt"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
)

// A guard in a turn-based game: it aims while its weapon cools down (a
// parallel of an action and a wait on a turn clock), then fires, an async
// action that the game resolves after the turn. A while guard stops the
// attack as soon as it is out of ammo, and it reloads instead.
func ExampleNewStepped() {
	ammo := 2
	var shot *bt.Async // the shot in flight, resolved by the game
	agent := bt.Agent[string]{
		Action: func(v string) bt.Result {
			switch v {
			case "aim":
				return bt.ResultSuccess
			case "fire":
				ammo--
				shot = bt.NewAsync()
				return shot.Result()
			case "reload":
				ammo = 2
				return bt.ResultSuccess
			}
			return bt.ResultFailure
		},
		Condition: func(v string) bool { return ammo > 0 }, // "has ammo"
	}
	def := bt.Root(bt.Select(
		bt.Sequence(
			bt.Parallel(bt.Leaf("aim"), bt.Wait[string](200*time.Millisecond)), // 200 ms to cool down
			bt.Leaf("fire"),
		).With(attr.While("has ammo")),
		bt.Leaf("reload"),
	))
	tree, err := bt.NewStepped(def, agent, bt.WithTurnClock(100*time.Millisecond)) // a turn is 100 ms
	if err != nil {
		fmt.Println(err)
		return
	}
	for turn := 1; turn <= 7; turn++ {
		var did []string
		tree, err = tree.StepWith(func(e bt.Event[string]) {
			if e.Kind == bt.EventAction {
				did = append(did, e.Value)
			}
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("turn %d: %-8s ammo %d, tree %v\n", turn, fmt.Sprint(did), ammo, tree.State())
		if shot != nil {
			shot.Succeed() // the game resolves the shot: a hit
			shot = nil
		}
	}
	// Output:
	// turn 1: [aim]    ammo 2, tree RUNNING
	// turn 2: [fire]   ammo 1, tree RUNNING
	// turn 3: []       ammo 1, tree SUCCEEDED
	// turn 4: [aim]    ammo 1, tree RUNNING
	// turn 5: [fire]   ammo 0, tree RUNNING
	// turn 6: [reload] ammo 2, tree SUCCEEDED
	// turn 7: [aim]    ammo 2, tree RUNNING
}

// ExampleWithTurnClock shows how a wait counts turns under a turn clock:
// every update of the wait adds one turn, the update that starts it
// included, and the wait succeeds in the update that reaches its time.
// With turns of 100 ms, a wait of 300 ms started in turn 1 (after two
// actions that succeed at once) succeeds in turn 3, its third update.
func ExampleWithTurnClock() {
	agent := bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultSuccess }}
	def := bt.Root(bt.Sequence(
		bt.Leaf("step out"),
		bt.Leaf("look"),
		bt.Wait[string](300*time.Millisecond),
		bt.Leaf("go on"),
	))
	tree, err := bt.NewStepped(def, agent, bt.WithTurnClock(100*time.Millisecond))
	if err != nil {
		fmt.Println(err)
		return
	}
	for turn := 1; turn <= 4; turn++ {
		var did []string
		tree, err = tree.StepWith(func(e bt.Event[string]) {
			if e.Kind == bt.EventAction {
				did = append(did, e.Value)
			}
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("turn %d: %v %v\n", turn, did, tree.State())
	}
	// Output:
	// turn 1: [step out look] RUNNING
	// turn 2: [] RUNNING
	// turn 3: [go on] SUCCEEDED
	// turn 4: [step out look] RUNNING
}

// ExampleAsync shows that settling an async result is an input that
// enters the versions: a version stepped again does what it did, whatever
// was settled since, and a saved version keeps its pending result, which
// the game settles by its id after the restore.
func ExampleAsync() {
	var call *bt.Async // the radio call in flight, answered by the game
	agent := bt.Agent[string]{Action: func(string) bt.Result {
		call = bt.NewAsync()
		return call.Result()
	}}
	def := bt.Root(bt.Leaf("radio"))
	v0, err := bt.NewStepped(def, agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	v1, _ := v0.Step() // the call goes out
	saved, err := v1.Save()
	if err != nil {
		fmt.Println(err)
		return
	}
	v2, _ := v1.Step() // no answer yet
	call.Succeed()     // the answer comes
	v3, _ := v2.Step()
	again, _ := v1.Step() // v1 again: no answer, as the first time
	fmt.Println("v2", v2.State(), "v3", v3.State(), "v1 again", again.State())

	id := call.ID() // kept by the game with its own save
	restored, err := saved.RestoreStepped(def, agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	if pending, ok := restored.Async(id); ok {
		pending.Fail() // this session's answer
	}
	restored, _ = restored.Step()
	fmt.Println("restored: call", id, restored.State())
	// Output:
	// v2 RUNNING v3 SUCCEEDED v1 again RUNNING
	// restored: call 1 FAILED
}
