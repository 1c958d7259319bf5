package behaviortree_test

import (
	"fmt"
	"strings"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/memory"
)

// Example_npc is the stepped quickstart: a guard NPC that patrols (a walk
// that takes two turns, a wait, then a radio call that the game answers
// later), and fights when an enemy comes near. A History keeps
// every turn's version, to undo; a version saves to a [bt.Saved], which
// restores with the definition, the agent and the options.
//
// In turn 4 the enemy comes near: the ReactiveSelect, which tries its
// children from the first at every step, finds the attack allowed by its
// while guard, attacks, and aborts the patrol in the middle of its wait;
// in turn 6 the patrol starts again from its walk. The wait of 300 ms
// counts the turn it starts in: the walk ends in turn 7, and the radio
// call goes out in turn 9, answered by the game after the turn.
// Example_interrupt shows why a Select would lose a turn here.
func Example_npc() {
	enemyNear := false                     // the game world, the caller's
	var call *bt.Async                     // the radio call in flight, answered by the game
	walked := memory.NewKey[int]("walked") // the NPC's memory: kept in every version

	agent := bt.Agent[string]{
		MemoryAction: func(action string, b *bt.Blackboard) bt.Result {
			switch action {
			case "walk": // two turns per waypoint
				n, _ := walked.Get(b)
				walked.Put(b, n+1)
				if n%2 == 0 {
					return bt.ResultRunning
				}
				return bt.ResultSuccess
			case "radio":
				call = bt.NewAsync()
				return call.Result()
			}
			return bt.ResultSuccess // "attack"
		},
		Condition: func(string) bool { return enemyNear }, // "enemy near"
	}
	def := bt.Root(bt.ReactiveSelect(
		bt.Leaf("attack").With(attr.While("enemy near")),
		bt.Sequence( // the patrol
			bt.Leaf("walk"),
			bt.Wait[string](300*time.Millisecond), // 300 ms of the turn clock
			bt.Leaf("radio"),
		),
	))
	npc, err := bt.NewStepped(def, agent, bt.WithTurnClock(100*time.Millisecond)) // a turn is 100 ms
	if err != nil {
		fmt.Println(err)
		return
	}
	h := bt.NewHistory(npc)
	turn := func(n int) {
		var did []string
		next, err := h.Current().StepWith(func(e bt.Event[string]) {
			if e.Kind == bt.EventAction {
				did = append(did, e.Value)
			}
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		h = h.Push(next)
		fmt.Printf("turn %2d: %-9s %-9v %v\n", n, fmt.Sprint(did), h.Current().State(), h.Current().Memory())
		if call != nil {
			call.Succeed() // the game answers the radio call
			call = nil
		}
	}
	for n := 1; n <= 10; n++ {
		enemyNear = n == 4 || n == 5 // an enemy passes by in turns 4 and 5
		turn(n)
	}
	h = h.Undo().Undo() // two turns back: the tree and the memory
	walk, _ := walked.Get(h.Current().Memory())
	fmt.Println("undone to turn", h.Pos(), "walked", walk)

	saved, err := h.Current().Save() // a Saved: it marshals to JSON or binary on its own
	if err != nil {
		fmt.Println(err)
		return
	}
	restored, err := saved.RestoreStepped(def, agent, bt.WithTurnClock(100*time.Millisecond)) // e.g. in a later session
	if err != nil {
		fmt.Println(err)
		return
	}
	if restored, err = restored.Step(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("restored and stepped:", restored.State(), restored.Memory())
	// Output:
	// turn  1: [walk]    RUNNING   {walked: 1}
	// turn  2: [walk]    RUNNING   {walked: 2}
	// turn  3: []        RUNNING   {walked: 2}
	// turn  4: [attack]  SUCCEEDED {walked: 2}
	// turn  5: [attack]  SUCCEEDED {walked: 2}
	// turn  6: [walk]    RUNNING   {walked: 3}
	// turn  7: [walk]    RUNNING   {walked: 4}
	// turn  8: []        RUNNING   {walked: 4}
	// turn  9: [radio]   RUNNING   {walked: 4}
	// turn 10: []        SUCCEEDED {walked: 4}
	// undone to turn 8 walked 4
	// restored and stepped: RUNNING {walked: 4}
}

// Example_interrupt compares two ways to interrupt a running patrol when
// an enemy comes near. A ReactiveSelect tries its children from the first
// at every step, so the attack starts in the very step the enemy appears,
// and the running patrol is aborted. A Select resumes its running child
// instead: it needs an until guard on the patrol to stop it, and the
// guard's abort fails the patrol, and with it the Select, for that step;
// the attack waits for the next one.
func Example_interrupt() {
	enemyNear := false
	agent := bt.Agent[string]{
		Action: func(a string) bt.Result {
			if a == "patrol" {
				return bt.ResultRunning // a patrol never ends by itself
			}
			return bt.ResultSuccess
		},
		Condition: func(string) bool { return enemyNear }, // "enemy near"
	}
	reactive := bt.Root(bt.ReactiveSelect(
		bt.Leaf("attack").With(attr.While("enemy near")),
		bt.Leaf("patrol"),
	))
	guarded := bt.Root(bt.Select(
		bt.Leaf("attack").With(attr.While("enemy near")),
		bt.Leaf("patrol").With(attr.Until("enemy near")),
	))
	npcs := make([]bt.Stepped[string], 2)
	for i, def := range []bt.Node[string]{reactive, guarded} {
		npc, err := bt.NewStepped(def, agent)
		if err != nil {
			fmt.Println(err)
			return
		}
		npcs[i] = npc
	}
	fmt.Printf("turn  %-22s  %s\n", "ReactiveSelect", "Select + Until")
	for turn := 1; turn <= 4; turn++ {
		enemyNear = turn == 2 || turn == 3
		line := fmt.Sprintf("%4d", turn)
		for i, npc := range npcs {
			var did []string
			next, err := npc.StepWith(func(e bt.Event[string]) {
				if e.Kind == bt.EventAction {
					did = append(did, e.Value)
				}
			})
			if err != nil {
				fmt.Println(err)
				return
			}
			npcs[i] = next
			line += fmt.Sprintf("  %-10s %-11v", fmt.Sprint(did), next.State())
		}
		fmt.Println(strings.TrimRight(line, " "))
	}
	// Output:
	// turn  ReactiveSelect          Select + Until
	//    1  [patrol]   RUNNING      [patrol]   RUNNING
	//    2  [attack]   SUCCEEDED    []         FAILED
	//    3  [attack]   SUCCEEDED    [attack]   SUCCEEDED
	//    4  [patrol]   RUNNING      [patrol]   RUNNING
}

// Example_stepped is the package documentation's example: a stepped NPC
// that walks and waits, and attacks while an enemy is near.
func Example_stepped() {
	enemyNear := false
	agent := bt.Agent[string]{
		Action:    func(a string) bt.Result { fmt.Println(a); return bt.ResultSuccess }, // the game acts
		Condition: func(c string) bool { return enemyNear },                             // the game answers
	}
	def := bt.Root(bt.Select(
		bt.Leaf("attack").With(attr.While("enemy near")),
		bt.Sequence(bt.Leaf("walk"), bt.Wait[string](200*time.Millisecond)),
	))
	npc, err := bt.NewStepped(def, agent, bt.WithTurnClock(100*time.Millisecond))
	if err != nil {
		fmt.Println(err)
		return
	}
	for turn := 1; turn <= 4; turn++ {
		enemyNear = turn == 3
		if npc, err = npc.Step(); err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println("turn", turn, npc.State())
	}
	// Output:
	// walk
	// turn 1 RUNNING
	// turn 2 SUCCEEDED
	// attack
	// turn 3 SUCCEEDED
	// walk
	// turn 4 RUNNING
}
