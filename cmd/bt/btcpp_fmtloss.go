package main

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/zipbt/behaviortree/internal/termsafe"
)

// fmtLoss is what a file's canonical XML (Document.Format) does not keep,
// or adds by guessing: bt fmt prints each as a warning, and bt fmt -w
// rewrites no file that would lose something unless -lossy is given.
type fmtLoss struct {
	lost  []string // what the canonical XML drops, each with where
	guess []string // leaves whose model the canonical XML guesses
}

// modelEntry matches an <Action> or <Condition> entry's ID in a text.
var (
	xmlDescription = regexp.MustCompile(`\sdescription\s*=`)
	xmlModelEntry  = regexp.MustCompile(`<(?:Action|Condition)\s+ID\s*=\s*["']([^"']*)["']`)
)

// lossesOf returns what the canonical XML out of the file x (read from
// x.src) drops or guesses. A comment or a description is found by its
// text ("<!--", a description attribute), so one written inside an
// attribute's value also counts: a refusal then says where, and -lossy
// writes anyway.
func lossesOf(x *xmlDoc, out []byte) fmtLoss {
	var l fmtLoss
	src := x.src
	if i := bytes.Index(src, []byte("<!--")); i >= 0 {
		line, col := lineColOf(src, i)
		l.lost = append(l.lost, fmt.Sprintf("%s:%d:%d: comments (bt fmt writes none)", x.name, line, col))
	}
	if loc := xmlDescription.FindIndex(src); loc != nil {
		line, col := lineColOf(src, loc[0]+1)
		l.lost = append(l.lost, fmt.Sprintf("%s:%d:%d: the descriptions of the model's ports", x.name, line, col))
	}
	kept := map[string]bool{}
	for _, m := range xmlModelEntry.FindAllSubmatch(out, -1) {
		kept[string(m[1])] = true
	}
	for _, m := range xmlModelEntry.FindAllSubmatchIndex(src, -1) {
		if id := string(src[m[2]:m[3]]); !kept[id] && inTreeNodesModel(src, m[0]) {
			line, col := lineColOf(src, m[0])
			l.lost = append(l.lost, fmt.Sprintf("%s:%d:%d: the model of %s, which no tree uses", x.name, line, col, termsafe.Text(id)))
		}
	}
	var ids []string
	for id, leaf := range x.leaves {
		if !leaf.model.Declared && kept[id] {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	for _, id := range ids {
		l.guess = append(l.guess, fmt.Sprintf("%s: leaf %s has no <TreeNodesModel> entry: the one written guesses it is an <Action> with ports of any type", x.name, termsafe.Text(id)))
	}
	return l
}

// inTreeNodesModel reports whether byte i of src is inside a
// <TreeNodesModel> element: after its last opening before i, and not
// after that element's end.
func inTreeNodesModel(src []byte, i int) bool {
	open := bytes.LastIndex(src[:i], []byte("<TreeNodesModel"))
	return open >= 0 && !bytes.Contains(src[open:i], []byte("</TreeNodesModel"))
}

// lineColOf returns the 1-based line and byte column of offset i in src.
func lineColOf(src []byte, i int) (int, int) {
	line := 1 + bytes.Count(src[:i], []byte("\n"))
	return line, i - bytes.LastIndexByte(src[:i], '\n')
}

// refusal returns the error of bt fmt -w on a file with losses, or nil.
func (l fmtLoss) refusal(name string) error {
	if len(l.lost) == 0 {
		return nil
	}
	return fmt.Errorf("%s: bt fmt -w leaves the file as it is, since its canonical XML would drop:\n\t%s\n(bt fmt -w -lossy rewrites it anyway)", name, strings.Join(l.lost, "\n\t"))
}
