package btcpp

import (
	"errors"
	"slices"
	"testing"

	btkind "github.com/zipbt/behaviortree/kind"
)

// TestKindsTable checks the rows of the table of kinds, and that they and
// package kind's built-ins agree one to one: every kind.CPP has exactly
// one row (a rule), and every row names a kind.CPP.
func TestKindsTable(t *testing.T) {
	rows := map[btkind.CPP]*kind{btkind.CPPSubTree: subtreeKind}
	for _, k := range append(slices.Clone(builtinKinds), subtreeKind) {
		if k.tick == nil || k.halt == nil {
			t.Errorf("%s: no tick or halt", k.id)
		}
		if !validModelName(k.id) {
			t.Errorf("%s: not a valid ID", k.id)
		}
		if (k.cat == catControl) != (k.minKids > 0) {
			t.Errorf("%s: %s with minKids %d", k.id, k.cat, k.minKids)
		}
		if k.cpp.ID() != k.id || k.cpp.Category() != k.cat || len(k.cpp.Ports()) != len(k.ports) {
			t.Errorf("%s: the row's facts are not its kind.CPP's (%s)", k.id, k.cpp)
		}
		if k.loops != (k.loop != "") {
			t.Errorf("%s: a Loop row without its element type, or the other way round", k.id)
		}
		seen := map[string]bool{}
		for _, p := range k.ports {
			if !portLike(p.Name) || seen[p.Name] {
				t.Errorf("%s: port %q", k.id, p.Name)
			}
			seen[p.Name] = true
			if p.HasDefault && literalChecked(p.Type) {
				if _, ok := parseLiteral(p.Default, p.Type); !ok {
					t.Errorf("%s: the default %q of %q is not a %s", k.id, p.Default, p.Name, p.Type)
				}
			}
		}
		if k == subtreeKind {
			continue
		}
		if builtinByID[k.id] != k {
			t.Errorf("%s: not indexed", k.id)
		}
		if o, dup := rows[k.cpp]; dup && o != k {
			t.Errorf("%s: two rows for %s", k.id, k.cpp)
		}
		rows[k.cpp] = k
	}
	for _, c := range btkind.CPPKinds() {
		k, ok := rows[c]
		if !ok {
			t.Errorf("%s: a built-in of package kind without a rule", c)
			continue
		}
		for i, p := range c.Ports() {
			q := k.ports[i]
			if q.Name != p.Name || q.Dir.String() != p.Dir.String() || q.Type != p.Type || q.Default != p.Default || q.HasDefault != p.HasDefault {
				t.Errorf("%s: port %d is %+v, kind's %+v", c, i, q, p)
			}
		}
		if !isBuiltinID(c.ID()) {
			t.Errorf("%s: a Go leaf may take its ID", c)
		}
	}
	if len(rows) != len(btkind.CPPKinds()) {
		t.Errorf("%d rows, %d built-ins in package kind", len(rows), len(btkind.CPPKinds()))
	}
	// README §5 (and §10's list of node instances): the kinds the random
	// corpus uses, plus SequenceStar (§11), each a built-in with a rule.
	for _, id := range []string{"Sequence", "Fallback", "AsyncSequence", "AsyncFallback", "SequenceWithMemory", "SequenceStar",
		"ReactiveSequence", "ReactiveFallback", "Parallel", "ParallelAll", "IfThenElse", "WhileDoElse",
		"Switch2", "Switch3", "Switch4", "Switch5", "Switch6", "Inverter", "ForceSuccess", "ForceFailure",
		"KeepRunningUntilFailure", "Repeat", "RetryUntilSuccessful", "RunOnce", "Precondition",
		"AlwaysSuccess", "AlwaysFailure", "Script", "ScriptCondition", "SetBlackboard", "UnsetBlackboard"} {
		if c, ok := btkind.CPPByID(id); !ok || rows[c] == nil {
			t.Errorf("§5 kind %s: no built-in, or no rule", id)
		}
	}
}

// TestUnregisteredKinds checks the names BehaviorTree.CPP 4.10.0 does not
// register (README §11, TIMED.md §8): "node not recognized".
func TestUnregisteredKinds(t *testing.T) {
	for _, id := range []string{"SubTreePlus", "BlackboardCheckInt", "BlackboardCheckDouble", "BlackboardCheckString",
		"BlackboardCheckBool", "ManualSelector", "FallbackStar", "RetryUntilSuccesful", "PopFromQueue", "QueueSize", "ConsumeQueue"} {
		_, err := NewFactory().Parse(`<root BTCPP_format="4"><BehaviorTree ID="T"><` + id + `/></BehaviorTree></root>`)
		var e *Error
		if !errors.As(err, &e) || e.Type != RuntimeError {
			t.Errorf("%s: got %v, want a RuntimeError", id, err)
		}
	}
}
