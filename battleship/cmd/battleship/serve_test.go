package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// lockedBuffer is a buffer that a test reads while the command writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// served is a run of the command with -serve: its output lines as they
// come, and its exit status once interrupted.
type served struct {
	lines  chan string
	status chan int
	stderr *lockedBuffer
	stop   chan struct{}
}

// startServe runs the command with args and -serve, interruptible by
// closing s.stop.
func startServe(t *testing.T, args ...string) *served {
	t.Helper()
	s := &served{lines: make(chan string, 100), status: make(chan int, 1), stderr: new(lockedBuffer), stop: make(chan struct{})}
	old := interrupted
	interrupted = func() (<-chan struct{}, func()) { return s.stop, func() {} }
	t.Cleanup(func() { interrupted = old })
	pr, pw := io.Pipe()
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
		close(s.lines)
	}()
	go func() {
		s.status <- run(args, pw, s.stderr)
		pw.Close()
	}()
	return s
}

// next returns the next line of output, or fails.
func (s *served) next(t *testing.T) string {
	t.Helper()
	line, ok := <-s.lines
	if !ok {
		t.Fatalf("the command ended; stderr: %s", s.stderr.String())
	}
	return line
}

var servingRE = regexp.MustCompile(`^serving http://(127\.0\.0\.1:\d+)/$`)

// TestServe plays two games of bots A and E live at full speed: the
// command prints the address first, then each game's end; the monitor
// lists both bots, each with one version per turn and one per game start,
// and the games are the seed's (the first the one played without -serve).
func TestServe(t *testing.T) {
	s := startServe(t, "-serve", "127.0.0.1:0", "-delay", "0", "-bot", "a", "-games", "2", "-size", "6x6", "-fleet", "3,2", "-seed", "5")
	m := servingRE.FindStringSubmatch(s.next(t))
	if m == nil {
		t.Fatal("the first line does not say where the monitor is served")
	}
	shots := map[string]int{}
	gameRE := regexp.MustCompile(`^bot A, game (\d): sank 2 ships in (\d+) shots$`)
	for line := s.next(t); !strings.HasPrefix(line, "all games played"); line = s.next(t) {
		g := gameRE.FindStringSubmatch(line)
		if g == nil {
			t.Fatalf("unexpected line %q", line)
		}
		n := 0
		fmt.Sscan(g[2], &n)
		shots[g[1]] = n
	}
	if len(shots) != 2 {
		t.Fatalf("games reported: %v", shots)
	}
	resp, err := http.Get("http://" + m[1] + "/trees")
	if err != nil {
		t.Fatal(err)
	}
	var trees []struct {
		Name     string
		Versions int
	}
	err = json.NewDecoder(resp.Body).Decode(&trees)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if want := shots["1"] + shots["2"] + 2; len(trees) != 1 || trees[0].Name != "bot A" || trees[0].Versions != want {
		t.Errorf("the monitor lists %+v, want bot A with %d versions", trees, want)
	}
	close(s.stop)
	if status := <-s.status; status != 0 {
		t.Errorf("exit %d after the interrupt; stderr %s", status, s.stderr.String())
	}
	if s.stderr.String() != "" {
		t.Errorf("stderr: %s", s.stderr.String())
	}

	// The first game is the one the command plays without -serve.
	var out, errOut bytes.Buffer
	if run([]string{"-bot", "a", "-size", "6x6", "-fleet", "3,2", "-seed", "5"}, &out, &errOut) != 0 {
		t.Fatal(errOut.String())
	}
	if want := fmt.Sprintf("shots: %d\n", shots["1"]); !strings.Contains(out.String(), want) {
		t.Errorf("game 1 took %d shots with -serve; without:\n%s", shots["1"], out.String())
	}
}

// TestServeInterrupted: an interrupt ends games under way, paced by a
// long delay, and the command.
func TestServeInterrupted(t *testing.T) {
	s := startServe(t, "-serve", "127.0.0.1:0", "-delay", "1h", "-bot", "all")
	if line := s.next(t); !servingRE.MatchString(line) {
		t.Fatalf("first line %q", line)
	}
	close(s.stop)
	if status := <-s.status; status != 0 {
		t.Errorf("exit %d after the interrupt; stderr %s", status, s.stderr.String())
	}
}

// TestServeWarning: an address beyond loopback prints a warning.
func TestServeWarning(t *testing.T) {
	s := startServe(t, "-serve", "0.0.0.0:0", "-delay", "1h", "-bot", "b")
	if line := s.next(t); !strings.HasPrefix(line, "serving http://") {
		t.Fatalf("first line %q", line)
	}
	close(s.stop)
	<-s.status
	if !strings.Contains(s.stderr.String(), "battleship: warning: -serve 0.0.0.0:0 is not a loopback address") {
		t.Errorf("stderr %q, want the warning", s.stderr.String())
	}
}

// TestServeFlags: flags that do not go with -serve are usage errors.
func TestServeFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"-serve", "127.0.0.1:0", "-watch"}, "-serve shows the games live; drop -watch"},
		{[]string{"-serve", "127.0.0.1:0", "-record", "x.jsonl"}, "drop -record"},
		{[]string{"-serve", "127.0.0.1:0", "-html", "x.html"}, "drop -html"},
		{[]string{"-serve", "127.0.0.1:0", "-delay", "-1s"}, "-delay -1s: want 0 or more"},
		{[]string{"-delay", "1s"}, "-delay paces the games of -serve; add -serve ADDR"},
		{[]string{"-serve", "127.0.0.1:0", "-size", "3x3", "-fleet", "5"}, "does not fit a 3x3 board"},
		{[]string{"-serve", "not an address"}, "-serve: listen tcp: address not an address"},
	} {
		var out, errOut bytes.Buffer
		if status := run(c.args, &out, &errOut); status != 2 || !strings.Contains(errOut.String(), c.want) || out.Len() > 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, status, out.String(), errOut.String(), c.want)
		}
	}
}
