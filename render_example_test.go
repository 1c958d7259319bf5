package behaviortree_test

import (
	"os"

	bt "github.com/zipbt/behaviortree"
)

// A version drawn as text: the focus is on beginning_of_next_row, after
// top_left succeeded and go_right failed.
func ExamplePicture_WriteText() {
	aiB := bt.Sequence(
		bt.Leaf("top_left"),
		bt.RepeatUntilFail(bt.Select(bt.Leaf("go_right"), bt.Leaf("beginning_of_next_row"))),
	)
	tree := bt.Start(aiB).Succeed().Fail()
	if err := tree.Picture().WriteText(os.Stdout, bt.ASCII); err != nil {
		panic(err)
	}
	if err := tree.Picture().WriteText(os.Stdout, bt.Unicode); err != nil {
		panic(err)
	}
	// Output:
	// [>] sequence
	// |- [+] action top_left
	// `- [>] repeat_until_fail
	//    `- [>] selector
	//       |- [x] action go_right
	//       `- [>] action beginning_of_next_row  <- focus
	// ▶ sequence
	// ├─ ✔ action top_left
	// └─ ▶ repeat_until_fail
	//    └─ ▶ selector
	//       ├─ ✘ action go_right
	//       └─ ▶ action beginning_of_next_row  ◀ focus
}

// The same version as a Mermaid flowchart.
func ExamplePicture_WriteMermaid() {
	tree := bt.Start(bt.Select(bt.Leaf("attack"), bt.Leaf("flee"))).Fail()
	if err := tree.Picture().WriteMermaid(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// flowchart TD
	//     n0{"selector"}
	//     n1(["action attack"])
	//     n2(["action flee"])
	//     n0 --> n1
	//     n0 --> n2
	//     classDef ready fill:#f3f3f3,stroke:#999999,color:#000000
	//     classDef running fill:#ffe599,stroke:#bf9000,color:#000000
	//     classDef succeeded fill:#b6d7a8,stroke:#38761d,color:#000000
	//     classDef failed fill:#ea9999,stroke:#990000,color:#000000
	//     class n0,n2 running
	//     class n1 failed
	//     style n2 stroke:#1155cc,stroke-width:4px
}

// A stepped version as Graphviz DOT: pipe it to "dot -Tsvg".
func ExamplePicture_WriteDOT() {
	st, err := bt.NewStepped(bt.Sequence(bt.Condition("ready?"), bt.Leaf("go")), bt.Agent[string]{
		Condition: func(string) bool { return true },
		Action:    func(string) bt.Result { return bt.ResultRunning },
	})
	if err != nil {
		panic(err)
	}
	st, err = st.Step()
	if err != nil {
		panic(err)
	}
	if err := st.Picture().WriteDOT(os.Stdout); err != nil {
		panic(err)
	}
	// Output:
	// digraph behaviortree {
	// 	graph [rankdir=TB, ordering=out, nodesep=0.25, ranksep=0.4];
	// 	node [fontname="Helvetica", fontsize=11, margin="0.12,0.04"];
	// 	edge [arrowsize=0.6, color="#666666"];
	// 	n0 [label="root", shape=house, style="filled", fillcolor="#ffe599", color="#bf9000", tooltip="running"];
	// 	n1 [label="sequence", shape=box, style="filled", fillcolor="#ffe599", color="#bf9000", tooltip="running"];
	// 	n2 [label="condition\nready?", shape=ellipse, style="filled", fillcolor="#b6d7a8", color="#38761d", tooltip="succeeded"];
	// 	n3 [label="action\ngo", shape=box, style="rounded,filled", fillcolor="#ffe599", color="#1155cc", tooltip="running", penwidth=3, peripheries=2, fontname="Helvetica-Bold"];
	// 	n0 -> n1;
	// 	n1 -> n2;
	// 	n1 -> n3;
	// }
}
