package viewer_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
	"github.com/zipbt/behaviortree/viewer"
)

// sseEvent is one server-sent event.
type sseEvent struct {
	name string
	data string
}

// sseStream reads events from a response body.
type sseStream struct {
	r *bufio.Reader
}

// next returns the next event, or fails the test.
func (s *sseStream) next(t *testing.T) sseEvent {
	t.Helper()
	var e sseEvent
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading the event stream: %v", err)
		}
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "":
			if e.name != "" || e.data != "" {
				return e
			}
		case strings.HasPrefix(line, "event: "):
			e.name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			if e.data != "" {
				t.Fatalf("an event with two data lines: %q and %q", e.data, line)
			}
			e.data = line[len("data: "):]
		default:
			t.Fatalf("an unexpected line in the event stream: %q", line)
		}
	}
}

// stepJSON and resetJSON are the monitor's events as the page reads them.
type stepJSON struct {
	N      uint64       `json:"n"`
	Step   string       `json:"step"`
	Label  string       `json:"label"`
	Events []string     `json:"events"`
	Mem    *[][2]string `json:"mem"`
}

type resetJSON struct {
	ID    int        `json:"id"`
	Title string     `json:"title"`
	Keep  int        `json:"keep"`
	Nodes [][5]any   `json:"nodes"`
	Steps []stepJSON `json:"steps"`
}

type treeJSON struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Versions int    `json:"versions"`
	Kept     int    `json:"kept"`
}

// openStream opens /events?tree=id (all feeds' list only for id < 0).
func openStream(t *testing.T, srv *httptest.Server, id int) *sseStream {
	t.Helper()
	url := srv.URL + "/events"
	if id >= 0 {
		url += fmt.Sprintf("?tree=%d", id)
	}
	resp, err := srv.Client().Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET %s: %s, %s", url, resp.Status, resp.Header.Get("Content-Type"))
	}
	return &sseStream{r: bufio.NewReader(resp.Body)}
}

// fullStates returns the page's encoding of a whole state: the nodes that
// are not ready, then the focus.
func fullStates(states []bt.State, focus []int) string {
	var b strings.Builder
	for i, s := range states {
		if s != bt.StateReady {
			fmt.Fprintf(&b, "%d%c", i, viewer.Letter(s))
		}
	}
	for j, f := range focus {
		if j == 0 {
			b.WriteByte('|')
		} else {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, f)
	}
	return b.String()
}

func treeStep(v bt.Tree[string]) string {
	states, f := v.NodeStates(nil), v.FocusIndex()
	return fullStates(states, []int{f})
}

// TestMonitorStream follows a feed of Value/Succeed/Fail versions: the
// stream starts with the list of trees and a reset holding the versions
// published before it opened, then sends each new version, whose states,
// focus, memory and changes are the version's.
func TestMonitorStream(t *testing.T) {
	m := viewer.NewMonitor(viewer.MonitorOptions{Keep: 10})
	feed := viewer.NewTreeFeed[string](m, "guard")
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close) // after the streams' bodies are closed

	def := bt.Sequence(bt.Leaf("scout"), bt.Select(bt.Leaf("attack"), bt.Leaf("flee")))
	v := bt.Start(def)
	var versions []bt.Tree[string]
	publish := func(next bt.Tree[string]) {
		v = next
		versions = append(versions, v)
		feed.Publish(v)
	}
	publish(v)
	publish(v.Succeed())
	s := openStream(t, srv, 0)
	e := s.next(t)
	var trees []treeJSON
	if e.name != "trees" || json.Unmarshal([]byte(e.data), &trees) != nil || len(trees) != 1 || trees[0] != (treeJSON{0, "guard", 2, 2}) {
		t.Fatalf("first event %s %s, want the list of one tree", e.name, e.data)
	}
	e = s.next(t)
	var r resetJSON
	if e.name != "reset" || json.Unmarshal([]byte(e.data), &r) != nil {
		t.Fatalf("second event %s %s, want a reset", e.name, e.data)
	}
	if r.Title != "guard" || r.Keep != 10 || len(r.Nodes) != 5 || r.Nodes[1][3] != "scout" || len(r.Steps) != 2 {
		t.Fatalf("reset %+v", r)
	}
	for i, st := range r.Steps {
		if st.N != uint64(i) || st.Step != treeStep(versions[i]) {
			t.Errorf("reset step %d: %+v, want version %d, %s", i, st, i, treeStep(versions[i]))
		}
	}
	if r.Steps[0].Mem == nil {
		t.Error("the reset's first version has no memory listing")
	}

	publish(v.Fail().WithMemory(memory.Map{}.Set("target", "B7")))
	publish(v.Succeed())
	for k := 2; k < 4; k++ {
		e = s.next(t)
		var st stepJSON
		if e.name != "step" || json.Unmarshal([]byte(e.data), &st) != nil {
			t.Fatalf("event %s %s, want a step", e.name, e.data)
		}
		if st.N != uint64(k) || st.Step != treeStep(versions[k]) {
			t.Errorf("step %+v, want version %d, %s", st, k, treeStep(versions[k]))
		}
		if k == 2 {
			if st.Mem == nil || len(*st.Mem) != 1 || (*st.Mem)[0] != [2]string{"target", `"B7"`} {
				t.Errorf("version 2's memory %v, want target: \"B7\"", st.Mem)
			}
			if !strings.Contains(st.Label, "failure signalled, now at flee") {
				t.Errorf("version 2's label %q", st.Label)
			}
			if len(st.Events) != 2 || st.Events[0] != "node 3 (action attack): RUNNING -> FAILED" {
				t.Errorf("version 2's changes %q", st.Events)
			}
		}
		if k == 3 && st.Mem != nil {
			t.Errorf("version 3 lists its memory %v, unchanged since version 2", *st.Mem)
		}
	}
	if feed.Len() != 4 {
		t.Errorf("Len %d, want 4", feed.Len())
	}
}

// TestMonitorStepped follows a feed of stepped versions, and a change of
// definition: the stream resets with the new tree.
func TestMonitorStepped(t *testing.T) {
	m := viewer.NewMonitor(viewer.MonitorOptions{})
	feed := viewer.NewSteppedFeed[string](m, "stepped")
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close) // after the streams' bodies are closed
	s := openStream(t, srv, 0)
	if e := s.next(t); e.name != "trees" {
		t.Fatalf("first event %s", e.name)
	}
	var r resetJSON
	if e := s.next(t); e.name != "reset" || json.Unmarshal([]byte(e.data), &r) != nil || len(r.Nodes) != 0 || len(r.Steps) != 0 {
		t.Fatalf("an empty feed's reset: %s %s", e.name, e.data)
	}

	agent := bt.Agent[string]{Action: func(string) bt.Result { return bt.Result{Status: bt.Running} }}
	def := bt.Sequence(bt.Leaf("walk"), bt.Leaf("talk"))
	v, err := bt.NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	feed.Publish(v)
	if e := s.next(t); e.name != "reset" || json.Unmarshal([]byte(e.data), &r) != nil || len(r.Steps) != 1 || len(r.Nodes) != len(v.Picture().Nodes) {
		t.Fatalf("the first version's reset: %s %s", e.name, e.data)
	}
	if v, err = v.Step(); err != nil {
		t.Fatal(err)
	}
	feed.Publish(v)
	var st stepJSON
	if e := s.next(t); e.name != "step" || json.Unmarshal([]byte(e.data), &st) != nil {
		t.Fatalf("event %s %s, want a step", e.name, e.data)
	}
	p := v.Picture()
	var states []bt.State
	var focus []int
	for i, nd := range p.Nodes {
		states = append(states, nd.State)
		if nd.Focus {
			focus = append(focus, i)
		}
	}
	if want := fullStates(states, focus); st.Step != want || st.N != 1 || st.Label != fmt.Sprintf("version 1: the tree is %v", v.State()) {
		t.Errorf("step %+v, want %s", st, want)
	}

	other, err := bt.NewStepped(bt.Select(bt.Leaf("a"), bt.Leaf("b"), bt.Leaf("c")), agent)
	if err != nil {
		t.Fatal(err)
	}
	feed.Publish(bt.Stepped[string]{}) // not a version: skipped
	feed.Publish(other)
	if e := s.next(t); e.name != "reset" || json.Unmarshal([]byte(e.data), &r) != nil || len(r.Steps) != 1 || r.Steps[0].N != 3 || len(r.Nodes) != len(other.Picture().Nodes) || r.Nodes[2][3] != "a" {
		t.Fatalf("after a change of definition: %s %s, want a reset with the new tree at version 3", e.name, e.data)
	}
}

// TestMonitorHostileNames: names and labels are data, never markup, in
// every response: the page does not contain them, and JSON escapes what
// could end a script or a line.
func TestMonitorHostileNames(t *testing.T) {
	names := []string{"</script><script>alert(1)</script>", `<img src=x onerror="alert(1)">`, `"quoted" 'single'`, "line\u2028sep\u2029para", "bad \xff\xfe utf-8", "new\nline"}
	m := viewer.NewMonitor(viewer.MonitorOptions{Title: "</title><script>alert(1)</script>"})
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close) // after the streams' bodies are closed
	for _, name := range names {
		f := viewer.NewTreeFeed[string](m, name)
		f.Publish(bt.Start(bt.Sequence(bt.Leaf(name), bt.Leaf("b"))).WithMemory(memory.Map{}.Set(name, name)))
	}
	get := func(path string) string {
		resp, err := srv.Client().Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	page := get("/")
	if strings.Contains(page, "<script>alert") || !strings.Contains(page, "&lt;/title&gt;&lt;script&gt;") {
		t.Error("the title is markup in the page")
	}
	for _, name := range names[:2] {
		if strings.Contains(page, name) {
			t.Errorf("the page holds the name %q", name)
		}
	}
	check := func(what, data string) {
		if strings.ContainsAny(data, "<>\u2028\u2029\n") || !utf8.ValidString(data) {
			t.Errorf("%s: raw markup, line separators or invalid UTF-8 in %q", what, data)
		}
	}
	list := get("/trees")
	check("/trees", list)
	var trees []treeJSON
	if err := json.Unmarshal([]byte(list), &trees); err != nil || len(trees) != len(names) {
		t.Fatalf("/trees: %v: %s", err, list)
	}
	for i, tr := range trees {
		if want := viaJSON(names[i]); tr.Name != want {
			t.Errorf("tree %d is named %q, want %q", i, tr.Name, want)
		}
	}
	for i := range names {
		s := openStream(t, srv, i)
		for _, want := range []string{"trees", "reset"} {
			e := s.next(t)
			check(e.name, e.data)
			if e.name != want {
				t.Fatalf("event %s, want %s", e.name, want)
			}
			if want == "reset" {
				var r resetJSON
				if err := json.Unmarshal([]byte(e.data), &r); err != nil {
					t.Fatal(err)
				}
				name := viaJSON(names[i])
				label := viaJSON(bt.Leaf(names[i]).Picture().Nodes[0].Label)
				if r.Title != name || r.Nodes[1][3] != label || (*r.Steps[0].Mem)[0][0] != name {
					t.Errorf("tree %d: reset %+v, want the name %q as its title, a label and a key", i, r, name)
				}
			}
		}
	}
}

// viaJSON returns s as it reads after JSON: each byte of invalid UTF-8
// replaced by U+FFFD.
func viaJSON(s string) string {
	b, _ := json.Marshal(s)
	var out string
	_ = json.Unmarshal(b, &out)
	return out
}

// TestMonitorRequests: the monitor refuses Hosts that are not its own,
// requests that are not reads, and bad tree ids, with messages saying
// why; it serves its page with a strict Content-Security-Policy.
func TestMonitorRequests(t *testing.T) {
	m := viewer.NewMonitor(viewer.MonitorOptions{Hosts: []string{"mybox.lan"}})
	viewer.NewTreeFeed[string](m, "a")
	for _, c := range []struct {
		method, host, path string
		code               int
		body               string
	}{
		{"GET", "127.0.0.1:8080", "/", 200, `<script src="viewer.js">`},
		{"GET", "localhost:8080", "/viewer.js", 200, "BTView"},
		{"GET", "[::1]:8080", "/monitor.js", 200, "EventSource"},
		{"GET", "MyBox.lan:8080", "/viewer.css", 200, "svg text"},
		{"GET", "10.1.2.3", "/trees", 200, `[{"id":0,"name":"a","versions":0,"kept":0}]`},
		{"GET", "evil.example:8080", "/", 403, `the Host "evil.example:8080" is not this server's`},
		{"GET", "", "/", 403, "is not this server's"},
		{"POST", "127.0.0.1", "/", 405, "read only"},
		{"GET", "127.0.0.1", "/nothing", 404, `no page "/nothing"`},
		{"GET", "127.0.0.1", "/events?tree=x", 400, "want a tree's id"},
		{"GET", "127.0.0.1", "/events?tree=1", 404, "no such tree (there are 1)"},
	} {
		req := httptest.NewRequest(c.method, c.path, nil)
		req.Host = c.host
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, req)
		if rec.Code != c.code || !strings.Contains(rec.Body.String(), c.body) {
			t.Errorf("%s %s (Host %s): %d %q, want %d with %q", c.method, c.path, c.host, rec.Code, rec.Body.String(), c.code, c.body)
		}
		if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe") {
			t.Errorf("%s %s: Content-Security-Policy %q", c.method, c.path, csp)
		}
	}
	req := httptest.NewRequest("GET", "/", nil)
	req.Host = "127.0.0.1"
	rec := httptest.NewRecorder()
	m.ServeHTTP(rec, req)
	page := rec.Body.String()
	for _, bad := range []string{"<style", "<script>", " style=", "https://", "http://"} {
		if strings.Contains(strings.ReplaceAll(page, "http://www.w3.org", ""), bad) {
			t.Errorf("the monitor's page has %q", bad)
		}
	}
}

// TestPublishNoWatcherAllocs: with no page open, Publish allocates nothing.
func TestPublishNoWatcherAllocs(t *testing.T) {
	m := viewer.NewMonitor(viewer.MonitorOptions{Keep: 100})
	feed := viewer.NewTreeFeed[string](m, "a")
	sfeed := viewer.NewSteppedFeed[string](m, "b")
	v := bt.Start(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")))
	s, err := bt.NewStepped(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")), bt.Agent[string]{Action: func(string) bt.Result { return bt.Result{Status: bt.Success} }})
	if err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(1000, func() { feed.Publish(v); sfeed.Publish(s) }); n != 0 {
		t.Errorf("Publish with no watcher: %v allocations, want 0", n)
	}
}

// TestPublishNeverWaits: a page that never reads its stream does not
// block Publish; when it reads again, it gets the versions it missed
// afresh (a reset) and follows on to the last one.
func TestPublishNeverWaits(t *testing.T) {
	const keep, versions = 64, 3000
	m := viewer.NewMonitor(viewer.MonitorOptions{Keep: keep, WriteTimeout: 10 * time.Minute})
	feed := viewer.NewTreeFeed[string](m, "busy")
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close) // after the streams' bodies are closed
	def := bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))
	v := bt.Start(def)
	feed.Publish(v)

	// A client that sends its request, reads the response's start, and
	// then stops reading.
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /events?tree=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &sseStream{r: bufio.NewReader(resp.Body)}
	if e := s.next(t); e.name != "trees" {
		t.Fatalf("first event %s", e.name)
	}
	if e := s.next(t); e.name != "reset" {
		t.Fatalf("second event %s", e.name)
	}

	// Each version's memory lists 8 values of 2,000 bytes: 3,000 versions
	// make about 50 MB of events, far more than the connection buffers.
	big := strings.Repeat("x", 2000)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 1; i < versions; i++ {
			mem := memory.Map{}
			for k := 0; k < 8; k++ {
				mem = mem.Set(fmt.Sprintf("k%d", k), fmt.Sprintf("%d%s", i, big))
			}
			if i%2 == 0 {
				v = v.Succeed()
			} else {
				v = v.Fail()
			}
			feed.Publish(v.WithMemory(mem))
		}
	}()
	select {
	case <-done:
	case <-time.After(2 * time.Minute): // a deadlock, not a timing
		t.Fatal("Publish blocked behind a page that does not read")
	}

	// Reading again: the stream goes on with the versions it had started
	// sending, resyncs (a reset: the ones between fell out of the ring)
	// and reaches the last version.
	resets, last := 0, uint64(0)
	for last != versions-1 {
		e := s.next(t)
		switch e.name {
		case "reset":
			var r resetJSON
			if err := json.Unmarshal([]byte(e.data), &r); err != nil {
				t.Fatal(err)
			}
			resets++
			if len(r.Steps) > keep {
				t.Fatalf("a reset of %d versions, more than the %d kept", len(r.Steps), keep)
			}
			last = r.Steps[len(r.Steps)-1].N
		case "step":
			var st stepJSON
			if err := json.Unmarshal([]byte(e.data), &st); err != nil {
				t.Fatal(err)
			}
			if st.N != last+1 {
				t.Fatalf("step %d after %d, without a reset between", st.N, last)
			}
			last = st.N
		}
	}
	if resets == 0 {
		t.Error("the page fell behind by more than the kept versions, but got no reset")
	}
}

func BenchmarkPublishNoWatcher(b *testing.B) {
	m := viewer.NewMonitor(viewer.MonitorOptions{})
	feed := viewer.NewTreeFeed[string](m, "a")
	v := bt.Start(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		feed.Publish(v)
	}
}

// BenchmarkPublishWatcher publishes with a page's stream open and read:
// Publish itself stores and wakes the stream; the stream's goroutine
// encodes and sends on the other core (its cost is not in ns/op, but it
// competes for the lock and the machine).
func BenchmarkPublishWatcher(b *testing.B) {
	m := viewer.NewMonitor(viewer.MonitorOptions{})
	feed := viewer.NewTreeFeed[string](m, "a")
	srv := httptest.NewServer(m)
	defer srv.Close()
	v := bt.Start(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")))
	feed.Publish(v)
	resp, err := srv.Client().Get(srv.URL + "/events?tree=0")
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	for seen := 0; seen < 2; { // the list and the reset
		line, err := br.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		if strings.HasPrefix(line, "event: ") {
			seen++
		}
	}
	go io.Copy(io.Discard, br)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		feed.Publish(v)
	}
}

// TestMonitorResetBounded: a feed whose versions hold a big memory that
// changes at every version does not make one request build a reset of
// hundreds of megabytes: each version's listing is bounded in bytes, and
// says how many keys it leaves out.
func TestMonitorResetBounded(t *testing.T) {
	const keep = 40
	m := viewer.NewMonitor(viewer.MonitorOptions{Keep: keep})
	feed := viewer.NewTreeFeed[string](m, "hoarder")
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	v := bt.Start(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")))
	big := strings.Repeat("x", 5000)
	mem := memory.Map{}
	for k := 0; k < 300; k++ {
		mem = mem.Set(fmt.Sprintf("k%03d", k), big)
	}
	for i := 0; i < keep; i++ {
		mem = mem.Set("i", i)
		feed.Publish(v.WithMemory(mem))
	}
	s := openStream(t, srv, 0)
	s.next(t) // trees
	e := s.next(t)
	var r resetJSON
	if e.name != "reset" || json.Unmarshal([]byte(e.data), &r) != nil || len(r.Steps) != keep {
		t.Fatalf("event %s of %d bytes, want a reset of %d versions", e.name, len(e.data), keep)
	}
	if n := len(e.data); n > keep*80<<10 {
		t.Errorf("a reset of %d versions takes %d bytes, %d a version", keep, n, n/keep)
	}
	for _, st := range r.Steps {
		if st.Mem == nil {
			continue
		}
		l := *st.Mem
		if last := l[len(l)-1]; last[0] != "…" || !strings.HasSuffix(last[1], "more keys)") {
			t.Errorf("version %d's listing of %d keys ends with %q, want the count of the keys left out", st.N, len(l), last)
		}
	}
}
