//go:build race

package battleship

// raceOn reports whether the tests run under the race detector.
const raceOn = true
