// Package viewertest reads the pages that package viewer writes, as their
// JavaScript reads them, for the tests of viewer and of its clients.
package viewertest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// Page is the data of a written page, as the JavaScript reads it.
type Page struct {
	Title   string   `json:"title"`
	Replays []Replay `json:"replays"`
}

// Replay is one replay of a Page.
type Replay struct {
	Title  string           `json:"title"`
	Nodes  [][5]any         `json:"nodes"`
	Steps  []string         `json:"steps"`
	Labels map[int]string   `json:"labels"`
	Events map[int][]string `json:"events"`
	Sig    string           `json:"sig"`
	Board  *struct {
		Cols, Rows int
		Ships      [][]int
	} `json:"board"`
	Shots []*[4]any           `json:"shots"`
	Mem   map[int][][2]string `json:"mem"`
}

var dataRE = regexp.MustCompile(`(?s)<script type="application/json" id="bt-data">(.*?)</script>`)

// ReadPage returns the data of the page html; it fails tb if there is none.
func ReadPage(tb testing.TB, html string) Page {
	tb.Helper()
	m := dataRE.FindStringSubmatch(html)
	if m == nil {
		tb.Fatal("no data in the page")
	}
	var p Page
	if err := json.Unmarshal([]byte(m[1]), &p); err != nil {
		tb.Fatal(err)
	}
	return p
}

// Decode rebuilds each step's state letters and focus from the deltas of
// a replay of n nodes, as viewer.js does.
func Decode(tb testing.TB, n int, steps []string) (states, focus []string) {
	tb.Helper()
	st := bytes.Repeat([]byte{'i'}, n)
	for k, s := range steps {
		delta, f, _ := strings.Cut(s, "|")
		num := 0
		for i := 0; i < len(delta); i++ {
			c := delta[i]
			if c >= '0' && c <= '9' {
				num = num*10 + int(c-'0')
				continue
			}
			if num >= n || !strings.ContainsRune("irsf", rune(c)) {
				tb.Fatalf("step %d: bad delta %q", k, s)
			}
			st[num], num = c, 0
		}
		states = append(states, string(st))
		focus = append(focus, f)
	}
	return states, focus
}

// MemoryAt returns the memory listing of step k of a page's replay, as
// viewer.js resolves it: the last one recorded at or before k.
func MemoryAt(mem map[int][][2]string, k int) ([][2]string, bool) {
	for ; k >= 0; k-- {
		if l, ok := mem[k]; ok {
			return l, true
		}
	}
	return nil, false
}
