package playground

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/zipbt/behaviortree/btcpp"
	"github.com/zipbt/behaviortree/mdsl"
)

// readFile returns the default Config.Read: a regular file of at most
// limit bytes.
func readFile(limit int64) func(string) ([]byte, fs.FileInfo, error) {
	return func(path string) ([]byte, fs.FileInfo, error) {
		// Stat first: opening a named pipe would block until a writer
		// comes (in New, or in the watcher with the server's lock held).
		if st, err := os.Stat(path); err != nil {
			return nil, nil, err
		} else if !st.Mode().IsRegular() {
			return nil, nil, fmt.Errorf("%s: not a regular file", path)
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		st, err := f.Stat()
		if err != nil {
			return nil, nil, err
		}
		if !st.Mode().IsRegular() {
			return nil, nil, fmt.Errorf("%s: not a regular file", path)
		}
		b, err := io.ReadAll(io.LimitReader(f, limit+1))
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if int64(len(b)) > limit {
			return nil, nil, fmt.Errorf("%s: longer than %d bytes", path, limit)
		}
		return b, st, nil
	}
}

// keptTree is a definition that a valid change of the file replaced:
// its text, its engine and its timeline, which come back when the file
// holds that text again (the edit undone, in the page or in an editor).
type keptTree struct {
	src []byte
	eng engine
	tl  *timeline
}

// maxKept bounds the definitions kept.
const maxKept = 4

// load takes a text read from the file: it parses it and, if it is a
// valid tree, restarts the timeline with it, keeping the old one (see
// keptTree), or brings back the timeline kept with that text. s.mu is
// held (or s is new).
func (s *Server) load(src []byte, info fs.FileInfo) {
	if s.src != nil && bytes.Equal(src, s.src) && s.parseErr == nil && s.fileErr == nil {
		s.info = info // the same text: keep the timeline
		return
	}
	s.src, s.info, s.fileErr = src, info, nil
	s.srcRev++
	s.restartMsg = ""
	defer s.bump()
	def, err := s.cfg.Parse(s.cfg.Name, bytes.TrimPrefix(src, []byte("\ufeff")))
	var eng engine
	if err == nil {
		eng, err = newEngine(def, s.cfg.Seed)
	}
	if err != nil {
		s.parseErr = err
		return
	}
	s.parseErr = nil
	if s.eng != nil && bytes.Equal(src, s.engSrc) {
		return // an error fixed back to the text of the tree: keep the timeline
	}
	old := s.eng != nil
	if old {
		s.kept = append(s.kept, &keptTree{src: s.engSrc, eng: s.eng, tl: s.tl})
	}
	s.engSrc = src
	s.treeRev++
	s.pend = nil
	for i := len(s.kept) - 1; i >= 0; i-- {
		if k := s.kept[i]; bytes.Equal(k.src, src) {
			s.kept = append(s.kept[:i], s.kept[i+1:]...)
			s.eng, s.tl = k.eng, k.tl
			s.restartMsg = fmt.Sprintf("the file holds an earlier text again: its timeline is back (%s)", versions(len(k.tl.nodes)))
			s.notice = s.restartMsg
			s.trimKept()
			return
		}
	}
	s.eng = eng
	s.tl = newTimeline(eng.start())
	if old {
		prev := s.kept[len(s.kept)-1].tl
		s.restartMsg = "the tree changed: the timeline restarted"
		if n := len(prev.nodes); n > 1 {
			s.restartMsg += fmt.Sprintf("; the old one (%s) is kept: \"Undo the edit\" brings back the old text and it", versions(n))
		}
		s.notice = s.restartMsg
	}
	s.trimKept()
}

// trimKept drops the oldest kept definitions beyond maxKept.
func (s *Server) trimKept() {
	if n := len(s.kept) - maxKept; n > 0 {
		s.kept = append([]*keptTree(nil), s.kept[n:]...)
	}
}

// versions is "1 version" or "N versions".
func versions(n int) string {
	if n == 1 {
		return "1 version"
	}
	return fmt.Sprintf("%d versions", n)
}

// undoEdit writes the text of the last definition kept back to the file
// (through cfg.Write) and loads it, which brings back its timeline.
func (s *Server) undoEdit(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := func() error {
		if s.cfg.Write == nil {
			return errors.New("this playground does not write the file (no writer): put the old text back in your editor, and its timeline comes back")
		}
		if len(s.kept) == 0 {
			return errors.New("no edit to undo: the timeline is that of the file's first tree")
		}
		k := s.kept[len(s.kept)-1]
		if err := s.cfg.Write(s.cfg.File, k.src, s.info); err != nil {
			return fmt.Errorf("writing the old text to %s: %w", s.cfg.Name, err)
		}
		s.reread()
		return nil
	}()
	if err != nil {
		s.notice = err.Error()
	} else {
		s.notice = "the edit undone: " + s.restartMsg
	}
	s.bump()
	s.reply(w, r, err)
}

// watch checks the file every cfg.Poll until Close.
func (s *Server) watch() {
	defer s.wg.Done()
	t := time.NewTicker(s.cfg.Poll)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-t.C:
			s.checkFile()
		}
	}
}

// checkFile reads the file again if its size, time of modification or
// identity changed since it was read (a change that keeps all three,
// within the file system's clock's resolution, waits for the next one).
func (s *Server) checkFile() {
	st, err := os.Stat(s.cfg.File)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		msg := "the file cannot be read: " + err.Error()
		if s.fileErr == nil || s.fileErr.Error() != msg {
			s.fileErr = errors.New(msg)
			s.bump()
		}
		return
	}
	if s.fileErr == nil && s.info != nil && os.SameFile(st, s.info) && st.Size() == s.info.Size() && st.ModTime().Equal(s.info.ModTime()) {
		return
	}
	s.reread()
}

// reread reads and loads the file; s.mu is held.
func (s *Server) reread() {
	src, info, err := s.cfg.Read(s.cfg.File)
	if err != nil {
		msg := "the file cannot be read: " + err.Error()
		if s.fileErr == nil || s.fileErr.Error() != msg {
			s.fileErr = errors.New(msg)
			s.bump()
		}
		return
	}
	s.load(src, info)
}

// saveSource writes the request's body, the page's text, to the file
// (through cfg.Write, atomically) and loads it. ?rev= is the revision of
// the text the page edited: if the file changed since, nothing is written.
func (s *Server) saveSource(w http.ResponseWriter, r *http.Request) {
	rev, err := strconv.Atoi(r.URL.Query().Get("rev"))
	if err != nil {
		http.Error(w, "playground: bad rev", http.StatusBadRequest)
		return
	}
	text, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxSource))
	if err != nil {
		http.Error(w, fmt.Sprintf("playground: the text is longer than %d bytes", s.cfg.MaxSource), http.StatusRequestEntityTooLarge)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err = func() error {
		if s.cfg.Write == nil {
			return errors.New("this playground does not save edits (no writer)")
		}
		if rev != s.srcRev {
			return errors.New("the file changed on disk since the page read it: revert to its text, then edit again")
		}
		if err := s.cfg.Write(s.cfg.File, text, s.info); err != nil {
			return fmt.Errorf("saving %s: %w", s.cfg.Name, err)
		}
		s.reread()
		return nil
	}()
	if err != nil {
		s.notice = err.Error()
	} else if s.parseErr != nil {
		s.notice = "saved; the text has errors"
	} else if s.restartMsg != "" {
		s.notice = "saved; " + s.restartMsg
	} else {
		s.notice = "saved"
	}
	s.bump()
	s.reply(w, r, err)
}

// errJSON is a parse error: its message (with the caret text of bt
// check) and, for an MDSL error, its line and column.
type errJSON struct {
	Msg  string `json:"msg"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
}

func parseError(err error) *errJSON {
	if err == nil {
		return nil
	}
	e := &errJSON{Msg: err.Error()}
	var me *mdsl.Error
	var be *btcpp.Error
	switch {
	case errors.As(err, &me):
		e.Line, e.Col = me.Line, me.Col
	case errors.As(err, &be) && be.Line > 0:
		e.Line, e.Col = be.Line, be.Col
	}
	return e
}
