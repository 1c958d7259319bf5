package playground

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
	"github.com/zipbt/behaviortree/mdsl"
	"github.com/zipbt/behaviortree/mistreevous"
)

const sample = `root {
    sequence {
        condition [HasAmmo]
        action [Aim, "left"]
        selector {
            action [Fire]
            wait [2]
        }
    }
}
`

func parseAny(name string, src []byte) (Definition, error) {
	if t := bytes.TrimSpace(src); len(t) > 0 && t[0] == '{' {
		n, err := mistreevous.Parse(src)
		return Definition{Stepped: n}, err
	}
	n, err := mdsl.Parse(name, src)
	return Definition{Stepped: n}, err
}

// atomicWrite is a Config.Write for the tests: a temporary file in the
// same directory, renamed over the file.
func atomicWrite(path string, data []byte, _ fs.FileInfo) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".play-test-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// client is a test's playground server and its requests.
type client struct {
	t   *testing.T
	ts  *httptest.Server
	s   *Server
	tok string
}

// newClient serves a playground of a file holding src (cfg.File and
// cfg.Parse are set if empty; the file is not polled).
func newClient(t *testing.T, src string, cfg Config) *client {
	t.Helper()
	if cfg.File == "" {
		cfg.File = filepath.Join(t.TempDir(), "tree.mdsl")
		if err := os.WriteFile(cfg.File, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if cfg.Parse == nil {
		cfg.Parse = parseAny
	}
	if cfg.Poll == 0 {
		cfg.Poll = -1
	}
	ts := httptest.NewUnstartedServer(nil)
	cfg.Addr = ts.Listener.Addr().String()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = s
	ts.Start()
	t.Cleanup(func() { s.Close(); ts.Close() }) // Close ends the long polls first
	return &client{t: t, ts: ts, s: s, tok: s.Token()}
}

// do makes a request with the token and the server's own Origin, with
// hdr added (a "" value removes the header).
func (c *client) do(method, path string, body []byte, hdr map[string]string) (int, []byte) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.ts.URL+path, bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("X-BT-Token", c.tok)
	req.Header.Set("Origin", c.ts.URL)
	for k, v := range hdr {
		if k == "Host" {
			req.Host = v
			continue
		}
		if v == "" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := c.ts.Client().Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// post makes a state-changing request that must succeed, and returns the
// state.
func (c *client) post(path, body string) stateJSON {
	c.t.Helper()
	code, b := c.do("POST", path, []byte(body), nil)
	if code != http.StatusOK {
		c.t.Fatalf("POST %s %s: %d %s", path, body, code, b)
	}
	var st stateJSON
	if err := json.Unmarshal(b, &st); err != nil {
		c.t.Fatalf("POST %s: %v: %s", path, err, b)
	}
	return st
}

// refused makes a request that must fail with code, and returns its
// message.
func (c *client) refused(method, path, body string, code int, hdr map[string]string) string {
	c.t.Helper()
	got, b := c.do(method, path, []byte(body), hdr)
	if got != code {
		c.t.Fatalf("%s %s: %d %s, want %d", method, path, got, b, code)
	}
	return string(b)
}

func (c *client) state() stateJSON {
	c.t.Helper()
	code, b := c.do("GET", "/api/state", nil, nil)
	if code != http.StatusOK {
		c.t.Fatalf("GET /api/state: %d %s", code, b)
	}
	var st stateJSON
	if err := json.Unmarshal(b, &st); err != nil {
		c.t.Fatal(err)
	}
	return st
}

// answerAll steps once, answering each question in turn, and returns the
// state after the step; it fails if the questions are not those asked.
func (c *client) answerAll(want []string, answers ...string) stateJSON {
	c.t.Helper()
	st := c.post("/api/step", "")
	for i, a := range answers {
		if st.Ask == nil {
			c.t.Fatalf("answer %d (%s): no question", i, a)
		}
		if i < len(want) && st.Ask.Call+" "+st.Ask.Text != want[i] {
			c.t.Fatalf("question %d is %q, want %q", i, st.Ask.Call+" "+st.Ask.Text, want[i])
		}
		st = c.post("/api/answer", fmt.Sprintf(`{"value":%q}`, a))
	}
	if st.Ask != nil {
		c.t.Fatalf("after %d answers, still asked %s %s", len(answers), st.Ask.Call, st.Ask.Text)
	}
	return st
}

// oracle steps the sample with the library directly, with an agent that
// gives the answers in turn, and returns each version's states and
// running tips.
func oracle(t *testing.T, src string, steps [][]string) []string {
	t.Helper()
	def, err := mdsl.Parse("tree.mdsl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var queue []string
	take := func() string { a := queue[0]; queue = queue[1:]; return a }
	agent := bt.Agent[bt.Call]{
		Action: func(bt.Call) bt.Result {
			return map[string]bt.Result{"success": {Status: bt.Success}, "failure": {Status: bt.Failure}, "running": {Status: bt.Running}}[take()]
		},
		Condition: func(bt.Call) bool { return take() == "true" },
	}
	tree, err := bt.NewStepped(def, agent, bt.WithSeed(0), bt.WithTurnClock(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, answers := range steps {
		queue = answers
		if tree, err = tree.Step(); err != nil {
			t.Fatal(err)
		}
		if len(queue) > 0 {
			t.Fatalf("the oracle's step left answers %v", queue)
		}
		s, f := letters(tree.Picture())
		out = append(out, fmt.Sprint(s, f))
	}
	return out
}

func shownOf(st stateJSON) string { return fmt.Sprint(st.Version.States, st.Version.Focus) }

// TestStepAsks steps the sample as the page does, answer by answer, and
// checks each version against the library stepped directly with the same
// answers.
func TestStepAsks(t *testing.T) {
	c := newClient(t, sample, Config{})
	st := c.state()
	if st.Engine != "stepped" || len(st.Nodes) != 7 || st.Version.States != "iiiiiii" || st.Error != nil {
		t.Fatalf("the first state: %+v", st)
	}
	steps := [][]string{{"true", "success", "running"}, {"failure"}, {"true", "success", "success"}}
	want := oracle(t, sample, steps)
	st = c.post("/api/step", "")
	if st.Ask == nil || st.Ask.Node != 2 || st.Ask.Kind != "condition" || st.Ask.Text != "HasAmmo" || st.Version.ID != 0 {
		t.Fatalf("the first question: %+v", st.Ask)
	}
	c.refused("POST", "/api/step", "", http.StatusConflict, nil) // one step at a time
	c.refused("POST", "/api/answer", `{"value":"success"}`, http.StatusConflict, nil)
	st = c.post("/api/answer", `{"value":"true"}`)
	if st.Ask == nil || st.Ask.Node != 3 || st.Ask.Text != `Aim, "left"` || len(st.Ask.Answers) != 1 {
		t.Fatalf("the second question: %+v", st.Ask)
	}
	st = c.post("/api/answer", `{"value":"success"}`)
	st = c.post("/api/answer", `{"value":"running"}`)
	if st.Ask != nil || st.Version.ID != 1 || shownOf(st) != want[0] {
		t.Fatalf("after step 1: ask %+v, version %+v; want %s", st.Ask, st.Version, want[0])
	}
	if len(st.Version.Events) == 0 || !strings.Contains(strings.Join(st.Version.Events, "\n"), "action Fire -> running") {
		t.Errorf("step 1's events: %q", st.Version.Events)
	}
	st = c.answerAll([]string{"action Fire"}, "failure")
	if shownOf(st) != want[1] {
		t.Errorf("after step 2: %s, want %s", shownOf(st), want[1])
	}
	st = c.answerAll(nil, steps[2]...)
	if shownOf(st) != want[2] {
		t.Errorf("after step 3: %s, want %s", shownOf(st), want[2])
	}
	c.refused("POST", "/api/answer", `{"value":"true"}`, http.StatusConflict, nil) // nothing asked
	// Cancel drops a step half answered.
	st = c.post("/api/step", "")
	st = c.post("/api/cancel", "")
	if st.Ask != nil || st.Version.ID != 3 || len(st.Timeline) != 4 {
		t.Errorf("after cancel: ask %+v, version %d, %d versions", st.Ask, st.Version.ID, len(st.Timeline))
	}
}

// TestUndoBranch: undo, redo, and a step from an old version that keeps
// the other branch.
func TestUndoBranch(t *testing.T) {
	c := newClient(t, sample, Config{})
	want := oracle(t, sample, [][]string{{"true", "success", "running"}, {"success"}})
	wantB := oracle(t, sample, [][]string{{"true", "success", "running"}, {"failure"}})
	c.answerAll(nil, "true", "success", "running")
	a := c.answerAll(nil, "success")
	c.refused("POST", "/api/redo", "", http.StatusConflict, nil)
	st := c.post("/api/undo", "")
	if st.Version.ID != 1 || shownOf(st) != want[0] || st.Redo != 2 {
		t.Fatalf("after undo: version %d, %s, redo %d", st.Version.ID, shownOf(st), st.Redo)
	}
	st = c.post("/api/redo", "")
	if st.Version.ID != 2 || shownOf(st) != shownOf(a) {
		t.Fatalf("after redo: version %d %s, want 2 %s", st.Version.ID, shownOf(st), shownOf(a))
	}
	c.post("/api/undo", "")
	b := c.answerAll(nil, "failure") // the branch
	if b.Version.ID != 3 || shownOf(b) != wantB[1] || shownOf(b) == shownOf(a) {
		t.Fatalf("the branch: version %d %s, want 3 %s (and not %s)", b.Version.ID, shownOf(b), wantB[1], shownOf(a))
	}
	if tl := b.Timeline; len(tl) != 4 || tl[2].Parent != 1 || tl[3].Parent != 1 {
		t.Fatalf("the timeline: %+v, want versions 2 and 3 both after 1", tl)
	}
	// The other branch is kept, as it was.
	st = c.post("/api/goto", `{"id":2}`)
	if shownOf(st) != shownOf(a) || st.Version.Label != a.Version.Label {
		t.Errorf("back on the first branch: %s %q, want %s %q", shownOf(st), st.Version.Label, shownOf(a), a.Version.Label)
	}
	// Undo then redo comes back to the version gone to.
	c.post("/api/undo", "")
	if st = c.post("/api/redo", ""); st.Version.ID != 2 {
		t.Errorf("redo after going to 2 and undoing: version %d", st.Version.ID)
	}
	for _, id := range []string{`{"id":4}`, `{"id":-1}`, `{"id":"x"}`, `{"id":1,"x":2}`} {
		code, _ := c.do("POST", "/api/goto", []byte(id), nil)
		if code == http.StatusOK {
			t.Errorf("goto %s: 200", id)
		}
	}
	st = c.post("/api/goto", `{"id":0}`)
	c.refused("POST", "/api/undo", "", http.StatusConflict, nil)
	st = c.post("/api/restart", "")
	if len(st.Timeline) != 1 || st.Version.ID != 0 {
		t.Errorf("after restart: %d versions", len(st.Timeline))
	}
}

// TestSecurity: requests without the token, with a wrong one, from
// another origin, or naming another host are refused, and change
// nothing; bodies are bounded.
func TestSecurity(t *testing.T) {
	c := newClient(t, sample, Config{})
	port := c.ts.Listener.Addr().(interface{ String() string }).String()
	port = port[strings.LastIndexByte(port, ':')+1:]
	for _, path := range []string{"/api/step", "/api/undo", "/api/restart", "/api/memory", "/api/source?rev=1", "/api/load"} {
		c.refused("POST", path, `{}`, http.StatusForbidden, map[string]string{"X-BT-Token": ""})
		c.refused("POST", path, `{}`, http.StatusForbidden, map[string]string{"X-BT-Token": c.tok[:len(c.tok)-1] + "x"})
		c.refused("POST", path, `{}`, http.StatusForbidden, map[string]string{"Origin": "http://evil.example"})
		c.refused("POST", path, `{}`, http.StatusForbidden, map[string]string{"Origin": "null"})
		c.refused("POST", path, `{}`, http.StatusMisdirectedRequest, map[string]string{"Host": "evil.example:" + port})
	}
	for _, path := range []string{"/api/state", "/api/save", "/api/export"} {
		c.refused("GET", path, "", http.StatusForbidden, map[string]string{"X-BT-Token": ""})
	}
	// DNS rebinding: the page (and its token) is not served to another
	// name, nor on another port.
	for _, host := range []string{"evil.example:" + port, "127.0.0.1:1", "localhost.evil.example:" + port, "127.0.0.1"} {
		msg := c.refused("GET", "/", "", http.StatusMisdirectedRequest, map[string]string{"Host": host})
		if strings.Contains(msg, c.tok) {
			t.Errorf("the token was served to Host %s", host)
		}
	}
	for _, host := range []string{"localhost:" + port, "127.0.0.1:" + port, "[::1]:" + port} {
		code, b := c.do("GET", "/", nil, map[string]string{"Host": host})
		if code != http.StatusOK || !bytes.Contains(b, []byte(c.tok)) {
			t.Errorf("Host %s: %d", host, code)
		}
	}
	if st := c.state(); len(st.Timeline) != 1 || st.Ask != nil {
		t.Fatalf("refused requests changed the state: %+v", st.Timeline)
	}
	// Without an Origin (not a browser), the token is enough.
	code, _ := c.do("POST", "/api/step", nil, map[string]string{"Origin": ""})
	if code != http.StatusOK {
		t.Errorf("a step without Origin: %d", code)
	}
	// Bounded bodies.
	c.refused("POST", "/api/memory", `{"key":"k","value":"`+strings.Repeat("x", maxBody)+`"}`, http.StatusRequestEntityTooLarge, nil)
	c.refused("POST", "/api/load", strings.Repeat("x", maxLoad+1), http.StatusRequestEntityTooLarge, nil)
	// The page's headers.
	req, _ := http.NewRequest("GET", c.ts.URL+"/", nil)
	resp, err := c.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if p := resp.Header.Get("Content-Security-Policy"); !strings.Contains(p, "default-src 'none'") || !strings.Contains(p, "script-src 'self'") || strings.Contains(p, "unsafe") {
		t.Errorf("Content-Security-Policy %q", p)
	}
	if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("no nosniff")
	}
}

// TestPageNoInlineScript: the page's HTML has no inline script or style
// and nothing from the network.
func TestPageNoInlineScript(t *testing.T) {
	for _, bad := range []string{"<script>", "style=", "http://", "https://"} {
		if strings.Contains(strings.ToLower(pageHTML), bad) {
			t.Errorf("the page holds %q", bad)
		}
	}
	if m := regexp.MustCompile(`\son[a-z]+=`).FindString(pageHTML); m != "" {
		t.Errorf("the page has an inline handler %q", m)
	}
	if strings.Contains(string(pageJS), "innerHTML") || strings.Contains(string(pageJS), "insertAdjacentHTML") || strings.Contains(string(pageJS), "eval(") {
		t.Error("the script builds markup from strings")
	}
}

// hostile is a Mistreevous JSON tree whose names are markup, quotes,
// line separators and invalid UTF-8.
const hostile = "{\"type\":\"root\",\"child\":{\"type\":\"sequence\",\"children\":[" +
	"{\"type\":\"action\",\"call\":\"</script><script>alert(1)</script>\"}," +
	"{\"type\":\"action\",\"call\":\"<img src=x onerror=alert(2)>\"}," +
	"{\"type\":\"condition\",\"call\":\"q\\\"uote'd\\u2028line\\u2029sep\"}," +
	"{\"type\":\"action\",\"call\":\"bad\xff\xfeutf8\"}]}}"

// TestHostileNames: names from the tree file reach the page only as JSON
// strings, which decode to the names (invalid UTF-8 as U+FFFD); the
// page's HTML holds none of them, and a hostile file name is escaped.
func TestHostileNames(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, `<img src=x onerror=alert(3)>.json`)
	if err := os.WriteFile(file, []byte(hostile), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, "", Config{File: file})
	code, page := c.do("GET", "/", nil, nil)
	if code != 200 {
		t.Fatal(code)
	}
	for _, bad := range []string{"<img", "</script><script>", "alert(1)", "alert(2)"} {
		if bytes.Contains(page, []byte(bad)) {
			t.Errorf("the page holds %q:\n%s", bad, page)
		}
	}
	if !bytes.Contains(page, []byte("&lt;img src=x onerror=alert(3)&gt;.json")) {
		t.Error("the file name is not in the title, escaped")
	}
	code, raw := c.do("GET", "/api/state", nil, nil)
	if code != 200 {
		t.Fatal(code)
	}
	for _, bad := range []string{"<", ">", "\u2028", "\u2029", "\xff"} {
		if bytes.Contains(raw, []byte(bad)) {
			t.Errorf("the state's JSON holds %q raw", bad)
		}
	}
	var st stateJSON
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, n := range st.Nodes {
		if l := n[3].(string); l != "" {
			labels = append(labels, l)
		}
	}
	want := []string{"</script><script>alert(1)</script>", "<img src=x onerror=alert(2)>", "q\"uote'd\u2028line\u2029sep", "bad\ufffd\ufffdutf8"}
	if fmt.Sprintf("%q", labels) != fmt.Sprintf("%q", want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	st = c.post("/api/step", "")
	if st.Ask == nil || st.Ask.Text != want[0] {
		t.Errorf("the question: %+v", st.Ask)
	}
}

// TestEdit: saving a text from the page writes the file and restarts the
// timeline; a text with an error is saved, shown with its line, column
// and caret, and keeps the last valid tree; a save over a file changed
// since is refused; a change on disk is seen.
func TestEdit(t *testing.T) {
	c := newClient(t, sample, Config{Write: atomicWrite})
	c.answerAll(nil, "true", "success", "running")
	st := c.state()
	if len(st.Timeline) != 2 || st.SrcRev != 1 || st.Source != sample {
		t.Fatalf("before: %d versions, rev %d", len(st.Timeline), st.SrcRev)
	}
	edited := strings.Replace(sample, "action [Fire]", "action [Fire]\n            action [Reload]", 1)
	st = c.post("/api/source?rev=1&tree=1", edited)
	if got, _ := os.ReadFile(c.s.cfg.File); string(got) != edited {
		t.Fatalf("the file holds %q", got)
	}
	if st.Error != nil || st.SrcRev != 2 || st.TreeRev != 2 || len(st.Nodes) != 8 || len(st.Timeline) != 1 || !strings.HasPrefix(st.Notice, "saved; the tree changed: the timeline restarted") {
		t.Fatalf("after a valid edit: error %v, rev %d, tree %d, %d nodes, %d versions, notice %q", st.Error, st.SrcRev, st.TreeRev, len(st.Nodes), len(st.Timeline), st.Notice)
	}
	c.answerAll(nil, "true", "success", "running")
	broken := strings.Replace(edited, "repeat", "repeat", 1)
	broken = strings.Replace(broken, "selector {", "repeat [2] {", 1)
	st = c.post("/api/source?rev=2&tree=2", broken)
	if st.Error == nil || st.Error.Line != 7 || st.Error.Col != 13 || !strings.Contains(st.Error.Msg, "tree.mdsl:7:13: repeat takes one child, got 3\n            action [Reload]\n            ^") {
		t.Fatalf("the error: %+v", st.Error)
	}
	if st.TreeRev != 2 || len(st.Timeline) != 2 || st.Nodes != nil {
		t.Errorf("an invalid text changed the tree or the timeline: tree %d, %d versions", st.TreeRev, len(st.Timeline))
	}
	// A stale revision: refused, the file untouched.
	msg := c.refused("POST", "/api/source?rev=2", "root { action [X] }", http.StatusConflict, nil)
	if !strings.Contains(msg, "changed on disk") {
		t.Errorf("stale save: %s", msg)
	}
	if got, _ := os.ReadFile(c.s.cfg.File); string(got) != broken {
		t.Fatalf("a refused save wrote %q", got)
	}
	// A change on disk (back to the first text: its timeline comes back).
	if err := os.WriteFile(c.s.cfg.File, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	c.s.checkFile()
	st = c.state()
	if st.Error != nil || st.SrcRev != 4 || st.TreeRev != 3 || st.Source != sample || len(st.Nodes) != 7 {
		t.Errorf("after the file changed on disk: error %v, rev %d, tree %d", st.Error, st.SrcRev, st.TreeRev)
	}
	c.s.checkFile() // no change: nothing happens
	if st2 := c.state(); st2.Change != st.Change {
		t.Errorf("an unchanged file changed the state")
	}
	// A file that vanishes is reported; the tree stays.
	os.Remove(c.s.cfg.File)
	c.s.checkFile()
	if st = c.state(); !strings.Contains(st.FileError, "cannot be read") || st.TreeRev != 3 {
		t.Errorf("a vanished file: %q, tree %d", st.FileError, st.TreeRev)
	}
	// A failing writer: the error is shown, the file untouched.
	os.WriteFile(c.s.cfg.File, []byte(sample), 0o644)
	c.s.checkFile()
	c.s.cfg.Write = func(string, []byte, fs.FileInfo) error { return errors.New("disk full") }
	st = c.state()
	msg = c.refused("POST", fmt.Sprintf("/api/source?rev=%d", st.SrcRev), edited, http.StatusConflict, nil)
	if !strings.Contains(msg, "disk full") {
		t.Errorf("a failed save says %q", msg)
	}
	if got, _ := os.ReadFile(c.s.cfg.File); string(got) != sample {
		t.Errorf("a failed save left %q", got)
	}
	// Without a writer, the page cannot save.
	c.s.cfg.Write = nil
	c.refused("POST", fmt.Sprintf("/api/source?rev=%d", st.SrcRev), edited, http.StatusConflict, nil)
}

// TestEditTooLong: a text longer than MaxSource is refused.
func TestEditTooLong(t *testing.T) {
	c := newClient(t, sample, Config{Write: atomicWrite, MaxSource: 1000})
	c.refused("POST", "/api/source?rev=1", strings.Repeat(" ", 1001), http.StatusRequestEntityTooLarge, nil)
	if got, _ := os.ReadFile(c.s.cfg.File); string(got) != sample {
		t.Errorf("the file holds %q", got)
	}
}

// TestSaveLoad: a saved version loads back as a new version with the
// same states and memory; damaged data is an error that changes nothing;
// a pending async result is saved, and settles after the load.
func TestSaveLoad(t *testing.T) {
	c := newClient(t, sample, Config{})
	c.answerAll(nil, "true", "success", "running")
	c.post("/api/memory", `{"key":"target","value":"B7"}`)
	saved := c.state()
	code, data := c.do("GET", "/api/save", nil, nil)
	if code != 200 || len(data) == 0 {
		t.Fatalf("save: %d %q", code, data)
	}
	c.post("/api/goto", `{"id":0}`)
	st := c.post("/api/load", string(data))
	if st.Version.ID != 3 || st.Timeline[3].Parent != 0 || shownOf(st) != shownOf(saved) || fmt.Sprint(st.Version.Memory) != `[[target "B7"]]` {
		t.Fatalf("loaded: version %d (after %d), %s %v; want %s", st.Version.ID, st.Timeline[st.Version.ID].Parent, shownOf(st), st.Version.Memory, shownOf(saved))
	}
	// The loaded version steps on as the saved one would.
	a := c.answerAll(nil, "success")
	c.post("/api/goto", `{"id":2}`)
	b := c.answerAll(nil, "success")
	if shownOf(a) != shownOf(b) {
		t.Errorf("the loaded version stepped to %s, the saved one to %s", shownOf(a), shownOf(b))
	}
	for _, bad := range [][]byte{nil, []byte("nonsense"), data[:len(data)-1]} {
		msg := c.refused("POST", "/api/load", string(bad), http.StatusConflict, nil)
		if !strings.Contains(msg, "loading the saved state") {
			t.Errorf("loading %q: %s", bad, msg)
		}
	}
	// Another definition's state.
	other := newClient(t, "root { action [X] }", Config{})
	_, odata := other.do("GET", "/api/save", nil, nil)
	if msg := c.refused("POST", "/api/load", string(odata), http.StatusConflict, nil); !strings.Contains(msg, "different definition") {
		t.Errorf("another tree's state: %s", msg)
	}
	if n := len(c.state().Timeline); n != 6 {
		t.Errorf("bad loads added versions: %d", n)
	}
	// A pending async result is saved, and the loaded version lists it to
	// settle.
	c.answerAll(nil, "true", "success", "async")
	code, data = c.do("GET", "/api/save", nil, nil)
	if code != 200 {
		t.Fatalf("save with a pending async result: %d %q", code, data)
	}
	st = c.post("/api/load", string(data))
	if len(st.Version.Asyncs) != 1 || st.Version.Asyncs[0].Settled != "" {
		t.Fatalf("loaded: asyncs %+v", st.Version.Asyncs)
	}
	c.post("/api/settle", fmt.Sprintf(`{"node":%d,"value":"success"}`, st.Version.Asyncs[0].Node))
}

// TestAsync: an action answered async stays running until settled; the
// settlement applies at the next step.
func TestAsync(t *testing.T) {
	c := newClient(t, sample, Config{})
	st := c.answerAll(nil, "true", "success", "async")
	if len(st.Version.Asyncs) != 1 || st.Version.Asyncs[0].Node != 5 || st.Version.Asyncs[0].Settled != "" {
		t.Fatalf("asyncs: %+v", st.Version.Asyncs)
	}
	st = c.answerAll(nil) // a step without a question: the async is pending
	if st.Version.States[5] != 'r' {
		t.Fatalf("node 5 is %c", st.Version.States[5])
	}
	st = c.post("/api/settle", `{"node":5,"value":"success"}`)
	if st.Version.Asyncs[0].Settled != "success" {
		t.Errorf("settled: %+v", st.Version.Asyncs)
	}
	c.refused("POST", "/api/settle", `{"node":5,"value":"failure"}`, http.StatusConflict, nil)
	c.refused("POST", "/api/settle", `{"node":3,"value":"success"}`, http.StatusConflict, nil)
	st = c.answerAll(nil)
	if st.Version.States != "ssssssi" {
		t.Errorf("after the settled step: %s", st.Version.States)
	}
	if len(st.Version.Asyncs) != 0 {
		t.Errorf("asyncs after the step: %+v", st.Version.Asyncs)
	}
}

// TestScript: a script answers for the names it lists, counting the
// calls on the line (so an undo takes its answers back); the page is
// asked the others.
func TestScript(t *testing.T) {
	sc := &Script{Actions: map[string][]string{"Fire": {"running", "failure", "success"}}, Conditions: map[string][]bool{"HasAmmo": {true}}}
	c := newClient(t, sample, Config{Script: sc})
	st := c.post("/api/step", "")
	if st.Ask == nil || st.Ask.Text != `Aim, "left"` || len(st.Ask.Answers) != 1 || !st.Ask.Answers[0].Script {
		t.Fatalf("the first question: %+v", st.Ask)
	}
	st = c.post("/api/answer", `{"value":"success"}`)
	if st.Ask != nil || st.Version.States[5] != 'r' {
		t.Fatalf("step 1: ask %+v, states %s", st.Ask, st.Version.States)
	}
	st = c.answerAll(nil) // Fire: failure, from the script; then the wait
	if st.Version.States[5] != 'f' {
		t.Fatalf("step 2: %s", st.Version.States)
	}
	c.post("/api/undo", "")
	st = c.answerAll(nil) // the second call of Fire again: failure
	if st.Version.States[5] != 'f' || st.Version.ID != 3 {
		t.Errorf("step 2 again: version %d, %s", st.Version.ID, st.Version.States)
	}
	if err := (&Script{Actions: map[string][]string{"A": {"maybe"}}}).check(); err == nil {
		t.Error("a bad result passes the check")
	}
	if _, err := New(Config{File: c.s.cfg.File, Addr: "127.0.0.1:1", Parse: parseAny, Poll: -1, Script: &Script{Conditions: map[string][]bool{"A": {}}}}); err == nil {
		t.Error("New takes a script with an empty list")
	}
}

// elixirSrc is an Elixir-style tree.
const elixirSrc = "root { repeat_until_fail { selector { action [go_right] action [next_row] } } }"

// parseElixir reads an Elixir-style MDSL tree, without its root.
func parseElixir(name string, src []byte) (Definition, error) {
	n, err := mdsl.ParseFunc(name, src, func(s string) (string, error) { return s, nil })
	if err == nil && n.Kind() == kind.Root {
		n = n.Child(0)
	}
	return Definition{Elixir: n}, err
}

// TestElixir: a tree of Elixir kinds runs with Value/Succeed/Fail: the
// page answers Value() with success or failure.
func TestElixir(t *testing.T) {
	c := newClient(t, elixirSrc, Config{Parse: parseElixir})
	st := c.state()
	if st.Engine != "elixir" {
		t.Fatalf("engine %q, error %+v", st.Engine, st.Error)
	}
	def, _ := parseElixir("", []byte(elixirSrc))
	tree := bt.Start(def.Elixir, bt.WithSeed(0))
	for i, a := range []string{"failure", "success", "failure", "failure"} {
		st = c.post("/api/step", "")
		if st.Ask == nil || st.Ask.Kind != "value" || st.Ask.Text != tree.Value() || fmt.Sprint(st.Ask.Choices) != "[success failure]" {
			t.Fatalf("step %d: the question %+v, want Value() %s", i, st.Ask, tree.Value())
		}
		c.refused("POST", "/api/answer", `{"value":"running"}`, http.StatusConflict, nil)
		st = c.post("/api/answer", fmt.Sprintf(`{"value":%q}`, a))
		if a == "success" {
			tree = tree.Succeed()
		} else {
			tree = tree.Fail()
		}
		s, f := letters(tree.Picture())
		if shownOf(st) != fmt.Sprint(s, f) {
			t.Errorf("step %d: %s, want %s", i, shownOf(st), fmt.Sprint(s, f))
		}
	}
	code, data := c.do("GET", "/api/save", nil, nil)
	if code != 200 {
		t.Fatal(code)
	}
	c.post("/api/goto", `{"id":1}`)
	st = c.post("/api/load", string(data))
	if s, f := letters(tree.Picture()); shownOf(st) != fmt.Sprint(s, f) {
		t.Errorf("loaded: %s", shownOf(st))
	}
	code, page := c.do("GET", "/api/export", nil, nil)
	if code != 200 || !bytes.Contains(page, []byte(`id="bt-data"`)) {
		t.Errorf("export: %d", code)
	}
}

// TestExport: the line from the start to the current version, as the
// viewer's replay page: one step per version of the line, not the other
// branch's.
func TestExport(t *testing.T) {
	c := newClient(t, sample, Config{})
	c.answerAll(nil, "true", "success", "running")
	c.answerAll(nil, "success")
	c.post("/api/undo", "")
	c.answerAll(nil, "failure")
	code, page := c.do("GET", "/api/export", nil, nil)
	if code != 200 {
		t.Fatalf("export: %d %s", code, page)
	}
	i := bytes.Index(page, []byte(`<script type="application/json" id="bt-data">`))
	if i < 0 {
		t.Fatal("no data in the exported page")
	}
	rest := page[i+len(`<script type="application/json" id="bt-data">`):]
	rest = rest[:bytes.Index(rest, []byte("</script>"))]
	var d struct {
		Replays []struct {
			Steps  []string         `json:"steps"`
			Events map[int][]string `json:"events"`
		} `json:"replays"`
	}
	if err := json.Unmarshal(rest, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Replays) != 1 || len(d.Replays[0].Steps) != 3 || !strings.Contains(strings.Join(d.Replays[0].Events[2], "\n"), "action Fire returned failure") {
		t.Errorf("exported: %+v", d.Replays)
	}
}

// TestMemory: a key set from the page makes a version; null deletes it;
// objects are refused.
func TestMemory(t *testing.T) {
	c := newClient(t, sample, Config{})
	st := c.post("/api/memory", `{"key":"n","value":3}`)
	st = c.post("/api/memory", `{"key":"<b>k</b>","value":"<i>v</i>"}`)
	if fmt.Sprint(st.Version.Memory) != `[[<b>k</b> "<i>v</i>"] [n 3]]` || st.Version.ID != 2 {
		t.Errorf("memory %v", st.Version.Memory)
	}
	st = c.post("/api/memory", `{"key":"n","value":null}`)
	if len(st.Version.Memory) != 1 {
		t.Errorf("after delete: %v", st.Version.Memory)
	}
	c.refused("POST", "/api/memory", `{"key":"n","value":{"a":1}}`, http.StatusConflict, nil)
	c.refused("POST", "/api/memory", `{"key":"","value":1}`, http.StatusConflict, nil)
	st = c.post("/api/undo", "")
	if len(st.Version.Memory) != 2 {
		t.Errorf("after undo: %v", st.Version.Memory)
	}
}

// TestMaxVersions: the timeline is bounded.
func TestMaxVersions(t *testing.T) {
	c := newClient(t, "root { condition [C] }", Config{MaxVersions: 3, Script: &Script{Conditions: map[string][]bool{"C": {true}}}})
	c.answerAll(nil)
	c.answerAll(nil)
	if msg := c.refused("POST", "/api/step", "", http.StatusConflict, nil); !strings.Contains(msg, "the most it keeps") {
		t.Errorf("step past the bound: %s", msg)
	}
}

// TestInvalidStart: a file whose first text does not parse serves the
// page with the error and steps nothing until fixed.
func TestInvalidStart(t *testing.T) {
	c := newClient(t, "root {", Config{Write: atomicWrite})
	st := c.state()
	if st.Engine != "" || st.Error == nil || st.Error.Line != 1 {
		t.Fatalf("state %+v", st)
	}
	c.refused("POST", "/api/step", "", http.StatusConflict, nil)
	st = c.post("/api/source?rev=1", sample)
	if st.Engine != "stepped" || st.Error != nil {
		t.Fatalf("after the fix: %+v", st.Error)
	}
}

// TestLongPoll: a waiting state request returns at the next change.
func TestLongPoll(t *testing.T) {
	c := newClient(t, sample, Config{})
	st := c.state()
	done := make(chan stateJSON)
	go func() {
		resp, err := c.ts.Client().Do(func() *http.Request {
			r, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/state?after=%d", c.ts.URL, st.Change), nil)
			r.Header.Set("X-BT-Token", c.tok)
			return r
		}())
		var got stateJSON
		if err == nil {
			json.NewDecoder(resp.Body).Decode(&got)
			resp.Body.Close()
		}
		done <- got
	}()
	// The waiter may not have started waiting yet: either way it must
	// see the change.
	c.post("/api/step", "")
	if got := <-done; got.Change <= st.Change || got.Ask == nil {
		t.Errorf("the long poll returned change %d, ask %v", got.Change, got.Ask)
	}
}

// BenchmarkStepAsked measures a step of the sample answered one question
// at a time, as the page answers (the step runs again from its version at
// each answer: four runs for four answers, three of them cut short by a
// panic), beside the same step with the four answers known at once.
func BenchmarkStepAsked(b *testing.B) {
	file := filepath.Join(b.TempDir(), "tree.mdsl")
	if err := os.WriteFile(file, []byte(sample), 0o644); err != nil {
		b.Fatal(err)
	}
	s, err := New(Config{File: file, Addr: "127.0.0.1:1", Parse: parseAny, Poll: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	answers := []answer{{Kind: "condition", Name: "HasAmmo", Value: "true", Call: "HasAmmo"}, {Kind: "action", Name: "Aim", Value: "success"}, {Kind: "action", Name: "Fire", Value: "running"}}
	b.Run("asked", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			s.tl = newTimeline(s.eng.start())
			s.pend = &pending{from: 0}
			for _, a := range answers {
				if err := s.advance(); err != nil || s.pend == nil {
					b.Fatal("no question", err)
				}
				s.pend.answers = append(s.pend.answers, a)
			}
			if err := s.advance(); err != nil || s.pend != nil {
				b.Fatal("the step did not end", err)
			}
		}
	})
	b.Run("known", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			s.tl = newTimeline(s.eng.start())
			s.pend = &pending{from: 0, answers: answers}
			if err := s.advance(); err != nil || s.pend != nil {
				b.Fatal("the step did not end", err)
			}
		}
	})
}

// TestHostDefaultPort: a browser leaves the default port out of Host
// (and Origin), so a playground on port 80 answers "127.0.0.1" and
// "[::1]", and still refuses another name or a port-less Host on
// another port.
func TestHostDefaultPort(t *testing.T) {
	file := filepath.Join(t.TempDir(), "tree.mdsl")
	if err := os.WriteFile(file, []byte(sample), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		addr, host string
		code       int
	}{
		{"127.0.0.1:80", "127.0.0.1", http.StatusOK},
		{"127.0.0.1:80", "[::1]", http.StatusOK},
		{"127.0.0.1:80", "localhost", http.StatusOK},
		{"127.0.0.1:80", "127.0.0.1:80", http.StatusOK},
		{"127.0.0.1:80", "evil.example", http.StatusMisdirectedRequest},
		{"127.0.0.1:80", "::1", http.StatusMisdirectedRequest},
		{"127.0.0.1:8765", "127.0.0.1", http.StatusMisdirectedRequest},
	} {
		s, err := New(Config{File: file, Addr: c.addr, Parse: parseAny, Poll: -1})
		if err != nil {
			t.Fatal(err)
		}
		req := httptest.NewRequest("GET", "/", nil)
		req.Host = c.host
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		s.Close()
		if rec.Code != c.code {
			t.Errorf("server at %s, Host %q: %d, want %d", c.addr, c.host, rec.Code, c.code)
		}
	}
}

// TestMemoryLabelBounded: the timeline label of a memory change is short
// whatever the key and value, since every state the page fetches lists
// every label of the timeline.
func TestMemoryLabelBounded(t *testing.T) {
	c := newClient(t, sample, Config{})
	big := strings.Repeat("é", 100_000)
	c.post("/api/memory", `{"key":"`+big+`","value":"`+big+`"}`)
	st := c.post("/api/memory", `{"key":"`+big+`","value":null}`)
	for _, v := range st.Timeline[1:] {
		if len(v.Label) > 400 || !utf8.ValidString(v.Label) || !strings.HasPrefix(v.Label, "memory: éé") {
			t.Errorf("label of %d bytes: %.80q", len(v.Label), v.Label)
		}
	}
	if m := st.Version.Memory; len(m) != 0 {
		t.Errorf("the long key was not deleted: %d keys", len(m))
	}
}

// TestBadBodyPosition: a malformed request body's error says where.
func TestBadBodyPosition(t *testing.T) {
	c := newClient(t, sample, Config{})
	for body, want := range map[string]string{
		`{"key":"k","value":tru}`:          "at byte 23", // the 23rd byte, counting from 1
		`{"key":7,"value":1}`:              "at byte 8",
		`{"key":"k","value":1,"x":` + "1}": `unknown field "x"`,
	} {
		msg := c.refused("POST", "/api/memory", body, http.StatusBadRequest, nil)
		if !strings.Contains(msg, want) {
			t.Errorf("%s: %q, want it to say %q", body, msg, want)
		}
	}
}

// TestTrailingJSON: a request body holds one JSON value: anything but
// white space after it is refused (400), saying where, as bt run -script
// refuses it; the request changes nothing.
func TestTrailingJSON(t *testing.T) {
	c := newClient(t, sample, Config{})
	before := c.state()
	for _, body := range []string{
		`{"key":"k","value":1}{"key":"k","value":2}`,
		`{"key":"k","value":1} 7`,
		`{"key":"k","value":1}]`,
		`{"key":"k","value":1} x`,
	} {
		msg := c.refused("POST", "/api/memory", body, http.StatusBadRequest, nil)
		if !strings.Contains(msg, "after the request's JSON value, at byte 2") {
			t.Errorf("%s: %q", body, msg)
		}
	}
	if after := c.state(); len(after.Timeline) != len(before.Timeline) || after.Change != before.Change {
		t.Errorf("a refused request changed the state: change %d -> %d, %d -> %d versions", before.Change, after.Change, len(before.Timeline), len(after.Timeline))
	}
	// white space after the value is fine
	c.post("/api/memory", `{"key":"k","value":1}`+" \r\n\t")
}

// TestResponseBounded: a page that says what it has (?tl=REV:N, the
// timeline's revision and length; ?src=REV, the text's revision) gets the
// timeline's new entries and no text: a step's response does not grow
// with the timeline. The page merges them (checked by the browser tests);
// here, the entries sent are the new ones.
func TestResponseBounded(t *testing.T) {
	c := newClient(t, sample, Config{MaxVersions: 5000})
	size := func(n int) int {
		var last []byte
		for i := range n {
			st := c.state()
			var raw map[string]any
			_, b := c.do("GET", "/api/state", nil, nil)
			json.Unmarshal(b, &raw)
			rev, _ := raw["timelineRev"].(float64)
			q := fmt.Sprintf("?tl=%d:%d&src=%d", int64(rev), len(st.Timeline), st.SrcRev)
			code, b := c.do("POST", "/api/memory"+q, []byte(fmt.Sprintf(`{"key":"k","value":%d}`, i)), nil)
			if code != http.StatusOK {
				t.Fatalf("%d %s", code, b)
			}
			last = b
		}
		var st stateJSON
		if err := json.Unmarshal(last, &st); err != nil {
			t.Fatal(err)
		}
		if len(st.Timeline) != 1 || st.Source != "" {
			t.Errorf("a step's response holds %d entries of the timeline and %d bytes of text, want 1 and 0", len(st.Timeline), len(st.Source))
		}
		return len(last)
	}
	early := size(10)
	late := size(1000)
	t.Logf("a step's response: %d bytes at 11 versions, %d at 1,011", early, late)
	if late > early+64 {
		t.Errorf("a step's response grew from %d to %d bytes with the timeline", early, late)
	}
}
