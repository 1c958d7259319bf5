package behaviortree

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestSteppedJSON: a struct holding a Stepped marshals to a form that
// restores, never to {}; unmarshalling it into a Stepped fails and says
// how to restore; histories fail both ways instead of writing {}.
func TestSteppedJSON(t *testing.T) {
	def, err := parseMDSL("json", []byte(`root { sequence { action [A] wait [20] action [B] } }`))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	ag := Agent[Call]{Action: func(c Call) Result {
		n++
		if n%2 == 0 {
			return ResultRunning
		}
		return ResultSuccess
	}}
	tr, err := NewStepped(def, ag, WithTurnClock(5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if tr, err = tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	type game struct {
		Turn int
		AI   Stepped[Call]
	}
	data, err := json.Marshal(game{Turn: 3, AI: tr})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(`"AI":{}`)) || !bytes.Contains(data, []byte(`"format":"behaviortree-stepped/1"`)) {
		t.Fatalf("marshalled to %s", data)
	}
	var raw struct {
		Turn int
		AI   json.RawMessage
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	fresh, _ := NewStepped(def, ag, WithTurnClock(5*time.Millisecond))
	back, err := fresh.Restore(raw.AI)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := tr.MarshalBinary()
	if got, _ := back.MarshalBinary(); !bytes.Equal(got, want) {
		t.Errorf("restored %x, want %x", got, want)
	}
	var g game
	if err := json.Unmarshal(data, &g); err == nil || !strings.Contains(err.Error(), "Saved.RestoreStepped") {
		t.Errorf("unmarshalling a Stepped: %v, want an error saying how to restore", err)
	}
	if _, err := json.Marshal(game{}); err == nil || !strings.Contains(err.Error(), "zero Stepped") {
		t.Errorf("marshalling the zero Stepped: %v", err)
	}

	for _, bad := range []string{
		``, `{}`, `[]`,
		strings.Replace(string(raw.AI), `"state"`, `"extra":1,"state"`, 1),
		string(raw.AI) + ` {}`,
		string(raw.AI) + `x`,
		strings.Replace(string(raw.AI), `stepped/1`, `stepped/2`, 1),
		strings.Replace(string(raw.AI), `"fingerprint":"`, `"fingerprint":"0`, 1),
		strings.Replace(string(raw.AI), `"fingerprint":"`, `"fingerprint":"x`, 1)[:len(raw.AI)],
		strings.Replace(string(raw.AI), `"state":"`, `"state":"!`, 1),
	} {
		if _, err := fresh.Restore([]byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "behaviortree.Stepped.Restore: ") {
			t.Errorf("Restore(%.60q): %v, want an error", bad, err)
		}
	}
	other, _ := parseMDSL("other", []byte(`root { sequence { action [A] wait [20] action [B] action [C] } }`))
	ot, _ := NewStepped(other, ag)
	if _, err := ot.Restore(raw.AI); err == nil {
		t.Error("Restore of JSON against another definition: no error")
	}

	h := NewHistory(tr)
	if _, err := json.Marshal(struct{ H History[Stepped[Call]] }{h}); err == nil {
		t.Error("a History of Stepped marshalled without an error")
	}
	var hh struct{ H History[Stepped[Call]] }
	if err := json.Unmarshal([]byte(`{"H":{}}`), &hh); err == nil {
		t.Error("a History of Stepped unmarshalled without an error")
	}
	th := NewHistory(Start(Leaf("x")))
	if _, err := json.Marshal(struct{ H History[Tree[string]] }{th}); err == nil {
		t.Error("a History marshalled without an error")
	}
	var th2 struct{ H History[Tree[string]] }
	if err := json.Unmarshal([]byte(`{"H":{}}`), &th2); err == nil {
		t.Error("a History unmarshalled without an error")
	}
}
