package battleship

import (
	"fmt"
	"strings"
)

// Render draws what is known of the board as ASCII, one row per line, with
// column letters on top and row numbers from 1 on the left, the labels of
// Point.String: "." untouched, "o" a miss, "X" a hit on a ship still
// afloat, "#" a sunk ship. Columns past Z (AA, AB, ...) are two characters
// wide.
func (v *View) Render() string {
	colWidth := 1
	if v.Cols > 26 {
		colWidth = 2
	}
	rowWidth := max(2, len(fmt.Sprint(v.Rows)))
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", rowWidth+1))
	for x := 0; x < v.Cols; x++ {
		fmt.Fprintf(&b, " %*s", colWidth, colName(x))
	}
	b.WriteByte('\n')
	for y := 0; y < v.Rows; y++ {
		fmt.Fprintf(&b, "%*d ", rowWidth, y+1)
		for x := 0; x < v.Cols; x++ {
			fmt.Fprintf(&b, " %*c", colWidth, ".oX#"[v.At(Point{x, y})])
		}
		b.WriteByte('\n')
	}
	return b.String()
}
