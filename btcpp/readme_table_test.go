package btcpp

import (
	"os"
	"regexp"
	"strings"
	"testing"

	btkind "github.com/zipbt/behaviortree/kind"
)

// TestBuiltinTable checks the README's table of BehaviorTree.CPP's
// built-in nodes against package kind's facts: one row per kind.CPP, in
// its order, each naming what the node takes and its ports.
func TestBuiltinTable(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "### The built-in nodes\n")
	if !ok {
		t.Fatal("README.md has no section \"The built-in nodes\"")
	}
	table, _, _ = strings.Cut(table, "\n#")
	code := regexp.MustCompile("`([^`]*)`")
	var ids []string
	rows := map[string][]string{}
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 6 || strings.HasPrefix(cells[1], "---") || strings.TrimSpace(cells[1]) == "node" {
			continue
		}
		m := code.FindStringSubmatch(cells[1])
		if m == nil {
			t.Errorf("a row names no node: %q", line)
			continue
		}
		ids = append(ids, m[1])
		rows[m[1]] = cells
	}
	var want []string
	for _, c := range btkind.CPPKinds() {
		want = append(want, c.ID())
	}
	if strings.Join(ids, " ") != strings.Join(want, " ") {
		t.Fatalf("the table's nodes:\n%s\nkind.CPPKinds:\n%s", strings.Join(ids, " "), strings.Join(want, " "))
	}
	for _, c := range btkind.CPPKinds() {
		cells := rows[c.ID()]
		takes := strings.TrimSpace(cells[2])
		switch c.Category() {
		case btkind.CategoryLeaf, btkind.CategorySubTree:
			if takes != "no child" {
				t.Errorf("%s takes %q, not no child", c.ID(), takes)
			}
		case btkind.CategoryDecorator:
			if takes != "one child" {
				t.Errorf("%s takes %q, not one child", c.ID(), takes)
			}
		case btkind.CategoryControl:
			if !strings.Contains(takes, "children") {
				t.Errorf("%s takes %q, not children", c.ID(), takes)
			}
			if n := c.MinChildren(); n > 1 && !strings.HasPrefix(takes, string(rune('0'+n))) {
				t.Errorf("%s takes %q, but at least %d children", c.ID(), takes, n)
			}
		}
		ports := cells[3]
		if strings.HasPrefix(strings.TrimSpace(ports), "as ") {
			continue // the same ports as the row it names
		}
		for _, p := range c.Ports() {
			if !strings.Contains(ports, "`"+p.Name+"`") && !strings.Contains(ports, "… `"+p.Name) {
				if strings.HasPrefix(p.Name, "case_") && strings.Contains(ports, "`case_1` …") {
					continue
				}
				t.Errorf("%s: the table does not name its port %s", c.ID(), p.Name)
			}
			if p.HasDefault && !strings.Contains(ports, "`"+p.Name+"`="+p.Default) {
				t.Errorf("%s: the table does not give %s's default %s", c.ID(), p.Name, p.Default)
			}
		}
	}
}
