package replay_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/zipbt/behaviortree/battleship/replay"
)

// svgBars reads an SVG histogram: each series' bars' tooltips, and the
// axis' tick labels.
func svgBars(t *testing.T, svg []byte) (bars [][]string, ticks int) {
	t.Helper()
	var doc struct {
		Groups []struct {
			Rects []struct {
				Title string `xml:"title"`
			} `xml:"rect"`
		} `xml:"g"`
		Lines []struct{} `xml:"line"`
	}
	if err := xml.Unmarshal(svg, &doc); err != nil {
		t.Fatalf("not well-formed XML: %v\n%.2000s", err, svg)
	}
	for _, g := range doc.Groups {
		var b []string
		for _, r := range g.Rects {
			b = append(b, r.Title)
		}
		bars = append(bars, b)
	}
	return bars, len(doc.Lines)
}

// TestWriteShotHistogramExtremes draws counts at the ends of int's range
// (bug: counts spanning about MaxInt overflowed the bin width and panicked
// in makeslice). The figures come from math.MaxInt, so that the test
// checks 32-bit int as well when run with GOARCH=386.
func TestWriteShotHistogramExtremes(t *testing.T) {
	const top = math.MaxInt
	for _, c := range []struct {
		name  string
		shots []int
		bars  int
		mean  string
	}{
		{"zero and MaxInt", []int{0, top}, 2, fmt.Sprintf("mean %.1f, median 0", float64(top)/2)},
		{"MaxInt", []int{top, top, top}, 1, fmt.Sprintf("mean %.1f, median %d", float64(top), top)},
		{"near MaxInt", []int{top - 1, top, top - 100}, 2, fmt.Sprintf("median %d", top-1)},
		{"spread", []int{0, 1, top / 2, top - 1, top}, 3, fmt.Sprintf("median %d", top/2)},
		{"one count", []int{7}, 1, "mean 7.0, median 7"},
		// 32-bit int's extremes, also where int has 64 bits.
		{"zero and MaxInt32", []int{0, math.MaxInt32}, 2, fmt.Sprintf("mean %.1f, median 0", float64(math.MaxInt32)/2)},
		{"MaxInt32", []int{math.MaxInt32, math.MaxInt32 - 1}, 2, fmt.Sprintf("median %d", math.MaxInt32-1)},
	} {
		t.Run(c.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := replay.WriteShotHistogram(&b, c.name, []replay.Series{{Name: "s", Shots: c.shots}}); err != nil {
				t.Fatal(err)
			}
			bars, lines := svgBars(t, b.Bytes())
			if len(bars) != 1 || len(bars[0]) != c.bars {
				t.Errorf("bars %q, want %d", bars, c.bars)
			}
			games := 0
			for _, title := range bars[0] {
				var n int
				if _, err := fmt.Sscanf(title, "s: %d game", &n); err != nil {
					t.Fatalf("tooltip %q: %v", title, err)
				}
				games += n
			}
			if games != len(c.shots) {
				t.Errorf("the bars hold %d games, want %d", games, len(c.shots))
			}
			if !strings.Contains(b.String(), c.mean) {
				t.Errorf("no %q in\n%s", c.mean, b.String())
			}
			// The panel's base line, and a line per tick: about ten ticks.
			if lines < 2 || lines > 1+13 {
				t.Errorf("%d ticks on the axis", lines-1)
			}
			if strings.Contains(b.String(), "took -") || strings.Contains(b.String(), ">-") {
				t.Errorf("a negative count:\n%s", b.String())
			}
		})
	}
}

// TestWriteShotHistogramCounts checks that a series given as a histogram
// (Counts) draws as the same series given game by game (Shots), on random
// data, and that bad histograms are errors.
func TestWriteShotHistogramCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for k := 0; k < 50; k++ {
		var bySlice, byCounts []replay.Series
		for s := 0; s < 1+rng.IntN(4); s++ {
			var shots []int
			counts := make([]int, 1+rng.IntN(300))
			for g := 0; g < 1+rng.IntN(500); g++ {
				v := rng.IntN(len(counts))
				shots = append(shots, v)
				counts[v]++
			}
			name := fmt.Sprintf("bot %d", s)
			bySlice = append(bySlice, replay.Series{Name: name, Shots: shots})
			byCounts = append(byCounts, replay.Series{Name: name, Counts: counts})
		}
		var a, b bytes.Buffer
		if err := replay.WriteShotHistogram(&a, "t", bySlice); err != nil {
			t.Fatal(err)
		}
		if err := replay.WriteShotHistogram(&b, "t", byCounts); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Fatalf("case %d: the histogram of the counts differs from that of the shots:\n%s\n%s", k, a.String(), b.String())
		}
	}
	for name, s := range map[string]replay.Series{
		"no games":       {Name: "x", Counts: []int{0, 0, 0}},
		"negative games": {Name: "x", Counts: []int{3, -1}},
		"too many games": {Name: "x", Counts: []int{math.MaxInt, 1}},
	} {
		if err := replay.WriteShotHistogram(&bytes.Buffer{}, "x", []replay.Series{s}); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}
