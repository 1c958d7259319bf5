package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/zipbt/behaviortree/battleship"
	"github.com/zipbt/behaviortree/internal/httpserve"
	"github.com/zipbt/behaviortree/viewer"
)

// interrupted returns a channel that is closed when the user interrupts
// the command (Ctrl-C or SIGTERM), and a func that stops listening for
// that; a test replaces it with a channel it closes.
var interrupted = func() (<-chan struct{}, func()) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	return ctx.Done(), stop
}

// serve plays o.games games per bot, all bots at once, each turn after
// o.delay, and publishes every bot's tree versions to a live monitor
// served at o.serve; it serves until interrupted. Game i of every bot is
// played on the board of game i of a run seeded with o.seed (game 1 is
// the one the command plays without -serve).
func serve(o options, stdout, stderr io.Writer) error {
	for _, name := range o.bots { // check the setup before listening
		b, p := battleship.GameSeeds(o.seed, 0)
		if _, err := newGame(setup{Config: o.cfg, bot: name, boardSeed: b, botSeed: p}); err != nil {
			return usage(err)
		}
	}
	ln, err := net.Listen("tcp", o.serve)
	if err != nil {
		return usage(wrap(err, "-serve"))
	}
	var hosts []string
	if h, _, err := net.SplitHostPort(o.serve); err == nil && h != "" && net.ParseIP(h) == nil {
		hosts = append(hosts, h)
	}
	m := viewer.NewMonitor(viewer.MonitorOptions{Title: "battleship: bot " + strings.Join(o.bots, ", "), Hosts: hosts})
	feeds := make([]feed, len(o.bots))
	for i, name := range o.bots {
		b, _ := battleship.NewBot(name, 0)
		if _, stepped := b.Stepped(); stepped {
			f := viewer.NewSteppedFeed[battleship.Intent](m, "bot "+name)
			feeds[i] = feed{publish: func(b battleship.Bot, w viewer.World) error { v, _ := b.Stepped(); return f.PublishWith(v, w) }, end: f.End, close: f.Close}
		} else {
			f := viewer.NewTreeFeed[battleship.Intent](m, "bot "+name)
			feeds[i] = feed{publish: func(b battleship.Bot, w viewer.World) error { return f.PublishWith(b.Tree(), w) }, end: f.End, close: f.Close}
		}
	}
	fmt.Fprintf(stdout, "serving http://%s/\n", ln.Addr())
	if a, ok := ln.Addr().(*net.TCPAddr); !ok || !a.IP.IsLoopback() {
		fmt.Fprintf(stderr, "battleship: warning: -serve %s is not a loopback address: anyone who can reach this machine can watch the games\n", o.serve)
	}
	srv := httpserve.New(m)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	defer srv.Close()
	stop, release := interrupted()
	defer release()

	var mu sync.Mutex // stdout
	var wg sync.WaitGroup
	errs := make([]error, len(o.bots))
	for i, name := range o.bots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer feeds[i].close()
			errs[i] = playServed(o, name, feeds[i], stop, func(line string) {
				mu.Lock()
				fmt.Fprintln(stdout, line)
				mu.Unlock()
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	select {
	case <-stop:
		return nil
	default:
	}
	fmt.Fprintln(stdout, "all games played; serving until interrupted (Ctrl-C)")
	select {
	case <-stop:
		return nil
	case err := <-served:
		return wrap(err, "-serve")
	}
}

// feed is one bot's feed of the monitor: publish publishes the bot's
// version with the board, end says the game ended, close closes it.
type feed struct {
	publish func(battleship.Bot, viewer.World) error
	end     func(result string)
	close   func()
}

// world is the picture of game g the monitor shows beside the bot's tree:
// the board with every shot so far (the ships drawn faintly until hit),
// and the last turn's shot and the intents the bot went through.
func world(board *battleship.Board, g *battleship.Game) viewer.World {
	cols := board.Cols
	cells := []byte(strings.Repeat(".", cols*board.Rows))
	for _, s := range board.Ships {
		for _, c := range s.Cells {
			cells[c.Y*cols+c.X] = 'o'
		}
	}
	turns := g.Turns()
	w := viewer.World{Grid: &viewer.Grid{Cols: cols, Rows: board.Rows, Last: -1}}
	for _, t := range turns {
		c := t.Shot.Y*cols + t.Shot.X
		switch t.Answer.Kind {
		case battleship.AnswerMiss:
			cells[c] = 'm'
		case battleship.AnswerHit:
			cells[c] = 'x'
		case battleship.AnswerSunk:
			for _, p := range board.Ships[t.Answer.Ship].Cells {
				cells[p.Y*cols+p.X] = 'k'
			}
		}
		w.Grid.Last = c
	}
	w.Grid.Cells = string(cells)
	if n := len(turns); n > 0 {
		t := turns[n-1]
		w.Events = append(w.Events, fmt.Sprintf("turn %d: fire at %v: %v", n, t.Shot, t.Answer))
		for _, k := range t.Ticks {
			w.Events = append(w.Events, fmt.Sprintf("  %s: %v", k.Intent, k.Signal))
		}
	}
	return w
}

// errStopped ends a game that the user interrupted.
var errStopped = errors.New("interrupted")

// playServed plays o.games games of bot name, publishing the bot and its
// board after each turn, and reports each game's end with say and on the
// feed.
func playServed(o options, name string, f feed, stop <-chan struct{}, say func(string)) error {
	var timer *time.Timer
	wait := func() error {
		if o.delay <= 0 {
			select {
			case <-stop:
				return errStopped
			default:
				return nil
			}
		}
		if timer == nil {
			timer = time.NewTimer(o.delay)
		} else {
			timer.Reset(o.delay)
		}
		select {
		case <-stop:
			return errStopped
		case <-timer.C:
			return nil
		}
	}
	for i := 0; i < o.games; i++ {
		b, p := battleship.GameSeeds(o.seed, i)
		g, err := newGame(setup{Config: o.cfg, bot: name, boardSeed: b, botSeed: p})
		if err != nil {
			return err
		}
		board, err := battleship.NewBoard(o.cfg, b) // the game's, made again from its seed
		if err != nil {
			return err
		}
		if err := f.publish(g.Bot(), world(board, g)); err != nil {
			return err
		}
		for !g.Over() {
			if len(g.Turns()) >= o.cfg.Cells() {
				return fmt.Errorf("bot %s did not sink the fleet in %d shots", name, len(g.Turns()))
			}
			if err := wait(); err != nil {
				return nil
			}
			turn, err := g.PlayTurn()
			if err != nil {
				return err
			}
			if err := f.publish(turn.Bot, world(board, g)); err != nil {
				return err
			}
		}
		f.end(fmt.Sprintf("game %d: sank %d ships in %d shots", i+1, len(o.cfg.Fleet), g.Shots()))
		say(fmt.Sprintf("bot %s, game %d: sank %d ships in %d shots", name, i+1, len(o.cfg.Fleet), g.Shots()))
		if err := wait(); err != nil {
			return nil
		}
	}
	return nil
}
