package testlong

import "testing"

func TestPick(t *testing.T) {
	t.Setenv(Env, "")
	if Enabled() || Pick(1, 2) != 1 || Stride(5) != 5 {
		t.Errorf("BT_LONG unset: Enabled %v, Pick %d, Stride %d", Enabled(), Pick(1, 2), Stride(5))
	}
	t.Setenv(Env, "0")
	if Enabled() {
		t.Error("BT_LONG=0 counts as set")
	}
	t.Setenv(Env, "1")
	if !Enabled() || Pick(1, 2) != 2 || Stride(5) != 1 {
		t.Errorf("BT_LONG=1: Enabled %v, Pick %d, Stride %d", Enabled(), Pick(1, 2), Stride(5))
	}
}

func TestSkip(t *testing.T) {
	t.Setenv(Env, "")
	ran := false
	t.Run("short", func(t *testing.T) {
		Skip(t, "costly")
		ran = true
	})
	if ran {
		t.Error("Skip did not skip without BT_LONG")
	}
	t.Setenv(Env, "1")
	t.Run("long", func(t *testing.T) {
		Skip(t, "costly")
		ran = true
	})
	if !ran {
		t.Error("Skip skipped with BT_LONG=1")
	}
}
