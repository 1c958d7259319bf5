package battleship

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/memory"
)

// TreeE is bot "E", the strongest here: a stepped tree (the stepped
// engine's kinds, Mistreevous semantics) over a handler that computes where
// the ships are likely to be. In MDSL:
//
//	root {
//	    selector {
//	        action [target] while(target_afloat)
//	        sequence {
//	            condition [open_hit]
//	            action [take_target]
//	        }
//	        selector {
//	            sequence {
//	                condition [parity_pays]
//	                action [hunt_parity]
//	            }
//	            action [hunt_density]
//	        }
//	    }
//	}
//
// Each step runs the first branch that can go on:
//
//   - Target: while the hit being targeted belongs to a ship afloat (the
//     while guard, asked before every step of the action), target fires
//     at the cell most likely to hold a ship given every open hit (for
//     the last ship afloat, at the first cell of the firing order that
//     sinks it in the fewest shots on average, solved exactly), and stays
//     running. The step after the targeted ship sinks, the guard
//     fails and aborts targeting at once.
//   - Collateral damage, and first hits: if a hit on a ship afloat is
//     open (a hit made while targeting another ship, or hunting's first
//     hit), take_target makes it the target, without a shot; the tree
//     completes, and its next step targets it. So every hit is followed
//     up before hunting resumes.
//   - Hunt: with no open hit, hunt by placement density, on one parity
//     class while that pays (the shortest ship afloat is at least
//     parityFrom long), or over every cell. The class is chosen anew at
//     every shot: of the colourings that every ship afloat crosses, the
//     colour with the fewest cells left to fire at (a much denser cell
//     off it, in a pocket of free cells, is taken instead). A hunting
//     shot completes the tree.
//
// The handler knows how (density.go); the tree only decides what to do
// next.
var TreeE = bt.Root(bt.Select(
	bt.Leaf(target).With(attr.While(targetAfloat)),
	bt.Sequence(bt.Condition(openHit), bt.Leaf(takeTarget)),
	bt.Select(
		bt.Sequence(bt.Condition(parityPays), bt.Leaf(huntParity)),
		bt.Leaf(huntDensity),
	),
))

// Bot E's intents: its actions, conditions and guard.
const (
	target       Intent = "target"
	targetAfloat Intent = "target_afloat"
	openHit      Intent = "open_hit"
	takeTarget   Intent = "take_target"
	parityPays   Intent = "parity_pays"
	huntParity   Intent = "hunt_parity"
	huntDensity  Intent = "hunt_density"
)

// parityFrom is the shortest ship length for which hunting on one parity
// colour pays.
const parityFrom = 2

// targetKey is what E remembers, besides its generator: the hit it
// targets (none before its first hit).
var targetKey = memory.NewKey[Point]("battleship.target")

// botE is E's handler.
var botE = strategy{name: "E", stepped: &planE}

var planE = steppedPlan{
	def:       TreeE,
	action:    actE,
	condition: condE,
	doing:     doingE,
	actions:   actionNodes(TreeE),
}

// actE carries out E's actions.
func actE(c *stepContext, in Intent) bt.Status {
	switch in {
	case target, huntParity, huntDensity:
		p := c.load()
		r0, _ := rngKey.Get(c.bb)
		r := r0
		var at Point
		ok := false
		switch in {
		case target:
			at, ok = p.target(&r.pcg)
		case huntParity:
			at, ok = p.hunt(&r.pcg, true)
		default:
			at, ok = p.hunt(&r.pcg, false)
		}
		if r != r0 { // not every choice draws: only ties do
			rngKey.Put(c.bb, r)
		}
		if !ok {
			return bt.Failure // no cell left: the tree tries its next branch
		}
		c.fire(at)
		if in == target {
			return bt.Running // go on targeting while the guard holds
		}
		return bt.Success
	case takeTarget:
		h, ok := c.view.firstHit()
		if !ok {
			return bt.Failure
		}
		targetKey.Put(c.bb, h)
		return bt.Success
	}
	panic("battleship: unreachable: bot E has no action " + string(in))
}

// condE answers E's conditions and guard.
func condE(c *stepContext, in Intent) bool {
	v := c.view
	switch in {
	case targetAfloat:
		t, ok := targetKey.Get(c.bb)
		return ok && v.In(t) && v.At(t) == Hit
	case openHit:
		_, ok := v.firstHit()
		return ok
	case parityPays:
		return c.load().shortest() >= parityFrom
	}
	panic("battleship: unreachable: bot E has no condition " + string(in))
}

// doingE says what E is doing.
func doingE(b *Bot) string {
	switch b.Intent() {
	case target:
		t, _ := targetKey.Get(b.steps.Memory())
		return fmt.Sprintf("targeting the ship hit at %v, given every open hit", t)
	case "":
		return "between branches: the next step starts the tree over"
	}
	return string(b.Intent())
}
