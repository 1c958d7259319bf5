// Package near finds the word that a misspelt one most likely meant: the
// "did you mean" of the errors of package mdsl (a keyword) and of
// behaviortree.Functions (a function's name).
package near

// Nearest returns the candidate nearest to w in edit distance, if one is
// near enough to be a likely typo: at most one edit for words of up to
// four bytes, two up to eight, three beyond; "" when none is, and for a
// w longer than 24 bytes. Of candidates at the same distance, the first
// wins, and w itself is at distance 0. The comparison is exact: callers
// that ignore case lower both.
func Nearest(w string, candidates func(yield func(string) bool)) string {
	if len(w) > 24 {
		return ""
	}
	most := 1
	switch {
	case len(w) > 8:
		most = 3
	case len(w) > 4:
		most = 2
	}
	best, bestD := "", most+1
	candidates(func(c string) bool {
		if c == "" {
			return true
		}
		if d := abs(len(c) - len(w)); d >= bestD {
			return true // too far already by length
		}
		if d := Distance(w, c); d < bestD {
			best, bestD = c, d
		}
		return true
	})
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Distance returns the Levenshtein distance of a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
