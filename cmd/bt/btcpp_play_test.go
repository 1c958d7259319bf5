package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// xmlPlayState is the part of the page's state the XML play tests read.
type xmlPlayState struct {
	Scopes  []string `json:"scopes"`
	Current int      `json:"current"`
	Ask     *struct {
		Name, Text string
	} `json:"ask"`
	Version struct {
		ID     int         `json:"id"`
		Label  string      `json:"label"`
		States string      `json:"states"`
		Memory [][2]string `json:"memory"`
	} `json:"version"`
	Timeline []struct {
		ID, Parent int
	} `json:"timeline"`
}

// xmlPost makes a request of the page's API that must succeed.
func (p *playRun) xmlPost(path, body string) xmlPlayState {
	p.t.Helper()
	code, b := p.do("POST", path, body)
	if code != http.StatusOK {
		p.t.Fatalf("POST %s %s: %d %s", path, body, code, b)
	}
	var st xmlPlayState
	if err := json.Unmarshal(b, &st); err != nil {
		p.t.Fatal(err)
	}
	return st
}

// TestPlayXMLSaveLoad: bt play on an XML file saves a version (its node
// states and every blackboard scope) and a later bt play of the same file
// loads it as a new version that ticks on as the saved one did; a version
// saved from another tree is refused with a message that says so, and
// adds no version.
func TestPlayXMLSaveLoad(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.xml")
	if err := os.WriteFile(file, []byte(xmlTree), 0o644); err != nil {
		t.Fatal(err)
	}
	// answer steps, answering IsOpen false and Walk with walk.
	answer := func(p *playRun, walk string) xmlPlayState {
		st := p.xmlPost("/api/step", "")
		for st.Ask != nil {
			v := walk
			if st.Ask.Name == "IsOpen" {
				v = "false"
			}
			st = p.xmlPost("/api/answer", fmt.Sprintf(`{"value":%q}`, v))
		}
		return st
	}
	p := startPlay(t, "-addr", "127.0.0.1:0", file)
	saved := answer(p, "running")
	code, data := p.do("GET", "/api/save", "")
	if code != http.StatusOK || len(data) == 0 {
		t.Fatalf("save: %d %q", code, data)
	}
	after := answer(p, "success")
	p.stop()

	// Another bt play of the file, another process in real use.
	q := startPlay(t, "-addr", "127.0.0.1:0", file)
	st := q.xmlPost("/api/load", string(data))
	if st.Version.ID != 1 || st.Version.Label != "loaded" || st.Version.States != saved.Version.States || fmt.Sprint(st.Version.Memory) != fmt.Sprint(saved.Version.Memory) {
		t.Fatalf("loaded: #%d %q %s %v; saved %s %v", st.Version.ID, st.Version.Label, st.Version.States, st.Version.Memory, saved.Version.States, saved.Version.Memory)
	}
	st = answer(q, "success")
	if st.Version.States != after.Version.States || fmt.Sprint(st.Version.Memory) != fmt.Sprint(after.Version.Memory) || fmt.Sprint(st.Version.Memory) == fmt.Sprint(saved.Version.Memory) {
		t.Errorf("the loaded version ticked to %s %v, the saved one to %s %v", st.Version.States, st.Version.Memory, after.Version.States, after.Version.Memory)
	}
	q.stop()

	// A save of another tree: the same file without its SubTree.
	other := filepath.Join(dir, "other.xml")
	if err := os.WriteFile(other, []byte(strings.Replace(xmlTree, `<SubTree ID="Sub" name="inner" y="{x}"/>`, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := startPlay(t, "-addr", "127.0.0.1:0", other)
	code, msg := r.do("POST", "/api/load", string(data))
	if code != http.StatusConflict || !strings.Contains(string(msg), "loading the saved state") || !strings.Contains(string(msg), "saved from a different tree") {
		t.Errorf("another tree's save: %d %s", code, msg)
	}
	code, msg = r.do("POST", "/api/load", "root { action [X] }")
	if code != http.StatusConflict || !strings.Contains(string(msg), "not a saved BehaviorTree.CPP tree") {
		t.Errorf("a text as a save: %d %s", code, msg)
	}
	if code, b := r.do("GET", "/api/state", ""); code != http.StatusOK || !strings.Contains(string(b), `"timelineLen":1`) {
		t.Errorf("the refused loads added versions: %d %s", code, b)
	}
}

// TestPlayXMLBlackboard: the page lists the blackboard scopes (a SubTree's
// by its instance path) and sets a typed entry of one, as a new version
// whose next tick reads it; an unknown scope or type, or trailing JSON, is
// refused.
func TestPlayXMLBlackboard(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bot.xml")
	src := `<root BTCPP_format="4" main_tree_to_execute="Main">
<BehaviorTree ID="Main"><Sequence><SubTree ID="Guard" name="guard" limit="{max}"/><Walk/></Sequence></BehaviorTree>
<BehaviorTree ID="Guard"><ScriptCondition code="limit > 3"/></BehaviorTree>
</root>`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startPlay(t, "-addr", "127.0.0.1:0", file)
	st := p.xmlPost("/api/blackboard", `{"scope":"","key":"max","type":"int","value":2}`)
	if fmt.Sprint(st.Scopes) != "[ guard]" || st.Version.Label != "blackboard: max = 2 (int)" || fmt.Sprint(st.Version.Memory) != "[[max 2 (int)]]" {
		t.Fatalf("scopes %q, version %q, memory %v", st.Scopes, st.Version.Label, st.Version.Memory)
	}
	// limit > 3 fails: no question for Walk.
	if st = p.xmlPost("/api/step", ""); st.Ask != nil || !strings.Contains(st.Version.Label, "FAILURE") {
		t.Fatalf("max = 2: ask %+v, version %q", st.Ask, st.Version.Label)
	}
	// Through the SubTree's scope: limit is remapped to the root's max.
	p.xmlPost("/api/undo", "")
	st = p.xmlPost("/api/blackboard", `{"scope":"guard","key":"limit","type":"int","value":5}`)
	if fmt.Sprint(st.Version.Memory) != "[[max 5 (int)]]" || st.Timeline[st.Version.ID].Parent != 1 {
		t.Errorf("after guard/limit = 5: memory %v, parent %d", st.Version.Memory, st.Timeline[st.Version.ID].Parent)
	}
	if st = p.xmlPost("/api/step", ""); st.Ask == nil || st.Ask.Name != "Walk" {
		t.Errorf("max = 5: ask %+v, want Walk", st.Ask)
	}
	p.xmlPost("/api/cancel", "")
	for _, c := range []struct {
		body string
		code int
		want string
	}{
		{`{"scope":"Guard","key":"limit","value":1}`, http.StatusConflict, `no blackboard scope "Guard": the scopes are "", "guard"`},
		{`{"key":"max","type":"short","value":1}`, http.StatusConflict, `unknown type "short" (int, int64, uint, double, bool, string)`},
		{`{"key":"max","type":"int","value":"two"}`, http.StatusConflict, `an int value is a number`},
		{`{"key":"max","value":1} x`, http.StatusBadRequest, "data after the request's JSON value"},
	} {
		if code, msg := p.do("POST", "/api/blackboard", c.body); code != c.code || !strings.Contains(string(msg), c.want) {
			t.Errorf("%s: %d %s, want %d %q", c.body, code, msg, c.code, c.want)
		}
	}
}
