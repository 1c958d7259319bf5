package battleship

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
)

// Turn is one shot of a game, with the bot version before and after it.
type Turn struct {
	Before Bot       // the bot as the turn began
	Steps  []Step    // the intents it went through, the shot's last
	Shot   Point     // where it fired
	Answer Answer    // what the shot hit
	Signal bt.Status // what the answer told the tree (Running: nothing)
	After  Bot       // the bot as the turn ended
}

// Game is one bot playing against one placed fleet. It keeps every turn,
// with the bot's versions, so that it can be inspected and stepped back.
type Game struct {
	board *Board
	sea   *Sea
	start Bot
	bot   Bot
	turns []Turn
}

// NewGame returns a game of bot against board, with no shot fired.
func NewGame(board *Board, bot Bot) *Game {
	return &Game{board: board, sea: NewSea(board), start: bot, bot: bot}
}

// Sea returns the board under fire.
func (g *Game) Sea() *Sea { return g.sea }

// Bot returns the bot as it is now.
func (g *Game) Bot() Bot { return g.bot }

// Over reports whether every ship is sunk.
func (g *Game) Over() bool { return g.sea.Over() }

// Turns returns the turns played so far, oldest first. The slice must not
// be modified.
func (g *Game) Turns() []Turn { return g.turns }

// Step plays one turn: the bot decides, fires, and observes the answer. A
// bot that cannot decide, or names a shot the game refuses, is an error,
// and the game is unchanged.
func (g *Game) Step() (Turn, error) {
	if g.sea.Over() {
		return Turn{}, fmt.Errorf("battleship: the game is over")
	}
	d, err := g.bot.Decide(g.sea.View())
	if err != nil {
		return Turn{}, err
	}
	a, err := g.sea.Fire(d.Shot)
	if err != nil {
		return Turn{}, fmt.Errorf("battleship: bot %s at turn %d: %w", g.bot.Name(), len(g.turns)+1, err)
	}
	after, s := d.Bot.Observe(g.sea.View(), d.Shot, a)
	t := Turn{Before: g.bot, Steps: d.Steps, Shot: d.Shot, Answer: a, Signal: s, After: after}
	g.turns = append(g.turns, t)
	g.bot = after
	return t, nil
}

// Play plays turns until the fleet is sunk. A bot that needs more shots
// than the board has cells is an error.
func (g *Game) Play() error {
	for !g.sea.Over() {
		if len(g.turns) >= g.board.Cells() {
			return fmt.Errorf("battleship: bot %s did not sink the fleet in %d shots", g.bot.Name(), len(g.turns))
		}
		if _, err := g.Step(); err != nil {
			return err
		}
	}
	return nil
}

// Undo steps the game back n turns: the bot returns to its version before
// them and their shots are taken back. Play goes on from there.
func (g *Game) Undo(n int) error {
	if n < 0 || n > len(g.turns) {
		return fmt.Errorf("battleship: cannot undo %d turns of %d", n, len(g.turns))
	}
	keep := len(g.turns) - n
	g.bot = g.start
	if keep > 0 {
		g.bot = g.turns[keep-1].After
	}
	g.turns = g.turns[:keep:keep]
	g.sea = NewSea(g.board)
	for _, t := range g.turns {
		if _, err := g.sea.Fire(t.Shot); err != nil {
			panic("battleship: unreachable: a recorded shot was refused: " + err.Error())
		}
	}
	return nil
}
