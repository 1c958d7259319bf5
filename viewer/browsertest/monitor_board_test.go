package browsertest

import (
	"bufio"
	"fmt"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/viewer"
)

// TestMonitorServeBoard runs `battleship -serve` (built from this
// checkout) and opens its monitor: each bot's board is drawn beside its
// tree, with as many cells shot as the version's turn, every ship sunk at
// the last version; stepped bot E lists each turn's shot and intents as
// events; the page says when the game ended and that the feed closed.
func TestMonitorServeBoard(t *testing.T) {
	b := startBrowser(t)
	bin := filepath.Join(t.TempDir(), "battleship")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/zipbt/behaviortree/battleship/cmd/battleship").CombinedOutput(); err != nil {
		t.Fatalf("building battleship: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "-serve", "127.0.0.1:0", "-delay", "0", "-bot", "all", "-games", "1", "-size", "6x6", "-fleet", "3,2", "-seed", "5")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	lines := bufio.NewScanner(stdout)
	var url string
	shots := map[string]int{}
	gameRE := regexp.MustCompile(`^bot (\w), game 1: sank 2 ships in (\d+) shots$`)
	for lines.Scan() {
		line := lines.Text()
		if strings.HasPrefix(line, "serving ") {
			url = strings.TrimPrefix(line, "serving ")
		}
		if g := gameRE.FindStringSubmatch(line); g != nil {
			n := 0
			fmt.Sscan(g[2], &n)
			shots[g[1]] = n
		}
		if strings.HasPrefix(line, "all games played") {
			break
		}
	}
	if url == "" || shots["E"] == 0 {
		t.Fatalf("the command said where it serves %q, and games %v", url, shots)
	}
	b.navigate(t, url+"#tree=4")
	b.waitFor(t, "bot E's last version", fmt.Sprintf(`btMonitor.tree() === 4 && btMonitor.last() === %d`, shots["E"]))
	var names []string
	b.eval(t, `btMonitor.trees()`, &names)
	if len(names) != 5 || names[4] != "bot E" {
		t.Fatalf("the page lists %q", names)
	}
	type boardShown struct {
		Num    int      `json:"num"`
		Cells  []string `json:"cells"`
		Events []string `json:"events"`
		Box    bool     `json:"box"`
		Ended  string   `json:"ended"`
	}
	read := `({num: btMonitor.num(), cells: btMonitor.board(), events: btMonitor.events(), box: !document.getElementById("boardbox").classList.contains("hidden"), ended: btMonitor.ended()})`
	count := func(cells []string, classes ...string) int {
		n := 0
		for _, c := range cells {
			for _, k := range classes {
				if strings.Fields(c)[0] == k {
					n++
				}
			}
		}
		return n
	}
	// Turn by turn, back from the last version.
	for k := shots["E"]; k >= 0; k-- {
		b.eval(t, fmt.Sprintf(`btMonitor.go(btMonitor.steps() - 1 - %d)`, shots["E"]-k), nil)
		var s boardShown
		b.eval(t, read, &s)
		if s.Num != k || !s.Box || len(s.Cells) != 36 {
			t.Fatalf("version %d: the page shows version %d, its board shown %v with %d cells", k, s.Num, s.Box, len(s.Cells))
		}
		if shot := count(s.Cells, "m", "x", "k"); shot != k {
			t.Errorf("version %d: the board shows %d cells shot, want %d", k, shot, k)
		}
		if last := strings.Count(strings.Join(s.Cells, ","), "last"); last != min(k, 1) {
			t.Errorf("version %d: %d cells marked as the last shot", k, last)
		}
		if k > 0 && (len(s.Events) < 2 || !strings.HasPrefix(s.Events[0], fmt.Sprintf("turn %d: fire at ", k))) {
			t.Errorf("version %d: the events %q, want the turn's shot and intents", k, s.Events)
		}
		if k == shots["E"] && (count(s.Cells, "k") != 5 || count(s.Cells, "ship") != 0) {
			t.Errorf("the last version's board %q, want both ships sunk", s.Cells)
		}
		if k == 0 && count(s.Cells, "ship") != 5 {
			t.Errorf("the start's board %q, want the 5 ship cells drawn", s.Cells)
		}
		if k == shots["E"]-2 {
			b.screenshot(t, "monitor-board.png")
		}
		want := fmt.Sprintf("game over at version %d: game 1: sank 2 ships in %d shots; feed closed", shots["E"], shots["E"])
		if s.Ended != want {
			t.Errorf("version %d: the page says %q, want %q", k, s.Ended, want)
		}
	}

	// Bot A, a Value/Succeed/Fail tree: its own board.
	b.eval(t, `btMonitor.choose(0)`, nil)
	b.waitFor(t, "bot A's last version", fmt.Sprintf(`btMonitor.tree() === 0 && btMonitor.last() === %d`, shots["A"]))
	var s boardShown
	b.eval(t, read, &s)
	if count(s.Cells, "m", "x", "k") != shots["A"] || count(s.Cells, "k") != 5 || !strings.Contains(s.Ended, fmt.Sprintf("sank 2 ships in %d shots", shots["A"])) {
		t.Errorf("bot A's last version: %+v", s)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestMonitorWorldText publishes a world whose text and lines are markup:
// the page shows them as text, and makes no element of them.
func TestMonitorWorldText(t *testing.T) {
	b := startBrowser(t)
	m := viewer.NewMonitor(viewer.MonitorOptions{})
	feed := viewer.NewTreeFeed[string](m, "world")
	srv := httptest.NewServer(m)
	t.Cleanup(func() {
		srv.CloseClientConnections()
		srv.Close()
	})
	hostile := `<img src=x onerror="alert(1)"><script>alert(2)</script>`
	v := bt.Start(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")))
	if err := feed.PublishWith(v, viewer.World{Text: "row 1\n" + hostile, Events: []string{hostile}}); err != nil {
		t.Fatal(err)
	}
	b.navigate(t, srv.URL+"/")
	b.waitFor(t, "the version", `btMonitor.num() === 0`)
	var got struct {
		Text   string   `json:"text"`
		Events []string `json:"events"`
		Imgs   int      `json:"imgs"`
	}
	b.eval(t, `({text: btMonitor.text(), events: btMonitor.events(), imgs: document.querySelectorAll("img, #worldtext script, #events script").length})`, &got)
	if got.Text != "row 1\n"+hostile || len(got.Events) != 1 || got.Events[0] != hostile || got.Imgs != 0 {
		t.Errorf("the page shows %+v, want the text and the line as published, no element made of them", got)
	}
	feed.End(hostile)
	b.waitFor(t, "the end", `btMonitor.ended() !== ""`)
	var ended string
	b.eval(t, `btMonitor.ended()`, &ended)
	if ended != "game over at version 0: "+hostile {
		t.Errorf("the page says %q", ended)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
