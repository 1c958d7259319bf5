package btcpp

import (
	"fmt"
	"slices"
	"testing"
)

// Tests of forms that trees written by real projects use, each pinned to
// the rule of BehaviorTree.CPP 4.10 it follows.

// TestAutoremapValue: a SubTree's _autoremap is read with
// convertFromString<bool>: the eight bool spellings turn auto-remapping
// on or off, and any other value is a RuntimeError when the SubTree is
// built.
func TestAutoremapValue(t *testing.T) {
	const xml = `<root BTCPP_format="4" main_tree_to_execute="M">
  <BehaviorTree ID="M"><Sequence><Script code="x := 1"/><SubTree ID="S" _autoremap="%s"/></Sequence></BehaviorTree>
  <BehaviorTree ID="S"><ScriptCondition code="x == 1"/></BehaviorTree>
</root>`
	for _, c := range []struct {
		value string
		want  Status // Success: remapped; a missing x is a tick error
		bad   bool   // a build error
	}{
		{"true", Success, false}, {"1", Success, false}, {"TRUE", Success, false}, {"True", Success, false},
		{"false", Idle, false}, {"0", Idle, false}, {"FALSE", Idle, false}, {"False", Idle, false},
		{"yes", Idle, true}, {"", Idle, true}, {"true ", Idle, true}, {"on", Idle, true}, {"{=}", Idle, true},
	} {
		f := NewFactory()
		doc, err := f.Parse(fmt.Sprintf(xml, c.value))
		if err != nil {
			t.Fatalf("%q: parse: %v", c.value, err)
		}
		tree, err := doc.Build("")
		if c.bad {
			if typ, _ := errorType(err); typ != RuntimeError {
				t.Errorf("_autoremap=%q: build error %v, want a RuntimeError", c.value, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("_autoremap=%q: build: %v", c.value, err)
			continue
		}
		_, res, err := tree.Tick()
		switch {
		case c.want == Success && (err != nil || res != Success):
			t.Errorf("_autoremap=%q: %v %v, want SUCCESS (x remapped)", c.value, res, err)
		case c.want == Idle && err == nil:
			t.Errorf("_autoremap=%q: %v, want the error of a missing x (not remapped)", c.value, res)
		}
	}
}

// The trees below are BehaviorTree.CPP's own test and example trees
// (github.com/BehaviorTree/BehaviorTree.CPP, MIT licence; the file and
// test named at each), and each check is an assertion that test makes of
// the library: what its leaves saw, and what the tree returned.

// realTree builds src with leaves that record, in order, "ID:message"
// (or "ID" for a leaf without a message port) and answer from answers
// (SUCCESS when absent), and ticks it with TickOnce until it is not
// RUNNING (tickWhileRunning), at most 50 times.
type realTree struct {
	t       *testing.T
	f       *Factory
	log     []string
	answers map[string]Status
	counts  map[string]int
}

func newRealTree(t *testing.T, answers map[string]Status, leaves ...string) *realTree {
	r := &realTree{t: t, f: NewFactory(), answers: answers, counts: map[string]int{}}
	for _, id := range leaves {
		id := id
		var ports []Port
		if id == "SaySomething" || id == "PrintToConsole" {
			ports = []Port{{Name: "message", Dir: In, Type: "string"}}
		}
		if id == "RecordIntValue" {
			ports = []Port{{Name: "value", Dir: In, Type: "int"}}
		}
		err := r.f.RegisterSync(id, func(c *Call) (Status, error) {
			r.counts[id]++
			entry := id
			switch {
			case len(ports) == 0:
			case ports[0].Type == "int":
				v, err := c.Int("value")
				if err != nil {
					return Failure, nil
				}
				entry += fmt.Sprint(":", v)
			default:
				msg, err := c.String("message")
				if err != nil {
					return Failure, nil
				}
				entry += ":" + msg
			}
			r.log = append(r.log, entry)
			if s, ok := r.answers[id]; ok {
				return s, nil
			}
			return Success, nil
		}, ports...)
		if err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func (r *realTree) build(src, main string, opts ...Option) *Tree {
	r.t.Helper()
	doc, err := r.f.Parse(src)
	if err != nil {
		r.t.Fatalf("parse: %v", err)
	}
	tree, err := doc.Build(main, opts...)
	if err != nil {
		r.t.Fatalf("build: %v", err)
	}
	return tree
}

func tickWhileRunning(t *testing.T, tree *Tree) (*Tree, Status) {
	t.Helper()
	for i := 0; i < 50; i++ {
		next, res, err := tree.TickOnce()
		if err != nil {
			t.Fatalf("tick %d: %v", i, err)
		}
		tree = next
		if res != Running {
			return tree, res
		}
	}
	t.Fatal("still RUNNING after 50 ticks")
	return nil, Idle
}

// sameLog reports whether the log got is want, line for line.
func sameLog(got []string, want ...string) bool { return slices.Equal(got, want) }

// TestRealTreeSubtreeRemapping696: tests/gtest_subtree.cpp,
// RemappingIssue696 (literal remappings under _autoremap, nested).
func TestRealTreeSubtreeRemapping696(t *testing.T) {
	r := newRealTree(t, nil, "PrintToConsole")
	tree := r.build(`
  <root BTCPP_format="4">
    <BehaviorTree ID="Subtree1">\n"
      <Sequence>
        <PrintToConsole message="{msg1}"/>
        <PrintToConsole message="{msg2}"/>
      </Sequence>
    </BehaviorTree>

    <BehaviorTree ID="Subtree2">
      <Sequence>
        <SubTree ID="Subtree1" msg1="foo1" _autoremap="true"/>
        <SubTree ID="Subtree1" msg1="foo2" _autoremap="true"/>
      </Sequence>
    </BehaviorTree>

    <BehaviorTree ID="MainTree">
      <SubTree ID="Subtree2" msg2="bar"/>
    </BehaviorTree>
  </root>`, "MainTree")
	tickWhileRunning(t, tree)
	if !sameLog(r.log, "PrintToConsole:foo1", "PrintToConsole:bar", "PrintToConsole:foo2", "PrintToConsole:bar") {
		t.Errorf("console %q, want foo1 bar foo2 bar", r.log)
	}
}

// TestRealTreePrivateAutoRemapping: tests/gtest_subtree.cpp,
// PrivateAutoRemapping (a key starting with '_' is not auto-remapped).
func TestRealTreePrivateAutoRemapping(t *testing.T) {
	r := newRealTree(t, nil, "PrintToConsole")
	tree := r.build(`
  <root BTCPP_format="4">
    <BehaviorTree ID="Subtree">\n"
      <Sequence>
        <SetBlackboard output_key="public_value"   value="hello"/>
        <SetBlackboard output_key="_private_value" value="world"/>
      </Sequence>
    </BehaviorTree>

    <BehaviorTree ID="MainTree">
      <Sequence>
        <SubTree ID="Subtree" _autoremap="true"/>
        <PrintToConsole message="{public_value}"/>
        <PrintToConsole message="{_private_value}"/>
      </Sequence>
    </BehaviorTree>
  </root>`, "MainTree")
	if _, res := tickWhileRunning(t, tree); res != Failure {
		t.Errorf("result %v, want FAILURE", res)
	}
	if !sameLog(r.log, "PrintToConsole:hello") {
		t.Errorf("console %q, want [hello]", r.log)
	}
}

// TestRealTreeSubtree592: tests/gtest_subtree.cpp, SubtreeIssue592.
func TestRealTreeSubtree592(t *testing.T) {
	r := newRealTree(t, nil, "TestA")
	tree := r.build(`
<root BTCPP_format="4" >

  <BehaviorTree ID="Outer_Tree">
    <Sequence>
      <Script code="variable := 'test'"/>
      <Script code="var := 'test'"/>
      <SubTree ID="Inner_Tree" _autoremap="false" variable="{var}" />
      <SubTree ID="Inner_Tree" _autoremap="true"/>
    </Sequence>
  </BehaviorTree>

  <BehaviorTree ID="Inner_Tree">
    <Sequence>
      <TestA _skipIf="variable != 'test'"/>
    </Sequence>
  </BehaviorTree>

</root>`, "Outer_Tree")
	if _, res := tickWhileRunning(t, tree); res != Success || r.counts["TestA"] != 2 {
		t.Errorf("result %v with TestA ticked %d times, want SUCCESS and 2", res, r.counts["TestA"])
	}
}

// TestRealTreePreconditions533: tests/gtest_preconditions.cpp, Issue533
// (A set to 3 in the root blackboard, then three tickOnce).
func TestRealTreePreconditions533(t *testing.T) {
	r := newRealTree(t, nil, "TestA", "TestB", "TestC")
	tree := r.build(`

    <root BTCPP_format="4" >
        <BehaviorTree ID="MainTree">
            <Sequence>
                <TestA _skipIf="A!=1" />
                <TestB _skipIf="A!=2" _onSuccess="A=1"/>
                <TestC _skipIf="A!=3" _onSuccess="A=2"/>
            </Sequence>
        </BehaviorTree>
    </root>`, "", WithEntry("A", 3))
	for i, want := range [][3]int{{0, 0, 1}, {0, 1, 1}, {1, 1, 1}} {
		next, _, err := tree.TickOnce()
		if err != nil {
			t.Fatal(err)
		}
		tree = next
		if got := [3]int{r.counts["TestA"], r.counts["TestB"], r.counts["TestC"]}; got != want {
			t.Errorf("after tick %d: counters %v, want %v", i+1, got, want)
		}
	}
}

// TestRealTreeSkipAll: tests/gtest_skipping.cpp, SkipAll (no BTCPP_format,
// spaces around '=', a raw '<' in an attribute value).
func TestRealTreeSkipAll(t *testing.T) {
	r := newRealTree(t, nil, "TestA", "TestB", "TestC")
	tree := r.build(`

    <root main_tree_to_execute = "MainTree" >
        <BehaviorTree ID="MainTree">
            <Sequence>
                <TestA _skipIf="A==1"/>
                <TestB _skipIf="A<2"/>
                <TestC _skipIf="A>0"/>
            </Sequence>
        </BehaviorTree>
    </root>`, "", WithEntry("A", 1))
	if _, res := tickWhileRunning(t, tree); res != Skipped || len(r.log) != 0 {
		t.Errorf("result %v, leaves ticked %q; want SKIPPED and none", res, r.log)
	}
}

// TestRealTreeScripting: examples/t09_scripting.cpp (an ID-less tree, a
// <root> without BTCPP_format, enums, "&&" in an attribute) and its
// expected output.
func TestRealTreeScripting(t *testing.T) {
	r := newRealTree(t, nil, "SaySomething")
	for name, v := range map[string]int{"RED": 1, "BLUE": 2, "GREEN": 3, "THE_ANSWER": 42} {
		r.f.Enum(name, v)
	}
	tree := r.build(`
 <root >
     <BehaviorTree>
        <Sequence>
            <Script code=" msg:='hello world' " />
            <Script code=" A:=THE_ANSWER; B:=3.14; color:=RED " />
            <Precondition if="A>B && color != BLUE" else="FAILURE">
                <Sequence>
                  <SaySomething message="{A}"/>
                  <SaySomething message="{B}"/>
                  <SaySomething message="{msg}"/>
                  <SaySomething message="{color}"/>
                </Sequence>
            </Precondition>
        </Sequence>
     </BehaviorTree>
 </root>`, "")
	tickWhileRunning(t, tree)
	if !sameLog(r.log, "SaySomething:42.000000", "SaySomething:3.140000", "SaySomething:hello world", "SaySomething:1.000000") {
		t.Errorf("said %q", r.log)
	}
}

// TestRealTreeLoopInt: tests/gtest_loop.cpp, StaticIntQueue and
// RestartAfterCompletion.
func TestRealTreeLoopInt(t *testing.T) {
	r := newRealTree(t, nil, "RecordIntValue")
	tree := r.build(`
    <root BTCPP_format="4">
       <BehaviorTree>
          <LoopInt queue="1;2;3;4;5" value="{val}">
            <RecordIntValue value="{val}"/>
          </LoopInt>
       </BehaviorTree>
    </root>`, "")
	tree, res := tickWhileRunning(t, tree)
	want := []string{"RecordIntValue:1", "RecordIntValue:2", "RecordIntValue:3", "RecordIntValue:4", "RecordIntValue:5"}
	if res != Success || !sameLog(r.log, want...) {
		t.Errorf("%v, values %q", res, r.log)
	}
	r.log = nil
	if _, res := tickWhileRunning(t, tree); res != Success || !sameLog(r.log, want...) {
		t.Errorf("again: %v, values %q", res, r.log)
	}
}

// TestRealTreeFactoryRemapping: tests/gtest_factory.cpp,
// SubTreeWithRemapping: the main tree's entries are strings with the
// values the subtree wrote through its remappings.
func TestRealTreeFactoryRemapping(t *testing.T) {
	r := newRealTree(t, nil, "SaySomething")
	tree := r.build(`

<root BTCPP_format="4" main_tree_to_execute="MainTree">

  <BehaviorTree ID="TalkToMe">
    <Sequence>
      <SaySomething message="{hello_msg}" />
      <SaySomething message="{bye_msg}" />
      <Script code=" output:='done!' " />
    </Sequence>
  </BehaviorTree>

  <BehaviorTree ID="MainTree">
    <Sequence>
      <Script code = " talk_hello='hello' " />
      <Script code = " talk_bye='bye bye' " />
      <SubTree ID="TalkToMe" hello_msg="{talk_hello}"
                             bye_msg="{talk_bye}"
                             output="{talk_out}" />
      <SaySomething message="{talk_out}" />
    </Sequence>
  </BehaviorTree>

</root> `, "")
	tree, res := tickWhileRunning(t, tree)
	if res != Success || !sameLog(r.log, "SaySomething:hello", "SaySomething:bye bye", "SaySomething:done!") {
		t.Errorf("%v, said %q", res, r.log)
	}
	for key, want := range map[string]string{"talk_hello": "hello", "talk_bye": "bye bye", "talk_out": "done!"} {
		if v, ok := tree.Get(key); !ok || v.String() != want {
			t.Errorf("%s = %v, want %q", key, v, want)
		}
	}
}

// TestRealTreePostConditions: tests/gtest_postconditions.cpp, BasicTest,
// Issue539 (post-conditions of a child retried by RetryUntilSuccessful,
// across its yields) and Issue601 (_onHalted, not _post, when a Parallel
// halts a running Sleep).
func TestRealTreePostConditions(t *testing.T) {
	for _, c := range []struct {
		name, xml string
		want      Status
		entries   map[string]string
	}{
		{"BasicTest", `

    <root BTCPP_format="4" >
        <BehaviorTree ID="MainTree">
            <Sequence>
                <Script code = "A:=1; B:=1; C:=1; D:=1" />

                <AlwaysSuccess _onSuccess="B=42"/>

                <ForceSuccess>
                    <AlwaysSuccess _failureIf="A!=0" _onFailure="C=42"/>
                </ForceSuccess>

                <ForceSuccess>
                    <AlwaysFailure _onFailure="D=42"/>
                </ForceSuccess>
            </Sequence>
        </BehaviorTree>
    </root>`, Success, map[string]string{"B": "42", "C": "42", "D": "42"}},
		{"Issue539", `
    <root BTCPP_format="4" >
      <BehaviorTree ID="MainTree">
        <Sequence>
          <Script code = "x:=0; y:=0" />
          <RetryUntilSuccessful num_attempts="5">
            <AlwaysFailure _onFailure="x  += 1"  _post="y  += 1" />
          </RetryUntilSuccessful>
        </Sequence>
      </BehaviorTree>
    </root>`, Failure, map[string]string{"x": "5", "y": "5"}},
		{"Issue601", `
  <root BTCPP_format="4" >
    <BehaviorTree ID="test_tree">
      <Sequence>
        <Script code="test := 'start'"/>
          <Parallel failure_count="1"
                    success_count="-1">
            <Sleep msec="1000"
                   _onHalted="test = 'halted'"
                   _post="test = 'post'"/>
            <AlwaysFailure/>
          </Parallel>
      </Sequence>
    </BehaviorTree>
  </root>`, Failure, map[string]string{"test": "halted"}},
	} {
		r := newRealTree(t, nil)
		tree, res := tickWhileRunning(t, r.build(c.xml, ""))
		if res != c.want {
			t.Errorf("%s: %v, want %v", c.name, res, c.want)
		}
		for key, want := range c.entries {
			if v, ok := tree.Get(key); !ok || v.String() != want {
				t.Errorf("%s: %s = %v, want %s", c.name, key, v, want)
			}
		}
	}
}
