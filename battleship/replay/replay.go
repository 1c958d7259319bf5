// Package replay reads the game records that the battleship command writes
// (its -record flag) and replays them, checked turn by turn against the
// bots, into pages of package viewer: each bot's tree beside its board,
// with the shots, hits and sunk ships of every turn. It also draws the
// histogram of shots per game that the command's -plot flag writes.
package replay

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
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/viewer"
)

// Game is one game of a battleship record, as the battleship
// command's -record flag writes it (JSON Lines: a header, one line per
// turn, an end line; several games may follow one another).
type Game struct {
	Bot       string
	Cols      int
	Rows      int
	Fleet     []int
	BoardSeed uint64
	BotSeed   uint64
	Turns     []Turn
	Shots     int // from the end line
}

// Turn is one turn of a record: the intents the bot went
// through with their signals (the last one, the shot's, Running), the
// shot (column and row, from 0), the answer ("miss", "hit", "sunk"), the
// ship (from 0, -1 for a miss), the signal the answer gave, and the
// tree's saved state after the turn (base64 of [bt.Tree.MarshalBinary] or
// [bt.Stepped.MarshalBinary]), which holds the bot's memory.
type Turn struct {
	Turn   int    `json:"turn"`
	Ticks  []Tick `json:"steps"`
	Shot   [2]int `json:"shot"`
	Answer string `json:"answer"`
	Ship   int    `json:"ship"`
	Signal string `json:"signal"`
	State  string `json:"state"`
}

// Tick is one intent of a turn and the signal it got.
type Tick struct {
	Intent string `json:"intent"`
	Signal string `json:"signal"`
}

// recordHeader is a game's first line.
type recordHeader struct {
	Game      string `json:"game"`
	Bot       string `json:"bot"`
	Cols      int    `json:"cols"`
	Rows      int    `json:"rows"`
	Fleet     []int  `json:"fleet"`
	BoardSeed uint64 `json:"board_seed"`
	BotSeed   uint64 `json:"bot_seed"`
}

// recordEnd is a game's last line.
type recordEnd struct {
	End   bool `json:"end"`
	Shots int  `json:"shots"`
}

// maxRecordLine bounds a record's lines.
const maxRecordLine = 1 << 20

// Read reads a battleship record from r: every game in it. A
// damaged line, a line out of place, or a record that ends inside a game
// is an error naming the line.
func Read(r io.Reader) ([]Game, error) {
	var games []Game
	var g *Game
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxRecordLine)
	line := 0
	for sc.Scan() {
		line++
		text := bytes.TrimSpace(sc.Bytes())
		if len(text) == 0 {
			continue
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(text, &keys); err != nil {
			return nil, fmt.Errorf("replay.Read: line %d: %w", line, err)
		}
		_, isHeader := keys["game"]
		_, isEnd := keys["end"]
		var err error
		switch {
		case isHeader && g != nil:
			return nil, fmt.Errorf("replay.Read: line %d: a game header inside game %d", line, len(games)+1)
		case isHeader:
			var h recordHeader
			if err = decodeStrict(text, &h); err == nil && h.Game != "battleship" {
				err = fmt.Errorf(`"game" is %q, want "battleship"`, h.Game)
			}
			g = &Game{Bot: h.Bot, Cols: h.Cols, Rows: h.Rows, Fleet: h.Fleet, BoardSeed: h.BoardSeed, BotSeed: h.BotSeed}
		case g == nil:
			return nil, fmt.Errorf("replay.Read: line %d: expected a game header", line)
		case isEnd:
			var e recordEnd
			if err = decodeStrict(text, &e); err == nil {
				g.Shots = e.Shots
				games = append(games, *g)
				g = nil
			}
		default:
			var t Turn
			if err = decodeStrict(text, &t); err == nil {
				g.Turns = append(g.Turns, t)
			}
		}
		if err != nil {
			return nil, fmt.Errorf("replay.Read: line %d: %w", line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("replay.Read: line %d: %w", line+1, err)
	}
	if g != nil {
		return nil, fmt.Errorf("replay.Read: the record ends inside game %d", len(games)+1)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("replay.Read: no game in the record")
	}
	return games, nil
}

// decodeStrict decodes one JSON value, refusing unknown fields.
func decodeStrict(text []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// status reads a signal as the record writes it.
func status(s string) (bt.Status, error) {
	for _, st := range []bt.Status{bt.Running, bt.Success, bt.Failure} {
		if s == st.String() {
			return st, nil
		}
	}
	return 0, fmt.Errorf("signal %q, want running, success or failure", s)
}

// NewReplay returns a Replay of game g: the bot's tree beside the
// board (the ships drawn faintly until hit), a start step and one step per
// turn, each showing the tree's version at the turn's shot (the focus on
// the intent that fired), the shot on the board, and as events the
// intents the bot went through, the shot, its answer and the signal the
// answer gave.
//
// For a bot on the stepped engine (bot E), each turn shows the stepped
// version the turn ends at, its node states as [bt.Stepped.Picture] draws
// them with the focus on the action that fired, and as events the calls
// of its agent (guards, conditions, actions and what they returned), the
// shot and its answer, the nodes whose state changed since the turn
// before, and whether the tree completed.
//
// Every step lists the bot's memory as the turn left it (see
// [Step.Memory]).
//
// It rebuilds the bot and the board from the record's seeds, and checks
// each turn against them: the intents must be the ones the tree asks for
// after the recorded signals (for a stepped bot, the ones its turn,
// replayed, goes through), the answer the board's, and the saved state
// after the turn the version those signals reach, with the memory the
// bot, playing the game again, reaches. A record that does not
// match is an error naming the turn.
func NewReplay(g Game) (*viewer.Replay, error) {
	cfg := battleship.Config{Cols: g.Cols, Rows: g.Rows, Fleet: g.Fleet}
	board, err := battleship.NewBoard(cfg, g.BoardSeed)
	if err != nil {
		return nil, fmt.Errorf("replay.NewReplay: %w", err)
	}
	bot, err := battleship.NewBot(g.Bot, g.BotSeed)
	if err != nil {
		return nil, fmt.Errorf("replay.NewReplay: %w", err)
	}
	var layout bt.Picture
	st, stepped := bot.Stepped()
	if stepped {
		layout = st.Picture()
	} else {
		layout = bot.Tree().Definition().Picture()
	}
	r, err := viewer.NewReplay(fmt.Sprintf("bot %s, %dx%d, %d shots", bot.Name(), g.Cols, g.Rows, len(g.Turns)), layout)
	if err != nil {
		return nil, fmt.Errorf("replay.NewReplay: %w", err)
	}
	ships := make([][][2]int, len(board.Ships))
	for i, s := range board.Ships {
		for _, c := range s.Cells {
			ships[i] = append(ships[i], [2]int{c.X, c.Y})
		}
	}
	if err := r.SetBoard(g.Cols, g.Rows, ships); err != nil {
		return nil, fmt.Errorf("replay.NewReplay: %w", err)
	}
	if stepped {
		return steppedBattleship(r, layout, g, board, bot)
	}
	v := bot.Tree()
	def := v.Definition()
	var states []bt.State
	focus := make([]int, 1)
	states, focus[0] = v.NodeStates(states), v.FocusIndex()
	start := viewer.Step{Label: fmt.Sprintf("start: bot %s on a %dx%d board, fleet %v; the tree is at %v", bot.Name(), g.Cols, g.Rows, g.Fleet, v.Value()),
		States: states, Focus: focus, Memory: bot.Memory()}
	if err := r.Add(start); err != nil {
		return nil, fmt.Errorf("replay.NewReplay: %w", err)
	}
	game := battleship.NewGame(board, bot)
	for i, t := range g.Turns {
		fail := func(format string, args ...any) error {
			return fmt.Errorf("replay.NewReplay: turn %d: %s", i+1, fmt.Sprintf(format, args...))
		}
		if t.Turn != i+1 {
			return nil, fail("numbered %d", t.Turn)
		}
		if len(t.Ticks) == 0 {
			return nil, fail("no intents")
		}
		var events []string
		for j, k := range t.Ticks {
			if got := fmt.Sprint(v.Value()); got != k.Intent {
				return nil, fail("the record's intent %d is %q, but the tree asks for %q", j+1, k.Intent, got)
			}
			s, err := status(k.Signal)
			if err != nil {
				return nil, fail("intent %d: %v", j+1, err)
			}
			if s == bt.Running {
				if j != len(t.Ticks)-1 {
					return nil, fail("intent %d fired, but intents follow it", j+1)
				}
				break
			}
			if j == len(t.Ticks)-1 {
				return nil, fail("the last intent, %s, fired no shot", k.Intent)
			}
			events = append(events, fmt.Sprintf("%s: %v (no shot)", k.Intent, s))
			v = v.Signal(s)
		}
		p := battleship.Point{X: t.Shot[0], Y: t.Shot[1]}
		if p.X < 0 || p.Y < 0 || p.X >= g.Cols || p.Y >= g.Rows {
			return nil, fail("shot %v off the board", t.Shot)
		}
		if want := board.ShipAt(p); (t.Answer == "miss") != (want < 0) || (want >= 0 && t.Ship != want) {
			return nil, fail("the answer %s (ship %d) at %v, but the board has ship %d there", t.Answer, t.Ship, p, want)
		}
		answer := t.Answer
		if answer == "sunk" {
			answer = fmt.Sprintf("sunk ship %d", t.Ship+1)
		}
		sig, err := status(t.Signal)
		if err != nil {
			return nil, fail("%v", err)
		}
		events = append(events, fmt.Sprintf("%v: fire at %v: %s", v.Value(), p, answer))
		if sig == bt.Running {
			events = append(events, "the answer leaves the tree as it is")
		} else {
			events = append(events, fmt.Sprintf("the answer signals %v", sig))
		}
		next := v.Signal(sig)
		if next.Status() != bt.Running {
			events = append(events, fmt.Sprintf("the root ended with %v; the tree started over", next.Status()))
		}
		states, focus[0] = v.NodeStates(states), v.FocusIndex()
		step := viewer.Step{Label: fmt.Sprintf("turn %d: %v fires at %v: %s", i+1, v.Value(), p, answer),
			States: states, Focus: focus, Events: events, Shot: &viewer.Shot{X: p.X, Y: p.Y, Answer: t.Answer, Ship: t.Ship}}
		v = next
		saved, err := base64.StdEncoding.DecodeString(t.State)
		if err != nil {
			return nil, fail("the saved state: %v", err)
		}
		restored, err := bt.Restore(def, saved)
		if err != nil {
			return nil, fail("the saved state: %v", err)
		}
		// The signals reach the tree's focus; what the bot remembers is
		// the handler's doing: the game played again must reach the saved
		// state, memory and all.
		v = v.WithMemory(restored.Memory())
		if !restored.Equal(v) {
			return nil, fail("the saved state is not the version the recorded signals reach")
		}
		played, err := game.PlayTurn()
		if err != nil {
			return nil, fail("the replay: %v", err)
		}
		if played.Shot != p {
			return nil, fail("the record's shot is %v, the bot's %v", p, played.Shot)
		}
		if want, err := played.Bot.State(); err != nil || !bytes.Equal(saved, want) {
			return nil, fail("the saved state is not the one the bot reaches (its memory differs)")
		}
		// The memory is the bot's after the turn: what it remembers from
		// this shot and the ones before.
		step.Memory = played.Bot.Memory()
		if err := r.Add(step); err != nil {
			return nil, fail("%v", err)
		}
	}
	return r, nil
}

// Write writes a viewer page of the games (see
// [NewReplay]) to w; a menu switches between them.
func Write(w io.Writer, games []Game) error {
	var rs []*viewer.Replay
	var bots []string
	for _, g := range games {
		r, err := NewReplay(g)
		if err != nil {
			return err
		}
		rs = append(rs, r)
		bots = append(bots, g.Bot)
	}
	return viewer.Write(w, "battleship: bot "+strings.Join(bots, ", "), rs...)
}

// steppedBattleship adds to r, whose layout is the tree of bot, a bot on
// the stepped engine, the steps of game g: it replays the game on board,
// checks each recorded turn against the turn played, and shows the
// version the turn ends at, its events and its shot.
func steppedBattleship(r *viewer.Replay, layout bt.Picture, g Game, board *battleship.Board, bot battleship.Bot) (*viewer.Replay, error) {
	v, _ := bot.Stepped()
	// What each intent names: actions and conditions by their nodes; an
	// intent no node names is a guard's.
	actions := map[string][]int{}
	conditions := map[string]bool{}
	for nd := range v.Nodes() {
		switch nd.Kind {
		case kind.Leaf:
			actions[fmt.Sprint(nd.Value)] = append(actions[fmt.Sprint(nd.Value)], nd.ID)
		case kind.Condition:
			conditions[fmt.Sprint(nd.Value)] = true
		}
	}
	n := len(layout.Nodes)
	states, prev := make([]bt.State, n), make([]bt.State, n)
	var focus []int
	states, focus = viewer.SteppedStates(layout, v, states, focus)
	start := viewer.Step{Label: fmt.Sprintf("start: bot %s on a %dx%d board, fleet %v; the tree is %v", bot.Name(), g.Cols, g.Rows, g.Fleet, v.State()),
		States: states, Focus: focus, Memory: bot.Memory()}
	if err := r.Add(start); err != nil {
		return nil, fmt.Errorf("replay.NewReplay: %w", err)
	}
	game := battleship.NewGame(board, bot)
	for i, t := range g.Turns {
		fail := func(format string, args ...any) error {
			return fmt.Errorf("replay.NewReplay: turn %d: %s", i+1, fmt.Sprintf(format, args...))
		}
		if t.Turn != i+1 {
			return nil, fail("numbered %d", t.Turn)
		}
		if len(t.Ticks) == 0 {
			return nil, fail("no intents")
		}
		played, err := game.PlayTurn()
		if err != nil {
			return nil, fail("the replay: %v", err)
		}
		if len(t.Ticks) != len(played.Ticks) {
			return nil, fail("the record has %d intents, the replay %d", len(t.Ticks), len(played.Ticks))
		}
		for j, k := range played.Ticks {
			if rec := t.Ticks[j]; rec.Intent != string(k.Intent) || rec.Signal != k.Signal.String() {
				return nil, fail("the record's intent %d is %q (%s), but the tree asks for %q (%s)", j+1, rec.Intent, rec.Signal, k.Intent, k.Signal)
			}
		}
		p := played.Shot
		if t.Shot != [2]int{p.X, p.Y} {
			return nil, fail("the record's shot is %v, the tree's %v", t.Shot, [2]int{p.X, p.Y})
		}
		if t.Answer != played.Answer.Kind.String() || t.Ship != played.Answer.Ship {
			return nil, fail("the answer %s (ship %d) at %v, but the board has ship %d there", t.Answer, t.Ship, p, board.ShipAt(p))
		}
		if t.Signal != played.Signal.String() {
			return nil, fail("the record's signal is %q, the replay's %s", t.Signal, played.Signal)
		}
		saved, err := base64.StdEncoding.DecodeString(t.State)
		if err != nil {
			return nil, fail("the saved state: %v", err)
		}
		want, err := played.Bot.State()
		if err != nil {
			return nil, fail("the replay's state: %v", err)
		}
		if !bytes.Equal(saved, want) {
			return nil, fail("the saved state is not the version the recorded intents reach")
		}

		var events []string
		last := len(played.Ticks) - 1
		for _, k := range played.Ticks[:last] {
			in := string(k.Intent)
			switch {
			case actions[in] != nil:
				events = append(events, fmt.Sprintf("action %s: %v (no shot)", in, k.Signal))
			case conditions[in]:
				events = append(events, fmt.Sprintf("condition %s: %s", in, holds(k.Signal)))
			default:
				events = append(events, fmt.Sprintf("guard %s: %s", in, holds(k.Signal)))
			}
		}
		fired := string(played.Ticks[last].Intent)
		answer := played.Answer.String()
		events = append(events, fmt.Sprintf("action %s: fire at %v: %s", fired, p, answer))
		v, _ = played.Bot.Stepped()
		copy(prev, states)
		states, focus = viewer.SteppedStates(layout, v, states, focus)
		since := "the start"
		if i > 0 {
			since = fmt.Sprintf("turn %d", i)
		}
		for j := range states {
			if prev[j] != states[j] {
				events = append(events, fmt.Sprintf("since %s: %s", since,
					viewer.EventText(layout, bt.Event[string]{Kind: bt.EventState, Node: j, From: prev[j], To: states[j]})))
			}
		}
		if st := v.State(); st != bt.StateRunning {
			events = append(events, fmt.Sprintf("the tree is %v; its next step starts over", st))
		}
		// The focus is the action that fired: running, or done if it
		// completed the tree.
		if at := firing(actions[fired], states); at >= 0 {
			focus = append(focus[:0], at)
		}
		step := viewer.Step{Label: fmt.Sprintf("turn %d: %s fires at %v: %s", i+1, fired, p, answer),
			States: states, Focus: focus, Events: events, Shot: &viewer.Shot{X: p.X, Y: p.Y, Answer: t.Answer, Ship: t.Ship},
			Memory: played.Bot.Memory()}
		if err := r.Add(step); err != nil {
			return nil, fail("%v", err)
		}
	}
	return r, nil
}

// holds says whether a condition's tick held.
func holds(s bt.Status) string {
	if s == bt.Success {
		return "holds"
	}
	return "does not hold"
}

// firing returns the node, of the action nodes at, that fired: the one
// that is running, or else one that is not ready; -1 if none is.
func firing(at []int, states []bt.State) int {
	found := -1
	for _, i := range at {
		switch {
		case states[i] == bt.StateRunning:
			return i
		case states[i] != bt.StateReady && found < 0:
			found = i
		}
	}
	return found
}
