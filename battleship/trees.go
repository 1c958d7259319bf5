package battleship

import (
	"embed"
	"fmt"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mdsl"
)

// The bots' trees are also written as MDSL text in trees/, which the
// Mistreevous tools and the bt command (cmd/bt) read; a test checks that
// each text is the tree its bot's file builds in Go.
//
//go:embed trees/*.mdsl
var treeFiles embed.FS

// TreeText returns the MDSL text of the named bot's tree ("A" to "E"), as
// embedded from trees/bot_a.mdsl and so on.
func TreeText(name string) ([]byte, error) {
	if len(name) != 1 || name[0] < 'A' || name[0] > 'E' {
		return nil, fmt.Errorf("battleship: no bot %q: the bots are %v", name, Names())
	}
	return treeFiles.ReadFile("trees/bot_" + string(name[0]-'A'+'a') + ".mdsl")
}

// ParseTree reads an MDSL text of a bot's tree: leaves are intents. The
// result is a Mistreevous root; for the Value/Succeed/Fail bots (A to D),
// its child is the tree to Start.
func ParseTree(name string, src []byte) (bt.Node[Intent], error) {
	return mdsl.ParseFunc(name, src, func(text string) (Intent, error) { return Intent(text), nil })
}
