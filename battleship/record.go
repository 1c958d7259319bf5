package battleship

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	bt "github.com/zipbt/behaviortree"
)

// A record is a game written as JSON Lines: a header line with the seeds and
// the setup, one line per turn with the intents the bot went through and
// the signals they got, the shot, the answer, the signal the answer gave and
// the bot's saved tree state after the turn, and an end line with the shot
// count. Several games may follow one another in one record.

// recordHeader is a record's first line for a game.
type recordHeader struct {
	Game      string `json:"game"` // always "battleship"
	Bot       string `json:"bot"`
	Cols      int    `json:"cols"`
	Rows      int    `json:"rows"`
	Fleet     []int  `json:"fleet"`
	BoardSeed uint64 `json:"board_seed"`
	BotSeed   uint64 `json:"bot_seed"`
}

type recordStep struct {
	Intent Intent `json:"intent"`
	Signal string `json:"signal"`
}

// recordTurn is a turn's line.
type recordTurn struct {
	Turn   int          `json:"turn"`
	Steps  []recordStep `json:"steps"`
	Shot   [2]int       `json:"shot"`
	Answer string       `json:"answer"`
	Ship   int          `json:"ship"`
	Signal string       `json:"signal"`
	State  string       `json:"state"` // base64 of the tree's MarshalBinary after the turn
}

// recordEnd is a game's last line.
type recordEnd struct {
	End   bool `json:"end"`
	Shots int  `json:"shots"`
}

// Setup is what a game needs besides its bot's play: the board's and the
// bot's seeds, and the configuration.
type Setup struct {
	Config
	Bot                string
	BoardSeed, BotSeed uint64
}

// NewGameFrom makes the board and the bot of s, and a game of them.
func NewGameFrom(s Setup) (*Game, error) {
	board, err := NewBoard(s.Config, s.BoardSeed)
	if err != nil {
		return nil, err
	}
	bot, err := New(s.Bot, s.BotSeed)
	if err != nil {
		return nil, err
	}
	return NewGame(board, bot), nil
}

// turnRecord is the record line of turn i (from 1) of a game.
func turnRecord(i int, t Turn) (recordTurn, error) {
	state, err := t.After.Tree().MarshalBinary()
	if err != nil {
		return recordTurn{}, err
	}
	r := recordTurn{Turn: i, Shot: [2]int{t.Shot.X, t.Shot.Y}, Answer: t.Answer.Kind.String(), Ship: t.Answer.Ship,
		Signal: t.Signal.String(), State: base64.StdEncoding.EncodeToString(state)}
	for _, s := range t.Steps {
		r.Steps = append(r.Steps, recordStep{Intent: s.Intent, Signal: s.Signal.String()})
	}
	return r, nil
}

// WriteRecord writes game g, played from setup s, to w as JSON Lines.
func WriteRecord(w io.Writer, s Setup, g *Game) error {
	enc := json.NewEncoder(w)
	h := recordHeader{Game: "battleship", Bot: s.Bot, Cols: s.Cols, Rows: s.Rows, Fleet: s.Fleet, BoardSeed: s.BoardSeed, BotSeed: s.BotSeed}
	if err := enc.Encode(h); err != nil {
		return err
	}
	for i, t := range g.Turns() {
		r, err := turnRecord(i+1, t)
		if err != nil {
			return err
		}
		if err := enc.Encode(r); err != nil {
			return err
		}
	}
	return enc.Encode(recordEnd{End: true, Shots: g.Sea().Shots()})
}

// ReplayRecord replays every game of a record read from r, checking that
// each recorded turn and state matches the replay exactly, and writes the
// turns to out. name is the record's name, for errors, which say the line.
// It returns the number of games and turns replayed.
func ReplayRecord(r io.Reader, name string, out io.Writer) (games, turns int, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	line := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	var g *Game
	var setup Setup
	decode := func(v any) error {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return fail("damaged line: %v", err)
		}
		return nil
	}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &keys); err != nil {
			return games, turns, fail("damaged line: %v", err)
		}
		_, isHeader := keys["game"]
		_, isEnd := keys["end"]
		switch {
		case g == nil && !isHeader:
			return games, turns, fail("expected a game header, got %.60s", text)
		case g != nil && isHeader:
			return games, turns, fail("a game header before game %d is over", games+1)
		case isHeader:
			var h recordHeader
			if err := decode(&h); err != nil {
				return games, turns, err
			}
			if h.Game != "battleship" {
				return games, turns, fail(`"game" is %q, want "battleship"`, h.Game)
			}
			setup = Setup{Config: Config{Cols: h.Cols, Rows: h.Rows, Fleet: h.Fleet}, Bot: h.Bot, BoardSeed: h.BoardSeed, BotSeed: h.BotSeed}
			if g, err = NewGameFrom(setup); err != nil {
				return games, turns, fail("%v", err)
			}
			fmt.Fprintf(out, "game %d: bot %s on %dx%d, fleet %v\n", games+1, h.Bot, h.Cols, h.Rows, h.Fleet)
		case isEnd:
			var e recordEnd
			if err := decode(&e); err != nil {
				return games, turns, err
			}
			if !g.Over() || e.Shots != g.Sea().Shots() {
				return games, turns, fail("the record ends after %d shots, but the replay has %d shots and is over: %v", e.Shots, g.Sea().Shots(), g.Over())
			}
			fmt.Fprintf(out, "game %d: fleet sunk in %d shots; every recorded state matches\n", games+1, e.Shots)
			games++
			g = nil
		default:
			var rec recordTurn
			if err := decode(&rec); err != nil {
				return games, turns, err
			}
			if rec.Turn != len(g.Turns())+1 {
				return games, turns, fail("turn %d where turn %d was due", rec.Turn, len(g.Turns())+1)
			}
			t, err := g.Step()
			if err != nil {
				return games, turns, fail("turn %d: %v", rec.Turn, err)
			}
			want, err := turnRecord(rec.Turn, t)
			if err != nil {
				return games, turns, fail("turn %d: %v", rec.Turn, err)
			}
			if d := diffTurns(rec, want); d != "" {
				return games, turns, fail("turn %d does not match the replay: %s", rec.Turn, d)
			}
			fmt.Fprintf(out, "  turn %3d: %-28s -> %v: %v\n", rec.Turn, stepsText(t.Steps), t.Shot, t.Answer)
			turns++
		}
	}
	if err := sc.Err(); err != nil {
		return games, turns, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if g != nil {
		return games, turns, fmt.Errorf("%s:%d: the record ends before game %d is over", name, line, games+1)
	}
	if games == 0 {
		return 0, 0, fmt.Errorf("%s: no game in the record", name)
	}
	return games, turns, nil
}

// diffTurns names the first field in which a recorded turn and its replay
// differ, or returns "".
func diffTurns(rec, got recordTurn) string {
	switch {
	case fmt.Sprint(rec.Steps) != fmt.Sprint(got.Steps):
		return fmt.Sprintf("recorded intents %v, replayed %v", rec.Steps, got.Steps)
	case rec.Shot != got.Shot:
		return fmt.Sprintf("recorded shot %v, replayed %v", rec.Shot, got.Shot)
	case rec.Answer != got.Answer || rec.Ship != got.Ship:
		return fmt.Sprintf("recorded answer %s (ship %d), replayed %s (ship %d)", rec.Answer, rec.Ship, got.Answer, got.Ship)
	case rec.Signal != got.Signal:
		return fmt.Sprintf("recorded signal %s, replayed %s", rec.Signal, got.Signal)
	case rec.State != got.State:
		return fmt.Sprintf("recorded tree state %s, replayed %s", rec.State, got.State)
	}
	return ""
}

// stepsText shows a turn's intents: "go_right:failure beginning_of_next_row".
func stepsText(steps []Step) string {
	var parts []string
	for _, s := range steps {
		if s.Signal == bt.Running {
			parts = append(parts, string(s.Intent))
		} else {
			parts = append(parts, string(s.Intent)+":"+s.Signal.String())
		}
	}
	return strings.Join(parts, " ")
}
