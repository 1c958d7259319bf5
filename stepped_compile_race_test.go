//go:build race

package behaviortree

// compileRace reports whether the race detector is on: the tests of the
// compile's memory skip then, since they are slow under it.
const compileRace = true
