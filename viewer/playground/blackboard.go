package playground

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/btcpp"
)

// The page's edits of a BehaviorTree.CPP blackboard (/api/blackboard):
// an entry of one scope set to a typed value, or removed, as an
// application's blackboard->set and unset between two ticks
// (btcpp.Tree.SetEntry, UnsetEntry), each edit a new version.

// blackboardTypes are the types the page may set an entry with.
const blackboardTypes = "int, int64, uint, double, bool, string"

// bbRequest is a request of /api/blackboard: the scope (a SubTree
// instance's path as the memory lists it, "" for the main tree's), the
// key, the type ("" takes it from the JSON value: a number written
// without '.', 'e' or 'E' is an int, another number a double, as the
// initial entries of a tree), and the value (null: unset the scope's own
// entry).
type bbRequest struct {
	Scope string          `json:"scope"`
	Key   string          `json:"key"`
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
}

// setBlackboard makes a version with an entry of a blackboard scope of
// the current version set, or unset.
func (s *Server) setBlackboard(w http.ResponseWriter, r *http.Request) {
	var req bbRequest
	if !decode(w, r, &req) {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	err := func() error {
		if err := s.ready(); err != nil {
			return err
		}
		e, ok := s.eng.(*btcppEngine)
		if !ok {
			return errors.New("only a BehaviorTree.CPP tree has blackboard scopes: set the memory instead")
		}
		if len(s.tl.nodes) >= s.cfg.MaxVersions {
			return fmt.Errorf("the timeline holds %d versions, the most it keeps: restart it", len(s.tl.nodes))
		}
		cur := s.tl.nodes[s.tl.cur]
		v, label, err := e.setEntry(cur.v.(*btcpp.Tree), req)
		if err != nil {
			return err
		}
		s.pend = nil
		s.tl.add(cur.id, &vnode{v: v, label: shorten(label, maxLabel), signal: bt.Running})
		return nil
	}()
	s.bump()
	s.reply(w, r, err)
}

// scope returns the index of the scope at path.
func (e *btcppEngine) scope(path string) (int, error) {
	found := -1
	var paths []string
	for i, sc := range e.first.Scopes() {
		paths = append(paths, strconv.Quote(sc.Path))
		if sc.Path != path {
			continue
		}
		if found >= 0 {
			return 0, fmt.Errorf("blackboard scope %q: two SubTrees of the tree have this path (name them apart)", path)
		}
		found = i
	}
	if found < 0 {
		return 0, fmt.Errorf("no blackboard scope %q: the scopes are %s", path, strings.Join(paths, ", "))
	}
	return found, nil
}

// setEntry returns t with the entry of req set (or unset), and the label
// of the version.
func (e *btcppEngine) setEntry(t *btcpp.Tree, req bbRequest) (*btcpp.Tree, string, error) {
	sc, err := e.scope(req.Scope)
	if err != nil {
		return nil, "", err
	}
	if strings.TrimLeft(req.Key, "@") == "" {
		return nil, "", errors.New("a blackboard key must not be empty")
	}
	where := req.Key
	if req.Scope != "" && !strings.HasPrefix(req.Key, "@") {
		where = req.Scope + "/" + req.Key
	}
	raw := bytes.TrimSpace(req.Value)
	if len(raw) == 0 {
		return nil, "", fmt.Errorf("blackboard %s: the request has no value (null unsets the entry)", where)
	}
	if string(raw) == "null" {
		if req.Type != "" {
			return nil, "", fmt.Errorf("blackboard %s: null unsets the entry, and takes no type (got %q)", where, req.Type)
		}
		nt, ok, err := t.UnsetEntry(sc, req.Key)
		if err != nil {
			return nil, "", fmt.Errorf("blackboard %s: %w", where, err)
		}
		if !ok {
			return nil, "", fmt.Errorf("blackboard %s: the scope stores no entry %q to unset (an entry its SubTree remaps lives in the parent's scope)", where, req.Key)
		}
		return nt, "blackboard: " + where + " unset", nil
	}
	v, err := bbValue(req.Type, raw)
	if err != nil {
		return nil, "", fmt.Errorf("blackboard %s: %w", where, err)
	}
	nt, err := t.SetEntry(sc, req.Key, v)
	if err != nil {
		return nil, "", fmt.Errorf("blackboard %s: %w", where, err)
	}
	shown := v.String()
	if v.IsString() {
		shown = strconv.Quote(shown)
	}
	return nt, fmt.Sprintf("blackboard: %s = %s (%s)", where, shown, v.Type()), nil
}

// bbValue returns the value of type typ that the JSON value raw gives: a
// number for the number types, a boolean for bool, a string for string;
// for typ "", the JSON value's own type.
func bbValue(typ string, raw []byte) (btcpp.Value, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var x any
	if err := dec.Decode(&x); err != nil {
		return btcpp.Value{}, fmt.Errorf("value: %w", err)
	}
	if typ == "" {
		switch v := x.(type) {
		case json.Number:
			typ = "double"
			if !strings.ContainsAny(string(v), ".eE") {
				typ = "int"
			}
		case bool:
			typ = "bool"
		case string:
			typ = "string"
		default:
			return btcpp.Value{}, errors.New("a value is a number, a boolean, a string, or null to unset the entry")
		}
	}
	want := map[string]string{"int": "a number", "int64": "a number", "uint": "a number", "double": "a number", "bool": "a boolean", "string": "a string"}[typ]
	if want == "" {
		return btcpp.Value{}, fmt.Errorf("unknown type %q (%s)", typ, blackboardTypes)
	}
	bad := fmt.Errorf("%s %s value is %s, not %s", article(typ), typ, want, raw)
	switch typ {
	case "string":
		if s, ok := x.(string); ok {
			return btcpp.StringValue(s), nil
		}
	case "bool":
		if b, ok := x.(bool); ok {
			return btcpp.BoolValue(b), nil
		}
	case "double":
		if n, ok := x.(json.Number); ok {
			f, err := strconv.ParseFloat(string(n), 64)
			if err != nil {
				return btcpp.Value{}, fmt.Errorf("a double value: %s is out of range", n)
			}
			return btcpp.DoubleValue(f), nil
		}
	default:
		if n, ok := x.(json.Number); ok {
			lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
			switch typ {
			case "int":
				lo, hi = math.MinInt32, math.MaxInt32
			case "uint":
				lo, hi = 0, math.MaxUint32
			}
			i, err := strconv.ParseInt(string(n), 10, 64)
			if err != nil || i < lo || i > hi {
				return btcpp.Value{}, fmt.Errorf("%s %s value is an integer from %d to %d, not %s", article(typ), typ, lo, hi, n)
			}
			return btcpp.IntValue(i, typ), nil
		}
	}
	return btcpp.Value{}, bad
}

// article is "an" before int and int64, else "a".
func article(typ string) string {
	if strings.HasPrefix(typ, "int") {
		return "an"
	}
	return "a"
}
