package browsertest

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/battleship/replay"
	"github.com/zipbt/behaviortree/memory"
	"github.com/zipbt/behaviortree/viewer"
)

// chromiumPath returns the browser to drive, or "".
func chromiumPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// noBrowser skips the test, or fails it when CI=true.
func noBrowser(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true but Chromium cannot be started: %s (install Debian's chromium package)", why)
	}
	t.Skipf("skipping the browser test: Chromium cannot be started: %s (Debian: apt-get install chromium; or set CHROMIUM)", why)
}

// chrome is the one headless Chromium of the test binary, with a fresh
// profile: the first test that needs it starts it, and TestMain ends it,
// after the tests, and removes its profile. Each test has a tab of its own.
var chrome struct {
	once sync.Once
	ctx  context.Context // the first tab's, whose allocation owns the process
	err  error           // why it could not be started
	stop func() error    // ends the browser and removes its profile
}

func TestMain(m *testing.M) {
	code := m.Run()
	if chrome.stop != nil {
		if err := chrome.stop(); err != nil {
			fmt.Fprintln(os.Stderr, "browsertest:", err)
			if code == 0 {
				code = 1
			}
		}
	}
	os.Exit(code)
}

// launch starts the browser at path, into chrome.
func launch(path string) {
	prof, err := newProfile()
	if err != nil {
		chrome.err = err
		return
	}
	var cmd *exec.Cmd // the browser's main process, once started
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.UserDataDir(prof.dir),
		chromedp.WindowSize(1400, 1000),
		chromedp.ModifyCmdFunc(func(c *exec.Cmd) { ownGroup(c); cmd = c }),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx, chromedp.WithErrorf(quietErrorf))
	chrome.stop = func() error {
		// Close the browser gracefully (it flushes its profile), then
		// end whatever of it is left, and only then remove the profile.
		closeCtx, cancelClose := context.WithTimeout(ctx, 20*time.Second)
		_ = chromedp.Cancel(closeCtx)
		cancelClose()
		cancelC()
		cancelA() // waits for the main browser process to exit
		pgid := 0
		if cmd != nil && cmd.Process != nil {
			pgid = cmd.Process.Pid
		}
		return prof.remove(pgid)
	}
	// The first Run starts the browser, bound to the context it is given:
	// a context with a timeout would end the browser with it.
	if err := chromedp.Run(ctx); err != nil {
		chrome.err = fmt.Errorf("%s: %w", path, err)
		return
	}
	chrome.ctx = ctx
}

// quietErrorf logs chromedp's errors, except those about events it cannot
// decode: the Debian Chromium is newer than the protocol types chromedp
// knows, and sends values (such as the IPAddressSpace "Loopback" of pages
// served over HTTP) that chromedp does not use anyway.
func quietErrorf(format string, args ...any) {
	if strings.HasPrefix(format, "could not unmarshal event") {
		return
	}
	log.Printf("ERROR: "+format, args...)
}

// browser is a tab of the test binary's Chromium, and the console errors
// and exceptions of its pages.
type browser struct {
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// startBrowser returns a new tab, which closes when the test ends.
func startBrowser(t *testing.T) *browser {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		noBrowser(t, "no chromium binary found")
	}
	chrome.once.Do(func() { launch(path) })
	if chrome.err != nil {
		noBrowser(t, chrome.err.Error())
	}
	ctx, cancelTab := chromedp.NewContext(chrome.ctx)
	ctx, cancelT := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(func() {
		_ = chromedp.Cancel(ctx) // closes the tab
		cancelT()
		cancelTab()
	})
	b := &browser{ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
				var args []string
				for _, a := range ev.Args {
					args = append(args, string(a.Value)+a.Description)
				}
				b.errors = append(b.errors, "console."+string(ev.Type)+": "+strings.Join(args, " "))
			}
		case *runtime.EventExceptionThrown:
			b.errors = append(b.errors, "exception: "+ev.ExceptionDetails.Error())
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError {
				b.errors = append(b.errors, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	})
	if err := chromedp.Run(ctx, cdplog.Enable()); err != nil {
		noBrowser(t, fmt.Sprintf("%s: %v", path, err))
	}
	return b
}

// consoleErrors returns the errors seen so far.
func (b *browser) consoleErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.errors...)
}

// waitFor waits until the JavaScript expression cond is true, however
// slow the machine is; what describes it in the failure, which quotes the
// start of the page's text and its console errors.
func (b *browser) waitFor(t *testing.T, what, cond string) {
	t.Helper()
	if err := chromedp.Run(b.ctx, chromedp.Poll(cond, nil, chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(time.Minute))); err != nil {
		var text string
		_ = chromedp.Run(b.ctx, chromedp.Evaluate(`(document.body ? document.body.innerText : "").slice(0, 300)`, &text))
		t.Fatalf("waiting for %s (%s): %v; the page shows %q; console errors %q", what, cond, err, text, b.consoleErrors())
	}
}

// open loads the page file and waits until the viewer is ready; it
// returns the time from navigation to ready.
func (b *browser) open(t *testing.T, file string) time.Duration {
	t.Helper()
	start := time.Now()
	if err := chromedp.Run(b.ctx,
		chromedp.Navigate("file://"+file),
		chromedp.WaitReady(`body[data-ready="1"]`, chromedp.ByQuery),
	); err != nil {
		t.Fatalf("opening %s: %v", file, err)
	}
	return time.Since(start)
}

// eval evaluates a JavaScript expression into out.
func (b *browser) eval(t *testing.T, js string, out any) {
	t.Helper()
	if err := chromedp.Run(b.ctx, chromedp.Evaluate(js, out)); err != nil {
		t.Fatalf("evaluating %s: %v", js, err)
	}
}

// shown is what the page shows: its step, the states of its tree's nodes
// (read from the DOM), the nodes marked as the focus, and the step
// counter's text.
type shown struct {
	Step   int    `json:"step"`
	States string `json:"states"`
	Focus  []int  `json:"focus"`
	Pos    string `json:"pos"`
	Fill   string `json:"fill"` // the computed fill of the first focus's box
}

const readShown = `(function () {
	var nodes = document.querySelectorAll("#tree .nd"), s = "", f = [], i;
	for (i = 0; i < nodes.length; i++) {
		s += nodes[i].getAttribute("data-s");
		if (nodes[i].classList.contains("focus")) { f.push(Number(nodes[i].getAttribute("data-i"))); }
	}
	var fill = f.length ? getComputedStyle(nodes[f[0]].querySelector("rect")).fill : "";
	return {step: btViewer.step(), states: s, focus: f, pos: document.getElementById("pos").textContent, fill: fill};
})()`

// scrub moves the page's scrubber to step k, as a user dragging it does.
func (b *browser) scrub(t *testing.T, k int) shown {
	t.Helper()
	var s shown
	b.eval(t, fmt.Sprintf(`(function () { var r = document.getElementById("scrub"); r.value = %d; r.dispatchEvent(new Event("input")); })()`, k), nil)
	b.eval(t, readShown, &s)
	return s
}

// keys sends key presses to the page and returns what it shows then.
func (b *browser) keys(t *testing.T, keys string, mods ...input.Modifier) shown {
	t.Helper()
	var opts []chromedp.KeyOption
	if len(mods) > 0 {
		opts = append(opts, chromedp.KeyModifiers(mods...))
	}
	if err := chromedp.Run(b.ctx, chromedp.KeyEvent(keys, opts...)); err != nil {
		t.Fatal(err)
	}
	var s shown
	b.eval(t, readShown, &s)
	return s
}

// artifacts returns the directory for screenshots.
func artifacts(t *testing.T) string {
	dir := os.Getenv("BT_ARTIFACTS")
	if dir == "" {
		dir = "artifacts"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// screenshot saves a PNG of the page.
func (b *browser) screenshot(t *testing.T, name string) {
	t.Helper()
	var png []byte
	if err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot(&png)); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
		t.Fatalf("screenshot %s is not a PNG", name)
	}
	path := filepath.Join(artifacts(t), name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s (%d bytes)", path, len(png))
}

// expected is what the page must show at each step of a History: the
// states of version k as letters, and its focus.
type expected struct {
	states []string
	focus  []int
}

func expect(h bt.History[bt.Tree[string]]) expected {
	var e expected
	var buf []bt.State
	for v := range h.All() {
		buf = v.NodeStates(buf)
		f := v.FocusIndex()
		b := make([]byte, len(buf))
		for i, s := range buf {
			b[i] = viewer.Letter(s)
		}
		e.states = append(e.states, string(b))
		e.focus = append(e.focus, f)
	}
	return e
}

// check checks that the page shows step k of e.
func (e expected) check(t *testing.T, what string, got shown, k int) {
	t.Helper()
	if got.Step != k || got.States != e.states[k] || len(got.Focus) != 1 || got.Focus[0] != e.focus[k] {
		t.Errorf("%s: the page shows step %d, states %s, focus %v; want step %d, states %s, focus [%d]",
			what, got.Step, got.States, got.Focus, k, e.states[k], e.focus[k])
	}
	if want := fmt.Sprintf("step %d / %d", k, len(e.states)-1); got.Pos != want {
		t.Errorf("%s: the counter says %q, want %q", what, got.Pos, want)
	}
}

// undoHistory is a History of the brute-force bot with an undo in it: 40
// signals, 10 undone, then 15 others; the versions after the undo point
// differ from the ones undone.
func undoHistory() (h bt.History[bt.Tree[string]], undoneAt int) {
	def := bt.Sequence(bt.Leaf("top_left"), bt.RepeatUntilFail(bt.Select(bt.Leaf("go_right"), bt.Leaf("beginning_of_next_row"))))
	h = bt.NewHistory(bt.Start(def))
	for i := 0; i < 40; i++ {
		h = h.Push(h.Current().Signal([]bt.Status{bt.Success, bt.Success, bt.Failure}[i%3]))
	}
	for i := 0; i < 10; i++ {
		h = h.Undo()
	}
	undoneAt = h.Pos()
	for i := 0; i < 15; i++ {
		h = h.Push(h.Current().Signal([]bt.Status{bt.Failure, bt.Success}[i%2]))
	}
	return h, undoneAt
}

func writePage(t *testing.T, name string, write func(f *os.File) error) (string, int64) {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := write(f); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, fi.Size()
}

func TestHistoryViewer(t *testing.T) {
	b := startBrowser(t)
	h, undoneAt := undoHistory()
	e := expect(h)
	path, size := writePage(t, "history.html", func(f *os.File) error { return viewer.WriteHistory(f, "undo history", h) })
	took := b.open(t, path)
	t.Logf("history of %d steps: %d bytes, ready in %v", h.Len(), size, took)

	var got shown
	b.eval(t, readShown, &got)
	e.check(t, "on load", got, 0)
	last := h.Len() - 1
	for _, k := range []int{0, last / 2, last, undoneAt, undoneAt + 1, undoneAt + 7, 1} {
		e.check(t, fmt.Sprintf("scrubbed to %d", k), b.scrub(t, k), k)
	}
	// The versions after the undo point are the branch's, not the undone ones.
	if e.states[undoneAt+1] == expect(undoneLine()).states[undoneAt+1] {
		t.Fatal("the test's history does not branch at the undo point")
	}
	if got := b.scrub(t, 3); got.Fill != "rgb(255, 229, 153)" {
		t.Errorf("the focus (running) is filled %q, want the running colour", got.Fill)
	}
	var label string
	b.eval(t, `document.getElementById("label").textContent + " | " + document.getElementById("events").textContent`, &label)
	if v := versionAt(h, 3); label != fmt.Sprintf("step 3: %v, now at %v | %v signalled", v.LastSignal(), v.Value(), v.LastSignal()) {
		t.Errorf("step 3 says %q", label)
	}

	e.check(t, "ArrowRight", b.keys(t, kb.ArrowRight), 4)
	e.check(t, "ArrowRight", b.keys(t, kb.ArrowRight), 5)
	e.check(t, "ArrowLeft", b.keys(t, kb.ArrowLeft), 4)
	e.check(t, "Shift+ArrowRight", b.keys(t, kb.ArrowRight, input.ModifierShift), 14)
	e.check(t, "End", b.keys(t, kb.End), last)
	e.check(t, "ArrowRight at the end", b.keys(t, kb.ArrowRight), last)
	e.check(t, "Home", b.keys(t, kb.Home), 0)
	e.check(t, "ArrowLeft at the start", b.keys(t, kb.ArrowLeft), 0)

	// Play until the page has moved on two steps (however slow the machine
	// is), then pause.
	b.eval(t, `document.getElementById("play").click()`, nil)
	if err := chromedp.Run(b.ctx, chromedp.Poll(`btViewer.step() >= 2`, nil, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(time.Minute))); err != nil {
		t.Fatalf("playing: the page did not reach step 2: %v", err)
	}
	b.eval(t, `document.getElementById("play").click()`, nil)
	var at int
	b.eval(t, `btViewer.step()`, &at)
	if at < 2 || at >= last {
		t.Errorf("paused at step %d, want one from 2 to %d", at, last-1)
	}
	time.Sleep(400 * time.Millisecond)
	var later int
	b.eval(t, `btViewer.step()`, &later)
	if later != at {
		t.Errorf("paused at step %d, but the page went on to %d", at, later)
	}
	e.check(t, "after play", b.keys(t, kb.ArrowRight), at+1)

	b.scrub(t, undoneAt+1)
	b.screenshot(t, "history.png")
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// versionAt returns version k of h.
func versionAt(h bt.History[bt.Tree[string]], k int) bt.Tree[string] {
	i := 0
	for v := range h.All() {
		if i == k {
			return v
		}
		i++
	}
	panic("no such version")
}

// undoneLine is the line of undoHistory before its undo: the 40 signals.
func undoneLine() bt.History[bt.Tree[string]] {
	h, _ := undoHistory()
	def := h.Current().Definition()
	u := bt.NewHistory(bt.Start(def))
	for i := 0; i < 40; i++ {
		u = u.Push(u.Current().Signal([]bt.Status{bt.Success, bt.Success, bt.Failure}[i%3]))
	}
	return u
}

// boardShown is the board as the page shows it.
type boardShown struct {
	Misses, Hits, Sunk, Last int
	LastCell                 string
}

const readBoard = `(function () {
	var q = function (s) { return document.querySelectorAll("#board " + s).length; };
	var last = document.querySelector("#board .last");
	return {Misses: q(".m"), Hits: q(".x"), Sunk: q(".k"), Last: q(".last"), LastCell: last ? last.title : ""};
})()`

func TestBattleshipViewer(t *testing.T) {
	b := startBrowser(t)
	f, err := os.Open("../../battleship/replay/testdata/game.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	games, err := replay.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	path, size := writePage(t, "battleship.html", func(f *os.File) error { return replay.Write(f, games) })
	took := b.open(t, path)
	t.Logf("battleship record of %d games: %d bytes, ready in %v", len(games), size, took)

	for gi, g := range games {
		b.eval(t, fmt.Sprintf("btViewer.replay(%d)", gi), nil)
		for _, k := range []int{0, 1, len(g.Turns) / 2, len(g.Turns)} {
			b.scrub(t, k)
			var got boardShown
			b.eval(t, readBoard, &got)
			var want boardShown
			hitShips := map[int]bool{}
			for _, turn := range g.Turns[:k] {
				switch turn.Answer {
				case "miss":
					want.Misses++
				default:
					want.Hits++
					if turn.Answer == "sunk" {
						hitShips[turn.Ship] = true
					}
				}
			}
			for _, turn := range g.Turns[:k] {
				if turn.Answer != "miss" && hitShips[turn.Ship] {
					want.Hits--
					want.Sunk++
				}
			}
			if k > 0 {
				want.Last = 1
				s := g.Turns[k-1].Shot
				want.LastCell = fmt.Sprintf("%c%d", 'A'+s[0], s[1]+1)
			}
			if got != want {
				t.Errorf("game %d step %d: board %+v, want %+v", gi, k, got, want)
			}
		}
		var label string
		b.eval(t, `document.getElementById("label").textContent`, &label)
		if !strings.HasPrefix(label, fmt.Sprintf("turn %d: ", len(g.Turns))) {
			t.Errorf("game %d: last label %q", gi, label)
		}
	}
	// The screenshot for the README: bot D in the middle of its game.
	if err := chromedp.Run(b.ctx, chromedp.EmulateViewport(1200, 1560)); err != nil {
		t.Fatal(err)
	}
	b.eval(t, "btViewer.replay(3)", nil)
	b.scrub(t, 17)
	b.screenshot(t, "battleship.png")
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestViewerSizes measures the pages of a 100-turn game and of a
// 10,000-step History: their sizes, the time the browser takes to load
// them, and the time to show every step in turn and 1,000 random steps.
// The figures are logged, not asserted (beyond sanity bounds).
func TestViewerSizes(t *testing.T) {
	b := startBrowser(t)
	f, err := os.Open("testdata/game100.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	games, err := replay.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(games[0].Turns); n != 100 {
		t.Fatalf("the game has %d turns, want 100", n)
	}
	game, gameSize := writePage(t, "game100.html", func(f *os.File) error { return replay.Write(f, games) })

	def := bt.Sequence(bt.Leaf("top_left"), bt.RepeatUntilFail(bt.Select(bt.Leaf("go_right"), bt.Leaf("beginning_of_next_row"))))
	h := bt.NewHistory(bt.Start(def))
	x := uint64(1)
	for h.Len() < 10_000 {
		x = x*6364136223846793005 + 1442695040888963407
		if x>>62 == 0 {
			h = h.Push(h.Current().Fail())
		} else {
			h = h.Push(h.Current().Succeed())
		}
	}
	hist, histSize := writePage(t, "history10k.html", func(f *os.File) error { return viewer.WriteHistory(f, "10,000 steps", h) })

	for _, c := range []struct {
		name  string
		path  string
		size  int64
		steps int
	}{{"100-turn battleship game", game, gameSize, 101}, {"10,000-step History", hist, histSize, h.Len()}} {
		took := b.open(t, c.path)
		var timing struct {
			Ready float64 `json:"ready"`
			Load  float64 `json:"load"`
			All   float64 `json:"all"`
			Jumps float64 `json:"jumps"`
			Steps int     `json:"steps"`
		}
		b.eval(t, `(function () {
			var nav = performance.getEntriesByType("navigation")[0];
			var t0 = performance.now(), n = btViewer.steps(), k;
			for (k = 0; k < n; k++) { btViewer.go(k); }
			var t1 = performance.now(), x = 7;
			for (k = 0; k < 1000; k++) { x = (x * 1103515245 + 12345) % 2147483648; btViewer.go(x % n); }
			var t2 = performance.now();
			return {ready: nav ? nav.domContentLoadedEventEnd : -1, load: nav ? nav.loadEventEnd : -1, all: t1 - t0, jumps: t2 - t1, steps: n};
		})()`, &timing)
		if timing.Steps != c.steps {
			t.Errorf("%s: the page has %d steps, want %d", c.name, timing.Steps, c.steps)
		}
		t.Logf("%s: %d bytes (%.1f KiB); ready %v after navigating (DOMContentLoaded %.0f ms, load %.0f ms); every step in turn %.0f ms (%.3f ms/step); 1,000 random jumps %.0f ms",
			c.name, c.size, float64(c.size)/1024, took.Round(time.Millisecond), timing.Ready, timing.Load, timing.All, timing.All/float64(timing.Steps), timing.Jumps)
		if c.size > 2<<20 {
			t.Errorf("%s: the page has %d bytes", c.name, c.size)
		}
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// memoryLine is one line of the page's memory panel, as the DOM shows it.
type memoryLine struct {
	Key, Value string
	Changed    bool
}

// readMemory reads the memory panel's lines from the DOM.
const readMemory = `Array.prototype.map.call(document.querySelectorAll("#memory li:not(.empty)"), function (li) {
	return {Key: li.querySelector(".k").textContent, Value: li.querySelector(".v").textContent, Changed: li.classList.contains("changed")};
})`

// TestMemoryPanel checks the memory panel on bot C's game: at the turn of
// a guess that hits, it lists the anchor, highlighted; at the next hit
// narrowing down around it, the anchor is still listed, not highlighted,
// and the last hit is highlighted, and the generator, unused, is not.
// Keys are text: a key written as markup shows as written.
func TestMemoryPanel(t *testing.T) {
	b := startBrowser(t)
	f, err := os.Open("../../battleship/replay/testdata/game.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	games, err := replay.Read(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	g := games[2]
	if g.Bot != "C" {
		t.Fatalf("game 3 is bot %s's, want C's", g.Bot)
	}
	// first is the turn of a guess that hits; then, next is the turn of
	// the first hit narrowing down around it, with no guess between.
	first, next := -1, -1
	for i, turn := range g.Turns {
		if turn.Answer != "hit" || turn.Ticks[len(turn.Ticks)-1].Intent != "random_guess" {
			continue
		}
		for j := i + 1; j < len(g.Turns) && g.Turns[j].Ticks[len(g.Turns[j].Ticks)-1].Intent != "random_guess"; j++ {
			if g.Turns[j].Answer == "hit" {
				first, next = i+1, j+1
				break
			}
		}
		if first > 0 {
			break
		}
	}
	if first < 0 {
		t.Fatal("bot C never hits with a guess, then narrowing down")
	}
	shot := g.Turns[first-1].Shot
	hit := fmt.Sprintf("%c%d", 'A'+shot[0], shot[1]+1)
	path, _ := writePage(t, "memory.html", func(f *os.File) error { return replay.Write(f, games) })
	b.open(t, path)
	b.eval(t, "btViewer.replay(2)", nil)

	find := func(lines []memoryLine, key string) (memoryLine, bool) {
		for _, l := range lines {
			if l.Key == key {
				return l, true
			}
		}
		return memoryLine{}, false
	}
	var lines []memoryLine
	b.scrub(t, first)
	b.eval(t, readMemory, &lines)
	if l, ok := find(lines, "battleship.anchor"); !ok || l.Value != hit || !l.Changed {
		t.Errorf("turn %d, the first hit at %s: memory %+v, want battleship.anchor: %s highlighted", first, hit, lines, hit)
	}
	b.scrub(t, next)
	b.eval(t, readMemory, &lines)
	if l, ok := find(lines, "battleship.anchor"); !ok || l.Value != hit || l.Changed {
		t.Errorf("turn %d: memory %+v, want battleship.anchor: %s not highlighted", next, lines, hit)
	}
	s := g.Turns[next-1].Shot
	if l, ok := find(lines, "battleship.last_hit"); !ok || l.Value != fmt.Sprintf("%c%d", 'A'+s[0], s[1]+1) || !l.Changed {
		t.Errorf("turn %d, a hit narrowing down: memory %+v, want battleship.last_hit highlighted", next, lines)
	}
	if l, ok := find(lines, "battleship.rng"); !ok || l.Changed {
		t.Errorf("turn %d, a shot narrowing down: memory %+v, want battleship.rng not highlighted", next, lines)
	}
	var hidden bool
	b.eval(t, `document.getElementById("memorybox").classList.contains("hidden")`, &hidden)
	if hidden {
		t.Error("the memory panel is hidden")
	}
	b.screenshot(t, "memory.png")

	// A key and a value written as markup show as text.
	def := bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))
	start := bt.Start(def)
	h := bt.NewHistory(start).Push(start.WithMemory(memory.Map{}.Set("<b>key</b>", "<i>value</i>")).Succeed())
	path, _ = writePage(t, "markup.html", func(f *os.File) error { return viewer.WriteHistory(f, "markup", h) })
	b.open(t, path)
	b.scrub(t, 1)
	b.eval(t, readMemory, &lines)
	var tags int
	b.eval(t, `document.querySelectorAll("#memory b, #memory i").length`, &tags)
	if len(lines) != 1 || lines[0] != (memoryLine{"<b>key</b>", `"<i>value</i>"`, true}) || tags != 0 {
		t.Errorf("memory %+v with %d elements made of it, want the key and value as text", lines, tags)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
