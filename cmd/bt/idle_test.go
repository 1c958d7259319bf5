package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zipbt/behaviortree/internal/httpserve"
)

// shortTimeouts shortens the servers' timeouts for a test.
func shortTimeouts(t *testing.T) {
	oldH, oldI := httpserve.HeaderTimeout, httpserve.IdleTimeout
	httpserve.HeaderTimeout, httpserve.IdleTimeout = 300*time.Millisecond, 300*time.Millisecond
	t.Cleanup(func() { httpserve.HeaderTimeout, httpserve.IdleTimeout = oldH, oldI })
}

// closedWithin reports whether the server closes conn within d, after the
// request req (if any) and its response; the response's bytes are read.
func closedWithin(t *testing.T, conn net.Conn, req string, d time.Duration) bool {
	t.Helper()
	br := bufio.NewReader(conn)
	if req != "" {
		if _, err := io.WriteString(conn, req); err != nil {
			t.Fatal(err)
		}
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	conn.SetReadDeadline(time.Now().Add(d))
	_, err := br.ReadByte()
	return err == io.EOF
}

// TestPlayClosesIdleConnections: bt play closes a connection that sends
// nothing, and one kept alive after a request, once its timeouts pass.
func TestPlayClosesIdleConnections(t *testing.T) {
	shortTimeouts(t)
	file := filepath.Join(t.TempDir(), "bot.mdsl")
	if err := os.WriteFile(file, []byte(playTree), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPlay(t, "-addr", "127.0.0.1:0", file)
	addr := strings.TrimPrefix(p.url, "http://")
	for _, req := range []string{"", "GET /favicon.svg HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"} {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		if !closedWithin(t, conn, req, 5*time.Second) {
			t.Errorf("a connection idle after %q is still open after 5 s", req)
		}
		conn.Close()
	}
}
