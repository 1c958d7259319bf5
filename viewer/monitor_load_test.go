package viewer_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
	"github.com/zipbt/behaviortree/viewer"
)

// loadClients is the number of pages of the load test; BT_LONG=1 opens
// more.
func loadClients() int {
	if os.Getenv("BT_LONG") == "1" {
		return 60
	}
	return 24
}

// hoard publishes keep versions of a tree whose memory is big (32 KB
// listed) and changes at every version, each with the biggest world a
// page is sent (text and lines that JSON escapes six times over, a grid
// of 10,000 cells): a reset of all of them, encoded whole, would take
// more than keep × 32 KB.
func hoard(t *testing.T, feed *viewer.Feed[bt.Tree[string]], keep int) {
	v := bt.Start(bt.Sequence(bt.Leaf("a"), bt.Leaf("b")))
	big := strings.Repeat("x", 5000)
	mem := memory.Map{}
	for k := 0; k < 300; k++ {
		mem = mem.Set(fmt.Sprintf("k%03d", k), big)
	}
	line := strings.Repeat("<", 300)
	w := viewer.World{Text: strings.Repeat("<", 8<<10), Grid: &viewer.Grid{Cols: 100, Rows: 100, Cells: strings.Repeat("m", 10000), Last: 0}}
	for range 40 {
		w.Events = append(w.Events, line)
	}
	for i := 0; i < keep; i++ {
		mem = mem.Set("i", i)
		if err := feed.PublishWith(v.WithMemory(mem), w); err != nil {
			t.Fatal(err)
		}
	}
}

// idlePage opens an event stream on loopback and reads its response's
// header, then nothing more: a page that never reads. It returns the
// connection and the status code.
func idlePage(t *testing.T, addr string) (net.Conn, int) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn.(*net.TCPConn).SetReadBuffer(4096)
	fmt.Fprintf(conn, "GET /events?tree=0 HTTP/1.1\r\nHost: %s\r\n\r\n", addr)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReaderSize(conn, 16), nil)
	if err != nil {
		t.Fatal(err)
	}
	return conn, resp.StatusCode
}

// liveHeap returns the heap in use after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestMonitorLoad opens, on loopback, pages that never read against a
// feed of 1,000 versions with big memories, more than MaxStreams of them:
// those past the cap get a 503, and the heap stays within the documented
// budget (viewer.MonitorBudget) whatever the pages do; pages that go away
// mid-stream end their goroutines.
func TestMonitorLoad(t *testing.T) {
	const keep, maxStreams = 1000, 16
	m := viewer.NewMonitor(viewer.MonitorOptions{Keep: keep, MaxStreams: maxStreams, WriteTimeout: 5 * time.Second})
	feed := viewer.NewTreeFeed[string](m, "hoarder")
	hoard(t, feed, keep)
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	addr := strings.TrimPrefix(srv.URL, "http://")
	base := liveHeap()
	goroutines := runtime.NumGoroutine()

	n := loadClients()
	var conns []net.Conn
	refused := 0
	for range n {
		conn, code := idlePage(t, addr)
		conns = append(conns, conn)
		switch code {
		case http.StatusOK:
		case http.StatusServiceUnavailable:
			refused++
		default:
			t.Fatalf("status %d", code)
		}
	}
	if want := max(0, n-maxStreams); refused != want {
		t.Errorf("%d of %d pages refused, want %d (past MaxStreams %d)", refused, n, want, maxStreams)
	}
	budget := viewer.MonitorBudget(1, maxStreams)
	peak := uint64(0)
	for range 5 {
		time.Sleep(100 * time.Millisecond)
		peak = max(peak, liveHeap())
	}
	grew := int64(peak) - int64(base)
	t.Logf("%d pages that never read (%d refused): the heap grew by %d bytes (%d a page served), budget %d", n, refused, grew, grew/int64(max(1, n-refused)), budget)
	if grew > int64(budget) {
		t.Errorf("the heap grew by %d bytes, more than the budget of %d", grew, budget)
	}
	// Pages that go away mid-stream: their goroutines end.
	for _, c := range conns {
		c.Close()
	}
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > goroutines+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if g := runtime.NumGoroutine(); g > goroutines+2 {
		t.Errorf("%d goroutines after the pages closed, %d before", g, goroutines)
	}
}

// TestMonitorResetShared: the kept versions of a feed whose memory is big
// take more than a reset's budget: the reset holds the newest that fit
// (the last version published last, the first with its memory listed),
// and two pages get the same reset, encoded once.
func TestMonitorResetShared(t *testing.T) {
	const keep = 1000
	m := viewer.NewMonitor(viewer.MonitorOptions{Keep: keep})
	feed := viewer.NewTreeFeed[string](m, "hoarder")
	hoard(t, feed, keep)
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	var data []string
	for range 2 {
		s := openStream(t, srv, 0)
		s.next(t) // trees
		e := s.next(t)
		if e.name != "reset" {
			t.Fatalf("event %s", e.name)
		}
		data = append(data, e.data)
	}
	if data[0] != data[1] {
		t.Error("two pages got different resets of the same versions")
	}
	var r resetJSON
	if err := json.Unmarshal([]byte(data[0]), &r); err != nil {
		t.Fatal(err)
	}
	n := len(r.Steps)
	t.Logf("a reset of %d of the %d versions kept: %d bytes", n, keep, len(data[0]))
	if n == 0 || n >= keep || r.Steps[n-1].N != keep-1 || r.Steps[0].Mem == nil || len(r.Steps[0].Events) != 0 {
		t.Fatalf("%d steps, the last numbered %d, the first with memory %v", n, r.Steps[n-1].N, r.Steps[0].Mem != nil)
	}
	if len(data[0]) > 3<<20 {
		t.Errorf("a reset of %d bytes", len(data[0]))
	}
}
