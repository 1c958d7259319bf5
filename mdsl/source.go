package mdsl

import (
	"bytes"
	"sort"
	"sync"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/internal/hook"
	"github.com/zipbt/behaviortree/mistreevous"
)

// withSource gives root, just built from src by Parse, the source that
// lets [bt.Functions] say where a node is in the text (its line and
// column). The places are worked out only when an error asks for them,
// by reading a copy of the text again.
func withSource(root bt.Node[bt.Call], name string, src []byte) bt.Node[bt.Call] {
	text := bytes.Clone(src)
	var once sync.Once
	var sites []hook.Site
	return bt.InternalFill(hook.Module, root, hook.Fill[bt.Call]{Source: &hook.Source{File: name, Sites: func() []hook.Site {
		once.Do(func() { sites = sitesOf(name, text) })
		return sites
	}}})
}

// sitesOf reads text again, without building, and returns where each node
// of the tree Parse built from it is, in preorder, following branches as
// the builder expands them; nil if the text does not parse.
func sitesOf(name string, text []byte) []hook.Site {
	p := newParser(name, text, modeCall, false)
	if p.parse() != nil {
		return nil
	}
	var lines []int // the offset of every line's start
	lines = append(lines, 0)
	for i, c := range text {
		if c == '\n' {
			lines = append(lines, i+1)
		}
	}
	at := func(off int) hook.Pos {
		l := sort.SearchInts(lines, off+1) - 1 // the last line starting at or before off
		return hook.Pos{Line: int32(l + 1), Col: int32(off - lines[l] + 1)}
	}
	names := map[string]int32{}
	main := int32(-1)
	for _, r := range p.roots {
		if n := p.nodes.at(r); n.named {
			if _, dup := names[n.name]; !dup {
				names[n.name] = r
			}
		} else if main < 0 {
			main = r
		}
	}
	if main < 0 {
		return nil
	}
	var sites []hook.Site
	site := func(i int32) {
		n := p.nodes.at(i)
		var s hook.Site
		s.At[0] = at(int(n.pos))
		if n.call != 0 {
			s.At[0] = at(p.args[p.calls[n.call-1].lo].pos)
		}
		for a := attr.KindWhile; a < numAttrs; a++ {
			if p.attrsOf(n).calls[a] != 0 {
				s.At[a] = at(p.args[p.calls[p.attrsOf(n).calls[a]-1].lo].pos)
			}
		}
		sites = append(sites, s)
	}
	var walk func(i int32, depth int) bool
	walk = func(i int32, depth int) bool {
		if i < 0 || depth > mistreevous.MaxDepth {
			return false
		}
		n := p.nodes.at(i)
		if n.kind == kwBranch {
			r, ok := names[n.name]
			return ok && walk(p.nodes.at(r).first, depth+1)
		}
		site(i)
		for c := n.first; c != -1; c = p.nextOf(c) {
			if !walk(c, depth+1) {
				return false
			}
		}
		return true
	}
	site(main)
	if !walk(p.nodes.at(main).first, 2) {
		return nil
	}
	return sites
}
