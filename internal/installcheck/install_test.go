package installcheck

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	bt "github.com/zipbt/behaviortree"
)

// consumer is the program of the new module: it prints a definition's
// one-line form, which the test compares with the same definition's
// String here, so that the program is known to run this checkout's code.
const consumer = `package main

import (
	"fmt"

	bt "github.com/zipbt/behaviortree"
)

func main() { fmt.Println(bt.Sequence(bt.Leaf("patrol"), bt.Leaf("rest"))) }
`

// recipe returns the command lines of the README's Install section: the
// first indented block after its heading, without comments.
func recipe(t *testing.T, readme string) []string {
	t.Helper()
	_, section, ok := strings.Cut(readme, "\n## Install\n")
	if !ok {
		t.Fatal("README.md has no Install section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var lines []string
	for _, line := range strings.Split(section, "\n") {
		code, ok := strings.CutPrefix(line, "    ")
		if !ok {
			if len(lines) > 0 && strings.TrimSpace(line) != "" {
				break // the end of the first block
			}
			continue
		}
		code, _, _ = strings.Cut(code, "#")
		if code = strings.TrimSpace(code); code != "" {
			lines = append(lines, code)
		}
	}
	if len(lines) == 0 {
		t.Fatal("README.md's Install section has no indented block of commands")
	}
	return lines
}

// TestInstallRecipe follows the README's install recipe in a temporary
// directory, with no network: the clone is a link to this checkout, the
// new module is example.com/myapp with one main package, and every go
// command of the recipe runs with GOPROXY=off and GOFLAGS=-mod=mod, on the
// module downloads that building this checkout has already cached. The
// new module's go.sum starts as this checkout's, which stands in for the
// checksum database. Then the program is built and run.
func TestInstallRecipe(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not installed: the install recipe cannot be checked")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	checkout, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sums, err := os.ReadFile(filepath.Join(checkout, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -mod=mod"))
	top := t.TempDir()
	dir := top
	cloned, entered, edited := false, false, false
	for _, line := range recipe(t, string(readme)) {
		args := strings.Fields(line)
		switch {
		case len(args) >= 3 && args[0] == "git" && args[1] == "clone":
			// The clone: a link, named as the recipe names it, to this checkout.
			name := args[len(args)-1]
			if strings.Contains(name, "/") || strings.Contains(name, ":") {
				t.Fatalf("README: %q: the recipe should name the clone's directory", line)
			}
			if err := os.Symlink(checkout, filepath.Join(top, name)); err != nil {
				t.Skipf("cannot stand a link in for the clone: %v", err)
			}
			cloned = true
		case len(args) == 2 && args[0] == "cd":
			// The user's module, beside the clone.
			dir = filepath.Join(top, args[1])
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			run(t, dir, env, goCmd, "mod", "init", "example.com/"+filepath.Base(dir))
			write(t, filepath.Join(dir, "main.go"), consumer)
			write(t, filepath.Join(dir, "go.sum"), string(sums))
			entered = true
		case len(args) >= 2 && args[0] == "go":
			if !cloned || !entered {
				t.Fatalf("README: %q comes before the clone and the cd into one's module", line)
			}
			if args[1] == "mod" && len(args) > 2 && args[2] == "edit" && strings.Contains(line, "-replace") {
				edited = true
			}
			run(t, dir, env, goCmd, args[1:]...)
		default:
			t.Fatalf("README: the install recipe has a line this test does not know how to follow: %q", line)
		}
	}
	if !edited {
		t.Fatal("README: the install recipe has no go mod edit -replace line")
	}
	run(t, dir, env, goCmd, "build", "-o", "app", ".")
	out := run(t, dir, env, filepath.Join(dir, "app"))
	want := bt.Sequence(bt.Leaf("patrol"), bt.Leaf("rest")).String()
	if got := strings.TrimSpace(out); got != want {
		t.Errorf("the program built with the recipe printed %q, this checkout gives %q", got, want)
	}
}

// run runs a command in dir and returns its standard output; it fails the
// test with the command's output if the command fails.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s: %v\n%s%s", strings.Join(append([]string{filepath.Base(name)}, args...), " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
