package behaviortree

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"
)

// mdslCase is the part of a corpus case that the MDSL tests read.
type mdslCase struct {
	ID         string          `json:"id"`
	Definition json.RawMessage `json:"definition"`
	MDSL       string          `json:"mdsl"`
}

func readMDSLCorpus(t testing.TB) []mdslCase {
	file := mistreevousCorpus()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	var cases []mdslCase
	for sc.Scan() {
		var c mdslCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: line %d: %v", file, len(cases)+1, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// mdslDiff returns the first structural difference between a and b, or "".
func mdslDiff[L any](a, b Node[L]) string {
	type pair struct {
		a, b *node[L]
		path string
	}
	stack := []pair{{a.n, b.n, "root"}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		x, y := p.a, p.b
		switch {
		case x.kind != y.kind:
			return fmt.Sprintf("%s: kind %s, want %s", p.path, x.kind, y.kind)
		case len(x.children) != len(y.children):
			return fmt.Sprintf("%s: %d children, want %d", p.path, len(x.children), len(y.children))
		case !reflect.DeepEqual(Node[L]{x}.Params(), Node[L]{y}.Params()):
			return fmt.Sprintf("%s: params %+v, want %+v", p.path, Node[L]{x}.Params(), Node[L]{y}.Params())
		case kinds[x.kind].carries && !reflect.DeepEqual(x.leaf, y.leaf):
			return fmt.Sprintf("%s: leaf %#v, want %#v", p.path, x.leaf, y.leaf)
		case !reflect.DeepEqual(Node[L]{x}.Attrs(), Node[L]{y}.Attrs()):
			return fmt.Sprintf("%s: attrs %#v, want %#v", p.path, Node[L]{x}.Attrs(), Node[L]{y}.Attrs())
		}
		for i := range x.children {
			stack = append(stack, pair{x.children[i], y.children[i], fmt.Sprintf("%s.%d", p.path, i)})
		}
	}
	return ""
}

// TestMDSLCorpus checks every corpus case: its mdsl text parses to a tree
// equal to its JSON definition; the canonical print of that tree parses
// back to an equal tree; the canonical reformatting of the text is stable
// and parses to an equal tree; and the tree read from MDSL replays the
// recorded trace (runMistreevousCase, given the MDSL tree's definition).
func TestMDSLCorpus(t *testing.T) {
	cases := readMDSLCorpus(t)
	full := readMistreevousCorpus(t, mistreevousCorpus())
	if len(full) != len(cases) {
		t.Fatalf("%d cases, %d with traces", len(cases), len(full))
	}
	parsed, replayed, printed, formatted := 0, 0, 0, 0
	fail := func(format string, args ...any) {
		if t.Failed() && testing.Short() {
			return
		}
		t.Errorf(format, args...)
	}
	for i, c := range cases {
		want, err := ParseMistreevous(c.Definition)
		if err != nil {
			t.Fatalf("%s: definition: %v", c.ID, err)
		}
		got, err := ParseMDSL(c.ID+".mdsl", []byte(c.MDSL))
		if err != nil {
			fail("%s: %v", c.ID, err)
			continue
		}
		if d := mdslDiff(got, want); d != "" {
			fail("%s: MDSL and JSON differ: %s", c.ID, d)
			continue
		}
		gj, err1 := MarshalMistreevous(got)
		wj, err2 := MarshalMistreevous(want)
		if err1 != nil || err2 != nil || string(gj) != string(wj) {
			fail("%s: MarshalMistreevous differs: %v %v\n%s\n%s", c.ID, err1, err2, gj, wj)
			continue
		}
		parsed++
		mc := full[i]
		if mc.ID != c.ID {
			t.Fatalf("case %d: ids %s and %s", i, mc.ID, c.ID)
		}
		mc.Definition = gj
		if d := runMistreevousCase(&mc); d != "" {
			fail("%s: replay from MDSL: %s", c.ID, d)
		} else {
			replayed++
		}
		out, err := FormatMDSL(got)
		if err != nil {
			fail("%s: FormatMDSL: %v", c.ID, err)
			continue
		}
		back, err := ParseMDSL("printed", out)
		if err != nil {
			fail("%s: printed text does not parse: %v\n%s", c.ID, err, out)
			continue
		}
		if d := mdslDiff(back, got); d != "" {
			fail("%s: printed text parses differently: %s\n%s", c.ID, d, out)
			continue
		}
		if again, err := FormatMDSL(back); err != nil || string(again) != string(out) {
			fail("%s: printing is not stable: %v\n%s\n%s", c.ID, err, out, again)
			continue
		}
		printed++
		src, err := FormatMDSLSource(c.ID, []byte(c.MDSL))
		if err != nil {
			fail("%s: FormatMDSLSource: %v", c.ID, err)
			continue
		}
		src2, err := FormatMDSLSource(c.ID, src)
		if err != nil || string(src2) != string(src) {
			fail("%s: formatting is not stable: %v\n%s\n---\n%s", c.ID, err, src, src2)
			continue
		}
		if back, err := ParseMDSL("formatted", src); err != nil || mdslDiff(back, got) != "" {
			fail("%s: formatted text parses differently: %v\n%s", c.ID, err, src)
			continue
		}
		formatted++
	}
	t.Logf("MDSL corpus (%s): %d/%d parse equal to their JSON definition, %d/%d replay identically, %d/%d print and parse back, %d/%d reformat stably",
		mistreevousCorpus(), parsed, len(cases), replayed, len(cases), printed, len(cases), formatted, len(cases))
}
