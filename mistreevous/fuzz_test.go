package mistreevous_test

import (
	"bytes"
	"errors"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mistreevous"
)

// FuzzParse reads arbitrary definitions: each gives a Node or a
// *bt.DefinitionError, never a panic; a Node written back reads back to the
// same JSON, and runs for a few steps with an agent that answers from the
// call's name.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`[{"type":"root","child":{"type":"action","call":"A0"}}]`,
		`[{"type":"root","child":{"type":"lotto","weights":[1,0],"children":[{"type":"wait","duration":[1,5]},{"type":"condition","call":"C0","args":[1,"x",null,true,{"$":"p"}]}]}}]`,
		`[{"type":"root","child":{"type":"branch","ref":"S"}},{"type":"root","id":"S","child":{"type":"repeat","iterations":[0,2],"child":{"type":"action","call":"A1","while":{"call":"C1","succeedOnAbort":true}}}}]`,
		`[{"type":"root","child":{"type":"branch","ref":"S"}},{"type":"root","id":"S","child":{"type":"branch","ref":"S"}}]`,
		`[{"type":"root","child":{"type":"lotto","weights":[1],"children":[{"type":"action","call":"A"},{"type":"action","call":"B"}]}}]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		def, err := mistreevous.Parse(data)
		if err != nil {
			var de *bt.DefinitionError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *bt.DefinitionError", err)
			}
			return
		}
		out, err := mistreevous.Marshal(def)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		again, err := mistreevous.Parse(out)
		if err != nil {
			t.Fatalf("re-read %s: %v", out, err)
		}
		out2, err := mistreevous.Marshal(again)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("round trip differs:\n%s\n%s (%v)", out, out2, err)
		}
		if def.Size() > 2000 {
			return
		}
		n := 0
		agent := bt.Agent[bt.Call]{
			Action: func(c bt.Call) bt.Result {
				n++
				switch len(c.Name) % 4 {
				case 0:
					return bt.ResultSuccess
				case 1:
					return bt.ResultFailure
				case 2:
					a := bt.NewAsync()
					if n%2 == 0 {
						a.Succeed()
					}
					return a.Result()
				}
				return bt.ResultRunning
			},
			Condition: func(c bt.Call) bool { n++; return (len(c.Name)+n)%3 != 0 },
			Entry:     func(bt.Call) {},
			OnStep:    func(bt.Call) {},
			Exit:      func(bt.Call, bool, bool) {},
		}
		tr, err := bt.NewStepped(def, agent, bt.WithSeed(1), bt.WithTurnClock(250*time.Millisecond))
		if err != nil {
			t.Fatalf("NewStepped: %v", err)
		}
		for range 8 {
			if tr, err = tr.Step(); err != nil {
				t.Fatalf("Step: %v", err)
			}
		}
	})
}
