package proptest_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/memory"
)

// point is a memory value that saves through encoding.BinaryMarshaler,
// under pointKey.
type point struct{ X, Y int16 }

func (p point) MarshalBinary() ([]byte, error) {
	return binary.LittleEndian.AppendUint16(binary.LittleEndian.AppendUint16(nil, uint16(p.X)), uint16(p.Y)), nil
}

func (p *point) UnmarshalBinary(b []byte) error {
	if len(b) != 4 {
		return fmt.Errorf("point: %d bytes, want 4", len(b))
	}
	p.X, p.Y = int16(binary.LittleEndian.Uint16(b)), int16(binary.LittleEndian.Uint16(b[2:]))
	return nil
}

var (
	pointKey = memory.NewKey[point]("proptest.point")
	callsKey = memory.NewKey[int]("calls") // the number of agent calls so far
	trapKey  = memory.NewKey[int]("trap")  // memAgent fails the call whose number is at least this
)

// memKeys are the keys the agents and scripts write, besides calls and
// pointKey.
var memKeys = []string{"a", "b", "c", "d", "e", "f"}

// mix hashes a seed, a leaf value and a call number (splitmix64).
func mix(seed uint64, v string, n int) uint64 {
	h := fnv.New64a()
	h.Write([]byte(v))
	x := seed ^ h.Sum64() ^ uint64(n)*0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// memValue returns a value drawn from h, of one of the types a memory
// saves (not NaN, so that reflect.DeepEqual compares it).
func memValue(h uint64) any {
	x := h >> 8
	switch h % 9 {
	case 0:
		return int(x % 1000)
	case 1:
		return fmt.Sprint("s", x%100)
	case 2:
		return []int{int(x % 7), -int(x % 5)}
	case 3:
		return []byte{byte(x), byte(x >> 8)}
	case 4:
		return map[string]any{"x": int64(x % 5), "l": []string{"q", ""}, "n": nil}
	case 5:
		return time.Duration(x % 1e6)
	case 6:
		return float64(x%1000) / 8
	case 7:
		return []any{uint8(x), nil, []float32{1.5}}
	}
	return map[string][]uint16(nil)
}

// memAgent is an agent whose functions keep all their state in memory:
// each call counts itself in callsKey, then sets or deletes up to two keys
// (and now and then pointKey) with values drawn from the seed, its leaf
// value and its call number, and an action or condition answers by the
// same draw. With trapKey in memory, the first call whose number is at
// least its value fails after its writes: it panics, or an action returns
// an invalid Result.
func memAgent(seed uint64) bt.Agent[string] {
	call := func(v string, b *bt.Blackboard, action bool) (uint64, *bt.Result) {
		n, _ := callsKey.Get(b)
		callsKey.Put(b, n+1)
		h := mix(seed, v, n)
		for i := range int(h % 3) {
			w := mix(h, "write", i)
			switch k := memKeys[w%uint64(len(memKeys))]; {
			case w%5 == 0:
				b.Delete(k)
			case w%11 == 1:
				pointKey.Put(b, point{int16(w >> 16), int16(w >> 32)})
			default:
				b.Set(k, memValue(w>>3))
			}
		}
		if trap, ok := trapKey.Get(b); ok && n >= trap {
			if action && h%2 == 0 {
				return h, &bt.Result{Status: bt.Status(7)}
			}
			panic(fmt.Sprintf("trap at call %d", n))
		}
		return h, nil
	}
	return bt.Agent[string]{
		MemoryAction: func(v string, b *bt.Blackboard) bt.Result {
			h, bad := call(v, b, true)
			if bad != nil {
				return *bad
			}
			return []bt.Result{bt.ResultSuccess, bt.ResultFailure, bt.ResultRunning}[h>>40%3]
		},
		MemoryCondition: func(v string, b *bt.Blackboard) bool {
			h, _ := call(v, b, false)
			return h>>40%2 == 0
		},
		MemoryEntry:  func(v string, b *bt.Blackboard) { call(v, b, false) },
		MemoryOnStep: func(v string, b *bt.Blackboard) { call(v, b, false) },
		MemoryExit:   func(v string, b *bt.Blackboard, _, _ bool) { call(v, b, false) },
	}
}

func newMemStepped(n bt.Node[string], seed uint64) (bt.Stepped[string], error) {
	return bt.NewStepped(n, memAgent(seed), bt.WithTurnClock(100*time.Millisecond), bt.WithSeed(seed))
}

// modelOf copies m into a plain map.
func modelOf(m memory.Map) map[string]any {
	out := map[string]any{}
	for k, v := range m.All() {
		out[k] = v
	}
	return out
}

// memAgainst returns "" when m holds exactly model: the same length, Get
// of each key deeply equal, and All yielding the model's keys in
// increasing order with the same values.
func memAgainst(m memory.Map, model map[string]any) string {
	if m.Len() != len(model) {
		return fmt.Sprintf("Len %d, model has %d keys: %v vs %v", m.Len(), len(model), m, model)
	}
	for k, want := range model {
		if got, ok := m.Get(k); !ok || !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("Get(%q) = %#v, %v; model has %#v", k, got, ok, want)
		}
	}
	keys := slices.Sorted(maps.Keys(model))
	i := 0
	for k, v := range m.All() {
		if i >= len(keys) || k != keys[i] || !reflect.DeepEqual(v, model[k]) {
			return fmt.Sprintf("All yields %q (%#v) at %d; model's keys in order are %q", k, v, i, keys)
		}
		i++
	}
	if i != len(keys) {
		return fmt.Sprintf("All yields %d keys, model has %d", i, len(keys))
	}
	return ""
}

// stepRecord steps s with events and returns the new version and the
// events, as text.
func stepRecord(s bt.Stepped[string]) (bt.Stepped[string], string, error) {
	var ev strings.Builder
	next, err := s.StepWith(func(e bt.Event[string]) { fmt.Fprintf(&ev, "%v;", e) })
	return next, ev.String(), err
}

// steppedRun is a run of a stepped tree: its versions (the start and one
// per step), the memory of each as a model, and the events of each step.
type steppedRun struct {
	versions []bt.Stepped[string]
	models   []map[string]any
	events   []string
}

func runStepped(s bt.Stepped[string], k int) (steppedRun, error) {
	r := steppedRun{versions: []bt.Stepped[string]{s}, models: []map[string]any{modelOf(s.Memory())}}
	for range k {
		next, ev, err := stepRecord(s)
		if err != nil {
			return r, err
		}
		s = next
		r.versions, r.models, r.events = append(r.versions, s), append(r.models, modelOf(s.Memory())), append(r.events, ev)
	}
	return r, nil
}

// check returns "" when every version still holds its model.
func (r *steppedRun) check(what string) string {
	for i, v := range r.versions {
		if d := memAgainst(v.Memory(), r.models[i]); d != "" {
			return fmt.Sprintf("%s: version %d: %s", what, i, d)
		}
	}
	return ""
}

// concurrently runs f(g) on goroutines g = 0 to 3 and returns the first
// non-empty answer.
func concurrently(f func(g int) string) string {
	var wg sync.WaitGroup
	out := make([]string, 4)
	for g := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[g] = f(g)
		}()
	}
	wg.Wait()
	for _, s := range out {
		if s != "" {
			return s
		}
	}
	return ""
}

// treeOp applies one scripted operation, x, to the current version of h: a
// signal with a memory change (WithMemory, then Signal), a plain signal,
// or a version with a new memory (WithMemory) and no signal.
func treeOp(h bt.History[bt.Tree[string]], x uint32) bt.History[bt.Tree[string]] {
	cur := h.Current()
	m := cur.Memory()
	k := memKeys[x>>2%uint32(len(memKeys))]
	switch x >> 5 % 4 {
	case 0:
		m = m.Delete(k)
	case 1:
		m = pointKey.Set(m, point{int16(x >> 8), 1})
	default:
		m = m.Set(k, memValue(uint64(x>>7)))
	}
	switch x % 4 {
	case 0:
		return h.Push(cur.WithMemory(m).Succeed())
	case 1:
		return h.Push(cur.WithMemory(m).Fail())
	case 2:
		return h.Push(cur.WithMemory(m))
	}
	return h.Push(cur.Signal([]bt.Status{bt.Success, bt.Failure}[x>>9%2]))
}

// historyVersions returns the versions of h and their models.
func historyVersions(h bt.History[bt.Tree[string]]) ([]bt.Tree[string], []map[string]any) {
	var vs []bt.Tree[string]
	var ms []map[string]any
	for v := range h.All() {
		vs, ms = append(vs, v), append(ms, modelOf(v.Memory()))
	}
	return vs, ms
}

var (
	scripts = gen.SliceOf(gen.UInt32())
	steps   = gen.IntRange(0, 30)
	// trapped counts the failing steps of property M6, by kind, so that
	// the test can check that the property did meet failing steps.
	trappedPanics, trappedInvalid atomic.Int64
)

// TestMemoryLaws checks the laws of Memory and of the memory of versions,
// in both driving styles, on generated trees and scripts. To reproduce a
// failure, rerun with the printed seed:
// PROPTEST_SEED=<seed> go test ./proptest -run TestMemoryLaws
func TestMemoryLaws(t *testing.T) {
	props := gopter.NewProperties(parameters(t))

	props.Property("M1 Memory against a map model; old values unchanged", prop.ForAll(
		func(script []uint32) string {
			var m memory.Map
			model := map[string]any{}
			versions, models := []memory.Map{m}, []map[string]any{maps.Clone(model)}
			for i, x := range script {
				k := memKeys[x>>2%uint32(len(memKeys))]
				switch x % 4 {
				case 0:
					m = m.Delete(k)
					delete(model, k)
				case 1:
					got, ok := m.Get(k)
					want, wok := model[k]
					if ok != wok || !reflect.DeepEqual(got, want) {
						return fmt.Sprintf("op %d: Get(%q) = %#v, %v; model %#v, %v", i, k, got, ok, want, wok)
					}
				default:
					v := memValue(uint64(x >> 5))
					m = m.Set(k, v)
					model[k] = v
				}
				if d := memAgainst(m, model); d != "" {
					return fmt.Sprintf("op %d (%d): %s", i, x%4, d)
				}
				versions, models = append(versions, m), append(models, maps.Clone(model))
			}
			for i, v := range versions {
				if d := memAgainst(v, models[i]); d != "" {
					return fmt.Sprintf("version %d after all ops: %s", i, d)
				}
			}
			return ""
		}, scripts))

	props.Property("M2 a stepped version's memory never changes; stepped again from any version it does the same", prop.ForAll(
		func(n bt.Node[string], k int, seed uint64) string {
			s, err := newMemStepped(n, seed)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			r, err := runStepped(s, k)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			// Many goroutines step every version again, a few steps
			// each, while the others read.
			d := concurrently(func(g int) string {
				for j := range r.versions {
					i := (j*7 + g*3) % len(r.versions)
					v := r.versions[i]
					if d := memAgainst(v.Memory(), r.models[i]); d != "" {
						return fmt.Sprintf("goroutine %d: version %d: %s", g, i, d)
					}
					for x := range 1 + (i+g)%4 {
						next, ev, err := stepRecord(v)
						if err != nil {
							return fmt.Sprintf("goroutine %d: version %d stepped again: %v", g, i, err)
						}
						if i+x < len(r.events) {
							if ev != r.events[i+x] {
								return fmt.Sprintf("%v: version %d stepped again: events\n%s\nthe first time\n%s", n, i+x, ev, r.events[i+x])
							}
							if d := memAgainst(next.Memory(), r.models[i+x+1]); d != "" {
								return fmt.Sprintf("%v: version %d stepped again: %s", n, i+x, d)
							}
						}
						v = next
					}
				}
				return ""
			})
			if d != "" {
				return d
			}
			return r.check(fmt.Sprintf("%v, after the later steps", n))
		}, steppedTree, steps, seeds))

	props.Property("M3 a Tree version's memory never changes (WithMemory, then a signal)", prop.ForAll(
		func(n bt.Node[string], script []uint32, seed uint64) string {
			h := bt.NewHistory(bt.Start(n, bt.WithSeed(seed)))
			for _, x := range script {
				h = treeOp(h, x)
			}
			vs, ms := historyVersions(h)
			if len(vs) != h.Len() {
				return fmt.Sprintf("All has %d versions, Len %d", len(vs), h.Len())
			}
			d := concurrently(func(g int) string {
				for j := range vs {
					i := (j*5 + g) % len(vs)
					v := vs[i]
					// Signals keep the memory.
					if w := v.Succeed(); memAgainst(w.Memory(), ms[i]) != "" {
						return fmt.Sprintf("version %d: Succeed changed the memory: %s", i, memAgainst(w.Memory(), ms[i]))
					}
					if w := v.Fail(); memAgainst(w.Memory(), ms[i]) != "" {
						return fmt.Sprintf("version %d: Fail changed the memory", i)
					}
					later := bt.NewHistory(v)
					for _, x := range script[:min(len(script), 8)] {
						later = treeOp(later, x^uint32(g*0x55))
					}
					if d := memAgainst(v.Memory(), ms[i]); d != "" {
						return fmt.Sprintf("goroutine %d: version %d after later versions: %s", g, i, d)
					}
				}
				return ""
			})
			if d != "" {
				return d
			}
			i := 0
			for v := range h.All() {
				if d := memAgainst(v.Memory(), ms[i]); d != "" {
					return fmt.Sprintf("History version %d: %s", i, d)
				}
				if !v.Equal(vs[i]) {
					return fmt.Sprintf("History version %d is no longer Equal to itself", i)
				}
				i++
			}
			return ""
		}, anyTree, scripts, seeds))

	props.Property("M4 save and restore keep the memory exactly, and the future", prop.ForAll(
		func(n bt.Node[string], k int, seed uint64) string {
			s, err := newMemStepped(n, seed)
			if err != nil {
				return fmt.Sprintf("%v: %v", n, err)
			}
			r, err := runStepped(s, k)
			if err != nil {
				return err.Error()
			}
			v := r.versions[k]
			if k%3 == 0 {
				v = v.WithMemory(withEveryType(v.Memory()))
			}
			for _, form := range []string{"binary", "JSON"} {
				var restored bt.Stepped[string]
				var saved []byte
				if form == "binary" {
					if saved, err = v.MarshalBinary(); err != nil {
						return fmt.Sprintf("MarshalBinary: %v", err)
					}
					restored, err = s.Restore(saved)
				} else {
					if saved, err = v.MarshalJSON(); err != nil {
						return fmt.Sprintf("MarshalJSON: %v", err)
					}
					restored, err = s.Restore(saved)
				}
				if err != nil {
					return fmt.Sprintf("%s restore: %v", form, err)
				}
				if d := memSame(restored.Memory(), v.Memory()); d != "" {
					return fmt.Sprintf("%v: %s restore after %d steps: %s (saved %q)", n, form, k, d, saved)
				}
				a, b := v, restored
				for i := range 8 {
					var ea, eb string
					var err1, err2 error
					a, ea, err1 = stepRecord(a)
					b, eb, err2 = stepRecord(b)
					if err1 != nil || err2 != nil {
						return fmt.Sprintf("steps: %v, %v", err1, err2)
					}
					if ea != eb {
						return fmt.Sprintf("%v: %s-restored version, step %d: events\n%s\nthe original's\n%s", n, form, i, eb, ea)
					}
					if d := memSame(b.Memory(), a.Memory()); d != "" {
						return fmt.Sprintf("%v: %s-restored version, step %d: %s", n, form, i, d)
					}
				}
			}
			return ""
		}, steppedTree, steps, seeds))

	props.Property("M4t a Tree's save and restore keep the memory exactly, and the future", prop.ForAll(
		func(n bt.Node[string], script []uint32, seed uint64) string {
			h := bt.NewHistory(bt.Start(n, bt.WithSeed(seed)))
			for _, x := range script {
				h = treeOp(h, x)
			}
			v := h.Current()
			if len(script)%2 == 0 {
				v = v.WithMemory(withEveryType(v.Memory()))
			}
			for _, form := range []string{"binary", "JSON"} {
				var restored bt.Tree[string]
				var err error
				if form == "binary" {
					var b []byte
					if b, err = v.MarshalBinary(); err != nil {
						return fmt.Sprintf("MarshalBinary: %v", err)
					}
					restored, err = bt.Restore(n, b)
				} else {
					var b []byte
					if b, err = v.MarshalJSON(); err != nil {
						return fmt.Sprintf("MarshalJSON: %v", err)
					}
					restored, err = bt.Restore(n, b)
				}
				if err != nil {
					return fmt.Sprintf("%s restore: %v", form, err)
				}
				if d := memSame(restored.Memory(), v.Memory()); d != "" {
					return fmt.Sprintf("%v: %s restore: %s", n, form, d)
				}
				a, b := bt.NewHistory(v), bt.NewHistory(restored)
				for i, x := range script[:min(len(script), 20)] {
					a, b = treeOp(a, x^0xa5), treeOp(b, x^0xa5)
					ca, cb := a.Current(), b.Current()
					if ca.Value() != cb.Value() || ca.Status() != cb.Status() || ca.LastSignal() != cb.LastSignal() {
						return fmt.Sprintf("%v: %s-restored version, op %d: %q %v %v, the original's %q %v %v", n, form, i,
							cb.Value(), cb.Status(), cb.LastSignal(), ca.Value(), ca.Status(), ca.LastSignal())
					}
					if d := memSame(cb.Memory(), ca.Memory()); d != "" {
						return fmt.Sprintf("%v: %s-restored version, op %d: %s", n, form, i, d)
					}
				}
			}
			return ""
		}, anyTree, scripts, seeds))

	props.Property("M5 undo then redo returns the same memory (History)", prop.ForAll(
		func(n bt.Node[string], script []uint32, u int) string {
			h := bt.NewHistory(bt.Start(n, bt.WithSeed(1)))
			for _, x := range script {
				h = treeOp(h, x)
			}
			vs, ms := historyVersions(h)
			top := h.Pos()
			u = min(u, top)
			back := h
			for j := 1; j <= u; j++ {
				back = back.Undo()
				if d := memAgainst(back.Current().Memory(), ms[top-j]); d != "" {
					return fmt.Sprintf("after %d undos: %s", j, d)
				}
			}
			for j := u - 1; j >= 0; j-- {
				back = back.Redo()
				if d := memAgainst(back.Current().Memory(), ms[top-j]); d != "" {
					return fmt.Sprintf("redo to %d: %s", top-j, d)
				}
			}
			if !back.Current().Equal(vs[top]) || back.Pos() != top {
				return fmt.Sprintf("undo %d then redo %d: not the version undone (pos %d, want %d)", u, u, back.Pos(), top)
			}
			return memAgainst(h.Current().Memory(), ms[top])
		}, anyTree, scripts, gen.IntRange(0, 40)))

	props.Property("M5s undo then redo returns the same memory (History of stepped versions)", prop.ForAll(
		func(n bt.Node[string], k, u int, seed uint64) string {
			s, err := newMemStepped(n, seed)
			if err != nil {
				return err.Error()
			}
			r, err := runStepped(s, k)
			if err != nil {
				return err.Error()
			}
			h := bt.NewHistory(s)
			for range k {
				next, err := h.Current().Step()
				if err != nil {
					return err.Error()
				}
				h = h.Push(next)
			}
			u = min(u, k)
			back := h
			for j := 1; j <= u; j++ {
				back = back.Undo()
				if d := memAgainst(back.Current().Memory(), r.models[k-j]); d != "" {
					return fmt.Sprintf("after %d undos: %s", j, d)
				}
			}
			for j := u - 1; j >= 0; j-- {
				back = back.Redo()
				if d := memAgainst(back.Current().Memory(), r.models[k-j]); d != "" {
					return fmt.Sprintf("redo to %d: %s", k-j, d)
				}
			}
			a, _ := back.Current().MarshalBinary()
			b, _ := r.versions[k].MarshalBinary()
			if !bytes.Equal(a, b) {
				return "undo then redo: not the version undone"
			}
			return ""
		}, steppedTree, steps, gen.IntRange(0, 30), seeds))

	props.Property("M6 a failing step keeps the memory it started from, and none of its writes", prop.ForAll(
		func(n bt.Node[string], k, off int, seed uint64) string {
			s, err := newMemStepped(n, seed)
			if err != nil {
				return err.Error()
			}
			r, err := runStepped(s, k)
			if err != nil {
				return err.Error()
			}
			calls, _ := callsKey.Get(r.versions[k].Memory())
			start := r.versions[k].WithMemory(trapKey.Set(r.versions[k].Memory(), calls+off))
			model := modelOf(start.Memory())
			got, ev, err := stepRecord(start)
			if err == nil {
				return "" // the step made fewer calls than the trap waits for
			}
			var pe *bt.PanicError
			switch {
			case errors.As(err, &pe):
				trappedPanics.Add(1)
			case strings.Contains(err.Error(), "invalid status"):
				trappedInvalid.Add(1)
			default:
				return fmt.Sprintf("unexpected error: %v", err)
			}
			if d := memAgainst(got.Memory(), model); d != "" {
				return fmt.Sprintf("the version a failed step returns: %s", d)
			}
			if d := memAgainst(start.Memory(), model); d != "" {
				return fmt.Sprintf("the version a failed step started from: %s", d)
			}
			// The writes before the failure were reported as they were
			// made, by calls that returned, and are in no version.
			// Without the trap, the same version steps as the run did.
			if k < len(r.events) {
				next, ev2, err := stepRecord(start.WithMemory(start.Memory().Delete(trapKey.Name())))
				if err != nil {
					return err.Error()
				}
				if ev2 != r.events[k] || memAgainst(next.Memory(), r.models[k+1]) != "" {
					return fmt.Sprintf("after a failed step (events %s), the version without its trap steps otherwise than before:\n%s\n%s", ev, ev2, r.events[k])
				}
			}
			return ""
		}, steppedTree, steps, gen.IntRange(0, 3), seeds))

	props.TestingRun(t)
	if trappedPanics.Load() == 0 || trappedInvalid.Load() == 0 {
		t.Errorf("M6 met %d panicking steps and %d invalid results: the property did not test both", trappedPanics.Load(), trappedInvalid.Load())
	}
	t.Logf("M6 met %d panicking steps and %d invalid results", trappedPanics.Load(), trappedInvalid.Load())
}

// withEveryType returns m with a value of every kind a memory saves,
// including NaNs, a negative zero, nil and empty slices and maps, []byte,
// durations, nested []any and map[string]any, and a registered marshaler
// type.
func withEveryType(m memory.Map) memory.Map {
	for k, v := range map[string]any{
		"t.nil": nil, "t.bool": true, "t.int": math.MinInt, "t.int8": int8(-8), "t.int16": int16(16), "t.int32": int32(-32),
		"t.int64": int64(math.MaxInt64), "t.uint": uint(math.MaxUint), "t.uint8": uint8(8), "t.uint16": uint16(16),
		"t.uint32": uint32(32), "t.uint64": uint64(math.MaxUint64), "t.uintptr": uintptr(1),
		"t.f32": float32(0.1), "t.f32nan": float32(math.NaN()), "t.f64": math.Copysign(0, -1), "t.f64nan": math.NaN(),
		"t.f64inf": math.Inf(1), "t.string": "ü\x00", "t.bytes.nil": []byte(nil), "t.bytes.empty": []byte{},
		"t.bytes": []byte("xyz"), "t.dur": -time.Minute, "t.ints.nil": []int(nil), "t.ints.empty": []int{},
		"t.strings": []string{"", "a"}, "t.map.nil": map[string]bool(nil), "t.map.empty": map[string]bool{},
		"t.nested": map[string][]map[string]float64{"a": {nil, {"n": math.NaN()}}},
		"t.any":    []any{nil, []any{}, map[string]any{"x": []byte(nil)}, time.Duration(3)},
	} {
		m = m.Set(k, v)
	}
	return pointKey.Set(m, point{-1, 2})
}

// memSame returns "" when got and want have the same keys with the same
// values, reflect.DeepEqual but for floats, which compare by their bits (a
// NaN is the same as itself).
func memSame(got, want memory.Map) string {
	if got.Len() != want.Len() {
		return fmt.Sprintf("%d keys, want %d: %v, want %v", got.Len(), want.Len(), got, want)
	}
	for k, w := range want.All() {
		g, ok := got.Get(k)
		if !ok || !sameBits(reflect.ValueOf(&g).Elem(), reflect.ValueOf(&w).Elem()) {
			return fmt.Sprintf("key %q: %#v (%T), want %#v (%T)", k, g, g, w, w)
		}
	}
	return ""
}

func sameBits(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float32:
		return math.Float32bits(a.Interface().(float32)) == math.Float32bits(b.Interface().(float32))
	case reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameBits(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !sameBits(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for it := a.MapRange(); it.Next(); {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() || !sameBits(it.Value(), bv) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}
