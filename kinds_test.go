package behaviortree

import (
	"testing"

	"github.com/zipbt/behaviortree/internal/hook"
	"github.com/zipbt/behaviortree/kind"
)

// TestKindFacts checks the rows that the module's clients read through
// hook.Kind: each is its kind's row of the table, with its bound named
// exactly when it takes one, and a number that is not a kind has the zero
// row.
func TestKindFacts(t *testing.T) {
	for i := range 256 {
		k := kind.Kind(i)
		f := hook.Kind(uint8(i))
		if k >= numKinds {
			if f != (hook.KindFacts{}) {
				t.Errorf("Kind(%d), not a kind, has the row %+v", k, f)
			}
			continue
		}
		info := kinds[k]
		want := hook.KindFacts{MDSL: info.mdsl, Mistreevous: info.mistreevous, Arity: info.arity, Param: info.param,
			Carries: info.carries, Stepped: info.stepped, Bound: info.bound}
		if f != want {
			t.Errorf("%s: hook.Kind gives %+v, the table %+v", k, f, want)
		}
		if (f.Param == hook.ParamBound) != (f.Bound != "") {
			t.Errorf("%s: param %d with bound %q: a bound is named exactly when the kind takes one", k, f.Param, f.Bound)
		}
	}
}
