package main

import (
	"fmt"
	"math/bits"
)

// summary is the distribution of shot counts over games.
type summary struct {
	games                 int
	mean                  float64
	median, p90, min, max int
}

// tally is the distribution of shot counts over games as a histogram, so
// that its memory is proportional to the largest count (a board's cells),
// not to the number of games: -games N streams its games into one.
type tally struct {
	counts []int // counts[v]: the games that took v shots
	games  int
	// The sum of the shot counts, in 128 bits (sumHi, sumLo): a run's
	// games times its counts may pass an int.
	sumHi, sumLo uint64
}

// add adds the games of shots, whose counts must be at least 0.
func (t *tally) add(shots []int) {
	for _, v := range shots {
		if v < 0 {
			panic(fmt.Sprintf("battleship: a negative shot count %d", v))
		}
		if v >= len(t.counts) {
			t.counts = append(t.counts, make([]int, v+1-len(t.counts))...)
		}
		t.counts[v]++
		var carry uint64
		t.sumLo, carry = bits.Add64(t.sumLo, uint64(v), 0)
		t.sumHi += carry
	}
	t.games += len(shots)
}

// nth returns the shot count of rank k (from 0) in increasing order.
func (t *tally) nth(k int) int {
	for v, c := range t.counts {
		if k < c {
			return v
		}
		k -= c
	}
	panic("battleship: unreachable: a rank past the games")
}

// summary returns the tally's figures (nearest-rank percentiles), the zero
// summary for no games.
func (t *tally) summary() summary {
	n := t.games
	if n == 0 {
		return summary{}
	}
	rank := func(p float64) int {
		k := int(p*float64(n)+0.999999) - 1
		return t.nth(min(max(k, 0), n-1))
	}
	total := float64(t.sumHi)*(1<<64) + float64(t.sumLo)
	return summary{games: n, mean: total / float64(n),
		median: rank(0.5), p90: rank(0.9), min: t.nth(0), max: t.nth(n - 1)}
}

// summarize returns the summary of shot counts (nearest-rank percentiles).
func summarize(shots []int) summary {
	var t tally
	t.add(shots)
	return t.summary()
}
