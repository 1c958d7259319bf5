package battleship

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Point is a cell of the board: X is the column, from 0 at the left, and Y
// the row, from 0 at the top.
type Point struct{ X, Y int }

// Add returns p moved by d.
func (p Point) Add(d Point) Point { return Point{p.X + d.X, p.Y + d.Y} }

// String returns "(x,y)".
func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

// Config is a board size and a fleet.
type Config struct {
	Cols, Rows int
	Fleet      []int // ship lengths
}

// DefaultConfig is the classic game: 10 × 10, ships of 5, 4, 3, 3 and 2.
func DefaultConfig() Config {
	return Config{Cols: 10, Rows: 10, Fleet: []int{5, 4, 3, 3, 2}}
}

// Cells returns the number of cells of the board.
func (c Config) Cells() int { return c.Cols * c.Rows }

// Check returns an error if the configuration cannot make a game: a board
// smaller than 1 × 1 or larger than 100 × 100, an empty fleet, a ship that is
// shorter than 1 or longer than the board, or a fleet with more cells than
// the board.
func (c Config) Check() error {
	if c.Cols < 1 || c.Rows < 1 || c.Cols > 100 || c.Rows > 100 {
		return fmt.Errorf("battleship: board %dx%d: each side must be 1 to 100", c.Cols, c.Rows)
	}
	if len(c.Fleet) == 0 {
		return fmt.Errorf("battleship: the fleet is empty")
	}
	total := 0
	for i, l := range c.Fleet {
		if l < 1 {
			return fmt.Errorf("battleship: ship %d has length %d; lengths must be at least 1", i, l)
		}
		if l > max(c.Cols, c.Rows) {
			return fmt.Errorf("battleship: ship %d of length %d does not fit a %dx%d board", i, l, c.Cols, c.Rows)
		}
		total += l
	}
	if total > c.Cells() {
		return fmt.Errorf("battleship: the fleet has %d cells, more than the %d of a %dx%d board", total, c.Cells(), c.Cols, c.Rows)
	}
	return nil
}

// ParseSize reads a board size written "COLSxROWS", for example "10x10".
func ParseSize(s string) (cols, rows int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		cols, err = strconv.Atoi(a)
		if err == nil {
			rows, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("battleship: size %q: want COLSxROWS, for example 10x10", s)
	}
	return cols, rows, nil
}

// ParseFleet reads ship lengths written "5,4,3,3,2".
func ParseFleet(s string) ([]int, error) {
	var fleet []int
	for i, f := range strings.Split(s, ",") {
		l, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("battleship: fleet %q: item %d (%q) is not a whole number", s, i+1, f)
		}
		fleet = append(fleet, l)
	}
	return fleet, nil
}

// Ship is a placed ship: its cells, from its top-left end.
type Ship struct {
	Cells []Point
}

// Board is a placed fleet. It is never modified once made.
type Board struct {
	Config
	Ships []Ship
	at    []int // cell index -> ship index + 1, or 0 for water
}

// ShipAt returns the index of the ship at p, or -1 for water.
func (b *Board) ShipAt(p Point) int { return b.at[p.Y*b.Cols+p.X] - 1 }

// In reports whether p is on the board.
func (c Config) In(p Point) bool { return p.X >= 0 && p.Y >= 0 && p.X < c.Cols && p.Y < c.Rows }

// NewBoard places the fleet of c at random, from seed: each ship horizontal
// or vertical, no two overlapping (touching is allowed). It searches with
// backtracking, so it finds a placement whenever the first tries do not and
// one exists within its search budget, and otherwise returns an error.
func NewBoard(c Config, seed uint64) (*Board, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	b := &Board{Config: c, Ships: make([]Ship, len(c.Fleet)), at: make([]int, c.Cells())}
	budget := 200000
	if !b.place(0, rng, &budget) {
		return nil, fmt.Errorf("battleship: could not place the fleet %v on a %dx%d board", c.Fleet, c.Cols, c.Rows)
	}
	return b, nil
}

// place puts ships i, i+1, ... on the board, trying positions in a random
// order and backtracking.
func (b *Board) place(i int, rng *rand.Rand, budget *int) bool {
	if i == len(b.Fleet) {
		return true
	}
	l := b.Fleet[i]
	type spot struct {
		p        Point
		vertical bool
	}
	var spots []spot
	for y := 0; y < b.Rows; y++ {
		for x := 0; x < b.Cols; x++ {
			if x+l <= b.Cols {
				spots = append(spots, spot{Point{x, y}, false})
			}
			if y+l <= b.Rows && l > 1 {
				spots = append(spots, spot{Point{x, y}, true})
			}
		}
	}
	rng.Shuffle(len(spots), func(a, c int) { spots[a], spots[c] = spots[c], spots[a] })
	for _, s := range spots {
		if *budget--; *budget < 0 {
			return false
		}
		d := Point{1, 0}
		if s.vertical {
			d = Point{0, 1}
		}
		cells := make([]Point, l)
		free := true
		for k, p := 0, s.p; k < l; k, p = k+1, p.Add(d) {
			cells[k] = p
			if b.at[p.Y*b.Cols+p.X] != 0 {
				free = false
				break
			}
		}
		if !free {
			continue
		}
		for _, p := range cells {
			b.at[p.Y*b.Cols+p.X] = i + 1
		}
		b.Ships[i] = Ship{Cells: cells}
		if b.place(i+1, rng, budget) {
			return true
		}
		for _, p := range cells {
			b.at[p.Y*b.Cols+p.X] = 0
		}
	}
	return false
}
