package battleship

import (
	"errors"
	"fmt"
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

// Answer is the answer to a shot; for AnswerSunk, Ship says which ship.
type Answer struct {
	Kind AnswerKind
	Ship int // the ship hit or sunk, or -1 for a miss
}

// String returns "miss", "hit" or "sunk ship N".
func (a Answer) String() string {
	if a.Kind == AnswerSunk {
		return fmt.Sprintf("sunk ship %d", a.Ship)
	}
	return a.Kind.String()
}

// View is what a bot sees: the board's size and every cell's state. It is
// read-only to bots.
type View struct {
	Cols, Rows int
	cells      []Cell
}

// In reports whether p is on the board.
func (v *View) In(p Point) bool { return p.X >= 0 && p.Y >= 0 && p.X < v.Cols && p.Y < v.Rows }

// At returns what is known of p, which must be on the board.
func (v *View) At(p Point) Cell { return v.cells[p.Y*v.Cols+p.X] }

// Playable reports whether p is on the board and not fired at yet.
func (v *View) Playable(p Point) bool { return v.In(p) && v.At(p) == Unknown }

// Unplayed returns the number of cells not fired at yet.
func (v *View) Unplayed() int {
	n := 0
	for _, c := range v.cells {
		if c == Unknown {
			n++
		}
	}
	return n
}

// Errors of shots that are not allowed; the game is unchanged after them.
var (
	ErrOffBoard = errors.New("battleship: shot off the board")
	ErrPlayed   = errors.New("battleship: cell already played")
)

// Sea is one player's board under fire: the placed fleet and the shots so
// far. Its zero value is not usable; use NewSea.
type Sea struct {
	board *Board
	view  View
	hits  []int // hits per ship
	sunk  int
	shots int
}

// NewSea returns the board b with no shots fired.
func NewSea(b *Board) *Sea {
	return &Sea{board: b, view: View{Cols: b.Cols, Rows: b.Rows, cells: make([]Cell, b.Cells())}, hits: make([]int, len(b.Ships))}
}

// View returns what a player knows of the sea. It changes as shots land.
func (s *Sea) View() *View { return &s.view }

// Board returns the placed fleet.
func (s *Sea) Board() *Board { return s.board }

// Shots returns the number of shots fired.
func (s *Sea) Shots() int { return s.shots }

// Over reports whether every ship is sunk.
func (s *Sea) Over() bool { return s.sunk == len(s.board.Ships) }

// Fire shoots at p. A shot off the board, or at a cell already played,
// returns an error that wraps ErrOffBoard or ErrPlayed, and changes nothing.
func (s *Sea) Fire(p Point) (Answer, error) {
	if !s.view.In(p) {
		return Answer{}, fmt.Errorf("%w: %v on a %dx%d board", ErrOffBoard, p, s.view.Cols, s.view.Rows)
	}
	i := p.Y*s.view.Cols + p.X
	if s.view.cells[i] != Unknown {
		return Answer{}, fmt.Errorf("%w: %v is a %v", ErrPlayed, p, s.view.cells[i])
	}
	s.shots++
	ship := s.board.ShipAt(p)
	if ship < 0 {
		s.view.cells[i] = Miss
		return Answer{Kind: AnswerMiss, Ship: -1}, nil
	}
	s.view.cells[i] = Hit
	s.hits[ship]++
	if s.hits[ship] < len(s.board.Ships[ship].Cells) {
		return Answer{Kind: AnswerHit, Ship: ship}, nil
	}
	for _, c := range s.board.Ships[ship].Cells {
		s.view.cells[c.Y*s.view.Cols+c.X] = Sunk
	}
	s.sunk++
	return Answer{Kind: AnswerSunk, Ship: ship}, nil
}
