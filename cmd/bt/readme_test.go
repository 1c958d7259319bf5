package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestREADMECommands runs every "$ bt ..." line of the README's section on
// the bt command, in testdata/mdsl where its sample files are, and checks
// that the output is what the README shows below it.
func TestREADMECommands(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chdir("../../testdata/mdsl"); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir("../../cmd/bt")
	lines := strings.Split(string(readme), "\n")
	ran := 0
	for i := 0; i < len(lines); i++ {
		cmd, ok := strings.CutPrefix(lines[i], "    $ bt ")
		if !ok {
			continue
		}
		var want []string
		for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], "    ") || lines[i+1] == "") && !strings.HasPrefix(lines[i+1], "    $ ") {
			i++
			want = append(want, strings.TrimPrefix(lines[i], "    "))
		}
		var out bytes.Buffer
		run(strings.Fields(cmd), &out, &out)
		got := strings.TrimRight(out.String(), "\n")
		if w := strings.TrimRight(strings.Join(want, "\n"), "\n"); got != w {
			t.Errorf("bt %s:\n got:\n%s\nwant:\n%s", cmd, got, w)
		}
		ran++
	}
	if ran < 5 {
		t.Fatalf("found %d bt commands in the README, want the section's samples", ran)
	}
}
