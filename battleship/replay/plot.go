package replay

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/bits"
	"slices"
	"strings"
)

// Series is one bot's shot counts, for [WriteShotHistogram]: one per game
// in Shots, or, when Shots is nil, as a histogram in Counts.
type Series struct {
	Name  string
	Shots []int
	// Counts, read when Shots is nil, holds the number of games by shot
	// count: Counts[v] games took v shots. It keeps a series of any number
	// of games in memory proportional to the largest count.
	Counts []int
}

// plotColors are the bars' colours, one per series in turn.
var plotColors = []string{"#4472c4", "#ed7d31", "#70ad47", "#7030a0", "#c00000", "#00a0b0"}

// Plot geometry, in pixels.
const (
	plotWidth  = 720
	plotLeft   = 150 // the series' names and statistics
	plotRight  = 20
	plotTop    = 40
	panelH     = 90
	panelGap   = 14
	plotBottom = 46
	maxBins    = 60
)

// run is a shot count and the number of games that took it.
type run struct{ shots, games int }

// distribution is a series' shot counts as runs, in increasing order of
// shots, and its number of games and mean.
type distribution struct {
	runs  []run
	games int
	mean  float64
}

// distributionOf returns the distribution of s, or an error for no games,
// a negative count, or more games than an int holds.
func distributionOf(s Series) (distribution, error) {
	var d distribution
	if s.Shots != nil {
		sorted := slices.Clone(s.Shots)
		slices.Sort(sorted)
		for _, v := range sorted {
			if n := len(d.runs); n > 0 && d.runs[n-1].shots == v {
				d.runs[n-1].games++
			} else {
				d.runs = append(d.runs, run{v, 1})
			}
		}
	} else {
		for v, c := range s.Counts {
			if c < 0 {
				return d, fmt.Errorf("series %q has a negative number of games (%d) at %d shots", s.Name, c, v)
			}
			if c > 0 {
				d.runs = append(d.runs, run{v, c})
			}
		}
	}
	if len(d.runs) == 0 {
		return d, fmt.Errorf("series %q has no games", s.Name)
	}
	if v := d.runs[0].shots; v < 0 {
		return d, fmt.Errorf("series %q has a negative count %d", s.Name, v)
	}
	// The sum of the shots, in 128 bits: counts near MaxInt add up past
	// any int.
	var hi, lo uint64
	for _, r := range d.runs {
		if d.games > math.MaxInt-r.games {
			return d, fmt.Errorf("series %q has more than %d games", s.Name, math.MaxInt)
		}
		d.games += r.games
		h, l := bits.Mul64(uint64(r.shots), uint64(r.games))
		var carry uint64
		lo, carry = bits.Add64(lo, l, 0)
		hi += h + carry
	}
	d.mean = (float64(hi)*(1<<64) + float64(lo)) / float64(d.games)
	return d, nil
}

// median returns the lower median of d's shot counts.
func (d distribution) median() int {
	k := (d.games - 1) / 2 // the rank, from 0
	for _, r := range d.runs {
		if k < r.games {
			return r.shots
		}
		k -= r.games
	}
	panic("viewer: unreachable: the median is past the games")
}

// WriteShotHistogram writes to w an SVG image of one histogram per series
// of shot counts, stacked on a shared axis of shots per game: each bar is
// the share of the series' games that took that many shots (bins of one
// or more counts), on one scale for all series so that their heights
// compare, with each series' games, mean and median beside it. It is our
// own small SVG writer, with no dependency. It returns an error when there
// is no series, a series has no games or a negative count, or w fails.
// Counts may take any value of an int.
func WriteShotHistogram(w io.Writer, title string, series []Series) error {
	if len(series) == 0 {
		return fmt.Errorf("viewer.WriteShotHistogram: no series")
	}
	dists := make([]distribution, len(series))
	lo, hi := math.MaxInt, 0
	for i, s := range series {
		d, err := distributionOf(s)
		if err != nil {
			return fmt.Errorf("viewer.WriteShotHistogram: %w", err)
		}
		dists[i] = d
		lo, hi = min(lo, d.runs[0].shots), max(hi, d.runs[len(d.runs)-1].shots)
	}
	// ceil((hi-lo+1)/maxBins), which hi-lo+maxBins would overflow near
	// MaxInt.
	bin := (hi-lo)/maxBins + 1
	lo = lo / bin * bin
	nbins := (hi-lo)/bin + 1
	counts := make([][]int, len(series))
	top := 0.0 // the largest share of a bin
	for i, d := range dists {
		counts[i] = make([]int, nbins)
		for _, r := range d.runs {
			counts[i][(r.shots-lo)/bin] += r.games // at most d.games: no overflow
		}
		for _, c := range counts[i] {
			top = max(top, float64(c)/float64(d.games))
		}
	}
	height := plotTop + len(series)*(panelH+panelGap) + plotBottom
	barW := float64(plotWidth-plotLeft-plotRight) / float64(nbins)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="Helvetica, Arial, sans-serif" font-size="12">`+"\n",
		plotWidth, height, plotWidth, height)
	fmt.Fprintf(bw, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", plotWidth, height)
	fmt.Fprintf(bw, `<text x="%d" y="24" font-size="15" font-weight="bold">%s</text>`+"\n", plotLeft, xmlText(title))
	for i, s := range series {
		d := dists[i]
		y0 := plotTop + i*(panelH+panelGap) // the panel's top
		base := y0 + panelH
		color := plotColors[i%len(plotColors)]
		fmt.Fprintf(bw, `<g class="series" data-name="%s">`+"\n", xmlText(s.Name))
		fmt.Fprintf(bw, `<text x="8" y="%d" font-weight="bold" fill="%s">%s</text>`+"\n", y0+30, color, xmlText(s.Name))
		fmt.Fprintf(bw, `<text x="8" y="%d" fill="#444">%d games</text>`+"\n", y0+48, d.games)
		fmt.Fprintf(bw, `<text x="8" y="%d" fill="#444">mean %.1f, median %d</text>`+"\n", y0+64, d.mean, d.median())
		fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999"/>`+"\n", plotLeft, base, plotWidth-plotRight, base)
		for b, c := range counts[i] {
			if c == 0 {
				continue
			}
			h := float64(panelH-8) * float64(c) / float64(d.games) / top
			x := float64(plotLeft) + float64(b)*barW
			fmt.Fprintf(bw, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`+"\n",
				x+0.5, float64(base)-h, max(barW-1, 0.5), h, color, xmlText(binText(s.Name, lo+b*bin, bin, c)))
		}
		bw.WriteString("</g>\n")
	}
	// The axis' ticks, in uint64: the last bin may end past MaxInt.
	axis := plotTop + len(series)*(panelH+panelGap) - panelGap
	ulo, ubin := uint64(lo), uint64(bin)
	step := niceStep(uint64(hi-lo) + 1)
	for v := (ulo + step - 1) / step * step; v <= ulo+uint64(nbins)*ubin; v += step {
		x := float64(plotLeft) + float64(v-ulo)/float64(ubin)*barW
		fmt.Fprintf(bw, `<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#999"/>`+"\n", x, axis, x, axis+5)
		fmt.Fprintf(bw, `<text x="%.1f" y="%d" text-anchor="middle" fill="#444">%d</text>`+"\n", x, axis+18, v)
	}
	fmt.Fprintf(bw, `<text x="%d" y="%d" text-anchor="middle" fill="#222">shots to sink the fleet (share of games per bin of %d)</text>`+"\n",
		(plotLeft+plotWidth-plotRight)/2, axis+36, bin)
	bw.WriteString("</svg>\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("viewer.WriteShotHistogram: %w", err)
	}
	return nil
}

// binText is a bar's tooltip. The bin's end is in uint64, since the last
// bin may end past MaxInt.
func binText(name string, from, width, games int) string {
	g := "games"
	if games == 1 {
		g = "game"
	}
	if width == 1 {
		return fmt.Sprintf("%s: %d %s took %d shots", name, games, g, from)
	}
	return fmt.Sprintf("%s: %d %s took %d to %d shots", name, games, g, from, uint64(from)+uint64(width)-1)
}

// niceStep returns a step of 1, 2 or 5 times a power of ten that puts
// about ten ticks on a span (at most 1<<63, for which it returns 1e18).
func niceStep(span uint64) uint64 {
	for step := uint64(1); ; step *= 10 {
		for _, m := range []uint64{1, 2, 5} {
			if span/(step*m) <= 10 {
				return step * m
			}
		}
	}
}

// xmlText escapes s for SVG text and attribute values.
func xmlText(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(strings.ToValidUTF8(s, "\uFFFD")))
	return b.String()
}
