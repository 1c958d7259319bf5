package btcpp

import (
	"encoding/json"
	"strings"
	"testing"
)

// timedLawCases are trees for the laws beyond the corpus, which has no
// node on the clock (README §10): Delay, Timeout and Sleep on the law
// trees' turn clock, beside the entry-updated nodes, a Loop and a TryCatch
// over stateful actions, so that the laws also cover versions that hold
// a timer or a watched entry's sequence number.
var timedLawTexts = []string{
	`{"id":"timed-delay","xml":"<root BTCPP_format=\"4\"><BehaviorTree ID=\"M\"><Sequence><Delay delay_msec=\"250\"><Act/></Delay><Script code=\"n := n + 1\"/></Sequence></BehaviorTree></root>","leaves":{"Act":{"kind":"action","ports":[]}},"bb":{"n":0}}`,
	`{"id":"timed-timeout","xml":"<root BTCPP_format=\"4\"><BehaviorTree ID=\"M\"><Fallback><Timeout msec=\"300\"><Act/></Timeout><Sleep msec=\"150\"/></Fallback></BehaviorTree></root>","leaves":{"Act":{"kind":"action","ports":[]}}}`,
	`{"id":"timed-reactive","xml":"<root BTCPP_format=\"4\"><BehaviorTree ID=\"M\"><ReactiveSequence><Cond/><Timeout msec=\"400\"><Sequence><Sleep msec=\"100\"/><Act/></Sequence></Timeout></ReactiveSequence></BehaviorTree></root>","leaves":{"Act":{"kind":"action","ports":[]},"Cond":{"kind":"condition","ports":[]}}}`,
	`{"id":"timed-updated","xml":"<root BTCPP_format=\"4\"><BehaviorTree ID=\"M\"><Parallel success_count=\"-1\" failure_count=\"1\"><Sequence><Sleep msec=\"200\"/><Script code=\"k := k + 1\"/></Sequence><WaitValueUpdate entry=\"k\"><Act/></WaitValueUpdate><SkipUnlessUpdated entry=\"k\"><Act/></SkipUnlessUpdated></Parallel></BehaviorTree></root>","leaves":{"Act":{"kind":"action","ports":[]}},"bb":{"k":0}}`,
	`{"id":"timed-loop-trycatch","xml":"<root BTCPP_format=\"4\"><BehaviorTree ID=\"M\"><TryCatch><LoopInt queue=\"1;2;3\" value=\"{v}\"><Delay delay_msec=\"100\"><Act/></Delay></LoopInt><Sleep msec=\"100\"/></TryCatch></BehaviorTree></root>","leaves":{"Act":{"kind":"action","ports":[]}}}`,
}

// timedLawCases returns the cases of timedLawTexts (lawTrees fails the
// test if one does not build, since each is written to build).
func timedLawCases(t testing.TB) []btCase {
	var out []btCase
	for _, s := range timedLawTexts {
		var c btCase
		d := json.NewDecoder(strings.NewReader(s))
		d.UseNumber()
		if err := d.Decode(&c); err != nil {
			t.Fatalf("timedLawTexts: %v in %s", err, s)
		}
		out = append(out, c)
	}
	return out
}
