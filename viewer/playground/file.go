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

// load takes a text read from the file: it parses it and, if it is a
// valid tree, restarts the timeline with it. s.mu is held (or s is new).
func (s *Server) load(src []byte, info fs.FileInfo) {
	if s.src != nil && bytes.Equal(src, s.src) && s.parseErr == nil && s.fileErr == nil {
		s.info = info // the same text: keep the timeline
		return
	}
	s.src, s.info, s.fileErr = src, info, nil
	s.srcRev++
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
	s.eng = eng
	s.treeRev++
	s.tl = newTimeline(eng.start())
	s.pend = nil
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
