package browsertest

import (
	"fmt"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/battleship"
	"github.com/zipbt/behaviortree/battleship/replay"
	"github.com/zipbt/behaviortree/viewer"
)

// navigate loads url and waits until the page is ready.
func (b *browser) navigate(t *testing.T, url string) {
	t.Helper()
	if err := chromedp.Run(b.ctx,
		chromedp.Navigate(url),
		chromedp.WaitReady(`body[data-ready="1"]`, chromedp.ByQuery),
	); err != nil {
		t.Fatalf("opening %s: %v", url, err)
	}
}

// press sends key presses to the page.
func (b *browser) press(t *testing.T, keys string) {
	t.Helper()
	if err := chromedp.Run(b.ctx, chromedp.KeyEvent(keys)); err != nil {
		t.Fatal(err)
	}
}

// letters returns the states as the page's data-s letters.
func letters(states []bt.State) string {
	b := make([]byte, len(states))
	for i, s := range states {
		b[i] = viewer.Letter(s)
	}
	return string(b)
}

// botShows returns the node states and focus the monitor must show for
// bot b's version.
func botShows(b battleship.Bot) (string, []int) {
	if st, ok := b.Stepped(); ok {
		var states []bt.State
		focus := []int{}
		for i, nd := range st.Picture().Nodes {
			states = append(states, nd.State)
			if nd.Focus {
				focus = append(focus, i)
			}
		}
		return letters(states), focus
	}
	states, f := b.Tree().NodeStates(nil), b.Tree().FocusIndex()
	return letters(states), []int{f}
}

// monitorShown is what the monitor's page shows, read from the DOM.
type monitorShown struct {
	Num    int    `json:"num"`
	States string `json:"states"`
	Focus  []int  `json:"focus"`
	Live   string `json:"live"`
	Pos    string `json:"pos"`
}

const readMonitor = `(function () {
	var nodes = document.querySelectorAll("#tree .nd"), s = "", f = [], i;
	for (i = 0; i < nodes.length; i++) {
		s += nodes[i].getAttribute("data-s");
		if (nodes[i].classList.contains("focus")) { f.push(Number(nodes[i].getAttribute("data-i"))); }
	}
	return {num: btMonitor.num(), states: s, focus: f, live: document.getElementById("live").textContent, pos: document.getElementById("pos").textContent};
})()`

// checkShows checks that the page shows version num of a bot, b.
func checkShows(t *testing.T, b *browser, what string, num int, bot battleship.Bot) monitorShown {
	t.Helper()
	var got monitorShown
	b.eval(t, readMonitor, &got)
	states, focus := botShows(bot)
	if got.Num != num || got.States != states || fmt.Sprint(got.Focus) != fmt.Sprint(focus) {
		t.Errorf("%s: the page shows version %d, states %s, focus %v; want version %d, states %s, focus %v", what, got.Num, got.States, got.Focus, num, states, focus)
	}
	return got
}

// TestMonitorFollowsAGame follows live battleship games in the monitor:
// the test plays bot D's game turn by turn and publishes each version,
// and the page shows each one as it comes; scrubbed back, it stays on the
// version chosen while new ones arrive, and End follows again. Then it
// follows bot E, on the stepped engine, and checks that the page keeps a
// bounded window of versions. Names are text.
func TestMonitorFollowsAGame(t *testing.T) {
	b := startBrowser(t)
	const keep = 16
	m := viewer.NewMonitor(viewer.MonitorOptions{Title: "battleship live", Keep: keep})
	cfg := battleship.Config{Cols: 10, Rows: 10, Fleet: []int{5, 4, 3, 3, 2}}
	boardSeed, botSeed := battleship.GameSeeds(7, 0)
	game := func(name string) *battleship.Game {
		board, err := battleship.NewBoard(cfg, boardSeed)
		if err != nil {
			t.Fatal(err)
		}
		bot, err := battleship.NewBot(name, botSeed)
		if err != nil {
			t.Fatal(err)
		}
		return battleship.NewGame(board, bot)
	}
	gd, ge := game("D"), game("E")
	feedD := viewer.NewTreeFeed[battleship.Intent](m, "bot D")
	feedE := viewer.NewSteppedFeed[battleship.Intent](m, "bot E")
	hostile := `</script><img src=x onerror="alert(1)"> 'q' ` + "\u2028 \xff"
	viewer.NewTreeFeed[string](m, hostile).Publish(bt.Start(bt.Sequence(bt.Leaf(hostile), bt.Leaf("b"))))
	srv := httptest.NewServer(m)
	t.Cleanup(func() {
		srv.CloseClientConnections() // the page's event stream
		srv.Close()
	})

	// Bot C before the page opens: the start and three turns.
	var botsD []battleship.Bot
	publishD := func() {
		var bot battleship.Bot
		if len(botsD) == 0 {
			bot = gd.Bot()
		} else {
			turn, err := gd.PlayTurn()
			if err != nil {
				t.Fatal(err)
			}
			bot = turn.Bot
		}
		botsD = append(botsD, bot)
		feedD.Publish(bot.Tree())
	}
	for i := 0; i < 4; i++ {
		publishD()
	}
	b.navigate(t, srv.URL+"/")
	b.waitFor(t, "the page to follow bot D", `btMonitor.tree() === 0 && btMonitor.num() === 3`)
	checkShows(t, b, "on load", 3, botsD[3])
	var names []string
	b.eval(t, `btMonitor.trees()`, &names)
	if len(names) != 3 || names[0] != "bot D" || names[2] != strings.ToValidUTF8(hostile, "\ufffd") {
		t.Errorf("the page lists %q", names)
	}
	var imgs int
	b.eval(t, `document.querySelectorAll("img").length`, &imgs)
	if imgs != 0 {
		t.Errorf("a tree's name made %d img elements", imgs)
	}

	// Live: every version, as it is published.
	for k := 4; k <= 12; k++ {
		publishD()
		b.waitFor(t, fmt.Sprintf("version %d", k), fmt.Sprintf(`btMonitor.num() === %d`, k))
		got := checkShows(t, b, fmt.Sprintf("live at version %d", k), k, botsD[k])
		if !strings.Contains(got.Live, "live") {
			t.Errorf("version %d: the live mark says %q", k, got.Live)
		}
	}

	// The scrubber goes back; new versions do not move the page.
	b.eval(t, `(function () { var r = document.getElementById("scrub"); r.value = 5; r.dispatchEvent(new Event("input")); })()`, nil)
	checkShows(t, b, "scrubbed back to version 5", 5, botsD[5])
	publishD()
	publishD()
	b.waitFor(t, "version 14 to arrive", `btMonitor.last() === 14`)
	got := checkShows(t, b, "scrubbed back, two versions later", 5, botsD[5])
	if !strings.Contains(got.Live, "paused, 9 behind") {
		t.Errorf("scrubbed back: the live mark says %q, want paused, 9 behind", got.Live)
	}
	b.press(t, kb.ArrowLeft)
	checkShows(t, b, "ArrowLeft", 4, botsD[4])
	b.press(t, kb.End)
	checkShows(t, b, "End", 14, botsD[14])
	publishD()
	b.waitFor(t, "following again, version 15", `btMonitor.num() === 15`)
	checkShows(t, b, "following again", 15, botsD[15])

	// The screenshot for the README: bot D hunting, its memory beside.
	for len(botsD) < 30 && !gd.Over() {
		publishD()
	}
	last := len(botsD) - 1
	b.waitFor(t, "the screenshot's version", fmt.Sprintf(`btMonitor.num() === %d`, last))
	if err := chromedp.Run(b.ctx, chromedp.EmulateViewport(1600, 900)); err != nil {
		t.Fatal(err)
	}
	b.screenshot(t, "monitor.png")
	if err := chromedp.Run(b.ctx, chromedp.EmulateViewport(1400, 1000)); err != nil {
		t.Fatal(err)
	}

	// Bot E, stepped: chosen in the list, then live, then past the kept
	// window: the page keeps a bounded window, its versions the last ones.
	b.eval(t, `(function () { var s = document.getElementById("replay"); s.value = 1; s.dispatchEvent(new Event("change")); })()`, nil)
	var botsE []battleship.Bot
	publishE := func() {
		var bot battleship.Bot
		if len(botsE) == 0 {
			bot = ge.Bot()
		} else {
			turn, err := ge.PlayTurn()
			if err != nil {
				t.Fatal(err)
			}
			bot = turn.Bot
		}
		botsE = append(botsE, bot)
		v, _ := bot.Stepped()
		feedE.Publish(v)
	}
	b.waitFor(t, "bot E, no versions yet", `btMonitor.tree() === 1 && document.getElementById("pos").textContent === "no versions yet"`)
	for k := 0; k <= 3; k++ {
		publishE()
		b.waitFor(t, fmt.Sprintf("bot E's version %d", k), fmt.Sprintf(`btMonitor.num() === %d`, k))
		checkShows(t, b, fmt.Sprintf("bot E live at version %d", k), k, botsE[k])
	}
	for !ge.Over() {
		publishE()
	}
	last = len(botsE) - 1
	if last < 2*keep {
		t.Fatalf("bot E's game has %d turns, too few to pass the %d kept", last, keep)
	}
	b.waitFor(t, "bot E's last version", fmt.Sprintf(`btMonitor.num() === %d`, last))
	checkShows(t, b, "bot E's last version", last, botsE[last])
	var window struct {
		Steps int `json:"steps"`
		First int `json:"first"`
	}
	b.eval(t, `(function () { btMonitor.go(0); var r = {steps: btMonitor.steps(), first: btMonitor.num()}; btMonitor.go(btMonitor.steps() - 1); return r; })()`, &window)
	if window.Steps > keep+max(16, keep/4) || window.Steps < keep || window.First != last-window.Steps+1 {
		t.Errorf("the page keeps %d versions from %d, want from %d to %d versions ending at %d", window.Steps, window.First, keep, keep+max(16, keep/4), last)
	}
	checkShows(t, b, "bot E, back at the last version", last, botsE[last])
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestStaticViewerReading checks what the static page has for reading a
// big tree: #step=17 in the URL, read on load and kept as the user moves;
// collapsing a subtree (its focus then marked on the collapsed node);
// searching by name; a layout that puts the panels beside the tree on a
// wide screen.
func TestStaticViewerReading(t *testing.T) {
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
	path, _ := writePage(t, "game.html", func(f *os.File) error { return replay.Write(f, games) })

	// #step=17, read on load; moves write the fragment.
	b.navigate(t, "file://"+path+"#step=17")
	var s shown
	b.eval(t, readShown, &s)
	if s.Step != 17 || !strings.HasPrefix(s.Pos, "step 17 /") {
		t.Errorf("opened at #step=17, the page shows step %d (%q)", s.Step, s.Pos)
	}
	b.keys(t, kb.ArrowRight)
	b.waitFor(t, "the fragment to follow the step", `location.hash === "#step=18"`)
	b.keys(t, kb.ArrowRight, input.ModifierShift)
	b.waitFor(t, "the fragment to follow the step", `location.hash === "#step=28"`)
	b.navigate(t, "file://"+path+"#replay=3&step=17")
	// The same document: the fragment's change moves it.
	b.waitFor(t, "replay 3 at step 17", `document.getElementById("replay").value === "3" && btViewer.step() === 17`)
	b.screenshot(t, "viewer-wide.png")

	// Collapse: the subtree of the focus's parent hides; the collapsed
	// node carries the focus mark; expanding shows it again.
	var focus []int
	b.eval(t, `btViewer.focus()`, &focus)
	if len(focus) != 1 {
		t.Fatalf("focus %v", focus)
	}
	var parent int
	b.eval(t, fmt.Sprintf(`(function () { var p = -1, i = %d; document.querySelectorAll("#tree .nd").forEach(function () {}); return JSON.parse(document.getElementById("bt-data").textContent).replays[3].nodes[i][0]; })()`, focus[0]), &parent)
	type rowState struct {
		Shown     int    `json:"shown"`
		Hidden    bool   `json:"hidden"`
		HidFocus  bool   `json:"hidfocus"`
		More      string `json:"more"`
		TreeTotal int    `json:"total"`
	}
	read := fmt.Sprintf(`(function () {
		var all = document.querySelectorAll("#tree .nd"), n = 0;
		all.forEach(function (e) { if (e.getAttribute("display") !== "none" && e.getBoundingClientRect().height > 0) { n++; } });
		var f = document.querySelector('#tree .nd[data-i="%d"]'), p = document.querySelector('#tree .nd[data-i="%d"]');
		return {shown: n, hidden: f.getBoundingClientRect().height === 0, hidfocus: p.classList.contains("hidfocus"), more: p.querySelector(".more").textContent, total: all.length};
	})()`, focus[0], parent)
	var before, after, again rowState
	b.eval(t, read, &before)
	if err := chromedp.Run(b.ctx, chromedp.Click(fmt.Sprintf(`#tree .nd[data-i="%d"] .tg`, parent), chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.eval(t, read, &after)
	if before.Shown != before.TreeTotal || before.Hidden || before.HidFocus {
		t.Errorf("before collapsing: %+v", before)
	}
	if !after.Hidden || !after.HidFocus || after.Shown >= before.Shown || after.More != fmt.Sprintf("(+%d hidden)", before.Shown-after.Shown) {
		t.Errorf("after collapsing node %d, the focus's parent: %+v (before %+v)", parent, after, before)
	}
	// Moving on keeps the subtree collapsed, and recolours it.
	b.keys(t, kb.ArrowRight)
	var cur shown
	b.eval(t, readShown, &cur)
	if cur.Step != 18 {
		t.Errorf("after collapsing, ArrowRight shows step %d", cur.Step)
	}
	b.screenshot(t, "viewer-collapsed.png")
	if err := chromedp.Run(b.ctx, chromedp.Click(fmt.Sprintf(`#tree .nd[data-i="%d"] .tg`, parent), chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.eval(t, read, &again)
	if again.Shown != before.Shown || again.More != "" {
		t.Errorf("after expanding again: %+v, want %+v", again, before)
	}

	// Search: collapse everything, then search a leaf: it is found, marked
	// and shown (its ancestors opened), the others dimmed.
	b.eval(t, `document.getElementById("collapseall").click()`, nil)
	var leaf string
	b.eval(t, `(function () { var n = JSON.parse(document.getElementById("bt-data").textContent).replays[3].nodes; return n[n.length - 1][3]; })()`, &leaf)
	if err := chromedp.Run(b.ctx, chromedp.Click("#search", chromedp.ByQuery), chromedp.SendKeys("#search", leaf, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var found struct {
		Text    string `json:"text"`
		Matches int    `json:"matches"`
		Shown   bool   `json:"shown"`
		Dimmed  string `json:"dimmed"`
	}
	b.eval(t, `(function () {
		var m = document.querySelectorAll("#tree .nd.match"), other = document.querySelector("#tree .nd:not(.match)");
		return {text: document.getElementById("found").textContent, matches: m.length, shown: m.length > 0 && m[m.length - 1].getBoundingClientRect().height > 0, dimmed: getComputedStyle(other).opacity};
	})()`, &found)
	if found.Matches < 1 || found.Text != fmt.Sprintf("%d match", found.Matches)+map[bool]string{true: "", false: "es"}[found.Matches == 1] || !found.Shown || found.Dimmed != "0.45" {
		t.Errorf("searching %q: %+v", leaf, found)
	}
	b.eval(t, `btViewer.search("")`, nil)

	// A wide screen: the panels beside the tree, side by side.
	if err := chromedp.Run(b.ctx, chromedp.EmulateViewport(1920, 1000)); err != nil {
		t.Fatal(err)
	}
	var wide struct {
		Beside bool `json:"beside"`
		Panels bool `json:"panels"`
	}
	b.eval(t, `(function () {
		var tree = document.getElementById("treebox").getBoundingClientRect(), side = document.getElementById("side").getBoundingClientRect();
		var ev = document.getElementById("eventsbox").getBoundingClientRect(), board = document.getElementById("boardbox").getBoundingClientRect();
		return {beside: side.left >= tree.right, panels: ev.left >= board.right};
	})()`, &wide)
	if !wide.Beside || !wide.Panels {
		t.Errorf("at 1920 pixels wide: %+v, want the panels beside the tree and the events beside the board", wide)
	}
	b.screenshot(t, "viewer-1920.png")
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
