package behaviortree

import (
	"go/version"
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
// test would notice. It builds the package with -gcflags=-m=2 and reads the
// compiler's report, so it runs with BT_LONG.
func TestSignalInlines(t *testing.T) {
	testlong.Skip(t, "builds the package with -gcflags=-m=2 (seconds)")
	// The inliner's costs differ between toolchains: Go 1.23's puts
	// signal's shape instantiation at 108 (Succeed and Fail then inline
	// as a call to it). The figures of docs/performance.md are Go 1.26's.
	if v := runtime.Version(); version.Compare(v, "go1.26") < 0 {
		t.Skipf("%s: the inlining is checked on Go 1.26 and later", v)
	}
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	out, err := exec.Command(goCmd, "build", "-gcflags=-m=2", "-o", "/dev/null", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build -gcflags=-m=2: %v\n%s", err, out)
	}
	for _, name := range []string{"Succeed", "Fail", "signal"} {
		// The shape instantiations: what other packages' trees use (the
		// package's own concrete types inline differently).
		can := regexp.MustCompile(`(?m)^\./tree\.go:\d+:\d+: can inline Tree\[go\.shape\..*\]\.` + name + `( |$)`)
		cannot := regexp.MustCompile(`(?m)^\./tree\.go:\d+:\d+: cannot inline Tree\[go\.shape\..*\]\.` + name + `:.*$`)
		if m := cannot.Find(out); m != nil {
			t.Errorf("the compiler does not inline Tree.%s: %s", name, m)
		} else if !can.Match(out) {
			t.Errorf("the compiler's report does not say it inlines Tree.%s", name)
		}
	}
}
