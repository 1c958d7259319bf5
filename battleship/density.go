package battleship

import (
	"math/bits"
	"math/rand/v2"
)

// This file is bot E's heavy work: the probability that each cell holds a
// ship, from what the view shows. Bot E's handler (bot_e.go) calls it; the
// tree only decides which of its answers to act on.
//
// Hunting (no open hit) uses the placement density: the number of
// placements of the ships afloat, on cells not fired at, that cover the
// cell. Runs of free cells give it in O(cells) per ship length, without
// listing placements. With parity, it fires only on the colour class of a
// colouring that needs the fewest shots to be sure of finding every ship
// afloat (see hunt).
//
// What was measured (5,000 games on 10x10 with the standard fleet, seeds
// 7 to 11, some early ideas on 7 and 8 only, never seed 1; a change of the
// mean by less than about 0.1 is noise). What paid: choosing the parity class by the fewest cells left,
// anew at every shot, rather than keeping the colour of the first densest
// cell (about 0.25 shots); choosing it by the most density instead plays a
// shot worse. Taking a much denser cell off the class (offClass) gains
// about 0.13 more; taking any denser one costs the tail (p90 57, max 69).
// What did not: dividing each ship's count by its number of placements
// (the expected number of ships on the cell), or weighing ships by a power
// of their length, or the shortest ship more; correcting each placement's
// weight by the chance that the other ships afloat still fit beside it (a
// first-order joint posterior, exact when two ships are afloat), which is
// also three times slower, as the sampled whole-board posteriors of an
// earlier attempt were; a two-step lookahead (the chance of a hit within
// two shots, over the six densest cells), which plays worse; hunting on
// the classes of the second shortest ship (the median drops, the mean and
// the tail rise); while a ship of 2 is afloat, hunting on the cells of
// some minimum vertex cover of the graph of adjacent free cells (by
// König's theorem, from a maximum matching: every miss there cuts the
// shots that surely find the fleet by one) instead of the class, no
// better than the class with offClass; preferring hunting cells whose
// ship's orientation would be plain after a hit; steering targeting
// toward the hunting class; and weighing targeting's configurations by
// each ship's placements off the open hits rather than through them.
//
// A second attempt (issue 14; paired runs, the same boards with and
// without the change, 2,000 games on each of seeds 7 to 11, so that a
// difference of 0.02 shows). What paid: once the last ship afloat is hit,
// firing in the order that sinks it in the fewest shots on average,
// solved exactly over its placements through the open hits (endgame.go):
// 0.104 +- 0.010 shots a game, for about 2% of the speed (seed 1: mean
// 44.21 to 44.11; 8x8: 32.98 to 32.78); the likeliest cell is not always
// the best first shot of an optimal order. What did not: the
// same exact search for the last ship while hunting (no hit open), up to
// 16 placements, which changes nothing (44.13 either way over 25,000
// games) at 50 times the cost, and past 24 placements takes minutes a
// game; the exact search for the hit ship whenever one ship explains
// every open hit, with other ships afloat (the search cannot see them),
// +0.09 +- 0.08 worse and 3.5 times slower, and with a bonus for the
// chance of hitting another ship, -0.07 or -0.01 +- 0.10 (bonus 1 or 2
// shots), as slow; the same search only to choose among the cells tied
// for the likeliest (over the hit ship's placements of every length
// afloat, each weighed as targeting weighs it), +0.05 +- 0.06, at 60% of
// the speed. Reasons the hunting ideas of the brief were not tried:
// with one ship afloat, the placements a miss rules out are the cell's
// density, so eliminating the most placements is the density's greedy;
// for a ship of 2, each placement covers one cell of each parity class,
// so the class cells split the placements, and firing them densest first
// is the best order on the class (the expected shots after the hit,
// (k+1)/2 for k placements through the cell, sum the same in any order);
// the checkerboard for the ship of 2 and the diagonal classes of 3 that
// hunting uses already are the lattices of the shortest ship afloat.
//
// Targeting the last ship afloat solves its firing order exactly (see
// endgame.go). Otherwise, targeting (open hits: hits on ships not sunk)
// enumerates the joint configurations of the ships that explain every
// open hit: each open hit
// covered by exactly one ship afloat, ships not overlapping, no ship on a
// miss or a sunk cell, and no ship wholly on hits (it would have been
// sunk). Each configuration weighs as likely as its ships' placements are
// a priori: the product, over the ships it uses, of one over the ship's
// number of placements (times the number of ships afloat of that length,
// which may be the one). The chance of a cell is then the weight of the
// configurations that cover it, over their total, plus, for the ships that
// may lie elsewhere, the expected number of ships on it (placement counts
// divided by each ship's number of placements). The enumeration has a
// budget; past it (which takes many open hits on a large fleet), the
// planner falls back to a density that weighs placements through open hits
// heavily.

// enumBudget bounds the placements the target enumeration looks at, per
// shot. On 10x10 with the standard fleet, 99% of the shots look at fewer
// than 7,000, and the fallback plays almost as well.
const enumBudget = 4000

// placement is a ship's position: its first cell, the step to the next
// cell (1 across, cols down) and its length.
type placement struct{ start, step, length int32 }

// run is a maximal line of free cells, across or down.
type run struct{ start, step, length int32 }

// planner holds bot E's working buffers, reused from shot to shot.
type planner struct {
	cols, rows int
	cells      []Cell
	lengths    []int     // the lengths of the ships afloat, distinct, longest first
	afloat     []int     // afloat[j]: ships afloat of length lengths[j]
	places     []float64 // places[j]: placements of length lengths[j] off misses and sunk cells
	dens       []float64 // hunting: placements of ships afloat on unknown cells covering each cell
	pdens      []float64 // target: expected ships afloat on each cell, from placements on unknown cells
	prob       []float64 // target: weight of the configurations covering each cell
	occ        []bool    // target: cells the configuration being built occupies
	hits       []int32   // the open hits, in reading order
	stack      []placement
	runs       []run   // runs of unknown cells
	class      []bool  // hunting: the cells of the parity class hunted on
	wide       []run   // runs of unknown cells and hits
	local      []int32 // endgame: each cell's local index, or -1
	end        endgame
	looked     int     // placements looked at by the enumeration
	weight     float64 // total weight of the configurations found
}

// load reads the view: the ships afloat, the open hits and the hunting
// density.
func (p *planner) load(v *View) {
	n := v.Cols * v.Rows
	p.cols, p.rows, p.cells = v.Cols, v.Rows, v.cells
	p.lengths, p.afloat, p.places = p.lengths[:0], p.afloat[:0], p.places[:0]
	for i, l := range v.fleet {
		if v.sunk[i] {
			continue
		}
		j := 0
		for j < len(p.lengths) && p.lengths[j] > l {
			j++
		}
		if j < len(p.lengths) && p.lengths[j] == l {
			p.afloat[j]++
			continue
		}
		p.lengths = append(p.lengths, 0)
		p.afloat = append(p.afloat, 0)
		copy(p.lengths[j+1:], p.lengths[j:])
		copy(p.afloat[j+1:], p.afloat[j:])
		p.lengths[j], p.afloat[j] = l, 1
	}
	p.hits = p.hits[:0]
	for w, word := range v.hits {
		for ; word != 0; word &= word - 1 {
			p.hits = append(p.hits, int32(w*64+bits.TrailingZeros64(word)))
		}
	}
	p.runs = p.findRuns(p.runs, 1<<Unknown)
	p.dens, p.pdens = grow(p.dens, n), grow(p.pdens, n)
}

// huntDensity fills p.dens with the placement counts.
func (p *planner) huntDensity() {
	clear(p.dens)
	for j, l := range p.lengths {
		p.addCover(p.dens, l, float64(p.afloat[j]))
	}
}

// targetDensity fills p.pdens with the expected number of ships afloat on
// each cell, and p.places with each length's placements off misses and
// sunk cells (on hits too), for the configuration weights.
func (p *planner) targetDensity() {
	clear(p.pdens)
	p.places = p.places[:0]
	p.wide = p.findRuns(p.wide, 1<<Unknown|1<<Hit)
	for j, l := range p.lengths {
		p.places = append(p.places, float64(countPlaces(p.wide, l)))
		if total := countPlaces(p.runs, l); total > 0 {
			p.addCover(p.pdens, l, float64(p.afloat[j])/float64(total))
		}
	}
}

// findRuns appends to runs[:0] the maximal runs of cells whose state is in
// free (a bit set of Cells), across and down, and returns it.
func (p *planner) findRuns(runs []run, free uint8) []run {
	runs = runs[:0]
	cols, rows := p.cols, p.rows
	for y := 0; y < rows; y++ {
		row := p.cells[y*cols : (y+1)*cols]
		for x := 0; x < cols; {
			if free>>row[x]&1 == 0 {
				x++
				continue
			}
			s := x
			for x < cols && free>>row[x]&1 != 0 {
				x++
			}
			runs = append(runs, run{int32(y*cols + s), 1, int32(x - s)})
		}
	}
	for x := 0; x < cols; x++ {
		for y := 0; y < rows; {
			if free>>p.cells[y*cols+x]&1 == 0 {
				y++
				continue
			}
			s := y
			for y < rows && free>>p.cells[y*cols+x]&1 != 0 {
				y++
			}
			runs = append(runs, run{int32(s*cols + x), int32(cols), int32(y - s)})
		}
	}
	return runs
}

// countPlaces returns the placements of a ship of length l on the runs. A
// ship of length 1 has one placement per cell (it is never vertical).
func countPlaces(runs []run, l int) int {
	total := 0
	for _, r := range runs {
		if l == 1 && r.step != 1 {
			continue
		}
		if k := int(r.length) - l + 1; k > 0 {
			total += k
		}
	}
	return total
}

// addCover adds, to each cell of dens, w times the number of placements of
// a ship of length l on the unknown runs that cover it.
func (p *planner) addCover(dens []float64, l int, w float64) {
	for _, r := range p.runs {
		n := int(r.length)
		if n < l || (l == 1 && r.step != 1) {
			continue
		}
		c, step := int(r.start), int(r.step)
		for i := 0; i < n; i, c = i+1, c+step {
			k := min(i, n-l) - max(0, i-l+1) + 1
			dens[c] += float64(k) * w
		}
	}
}

// pick returns the unknown cell with the highest score, drawing at random
// among ties, or false when no cell is unknown. only, if not nil, limits
// the cells considered.
func (p *planner) pick(score []float64, rng *rand.PCG, only func(i int) bool) (Point, bool) {
	best, ties := -1, 0
	var top float64
	for i, c := range p.cells {
		if c != Unknown || (only != nil && !only(i)) {
			continue
		}
		s := score[i]
		switch {
		case best < 0 || s > top*(1+1e-12):
			best, top, ties = i, s, 1
		case s >= top*(1-1e-12):
			ties++
			if uintN(rng, uint64(ties)) == 0 {
				best = i
			}
		}
	}
	if best < 0 {
		return Point{}, false
	}
	return Point{best % p.cols, best / p.cols}, true
}

// hunt returns the unknown cell with the highest density. With parity, it
// only considers the cells of one colour class: the cells whose column
// plus row, or column minus row, is c modulo m, where m is the length of
// the shortest ship afloat (at most maxParity). A ship afloat lies across
// at least m cells of a line, along which column plus row and column minus
// row both take m consecutive values, so it covers a cell of every class,
// and the fleet can be found on any one of the 2m classes. Hunting takes
// the class with the fewest cells left to fire at (unknown cells that a
// ship afloat may still cover): the fewest shots that surely find every
// ship afloat. It chooses again at every shot, since the shots fired on
// one class (or on none, while targeting) cover the others unevenly, and a
// sunk ship may make m longer; among classes as short, it takes the one
// with the most density. A cell off the class is taken only when it is
// offClass times denser than every cell of the class.
func (p *planner) hunt(rng *rand.PCG, parity bool) (Point, bool) {
	p.huntDensity()
	if !parity || len(p.lengths) == 0 {
		return p.pick(p.dens, rng, nil)
	}
	m := min(p.shortest(), maxParity)
	if m < 2 {
		return p.pick(p.dens, rng, nil)
	}
	cols, rows := p.cols, p.rows
	var left [2][maxParity]int
	var mass [2][maxParity]float64
	top := 0.0 // the highest density of all
	for y := 0; y < rows; y++ {
		sum, diff := y%m, (m-y%m)%m // the classes of x+y and x-y, modulo m
		for i := y * cols; i < (y+1)*cols; i++ {
			if p.cells[i] == Unknown && p.dens[i] != 0 {
				top = max(top, p.dens[i])
				left[0][sum]++
				mass[0][sum] += p.dens[i]
				left[1][diff]++
				mass[1][diff] += p.dens[i]
			}
			if sum++; sum == m {
				sum = 0
			}
			if diff++; diff == m {
				diff = 0
			}
		}
	}
	anti, colour := 0, 0
	for d := range 2 {
		for k := range m {
			if n, best := left[d][k], left[anti][colour]; n < best || n == best && mass[d][k] > mass[anti][colour] {
				anti, colour = d, k
			}
		}
	}
	if left[anti][colour] == 0 {
		return p.pick(p.dens, rng, nil)
	}
	p.class = grow(p.class, len(p.cells))
	topClass := 0.0 // the highest density of the class
	for y := 0; y < rows; y++ {
		k := ((colour-y)%m + m) % m // the first column where x+y is colour
		if anti == 1 {
			k = (colour + y) % m // where x-y is colour
		}
		row := p.class[y*cols : (y+1)*cols]
		clear(row)
		for x := k; x < cols; x += m {
			row[x] = true
			if i := y*cols + x; p.cells[i] == Unknown {
				topClass = max(topClass, p.dens[i])
			}
		}
	}
	if top > offClass*topClass {
		return p.pick(p.dens, rng, nil)
	}
	return p.pick(p.dens, rng, func(i int) bool { return p.class[i] })
}

// offClass is how much denser than every cell of the hunting class a cell
// off it must be for hunting to take it: in a pocket of free cells, one
// shot off the class may rule out what would take two on it.
const offClass = 1.25

// maxParity is the most colours hunting with parity uses.
const maxParity = 8

// shortest returns the length of the shortest ship afloat, or 0.
func (p *planner) shortest() int {
	if len(p.lengths) == 0 {
		return 0
	}
	return p.lengths[len(p.lengths)-1]
}

// target returns the unknown cell most likely to hold a ship, given the
// open hits, or false when no cell is unknown. For the last ship afloat,
// it returns the first shot of the order that sinks it in the fewest shots
// on average instead.
func (p *planner) target(rng *rand.PCG) (Point, bool) {
	n := len(p.cells)
	p.prob = grow(p.prob, n)
	clear(p.prob)
	p.occ = grow(p.occ, n)
	clear(p.occ)
	p.stack, p.looked, p.weight = p.stack[:0], 0, 0
	p.targetDensity()
	if at, ok := p.lastShip(rng); ok {
		return at, true
	}
	if len(p.hits) == 0 || !p.enumerate(0, 1) || p.weight == 0 {
		return p.fallback(rng)
	}
	// The chance that a configuration ship lies on the cell, and otherwise
	// that another ship does.
	inv := 1 / p.weight
	for i, c := range p.cells {
		if c != Unknown {
			continue
		}
		q := p.prob[i] * inv
		p.prob[i] = q + (1-q)*min(p.pdens[i], 1)
	}
	return p.pick(p.prob, rng, nil)
}

// enumerate extends the configuration on p.stack to cover the open hits
// from p.hits[from] on, adding each complete one's weight, times w, to the
// cells it covers. It returns false when the budget ran out.
func (p *planner) enumerate(from int, w float64) bool {
	for from < len(p.hits) && p.occ[p.hits[from]] {
		from++
	}
	if from == len(p.hits) {
		p.weight += w
		for _, pl := range p.stack {
			c := int(pl.start)
			for k := int32(0); k < pl.length; k, c = k+1, c+int(pl.step) {
				if p.cells[c] == Unknown {
					p.prob[c] += w
				}
			}
		}
		return true
	}
	h := int(p.hits[from])
	hx, hy := h%p.cols, h/p.cols
	for j, l := range p.lengths {
		if p.afloat[j] == 0 {
			continue
		}
		wj := w * float64(p.afloat[j]) / p.places[j]
		for vertical := 0; vertical < 2; vertical++ {
			if vertical == 1 && l == 1 {
				break
			}
			step, pos, side := 1, hx, p.cols
			if vertical == 1 {
				step, pos, side = p.cols, hy, p.rows
			}
			for off := 0; off < l; off++ {
				first := pos - off
				if first < 0 || first+l > side {
					continue
				}
				p.looked++
				if p.looked > enumBudget {
					return false
				}
				start := h - off*step
				if !p.fits(start, step, l) {
					continue
				}
				p.mark(start, step, l, true)
				p.afloat[j]--
				p.stack = append(p.stack, placement{int32(start), int32(step), int32(l)})
				ok := p.enumerate(from+1, wj)
				p.stack = p.stack[:len(p.stack)-1]
				p.afloat[j]++
				p.mark(start, step, l, false)
				if !ok {
					return false
				}
			}
		}
	}
	return true
}

// fits reports whether a ship may lie at start, step, l in the
// configuration being built: on unknown cells and open hits only, off the
// configuration's other ships, and not wholly on hits.
func (p *planner) fits(start, step, l int) bool {
	unknown := false
	for k, c := 0, start; k < l; k, c = k+1, c+step {
		switch {
		case p.occ[c]:
			return false
		case p.cells[c] == Unknown:
			unknown = true
		case p.cells[c] != Hit:
			return false
		}
	}
	return unknown
}

// mark sets the configuration's occupancy of a ship's cells.
func (p *planner) mark(start, step, l int, on bool) {
	for k, c := 0, start; k < l; k, c = k+1, c+step {
		p.occ[c] = on
	}
}

// fallback scores each unknown cell by the placements of ships afloat
// through it, off misses and sunk cells, weighing a placement by
// hitWeight for each open hit it covers, and returns the best.
func (p *planner) fallback(rng *rand.PCG) (Point, bool) {
	const hitWeight = 64
	clear(p.prob)
	for j, l := range p.lengths {
		for vertical := 0; vertical < 2; vertical++ {
			if vertical == 1 && l == 1 {
				break
			}
			step, w, h := 1, p.cols-l+1, p.rows
			if vertical == 1 {
				step, w, h = p.cols, p.cols, p.rows-l+1
			}
			for y := 0; y < h; y++ {
				for x := 0; x < w; x++ {
					start := y*p.cols + x
					wt, ok := float64(p.afloat[j]), true
					for k, c := 0, start; k < l; k, c = k+1, c+step {
						switch p.cells[c] {
						case Hit:
							wt *= hitWeight
						case Miss, Sunk:
							ok = false
						}
						if !ok {
							break
						}
					}
					if !ok {
						continue
					}
					for k, c := 0, start; k < l; k, c = k+1, c+step {
						p.prob[c] += wt
					}
				}
			}
		}
	}
	return p.pick(p.prob, rng, nil)
}
