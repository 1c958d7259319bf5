package playground

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// waitPoll opens a long poll on a connection of its own and returns the
// connection, without reading the response.
func (c *client) waitPoll(after int) net.Conn {
	c.t.Helper()
	addr := strings.TrimPrefix(c.ts.URL, "http://")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		c.t.Fatal(err)
	}
	fmt.Fprintf(conn, "GET /api/state?after=%d HTTP/1.1\r\nHost: %s\r\nX-BT-Token: %s\r\n\r\n", after, addr, c.tok)
	return conn
}

// waitPolls waits until n long polls are waiting.
func (c *client) waitPolls(n int) {
	c.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(c.s.polls) != n; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			c.t.Fatalf("%d long polls waiting, want %d", len(c.s.polls), n)
		}
	}
}

// TestMaxPolls: at most Config.MaxPolls long polls wait at once; one more
// is a 503 with Retry-After, and a poll whose client goes away frees its
// place.
func TestMaxPolls(t *testing.T) {
	c := newClient(t, sample, Config{MaxPolls: 2})
	st := c.state()
	a, b := c.waitPoll(st.Change), c.waitPoll(st.Change)
	defer a.Close()
	defer b.Close()
	c.waitPolls(2)
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/state?after=%d", c.ts.URL, st.Change), nil)
	req.Header.Set("X-BT-Token", c.tok)
	resp, err := c.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Errorf("a third long poll: %d, Retry-After %q; want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	// A poll that did not need to wait is not counted.
	if got := c.state(); got.Change != st.Change {
		t.Fatalf("state changed: %d", got.Change)
	}
	a.Close()
	c.waitPolls(1)
	// A change answers the poll still waiting.
	c.post("/api/step", "")
	resp2, err := http.ReadResponse(bufio.NewReader(b), nil)
	if err != nil || resp2.StatusCode != http.StatusOK {
		t.Fatalf("the waiting poll: %v %v", resp2, err)
	}
	c.waitPolls(0)
}

// stuckWriter is a ResponseWriter whose Write blocks until unblock is
// closed: a client that does not read.
type stuckWriter struct {
	h       http.Header
	writing chan struct{} // closed at the first Write
	unblock chan struct{}
	once    bool
}

func (w *stuckWriter) Header() http.Header { return w.h }
func (w *stuckWriter) WriteHeader(int)     {}
func (w *stuckWriter) Write(p []byte) (int, error) {
	if !w.once {
		w.once = true
		close(w.writing)
	}
	<-w.unblock
	return len(p), nil
}

// TestNoWriteUnderLock: a reply that cannot be written (a client that
// does not read) does not hold the server's lock: the page's requests are
// served meanwhile.
func TestNoWriteUnderLock(t *testing.T) {
	c := newClient(t, sample, Config{})
	w := &stuckWriter{h: http.Header{}, writing: make(chan struct{}), unblock: make(chan struct{})}
	defer close(w.unblock)
	r, _ := http.NewRequest("POST", c.ts.URL+"/api/cancel", nil)
	r.Host = strings.TrimPrefix(c.ts.URL, "http://")
	r.Header.Set("X-BT-Token", c.tok)
	go c.s.ServeHTTP(w, r)
	<-w.writing
	done := make(chan int, 1)
	go func() {
		code, _ := c.do("POST", "/api/cancel", nil, nil)
		done <- code
	}()
	select {
	case code := <-done:
		if code != http.StatusOK {
			t.Errorf("a cancel while a reply is stuck: %d", code)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a request waits for a reply that a client does not read")
	}
}
