package battleship

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// GameSeeds returns the seeds of game i of a run seeded with seed: one for
// the board, the same for every bot, and one for the bot.
func GameSeeds(seed uint64, i int) (board, bot uint64) {
	g := deriveSeed(seed, uint64(i)+1)
	return deriveSeed(g, 10), deriveSeed(g, 11)
}

// PlayGame plays game i of a run seeded with seed: bot name against the
// run's i-th board. It returns the finished game.
func PlayGame(c Config, name string, seed uint64, i int) (*Game, error) {
	bs, ps := GameSeeds(seed, i)
	board, err := NewBoard(c, bs)
	if err != nil {
		return nil, err
	}
	bot, err := New(name, ps)
	if err != nil {
		return nil, err
	}
	g := NewGame(board, bot)
	if err := g.Play(); err != nil {
		return nil, fmt.Errorf("game %d: %w", i, err)
	}
	return g, nil
}

// PlayMany plays games 0 to n-1 of a run for bot name, on workers
// goroutines (all cores for workers <= 0), and returns each game's shot
// count, in game order. progress, if not nil, is called with the number of
// games done so far, from any goroutine.
func PlayMany(c Config, name string, seed uint64, n, workers int, progress func(done int)) ([]int, error) {
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	shots := make([]int, n)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				g, err := PlayGame(c, name, seed, i)
				if err != nil {
					once.Do(func() { firstErr = err })
					next.Store(int64(n)) // stop the others
					return
				}
				shots[i] = g.Sea().Shots()
				if d := done.Add(1); progress != nil {
					progress(int(d))
				}
			}
		}()
	}
	wg.Wait()
	return shots, firstErr
}

// Summary is the distribution of shot counts over games.
type Summary struct {
	Games                 int
	Mean                  float64
	Median, P90, Min, Max int
}

// Summarize returns the summary of shot counts (nearest-rank percentiles).
func Summarize(shots []int) Summary {
	if len(shots) == 0 {
		return Summary{}
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
	return Summary{Games: len(s), Mean: float64(total) / float64(len(s)),
		Median: rank(0.5), P90: rank(0.9), Min: s[0], Max: s[len(s)-1]}
}
