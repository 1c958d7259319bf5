package btcpp

import (
	"errors"
	"strings"
	"testing"
)

// TestScriptErrorLocated checks that a script that does not parse is a
// build error located at its attribute in the XML text, its message
// saying where in the script: BehaviorTree.CPP's message with its byte
// position where the library's is known, else line:column; a
// condition's message starts as the library's does, with the script.
func TestScriptErrorLocated(t *testing.T) {
	cases := []struct {
		xml       string
		line, col int
		typ       ErrorType
		msg       string
	}{
		{"<root BTCPP_format=\"4\"><BehaviorTree ID=\"A\">\n  <Script code=\"x := := 1\"/>\n</BehaviorTree></root>", 2, 11, RuntimeError, "Expected operand at position 5 (got ':=')"},
		{"<root BTCPP_format=\"4\"><BehaviorTree ID=\"A\">\n\n  <AlwaysSuccess _skipIf=\"(1\"/>\n</BehaviorTree></root>", 3, 18, LogicError, "Error in the script \"(1\"\nthe script of _skipIf, 1:3: "},
		{"<root BTCPP_format=\"4\"><BehaviorTree ID=\"A\">\n <Precondition if=\"a ?\"><AlwaysSuccess/></Precondition>\n</BehaviorTree></root>", 2, 16, RuntimeError, "Expected operand at position 3 (got '')"},
	}
	for _, c := range cases {
		doc, err := NewFactory().Parse(c.xml)
		if err != nil {
			t.Fatal(err)
		}
		_, err = doc.Build("")
		var e *Error
		if !errors.As(err, &e) || e.Line != c.line || e.Col != c.col || e.Type != c.typ || !strings.HasPrefix(e.Msg, c.msg) {
			t.Errorf("%s:\n got %v\nwant %d:%d: %s: %s...", c.xml, err, c.line, c.col, c.typ, c.msg)
		}
	}
}
