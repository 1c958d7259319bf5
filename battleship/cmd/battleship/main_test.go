package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun is a table of command lines: {name, args, exit status, what the
// output must contain}.
func TestRun(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		want   []string
	}{
		{"default: one game per bot", nil, 0,
			[]string{"bot A sank 5 ships in", "bot B sank", "bot C sank", "bot D sank", "bot E sank", "shots: ", "    A B C D E F G H I J"}},
		{"bot E, watched", []string{"-bot", "e", "-watch", "-size", "6x6", "-fleet", "3,2"}, 0,
			[]string{"turn 1: hunt_parity at ", "tree now at the start", "target at", "tree now at target; targeting the ship hit at", "bot E sank 2 ships"}},
		{"bot E, undo", []string{"-bot", "e", "-watch", "-undo", "3", "-size", "6x6", "-fleet", "3,2"}, 0,
			[]string{"undo: 3 turns back, to the board after turn", "bot E sank 2 ships"}},
		{"one bot, watched", []string{"-bot", "c", "-watch", "-size", "5x5", "-fleet", "2"}, 0,
			[]string{"turn 1: random_guess at ", "tree now at", "bot C sank 1 ships"}},
		{"statistics", []string{"-games", "20", "-bot", "d", "-seed", "3"}, 0,
			[]string{"bot D: 20 games on 10x10, fleet [5 4 3 3 2], seed 3", "mean", "median", "p90", "max", "games/s"}},
		{"unknown bot", []string{"-bot", "x"}, 2, []string{`battleship: -bot "x": want a, b, c, d, e or all`}},
		{"bad size", []string{"-size", "ten"}, 2, []string{`battleship: -size "ten": want COLSxROWS`}},
		{"bad fleet", []string{"-fleet", "5,x"}, 2, []string{`battleship: -fleet: item 2 ("x") is not a whole number`}},
		{"fleet does not fit", []string{"-size", "5x5", "-fleet", "6"}, 2,
			[]string{"battleship: ship 1 of length 6 does not fit a 5x5 board"}},
		{"board too large", []string{"-size", "101x10"}, 2, []string{"battleship: board 101x10: each side must be 1 to 100"}},
		{"too many ships", []string{"-size", "100x100", "-fleet", strings.Repeat("1,", 9999) + "1"}, 2,
			[]string{"battleship: -fleet: 10000 ships, more than the limit of 100"}},
		{"101 ships", []string{"-size", "100x100", "-fleet", strings.Repeat("1,", 100) + "1"}, 2,
			[]string{"battleship: -fleet: 101 ships, more than the limit of 100"}},
		{"long bad size", []string{"-size", strings.Repeat("9", 5000)}, 2, []string{`... (5000 bytes): want COLSxROWS`}},
		{"long bad fleet item", []string{"-fleet", "1," + strings.Repeat("x", 5000)}, 2, []string{`... (5000 bytes)) is not a whole number`}},
		{"too many cells", []string{"-size", "3x3", "-fleet", "3,3,3,3"}, 2, []string{"more than the 9 of a 3x3 board"}},
		{"watch with games", []string{"-watch", "-games", "2"}, 2, []string{"-watch plays one game per bot"}},
		{"no games", []string{"-games", "0"}, 2, []string{"-games 0: want at least 1"}},
		{"unknown flag", []string{"-fast"}, 2, []string{"flag provided but not defined: -fast"}},
		{"stray argument", []string{"go"}, 2, []string{`unexpected argument "go"`}},
		{"help", []string{"-h"}, 0, []string{"Usage of battleship", "-fleet"}},
		{"undo without watch", []string{"-undo", "2"}, 2, []string{"-undo 2: needs -watch and N >= 1"}},
		{"undo too far", []string{"-watch", "-undo", "500", "-bot", "a"}, 2, []string{"battleship: -undo 500: bot A's game has only"}},
		{"watch and undo", []string{"-watch", "-undo", "2", "-bot", "b", "-size", "5x5", "-fleet", "2"}, 0,
			[]string{"undo: 2 turns back, to the board after turn", "bot B sank 1 ships"}},
		{"record with games", []string{"-record", "x.jsonl", "-games", "5"}, 2, []string{"-record writes single games"}},
		{"replay with other flags", []string{"-replay", "x.jsonl", "-bot", "a"}, 2, []string{"-replay takes no other flag"}},
		{"replay missing file", []string{"-replay", "/nonexistent/x.jsonl"}, 2, []string{"-replay: open /nonexistent/x.jsonl"}},
		{"html with games", []string{"-html", "x.html", "-games", "3"}, 2, []string{"-html shows single games; drop -games"}},
		{"plot without games", []string{"-plot", "x.svg"}, 2, []string{"-plot draws the statistics of -games N"}},
		{"watch draws the tree", []string{"-bot", "b", "-watch", "-size", "4x4", "-fleet", "2"}, 0,
			[]string{"    ▶ sequence", "├─ ✔ action top_left", "◀ focus"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			status := run(tc.args, &out, &errOut)
			if status != tc.status {
				t.Fatalf("exit %d, want %d; stderr %q", status, tc.status, errOut.String())
			}
			all := out.String() + errOut.String()
			for _, w := range tc.want {
				if !strings.Contains(all, w) {
					t.Errorf("output lacks %q:\n%s", w, all)
				}
			}
			if strings.Contains(errOut.String(), "battleship: battleship:") || strings.Count(errOut.String(), "battleship: ") > 1 {
				t.Errorf("doubled prefix:\n%s", errOut.String())
			}
			if tc.status == 2 && out.Len() > 0 {
				t.Errorf("a usage error printed a game first:\n%.300s", out.String())
			}
			if len(errOut.String()) > 2000 && tc.name != "help" {
				t.Errorf("a %d-byte message", errOut.Len())
			}
		})
	}
}

// TestWatchCoordinates checks that -watch names cells as the board is
// labelled, and counts ships from 1.
func TestWatchCoordinates(t *testing.T) {
	var out bytes.Buffer
	if status := run([]string{"-bot", "b", "-watch", "-size", "3x2", "-fleet", "2"}, &out, &bytes.Buffer{}); status != 0 {
		t.Fatalf("exit %d", status)
	}
	for _, want := range []string{"turn 1: top_left at A1: ", "turn 2: go_right at B1: ",
		"sunk ship 1 (tree now at", "sweeping row by row: go_right from B1"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "(0,") || strings.Contains(out.String(), "sunk ship 0") {
		t.Errorf("0-based coordinates or ships:\n%s", out.String())
	}
}

// TestUsageErrorKeepsRecord: a bad command line with -record leaves an
// existing record as it was, and a failed run leaves no temporary file
// (bug: "-record keep.jsonl -watch -undo 1000" truncated keep.jsonl).
func TestUsageErrorKeepsRecord(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.jsonl")
	const old = "the old record\n"
	if err := os.WriteFile(keep, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-record", keep, "-watch", "-undo", "1000"},
		{"-record", keep, "-size", "3x3", "-fleet", "3,3,3,1"},
		{"-record", keep, "-bot", "x"},
	} {
		var out, errOut bytes.Buffer
		if status := run(args, &out, &errOut); status != 2 {
			t.Errorf("%v: exit %d, want 2", args, status)
		}
		if out.Len() > 0 {
			t.Errorf("%v printed a game before failing", args)
		}
		if data, err := os.ReadFile(keep); err != nil || string(data) != old {
			t.Fatalf("%v: the record now holds %q (%v)", args, data, err)
		}
	}
	// A good run replaces the record whole, through a temporary file.
	if status := run([]string{"-record", keep, "-bot", "a"}, &bytes.Buffer{}, &bytes.Buffer{}); status != 0 {
		t.Fatalf("exit %d", status)
	}
	if data, _ := os.ReadFile(keep); !strings.HasPrefix(string(data), `{"game":"battleship","bot":"A"`) {
		t.Errorf("the record holds %.100q", data)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("files left behind: %v", entries)
	}
}

// TestRunIsRepeatable checks that one seed prints one game.
func TestRunIsRepeatable(t *testing.T) {
	var a, b, c bytes.Buffer
	run([]string{"-seed", "42"}, &a, &bytes.Buffer{})
	run([]string{"-seed", "42"}, &b, &bytes.Buffer{})
	run([]string{"-seed", "43"}, &c, &bytes.Buffer{})
	if a.String() != b.String() {
		t.Error("one seed printed two games")
	}
	if a.String() == c.String() {
		t.Error("two seeds printed one game")
	}
}

// TestRecordReplay records the default games and replays them, then
// replays a damaged copy.
func TestRecordReplay(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	var out, errOut bytes.Buffer
	if status := run([]string{"-record", path, "-seed", "8"}, &out, &errOut); status != 0 {
		t.Fatalf("record: exit %d: %s", status, errOut.String())
	}
	out.Reset()
	if status := run([]string{"-replay", path}, &out, &errOut); status != 0 {
		t.Fatalf("replay: exit %d: %s", status, errOut.String())
	}
	if !strings.Contains(out.String(), "replayed 5 games") || !strings.Contains(out.String(), "turn   1: random_guess") {
		t.Errorf("replay output:\n%s", out.String())
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damaged := strings.Replace(string(data), `"shot":[`, `"shot":[1`, 1)
	if err := os.WriteFile(path, []byte(damaged), 0o644); err != nil {
		t.Fatal(err)
	}
	errOut.Reset()
	if status := run([]string{"-replay", path}, &bytes.Buffer{}, &errOut); status != 1 {
		t.Fatalf("damaged replay: exit %d, want 1", status)
	}
	if !strings.Contains(errOut.String(), "games.jsonl:2: turn 1 does not match the replay: recorded shot") {
		t.Errorf("damaged replay said: %s", errOut.String())
	}
}

// TestREADMESample checks that the sample output in the README is what the
// command prints, so that it cannot drift.
func TestREADMESample(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "    $ go run ./battleship/cmd/battleship -bot d\n"
	_, sample, ok := strings.Cut(string(readme), cmd)
	if !ok {
		t.Fatal("README lacks the -bot d sample")
	}
	sample, _, _ = strings.Cut(sample, "\n\n")
	var want strings.Builder
	for _, line := range strings.Split(sample, "\n") {
		want.WriteString(strings.TrimPrefix(line, "    ") + "\n")
	}
	var out bytes.Buffer
	if status := run([]string{"-bot", "d"}, &out, &bytes.Buffer{}); status != 0 {
		t.Fatalf("exit %d", status)
	}
	if got := strings.TrimRight(out.String(), "\n") + "\n"; got != want.String() {
		t.Errorf("README sample differs from the output:\n got:\n%s\nwant:\n%s", got, want.String())
	}
}

// TestREADMEReplay checks the README's record and replay sample: the last
// line of replaying the default games.
func TestREADMEReplay(t *testing.T) {
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "    $ go run ./battleship/cmd/battleship -replay games.jsonl | tail -1\n"
	_, sample, ok := strings.Cut(string(readme), cmd)
	if !ok {
		t.Fatal("README lacks the -replay sample")
	}
	want, _, _ := strings.Cut(strings.TrimPrefix(sample, "    "), "\n")
	path := filepath.Join(t.TempDir(), "games.jsonl")
	if status := run([]string{"-record", path}, &bytes.Buffer{}, &bytes.Buffer{}); status != 0 {
		t.Fatalf("-record: exit %d", status)
	}
	var out bytes.Buffer
	if status := run([]string{"-replay", path}, &out, &bytes.Buffer{}); status != 0 {
		t.Fatalf("-replay: exit %d", status)
	}
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	if got := lines[len(lines)-1]; got != want {
		t.Errorf("README says %q, the replay says %q", want, got)
	}
}

// TestHTMLAndPlot checks that -html (playing and replaying) writes a
// viewer page of the games, and -plot a histogram of the statistics.
func TestHTMLAndPlot(t *testing.T) {
	dir := t.TempDir()
	at := func(name string) string { return filepath.Join(dir, name) }
	for _, args := range [][]string{
		{"-bot", "c", "-record", at("c.jsonl"), "-html", at("play.html")},
		{"-replay", at("c.jsonl"), "-html", at("replay.html")},
		{"-games", "30", "-bot", "a", "-plot", at("shots.svg")},
	} {
		var out, errOut bytes.Buffer
		if status := run(args, &out, &errOut); status != 0 {
			t.Fatalf("%v: exit %d: %s", args, status, errOut.String())
		}
	}
	for name, want := range map[string]string{"play.html": "<!DOCTYPE html>", "replay.html": "<!DOCTYPE html>", "shots.svg": "<svg"} {
		b, err := os.ReadFile(at(name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b, []byte(want)) || !bytes.Contains(b, []byte("bot")) {
			t.Errorf("%s does not look like its kind of file: %.100q", name, b)
		}
	}
	play, _ := os.ReadFile(at("play.html"))
	replay, _ := os.ReadFile(at("replay.html"))
	if !bytes.Equal(play, replay) {
		t.Error("the page of a replayed record differs from the page of the game played")
	}
}
