package battleship

import "strings"

// Render draws what is known of the sea as ASCII, one row per line, with
// column letters on top: "." untouched, "o" a miss, "X" a hit on a ship
// still afloat, "#" a sunk ship.
func (v *View) Render() string {
	var b strings.Builder
	b.WriteString("   ")
	for x := 0; x < v.Cols; x++ {
		b.WriteByte(' ')
		b.WriteByte(colName(x))
	}
	b.WriteByte('\n')
	for y := 0; y < v.Rows; y++ {
		b.WriteString(pad2(y + 1))
		b.WriteByte(' ')
		for x := 0; x < v.Cols; x++ {
			b.WriteByte(' ')
			b.WriteByte(".oX#"[v.At(Point{x, y})])
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func colName(x int) byte {
	if x < 26 {
		return byte('A' + x)
	}
	return byte('a' + (x-26)%26)
}

func pad2(n int) string {
	s := []byte{' ', ' '}
	if n >= 100 {
		return "**"
	}
	if n >= 10 {
		s[0] = byte('0' + n/10)
	}
	s[1] = byte('0' + n%10)
	return string(s)
}
