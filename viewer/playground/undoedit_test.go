package playground

import (
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestUndoEdit checks that a valid edit keeps the old timeline: the page
// says that the timeline restarted, "Undo the edit" writes the old text
// back and brings its timeline back (the edited tree's timeline kept in
// turn), and the file holding a kept text again, from an editor, does
// the same.
func TestUndoEdit(t *testing.T) {
	c := newClient(t, sample, Config{Write: atomicWrite})
	c.answerAll(nil, "true", "success", "running")
	c.answerAll(nil, "success")
	before := c.state()
	if before.UndoEdit {
		t.Fatal("an edit to undo before any edit")
	}
	edited := strings.Replace(sample, "action [Fire]", "action [Fire]\n            action [Reload]", 1)
	st := c.post("/api/source?rev=1", edited)
	if len(st.Timeline) != 1 || !st.UndoEdit || !strings.Contains(st.Notice, "timeline restarted") || !strings.Contains(st.Notice, versions(len(before.Timeline))) {
		t.Fatalf("after a valid edit: %d versions, undoEdit %v, notice %q", len(st.Timeline), st.UndoEdit, st.Notice)
	}
	c.answerAll(nil, "true", "success", "running")
	editedLen := len(c.state().Timeline)

	st = c.post("/api/undoedit", "")
	if got, _ := os.ReadFile(c.s.cfg.File); string(got) != sample {
		t.Fatalf("undo the edit: the file holds %q", got)
	}
	if st.Source != sample || len(st.Timeline) != len(before.Timeline) || st.Current != before.Current || st.TimelineRev != before.TimelineRev {
		t.Fatalf("undo the edit: %d versions (want %d), current %d (want %d), timeline %d (want %d)", len(st.Timeline), len(before.Timeline), st.Current, before.Current, st.TimelineRev, before.TimelineRev)
	}
	for i, v := range st.Timeline {
		if v != before.Timeline[i] {
			t.Errorf("version %d: %+v, want %+v", i, v, before.Timeline[i])
		}
	}
	if !strings.Contains(st.Notice, "timeline is back") || !st.UndoEdit {
		t.Errorf("undo the edit: notice %q, undoEdit %v (the edited tree's timeline is kept)", st.Notice, st.UndoEdit)
	}

	// An editor writes the edited text again: its timeline comes back.
	if err := os.WriteFile(c.s.cfg.File, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	c.s.checkFile()
	if st = c.state(); st.Source != edited || len(st.Timeline) != editedLen || !strings.Contains(st.Notice, "timeline is back") {
		t.Errorf("the edited text again: %d versions, want %d; notice %q", len(st.Timeline), editedLen, st.Notice)
	}

	// Without a writer, the page cannot undo the edit.
	c.s.cfg.Write = nil
	if msg := c.refused("POST", "/api/undoedit", "", http.StatusConflict, nil); !strings.Contains(msg, "no writer") {
		t.Errorf("undo without a writer: %s", msg)
	}
	if c.state().UndoEdit {
		t.Error("undoEdit offered without a writer")
	}

	// Only the last few trees are kept.
	c.s.cfg.Write = atomicWrite
	for i := range maxKept + 2 {
		c.post("/api/source?rev="+strconv.Itoa(c.state().SrcRev), strings.Replace(sample, "Fire", "Fire"+strconv.Itoa(i), 1))
	}
	if n := len(c.s.kept); n != maxKept {
		t.Errorf("%d trees kept, want at most %d", n, maxKept)
	}
}
