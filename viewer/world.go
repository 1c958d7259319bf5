package viewer

import (
	"fmt"
	"strings"
)

// World is a picture of a program's world at one version of a [Feed],
// which the monitor's page shows beside the tree ([Feed.PublishWith]):
// text, the lines of what happened, and a board. Every part is optional,
// and shown as text or drawn by the page, never taken as markup.
type World struct {
	// Text is shown as preformatted text (the first 8 KB).
	Text string
	// Events are lines listed with the version's events (the first 40,
	// each cut to 300 bytes): what the program did at this version.
	Events []string
	// Grid is a board drawn as the replay page draws [Replay.SetBoard]'s,
	// or nil.
	Grid *Grid
}

// Grid is a board of Cols × Rows cells as it stands at one version: Cells
// holds one letter a cell, row by row from the top left: '.' water (or
// unknown), 'o' a ship not hit, 'm' a miss, 'x' a hit, 'k' a cell of a
// sunk ship. Last is the index in Cells of the last shot (x + y*Cols), or
// -1. A grid has at most 10,000 cells.
type Grid struct {
	Cols  int    `json:"cols"`
	Rows  int    `json:"rows"`
	Cells string `json:"cells"`
	Last  int    `json:"last"`
}

// Limits of a World.
const (
	maxWorldText  = 8 << 10
	maxWorldCells = 10000
)

// check returns an error when w's grid is not valid.
func (w *World) check() error {
	g := w.Grid
	if g == nil {
		return nil
	}
	if g.Cols < 1 || g.Rows < 1 || g.Cols > maxWorldCells || g.Rows > maxWorldCells || g.Cols*g.Rows > maxWorldCells {
		return fmt.Errorf("a %dx%d grid (at most %d cells)", g.Cols, g.Rows, maxWorldCells)
	}
	if len(g.Cells) != g.Cols*g.Rows {
		return fmt.Errorf("a %dx%d grid has %d cells, want %d", g.Cols, g.Rows, len(g.Cells), g.Cols*g.Rows)
	}
	if i := strings.IndexFunc(g.Cells, func(r rune) bool { return !strings.ContainsRune(".omxk", r) }); i >= 0 {
		return fmt.Errorf("grid cell %d is %q, want one of . o m x k", i, g.Cells[i:i+1])
	}
	if g.Last < -1 || g.Last >= len(g.Cells) {
		return fmt.Errorf("grid's last shot %d is off the %dx%d grid", g.Last, g.Cols, g.Rows)
	}
	return nil
}

// events returns the lines of w.Events the page shows.
func (w *World) events() []string {
	ev := w.Events[:min(len(w.Events), maxEventLines)]
	for _, l := range ev {
		if len(l) > maxLabelText {
			cut := make([]string, len(ev))
			for j, l := range ev {
				cut[j] = truncate(l, maxLabelText)
			}
			return cut
		}
	}
	return ev
}
