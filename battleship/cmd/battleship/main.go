// Command battleship watches behavior trees play Battleship: the five bots
// (A to E) of the behaviortree library's worked example, one game each on the same
// board, or many games each with statistics.
//
// Usage:
//
//	battleship [-bot a|b|c|d|e|all] [-games N [-plot FILE]] [-seed S] [-size 10x10] [-fleet 5,4,3,3,2] [-watch [-undo N]] [-record FILE] [-html FILE]
//	battleship -replay FILE [-html FILE]
//	battleship -serve ADDR [-delay D] [-bot ...] [-games N] [-seed S] [-size ...] [-fleet ...]
//
// With -games 1 (the default) each bot plays one game on the same seeded
// board, and the command prints its final board ("." untouched, "o" miss,
// "X" hit, "#" sunk), its shot count and a summary. -watch prints the board
// after every shot, with the tree's current intent and what the bot is
// doing. With -games N > 1, each bot plays N games on boards drawn from the
// seed, on all cores, and the command prints a table of shot counts; the
// games are tallied as they are played, so any N runs in memory that does
// not grow with N.
//
// -html FILE writes an HTML replay viewer of the games (one
// self-contained page: a timeline of every turn with the bot's tree, its
// node states and the board), and -plot FILE, with -games N, an SVG
// histogram of each bot's shots per game. -watch draws the bot's tree
// beside the board.
//
// -record FILE writes each game as JSON Lines: the seeds and setup, then
// each turn's intents and signals, shot, answer and saved tree state.
// -replay FILE replays a record, checks that every recorded turn and state
// matches, and prints the turns; a record that does not match, or is
// damaged, is an error naming its line (exit status 1). -undo N, with
// -watch, steps each finished game back N turns using the bot versions the
// game kept, and plays on from there.
//
// -serve ADDR plays the games live and serves a monitor of them (package
// viewer's Monitor) at ADDR, such as 127.0.0.1:8080: a page that lists
// the bots and follows one, its tree recoloured at every turn, with its
// memory and a scrubber over the turns kept. Every bot plays at once,
// -games N games each (game i on the board of game i of the run, the
// first the one played without -serve), each turn after -delay (400ms by
// default; 0 plays at full speed); the command prints "serving
// http://ADDR/" first, and serves until interrupted. An address that is
// not a loopback one prints a warning: anyone who can reach it can watch.
//
// Boards have at most 100 columns and 100 rows, and fleets at most 100
// ships. Shots are shown as the board is labelled: A1 is the top left cell.
//
// Bad flags, or a setup that cannot work (a fleet that cannot fit the
// board, an -undo longer than the game), exit with status 2 before any
// game is printed or any file is written. -record writes to a temporary
// file in the same directory, renamed into place once every game is
// written, so that a run that fails leaves an existing record as it was.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/battleship"
	"github.com/zipbt/behaviortree/battleship/replay"
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
	html   string        // -html: the HTML replay viewer to write
	plot   string        // -plot: the SVG histogram to write
	serve  string        // -serve: the address of the live monitor
	delay  time.Duration // -delay: the pause before each turn with -serve
}

// usageError marks errors that exit with status 2.
type usageError struct{ err error }

// Error returns the wrapped error's message.
func (e usageError) Error() string { return e.err.Error() }

// Unwrap returns the wrapped error.
func (e usageError) Unwrap() error { return e.err }

// usage marks err as a usage error.
func usage(err error) error { return usageError{err} }

// usagef is usage(fmt.Errorf(...)).
func usagef(format string, args ...any) error { return usage(fmt.Errorf(format, args...)) }

// wrapped is an error with context in front, which drops the wrapped
// error's own "battleship: " prefix, so that the command's messages carry
// the prefix once.
type wrapped struct {
	context string
	err     error
}

// Error returns the context, then the wrapped error's message without its
// prefix, cut to 200 bytes.
func (e wrapped) Error() string {
	m := strings.TrimPrefix(e.err.Error(), "battleship: ")
	if len(m) > 200 { // such as encoding/json's, which quote input whole
		m = strings.ToValidUTF8(m[:200], "") + "..."
	}
	return e.context + ": " + m
}

// Unwrap returns the wrapped error.
func (e wrapped) Unwrap() error { return e.err }

// wrap returns err with context in front.
func wrap(err error, format string, args ...any) error {
	return wrapped{fmt.Sprintf(format, args...), err}
}

// quote returns s quoted, cut to about 100 bytes, for messages that repeat
// what the user wrote.
func quote(s string) string {
	const limit = 100
	if len(s) <= limit {
		return strconv.Quote(s)
	}
	cut := limit
	for cut > 0 && s[cut]&0xc0 == 0x80 { // do not split a UTF-8 sequence
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// parse reads the flags and checks every one of them, so that a bad
// command line fails before anything is printed or written.
func parse(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("battleship", flag.ContinueOnError)
	fs.SetOutput(stderr)
	bot := fs.String("bot", "all", "the bot to play: a, b, c, d, e or all")
	games := fs.Int("games", 1, "games per bot; more than 1 prints statistics")
	seed := fs.Uint64("seed", 1, "the seed of boards, guesses and trees")
	size := fs.String("size", "10x10", "the board, COLSxROWS, each side at most 100")
	fleet := fs.String("fleet", "5,4,3,3,2", "the ship lengths, at most 100 ships")
	watch := fs.Bool("watch", false, "print the board after every shot (one game only)")
	undo := fs.Int("undo", 0, "with -watch: step each finished game back N turns and play on")
	record := fs.String("record", "", "write each game to FILE as JSON Lines")
	replay := fs.String("replay", "", "replay the record in FILE and check it")
	html := fs.String("html", "", "write an HTML replay viewer of the games to FILE (also with -replay)")
	plot := fs.String("plot", "", "with -games N: write an SVG histogram of the shots per game of each bot to FILE")
	serveAddr := fs.String("serve", "", "play the games slowly and serve a live monitor of the bots' trees at `ADDR` (such as 127.0.0.1:8080)")
	delay := fs.Duration("delay", 400*time.Millisecond, "with -serve: the pause before each turn")
	if err := fs.Parse(args); err != nil {
		return options{}, usage(err)
	}
	if fs.NArg() > 0 {
		return options{}, usagef("unexpected argument %s", quote(fs.Arg(0)))
	}
	o := options{games: *games, seed: *seed, watch: *watch, undo: *undo, record: *record, replay: *replay, html: *html, plot: *plot,
		serve: *serveAddr, delay: *delay}
	if o.replay != "" {
		other := ""
		fs.Visit(func(f *flag.Flag) { // in lexical order
			if f.Name != "replay" && f.Name != "html" && other == "" {
				other = f.Name
			}
		})
		if other != "" {
			return o, usagef("-replay takes no other flag but -html (the record holds the setup), got -%s", other)
		}
		return o, nil
	}
	if o.serve != "" {
		other := ""
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "watch", "undo", "record", "html", "plot":
				if other == "" {
					other = f.Name
				}
			}
		})
		if other != "" {
			return o, usagef("-serve shows the games live; drop -%s", other)
		}
		if o.delay < 0 {
			return o, usagef("-delay %v: want 0 or more", o.delay)
		}
	} else {
		delaySet := false
		fs.Visit(func(f *flag.Flag) { delaySet = delaySet || f.Name == "delay" })
		if delaySet {
			return o, usagef("-delay paces the games of -serve; add -serve ADDR")
		}
	}
	if o.html != "" && o.games > 1 {
		return o, usagef("-html shows single games; drop -games")
	}
	if o.plot != "" && o.games < 2 {
		return o, usagef("-plot draws the statistics of -games N, N >= 2")
	}
	if o.undo < 0 || (o.undo > 0 && !o.watch) {
		return o, usagef("-undo %d: needs -watch and N >= 1", o.undo)
	}
	if o.record != "" && o.games > 1 {
		return o, usagef("-record writes single games; drop -games")
	}
	switch b := strings.ToLower(*bot); b {
	case "all":
		o.bots = battleship.Names()
	case "a", "b", "c", "d", "e":
		o.bots = []string{strings.ToUpper(b)}
	default:
		return o, usagef("-bot %s: want a, b, c, d, e or all", quote(*bot))
	}
	if o.games < 1 {
		return o, usagef("-games %d: want at least 1", o.games)
	}
	if o.watch && o.games > 1 {
		return o, usagef("-watch plays one game per bot; drop -games")
	}
	cols, rows, err := parseSize(*size)
	if err != nil {
		return o, usage(err)
	}
	lengths, err := parseFleet(*fleet)
	if err != nil {
		return o, usage(err)
	}
	o.cfg = battleship.Config{Cols: cols, Rows: rows, Fleet: lengths}
	if err := o.cfg.Check(); err != nil {
		return o, usage(err)
	}
	return o, nil
}

// parseSize reads the -size flag, "COLSxROWS", for example "10x10".
func parseSize(s string) (cols, rows int, err error) {
	a, b, ok := strings.Cut(strings.ToLower(s), "x")
	if ok {
		cols, err = strconv.Atoi(a)
		if err == nil {
			rows, err = strconv.Atoi(b)
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("-size %s: want COLSxROWS, for example 10x10", quote(s))
	}
	return cols, rows, nil
}

// parseFleet reads the -fleet flag, ship lengths written "5,4,3,3,2".
func parseFleet(s string) ([]int, error) {
	if n := strings.Count(s, ",") + 1; n > battleship.MaxShips {
		return nil, fmt.Errorf("-fleet: %d ships, more than the limit of %d", n, battleship.MaxShips)
	}
	var fleet []int
	for i, f := range strings.Split(s, ",") {
		l, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("-fleet: item %d (%s) is not a whole number", i+1, quote(f))
		}
		fleet = append(fleet, l)
	}
	return fleet, nil
}

// run is the command, with its streams; it returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	switch {
	case err != nil:
	case o.replay != "":
		err = replayFile(o.replay, o.html, stdout)
	case o.serve != "":
		err = serve(o, stdout, stderr)
	case o.games == 1:
		err = playOne(o, stdout)
	default:
		err = playMany(o, stdout, stderr)
	}
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0 // the flag package printed the usage
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, message(err))
		return 2
	default:
		fmt.Fprintln(stderr, message(err))
		return 1
	}
}

// message formats err for the terminal, with one "battleship: " prefix.
func message(err error) string {
	return "battleship: " + strings.TrimPrefix(err.Error(), "battleship: ")
}

// playOne plays one game per bot on the same board. It checks the setup
// (the fleet's placement, and -undo against each game's length) before it
// prints anything or creates a file.
func playOne(o options, w io.Writer) error {
	boardSeed, botSeed := battleship.GameSeeds(o.seed, 0)
	setups := make([]setup, len(o.bots))
	for i, name := range o.bots {
		setups[i] = setup{Config: o.cfg, bot: name, boardSeed: boardSeed, botSeed: botSeed}
		g, err := newGame(setups[i])
		if err != nil {
			return usage(err)
		}
		if o.undo > 0 {
			if err := g.Play(); err != nil {
				return err
			}
			if n := len(g.Turns()); o.undo > n {
				return usagef("-undo %d: bot %s's game has only %d turns", o.undo, name, n)
			}
		}
	}
	var rec, page *outputFile
	var err error
	if o.record != "" {
		if rec, err = createOutput(o.record, "-record"); err != nil {
			return usage(err)
		}
		defer rec.abort()
	}
	var records bytes.Buffer // the games, for -html
	if o.html != "" {
		if page, err = createOutput(o.html, "-html"); err != nil {
			return usage(err)
		}
		defer page.abort()
	}
	for _, s := range setups {
		g, err := newGame(s)
		if err != nil {
			return err
		}
		if err := playWatched(g, o, w); err != nil {
			return err
		}
		if rec != nil {
			if err := writeRecord(rec.f, s, g); err != nil {
				return wrap(err, "-record")
			}
		}
		if page != nil {
			if err := writeRecord(&records, s, g); err != nil {
				return wrap(err, "-html")
			}
		}
		ticks := 0
		for _, t := range g.Turns() {
			ticks += len(t.Ticks)
		}
		fmt.Fprint(w, g.View().Render())
		fmt.Fprintf(w, "shots: %d\n", g.Shots())
		fmt.Fprintf(w, "bot %s sank %d ships in %d shots on %d cells (%.0f%% of the board), %d tree ticks\n\n",
			s.bot, len(o.cfg.Fleet), g.Shots(), o.cfg.Cells(),
			100*float64(g.Shots())/float64(o.cfg.Cells()), ticks)
	}
	if page != nil {
		if err := writeViewer(page, &records); err != nil {
			return err
		}
	}
	if rec != nil {
		return rec.commit()
	}
	return nil
}

// writeViewer writes the HTML replay viewer of the games recorded in
// records to page, and puts it in place.
func writeViewer(page *outputFile, records io.Reader) error {
	games, err := replay.Read(records)
	if err != nil {
		return wrap(err, "-html")
	}
	if err := replay.Write(page.f, games); err != nil {
		return wrap(err, "-html")
	}
	return page.commit()
}

// playWatched plays g to its end, printing every turn with -watch, and with
// -undo steps it back and plays on.
func playWatched(g *battleship.Game, o options, w io.Writer) error {
	fmt.Fprintf(w, "bot %s\n", g.Bot().Name())
	if err := playOn(g, o, w); err != nil {
		return err
	}
	if o.undo == 0 {
		return nil
	}
	if err := g.Undo(o.undo); err != nil {
		return err // checked in playOne: unreachable
	}
	fmt.Fprintf(w, "undo: %d turns back, to the board after turn %d; the bot is back at %s\n%s\n",
		o.undo, len(g.Turns()), intent(g.Bot()), g.View().Render())
	return playOn(g, o, w)
}

// playOn plays g to its end, printing every turn with -watch.
func playOn(g *battleship.Game, o options, w io.Writer) error {
	for !g.Over() {
		if len(g.Turns()) >= o.cfg.Cells() {
			return fmt.Errorf("bot %s did not sink the fleet in %d shots", g.Bot().Name(), len(g.Turns()))
		}
		turn, err := g.PlayTurn()
		if err != nil {
			return err
		}
		if o.watch {
			fmt.Fprintf(w, "turn %d: %s at %v: %v (tree now at %s; %s)\n%s\n",
				len(g.Turns()), turn.Ticks[len(turn.Ticks)-1].Intent, turn.Shot, turn.Answer,
				intent(g.Bot()), g.Bot().Doing(), besideTree(g.View().Render(), g.Bot()))
		}
	}
	return nil
}

// besideTree returns the board's lines with the bot's tree drawn to their
// right, its running states marked and its focus pointed at.
func besideTree(board string, b battleship.Bot) string {
	var pic bt.Picture
	if st, ok := b.Stepped(); ok {
		pic = st.Picture()
	} else {
		pic = b.Tree().Picture()
	}
	left := strings.Split(strings.TrimRight(board, "\n"), "\n")
	right := strings.Split(strings.TrimRight(pic.String(), "\n"), "\n")
	width := 0
	for _, l := range left {
		width = max(width, utf8.RuneCountInString(l))
	}
	var out strings.Builder
	for i := range max(len(left), len(right)) {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		line := l + strings.Repeat(" ", width-utf8.RuneCountInString(l)+4) + r
		out.WriteString(strings.TrimRight(line, " "))
		out.WriteByte('\n')
	}
	return out.String()
}

// intent says what the bot's tree is at: its current intent, or, for a
// stepped tree that has completed, that it starts over.
func intent(b battleship.Bot) string {
	if in := b.Intent(); in != "" {
		return string(in)
	}
	return "the start"
}

// outputFile is a file being written for a flag (-record, -html, -plot):
// a temporary file in the file's directory, renamed to the file's name by
// commit, or removed by abort, so that a failed run leaves an existing file
// as it was.
type outputFile struct {
	f    *os.File
	path string
	flag string
	done bool
}

// createOutput starts writing path for flag.
func createOutput(path, flag string) (*outputFile, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, wrap(err, "%s", flag)
	}
	if err := f.Chmod(0o644); err != nil { // as os.Create makes it, not CreateTemp's 0600
		f.Close()
		os.Remove(f.Name())
		return nil, wrap(err, "%s", flag)
	}
	return &outputFile{f: f, path: path, flag: flag}, nil
}

// commit closes the file and renames it into place.
func (r *outputFile) commit() error {
	r.done = true
	if err := r.f.Close(); err != nil {
		os.Remove(r.f.Name())
		return wrap(err, "%s", r.flag)
	}
	if err := os.Rename(r.f.Name(), r.path); err != nil {
		os.Remove(r.f.Name())
		return wrap(err, "%s", r.flag)
	}
	return nil
}

// abort removes the temporary file unless it was committed.
func (r *outputFile) abort() {
	if !r.done {
		r.f.Close()
		os.Remove(r.f.Name())
	}
}

// replayFile replays a record file, and with html writes its viewer there.
func replayFile(path, html string, w io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return usage(wrap(err, "-replay"))
	}
	defer f.Close()
	var page *outputFile
	if html != "" {
		if page, err = createOutput(html, "-html"); err != nil {
			return usage(err)
		}
		defer page.abort()
	}
	games, turns, err := replayRecord(f, path, w)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "replayed %d games, %d turns: every recorded turn and tree state matches\n", games, turns)
	if page == nil {
		return nil
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return wrap(err, "-html")
	}
	return writeViewer(page, f)
}

// playMany plays o.games games per bot and prints a table per bot, and
// with -plot draws their histograms.
func playMany(o options, w, stderr io.Writer) error {
	var plot *outputFile
	if o.plot != "" {
		var err error
		if plot, err = createOutput(o.plot, "-plot"); err != nil {
			return usage(err)
		}
		defer plot.abort()
	}
	var series []replay.Series
	for _, name := range o.bots {
		start := time.Now()
		var done atomic.Int64
		stop := progress(stderr, name, o.games, &done)
		t, err := playStats(o, name, &done)
		stop()
		if err != nil {
			return err
		}
		elapsed := time.Since(start)
		s := t.summary()
		fmt.Fprintf(w, "bot %s: %d games on %dx%d, fleet %v, seed %d\n", name, s.games, o.cfg.Cols, o.cfg.Rows, o.cfg.Fleet, o.seed)
		fmt.Fprintf(w, "  %-8s %-8s %-8s %-8s %s\n", "mean", "median", "p90", "max", "games/s")
		fmt.Fprintf(w, "  %-8.2f %-8d %-8d %-8d %.0f\n\n", s.mean, s.median, s.p90, s.max, float64(s.games)/elapsed.Seconds())
		series = append(series, replay.Series{Name: "bot " + name, Counts: t.counts})
	}
	if plot == nil {
		return nil
	}
	if err := replay.WriteShotHistogram(plot.f, "shots per game", series); err != nil {
		return wrap(err, "-plot")
	}
	return plot.commit()
}

// playRange plays a stretch of a run's games: battleship.PlayRange, or a
// test's stand-in.
var playRange = battleship.PlayRange

// statsChunk is the number of games played at a time for -games N, whose
// shot counts are held at once.
const statsChunk = 1 << 16

// playStats plays o.games games of bot name, statsChunk at a time, storing
// the number done in done, and returns the tally of their shot counts:
// its memory does not grow with the number of games.
func playStats(o options, name string, done *atomic.Int64) (*tally, error) {
	t := new(tally)
	for from := 0; from < o.games; {
		n := min(o.games-from, statsChunk)
		base := from
		shots, err := playRange(o.cfg, name, o.seed, from, n, 0, func(d int) { done.Store(int64(base + d)) })
		if err != nil {
			return nil, err
		}
		t.add(shots)
		from += n
	}
	return t, nil
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
			share := float64(d) / float64(total) // d*width would overflow for the largest -games
			filled := int(share * width)
			bar := strings.Repeat("#", filled) + strings.Repeat(" ", width-filled)
			fmt.Fprintf(f, "\rbot %s [%s] %3d%% %d/%d games", name, bar, int(share*100), d, total)
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
