package btcpp

import (
	"errors"
	"slices"
	"testing"
)

// TestKindsTable checks the rows of the table of kinds.
func TestKindsTable(t *testing.T) {
	for _, k := range builtinKinds {
		if k.tick == nil || k.halt == nil {
			t.Errorf("%s: no tick or halt", k.id)
		}
		if !validModelName(k.id) {
			t.Errorf("%s: not a valid ID", k.id)
		}
		if (k.cat == catControl) != (k.minKids > 0) {
			t.Errorf("%s: %s with minKids %d", k.id, k.cat, k.minKids)
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
		if builtinByID[k.id] != k {
			t.Errorf("%s: not indexed", k.id)
		}
	}
	// README §5 (and §10's list of node instances): the kinds the random
	// corpus uses, plus SequenceStar (§11).
	sec5 := []string{"Sequence", "Fallback", "AsyncSequence", "AsyncFallback", "SequenceWithMemory", "SequenceStar",
		"ReactiveSequence", "ReactiveFallback", "Parallel", "ParallelAll", "IfThenElse", "WhileDoElse",
		"Switch2", "Switch3", "Switch4", "Switch5", "Switch6", "Inverter", "ForceSuccess", "ForceFailure",
		"KeepRunningUntilFailure", "Repeat", "RetryUntilSuccessful", "RunOnce", "Precondition",
		"AlwaysSuccess", "AlwaysFailure", "Script", "ScriptCondition", "SetBlackboard", "UnsetBlackboard"}
	var got []string
	for _, k := range builtinKinds {
		if k.sec5 {
			got = append(got, k.id)
		}
	}
	slices.Sort(got)
	slices.Sort(sec5)
	if !slices.Equal(got, sec5) {
		t.Errorf("§5 kinds: got %v, want %v", got, sec5)
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
