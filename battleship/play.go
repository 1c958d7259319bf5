package battleship

import (
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
)

// GameSeeds returns the seeds of game i of a run seeded with seed: one for
// the board, the same for every bot, and one for the bot.
func GameSeeds(seed uint64, i int) (board, bot uint64) {
	g := deriveSeed(seed, uint64(i)+1)
	return deriveSeed(g, 10), deriveSeed(g, 11)
}

// player plays games one after another, reusing one board and one game, so
// that a game allocates nothing once the buffers have grown.
type player struct {
	board Board
	game  Game
}

// play plays game i of a run seeded with seed, for bot strategy s on config
// c, and returns the game, which is valid until the next call.
func (p *player) play(c Config, s *strategy, seed uint64, i int) (*Game, error) {
	bs, ps := GameSeeds(seed, i)
	if _, err := p.board.reset(c, bs, placeBudget); err != nil {
		return nil, err
	}
	p.game.reset(&p.board, s.start(ps))
	if err := p.game.Play(); err != nil {
		return nil, fmt.Errorf("%w (game %d of the run)", err, i+1)
	}
	return &p.game, nil
}

// PlayMany plays games 0 to n-1 of a run seeded with seed for the bot
// named name on config c, each on the board GameSeeds gives it, on workers
// goroutines (all cores for workers <= 0), and returns each game's shot
// count, in game order. progress, if not nil, is called now and then with
// the number of games done so far, from any goroutine. It is
// PlayRange(c, name, seed, 0, n, workers, progress).
func PlayMany(c Config, name string, seed uint64, n, workers int, progress func(done int)) ([]int, error) {
	return PlayRange(c, name, seed, 0, n, workers, progress)
}

// PlayRange is PlayMany for games from to from+n-1 of the run: it returns
// the shot counts of those n games, in game order, the same as those of
// PlayMany's games, so that a long run can be played in stretches of
// bounded memory.
func PlayRange(c Config, name string, seed uint64, from, n, workers int, progress func(done int)) ([]int, error) {
	proto, err := NewBot(name, 0)
	if err != nil {
		return nil, err
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	if from < 0 || n < 0 || from > math.MaxInt-n {
		return nil, fmt.Errorf("battleship: %d games from game %d of a run: want both at least 0, and from+n at most %d", n, from, math.MaxInt)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// Workers take games in batches, so that they rarely touch the shared
	// counters, and each writes its own stretch of shots.
	const batch = 256
	shots := make([]int, n)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	var once sync.Once
	var firstErr error
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var p player
			for {
				lo := int(next.Add(batch) - batch)
				if lo >= n {
					return
				}
				hi := min(lo+batch, n)
				for i := lo; i < hi; i++ {
					g, err := p.play(c, proto.strategy, seed, from+i)
					if err != nil {
						once.Do(func() { firstErr = err })
						next.Store(int64(n)) // stop the others
						return
					}
					shots[i] = g.Shots()
				}
				if d := done.Add(int64(hi - lo)); progress != nil {
					progress(int(d))
				}
			}
		}()
	}
	wg.Wait()
	return shots, firstErr
}
