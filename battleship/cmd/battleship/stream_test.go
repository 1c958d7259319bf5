package main

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/battleship"
)

// sliceSummary is the summary as the command computed it before it
// streamed its games: from every shot count at once, sorted.
func sliceSummary(shots []int) summary {
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

// TestTallyMatchesSlices checks the streaming tally against the
// slice-based figures on random samples, added in random stretches.
func TestTallyMatchesSlices(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 500; k++ {
		shots := make([]int, 1+rng.IntN(3000))
		top := 1 + rng.IntN(10001)
		low := rng.IntN(top)
		for i := range shots {
			shots[i] = low + rng.IntN(top-low)
		}
		var tl tally
		for rest := shots; len(rest) > 0; {
			n := min(len(rest), 1+rng.IntN(700))
			tl.add(rest[:n])
			rest = rest[n:]
		}
		if got, want := tl.summary(), sliceSummary(shots); got != want {
			t.Fatalf("sample %d (%d games): tally %+v, slices %+v", k, len(shots), got, want)
		}
	}
	var empty tally
	if (empty.summary() != summary{}) {
		t.Error("an empty tally has figures")
	}
}

// TestTallyMemory checks that a tally's memory depends on the largest
// shot count, not on the number of games: a million games hold the same
// histogram as ten, and adding games allocates nothing once the largest
// count has been seen.
func TestTallyMemory(t *testing.T) {
	chunk := make([]int, statsChunk)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range chunk {
		chunk[i] = 17 + rng.IntN(84) // 17 to 100, as on a 10x10 board
	}
	chunk[0] = 100
	var small, large tally
	small.add(chunk[:10])
	for large.games < 1_000_000 {
		large.add(chunk)
	}
	if len(small.counts) != 101 || len(large.counts) != len(small.counts) || cap(large.counts) > 2*len(large.counts) {
		t.Errorf("the histograms of 10 and %d games have %d and %d slots (cap %d), want 101",
			large.games, len(small.counts), len(large.counts), cap(large.counts))
	}
	if a := testing.AllocsPerRun(20, func() { large.add(chunk) }); a != 0 {
		t.Errorf("adding %d games allocates %.0f times", len(chunk), a)
	}
	// The 128-bit sum carries past 64 bits.
	big := tally{sumLo: ^uint64(0) - 10}
	big.add([]int{100, 50})
	if big.sumHi != 1 || big.sumLo != 139 {
		t.Errorf("sum %d:%d, want 1:139", big.sumHi, big.sumLo)
	}
}

// errEnough stops a stand-in run.
var errEnough = errors.New("enough games")

// TestHugeGamesStreams runs -games 4000000000000 (bug: it preallocated a
// shot count per game and died out of memory) with a stand-in for the
// games that records what it is asked to play, and stops the run after a
// few stretches. The command must ask for the games in order, in stretches
// of at most statsChunk, and allocate memory for a stretch, not for the
// run.
func TestHugeGamesStreams(t *testing.T) {
	const games = 4_000_000_000_000
	if int64(^uint(0)>>1) < games {
		t.Skip("int holds fewer than 4e12 games") // -games is refused as out of range
	}
	type call struct{ from, n int }
	var calls []call
	defer func(f func(battleship.Config, string, uint64, int, int, int, func(int)) ([]int, error)) {
		playRange = f
	}(playRange)
	playRange = func(c battleship.Config, name string, seed uint64, from, n, workers int, progress func(int)) ([]int, error) {
		calls = append(calls, call{from, n})
		if len(calls) > 3 {
			return nil, errEnough
		}
		if n > statsChunk {
			return nil, fmt.Errorf("asked for %d games at once", n)
		}
		shots := make([]int, n)
		for i := range shots {
			shots[i] = 17 + (from+i)%84
		}
		progress(n)
		return shots, nil
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var out, errOut bytes.Buffer
	status := run([]string{"-games", "4000000000000", "-bot", "a"}, &out, &errOut)
	runtime.ReadMemStats(&after)
	if status != 1 || !strings.Contains(errOut.String(), errEnough.Error()) {
		t.Fatalf("exit %d, stderr %q; want 1 and the stand-in's error", status, errOut.String())
	}
	want := []call{{0, statsChunk}, {statsChunk, statsChunk}, {2 * statsChunk, statsChunk}, {3 * statsChunk, statsChunk}}
	if !slices.Equal(calls, want) {
		t.Errorf("asked for games %v, want %v", calls, want)
	}
	// Three stretches of shot counts, and the stand-in's copies: a few
	// megabytes, where a count per game is 32 TB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("the run allocated %d bytes for %d stretches of %d games", alloc, len(calls), statsChunk)
	}
}

// TestStreamedStatistics checks that -games N played in several stretches
// prints the figures of the same games played at once.
func TestStreamedStatistics(t *testing.T) {
	const n = 2*statsChunk + 123
	c := battleship.Config{Cols: 4, Rows: 4, Fleet: []int{2}}
	shots, err := battleship.PlayMany(c, "A", 9, n, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := sliceSummary(shots)
	var out, errOut bytes.Buffer
	if status := run([]string{"-games", strconv.Itoa(n), "-bot", "a", "-size", "4x4", "-fleet", "2", "-seed", "9"}, &out, &errOut); status != 0 {
		t.Fatalf("exit %d: %s", status, errOut.String())
	}
	for _, want := range []string{
		fmt.Sprintf("bot A: %d games on 4x4", n),
		fmt.Sprintf("\n  %-8.2f %-8d %-8d %-8d ", s.mean, s.median, s.p90, s.max),
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
