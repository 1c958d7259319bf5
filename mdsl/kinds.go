package mdsl

import (
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/hook"
)

// kinds is what the reader and the printer know of each kind, by kind.Kind:
// the root package's table of kinds, read through package internal/hook
// once.
var kinds = func() (t [256]hook.KindFacts) {
	for i := range t {
		t[i] = hook.Kind(uint8(i))
	}
	return t
}()

// numAttrs is one more than the last attribute kind.
const numAttrs = attr.KindExit + 1

// maxInt31 is the largest count or weight: 2^31-1, as kind.Params says.
const maxInt31 = 1<<31 - 1
