package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/zipbt/behaviortree/internal/testlong"
)

// Figures of bt play's budget (DESIGN.md, "Servers and their limits").
const (
	playMaxPolls  = 16       // playground.Config.MaxPolls's default
	playConnBytes = 64 << 10 // the heap a connection may cost, waiting or idle, beside its response
)

// playLoadCounts returns the idle connections, clients that never read
// and long polls of the load test; BT_LONG=1 opens more.
func playLoadCounts() (idle, nonReaders, polls int) {
	if testlong.Enabled() {
		return 300, 60, 64
	}
	return 100, 20, playMaxPolls + 8
}

// liveHeap returns the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// rawRequest opens a connection to addr and sends a request with the
// token (none for an empty method), reading nothing: its socket's
// receive buffer is small, so that a big response stays on the server's
// side.
func rawRequest(t *testing.T, addr, token, method, path string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn.(*net.TCPConn).SetReadBuffer(4096)
	if method != "" {
		fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: %s\r\nX-BT-Token: %s\r\nContent-Length: 0\r\n\r\n", method, path, addr, token)
	}
	return conn
}

// TestPlayLoad serves a big tree with bt play on loopback and opens, with
// the page's token, connections that send nothing, clients that make a
// change (a cancel, answered with the whole state) and never read the
// answer, and more long polls than the cap (playMaxPolls): the page is
// still served, the polls past the cap get a 503, and the heap grows by at
// most playConnBytes a connection plus a state a client that does not
// read. Then the polls answer a step, and clients that go away mid-poll,
// or in the middle of a response, end their goroutines.
func TestPlayLoad(t *testing.T) {
	var b strings.Builder
	b.WriteString("root {\n    sequence {\n")
	for i := range testlong.Pick(2000, 5000) {
		fmt.Fprintf(&b, "        action [Action%04d]\n", i)
	}
	b.WriteString("    }\n}\n")
	file := filepath.Join(t.TempDir(), "big.mdsl")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPlay(t, "-addr", "127.0.0.1:0", file)
	addr := strings.TrimPrefix(p.url, "http://")
	code, full := p.do("GET", "/api/state", "")
	if code != http.StatusOK {
		t.Fatalf("state: %d %s", code, full)
	}
	start := p.waitState(func(playState) bool { return true }).Change
	base := liveHeap()
	goroutines := runtime.NumGoroutine()

	idle, nonReaders, polls := playLoadCounts()
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range idle {
		conns = append(conns, rawRequest(t, addr, p.token, "", ""))
	}
	for range nonReaders {
		conns = append(conns, rawRequest(t, addr, p.token, "POST", "/api/cancel"))
	}
	// The page is served meanwhile (the client's timeout only keeps a
	// failing test from hanging).
	c := &http.Client{Timeout: 20 * time.Second}
	req, _ := http.NewRequest("GET", p.url+"/api/state", nil)
	req.Header.Set("X-BT-Token", p.token)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("the page's state, with clients that do not read: %v", err)
	}
	var st playState
	err = json.NewDecoder(resp.Body).Decode(&st)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the page's state, with clients that do not read: %d %v", resp.StatusCode, err)
	}
	// Each cancel is a change: the polls wait for the one after them all.
	st = p.waitState(func(st playState) bool { return st.Change >= start+nonReaders })
	// The long polls: those past the cap are answered at once with a
	// 503, the others when the state changes.
	status := make(chan int, polls)
	for range polls {
		c := rawRequest(t, addr, p.token, "GET", fmt.Sprintf("/api/state?after=%d", st.Change))
		conns = append(conns, c)
		go func() {
			c.SetReadDeadline(time.Now().Add(time.Minute))
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				status <- 0
				return
			}
			resp.Body.Close()
			status <- resp.StatusCode
		}()
	}
	refused := 0
	for range polls - playMaxPolls {
		if code := <-status; code != http.StatusServiceUnavailable {
			t.Fatalf("a long poll answered %d before any change, want 503 (past the cap of %d)", code, playMaxPolls)
		}
		refused++
	}
	peak := uint64(0)
	for range 5 {
		time.Sleep(100 * time.Millisecond)
		peak = max(peak, liveHeap())
	}
	grew := int64(peak) - int64(base)
	budget := int64(len(conns))*playConnBytes + int64(nonReaders)*int64(len(full))
	t.Logf("%d idle connections, %d clients that never read a state of %d bytes, %d long polls (%d refused): the heap grew by %d bytes, budget %d",
		idle, nonReaders, len(full), polls, refused, grew, budget)
	if grew > budget {
		t.Errorf("the heap grew by %d bytes, more than the budget of %d", grew, budget)
	}
	// A change answers the polls that wait.
	p.post("/api/step", "")
	for range playMaxPolls {
		if code := <-status; code != http.StatusOK {
			t.Errorf("a waiting long poll answered %d, want 200", code)
		}
	}
	// Polls that go away mid-poll, and clients that go away in the middle
	// of a response, end their goroutines.
	st = p.waitState(func(playState) bool { return true })
	for range playMaxPolls {
		conns = append(conns, rawRequest(t, addr, p.token, "GET", fmt.Sprintf("/api/state?after=%d", st.Change)))
	}
	for _, c := range conns {
		c.Close()
	}
	conns = nil
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > goroutines+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > goroutines+2 {
		t.Errorf("%d goroutines after the clients went away, %d before", g, goroutines)
	}
}
