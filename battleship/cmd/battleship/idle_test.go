package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/zipbt/behaviortree/internal/httpserve"
)

// TestServeClosesIdleConnections: the monitor's server closes a
// connection that sends nothing, and one kept alive after a request, once
// its timeouts pass.
func TestServeClosesIdleConnections(t *testing.T) {
	oldH, oldI := httpserve.HeaderTimeout, httpserve.IdleTimeout
	httpserve.HeaderTimeout, httpserve.IdleTimeout = 300*time.Millisecond, 300*time.Millisecond
	t.Cleanup(func() { httpserve.HeaderTimeout, httpserve.IdleTimeout = oldH, oldI })
	s := startServe(t, "-serve", "127.0.0.1:0", "-delay", "1h", "-bot", "b")
	m := servingRE.FindStringSubmatch(s.next(t))
	if m == nil {
		t.Fatal("the first line does not say where the monitor is served")
	}
	defer func() { close(s.stop); <-s.status }()
	for _, req := range []string{"", "GET /trees HTTP/1.1\r\nHost: " + m[1] + "\r\n\r\n"} {
		conn, err := net.Dial("tcp", m[1])
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(conn)
		if req != "" {
			io.WriteString(conn, req)
			conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		conn.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := br.ReadByte(); err != io.EOF {
			t.Errorf("a connection idle after %q: %v, want it closed within 5 s", req, err)
		}
		conn.Close()
	}
}
