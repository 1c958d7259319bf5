package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const playTree = `root {
    sequence {
        condition [HasAmmo]
        action [Fire]
    }
}
`

// playRun is a bt play running in the background.
type playRun struct {
	t      *testing.T
	url    string
	token  string
	cancel context.CancelFunc
	done   chan int
	stderr *bytes.Buffer
	code   int
}

// startPlay runs bt play with args until the test stops it. Set
// writeTemp and other variables before: the server reads them from its
// own goroutines.
func startPlay(t *testing.T, args ...string) *playRun {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	old := playContext
	playContext = func() (context.Context, context.CancelFunc) { return ctx, cancel }
	pr, pw := io.Pipe()
	p := &playRun{t: t, cancel: cancel, done: make(chan int, 1), stderr: new(bytes.Buffer)}
	go func() {
		code := run(append([]string{"play"}, args...), pw, p.stderr)
		pw.Close()
		p.done <- code
	}()
	t.Cleanup(func() { p.stop(); playContext = old })
	line, err := bufio.NewReader(pr).ReadString('\n')
	go io.Copy(io.Discard, pr)
	if err != nil {
		code := p.stop()
		t.Fatalf("bt play printed %q (%v), exit %d: %s", line, err, code, p.stderr)
	}
	m := regexp.MustCompile(`^serving (http://(?:[0-9.]+|\[[0-9a-f:]*\]):[0-9]+)/\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("bt play's first line is %q", line)
	}
	p.url = m[1]
	code, page := p.do("GET", "/", "")
	tok := regexp.MustCompile(`<meta name="bt-token" content="([0-9a-f]{64})">`).FindSubmatch(page)
	if code != 200 || tok == nil {
		t.Fatalf("the page: %d %s", code, page)
	}
	p.token = string(tok[1])
	return p
}

// stop ends bt play and returns its exit code.
func (p *playRun) stop() int {
	if p.done == nil {
		return p.code
	}
	p.cancel()
	select {
	case p.code = <-p.done:
	case <-time.After(time.Minute):
		p.t.Fatal("bt play did not end")
	}
	p.done = nil
	return p.code
}

func (p *playRun) do(method, path, body string) (int, []byte) {
	p.t.Helper()
	req, err := http.NewRequest(method, p.url+path, strings.NewReader(body))
	if err != nil {
		p.t.Fatal(err)
	}
	if p.token != "" {
		req.Header.Set("X-BT-Token", p.token)
		req.Header.Set("Origin", p.url)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// playState is the part of the playground's state these tests read.
type playState struct {
	PerCall bool   `json:"perCall"`
	Change  int    `json:"change"`
	Engine  string `json:"engine"`
	SrcRev  int    `json:"srcRev"`
	Source  string `json:"source"`
	Error   *struct {
		Msg       string
		Line, Col int
	} `json:"error"`
	Ask *struct {
		Call, Text string
	} `json:"ask"`
	Version struct {
		ID     int    `json:"id"`
		States string `json:"states"`
	} `json:"version"`
}

func (p *playRun) post(path, body string) playState {
	p.t.Helper()
	code, b := p.do("POST", path, body)
	if code != 200 {
		p.t.Fatalf("POST %s: %d %s", path, code, b)
	}
	var st playState
	if err := json.Unmarshal(b, &st); err != nil {
		p.t.Fatal(err)
	}
	return st
}

// waitState waits until the state satisfies ok, following its changes.
func (p *playRun) waitState(ok func(playState) bool) playState {
	p.t.Helper()
	after := -1
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		code, b := p.do("GET", fmt.Sprintf("/api/state?after=%d", after), "")
		var st playState
		if code != 200 || json.Unmarshal(b, &st) != nil {
			p.t.Fatalf("state: %d %s", code, b)
		}
		if ok(st) {
			return st
		}
		after = st.Change
	}
	p.t.Fatal("the state never came")
	return playState{}
}

// TestPlay runs bt play on a file: it serves on the address it prints,
// steps with the page's answers, saves an edit atomically, sees a change
// on disk, and ends at an interrupt with exit 0.
func TestPlay(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.mdsl")
	if err := os.WriteFile(file, []byte(playTree), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPlay(t, "-addr", "127.0.0.1:0", "-poll", "10ms", file)
	st := p.post("/api/step", "")
	if st.Ask == nil || st.Ask.Call != "condition" || st.Ask.Text != "HasAmmo" {
		t.Fatalf("the first question: %+v", st.Ask)
	}
	p.post("/api/answer", `{"value":"true"}`)
	st = p.post("/api/answer", `{"value":"success"}`)
	if st.Ask != nil || st.Version.ID != 1 || st.Version.States != "ssss" {
		t.Fatalf("after the step: %+v", st)
	}
	// A request without the token changes nothing.
	tok := p.token
	p.token = ""
	if code, _ := p.do("POST", "/api/undo", ""); code != http.StatusForbidden {
		t.Errorf("undo without the token: %d", code)
	}
	p.token = tok

	edited := strings.Replace(playTree, "action [Fire]", "action [Fire]\n        action [Reload]", 1)
	st = p.post(fmt.Sprintf("/api/source?rev=%d", st.SrcRev), edited)
	if b, _ := os.ReadFile(file); string(b) != edited || st.Error != nil || st.Version.States != "iiiii" {
		t.Fatalf("after saving an edit: file %q, error %v, states %s", b, st.Error, st.Version.States)
	}
	checkOnly(t, dir, "bot.mdsl")

	// An error written on disk: shown with bt check's line, column and
	// caret. (os.WriteFile truncates, then writes: the page may see the
	// empty file first, and its error.)
	if err := os.WriteFile(file, []byte("root {\n    flip { action [A] action [B] }\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st = p.waitState(func(s playState) bool { return s.Error != nil && s.Error.Line == 2 })
	var check bytes.Buffer
	run([]string{"check", file}, io.Discard, &check)
	if st.Error.Msg+"\n" != check.String() || st.Error.Line != 2 {
		t.Errorf("the page's error %q (line %d), bt check's %q", st.Error.Msg, st.Error.Line, check.String())
	}
	if code := p.stop(); code != 0 {
		t.Errorf("exit %d: %s", code, p.stderr)
	}
	if p.stderr.Len() != 0 {
		t.Errorf("stderr: %s", p.stderr)
	}
}

// TestPlayPerCall: -per-call reaches the page's switch, off by default.
func TestPlayPerCall(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.mdsl")
	if err := os.WriteFile(file, []byte(playTree), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, perCall := range []bool{false, true} {
		args := []string{"-addr", "127.0.0.1:0", file}
		if perCall {
			args = append([]string{"-per-call"}, args...)
		}
		p := startPlay(t, args...)
		if st := p.waitState(func(playState) bool { return true }); st.PerCall != perCall {
			t.Errorf("bt play %v: perCall %v", args, st.PerCall)
		}
		if code := p.stop(); code != 0 {
			t.Errorf("exit %d: %s", code, p.stderr)
		}
	}
}

// TestPlaySaveFails: a save whose write fails half-way leaves the file as
// it was, with no temporary file beside it, and says so.
func TestPlaySaveFails(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.mdsl")
	if err := os.WriteFile(file, []byte(playTree), 0o644); err != nil {
		t.Fatal(err)
	}
	old := writeTemp
	t.Cleanup(func() { writeTemp = old })
	writeTemp = func(f *os.File, data []byte) error {
		f.Write(data[:len(data)/2])
		return errors.New("no space left on device")
	}
	p := startPlay(t, "-addr", "127.0.0.1:0", file)
	code, msg := p.do("POST", "/api/source?rev=1", "root { action [X] }")
	if code != http.StatusConflict || !strings.Contains(string(msg), "no space left on device; the file is left as it was") {
		t.Errorf("a failing save: %d %s", code, msg)
	}
	if b, _ := os.ReadFile(file); string(b) != playTree {
		t.Errorf("a failing save left %q", b)
	}
	checkOnly(t, dir, "bot.mdsl")
	p.stop()
}

// TestPlayNonLoopback: an address other machines reach gets a warning.
func TestPlayNonLoopback(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bot.mdsl")
	if err := os.WriteFile(file, []byte(playTree), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPlay(t, "-addr", "0.0.0.0:0", file)
	p.stop()
	if !strings.Contains(p.stderr.String(), "bt play: warning: 0.0.0.0:0 is not a loopback address") {
		t.Errorf("stderr: %q", p.stderr)
	}
	for _, h := range []string{"127.0.0.1", "::1", "localhost", "LocalHost"} {
		if !isLoopback(h) {
			t.Errorf("%s is not loopback", h)
		}
	}
	for _, h := range []string{"", "0.0.0.0", "::", "192.168.1.2", "example.com"} {
		if isLoopback(h) {
			t.Errorf("%s is loopback", h)
		}
	}
}

// TestPlayElixir: a tree of Elixir kinds plays in the Elixir style.
func TestPlayElixir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bot.mdsl")
	if err := os.WriteFile(file, []byte("root { repeat_until_fail { action [go_right] } }"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPlay(t, "-addr", "127.0.0.1:0", file)
	st := p.post("/api/step", "")
	if st.Engine != "elixir" || st.Ask == nil || st.Ask.Call != "value" || st.Ask.Text != "go_right" {
		t.Errorf("the Elixir-style tree: engine %q, ask %+v", st.Engine, st.Ask)
	}
	p.stop()
}

// TestPlayUsage: bad arguments are usage errors (exit 2); a script that
// names what the tree does not call is an error (exit 1).
func TestPlayUsage(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.mdsl")
	os.WriteFile(file, []byte(playTree), 0o644)
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"actions": {"Fyre": ["success"]}}`), 0o644)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"play"}, 2, "no file"},
		{[]string{"play", "-"}, 2, "not the standard input"},
		{[]string{"play", "-poll", "0s", file}, 2, "-poll must be positive"},
		{[]string{"play", "-addr", "nonsense", file}, 2, "-addr"},
		{[]string{"play", "-addr", "127.0.0.1:0", "-script", bad, file}, 1, `action "Fyre", which the tree does not call`},
		{[]string{"play", "-addr", "127.0.0.1:0", filepath.Join(dir, "missing.mdsl")}, 1, "missing.mdsl"},
	} {
		var out, errs bytes.Buffer
		code := run(c.args, &out, &errs)
		if code != c.code || !strings.Contains(errs.String(), c.msg) {
			t.Errorf("bt %s: exit %d, %q; want %d and %q", strings.Join(c.args, " "), code, errs.String(), c.code, c.msg)
		}
	}
	var out bytes.Buffer
	if code := run([]string{"play", "-h"}, &out, io.Discard); code != 0 || !strings.Contains(out.String(), "usage: bt play") {
		t.Errorf("bt play -h: %d %q", code, out.String())
	}
}
