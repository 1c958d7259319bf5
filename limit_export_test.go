package behaviortree

import "fmt"

// StateKey lends the limit benchmark (limit_test.go) a comparable key of a
// version's running state: its focused position and its RepeatN counters,
// without the status and the signal that made it. ok is false for a
// version with extra state (random draws, custom nodes, parallels or a
// memory), whose states the key does not describe.
func StateKey[L any](t Tree[L]) (key any, ok bool) {
	if t.z.focus == nil || t.z.ext != nil {
		return nil, false
	}
	counts := ""
	for c := t.z.counts; c != nil; c = c.next {
		counts += fmt.Sprintf("%d:%d,", c.at.id, c.left)
	}
	return struct {
		focus  *place[L]
		counts string
	}{t.z.focus, counts}, true
}
