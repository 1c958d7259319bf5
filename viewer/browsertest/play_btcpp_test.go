package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/zipbt/behaviortree/btcpp"
	"github.com/zipbt/behaviortree/viewer/playground"
)

// btcppPlayTree is a BehaviorTree.CPP tree whose SubTree has a scope of
// its own.
const btcppPlayTree = `<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main">
  <Sequence><Walk/><SubTree ID="Sub" name="inner"/></Sequence>
</BehaviorTree>
<BehaviorTree ID="Sub"><ScriptCondition code="y > 3"/></BehaviorTree>
</root>`

// parseXML reads a BehaviorTree.CPP text for the page, as bt play does
// (without includes).
func parseXML(_ string, src []byte) (playground.Definition, error) {
	text := string(src)
	models := btcpp.NewFactory().LeafModels(text, nil, "")
	return playground.Definition{BTCPP: &playground.BTCPPTree{Leaves: models, Build: func(f *btcpp.Factory, opts ...btcpp.Option) (*btcpp.Tree, error) {
		doc, err := f.Parse(text)
		if err != nil {
			return nil, err
		}
		return doc.Build("", opts...)
	}}}, nil
}

// memoryText is the page's memory list, "key: value" per entry.
const memoryText = `Array.prototype.map.call(document.querySelectorAll("#memory li"), function (e) { return e.textContent; }).join("; ")`

// TestPlaygroundBTCPPBlackboard sets blackboard entries of a
// BehaviorTree.CPP tree from the page: the scope and type selectors show
// for it (the main tree's scope and the SubTree's), a set makes a version
// that the memory lists with its type and the next tick reads, a value
// typed as text for the type string is a string, null unsets, and a value
// that does not fit its type is an error shown as a notice.
func TestPlaygroundBTCPPBlackboard(t *testing.T) {
	b := startBrowser(t)
	url, _ := startPlaygroundWith(t, "bot.xml", btcppPlayTree, parseXML)
	if err := chromedp.Run(b.ctx, chromedp.EmulateViewport(1500, 900), chromedp.Navigate(url+"/"), chromedp.WaitReady(`body[data-ready="1"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var form struct {
		Scopes []string
		Texts  []string
		Hidden bool
	}
	b.eval(t, `({scopes: Array.prototype.map.call(document.querySelectorAll("#memscope option"), function (o) { return o.value; }),
		texts: Array.prototype.map.call(document.querySelectorAll("#memscope option"), function (o) { return o.textContent; }),
		hidden: document.getElementById("memscope").classList.contains("hidden") || document.getElementById("memtype").classList.contains("hidden")})`, &form)
	if fmt.Sprint(form.Scopes) != "[ inner]" || fmt.Sprint(form.Texts) != "[main tree inner]" || form.Hidden {
		t.Fatalf("the blackboard form: %+v", form)
	}
	set := func(scope, key, typ, value string) {
		t.Helper()
		b.eval(t, fmt.Sprintf(`document.getElementById("memscope").value = %q; document.getElementById("memkey").value = %q; document.getElementById("memtype").value = %q; document.getElementById("memval").value = %q`, scope, key, typ, value), nil)
		b.click(t, "memset")
	}
	set("inner", "y", "int", "7")
	b.atVersion(t, 1)
	b.waitFor(t, "inner/y in the memory", memoryText+` === "inner/y: 7 (int)"`)
	// Text for the type string, unquoted, is a string.
	set("", "name", "string", "41")
	b.atVersion(t, 2)
	b.waitFor(t, "name in the memory", memoryText+` === "inner/y: 7 (int); name: \"41\" (string)"`)
	// The tick reads y: Walk, then the SubTree's condition y > 3 holds.
	b.answerStep(t, 3, []string{"Walk"}, []string{"success"})
	b.waitFor(t, "the tick's result", `document.getElementById("vlabel").textContent.indexOf("SUCCESS") >= 0`)
	b.screenshot(t, "play-btcpp-blackboard.png")
	set("", "name", "", "null")
	b.atVersion(t, 4)
	b.waitFor(t, "name unset", memoryText+` === "inner/y: 7 (int)"`)
	if errs := b.consoleErrors(); len(errs) > 0 {
		t.Errorf("console errors: %q", errs)
	}
	// A refused set: the browser logs the 409 of the request, nothing else.
	set("inner", "y", "int", "seven")
	b.waitFor(t, "the error", `document.getElementById("notice").classList.contains("err") && document.getElementById("notice").textContent.indexOf("an int value is a number") >= 0`)
	b.atVersion(t, 4)
	for _, e := range b.consoleErrors() {
		if !strings.Contains(e, "409") || !strings.Contains(e, "/api/blackboard") {
			t.Errorf("console error: %q", e)
		}
	}
}

// TestPlaygroundMemoryFormMDSL: for a tree of another format the page
// shows no blackboard scope or type.
func TestPlaygroundMemoryFormMDSL(t *testing.T) {
	b := startBrowser(t)
	url, _ := startPlayground(t, "bot.mdsl", playTree)
	if err := chromedp.Run(b.ctx, chromedp.Navigate(url+"/"), chromedp.WaitReady(`body[data-ready="1"]`, chromedp.ByQuery)); err != nil {
		t.Fatal(err)
	}
	var hidden bool
	b.eval(t, `document.getElementById("memscope").classList.contains("hidden") && document.getElementById("memtype").classList.contains("hidden")`, &hidden)
	if !hidden {
		t.Error("the blackboard scope and type show for an MDSL tree")
	}
}
