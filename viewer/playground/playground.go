// Package playground serves the page of `bt play`: one local page to
// write a behavior tree and step it in the browser, with the user as the
// agent, undo, redo and branches.
//
// A [Server] is an [http.Handler] for one tree file. The page draws the
// tree with every node's state and the running frontier marked (collapse,
// search, zoom and fit keep big trees usable), and steps it: as a step
// reaches an action the page asks for its result (success, failure,
// running, or async, settled later), and for each condition its answer,
// unless a [Script] gives them. A condition is asked once per step: a
// guard checked again in the same step, or a condition ticked again,
// gets the answer given (unlike an agent, which Mistreevous calls each
// time); [Config.PerCall], or the page's switch, asks every call. Every version the steps make stays in a
// timeline: undo, redo, and stepping from an old version starts a branch
// and keeps the other. The page lists the events of each step and the
// memory of each version, saves and loads the current version (the
// library's saved state), and exports the line of the timeline as the
// static replay page of package viewer.
//
// The file is watched: when it changes on disk, or is edited in the
// page's text area and saved (atomically, through [Config.Write]), it is
// parsed again; a parse error is shown with its line and column, and a
// valid change restarts the timeline, which the page says. The old
// timeline is kept with its text (the last few): "Undo the edit" writes
// that text back, and the file holding it again (from the page or an
// editor) brings the timeline back.
//
// Stepping with the user as the agent. A stepped tree's step is a pure
// function of the version and of the agent's answers, so the server runs
// a step with an agent that answers from a queue: when the queue runs dry,
// the agent panics, the step returns an error and leaves the version as it
// was, and the page is asked for the next answer; the step then runs again
// from the same version with the longer queue. Trees of Elixir kinds run
// with Value, Succeed and Fail: the page answers Value() with success or
// failure. BehaviorTree.CPP trees (package btcpp, Definition.BTCPP) tick
// with tickOnce, their leaves stand-ins that the page answers (actions
// with success, failure or running; conditions with true or false); the
// memory lists their blackboard scopes, whose entries the page sets with
// a type (int, int64, uint, double, bool, string) or unsets, as an
// application does between two ticks, each edit a new version; a saved
// version holds every scope.
//
// Security. Every request must name the server's own host (no DNS
// rebinding: the Host header must be an IP literal, localhost, or the
// host of [Config.Addr], with its port); every request of the page's API
// must carry the per-server random token that the page embeds, and one
// with an Origin header must come from the server's own origin. The page
// loads nothing from the network and is served with a strict
// Content-Security-Policy (no inline script); names from tree files are
// set as text, never as markup. Request bodies are bounded.
package playground

import (
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/mdsl"
)

//go:embed page.html
var pageHTML string

//go:embed play.js
var pageJS []byte

//go:embed play.css
var pageCSS []byte

//go:embed favicon.svg
var favicon []byte

// Definition is a tree read from a file: exactly one of its fields is set.
type Definition struct {
	// Stepped is a tree of Calls for the stepped engine (MDSL, Mistreevous
	// JSON).
	Stepped bt.Node[bt.Call]
	// Elixir is a tree of Elixir kinds, run with Value, Succeed and Fail.
	Elixir bt.Node[string]
	// BTCPP is a BehaviorTree.CPP tree, ticked with tickOnce; the page
	// lists its blackboard scopes as the memory, and sets their entries.
	BTCPP *BTCPPTree
}

// Script gives the agent's answers for the names it lists, as `bt run`'s
// script does: per action name its results ("success", "failure",
// "running"), per condition name its answers, each used in turn, cycling;
// the count of a name is that of its calls on the timeline's line, from
// the start to the version stepped. Names it does not list are asked.
type Script struct {
	Actions    map[string][]string
	Conditions map[string][]bool
	// Steps gives, per step (by the step's number on its line, cycling),
	// the result or answer of the names each entry lists, for every call
	// of the step, before the lists. An answer from Steps does not count
	// as a call of the lists.
	Steps []ScriptStep
	// Delta is the seconds that pass at each step of a stepped tree,
	// cycling by the step's number on its line; nil: one second.
	Delta []float64
}

// ScriptStep is one step of a [Script]'s per-step form: per action name
// its result ("success", "failure", "running"), per condition name its
// answer.
type ScriptStep struct {
	Actions    map[string]string
	Conditions map[string]bool
}

// Config configures a [Server].
type Config struct {
	// File is the path of the tree file; Name is its name in the page and
	// in parse errors ("" for File).
	File, Name string
	// Addr is the address the server is reached at, host:port (after
	// listening: an actual port, not 0). Requests must name it, or an IP
	// literal or localhost with its port, in their Host header.
	Addr string
	// Parse reads a tree from a file's text (without byte-order mark).
	// Its errors are shown in the page as they are.
	Parse func(name string, src []byte) (Definition, error)
	// Read returns the file's text and information; nil reads a regular
	// file of at most MaxSource bytes.
	Read func(path string) ([]byte, fs.FileInfo, error)
	// Write replaces the file's text with data, atomically, unless the
	// file has changed since it was read (read is its information then);
	// on error the file must be left as it was. nil: the page cannot
	// save its edits.
	Write func(path string, data []byte, read fs.FileInfo) error
	// Script, if not nil, answers for the names it lists.
	Script *Script
	// PerCall asks a condition at each of its calls, as Mistreevous calls
	// the agent. By default (false) a condition, that is a call as the tree
	// writes it, is asked once per step, and its later calls in the same
	// step (a guard checked again, a condition under a reactive node) get
	// the same answer. The page can switch it; a step keeps the setting it
	// started with.
	PerCall bool
	// Seed seeds the trees' random draws.
	Seed uint64
	// Poll is the interval at which the file is checked for changes; 0
	// means 500ms, a negative value not at all.
	Poll time.Duration
	// Token is the token the page's requests must carry; "" draws 32
	// random bytes (crypto/rand).
	Token string
	// MaxSource bounds the text the page may save; 0 means
	// mdsl.MaxBytes.
	MaxSource int64
	// MaxVersions bounds the number of versions kept in the timeline; 0
	// means 100,000. A step past it is refused.
	MaxVersions int
	// MaxPolls bounds the long polls (GET /api/state?after=N) waiting
	// at once; 0 means 16. One more gets a 503 with Retry-After. A page
	// has one waiting, so this leaves room for a few tabs.
	MaxPolls int
}

// writeTimeout bounds the time an API response takes to write: a
// client that does not read it loses its connection then.
const writeTimeout = 30 * time.Second

// maxBody bounds the body of a request other than a save of the text
// or a load of a saved state (JSON requests: an answer, a memory value).
const maxBody = 1 << 20

// maxLoad bounds a saved state loaded (/api/load): its decoding takes
// about a second and at most 160 bytes per byte (package memory's bound).
const maxLoad = 2 << 20

// Server is the playground of one tree file. Make one with [New], serve
// it as an http.Handler, and Close it when done.
type Server struct {
	cfg   Config
	token string
	mux   *http.ServeMux

	mu      sync.Mutex
	change  int           // counts the changes the page must see
	changed chan struct{} // closed at the next change
	closed  bool
	done    chan struct{}
	loading chan struct{} // holds a token while a saved state is loaded
	polls   chan struct{} // holds a token per long poll waiting (MaxPolls)
	wg      sync.WaitGroup

	// The file and its tree.
	src        []byte      // the text last read
	info       fs.FileInfo // the file's information when read
	srcRev     int         // counts the texts read
	parseErr   error       // the last text's error, nil if it parsed
	fileErr    error       // the last error reading the file
	treeRev    int         // counts the definitions
	eng        engine      // the current definition's engine, nil before a first valid parse
	tl         *timeline
	pend       *pending    // the step waiting for an answer, or nil
	perCall    bool        // ask conditions at each call (Config.PerCall, switched by the page)
	engSrc     []byte      // the text of eng's definition
	kept       []*keptTree // the definitions replaced by valid changes, the last the most recent
	restartMsg string      // what the last load did to the timeline, if anything
	notice     string      // a message for the page ("saved", an error), shown with the next change
	shown      string      // the message of the last change
}

// New returns a Server for cfg.File, which it reads and parses (a parse
// error is not an error of New: the page shows it, and the file can be
// fixed). It returns an error for a bad Config or an unreadable file.
// Unless cfg.Poll is negative, it watches the file until Close.
func New(cfg Config) (*Server, error) {
	if cfg.File == "" {
		return nil, errors.New("playground.New: no file")
	}
	if cfg.Parse == nil {
		return nil, errors.New("playground.New: no Parse function")
	}
	if _, _, err := net.SplitHostPort(cfg.Addr); err != nil {
		return nil, fmt.Errorf("playground.New: address %q: %w", cfg.Addr, err)
	}
	if cfg.Name == "" {
		cfg.Name = cfg.File
	}
	if cfg.MaxSource <= 0 {
		cfg.MaxSource = mdsl.MaxBytes
	}
	if cfg.MaxVersions <= 0 {
		cfg.MaxVersions = 100_000
	}
	if cfg.Read == nil {
		cfg.Read = readFile(cfg.MaxSource)
	}
	if cfg.Poll == 0 {
		cfg.Poll = 500 * time.Millisecond
	}
	if cfg.MaxPolls <= 0 {
		cfg.MaxPolls = 16
	}
	if err := cfg.Script.check(); err != nil {
		return nil, fmt.Errorf("playground.New: %w", err)
	}
	s := &Server{cfg: cfg, perCall: cfg.PerCall, token: cfg.Token, changed: make(chan struct{}), done: make(chan struct{}), loading: make(chan struct{}, 1), polls: make(chan struct{}, cfg.MaxPolls)}
	if s.token == "" {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return nil, fmt.Errorf("playground.New: drawing a token: %w", err)
		}
		s.token = hex.EncodeToString(b[:])
	}
	src, info, err := cfg.Read(cfg.File)
	if err != nil {
		return nil, fmt.Errorf("playground.New: %w", err)
	}
	s.load(src, info)
	s.routes()
	if cfg.Poll > 0 {
		s.wg.Add(1)
		go s.watch()
	}
	return s, nil
}

// Token returns the token the page's requests carry.
func (s *Server) Token() string { return s.token }

// Close stops watching the file and ends the page's waiting requests.
func (s *Server) Close() error {
	s.mu.Lock()
	if !s.closed {
		s.closed = true
		close(s.done)
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// bump records a change the page must see; s.mu is held.
func (s *Server) bump() {
	s.change++
	s.shown, s.notice = s.notice, ""
	close(s.changed)
	s.changed = make(chan struct{})
}

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.page)
	m.HandleFunc("GET /play.js", static("text/javascript; charset=utf-8", pageJS))
	m.HandleFunc("GET /play.css", static("text/css; charset=utf-8", pageCSS))
	m.HandleFunc("GET /favicon.svg", static("image/svg+xml", favicon))
	m.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusNoContent) })
	m.HandleFunc("GET /api/state", s.api(s.getState))
	m.HandleFunc("GET /api/save", s.api(s.save))
	m.HandleFunc("GET /api/export", s.api(s.export))
	for path, h := range map[string]func(w http.ResponseWriter, r *http.Request){
		"step": s.step, "answer": s.answer, "cancel": s.cancel, "goto": s.gotoVersion,
		"undo": s.undo, "redo": s.redo, "settle": s.settle, "source": s.saveSource,
		"load": s.loadState, "memory": s.setMemory, "blackboard": s.setBlackboard, "restart": s.restart,
		"percall": s.setPerCall, "undoedit": s.undoEdit,
	} {
		m.HandleFunc("POST /api/"+path, s.api(h))
	}
	s.mux = m
}

// csp is the page's Content-Security-Policy: its own script, style and
// requests, nothing else.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// ServeHTTP serves the page, its script and style, and its API. It
// refuses a request whose Host is not the server's own (421).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Security-Policy", csp)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	if !s.ownHost(r.Host) {
		http.Error(w, "playground: this server answers only requests to its own address", http.StatusMisdirectedRequest)
		return
	}
	s.mux.ServeHTTP(w, r)
}

// ownHost reports whether host (a Host header) names this server: its
// port (80 when host has none, as browsers send it), and an IP literal,
// localhost, or the host of the server's address. A name other than those could be a DNS rebinding attacker's.
func (s *Server) ownHost(host string) bool {
	h, port, err := net.SplitHostPort(host)
	if err != nil {
		// A browser leaves the default port out: "127.0.0.1", "[::1]".
		switch {
		case len(host) > 2 && host[0] == '[' && host[len(host)-1] == ']':
			h = host[1 : len(host)-1]
		case host != "" && !strings.Contains(host, ":"):
			h = host
		default:
			return false
		}
		port = "80"
	}
	ah, aport, _ := net.SplitHostPort(s.cfg.Addr)
	if port != aport {
		return false
	}
	if net.ParseIP(h) != nil || strings.EqualFold(h, "localhost") {
		return true
	}
	return ah != "" && strings.EqualFold(h, ah)
}

func static(ctype string, body []byte) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.Write(body)
	}
}

// page serves the page, with the token in a meta element.
func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	out := strings.NewReplacer(
		"{{TITLE}}", html.EscapeString(s.cfg.Name),
		"{{TOKEN}}", html.EscapeString(s.token),
	).Replace(pageHTML)
	io.WriteString(w, out)
}

// api wraps a handler of the page's API: it checks the token and, for a
// request with an Origin header, that it is the server's own origin.
func (s *Server) api(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		tok := r.Header.Get("X-BT-Token")
		if subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
			http.Error(w, "playground: missing or wrong token", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && o != "http://"+r.Host {
			http.Error(w, "playground: cross-origin request refused", http.StatusForbidden)
			return
		}
		if r.Method == http.MethodPost && r.URL.Path != "/api/source" && r.URL.Path != "/api/load" {
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		// The handlers reply under the server's lock: they write to a
		// buffer, sent once they return, so that a client that does not
		// read holds no lock, and its response at most writeTimeout.
		b := &buffered{w: w, code: http.StatusOK}
		h(b, r)
		http.NewResponseController(w).SetWriteDeadline(time.Now().Add(writeTimeout))
		w.WriteHeader(b.code)
		w.Write(b.body)
	}
}

// buffered is a response held until its handler returns.
type buffered struct {
	w    http.ResponseWriter
	code int
	body []byte
}

func (b *buffered) Header() http.Header         { return b.w.Header() }
func (b *buffered) WriteHeader(code int)        { b.code = code }
func (b *buffered) Write(p []byte) (int, error) { b.body = append(b.body, p...); return len(p), nil }

// decode reads a JSON request body, one value and white space, into v.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	dec := json.NewDecoder(r.Body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			http.Error(w, fmt.Sprintf("playground: request body longer than %d bytes", mb.Limit), http.StatusRequestEntityTooLarge)
			return false
		}
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			err = fmt.Errorf("%w, at byte %d", err, se.Offset)
		case errors.As(err, &te):
			err = fmt.Errorf("%w, at byte %d", err, te.Offset)
		}
		http.Error(w, "playground: bad request body: "+err.Error(), http.StatusBadRequest)
		return false
	}
	// One value, as bt run -script reads a script: only white space after it.
	off := dec.InputOffset()
	rest := io.MultiReader(dec.Buffered(), r.Body)
	var buf [512]byte
	for {
		n, err := rest.Read(buf[:])
		for _, c := range buf[:n] {
			if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				http.Error(w, fmt.Sprintf("playground: bad request body: data after the request's JSON value, at byte %d", off+1), http.StatusBadRequest)
				return false
			}
			off++
		}
		if err != nil {
			var mb *http.MaxBytesError
			if errors.As(err, &mb) {
				http.Error(w, fmt.Sprintf("playground: request body longer than %d bytes", mb.Limit), http.StatusRequestEntityTooLarge)
				return false
			}
			return true // io.EOF, or a broken connection the reply will meet
		}
	}
}

// reply writes the state after a change, or the error (409: the request
// does not fit the state: no pending question, no such version...). s.mu
// is held.
func (s *Server) reply(w http.ResponseWriter, r *http.Request, err error) {
	if err != nil {
		http.Error(w, "playground: "+err.Error(), http.StatusConflict)
		return
	}
	writeState(w, s.state(has(r)))
}

func writeState(w http.ResponseWriter, st stateJSON) {
	b, err := json.Marshal(st)
	if err != nil {
		http.Error(w, "playground: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

// getState serves the state. With ?after=N it waits (up to 25s, or until
// the request ends) for a change after the N-th.
func (s *Server) getState(w http.ResponseWriter, r *http.Request) {
	var after int
	if a := r.URL.Query().Get("after"); a != "" {
		var err error
		if after, err = strconv.Atoi(a); err != nil {
			http.Error(w, "playground: bad after", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		ch, now := s.changed, s.change
		s.mu.Unlock()
		if now <= after {
			select {
			case s.polls <- struct{}{}:
				defer func() { <-s.polls }()
			default:
				w.Header().Set("Retry-After", "10")
				http.Error(w, fmt.Sprintf("playground: %d requests are waiting for a change, the most this server keeps (Config.MaxPolls): close a page, or try again later", cap(s.polls)), http.StatusServiceUnavailable)
				return
			}
			t := time.NewTimer(25 * time.Second)
			select {
			case <-ch:
			case <-t.C:
			case <-r.Context().Done():
			case <-s.done:
			}
			t.Stop()
		}
	}
	s.getStateNow(w, r)
}

func (s *Server) getStateNow(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	st := s.state(has(r))
	s.mu.Unlock()
	writeState(w, st)
}
