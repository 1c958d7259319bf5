package battleship

import (
	"math"
	"math/bits"
	"math/rand/v2"
)

// endgame is the exact search for the last ship afloat once it is hit:
// the firing order that sinks it in the fewest shots on average, over its
// placements through every open hit, each as likely. A ship of length l
// hit once has at most 2l placements left, and every shot rules some out,
// so the search is small; a greedy choice of the likeliest cell is not
// always the best here (see the notes in density.go).
type endgame struct {
	cells []int32     // the cells some placement covers (board indexes)
	cover []uint64    // cover[k]: the placements covering cells[k]
	body  [][2]uint64 // body[q]: the local cells of placement q
	memo  map[endKey]float64
}

// endKey is a state of the search: the placements left and the local
// cells hit.
type endKey struct {
	s uint64
	h [2]uint64
}

// lastShip returns the shot that sinks the last ship afloat in the fewest
// shots on average, given the open hits on it, or false when more than one
// ship is afloat, no hit is open, or the placements are too many (more
// than 64, or over more than 128 cells). It uses p.wide, which
// targetDensity fills.
func (p *planner) lastShip(rng *rand.PCG) (Point, bool) {
	if len(p.hits) == 0 || len(p.lengths) != 1 || p.afloat[0] != 1 {
		return Point{}, false
	}
	l := p.lengths[0]
	e := &p.end
	e.cells, e.cover = e.cells[:0], e.cover[:0]
	e.body = grow(e.body, 64)
	local := grow(p.local, len(p.cells))
	p.local = local
	for i := range local {
		local[i] = -1
	}
	n := 0
	var h [2]uint64 // the local cells hit
	for _, r := range p.wide {
		if l == 1 && r.step != 1 {
			continue
		}
		for off := 0; off+l <= int(r.length); off++ {
			first := int(r.start) + off*int(r.step)
			hits := 0
			for k, c := 0, first; k < l; k, c = k+1, c+int(r.step) {
				if p.cells[c] == Hit {
					hits++
				}
			}
			if hits != len(p.hits) || hits == l {
				continue // not through every open hit, or sunk already
			}
			if n == 64 {
				return Point{}, false
			}
			var b [2]uint64
			for k, c := 0, first; k < l; k, c = k+1, c+int(r.step) {
				if local[c] < 0 {
					if len(e.cells) == 128 {
						return Point{}, false
					}
					local[c] = int32(len(e.cells))
					e.cells = append(e.cells, int32(c))
					e.cover = append(e.cover, 0)
				}
				j := local[c]
				if p.cells[c] == Hit {
					h[j/64] |= 1 << (j % 64)
				}
				e.cover[j] |= 1 << n
				b[j/64] |= 1 << (j % 64)
			}
			e.body[n] = b
			n++
		}
	}
	if n == 0 {
		return Point{}, false
	}
	if e.memo == nil {
		e.memo = make(map[endKey]float64)
	}
	clear(e.memo)
	all := uint64(1)<<n - 1
	if n == 64 {
		all = ^uint64(0)
	}
	best, ties, top := -1, 0, math.Inf(1)
	for j := range e.cells {
		if h[j/64]>>(j%64)&1 != 0 {
			continue
		}
		v := e.shot(all, h, j)
		switch {
		case v < top-1e-9:
			best, top, ties = j, v, 1
		case v < top+1e-9:
			ties++
			if uintN(rng, uint64(ties)) == 0 {
				best = j
			}
		}
	}
	c := int(e.cells[best])
	return Point{c % p.cols, c / p.cols}, true
}

// value returns the expected shots to sink the ship, given that it lies at
// one of the placements in s and that the local cells in h are hits on it.
// Cells that the same placements cover lead to the same expectation, so
// only one of each is tried.
func (e *endgame) value(s uint64, h [2]uint64) float64 {
	k := endKey{s, h}
	if v, ok := e.memo[k]; ok {
		return v
	}
	best := math.Inf(1)
	var seen [128]uint64
	ns := 0
next:
	for j := range e.cells {
		cv := e.cover[j] & s
		if h[j/64]>>(j%64)&1 != 0 || cv == 0 {
			continue
		}
		for _, x := range seen[:ns] {
			if x == cv {
				continue next
			}
		}
		seen[ns] = cv
		ns++
		best = min(best, e.shot(s, h, j))
	}
	e.memo[k] = best
	return best
}

// shot returns the expected shots to sink the ship from s and h, firing at
// local cell j first. A hit that completes a placement sinks the ship if
// it lies there, and the game says so.
func (e *endgame) shot(s uint64, h [2]uint64, j int) float64 {
	total := float64(bits.OnesCount64(s))
	v := 1.0
	if miss := s &^ e.cover[j]; miss != 0 {
		v += float64(bits.OnesCount64(miss)) / total * e.value(miss, h)
	}
	hit := s & e.cover[j]
	h[j/64] |= 1 << (j % 64)
	rest := hit
	for t := hit; t != 0; t &= t - 1 {
		q := bits.TrailingZeros64(t)
		if b := e.body[q]; b[0]&^h[0] == 0 && b[1]&^h[1] == 0 {
			rest &^= 1 << q // sunk
		}
	}
	if rest != 0 {
		v += float64(bits.OnesCount64(rest)) / total * e.value(rest, h)
	}
	return v
}
