package viewer

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Series is one bot's shot counts, one per game, for [WriteShotHistogram].
type Series struct {
	Name  string
	Shots []int
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

// WriteShotHistogram writes to w an SVG image of one histogram per series
// of shot counts, stacked on a shared axis of shots per game: each bar is
// the share of the series' games that took that many shots (bins of one
// or more counts), on one scale for all series so that their heights
// compare, with each series' games, mean and median beside it. It is our
// own small SVG writer, with no dependency. It returns an error when there
// is no series, a series has no games or a negative count, or w fails.
func WriteShotHistogram(w io.Writer, title string, series []Series) error {
	if len(series) == 0 {
		return fmt.Errorf("viewer.WriteShotHistogram: no series")
	}
	lo, hi := int(^uint(0)>>1), 0
	for _, s := range series {
		if len(s.Shots) == 0 {
			return fmt.Errorf("viewer.WriteShotHistogram: series %q has no games", s.Name)
		}
		for _, v := range s.Shots {
			if v < 0 {
				return fmt.Errorf("viewer.WriteShotHistogram: series %q has a negative count %d", s.Name, v)
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	bin := (hi - lo + maxBins) / maxBins // ceil((hi-lo+1)/maxBins)
	lo = lo / bin * bin
	nbins := (hi-lo)/bin + 1
	counts := make([][]int, len(series))
	top := 0.0 // the largest share of a bin
	for i, s := range series {
		counts[i] = make([]int, nbins)
		for _, v := range s.Shots {
			counts[i][(v-lo)/bin]++
		}
		for _, c := range counts[i] {
			top = max(top, float64(c)/float64(len(s.Shots)))
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
		y0 := plotTop + i*(panelH+panelGap) // the panel's top
		base := y0 + panelH
		color := plotColors[i%len(plotColors)]
		sorted := slices.Clone(s.Shots)
		slices.Sort(sorted)
		sum := 0
		for _, v := range sorted {
			sum += v
		}
		fmt.Fprintf(bw, `<g class="series" data-name="%s">`+"\n", xmlText(s.Name))
		fmt.Fprintf(bw, `<text x="8" y="%d" font-weight="bold" fill="%s">%s</text>`+"\n", y0+30, color, xmlText(s.Name))
		fmt.Fprintf(bw, `<text x="8" y="%d" fill="#444">%d games</text>`+"\n", y0+48, len(sorted))
		fmt.Fprintf(bw, `<text x="8" y="%d" fill="#444">mean %.1f, median %d</text>`+"\n", y0+64, float64(sum)/float64(len(sorted)), sorted[(len(sorted)-1)/2])
		fmt.Fprintf(bw, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#999"/>`+"\n", plotLeft, base, plotWidth-plotRight, base)
		for b, c := range counts[i] {
			if c == 0 {
				continue
			}
			h := float64(panelH-8) * float64(c) / float64(len(s.Shots)) / top
			x := float64(plotLeft) + float64(b)*barW
			fmt.Fprintf(bw, `<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s</title></rect>`+"\n",
				x+0.5, float64(base)-h, max(barW-1, 0.5), h, color, xmlText(binText(s.Name, lo+b*bin, bin, c)))
		}
		bw.WriteString("</g>\n")
	}
	axis := plotTop + len(series)*(panelH+panelGap) - panelGap
	step := niceStep(hi - lo + 1)
	for v := (lo + step - 1) / step * step; v <= lo+nbins*bin; v += step {
		x := float64(plotLeft) + float64(v-lo)/float64(bin)*barW
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

// binText is a bar's tooltip.
func binText(name string, from, width, games int) string {
	g := "games"
	if games == 1 {
		g = "game"
	}
	if width == 1 {
		return fmt.Sprintf("%s: %d %s took %d shots", name, games, g, from)
	}
	return fmt.Sprintf("%s: %d %s took %d to %d shots", name, games, g, from, from+width-1)
}

// niceStep returns a step of 1, 2 or 5 times a power of ten that puts
// about ten ticks on a span.
func niceStep(span int) int {
	for step := 1; ; step *= 10 {
		for _, m := range []int{1, 2, 5} {
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
