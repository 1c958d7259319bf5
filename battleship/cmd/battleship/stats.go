package main

import "slices"

// summary is the distribution of shot counts over games.
type summary struct {
	games                 int
	mean                  float64
	median, p90, min, max int
}

// summarize returns the summary of shot counts (nearest-rank percentiles).
func summarize(shots []int) summary {
	if len(shots) == 0 {
		return summary{}
	}
	s := slices.Clone(shots)
	slices.Sort(s)
	total := 0
	for _, v := range s {
		total += v
	}
	rank := func(p float64) int {
		k := int(p*float64(len(s))+0.999999) - 1
		return s[min(max(k, 0), len(s)-1)]
	}
	return summary{games: len(s), mean: float64(total) / float64(len(s)),
		median: rank(0.5), p90: rank(0.9), min: s[0], max: s[len(s)-1]}
}
