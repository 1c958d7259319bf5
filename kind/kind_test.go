package kind_test

import (
	"fmt"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/custom"
	"github.com/zipbt/behaviortree/kind"
)

// TestString checks that every kind has a distinct snake_case name and that
// a value past the last kind prints as Kind(N).
func TestString(t *testing.T) {
	seen := map[string]kind.Kind{}
	k := kind.Leaf
	for ; k <= kind.EmptyInverter; k++ {
		s := k.String()
		if s == "" || strings.ToLower(s) != s || strings.Contains(s, " ") {
			t.Errorf("Kind(%d).String() = %q, want a snake_case name", uint8(k), s)
		}
		if o, dup := seen[s]; dup {
			t.Errorf("kinds %d and %d are both %q", uint8(o), uint8(k), s)
		}
		seen[s] = k
	}
	if got, want := k.String(), fmt.Sprintf("Kind(%d)", uint8(k)); got != want {
		t.Errorf("the kind past the last prints as %q, want %q", got, want)
	}
}

// Walking a definition, a renderer or exporter switches on each node's Kind.
func ExampleKind() {
	def := bt.Sequence(
		bt.Condition[string]("hungry"),
		bt.RepeatCount(3, bt.Leaf("eat")),
	)
	for n := range def.Preorder() {
		v, _ := n.Leaf()
		switch n.Kind() {
		case kind.Condition:
			fmt.Println("ask", v)
		case kind.Leaf:
			fmt.Println("do", v)
		case kind.Repeat:
			fmt.Println(n.Kind(), n.Params().Min, "times:")
		}
	}
	// Output:
	// ask hungry
	// repeat 3 times:
	// do eat
}

// TestRunsOn checks RunsOn against the engines: Start takes a tree of a
// kind exactly when it runs on ValueSucceedFail, NewStepped exactly when it
// runs on Stepped. It also checks Carries against Node.Leaf and Arity
// against the number of children Build takes.
func TestRunsOn(t *testing.T) {
	leaf := bt.Leaf("a")
	p := kind.Params{N: 2, Weights: []int{1}, Success: 1, Failure: 1}
	for k := kind.Leaf; k <= kind.EmptyInverter; k++ {
		var n bt.Node[string]
		var err error
		switch k {
		case kind.Leaf:
			n = leaf
		case kind.Condition:
			n = bt.Condition("c")
		case kind.Custom:
			n = bt.CustomNode(passThrough{}, leaf)
		default:
			var kids []bt.Node[string]
			if k.Arity() != kind.NoChildren {
				kids = append(kids, leaf)
			}
			if n, err = bt.Build(k, p, kids...); err != nil {
				t.Fatalf("%s: %v", k, err)
			}
		}
		if _, carries := n.Leaf(); carries != k.Carries() {
			t.Errorf("%s: Node.Leaf says it carries a value: %v, Carries: %v", k, carries, k.Carries())
		}
		if k.Arity() == kind.NoChildren && n.Len() != 0 {
			t.Errorf("%s: arity NoChildren, built with %d children", k, n.Len())
		}
		if k.Arity() == kind.OneChild || k.Arity() == kind.SomeChildren {
			if _, err := bt.Build[string](k, p); err == nil && k != kind.Leaf && k != kind.Condition && k != kind.Custom {
				t.Errorf("%s: arity %d, but Build takes no children", k, k.Arity())
			}
		}
		started := func() (ok bool) {
			defer func() { ok = recover() == nil }()
			bt.Start(n)
			return
		}()
		if started != k.RunsOn(kind.ValueSucceedFail) {
			t.Errorf("%s: Start takes it: %v, RunsOn(ValueSucceedFail): %v", k, started, !started)
		}
		agent := bt.Agent[string]{Action: func(string) bt.Result { return bt.ResultSuccess }, Condition: func(string) bool { return true }}
		_, err = bt.NewStepped(n, agent)
		if (err == nil) != k.RunsOn(kind.Stepped) {
			t.Errorf("%s: NewStepped's error %v, RunsOn(Stepped): %v", k, err, k.RunsOn(kind.Stepped))
		}
	}
	for _, k := range []kind.Kind{kind.EmptyInverter + 1, 255} {
		if k.RunsOn(kind.ValueSucceedFail) || k.RunsOn(kind.Stepped) || k.MDSL() != "" || k.Mistreevous() != "" || k.Carries() {
			t.Errorf("%s, no kind, has facts", k)
		}
	}
	if kind.Leaf.RunsOn(kind.Stepped + 1) {
		t.Error("Leaf runs on a style that does not exist")
	}
}

// passThrough is a custom node that goes to its first child and gives its
// outcome.
type passThrough struct{}

func (p passThrough) Enter(custom.Context) (int, custom.Traversal) { return 0, p }
func (p passThrough) OnSucceed(custom.Context) (custom.Move, custom.Traversal) {
	return custom.Succeed, p
}
func (p passThrough) OnFail(custom.Context) (custom.Move, custom.Traversal) { return custom.Fail, p }

// TestCPP checks the built-ins of BehaviorTree.CPP: distinct IDs that
// CPPByID finds again, categories and children that agree, distinct port
// names with a known direction, and no facts for a value that is no CPP.
func TestCPP(t *testing.T) {
	all := kind.CPPKinds()
	if len(all) == 0 {
		t.Fatal("no built-ins")
	}
	for _, c := range all {
		if c.ID() == "" || c.String() != c.ID() {
			t.Errorf("CPP(%d): ID %q, String %q", uint8(c), c.ID(), c.String())
		}
		if got, ok := kind.CPPByID(c.ID()); !ok || got != c {
			t.Errorf("%s: CPPByID gives %v, %v", c, got, ok)
		}
		switch c.Category() {
		case kind.CategoryControl:
			if c.MinChildren() < 1 {
				t.Errorf("%s: a control taking %d children", c, c.MinChildren())
			}
		case kind.CategoryDecorator:
			if c.MinChildren() != 1 {
				t.Errorf("%s: a decorator taking %d children", c, c.MinChildren())
			}
		case kind.CategoryLeaf, kind.CategorySubTree:
			if c.MinChildren() != 0 {
				t.Errorf("%s: a %s taking %d children", c, c.Category(), c.MinChildren())
			}
		default:
			t.Errorf("%s: category %s", c, c.Category())
		}
		if (c.Category() == kind.CategorySubTree) != (c.Draw() == kind.Root) {
			t.Errorf("%s: a %s drawn as %s", c, c.Category(), c.Draw())
		}
		if c.Draw().Arity() == kind.NoChildren && c.Category() != kind.CategoryLeaf {
			t.Errorf("%s: a %s drawn as the leaf %s", c, c.Category(), c.Draw())
		}
		seen := map[string]bool{}
		for _, p := range c.Ports() {
			if p.Name == "" || seen[p.Name] || strings.HasPrefix(p.Dir.String(), "PortDir(") || p.Type == "" {
				t.Errorf("%s: port %+v", c, p)
			}
			seen[p.Name] = true
		}
		if ps := c.Ports(); len(ps) > 0 {
			ps[0].Name = "changed"
			if c.Ports()[0].Name == "changed" {
				t.Errorf("%s: Ports returns the row itself", c)
			}
		}
	}
	for _, id := range []string{"", "sequence", "ManualSelector", "PopFromQueue", "SubTreePlus"} {
		if c, ok := kind.CPPByID(id); ok {
			t.Errorf("CPPByID(%q) = %s", id, c)
		}
	}
	var none kind.CPP
	if none.ID() != "" || none.Ports() != nil || none.MinChildren() != 0 || none.String() != "CPP(0)" || kind.CPP(255).ID() != "" {
		t.Error("a value that is no CPP has facts")
	}
}
