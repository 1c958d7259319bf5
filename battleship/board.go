package battleship

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
)

// Point is a cell of the board: X is the column, from 0 at the left, and Y
// the row, from 0 at the top. People name it as the board is labelled:
// column letters and row numbers from 1, so Point{0, 0} is A1.
type Point struct{ X, Y int }

// add returns p moved by d.
func (p Point) add(d Point) Point { return Point{p.X + d.X, p.Y + d.Y} }

// String returns the board coordinates of p, as the board is labelled:
// "A1" for Point{0, 0}, "J10" for Point{9, 9}, and after column Z, "AA",
// "AB" and so on. A point off the board is shown as "(x,y)".
func (p Point) String() string {
	if p.X < 0 || p.Y < 0 {
		return fmt.Sprintf("(%d,%d)", p.X, p.Y)
	}
	return colName(p.X) + fmt.Sprint(p.Y+1)
}

// MarshalText returns p as String names it ("A1"), so that a bot's
// memory saves the points it remembers. A point off the board (a negative
// coordinate) has no such name, and is an error.
func (p Point) MarshalText() ([]byte, error) {
	if p.X < 0 || p.Y < 0 {
		return nil, fmt.Errorf("battleship: point %v is off every board", p)
	}
	return []byte(p.String()), nil
}

// UnmarshalText reads a point as MarshalText writes it: column letters
// from A, then the row number from 1, such as "A1" or "AA10".
func (p *Point) UnmarshalText(text []byte) error {
	bad := func() error {
		return fmt.Errorf("battleship: point %s: want column letters and a row number, such as A1", quote(string(text)))
	}
	i, x := 0, 0
	for ; i < len(text) && text[i] >= 'A' && text[i] <= 'Z'; i++ {
		if x > MaxSide*26 {
			return bad()
		}
		x = x*26 + int(text[i]-'A') + 1
	}
	y := 0
	if i == 0 || i == len(text) || text[i] == '0' {
		return bad()
	}
	for ; i < len(text); i++ {
		if text[i] < '0' || text[i] > '9' || y > MaxSide*10 {
			return bad()
		}
		y = y*10 + int(text[i]-'0')
	}
	*p = Point{x - 1, y - 1}
	return nil
}

// colName is the label of column x: A to Z, then AA, AB, ... as in
// spreadsheets.
func colName(x int) string {
	var b []byte
	for x++; x > 0; x = (x - 1) / 26 {
		b = append([]byte{byte('A' + (x-1)%26)}, b...)
	}
	return string(b)
}

// The limits of a game, checked by Config.Check: a board has at most
// MaxSide × MaxSide = 10,000 cells, and a fleet at most MaxShips ships.
// They bound the work and memory of placing a fleet.
const (
	MaxSide  = 100
	MaxShips = 100
)

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

// Check returns an error if the configuration cannot make a game: a side
// shorter than 1 or longer than MaxSide, an empty fleet or one of more than
// MaxShips ships, a ship shorter than 1 or longer than the board, or a fleet
// with more cells than the board. Ships are counted from 1.
func (c Config) Check() error {
	if c.Cols < 1 || c.Rows < 1 || c.Cols > MaxSide || c.Rows > MaxSide {
		return fmt.Errorf("battleship: board %dx%d: each side must be 1 to %d", c.Cols, c.Rows, MaxSide)
	}
	if len(c.Fleet) == 0 {
		return errors.New("battleship: the fleet is empty")
	}
	if len(c.Fleet) > MaxShips {
		return fmt.Errorf("battleship: the fleet has %d ships, more than the limit of %d", len(c.Fleet), MaxShips)
	}
	total := 0
	for i, l := range c.Fleet {
		if l < 1 {
			return fmt.Errorf("battleship: ship %d has length %d; lengths must be at least 1", i+1, l)
		}
		if l > max(c.Cols, c.Rows) {
			return fmt.Errorf("battleship: ship %d of length %d does not fit a %dx%d board", i+1, l, c.Cols, c.Rows)
		}
		total += l
	}
	if total > c.Cells() {
		return fmt.Errorf("battleship: the fleet has %d cells, more than the %d of a %dx%d board", total, c.Cells(), c.Cols, c.Rows)
	}
	return nil
}

// Ship is a placed ship: its cells, from its top-left end.
type Ship struct {
	Cells []Point
}

// Board is a placed fleet. It is never modified once made.
type Board struct {
	Config
	Ships []Ship
	at    []int32 // cell index -> ship index + 1, or 0 for water

	// Placement's buffers, kept so that a board can be placed again
	// without allocating (see reset).
	points   []Point
	spots    []int32
	levels   []level
	src, tmp rand.PCG // the placement's random state, and a copy to shuffle a ship's spots again
}

// ShipAt returns the index of the ship at p (in Ships, from 0), or -1 for
// water.
func (b *Board) ShipAt(p Point) int { return int(b.at[p.Y*b.Cols+p.X]) - 1 }

// placeBudget bounds the work of placing a fleet, counted as spots
// shuffled plus cells looked at, so that placement ends in bounded time
// (a fraction of a second) whatever the configuration.
const placeBudget = 1 << 24

// NewBoard places the fleet of c at random, from seed: each ship horizontal
// or vertical, no two overlapping (touching is allowed). It searches with
// backtracking, so it finds a placement whenever one exists within its
// work budget, and otherwise returns an error. Its memory is proportional
// to the board's cells, and its work is bounded.
func NewBoard(c Config, seed uint64) (*Board, error) {
	b := new(Board)
	if _, err := b.reset(c, seed, placeBudget); err != nil {
		return nil, err
	}
	return b, nil
}

// level is one ship's place in the backtracking search: the random state
// before its spots were shuffled (to shuffle them again the same way after
// a deeper ship overwrote the spot buffer), the next spot to try, and the
// spot taken.
type level struct {
	rng        rand.PCG
	next, spot int
}

// reset places the fleet of c from seed on b, reusing b's buffers, within
// budget units of work, and returns the work done.
//
// For ship i it lists every spot that fits, in reading order, horizontal
// before vertical, shuffles them, and tries them in turn, backtracking when
// none is free. Only one ship's spots are kept: going back to a ship
// shuffles its spots again from its saved random state, so memory stays
// proportional to the cells.
func (b *Board) reset(c Config, seed uint64, budget int) (work int, err error) {
	if err := c.Check(); err != nil {
		return 0, err
	}
	n, ships, total := c.Cells(), len(c.Fleet), 0
	for _, l := range c.Fleet {
		total += l
	}
	b.Config = c
	b.at = grow(b.at, n)
	clear(b.at)
	b.points = grow(b.points, total)
	b.Ships = grow(b.Ships, ships)
	b.levels = grow(b.levels, ships)
	b.spots = grow(b.spots, 2*n)[:0] // at most two spots a cell

	b.src.Seed(seed, 0x5eed)
	held := -1 // the ship whose shuffled spots b.spots holds
	shuffle := func(i int, r *rand.PCG) {
		b.spots = b.spotsOf(b.spots[:0], c.Fleet[i])
		shuffleSpots(b.spots, r)
		work += len(b.spots)
		held = i
	}
	start := func(i int) {
		b.levels[i] = level{rng: b.src}
		shuffle(i, &b.src)
	}
	start(0)
	for i := 0; i < ships; {
		if held != i {
			b.tmp = b.levels[i].rng
			shuffle(i, &b.tmp)
		}
		lv := &b.levels[i]
		placed := false
		for ; lv.next < len(b.spots); lv.next++ {
			if work > budget {
				return work, fmt.Errorf("battleship: could not place %d ships on a %dx%d board within the search budget", ships, c.Cols, c.Rows)
			}
			free, looked := b.free(b.spots[lv.next], c.Fleet[i])
			work += looked
			if s := b.spots[lv.next]; free {
				lv.spot, placed = int(s), true
				lv.next++
				break
			}
		}
		if placed {
			b.mark(i, int32(i+1))
			if i++; i < ships {
				start(i)
			}
			continue
		}
		if i == 0 {
			return work, fmt.Errorf("battleship: the %d ships cannot be placed on a %dx%d board", ships, c.Cols, c.Rows)
		}
		i--
		b.mark(i, 0)
	}
	off := 0
	for i, l := range c.Fleet {
		cells := b.points[off : off+l : off+l]
		off += l
		s, d := b.spotStart(b.levels[i].spot)
		for k := range cells {
			cells[k] = s
			s = s.add(d)
		}
		b.Ships[i] = Ship{Cells: cells}
	}
	return work, nil
}

// A spot is a ship's position, coded as its first cell's index times two,
// plus one if it is vertical.

// spotsOf appends every spot where a ship of length l fits, in reading
// order, horizontal before vertical (a ship of length 1 is only
// horizontal).
func (b *Board) spotsOf(dst []int32, l int) []int32 {
	for y := 0; y < b.Rows; y++ {
		for x := 0; x < b.Cols; x++ {
			i := int32(y*b.Cols + x)
			if x+l <= b.Cols {
				dst = append(dst, 2*i)
			}
			if y+l <= b.Rows && l > 1 {
				dst = append(dst, 2*i+1)
			}
		}
	}
	return dst
}

// shuffleSpots shuffles s as rand.New(r).Shuffle does, without its
// indirect calls: the same draws give the same order, so that a seed
// places the same fleet as it always has.
func shuffleSpots(s []int32, r *rand.PCG) {
	for i := len(s) - 1; i > 0; i-- {
		j := uintN(r, uint64(i+1))
		s[i], s[j] = s[j], s[i]
	}
}

// uintN returns a uniform draw from [0, n), n > 0, as math/rand/v2's
// Rand.Uint64N does on every architecture (Lemire's method).
func uintN(r *rand.PCG, n uint64) uint64 {
	if n&(n-1) == 0 { // a power of two
		return r.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(r.Uint64(), n)
		}
	}
	return hi
}

// spotStart returns the first cell of spot s and the direction of the ship.
func (b *Board) spotStart(s int) (Point, Point) {
	i := s / 2
	p := Point{i % b.Cols, i / b.Cols}
	if s%2 == 1 {
		return p, Point{0, 1}
	}
	return p, Point{1, 0}
}

// free reports whether a ship of length l at spot s overlaps no ship, and
// how many cells it looked at.
func (b *Board) free(s int32, l int) (bool, int) {
	i, step := int(s/2), 1
	if s%2 == 1 {
		step = b.Cols
	}
	for k := 0; k < l; k, i = k+1, i+step {
		if b.at[i] != 0 {
			return false, k + 1
		}
	}
	return true, l
}

// mark sets the cells of ship i, at its level's spot, to v.
func (b *Board) mark(i int, v int32) {
	s := b.levels[i].spot
	c, step := s/2, 1
	if s%2 == 1 {
		step = b.Cols
	}
	for k := 0; k < b.Fleet[i]; k, c = k+1, c+step {
		b.at[c] = v
	}
}

// grow returns s with length n, reusing its array when it is large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}
