package battleship

import (
	"errors"
	"fmt"
	"math/bits"

	bt "github.com/zipbt/behaviortree"
)

// Cell is what a player knows of a cell of the opponent's board.
type Cell uint8

// What a cell can show.
const (
	Unknown Cell = iota // not fired at
	Miss
	Hit  // part of a ship that is not sunk yet
	Sunk // part of a sunk ship
)

// String returns "unknown", "miss", "hit" or "sunk".
func (c Cell) String() string {
	return [...]string{"unknown", "miss", "hit", "sunk"}[c]
}

// AnswerKind is the answer to a shot.
type AnswerKind uint8

// The answers.
const (
	AnswerMiss AnswerKind = iota + 1
	AnswerHit
	AnswerSunk
)

// String returns "miss", "hit" or "sunk".
func (k AnswerKind) String() string {
	switch k {
	case AnswerMiss:
		return "miss"
	case AnswerHit:
		return "hit"
	case AnswerSunk:
		return "sunk"
	}
	return "?"
}

// Answer is the answer to a shot.
type Answer struct {
	Kind AnswerKind
	Ship int // the ship hit or sunk, as an index of Board.Ships (from 0), or -1 for a miss
}

// String returns "miss", "hit" or "sunk ship N", counting ships from 1.
func (a Answer) String() string {
	if a.Kind == AnswerSunk {
		return fmt.Sprintf("sunk ship %d", a.Ship+1)
	}
	return a.Kind.String()
}

// View is what a bot sees: the board's size and every cell's state. It is
// read-only to bots.
type View struct {
	Cols, Rows int
	cells      []Cell
	unknown    []uint64 // bit i set: cell i is Unknown
	hits       []uint64 // bit i set: cell i is Hit
	unplayed   int
	fleet      []int  // the ship lengths, which every player knows
	sunk       []bool // sunk[i]: ship i is sunk, as the answers said
}

// In reports whether p is on the board.
func (v *View) In(p Point) bool { return p.X >= 0 && p.Y >= 0 && p.X < v.Cols && p.Y < v.Rows }

// At returns what is known of p, which must be on the board.
func (v *View) At(p Point) Cell { return v.cells[p.Y*v.Cols+p.X] }

// playable reports whether p is on the board and not fired at yet.
func (v *View) playable(p Point) bool { return v.In(p) && v.At(p) == Unknown }

// reset makes v the view of an untouched cols × rows board with the given
// fleet, reusing its buffers.
func (v *View) reset(cols, rows int, fleet []int) {
	n := cols * rows
	v.Cols, v.Rows, v.unplayed, v.fleet = cols, rows, n, fleet
	v.sunk = grow(v.sunk, len(fleet))
	clear(v.sunk)
	v.cells = grow(v.cells, n)
	clear(v.cells)
	words := (n + 63) / 64
	v.unknown = grow(v.unknown, words)
	v.hits = grow(v.hits, words)
	for i := range v.unknown {
		v.unknown[i] = ^uint64(0)
	}
	if n%64 != 0 {
		v.unknown[words-1] = 1<<(n%64) - 1
	}
	clear(v.hits)
}

// set changes cell i, which is Unknown or Hit, to c, which is not
// Unknown, keeping the bit sets in step.
func (v *View) set(i int, c Cell) {
	w, bit := i/64, uint64(1)<<(i%64)
	if v.cells[i] == Unknown {
		v.unknown[w] &^= bit
		v.unplayed--
	}
	if c == Hit {
		v.hits[w] |= bit
	} else {
		v.hits[w] &^= bit
	}
	v.cells[i] = c
}

// nthUnknown returns the k-th unplayed cell (from 0) in reading order.
// k must be less than v.unplayed.
func (v *View) nthUnknown(k int) Point {
	for w, word := range v.unknown {
		if c := bits.OnesCount64(word); k >= c {
			k -= c
			continue
		}
		for ; k > 0; k-- {
			word &= word - 1 // drop the lowest set bit
		}
		i := w*64 + bits.TrailingZeros64(word)
		return Point{i % v.Cols, i / v.Cols}
	}
	panic("battleship: unreachable: fewer unplayed cells than counted")
}

// firstHit returns the first cell, in reading order, that is a hit on a
// ship still afloat.
func (v *View) firstHit() (Point, bool) {
	for w, word := range v.hits {
		if word != 0 {
			i := w*64 + bits.TrailingZeros64(word)
			return Point{i % v.Cols, i / v.Cols}, true
		}
	}
	return Point{}, false
}

// errShot marks the shots a game refuses: off the board, or at a cell
// already played. The bots here never fire them.
var errShot = errors.New("shot refused")

// sea is one player's board under fire: the placed fleet and the shots so
// far.
type sea struct {
	board *Board
	view  View
	hits  []int // hits per ship
	sunk  int
	shots int
}

// reset puts b under fire with no shot fired, reusing s's buffers.
func (s *sea) reset(b *Board) {
	s.board, s.sunk, s.shots = b, 0, 0
	s.view.reset(b.Cols, b.Rows, b.Fleet)
	s.hits = grow(s.hits, len(b.Ships))
	clear(s.hits)
}

// fire shoots at p. A shot off the board, or at a cell already played,
// returns an error that wraps errShot, and changes nothing.
func (s *sea) fire(p Point) (Answer, error) {
	if !s.view.In(p) {
		return Answer{}, fmt.Errorf("%w: %v is off the %dx%d board", errShot, p, s.view.Cols, s.view.Rows)
	}
	i := p.Y*s.view.Cols + p.X
	if c := s.view.cells[i]; c != Unknown {
		return Answer{}, fmt.Errorf("%w: %v is already a %v", errShot, p, c)
	}
	s.shots++
	ship := s.board.ShipAt(p)
	if ship < 0 {
		s.view.set(i, Miss)
		return Answer{Kind: AnswerMiss, Ship: -1}, nil
	}
	s.view.set(i, Hit)
	s.hits[ship]++
	if s.hits[ship] < len(s.board.Ships[ship].Cells) {
		return Answer{Kind: AnswerHit, Ship: ship}, nil
	}
	for _, c := range s.board.Ships[ship].Cells {
		s.view.set(c.Y*s.view.Cols+c.X, Sunk)
	}
	s.view.sunk[ship] = true
	s.sunk++
	return Answer{Kind: AnswerSunk, Ship: ship}, nil
}

// Tick is one intent a bot went through while deciding a shot, and the
// signal it gave that intent: Success or Failure, or Running for the intent
// that named the shot (its signal comes with the answer). Each tick is one
// Value and one signal of the bot's tree, or, for a stepped tree, one call
// of its agent: an action and the status it returned, or a condition or
// guard and whether it held (Success) or not (Failure).
type Tick struct {
	Intent Intent
	Signal bt.Status
}

// Turn is one shot of a game.
type Turn struct {
	Ticks  []Tick    // the intents the bot went through, the shot's last
	Shot   Point     // where it fired
	Answer Answer    // what the shot hit
	Signal bt.Status // what the answer told the tree (Running: nothing, as always for a stepped tree)
	Bot    Bot       // the bot as the turn ended
}

// Game is one bot playing against one placed fleet. It keeps every turn,
// with the bot's version after it, so that it can be inspected and stepped
// back.
type Game struct {
	sea   sea
	start Bot
	bot   Bot
	turns []Turn
	ticks []Tick // every turn's ticks, back to back
}

// NewGame returns a game of bot against board, with no shot fired.
func NewGame(board *Board, bot Bot) *Game {
	g := new(Game)
	g.reset(board, bot)
	return g
}

// reset starts g again, reusing its buffers.
func (g *Game) reset(board *Board, bot Bot) {
	g.sea.reset(board)
	g.start, g.bot = bot, bot
	g.turns, g.ticks = g.turns[:0], g.ticks[:0]
}

// View returns what the bot knows of the board. It changes as shots land.
func (g *Game) View() *View { return &g.sea.view }

// Shots returns the number of shots fired.
func (g *Game) Shots() int { return g.sea.shots }

// Bot returns the bot as it is now.
func (g *Game) Bot() Bot { return g.bot }

// Over reports whether every ship is sunk.
func (g *Game) Over() bool { return g.sea.sunk == len(g.sea.board.Ships) }

// Turns returns the turns played so far, oldest first. The slice must not
// be modified.
func (g *Game) Turns() []Turn { return g.turns }

// PlayTurn plays one turn: the bot decides, fires, and hears the answer. A
// bot that cannot decide, or names a shot the game refuses, is an error,
// and the game is unchanged.
func (g *Game) PlayTurn() (Turn, error) {
	if err := g.turn(); err != nil {
		return Turn{}, err
	}
	return g.turns[len(g.turns)-1], nil
}

// turn is PlayTurn, without the copy of the turn.
func (g *Game) turn() error {
	if g.Over() {
		return errors.New("battleship: the game is over")
	}
	// The bot changes in place (a copy on the stack would escape through
	// the handler's function values); on an error, it is put back to the
	// version the last turn kept.
	from := len(g.ticks)
	shot, err := g.bot.decide(&g.sea.view, &g.ticks)
	if err == nil {
		var a Answer
		if a, err = g.sea.fire(shot); err == nil {
			s := g.bot.hear(shot, a)
			g.turns = append(g.turns, Turn{Ticks: g.ticks[from:len(g.ticks):len(g.ticks)], Shot: shot, Answer: a, Signal: s, Bot: g.bot})
			return nil
		}
	}
	g.bot, g.ticks = g.start, g.ticks[:from]
	if n := len(g.turns); n > 0 {
		g.bot = g.turns[n-1].Bot
	}
	return fmt.Errorf("battleship: bot %s at turn %d: %w", g.bot.Name(), len(g.turns)+1, err)
}

// Play plays turns until the fleet is sunk. A bot that needs more shots
// than the board has cells is an error.
func (g *Game) Play() error {
	for !g.Over() {
		if len(g.turns) >= g.sea.board.Cells() {
			return fmt.Errorf("battleship: bot %s did not sink the fleet in %d shots", g.bot.Name(), len(g.turns))
		}
		if err := g.turn(); err != nil {
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
		g.bot = g.turns[keep-1].Bot
	}
	// Later turns are cut off their arrays, so that playing on never
	// overwrites a turn or its ticks that a caller kept.
	g.turns = g.turns[:keep:keep]
	g.ticks = g.ticks[:len(g.ticks):len(g.ticks)]
	g.sea.reset(g.sea.board)
	for _, t := range g.turns {
		if _, err := g.sea.fire(t.Shot); err != nil {
			panic("battleship: unreachable: a recorded shot was refused: " + err.Error())
		}
	}
	return nil
}
