package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/zipbt/behaviortree/internal/httpserve"
	"github.com/zipbt/behaviortree/internal/termsafe"
	"github.com/zipbt/behaviortree/viewer/playground"
)

// playContext returns the context that ends bt play: an interrupt or a
// termination signal. A variable so that tests can end it.
var playContext = func() (context.Context, context.CancelFunc) {
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}

const playSynopsis = "play [-addr HOST:PORT] [-script FILE] [-per-call] [-seed S] [-poll D] FILE"

// playCmd serves the playground of a tree file until interrupted.
func playCmd(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("play", playSynopsis, stdout)
	addr := fs.String("addr", "127.0.0.1:8765", "the address to serve the page at (loopback unless you mean it)")
	scriptFile := fs.String("script", "", "a JSON script, as for bt run, answering for the names it lists; the page asks the others")
	perCall := fs.Bool("per-call", false, perCallUsage+"; the page can switch it")
	seed := fs.Uint64("seed", 1, "the seed of the tree's random draws")
	poll := fs.Duration("poll", 500*time.Millisecond, "how often to check the file for changes")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	file, err := onlyFile(fs)
	if err != nil {
		return err
	}
	if file == "-" {
		return usagef("bt play needs a file it can watch and save, not the standard input")
	}
	if *poll <= 0 {
		return usagef("-poll must be positive, got %v", *poll)
	}
	host, _, err := net.SplitHostPort(*addr)
	if err != nil {
		return usagef("-addr %q: %v", *addr, err)
	}
	var sc *playground.Script
	if *scriptFile != "" {
		var s script
		if err := s.load(*scriptFile); err != nil {
			return err
		}
		t, _, err := load(file)
		if err == nil {
			if err := s.check(displayName(*scriptFile), t); err != nil {
				return err
			}
		}
		sc = &playground.Script{Actions: s.Actions, Conditions: s.Conditions, Delta: s.Delta}
		for _, st := range s.Steps {
			sc.Steps = append(sc.Steps, playground.ScriptStep{Actions: st.Actions, Conditions: st.Conditions})
		}
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	real := ln.Addr().String()
	srv, err := playground.New(playground.Config{
		File:    file,
		Addr:    real,
		Parse:   playDefinition,
		Read:    readInput,
		Write:   replaceFile,
		Script:  sc,
		PerCall: *perCall,
		Seed:    *seed,
		Poll:    *poll,
	})
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintf(stdout, "serving http://%s/\n", real)
	if !isLoopback(host) {
		fmt.Fprintf(stderr, "bt play: warning: %s is not a loopback address: other machines can reach the page, which steps the tree and rewrites %s (each request needs the page's token)\n", termsafe.Text(*addr), termsafe.Text(file))
	}
	ctx, stop := playContext()
	defer stop()
	hs := httpserve.New(srv)
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	srv.Close() // ends the page's waiting requests first
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return err
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// isLoopback reports whether a -addr host serves only this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// playDefinition parses a tree file for the playground, as bt run runs
// it: trees with Elixir kinds (or in the Elixir JSON format) run with
// Value/Succeed/Fail, the others on the stepped engine.
func playDefinition(name string, src []byte) (playground.Definition, error) {
	if isXML(name) {
		return xmlPlayDefinition(name, src)
	}
	t, err := parse(name, src)
	if err != nil {
		return playground.Definition{}, err
	}
	if t.runsElixir() {
		s, err := elixirTree(t)
		if err != nil {
			return playground.Definition{}, fmt.Errorf("%s: %w", name, err)
		}
		return playground.Definition{Elixir: s}, nil
	}
	c := t.call
	if t.isStr {
		c = callTree(t.str)
	}
	if c.IsZero() {
		return playground.Definition{}, fmt.Errorf("%s: no tree", name)
	}
	return playground.Definition{Stepped: c}, nil
}
