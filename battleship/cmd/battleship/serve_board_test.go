package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestServeBoard plays a game of stepped bot E live and reads the
// monitor's stream: every version carries the board as it stands (one
// cell shot per turn, ships drawn until hit, the last shot marked) and
// the turn's shot and intents as events, and the game's end follows, the
// feed closed once the bot's games are played.
func TestServeBoard(t *testing.T) {
	s := startServe(t, "-serve", "127.0.0.1:0", "-delay", "0", "-bot", "e", "-games", "1", "-size", "6x6", "-fleet", "3,2", "-seed", "5")
	m := servingRE.FindStringSubmatch(s.next(t))
	if m == nil {
		t.Fatal("the first line does not say where the monitor is served")
	}
	gameRE := regexp.MustCompile(`^bot E, game 1: sank 2 ships in (\d+) shots$`)
	g := gameRE.FindStringSubmatch(s.next(t))
	if g == nil {
		t.Fatal("no game reported")
	}
	var shots int
	fmt.Sscan(g[1], &shots)
	if line := s.next(t); !strings.HasPrefix(line, "all games played") {
		t.Fatalf("unexpected line %q", line)
	}
	resp, err := http.Get("http://" + m[1] + "/events?tree=0")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := bufio.NewReader(resp.Body)
	event := func() (string, string) {
		var name, data string
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the stream: %v", err)
			}
			line = strings.TrimSuffix(line, "\n")
			switch {
			case strings.HasPrefix(line, "event: "):
				name = line[len("event: "):]
			case strings.HasPrefix(line, "data: "):
				data = line[len("data: "):]
			case line == "" && name != "":
				return name, data
			}
		}
	}
	if name, _ := event(); name != "trees" {
		t.Fatalf("first event %s, want trees", name)
	}
	name, data := event()
	var reset struct {
		Steps []struct {
			N     int      `json:"n"`
			World []string `json:"world"`
			Grid  *struct {
				Cols, Rows int
				Cells      string
				Last       int
			} `json:"grid"`
		} `json:"steps"`
	}
	if name != "reset" || json.Unmarshal([]byte(data), &reset) != nil {
		t.Fatalf("event %s %s, want a reset", name, data)
	}
	if len(reset.Steps) != shots+1 {
		t.Fatalf("the reset holds %d versions, want the start and %d turns", len(reset.Steps), shots)
	}
	for k, st := range reset.Steps {
		gr := st.Grid
		if gr == nil || gr.Cols != 6 || gr.Rows != 6 || len(gr.Cells) != 36 {
			t.Fatalf("version %d: grid %+v, want the 6x6 board", k, gr)
		}
		shot := 36 - strings.Count(gr.Cells, ".") - strings.Count(gr.Cells, "o")
		if shot != k || (k == 0) != (gr.Last < 0) {
			t.Errorf("version %d: %d cells shot, last %d: %q", k, shot, gr.Last, gr.Cells)
		}
		if k > 0 && (len(st.World) < 2 || !strings.HasPrefix(st.World[0], fmt.Sprintf("turn %d: fire at ", k))) {
			t.Errorf("version %d: world events %q, want the turn's shot and intents", k, st.World)
		}
	}
	if last := reset.Steps[shots].Grid.Cells; strings.Count(last, "k") != 5 || strings.Contains(last, "o") {
		t.Errorf("the last board %q, want both ships (5 cells) sunk", last)
	}
	name, data = event()
	var end struct {
		N      int    `json:"n"`
		Result string `json:"result"`
		Closed bool   `json:"closed"`
	}
	if name != "end" || json.Unmarshal([]byte(data), &end) != nil || end.N != shots+1 || end.Result != fmt.Sprintf("game 1: sank 2 ships in %d shots", shots) || !end.Closed {
		t.Errorf("event %s %s, want the end of the game after version %d, the feed closed", name, data, shots)
	}
	close(s.stop)
	<-s.status
}
