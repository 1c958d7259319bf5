package main

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/battleship"
	"github.com/zipbt/behaviortree/memory"
)

func recordOf(t *testing.T, names ...string) string {
	t.Helper()
	var buf bytes.Buffer
	for _, name := range names {
		bs, ps := battleship.GameSeeds(4, 0)
		s := setup{Config: battleship.DefaultConfig(), bot: name, boardSeed: bs, botSeed: ps}
		g, err := newGame(s)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(); err != nil {
			t.Fatal(err)
		}
		if err := writeRecord(&buf, s, g); err != nil {
			t.Fatal(err)
		}
	}
	return buf.String()
}

// TestRecordEveryBot records a game of every bot and replays the record.
func TestRecordEveryBot(t *testing.T) {
	rec := recordOf(t, battleship.Names()...)
	var out bytes.Buffer
	games, turns, err := replayRecord(strings.NewReader(rec), "rec.jsonl", &out)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Count(rec, "\n")
	if n := len(battleship.Names()); games != n || turns != lines-2*n {
		t.Fatalf("replayed %d games and %d turns of a %d-line record", games, turns, lines)
	}
	if !strings.Contains(out.String(), "every recorded state matches") {
		t.Errorf("output:\n%s", out.String())
	}
}

// TestReplayDamaged checks that a record that does not match, or is damaged,
// gets an error naming the line.
func TestReplayDamaged(t *testing.T) {
	rec := recordOf(t, "D")
	lines := strings.Split(strings.TrimSuffix(rec, "\n"), "\n")
	edit := func(i int, from, to string) string {
		c := append([]string(nil), lines...)
		if !strings.Contains(c[i], from) {
			t.Fatalf("line %d lacks %q: %s", i+1, from, c[i])
		}
		c[i] = strings.Replace(c[i], from, to, 1)
		return strings.Join(c, "\n") + "\n"
	}
	tests := []struct {
		name, record, want string
	}{
		{"truncated", strings.Join(lines[:10], "\n") + "\n", "rec.jsonl:10: the record ends before game 1 is over"},
		{"cut mid-line", rec[:len(rec)/2], "damaged line"},
		{"bad JSON", edit(3, `{"turn"`, `{turn`), "rec.jsonl:4: damaged line"},
		{"other seed", edit(0, `"board_seed":`, `"board_seed":1`), "rec.jsonl:"},
		{"other answer", edit(2, `"answer":"`, `"answer":"x`), `rec.jsonl:3: turn 2 does not match the replay: recorded answer "x`},
		{"unknown field", edit(1, `{"turn"`, `{"x":1,"turn"`), `rec.jsonl:2: damaged line: json: unknown field "x"`},
		{"skipped turn", edit(1, `"turn":1`, `"turn":2`), "rec.jsonl:2: turn 2 where turn 1 was due"},
		{"no header", strings.Join(lines[1:], "\n"), "rec.jsonl:1: expected a game header"},
		{"empty", "", "rec.jsonl: no game in the record"},
	}
	// A changed tree state must be caught too.
	state := lines[5][strings.Index(lines[5], `"state":"`)+9:]
	state = state[:strings.Index(state, `"`)]
	raw, _ := base64.StdEncoding.DecodeString(state)
	raw[len(raw)-1] ^= 1
	tests = append(tests, struct{ name, record, want string }{"other state",
		edit(5, state, base64.StdEncoding.EncodeToString(raw)), "rec.jsonl:6: turn 5 does not match the replay: recorded tree state"})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := replayRecord(strings.NewReader(tc.record), "rec.jsonl", &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestStateSizes logs the encoded size of each bot's tree state mid-game.
func TestStateSizes(t *testing.T) {
	for _, name := range battleship.Names() {
		bs, ps := battleship.GameSeeds(2, 0)
		g, err := newGame(setup{Config: battleship.DefaultConfig(), bot: name, boardSeed: bs, botSeed: ps})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(); err != nil {
			t.Fatal(err)
		}
		b, err := g.Turns()[len(g.Turns())/2].Bot.State()
		if err != nil {
			t.Fatal(err)
		}
		// The state is the tree's, then the bot's memory: its keys by
		// name (up to 21 bytes), each with its value (the generator's 20
		// bytes, or a point's name) and a few bytes of framing.
		bot := g.Turns()[len(g.Turns())/2].Bot
		var bare []byte
		if st, ok := bot.Stepped(); ok {
			bare, err = st.WithMemory(memory.Map{}).MarshalBinary()
		} else {
			bare, err = bot.Tree().WithMemory(memory.Map{}).MarshalBinary()
		}
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("bot %s: state %d bytes binary, %d of them the tree's, memory %v", name, len(b), len(bare), bot.Memory())
		if len(bare) > 64 {
			t.Errorf("bot %s: a tree state of %d bytes is not compact", name, len(bare))
		}
		if len(b)-len(bare) > 48*bot.Memory().Len() {
			t.Errorf("bot %s: %d bytes for %d keys of memory is not compact", name, len(b)-len(bare), bot.Memory().Len())
		}
	}
}

// TestReplayLimits checks that a record's header is held to the game's
// limits before any placement work, and that errors quote at most about
// 100 bytes of what the record says.
func TestReplayLimits(t *testing.T) {
	ones := strings.Repeat("1,", 9999) + "1"
	long := strings.Repeat("z", 20000)
	tests := []struct{ name, record, want string }{
		{"10,000 ships", `{"game":"battleship","bot":"A","cols":100,"rows":100,"fleet":[` + ones + `],"board_seed":1,"bot_seed":1}`,
			"rec.jsonl:1: the game header: the fleet has 10000 ships, more than the limit of 100"},
		{"huge board", `{"game":"battleship","bot":"A","cols":100000,"rows":100000,"fleet":[1],"board_seed":1,"bot_seed":1}`,
			"rec.jsonl:1: the game header: board 100000x100000: each side must be 1 to 100"},
		{"long bot name", `{"game":"battleship","bot":"` + long + `","cols":10,"rows":10,"fleet":[1],"board_seed":1,"bot_seed":1}`,
			"(20000 bytes) (want a, b, c, d or e)"},
		{"long game name", `{"game":"` + long + `"}`, "(20000 bytes), want \"battleship\""},
		{"long stray line", `{"x":"` + long + `"}`, "expected a game header, got"},
		{"long unknown field", `{"game":"battleship","` + long + `":1}`, "damaged line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := replayRecord(strings.NewReader(tc.record), "rec.jsonl", &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if len(err.Error()) > 400 {
				t.Errorf("a %d-byte error: %.200s...", len(err.Error()), err)
			}
			if strings.Contains(err.Error(), "battleship: ") {
				t.Errorf("the package prefix inside a located error: %v", err)
			}
		})
	}
}
