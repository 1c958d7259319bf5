package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHTMLEveryBot writes the viewer page of a game of each bot, and of
// -bot all (the default, the README's command), while playing and from a
// replayed record, and checks that every page holds each game's replay
// (bug: bot E, on the stepped engine, panicked in the viewer).
func TestHTMLEveryBot(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	for _, bot := range []string{"a", "b", "c", "d", "e", "all"} {
		t.Run(bot, func(t *testing.T) {
			rec, play, replay := at(bot+".jsonl"), at(bot+".html"), at(bot+"-replay.html")
			args := []string{"-bot", bot, "-seed", "5", "-record", rec, "-html", play}
			if bot == "all" {
				args = []string{"-record", rec, "-html", play} // the defaults
			}
			for _, args := range [][]string{args, {"-replay", rec, "-html", replay}} {
				var out, errOut bytes.Buffer
				if status := run(args, &out, &errOut); status != 0 {
					t.Fatalf("%v: exit %d: %s", args, status, errOut.String())
				}
			}
			page, err := os.ReadFile(play)
			if err != nil {
				t.Fatal(err)
			}
			again, err := os.ReadFile(replay)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(page, again) {
				t.Error("the page of the replayed record differs from the page of the games played")
			}
			bots := []string{strings.ToUpper(bot)}
			if bot == "all" {
				bots = []string{"A", "B", "C", "D", "E"}
			}
			if !bytes.HasPrefix(page, []byte("<!DOCTYPE html>")) {
				t.Fatalf("not a page: %.100q", page)
			}
			for _, b := range bots {
				// Each game's replay has a title and a start step naming its bot.
				if want := "start: bot " + b + " on a 10x10 board"; !bytes.Contains(page, []byte(want)) {
					t.Errorf("the page lacks %q", want)
				}
			}
			if n := bytes.Count(page, []byte(`"title":"bot `)); n != len(bots) {
				t.Errorf("%d replays in the page, want %d", n, len(bots))
			}
		})
	}
}
