package viewer

import (
	"fmt"
	"strconv"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/btcpp"
	"github.com/zipbt/behaviortree/memory"
)

// NewBTCPPFeed returns a new feed of m, named name, for the versions of
// BehaviorTree.CPP trees (package btcpp): the page draws each version's
// picture (btcpp.Tree.Picture: the XML types, ports and pre/post
// attributes) and lists its blackboard as the memory (BTCPPMemory).
// Publishing a version of another built tree starts the page over.
func NewBTCPPFeed(m *Monitor, name string) *Feed[*btcpp.Tree] {
	return newFeed[*btcpp.Tree](m, name, btcppCodec{})
}

// BTCPPMemory returns the blackboard scopes of a BehaviorTree.CPP version
// as the pages list a memory: the root scope's entries by their keys, a
// SubTree scope's as "PATH/key" (the SubTree instance's path), each value
// a fmt.Stringer that writes "VALUE (TYPE)", a string value quoted, or
// "(empty TYPE)" for an entry without a value.
func BTCPPMemory(t *btcpp.Tree) memory.Map {
	var m memory.Map
	for i, s := range t.Scopes() {
		for _, en := range t.Entries(i) {
			key := en.Key
			if s.Path != "" {
				key = s.Path + "/" + key
			}
			m = m.Set(key, btcppEntry(en))
		}
	}
	return m
}

// btcppEntry is a blackboard entry as the pages show it.
type btcppEntry btcpp.Entry

func (en btcppEntry) String() string {
	if en.Value.IsEmpty() {
		return "(empty " + en.Declared + ")"
	}
	s := en.Value.String()
	if en.Value.IsString() {
		s = strconv.Quote(s)
	}
	return s + " (" + en.Value.Type() + ")"
}

// btcppCodec reads versions of BehaviorTree.CPP trees.
type btcppCodec struct{}

func (btcppCodec) valid(v *btcpp.Tree) bool        { return v != nil }
func (btcppCodec) same(a, b *btcpp.Tree) bool      { return a.SameTree(b) }
func (btcppCodec) layout(v *btcpp.Tree) bt.Picture { return v.Picture() }
func (btcppCodec) memory(v *btcpp.Tree) memory.Map { return BTCPPMemory(v) }
func (btcppCodec) states(v *btcpp.Tree, st *encoder) {
	st.states, st.focus = st.states[:0], st.focus[:0]
	for i, nd := range v.Picture().Nodes {
		st.states = append(st.states, nd.State)
		if nd.Focus {
			st.focus = append(st.focus, i)
		}
	}
}
func (btcppCodec) label(v *btcpp.Tree, n uint64) string {
	return fmt.Sprintf("version %d returned %v", n, v.Status())
}
