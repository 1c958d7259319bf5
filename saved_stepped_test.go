package behaviortree_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/memory"
)

// guardTree is a stepped tree with a guard, a wait and a counted repeat,
// whose agent keeps a count in memory.
func guardTree(t *testing.T) (bt.Node[string], bt.Agent[string]) {
	t.Helper()
	count := memory.NewKey[int]("saved.count")
	def := bt.Root(bt.Sequence(
		bt.Leaf("work").With(attr.While("ok")),
		bt.Wait[string](300*time.Millisecond),
		bt.RepeatCount[string](3, bt.Leaf("tick")),
	))
	agent := bt.Agent[string]{
		MemoryAction: func(v string, b *bt.Blackboard) bt.Result {
			n, _ := count.Get(b)
			count.Put(b, n+1)
			if v == "work" && n%3 != 2 {
				return bt.ResultRunning
			}
			return bt.ResultSuccess
		},
		Condition: func(string) bool { return true },
	}
	return def, agent
}

// TestSavedStepped saves stepped versions in a Saved, through both forms
// and inside a struct, and checks that each restores to a version that
// holds the same state and memory and steps on exactly as the original.
func TestSavedStepped(t *testing.T) {
	def, agent := guardTree(t)
	v, err := bt.NewStepped(def, agent, bt.WithTurnClock(100*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	for step := range 12 {
		saved, err := v.Save()
		if err != nil {
			t.Fatal(err)
		}
		want, err := v.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		type game struct {
			Turn int
			Bot  bt.Saved[string]
		}
		j, err := json.Marshal(game{step, saved})
		if err != nil {
			t.Fatal(err)
		}
		var back game
		if err := json.Unmarshal(j, &back); err != nil {
			t.Fatalf("step %d: %v\n%s", step, err, j)
		}
		bin, err := saved.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var fromBin bt.Saved[string]
		if err := fromBin.UnmarshalBinary(bin); err != nil {
			t.Fatal(err)
		}
		sj, _ := saved.MarshalJSON()
		vj, _ := v.MarshalJSON()
		if !bytes.Equal(sj, vj) {
			t.Fatalf("step %d: Saved.MarshalJSON %s, Stepped.MarshalJSON %s", step, sj, vj)
		}
		for name, s := range map[string]bt.Saved[string]{"json": back.Bot, "binary": fromBin} {
			r, err := s.RestoreStepped(def, agent, bt.WithTurnClock(100*time.Millisecond))
			if err != nil {
				t.Fatalf("step %d, %s: %v", step, name, err)
			}
			got, _ := r.MarshalBinary()
			if !bytes.Equal(got, want) {
				t.Fatalf("step %d, %s: restored state differs", step, name)
			}
			next, err1 := r.Step()
			orig, err2 := v.Step()
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			a, _ := next.MarshalBinary()
			b, _ := orig.MarshalBinary()
			if !bytes.Equal(a, b) {
				t.Fatalf("step %d, %s: the restored version steps differently", step, name)
			}
		}
		if v, err = v.Step(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSavedStyles checks that a Saved restores only in the style it was
// saved from, and that the zero Saved restores in neither.
func TestSavedStyles(t *testing.T) {
	def, agent := guardTree(t)
	v, err := bt.NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	stepped, err := v.Save()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := stepped.Restore(def); err == nil || !strings.Contains(err.Error(), "RestoreStepped") {
		t.Errorf("Restore of a stepped Saved: %v, want an error naming RestoreStepped", err)
	}
	tdef := bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))
	tree, err := bt.Start(tdef).Save()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.RestoreStepped(def, agent); err == nil || !strings.Contains(err.Error(), "use Restore") {
		t.Errorf("RestoreStepped of a Tree's Saved: %v, want an error naming Restore", err)
	}
	var zero bt.Saved[string]
	if _, err := zero.RestoreStepped(def, agent); err == nil {
		t.Error("RestoreStepped of the zero Saved: no error")
	}
	if !zero.IsZero() || stepped.IsZero() {
		t.Errorf("IsZero: zero %v, stepped %v", zero.IsZero(), stepped.IsZero())
	}
	other := bt.Root(bt.Sequence(bt.Leaf("work"), bt.Leaf("tick")))
	if _, err := stepped.RestoreStepped(other, agent); !errors.Is(err, bt.ErrWrongDefinition) {
		t.Errorf("RestoreStepped on another definition: %v, want ErrWrongDefinition", err)
	}
}

// TestSavedSteppedDamaged checks that a Saved refuses, with an error and
// without a panic, every truncation of a stepped state and damaged JSON,
// and leaves the Saved it unmarshals into unchanged.
func TestSavedSteppedDamaged(t *testing.T) {
	def, agent := guardTree(t)
	v, err := bt.NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	if v, err = v.Step(); err != nil { // memory not empty: the BTS2 form
		t.Fatal(err)
	}
	b, err := v.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	keep, _ := v.Save()
	for n := 4; n < len(b); n++ {
		s := keep
		if err := s.UnmarshalBinary(b[:n]); err == nil {
			t.Fatalf("UnmarshalBinary of %d of %d bytes: no error", n, len(b))
		}
		if s != keep {
			t.Fatalf("UnmarshalBinary of %d bytes changed the Saved", n)
		}
	}
	s := keep
	if err := s.UnmarshalBinary(append(bytes.Clone(b), 0)); err == nil {
		t.Error("UnmarshalBinary with a byte after the state: no error")
	}
	j, _ := v.MarshalJSON()
	for _, bad := range []string{
		strings.Replace(string(j), `"fingerprint":"`, `"fingerprint":"0`, 1),
		strings.Replace(string(j), `"state":"`, `"state":"!`, 1),
		strings.Replace(string(j), `}`, `,"extra":1}`, 1),
		string(j) + "{}",
	} {
		s := keep
		err := json.Unmarshal([]byte(bad), &s)
		if err == nil {
			t.Errorf("Unmarshal of %s: no error", bad)
		}
		if s != keep {
			t.Errorf("Unmarshal of %s changed the Saved", bad)
		}
	}
}

// ExampleStepped_Save keeps a stepped bot in a struct that encoding/json
// saves and reads back, and restores it with its definition and agent.
func ExampleStepped_Save() {
	def := bt.Root(bt.RepeatCount[string](3, bt.Leaf("patrol")))
	agent := bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultSuccess }}
	bot, err := bt.NewStepped(def, agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	bot, _ = bot.Step() // one patrol done, two to go
	type Game struct {
		Turn int
		Bot  bt.Saved[string] // not bt.Stepped[string]
	}
	saved, err := bot.Save()
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := json.Marshal(Game{Turn: 1, Bot: saved})
	if err != nil {
		fmt.Println(err)
		return
	}

	var game Game // a later session
	if err := json.Unmarshal(data, &game); err != nil {
		fmt.Println(err)
		return
	}
	bot, err = game.Bot.RestoreStepped(def, agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(bot.State())
	for range 3 { // the two patrols left; the repeat ends at the step after them
		bot, _ = bot.Step()
		fmt.Println(bot.State())
	}
	// Output:
	// RUNNING
	// RUNNING
	// RUNNING
	// SUCCEEDED
}

// FuzzSavedUnmarshal checks that a Saved reads any bytes, in either form,
// without a panic, and that what it accepts saves back to the same bytes
// (binary) and restores or fails with an error (stepped).
func FuzzSavedUnmarshal(f *testing.F) {
	def, agent := guardTree(&testing.T{})
	v, _ := bt.NewStepped(def, agent)
	for range 3 {
		b, _ := v.MarshalBinary()
		j, _ := v.MarshalJSON()
		f.Add(b)
		f.Add(j)
		v, _ = v.Step()
	}
	tb, _ := bt.Start(bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))).MarshalBinary()
	f.Add(tb)
	f.Fuzz(func(t *testing.T, data []byte) {
		var s bt.Saved[string]
		if err := s.UnmarshalBinary(data); err == nil {
			back, err := s.MarshalBinary()
			if err != nil {
				t.Fatalf("accepted %x, MarshalBinary: %v", data, err)
			}
			if !bytes.Equal(back, data) {
				t.Fatalf("accepted %x, saves back as %x", data, back)
			}
			_, _ = s.RestoreStepped(def, agent)
		}
		var js bt.Saved[string]
		if err := json.Unmarshal(data, &js); err == nil {
			if _, err := json.Marshal(js); err != nil {
				t.Fatalf("accepted JSON %q, Marshal: %v", data, err)
			}
			_, _ = js.RestoreStepped(def, agent)
		}
	})
}

// TestSaveUnsavableMemoryError checks that every way of saving a version
// whose memory holds a value with no saved form fails with a
// *memory.Error naming the key, and says which call failed.
func TestSaveUnsavableMemoryError(t *testing.T) {
	bad := memory.Map{}.Set("ch", make(chan int))
	tree := bt.Start(bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))).WithMemory(bad)
	st, err := bt.NewStepped(bt.Leaf("a"), bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultRunning }})
	if err != nil {
		t.Fatal(err)
	}
	st = st.WithMemory(bad)
	saves := []struct {
		name, says string
		save       func() error
	}{
		{"Tree.Save", "", func() error { _, err := tree.Save(); return err }},
		{"Tree.MarshalBinary", "", func() error { _, err := tree.MarshalBinary(); return err }},
		{"json.Marshal(Tree)", "", func() error { _, err := json.Marshal(tree); return err }},
		{"Stepped.Save", "behaviortree.Stepped.Save: ", func() error { _, err := st.Save(); return err }},
		{"Stepped.MarshalBinary", "behaviortree.Stepped.MarshalBinary: ", func() error { _, err := st.MarshalBinary(); return err }},
		{"json.Marshal(Stepped)", "behaviortree.Stepped.MarshalJSON: ", func() error { _, err := json.Marshal(st); return err }},
	}
	for _, s := range saves {
		err := s.save()
		var me *memory.Error
		if !errors.As(err, &me) || me.Key != "ch" {
			t.Errorf("%s: %v, want a *memory.Error for key ch", s.name, err)
			continue
		}
		if !strings.Contains(err.Error(), s.says) {
			t.Errorf("%s: %q does not say %q", s.name, err, s.says)
		}
	}
}
