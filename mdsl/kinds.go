package mdsl

import bt "github.com/zipbt/behaviortree"

// This file is what the reader and the printer know of each kind: the
// root package's table of kinds, read through bt.Kind's methods once.

// arity is how many children a kind takes.
type arity uint8

const (
	noChildren   arity = iota // a leaf
	oneChild                  // a decorator
	someChildren              // one or more
	anyChildren               // zero or more (the reactive kinds)
)

// param is the parameter a kind takes besides its children, written as
// integer arguments.
type param uint8

const (
	paramNone      param = iota
	paramN               // [n]: RepeatN's count
	paramWeights         // [w, ...]: one weight > 0 per child (RandomWeighted)
	paramLotto           // [w, ...], optional: one weight >= 0 per child (Lotto)
	paramBound           // [n] or [min, max], optional (Repeat, Retry, Wait)
	paramThreshold       // [success, failure] (Threshold)
	paramCounts          // [fail, succeed], any ints (ReactiveParallel)
)

// kindInfo is one kind as MDSL writes it.
type kindInfo struct {
	mdsl    string // the keyword, or "" for a kind with no text form
	arity   arity
	param   param
	carries bool // a leaf that carries a value: its call
}

// kinds describes every kind, by bt.Kind.
var kinds = func() (t [256]kindInfo) {
	for i := range t {
		k := bt.Kind(i)
		info := &t[i]
		info.mdsl, info.carries = k.MDSL(), k.Carries()
		switch least, most := k.Arity(); {
		case most == 0:
			info.arity = noChildren
		case most == 1:
			info.arity = oneChild
		case least == 1:
			info.arity = someChildren
		default:
			info.arity = anyChildren
		}
		switch {
		case k.TakesN():
			info.param = paramN
		case k.TakesWeights():
			info.param = paramWeights
		case k.TakesLottoWeights():
			info.param = paramLotto
		case k.TakesBound():
			info.param = paramBound
		case k.TakesThreshold():
			info.param = paramThreshold
		case k.TakesCounts():
			info.param = paramCounts
		}
	}
	return t
}()

// numAttrs is one more than the last attribute kind.
const numAttrs = bt.AttrExit + 1

// maxInt31 is the largest count or weight: 2^31-1, as bt.Params says.
const maxInt31 = 1<<31 - 1
