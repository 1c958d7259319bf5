package browsertest

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mdsl"
	"github.com/zipbt/behaviortree/mistreevous"
	"github.com/zipbt/behaviortree/viewer"
	"github.com/zipbt/behaviortree/viewer/playground"
)

// playTree is the playground's sample: a guarded attack, else a patrol.
const playTree = `root {
    selector {
        sequence while(EnemyVisible) {
            condition [HasAmmo]
            action [Aim, "left"]
            action [Fire, 2]
        }
        sequence {
            action [Patrol]
            wait [500]
        }
    }
}
`

// parseTree reads MDSL or Mistreevous JSON, as bt play does for trees of
// Mistreevous kinds.
func parseTree(name string, src []byte) (playground.Definition, error) {
	if t := bytes.TrimSpace(src); len(t) > 0 && t[0] == '{' {
		n, err := mistreevous.Parse(src)
		return playground.Definition{Stepped: n}, err
	}
	n, err := mdsl.Parse(name, src)
	return playground.Definition{Stepped: n}, err
}

// writeAtomic writes a file as an editor that saves atomically does: a
// temporary file renamed over it, so that the playground never reads a
// half-written file.
func writeAtomic(path string, data []byte, _ fs.FileInfo) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// startPlayground serves a playground of a file holding src, polled every
// 10ms, and returns its URL and the file.
func startPlayground(t *testing.T, name, src string) (string, string) {
	t.Helper()
	return startPlaygroundWith(t, name, src, parseTree)
}

func startPlaygroundWith(t *testing.T, name, src string, parse func(string, []byte) (playground.Definition, error)) (string, string) {
	t.Helper()
	file := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	s, err := playground.New(playground.Config{
		File: file, Name: name, Addr: ts.Listener.Addr().String(),
		Parse: parse, Write: writeAtomic, Poll: 10 * time.Millisecond,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s
	ts.Start()
	t.Cleanup(func() { s.Close(); ts.Close() }) // Close ends the page's long polls first
	return ts.URL, file
}

// click clicks the element with the id.
func (b *browser) click(t *testing.T, id string) {
	t.Helper()
	b.eval(t, fmt.Sprintf(`(function () { var e = document.getElementById(%q); if (!e || e.disabled) { throw new Error("no enabled #%s"); } e.click(); })()`, id, id), nil)
}

// readTree is what the page draws: each node's state letter, then the
// running tips, as "rrssrri [5]".
const readTree = `(function () {
	var r = document.querySelectorAll("#tree .nd"), s = "", f = [], i;
	for (i = 0; i < r.length; i++) { s += r[i].getAttribute("data-s"); if (r[i].classList.contains("focus")) { f.push(i); } }
	return s + " [" + f.join(" ") + "]";
})()`

// playOracle steps playTree with the library directly, each step with an
// agent that answers each name as the step's map says (a condition once
// per step, as the page asks by default: its later calls in the step get
// the same answer and are not listed), and returns what
// each version draws and, for each step, the names called and the answers
// given, in the order of the calls.
func playOracle(t *testing.T, steps []map[string]string) (drawn []string, calls, answers [][]string) {
	t.Helper()
	def, err := mdsl.Parse("tree.mdsl", []byte(playTree))
	if err != nil {
		t.Fatal(err)
	}
	var step map[string]string
	var called, given []string
	held := map[string]bool{} // the conditions answered in the step
	take := func(c bt.Call) string {
		a, ok := step[c.Name]
		if !ok {
			t.Fatalf("the oracle's step %d calls %s, which its answers do not name", len(drawn)+1, c.Name)
		}
		called, given = append(called, c.Name), append(given, a)
		return a
	}
	agent := bt.Agent[bt.Call]{
		Action: func(c bt.Call) bt.Result {
			return map[string]bt.Result{"success": {Status: bt.Success}, "failure": {Status: bt.Failure}, "running": {Status: bt.Running}}[take(c)]
		},
		Condition: func(c bt.Call) bool {
			if v, ok := held[c.String()]; ok {
				return v
			}
			v := take(c) == "true"
			held[c.String()] = v
			return v
		},
	}
	tree, err := bt.NewStepped(def, agent, bt.WithSeed(0), bt.WithTurnClock(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for _, step = range steps {
		called, given = nil, nil
		clear(held)
		if tree, err = tree.Step(); err != nil {
			t.Fatal(err)
		}
		p := tree.Picture()
		var s strings.Builder
		var f []string
		for i, n := range p.Nodes {
			s.WriteByte(viewer.Letter(n.State))
			if n.Focus {
				f = append(f, fmt.Sprint(i))
			}
		}
		drawn = append(drawn, s.String()+" ["+strings.Join(f, " ")+"]")
		calls, answers = append(calls, called), append(answers, given)
	}
	return drawn, calls, answers
}

// answerStep clicks Step, then each answer as its question shows, checking
// that each question names the call the library makes, and waits for the
// version the step makes.
func (b *browser) answerStep(t *testing.T, version int, calls, answers []string) {
	t.Helper()
	b.click(t, "step")
	for i, a := range answers {
		b.waitFor(t, fmt.Sprintf("question %d of the step to version %d", i, version),
			fmt.Sprintf(`document.getElementById("askbox").getAttribute("data-answers") === "%d"`, i))
		var q string
		b.eval(t, `document.getElementById("question").textContent`, &q)
		if !strings.Contains(q, " "+calls[i]) {
			t.Fatalf("question %d of the step to version %d is %q, want a call of %s", i, version, q, calls[i])
		}
		var asking int
		b.eval(t, `document.querySelectorAll("#tree .nd.asking").length`, &asking)
		if asking != 1 {
			t.Errorf("question %d: %d nodes marked as asked about", i, asking)
		}
		b.click(t, "answer-"+a)
	}
	b.waitFor(t, fmt.Sprintf("version %d", version), fmt.Sprintf(`document.getElementById("askbox").classList.contains("hidden") && document.querySelector("#timeline .tv.current") && document.querySelector("#timeline .tv.current").getAttribute("data-id") === "%d"`, version))
}

func (b *browser) checkTree(t *testing.T, what, want string) {
	t.Helper()
	var got string
	b.eval(t, readTree, &got)
	if got != want {
		t.Errorf("%s: the page draws %s, want %s", what, got, want)
	}
}

// atVersion waits until the page shows version id as current.
func (b *browser) atVersion(t *testing.T, id int) {
	t.Helper()
	b.waitFor(t, fmt.Sprintf("version %d current", id), fmt.Sprintf(`(function () { var c = document.querySelector("#timeline .tv.current"); return c !== null && c.getAttribute("data-id") === "%d"; })()`, id))
}

// TestPlayground steps the sample in the page by clicking answers, undoes,
// redoes, branches, goes back to the other branch, and checks the drawn
// states against the library at each point; then edits the file on disk
// (the page shows the new tree), breaks it (the page shows the error, and
// keeps the tree), and saves a fix from the page's text area.
func TestPlayground(t *testing.T) {
	b := startBrowser(t)
	url, file := startPlayground(t, "bot.mdsl", playTree)
	if err := chromedp.Run(b.ctx, chromedp.EmulateViewport(1500, 900), chromedp.Navigate(url+"/"), chromedp.WaitReady(`body[data-ready="1"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, "the tree", `document.querySelectorAll("#tree .nd").length === 9`)
	b.checkTree(t, "at the start", "iiiiiiiii []")

	s1 := map[string]string{"EnemyVisible": "true", "HasAmmo": "true", "Aim": "success", "Fire": "running"}
	s2 := map[string]string{"EnemyVisible": "true", "Fire": "failure", "Patrol": "running"}
	s2b := map[string]string{"EnemyVisible": "true", "Fire": "success"}
	drawn, calls, ans := playOracle(t, []map[string]string{s1, s2})
	drawnB, callsB, ansB := playOracle(t, []map[string]string{s1, s2b})
	if len(calls[1]) < 2 {
		t.Fatalf("step 2 makes the calls %v: the test wants a step of several", calls[1])
	}
	b.answerStep(t, 1, calls[0], ans[0])
	b.checkTree(t, "version 1", drawn[0])
	b.answerStep(t, 2, calls[1], ans[1])
	b.checkTree(t, "version 2", drawn[1])

	b.click(t, "undo")
	b.atVersion(t, 1)
	b.checkTree(t, "undone to version 1", drawn[0])
	b.click(t, "redo")
	b.atVersion(t, 2)
	b.checkTree(t, "redone to version 2", drawn[1])
	b.click(t, "undo")
	b.atVersion(t, 1)

	// A branch from version 1.
	b.answerStep(t, 3, callsB[1], ansB[1])
	b.checkTree(t, "the branch, version 3", drawnB[1])
	if drawnB[1] == drawn[1] {
		t.Fatal("the branch draws as the other: the test checks nothing")
	}
	var rows []string
	b.eval(t, `Array.prototype.map.call(document.querySelectorAll("#timeline .tv"), function (e) { return e.getAttribute("data-id") + (e.classList.contains("current") ? "*" : "") + "@" + e.style.paddingLeft; })`, &rows)
	if len(rows) != 4 || rows[0] != "0@0.3em" || rows[1] != "1@0.3em" || rows[2] != "2@0.3em" || !strings.HasPrefix(rows[3], "3*@") || rows[3] == "3*@0.3em" {
		t.Errorf("the timeline rows %q, want 0, 1, 2 in a line and 3 current, indented as a branch", rows)
	}
	// The other branch is kept: click it in the timeline.
	b.eval(t, `document.querySelector('#timeline .tv[data-id="2"]').click()`, nil)
	b.atVersion(t, 2)
	b.checkTree(t, "back on the first branch", drawn[1])
	var events string
	b.eval(t, `document.getElementById("events").textContent`, &events)
	if !strings.Contains(events, "action Fire, 2 -> failure") {
		t.Errorf("version 2's events: %q", events)
	}

	// Search and collapse.
	b.eval(t, `(function () { var s = document.getElementById("search"); s.value = "fire"; s.dispatchEvent(new Event("input")); })()`, nil)
	var hits int
	b.eval(t, `document.querySelectorAll("#tree .nd.hit").length`, &hits)
	if hits != 1 {
		t.Errorf("searching fire: %d hits", hits)
	}
	b.eval(t, `document.querySelector('#tree .nd[data-i="2"] .tg').click()`, nil)
	var hidden int
	b.eval(t, `document.querySelectorAll("#tree .nd.hidden").length`, &hidden)
	if hidden != 3 {
		t.Errorf("collapsing node 2 hides %d nodes, want 3", hidden)
	}
	b.eval(t, `(function () { var s = document.getElementById("search"); s.dispatchEvent(new KeyboardEvent("keydown", {key: "Enter"})); })()`, nil)
	b.eval(t, `document.querySelectorAll("#tree .nd.hidden").length`, &hidden)
	if hidden != 0 {
		t.Errorf("going to the match left %d nodes hidden", hidden)
	}
	b.eval(t, `(function () { var s = document.getElementById("search"); s.value = ""; s.dispatchEvent(new Event("input")); })()`, nil)

	// Memory, set from the page, and a question left open: the README's
	// screenshot.
	b.eval(t, `document.getElementById("memkey").value = "target"; document.getElementById("memval").value = '"B7"'`, nil)
	b.click(t, "memset")
	b.atVersion(t, 4)
	b.waitFor(t, "the memory", `document.getElementById("memory").textContent === 'target: "B7"'`)
	b.click(t, "step")
	b.waitFor(t, "a question", `!document.getElementById("askbox").classList.contains("hidden")`)
	b.screenshot(t, "play.png")
	b.click(t, "cancel")
	b.waitFor(t, "the question gone", `document.getElementById("askbox").classList.contains("hidden")`)

	// Zoom and fit: the tree's size changes, and fit makes it fit.
	b.click(t, "zoomin")
	var zoomed string
	b.eval(t, `document.getElementById("tree").style.fontSize`, &zoomed)
	if zoomed != "16.25px" {
		t.Errorf("zoomed in: font size %q, want 16.25px", zoomed)
	}
	b.click(t, "fit")
	var fits bool
	b.eval(t, `(function () { var t = document.getElementById("tree"), box = document.getElementById("treebox"); return t.scrollWidth <= box.clientWidth && t.scrollHeight <= box.clientHeight && t.style.fontSize !== "16.25px"; })()`, &fits)
	if !fits {
		t.Error("fit: the tree does not fit its panel")
	}
	b.click(t, "zoomout")

	// Downloads: the version's saved state, and the replay page.
	b.click(t, "savestate")
	b.waitFor(t, "the saved state's download", `document.getElementById("notice").textContent === "downloaded bot.mdsl.state"`)
	b.click(t, "export")
	b.waitFor(t, "the replay's download", `document.getElementById("notice").textContent === "downloaded bot.mdsl.html"`)
	// Load a saved state through the page's file input: version 2's,
	// fetched with the page's token.
	var tok string
	b.eval(t, `document.querySelector('meta[name="bt-token"]').getAttribute("content")`, &tok)
	req, _ := http.NewRequest("POST", url+"/api/goto", strings.NewReader(`{"id":2}`))
	req.Header.Set("X-BT-Token", tok)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("goto 2: %v %v", resp, err)
	}
	b.atVersion(t, 2)
	req, _ = http.NewRequest("GET", url+"/api/save", nil)
	req.Header.Set("X-BT-Token", tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("save: %v %v", resp, err)
	}
	saved, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	state := filepath.Join(t.TempDir(), "v2.state")
	if err := os.WriteFile(state, saved, 0o644); err != nil {
		t.Fatal(err)
	}
	b.eval(t, `document.querySelector('#timeline .tv[data-id="0"]').click()`, nil)
	b.atVersion(t, 0)
	if err := chromedp.Run(b.ctx, chromedp.SetUploadFiles("#loadstate", []string{state}, chromedp.ByID)); err != nil {
		t.Fatal(err)
	}
	b.atVersion(t, 5)
	b.checkTree(t, "version 2 loaded as 5", drawn[1])
	var label string
	b.eval(t, `document.getElementById("vlabel").textContent`, &label)
	if !strings.HasSuffix(label, "loaded") {
		t.Errorf("the loaded version is labelled %q", label)
	}

	// The file changes on disk: the page draws the new tree, with its text,
	// and says that the timeline restarted.
	var oldLen int
	b.eval(t, `document.querySelectorAll("#timeline .tv").length`, &oldLen)
	edited := strings.Replace(playTree, "action [Patrol]", "action [Patrol]\n            action [LookAround]", 1)
	if err := writeAtomic(file, []byte(edited), nil); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, "the edited tree", `document.querySelectorAll("#tree .nd").length === 10 && document.getElementById("source").value.indexOf("LookAround") >= 0`)
	b.checkTree(t, "the edited tree", "iiiiiiiiii []")
	var n int
	b.eval(t, `document.querySelectorAll("#timeline .tv").length`, &n)
	if n != 1 {
		t.Errorf("the edited tree's timeline has %d versions, want 1", n)
	}
	b.waitFor(t, "the restart said", `document.getElementById("notice").textContent.indexOf("timeline restarted") >= 0 && !document.getElementById("undoedit").classList.contains("hidden")`)

	// An error on disk: shown with bt check's position and caret; the
	// tree stays.
	broken := strings.Replace(edited, "selector {", "flip {", 1)
	if err := writeAtomic(file, []byte(broken), nil); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, "the error", `!document.getElementById("error").classList.contains("hidden")`)
	var msg string
	b.eval(t, `document.getElementById("error").textContent`, &msg)
	if want := "bot.mdsl:3:9: flip takes one child, got 2\n        sequence while(EnemyVisible) {\n        ^"; !strings.HasPrefix(msg, "bot.mdsl:") || !strings.Contains(msg, "flip takes one child, got 2") || !strings.Contains(msg, "\n") {
		t.Errorf("the error shown: %q, want one like %q", msg, want)
	}
	b.eval(t, `document.querySelectorAll("#tree .nd").length`, &n)
	if n != 10 {
		t.Errorf("after the error, the page draws %d nodes, want the 10 of the last valid tree", n)
	}

	// Fix it in the page's text area and save: the first text again, whose
	// timeline comes back.
	b.eval(t, fmt.Sprintf(`(function () { var s = document.getElementById("source"); s.value = %q; s.dispatchEvent(new Event("input")); })()`, playTree), nil)
	b.click(t, "save")
	b.waitFor(t, "the saved tree", `document.querySelectorAll("#tree .nd").length === 9 && document.getElementById("error").classList.contains("hidden")`)
	if got, _ := os.ReadFile(file); string(got) != playTree {
		t.Errorf("the page saved %q", got)
	}
	b.waitFor(t, "the first timeline back", fmt.Sprintf(`document.querySelectorAll("#timeline .tv").length === %d && document.getElementById("notice").textContent.indexOf("timeline is back") >= 0`, oldLen))

	// Undo the edit: the edited text again, with its timeline.
	b.click(t, "undoedit")
	b.waitFor(t, "the edit undone", `document.querySelectorAll("#tree .nd").length === 10 && document.querySelectorAll("#timeline .tv").length === 1`)
	if got, _ := os.ReadFile(file); string(got) != edited {
		t.Errorf("undo the edit wrote %q", got)
	}
	b.click(t, "undoedit")
	b.waitFor(t, "the first tree again", fmt.Sprintf(`document.querySelectorAll("#tree .nd").length === 9 && document.querySelectorAll("#timeline .tv").length === %d`, oldLen))
	b.click(t, "restart")
	b.waitFor(t, "a restarted timeline", `document.querySelectorAll("#timeline .tv").length === 1`)
	b.answerStep(t, 1, calls[0], ans[0])
	b.checkTree(t, "the saved tree, version 1", drawn[0])
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// hostileTree is a Mistreevous JSON tree whose names are markup, quotes,
// line separators and invalid UTF-8.
const hostileTree = "{\"type\":\"root\",\"child\":{\"type\":\"sequence\",\"children\":[" +
	"{\"type\":\"action\",\"call\":\"</script><script>document.title='pwned'</script>\"}," +
	"{\"type\":\"action\",\"call\":\"<img src=x onerror=\\\"document.title='pwned'\\\">\"}," +
	"{\"type\":\"condition\",\"call\":\"q\\\"uote'd\\u2028line\\u2029sep\"}," +
	"{\"type\":\"action\",\"call\":\"bad\xff\xfeutf8\"}]}}"

// TestPlaygroundHostileNames: names from the file show as text; none
// becomes an element or runs.
func TestPlaygroundHostileNames(t *testing.T) {
	b := startBrowser(t)
	url, _ := startPlayground(t, "<img src=x onerror=alert(1)>.json", hostileTree)
	if err := chromedp.Run(b.ctx, chromedp.Navigate(url+"/"), chromedp.WaitReady(`body[data-ready="1"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, "the tree", `document.querySelectorAll("#tree .nd").length === 6`)
	var labels []string
	b.eval(t, `Array.prototype.map.call(document.querySelectorAll("#tree .l"), function (e) { return e.textContent; })`, &labels)
	want := []string{"</script><script>document.title='pwned'</script>", `<img src=x onerror="document.title='pwned'">`, "q\"uote'd\u2028line\u2029sep", "bad\ufffd\ufffdutf8"}
	if fmt.Sprintf("%q", labels) != fmt.Sprintf("%q", want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	b.click(t, "step")
	b.waitFor(t, "the question", `!document.getElementById("askbox").classList.contains("hidden")`)
	var res struct {
		Elements int    `json:"elements"`
		Title    string `json:"title"`
		Name     string `json:"name"`
		Question string `json:"question"`
	}
	b.eval(t, `({elements: document.querySelectorAll("img, #tree *:not(span):not(div), #question *, #name *, #askevents li *").length, title: document.title, name: document.getElementById("name").textContent, question: document.getElementById("question").textContent})`, &res)
	if res.Elements != 0 || res.Title != "<img src=x onerror=alert(1)>.json - bt play" || res.Name != "<img src=x onerror=alert(1)>.json" || !strings.Contains(res.Question, want[0]) {
		t.Errorf("the page: %+v", res)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestPlaygroundElixir plays an Elixir-style tree: each step asks for
// Value()'s outcome, and the page draws what bt.Tree.Picture draws.
func TestPlaygroundElixir(t *testing.T) {
	b := startBrowser(t)
	const src = "root { repeat_until_fail { selector { action [go_right] action [next_row] } } }"
	parse := func(name string, src []byte) (playground.Definition, error) {
		n, err := mdsl.ParseFunc(name, src, func(s string) (string, error) { return s, nil })
		if err == nil && n.Kind() == kind.Root {
			n = n.Child(0)
		}
		return playground.Definition{Elixir: n}, err
	}
	url, _ := startPlaygroundWith(t, "bot.mdsl", src, parse)
	if err := chromedp.Run(b.ctx, chromedp.Navigate(url+"/"), chromedp.WaitReady(`body[data-ready="1"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	def, err := parse("bot.mdsl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	tree := bt.Start(def.Elixir, bt.WithSeed(0))
	for k, a := range []string{"failure", "success", "failure", "failure"} {
		b.click(t, "step")
		b.waitFor(t, "the question", `document.getElementById("askbox").getAttribute("data-answers") === "0"`)
		var q string
		var buttons []string
		b.eval(t, `document.getElementById("question").textContent`, &q)
		b.eval(t, `Array.prototype.map.call(document.querySelectorAll("#choices button"), function (e) { return e.getAttribute("data-answer"); })`, &buttons)
		if !strings.Contains(q, "Value() is "+tree.Value()) || fmt.Sprint(buttons) != "[success failure]" {
			t.Fatalf("step %d asks %q with %v, want Value() is %s, success or failure", k+1, q, buttons, tree.Value())
		}
		b.click(t, "answer-"+a)
		b.atVersion(t, k+1)
		if a == "success" {
			tree = tree.Succeed()
		} else {
			tree = tree.Fail()
		}
		var s strings.Builder
		var f []string
		for i, n := range tree.Picture().Nodes {
			s.WriteByte(viewer.Letter(n.State))
			if n.Focus {
				f = append(f, fmt.Sprint(i))
			}
		}
		b.checkTree(t, fmt.Sprintf("step %d", k+1), s.String()+" ["+strings.Join(f, " ")+"]")
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestPlaygroundAsync answers an action with async, settles it from the
// page, and steps: the settlement applies at that step.
func TestPlaygroundAsync(t *testing.T) {
	b := startBrowser(t)
	url, _ := startPlayground(t, "load.mdsl", "root { action [Load] }")
	if err := chromedp.Run(b.ctx, chromedp.Navigate(url+"/"), chromedp.WaitReady(`body[data-ready="1"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	b.answerStep(t, 1, []string{"Load"}, []string{"async"})
	b.checkTree(t, "the async action pending", "rr [1]")
	b.waitFor(t, "the pending async", `!document.getElementById("asyncbox").classList.contains("hidden") && document.querySelectorAll('#asyncs li[data-node="1"] button[data-settle="success"]').length === 1`)
	b.eval(t, `document.querySelector('#asyncs button[data-settle="success"]').click()`, nil)
	b.waitFor(t, "the settlement", `document.getElementById("asyncs").textContent.indexOf("settled with success") >= 0`)
	b.click(t, "step") // no question: the action is not called again
	b.atVersion(t, 2)
	b.checkTree(t, "the async action settled", "ss []")
	b.waitFor(t, "no pending async", `document.getElementById("asyncbox").classList.contains("hidden")`)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}

// TestPlaygroundPerCall checks the page's switch between a question per
// condition per step (the default: the guard's second check in a step is
// not asked) and a question per call.
func TestPlaygroundPerCall(t *testing.T) {
	b := startBrowser(t)
	url, _ := startPlayground(t, "guard.mdsl", "root { sequence while(C) { action [A] wait [0] } }")
	if err := chromedp.Run(b.ctx, chromedp.Navigate(url+"/"), chromedp.WaitReady(`body[data-ready="1"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	// steps answers C true and A success, and returns how many times C
	// was asked before the step ended.
	steps := func(version int) int {
		b.click(t, "step")
		asked := 0
		for i := 0; ; i++ {
			b.waitFor(t, fmt.Sprintf("question %d or version %d", i, version), fmt.Sprintf(`document.getElementById("askbox").getAttribute("data-answers") === "%d" || (document.getElementById("askbox").classList.contains("hidden") && document.querySelector("#timeline .tv.current").getAttribute("data-id") === "%d")`, i, version))
			var done bool
			b.eval(t, `document.getElementById("askbox").classList.contains("hidden")`, &done)
			if done {
				return asked
			}
			if i > 10 {
				t.Fatal("more than 10 questions")
			}
			var q string
			b.eval(t, `document.getElementById("question").textContent`, &q)
			if strings.Contains(q, " C \u2014 does it hold?") {
				asked++
				b.click(t, "answer-true")
			} else {
				b.click(t, "answer-success")
			}
		}
	}
	var checked bool
	b.eval(t, `document.getElementById("percall").checked`, &checked)
	if checked {
		t.Fatal("the per-call switch is on by default")
	}
	if n := steps(1); n != 1 {
		t.Errorf("per step: C asked %d times in the step, want 1", n)
	}
	b.click(t, "percall")
	b.waitFor(t, "the switch on", `window.btPlay.state().perCall === true`)
	if n := steps(2); n < 2 {
		t.Errorf("per call: C asked %d times in the step, want the guard's every check", n)
	}
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
}
