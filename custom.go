package behaviortree

import (
	"fmt"
	"math/rand/v2"
	"reflect"

	"github.com/zipbt/behaviortree/custom"
	"github.com/zipbt/behaviortree/kind"

	"github.com/benbjohnson/immutable"
)

// customContext is the [custom.Context] of a call of a custom node.
type customContext struct {
	children int
	child    int
	rng      *rand.PCG
}

func (c *customContext) Len() int         { return c.children }
func (c *customContext) Child() int       { return c.child }
func (c *customContext) Rand() *rand.Rand { return rand.New(c.rng) }

// CustomNode returns an inner node whose traversal is t, over the given
// children: a node of the Value/Succeed/Fail style with logic of its own
// (see package custom). t is the node's state when it is first entered.
//
// CustomNode panics with "behaviortree.CustomNode: nil Traversal" and
// "behaviortree.CustomNode: no children", and when a child is the zero Node.
// At run time, a custom.Traversal that names a child out of range panics with a
// message naming its type, the index and the number of children.
func CustomNode[L any](t custom.Traversal, children ...Node[L]) Node[L] {
	if t == nil {
		panic("behaviortree.CustomNode: nil Traversal")
	}
	nd := mustBuild(kind.Custom, kind.Params{}, children)
	nd.n.custom = t
	nd.n.hasCust = true
	return nd
}

// checkChild panics when a custom.Traversal names a child out of range.
func checkChild(t custom.Traversal, method string, i, n int) {
	if i < 0 || i >= n {
		panic(fmt.Sprintf("behaviortree: %T.%s entered child %d of %d", t, method, i, n))
	}
}

// sameTraversal reports whether b is known to be the same state as a, so
// that storing it can be skipped. It never panics on incomparable types.
func sameTraversal(a, b custom.Traversal) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	// Value.Comparable looks at the dynamic values too, so that a struct
	// holding an interface holding a slice does not make == panic.
	return reflect.TypeOf(a) == reflect.TypeOf(b) &&
		reflect.ValueOf(a).Comparable() && reflect.ValueOf(b).Comparable() && a == b
}

// enterCustom asks custom position p which child to enter, and records its
// new state (and any random draws) in a new extra.
func (z zipper[L]) enterCustom(p *place[L]) (zipper[L], int) {
	t := z.traversal(p)
	x := *z.ext
	i, next := t.Enter(&customContext{children: len(p.children), child: -1, rng: &x.rng})
	checkChild(t, "Enter", i, len(p.children))
	x.custom = x.setTraversal(p.id, t, next)
	z.ext = &x
	return z, i
}

// reactCustom tells custom position p that its child ended, records its new
// state, and returns what it does next (checked).
func (z zipper[L]) reactCustom(p *place[L], child int, ok bool) (zipper[L], custom.Move) {
	t := z.traversal(p)
	x := *z.ext
	c := &customContext{children: len(p.children), child: child, rng: &x.rng}
	var step custom.Move
	var next custom.Traversal
	method := "OnSucceed"
	if ok {
		step, next = t.OnSucceed(c)
	} else {
		method = "OnFail"
		step, next = t.OnFail(c)
	}
	x.custom = x.setTraversal(p.id, t, next)
	z.ext = &x
	if step != custom.Succeed && step != custom.Fail {
		if step == 0 {
			panic(fmt.Sprintf("behaviortree: %T.%s returned the zero Move", t, method))
		}
		checkChild(t, method, step.Child(), len(p.children))
	}
	return z, step
}

// traversal returns the current state of custom position p.
func (z zipper[L]) traversal(p *place[L]) custom.Traversal {
	if z.ext.custom != nil {
		if t, ok := z.ext.custom.Get(p.id); ok {
			return t
		}
	}
	return p.def.custom
}

// setTraversal returns the custom states with next as the state of the
// position numbered id, where it changed.
func (x *extra[L]) setTraversal(id int32, old, next custom.Traversal) *immutable.Map[int32, custom.Traversal] {
	if next == nil {
		next = old // a Traversal that returns nil keeps its state
	}
	if sameTraversal(old, next) {
		return x.custom
	}
	m := x.custom
	if m == nil {
		m = immutable.NewMap[int32, custom.Traversal](nil)
	}
	return m.Set(id, next)
}
