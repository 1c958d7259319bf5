package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/battleship"
)

// A record is a game written as JSON Lines: a header line with the seeds and
// the setup, one line per turn with the intents the bot went through and
// the signals they got, the shot (column and row, from 0), the answer, the
// signal the answer gave and the bot's tree state after the turn (an
// Elixir-style tree's saved binary state, a stepped tree's node states,
// each with the bot's memory: a record written before the bots kept their
// memory in their versions does not replay), and
// an end line with the shot count. Several games may follow one another in
// one record.

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

type recordTick struct {
	Intent battleship.Intent `json:"intent"`
	Signal string            `json:"signal"`
}

// recordTurn is a turn's line.
type recordTurn struct {
	Turn   int          `json:"turn"`
	Ticks  []recordTick `json:"steps"`
	Shot   [2]int       `json:"shot"`
	Answer string       `json:"answer"`
	Ship   int          `json:"ship"` // from 0, -1 for a miss
	Signal string       `json:"signal"`
	State  string       `json:"state"` // base64 of the bot's tree state after the turn (Bot.State)
}

// recordEnd is a game's last line.
type recordEnd struct {
	End   bool `json:"end"`
	Shots int  `json:"shots"`
}

// setup is what a game needs besides its bot's play: the board's and the
// bot's seeds, and the configuration.
type setup struct {
	battleship.Config
	bot                string
	boardSeed, botSeed uint64
}

// newGame makes the board and the bot of s, and a game of them.
func newGame(s setup) (*battleship.Game, error) {
	board, err := battleship.NewBoard(s.Config, s.boardSeed)
	if err != nil {
		return nil, err
	}
	bot, err := battleship.NewBot(s.bot, s.botSeed)
	if err != nil {
		return nil, err
	}
	return battleship.NewGame(board, bot), nil
}

// turnRecord is the record line of turn i (from 1) of a game.
func turnRecord(i int, t battleship.Turn) (recordTurn, error) {
	state, err := t.Bot.State()
	if err != nil {
		return recordTurn{}, err
	}
	r := recordTurn{Turn: i, Shot: [2]int{t.Shot.X, t.Shot.Y}, Answer: t.Answer.Kind.String(), Ship: t.Answer.Ship,
		Signal: t.Signal.String(), State: base64.StdEncoding.EncodeToString(state)}
	for _, k := range t.Ticks {
		r.Ticks = append(r.Ticks, recordTick{Intent: k.Intent, Signal: k.Signal.String()})
	}
	return r, nil
}

// writeRecord writes game g, played from setup s, to w as JSON Lines.
func writeRecord(w io.Writer, s setup, g *battleship.Game) error {
	enc := json.NewEncoder(w)
	h := recordHeader{Game: "battleship", Bot: s.bot, Cols: s.Cols, Rows: s.Rows, Fleet: s.Fleet, BoardSeed: s.boardSeed, BotSeed: s.botSeed}
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
	return enc.Encode(recordEnd{End: true, Shots: g.Shots()})
}

// replayer replays a record line by line.
type replayer struct {
	name  string // the record's name, for errors
	line  int
	out   io.Writer
	g     *battleship.Game
	games int
	turns int
}

// fail returns an error naming the record's current line.
func (r *replayer) fail(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", r.name, r.line, fmt.Sprintf(format, args...))
}

// failErr wraps err with the record's current line.
func (r *replayer) failErr(err error, format string, args ...any) error {
	return wrap(err, "%s:%d: %s", r.name, r.line, fmt.Sprintf(format, args...))
}

// decode reads a line into v, refusing unknown fields.
func (r *replayer) decode(text []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return r.failErr(err, "damaged line")
	}
	return nil
}

// replayRecord replays every game of a record read from rd, checking that
// each recorded turn and state matches the replay exactly, and writes the
// turns to out. name is the record's name, for errors, which say the line.
// It returns the number of games and turns replayed.
func replayRecord(rd io.Reader, name string, out io.Writer) (games, turns int, err error) {
	r := &replayer{name: name, out: out}
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	for sc.Scan() {
		r.line++
		if err := r.replayLine(sc.Bytes()); err != nil {
			return r.games, r.turns, err
		}
	}
	if err := sc.Err(); err != nil {
		return r.games, r.turns, fmt.Errorf("%s:%d: %w", name, r.line+1, err)
	}
	if r.g != nil {
		return r.games, r.turns, fmt.Errorf("%s:%d: the record ends before game %d is over", name, r.line, r.games+1)
	}
	if r.games == 0 {
		return 0, 0, fmt.Errorf("%s: no game in the record", name)
	}
	return r.games, r.turns, nil
}

// replayLine replays one line of a record.
func (r *replayer) replayLine(text []byte) error {
	if len(bytes.TrimSpace(text)) == 0 {
		return nil
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(text, &keys); err != nil {
		return r.failErr(err, "damaged line")
	}
	_, isHeader := keys["game"]
	_, isEnd := keys["end"]
	switch {
	case r.g == nil && !isHeader:
		return r.fail("expected a game header, got %s", quote(string(text)))
	case r.g != nil && isHeader:
		return r.fail("a game header before game %d is over", r.games+1)
	case isHeader:
		return r.header(text)
	case isEnd:
		return r.end(text)
	}
	return r.turn(text)
}

// header starts the game of a header line.
func (r *replayer) header(text []byte) error {
	var h recordHeader
	if err := r.decode(text, &h); err != nil {
		return err
	}
	if h.Game != "battleship" {
		return r.fail(`"game" is %s, want "battleship"`, quote(h.Game))
	}
	s := setup{Config: battleship.Config{Cols: h.Cols, Rows: h.Rows, Fleet: h.Fleet}, bot: h.Bot, boardSeed: h.BoardSeed, botSeed: h.BotSeed}
	g, err := newGame(s)
	if err != nil {
		return r.failErr(err, "the game header")
	}
	r.g = g
	fmt.Fprintf(r.out, "game %d: bot %s on %dx%d, fleet %v\n", r.games+1, g.Bot().Name(), h.Cols, h.Rows, h.Fleet)
	return nil
}

// end checks a game's end line.
func (r *replayer) end(text []byte) error {
	var e recordEnd
	if err := r.decode(text, &e); err != nil {
		return err
	}
	if !r.g.Over() || e.Shots != r.g.Shots() {
		return r.fail("the record ends after %d shots, but the replay has %d shots and is over: %v", e.Shots, r.g.Shots(), r.g.Over())
	}
	fmt.Fprintf(r.out, "game %d: fleet sunk in %d shots; every recorded state matches\n", r.games+1, e.Shots)
	r.games++
	r.g = nil
	return nil
}

// turn plays the turn of a turn line and checks it against the record.
func (r *replayer) turn(text []byte) error {
	var rec recordTurn
	if err := r.decode(text, &rec); err != nil {
		return err
	}
	if due := len(r.g.Turns()) + 1; rec.Turn != due {
		return r.fail("turn %d where turn %d was due", rec.Turn, due)
	}
	t, err := r.g.PlayTurn()
	if err != nil {
		return r.failErr(err, "turn %d", rec.Turn)
	}
	want, err := turnRecord(rec.Turn, t)
	if err != nil {
		return r.failErr(err, "turn %d", rec.Turn)
	}
	if d := diffTurns(rec, want); d != "" {
		return r.fail("turn %d does not match the replay: %s", rec.Turn, d)
	}
	fmt.Fprintf(r.out, "  turn %3d: %-28s -> %v: %v\n", rec.Turn, ticksText(t.Ticks), t.Shot, t.Answer)
	r.turns++
	return nil
}

// diffTurns names the first field in which a recorded turn and its replay
// differ, or returns "".
func diffTurns(rec, got recordTurn) string {
	switch {
	case fmt.Sprint(rec.Ticks) != fmt.Sprint(got.Ticks):
		return fmt.Sprintf("recorded intents %s, replayed %s", quote(fmt.Sprint(rec.Ticks)), quote(fmt.Sprint(got.Ticks)))
	case rec.Shot != got.Shot:
		return fmt.Sprintf("recorded shot %v, replayed %v", point(rec.Shot), point(got.Shot))
	case rec.Answer != got.Answer || rec.Ship != got.Ship:
		return fmt.Sprintf("recorded answer %s (ship %d), replayed %s (ship %d)", quote(rec.Answer), rec.Ship+1, got.Answer, got.Ship+1)
	case rec.Signal != got.Signal:
		return fmt.Sprintf("recorded signal %s, replayed %s", quote(rec.Signal), got.Signal)
	case rec.State != got.State:
		return fmt.Sprintf("recorded tree state %s, replayed %s", quote(rec.State), got.State)
	}
	return ""
}

// point is a recorded shot as board coordinates.
func point(s [2]int) battleship.Point { return battleship.Point{X: s[0], Y: s[1]} }

// ticksText shows a turn's intents: "go_right:failure beginning_of_next_row".
func ticksText(ticks []battleship.Tick) string {
	var parts []string
	for _, k := range ticks {
		if k.Signal == bt.Running {
			parts = append(parts, string(k.Intent))
		} else {
			parts = append(parts, string(k.Intent)+":"+k.Signal.String())
		}
	}
	return strings.Join(parts, " ")
}
