package behaviortree

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"testing"

	"github.com/zipbt/behaviortree/internal/testlong"
)

// TestSignalInlines checks that the compiler inlines Tree.Succeed and
// Tree.Fail, and Tree.signal (their fast path) into them, so that a
// signal makes no call: signal is a few points under the inliner's budget, and an addition that goes past
// it makes every signal a call, slower and still correct, which no other
// test would notice. It builds the package with -gcflags=-m and reads the
// compiler's report, so it runs with BT_LONG.
func TestSignalInlines(t *testing.T) {
	testlong.Skip(t, "builds the package with -gcflags=-m (seconds)")
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goCmd, "build", "-gcflags=-m", "-o", "/dev/null", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m: %v\n%s", err, out)
	}
	for _, name := range []string{"Succeed", "Fail", "signal"} {
		re := regexp.MustCompile(`(?m)^\./tree\.go:\d+:\d+: can inline Tree\[.*\]\.` + name + `$`)
		if !re.Match(out) {
			t.Errorf("the compiler does not inline Tree.%s: it is past the inliner's budget (go build -gcflags=-m=2 . says by how much)", name)
		}
	}
}
