package proptest_test

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	bt "github.com/zipbt/behaviortree"
)

// asyncAgent is pureAgent with async actions: "c" returns a new Async,
// which the game settles later (settleAfter), or never.
func asyncAgent() bt.Agent[string] {
	a := pureAgent()
	pure := a.Action
	a.Action = func(v string) bt.Result {
		if v == "c" {
			return bt.NewAsync().Result()
		}
		return pure(v)
	}
	return a
}

// settleAfter is the game's script: after step i, what it does with the
// async result of id id that a version waits for: nothing (Running), or
// settle it with Success or Failure. It is a function of (script, i, id)
// alone, so that a replay that settles by id gives the same inputs.
func settleAfter(script uint64, i int, id uint64) bt.Status {
	x := script ^ uint64(i)*0x9e3779b97f4a7c15 ^ id*0xbf58476d1ce4e5b9
	x ^= x >> 31
	x *= 0x94d049bb133111eb
	x ^= x >> 29
	switch x % 5 {
	case 0:
		return bt.Success
	case 1:
		return bt.Failure
	}
	return bt.Running
}

// settle applies the script after step i to the results v waits for.
func settle(v bt.Stepped[string], script uint64, i int) {
	for _, a := range v.Pending() {
		switch settleAfter(script, i, a.ID()) {
		case bt.Success:
			a.Succeed()
		case bt.Failure:
			a.Fail()
		}
	}
}

// asyncRun is a line of versions: each version's saved form and the
// events of the step that made it, and the versions themselves.
type asyncRun struct {
	versions []bt.Stepped[string]
	states   [][]byte
	events   []string
}

// runAsync steps from v, the version after step from, to step to,
// settling by the script after each step, and records the line.
func runAsync(v bt.Stepped[string], script uint64, from, to int) (asyncRun, error) {
	var r asyncRun
	for i := from; i < to; i++ {
		var ev bytes.Buffer
		next, err := v.StepWith(func(e bt.Event[string]) { fmt.Fprintf(&ev, "%v;", e) })
		if err != nil {
			return r, err
		}
		v = next
		b, err := v.MarshalBinary()
		if err != nil {
			return r, err
		}
		r.versions, r.states, r.events = append(r.versions, v), append(r.states, b), append(r.events, ev.String())
		settle(v, script, i)
	}
	return r, nil
}

// resaved saves r's versions again: a save holds what the game settled
// by the time of the save (a result settled after a version was made is
// saved with it), so two lines compare by saves made after both ran.
func (r asyncRun) resaved() (asyncRun, error) {
	out := r
	out.states = nil
	for _, v := range r.versions {
		b, err := v.MarshalBinary()
		if err != nil {
			return r, err
		}
		out.states = append(out.states, b)
	}
	return out, nil
}

// same returns "" when b, a line from step from on, is a's from there.
func (a asyncRun) same(b asyncRun, from int, what string) string {
	for i := range b.states {
		if !bytes.Equal(a.states[from+i], b.states[i]) || a.events[from+i] != b.events[i] {
			return fmt.Sprintf("%s: step %d differs:\n%s\n%s", what, from+i, a.events[from+i], b.events[i])
		}
	}
	return ""
}

func newAsyncStepped(n bt.Node[string], seed uint64) (bt.Stepped[string], error) {
	return bt.NewStepped(n, asyncAgent(), bt.WithTurnClock(100*time.Millisecond), bt.WithSeed(seed))
}

// TestAsyncLaws checks that async results keep versions exact: settling
// is an input that enters the versions, by a script of the game that
// settles results by id between steps. To reproduce a failure, rerun with
// the printed seed: PROPTEST_SEED=<seed> go test ./proptest -run TestAsyncLaws
func TestAsyncLaws(t *testing.T) {
	props := gopter.NewProperties(parameters(t))
	const steps = 24

	props.Property("A1 a replay from any kept version is exact with async actions, whatever was settled since", prop.ForAll(
		func(n bt.Node[string], k int, seed, script uint64) string {
			s, err := newAsyncStepped(n, seed)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			line, err := runAsync(s, script, 0, steps)
			if err != nil {
				return err.Error()
			}
			// Every version of the line was stepped, and results settled,
			// after version k was made: replaying from it, settling by the
			// same script, gives the same versions and events, twice.
			from := s
			if k > 0 {
				from = line.versions[k-1]
			}
			for again := range 2 {
				replay, err := runAsync(from, script, k, steps)
				if err != nil {
					return err.Error()
				}
				if replay, err = replay.resaved(); err != nil {
					return err.Error()
				}
				now, err := line.resaved()
				if err != nil {
					return err.Error()
				}
				if d := now.same(replay, k, fmt.Sprintf("%v: replay %d from version %d", n, again+1, k)); d != "" {
					return d
				}
			}
			return ""
		}, steppedTree, gen.IntRange(0, steps-1), seeds, seeds))

	props.Property("A2 a saved version, pending or settled async results included, restores to one with the same future", prop.ForAll(
		func(n bt.Node[string], k int, seed, script uint64) string {
			s, err := newAsyncStepped(n, seed)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			head, err := runAsync(s, script, 0, k+1)
			if err != nil {
				return err.Error()
			}
			// The last version, saved after the script settled what it
			// settles after step k.
			v := head.versions[k]
			data, err := v.MarshalBinary()
			if err != nil {
				return err.Error()
			}
			restored, err := v.Restore(data)
			if err != nil {
				return fmt.Sprintf("%v: restore after step %d: %v", n, k, err)
			}
			if again, err := restored.MarshalBinary(); err != nil || !bytes.Equal(again, data) {
				return fmt.Sprintf("%v: the restored version saves to other bytes (%v)", n, err)
			}
			var ids, rids []uint64
			for _, a := range v.Pending() {
				ids = append(ids, a.ID())
			}
			for _, a := range restored.Pending() {
				rids = append(rids, a.ID())
			}
			if fmt.Sprint(ids) != fmt.Sprint(rids) {
				return fmt.Sprintf("%v: pending ids %v, restored %v", n, ids, rids)
			}
			// Both continue, settled by the same script: the restored
			// version by the ids it restored.
			orig, err := runAsync(v, script, k+1, steps)
			if err != nil {
				return err.Error()
			}
			back, err := runAsync(restored, script, k+1, steps)
			if err != nil {
				return err.Error()
			}
			return orig.same(back, 0, fmt.Sprintf("%v: restored after step %d", n, k))
		}, steppedTree, gen.IntRange(0, steps-2), seeds, seeds))

	props.TestingRun(t)
}
