package behaviortree

import (
	"testing"

	"github.com/zipbt/behaviortree/kind"
)

// TestKindFacts checks that every row of the table of kinds holds package
// kind's facts of its kind, and that a bound is named exactly when the kind
// takes one.
func TestKindFacts(t *testing.T) {
	for k := kind.Kind(0); k < numKinds; k++ {
		info := kinds[k]
		if info.arity != k.Arity() || info.param != k.Param() || info.mistreevous != k.Mistreevous() ||
			info.mdsl != k.MDSL() || info.bound != k.BoundName() || info.carries != k.Carries() ||
			info.stepped == k.RunsOn(kind.ValueSucceedFail) {
			t.Errorf("%s: the row %+v does not hold package kind's facts", k, info)
		}
		if (k.Param() == kind.ParamBound) != (k.BoundName() != "") {
			t.Errorf("%s: param %d with bound %q: a bound is named exactly when the kind takes one", k, k.Param(), k.BoundName())
		}
		if !k.RunsOn(kind.ValueSucceedFail) && !k.RunsOn(kind.Stepped) {
			t.Errorf("%s: no style runs it", k)
		}
	}
}
