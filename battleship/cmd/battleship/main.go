// Command battleship watches behavior trees play Battleship: the four bots
// of the behaviortree library's worked example, one game each on the same
// board, or many games each with statistics.
//
// Usage:
//
//	battleship [-bot a|b|c|d|all] [-games N] [-seed S] [-size 10x10] [-fleet 5,4,3,3,2] [-watch [-undo N]] [-record FILE]
//	battleship -replay FILE
//
// With -games 1 (the default) each bot plays one game on the same seeded
// board, and the command prints its final board ("." untouched, "o" miss,
// "X" hit, "#" sunk), its shot count and a summary. -watch prints the board
// after every shot, with the tree's current intent and what the bot is
// doing. With -games N > 1, each bot plays N games on boards drawn from the
// seed, on all cores, and the command prints a table of shot counts.
//
// -record FILE writes each game as JSON Lines: the seeds and setup, then
// each turn's intents and signals, shot, answer and saved tree state.
// -replay FILE replays a record, checks that every recorded turn and state
// matches, and prints the turns; a record that does not match, or is
// damaged, is an error naming its line (exit status 1). -undo N, with
// -watch, steps each finished game back N turns using the bot versions the
// game kept, and plays on from there.
//
// Bad flags, or a setup that cannot work (a fleet that cannot fit the
// board), exit with status 2.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/zipbt/behaviortree/battleship"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// options are the parsed flags.
type options struct {
	bots   []string
	games  int
	seed   uint64
	cfg    battleship.Config
	watch  bool
	undo   int
	record string
	replay string
}

// errUsage marks errors that exit with status 2.
var errUsage = errors.New("usage")

// parse reads the flags.
func parse(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("battleship", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bot := fs.String("bot", "all", "the bot to play: a, b, c, d or all")
	games := fs.Int("games", 1, "games per bot; more than 1 prints statistics")
	seed := fs.Uint64("seed", 1, "the seed of boards, guesses and trees")
	size := fs.String("size", "10x10", "the board, COLSxROWS")
	fleet := fs.String("fleet", "5,4,3,3,2", "the ship lengths")
	watch := fs.Bool("watch", false, "print the board after every shot (one game only)")
	undo := fs.Int("undo", 0, "with -watch: step each finished game back N turns and play on")
	record := fs.String("record", "", "write each game to FILE as JSON Lines")
	replay := fs.String("replay", "", "replay the record in FILE and check it")
	if err := fs.Parse(args); err != nil {
		return options{}, fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() > 0 {
		return options{}, fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	o := options{games: *games, seed: *seed, watch: *watch, undo: *undo, record: *record, replay: *replay}
	if o.replay != "" {
		other := ""
		fs.Visit(func(f *flag.Flag) { // in lexical order
			if f.Name != "replay" && other == "" {
				other = f.Name
			}
		})
		if other != "" {
			return o, fmt.Errorf("%w: -replay takes no other flag (the record holds the setup), got -%s", errUsage, other)
		}
		return o, nil
	}
	if o.undo < 0 || (o.undo > 0 && !o.watch) {
		return o, fmt.Errorf("%w: -undo %d: needs -watch and N >= 1", errUsage, o.undo)
	}
	if o.record != "" && o.games > 1 {
		return o, fmt.Errorf("%w: -record writes single games; drop -games", errUsage)
	}
	switch b := strings.ToLower(*bot); b {
	case "all":
		o.bots = battleship.Names
	case "a", "b", "c", "d":
		o.bots = []string{strings.ToUpper(b)}
	default:
		return o, fmt.Errorf("%w: -bot %q: want a, b, c, d or all", errUsage, *bot)
	}
	if o.games < 1 {
		return o, fmt.Errorf("%w: -games %d: want at least 1", errUsage, o.games)
	}
	if o.watch && o.games > 1 {
		return o, fmt.Errorf("%w: -watch plays one game per bot; drop -games", errUsage)
	}
	cols, rows, err := battleship.ParseSize(*size)
	if err != nil {
		return o, fmt.Errorf("%w: -size: %v", errUsage, err)
	}
	lengths, err := battleship.ParseFleet(*fleet)
	if err != nil {
		return o, fmt.Errorf("%w: -fleet: %v", errUsage, err)
	}
	o.cfg = battleship.Config{Cols: cols, Rows: rows, Fleet: lengths}
	if err := o.cfg.Check(); err != nil {
		return o, fmt.Errorf("%w: %v", errUsage, err)
	}
	return o, nil
}

// run is the command, with its streams; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	switch {
	case err != nil:
	case o.replay != "":
		err = replay(o.replay, stdout)
	case o.games == 1:
		err = playOne(o, stdout)
	default:
		err = playMany(o, stdout, stderr)
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0 // the flag package printed the usage
	case errors.Is(err, errUsage):
		fmt.Fprintln(stderr, message(err))
		return 2
	default:
		fmt.Fprintln(stderr, message(err))
		return 1
	}
}

// message formats err for the terminal, with one "battleship: " prefix.
func message(err error) string {
	m := strings.TrimPrefix(err.Error(), errUsage.Error()+": ")
	return "battleship: " + strings.TrimPrefix(m, "battleship: ")
}

// playOne plays one game per bot on the same board.
func playOne(o options, w io.Writer) error {
	boardSeed, botSeed := battleship.GameSeeds(o.seed, 0)
	if _, err := battleship.NewBoard(o.cfg, boardSeed); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	var rec io.Writer
	if o.record != "" {
		f, err := os.Create(o.record)
		if err != nil {
			return fmt.Errorf("%w: -record: %v", errUsage, err)
		}
		defer f.Close()
		rec = f
	}
	for _, name := range o.bots {
		setup := battleship.Setup{Config: o.cfg, Bot: name, BoardSeed: boardSeed, BotSeed: botSeed}
		g, err := battleship.NewGameFrom(setup)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "bot %s\n", name)
		if err := playOn(g, o, w); err != nil {
			return err
		}
		if o.undo > 0 {
			if err := g.Undo(o.undo); err != nil {
				return fmt.Errorf("%w: -undo %d: the game had only %d turns", errUsage, o.undo, len(g.Turns()))
			}
			fmt.Fprintf(w, "undo: %d turns back, to the board after turn %d; the bot is back at %s\n%s\n",
				o.undo, len(g.Turns()), g.Bot().Tree().Value(), g.Sea().View().Render())
			if err := playOn(g, o, w); err != nil {
				return err
			}
		}
		if rec != nil {
			if err := battleship.WriteRecord(rec, setup, g); err != nil {
				return fmt.Errorf("-record: %w", err)
			}
		}
		ticks := 0
		for _, t := range g.Turns() {
			ticks += len(t.Steps)
		}
		fmt.Fprint(w, g.Sea().View().Render())
		fmt.Fprintf(w, "shots: %d\n", g.Sea().Shots())
		fmt.Fprintf(w, "bot %s sank %d ships in %d shots on %d cells (%.0f%% of the board), %d tree ticks\n\n",
			name, len(o.cfg.Fleet), g.Sea().Shots(), o.cfg.Cells(),
			100*float64(g.Sea().Shots())/float64(o.cfg.Cells()), ticks)
	}
	return nil
}

// playOn plays g to its end, printing every turn with -watch.
func playOn(g *battleship.Game, o options, w io.Writer) error {
	for !g.Over() {
		if len(g.Turns()) >= o.cfg.Cells() {
			return fmt.Errorf("bot %s did not sink the fleet in %d shots", g.Bot().Name(), len(g.Turns()))
		}
		turn, err := g.Step()
		if err != nil {
			return err
		}
		if o.watch {
			fmt.Fprintf(w, "turn %d: %s at %v: %v (tree now at %s; %s)\n%s\n",
				len(g.Turns()), turn.Steps[len(turn.Steps)-1].Intent, turn.Shot, turn.Answer,
				g.Bot().Tree().Value(), g.Bot().Doing(), g.Sea().View().Render())
		}
	}
	return nil
}

// replay replays a record file.
func replay(path string, w io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("%w: -replay: %v", errUsage, err)
	}
	defer f.Close()
	games, turns, err := battleship.ReplayRecord(f, path, w)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "replayed %d games, %d turns: every recorded turn and tree state matches\n", games, turns)
	return nil
}

// playMany plays o.games games per bot and prints a table per bot.
func playMany(o options, w, stderr io.Writer) error {
	for _, name := range o.bots {
		start := time.Now()
		var done atomic.Int64
		stop := progress(stderr, name, o.games, &done)
		shots, err := battleship.PlayMany(o.cfg, name, o.seed, o.games, 0, func(d int) { done.Store(int64(d)) })
		stop()
		if err != nil {
			return err
		}
		elapsed := time.Since(start)
		s := battleship.Summarize(shots)
		fmt.Fprintf(w, "bot %s: %d games on %dx%d, fleet %v, seed %d\n", name, s.Games, o.cfg.Cols, o.cfg.Rows, o.cfg.Fleet, o.seed)
		fmt.Fprintf(w, "  %-8s %-8s %-8s %-8s %s\n", "mean", "median", "p90", "max", "games/s")
		fmt.Fprintf(w, "  %-8.2f %-8d %-8d %-8d %.0f\n\n", s.Mean, s.Median, s.P90, s.Max, float64(s.Games)/elapsed.Seconds())
	}
	return nil
}

// progress draws a progress bar on stderr when it is a terminal and the run
// takes more than a second. The returned func stops it and clears its line.
func progress(stderr io.Writer, name string, total int, done *atomic.Int64) func() {
	f, ok := stderr.(*os.File)
	if !ok {
		return func() {}
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return func() {}
	}
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		select {
		case <-quit:
			return
		case <-time.After(time.Second):
		}
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			d := int(done.Load())
			const width = 30
			bar := strings.Repeat("#", d*width/total) + strings.Repeat(" ", width-d*width/total)
			fmt.Fprintf(f, "\rbot %s [%s] %3d%% %d/%d games", name, bar, d*100/total, d, total)
			select {
			case <-quit:
				fmt.Fprint(f, "\r\033[K")
				return
			case <-tick.C:
			}
		}
	}()
	return func() { close(quit); <-finished }
}
