package behaviortree

import (
	"bytes"
	"errors"
	"testing"
	"time"
)

// FuzzParseMistreevous reads arbitrary definitions: each gives a Node or a
// *DefinitionError, never a panic; a Node written back reads back to the
// same JSON, and runs for a few steps with an agent that answers from the
// call's name.
func FuzzParseMistreevous(f *testing.F) {
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
		def, err := ParseMistreevous(data)
		if err != nil {
			var de *DefinitionError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *DefinitionError", err)
			}
			return
		}
		out, err := MarshalMistreevous(def)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		again, err := ParseMistreevous(out)
		if err != nil {
			t.Fatalf("re-read %s: %v", out, err)
		}
		out2, err := MarshalMistreevous(again)
		if err != nil || !bytes.Equal(out, out2) {
			t.Fatalf("round trip differs:\n%s\n%s (%v)", out, out2, err)
		}
		if def.Size() > 2000 {
			return
		}
		n := 0
		agent := Agent[Call]{
			Action: func(c Call) Result {
				n++
				switch len(c.Name) % 4 {
				case 0:
					return ResultSuccess
				case 1:
					return ResultFailure
				case 2:
					a := NewAsync()
					if n%2 == 0 {
						a.Succeed()
					}
					return a.Result()
				}
				return ResultRunning
			},
			Condition: func(c Call) bool { n++; return (len(c.Name)+n)%3 != 0 },
			Entry:     func(Call) {},
			Step:      func(Call) {},
			Exit:      func(Call, bool, bool) {},
		}
		tr, err := NewStepped(def, agent, WithSeed(1), WithTurnClock(250*time.Millisecond))
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
