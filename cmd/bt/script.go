package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"time"
	"unicode/utf8"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/attr"
	"github.com/zipbt/behaviortree/kind"
)

// load reads the script at path ("-" is the standard input): one JSON
// object, with nothing but white space after it. Its errors give the line
// and column where the script is wrong, where the decoder tells.
func (sc *script) load(path string) error {
	name := displayName(path)
	b, _, err := readInput(path)
	if err != nil {
		return err
	}
	b = stripBOM(b)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(sc); err != nil {
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.EOF):
			return fmt.Errorf("%s: the script is empty: want a JSON object", name)
		case errors.Is(err, io.ErrUnexpectedEOF):
			return fmt.Errorf("%s: the script ends inside its JSON value: %w", position(name, b, int64(len(b))), err)
		case errors.As(err, &syn):
			return fmt.Errorf("%s: %w", position(name, b, syn.Offset-1), err)
		case errors.As(err, &typ):
			return fmt.Errorf("%s: %w", position(name, b, typ.Offset-1), err)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	off := dec.InputOffset()
	if rest := bytes.TrimLeft(b[off:], " \t\r\n"); len(rest) > 0 {
		return fmt.Errorf("%s: data after the script's JSON value", position(name, b, int64(len(b)-len(rest))))
	}
	for _, a := range slices.Sorted(maps.Keys(sc.Actions)) {
		if len(sc.Actions[a]) == 0 {
			return fmt.Errorf("%s: action %s has no results", name, a)
		}
		for _, r := range sc.Actions[a] {
			if _, ok := results[r]; !ok {
				return fmt.Errorf("%s: action %s: unknown result %q (success, failure, running)", name, a, r)
			}
		}
	}
	for _, c := range slices.Sorted(maps.Keys(sc.Conditions)) {
		if len(sc.Conditions[c]) == 0 {
			return fmt.Errorf("%s: condition %s has no answers", name, c)
		}
	}
	for i, st := range sc.Steps {
		for _, a := range slices.Sorted(maps.Keys(st.Actions)) {
			if _, ok := results[st.Actions[a]]; !ok {
				return fmt.Errorf("%s: steps[%d]: action %s: unknown result %q (success, failure, running)", name, i, a, st.Actions[a])
			}
		}
	}
	return nil
}

// position returns name:line:column of the byte at offset off of src
// (counting from 0; the column counts characters, from 1).
func position(name string, src []byte, off int64) string {
	off = max(0, min(off, int64(len(src))))
	before := src[:off]
	line := bytes.Count(before, []byte("\n")) + 1
	col := utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:]) + 1
	return fmt.Sprintf("%s:%d:%d", name, line, col)
}

// check returns an error naming the first action or condition of the
// script (in the order of their names) that the tree does not call: a
// name misspelt in the script would otherwise be ignored without a word.
// Actions are the tree's action leaves (every leaf of an Elixir-style
// tree); conditions its condition leaves and guards.
func (sc *script) check(name string, t tree) error {
	var actions, conditions map[string]bool
	if t.isStr {
		actions, conditions = called(t.str, func(s string) string { return s })
	} else {
		actions, conditions = called(t.call, func(c bt.Call) string { return c.Name })
	}
	for _, a := range sc.actionNames() {
		if !actions[a] {
			hint := ""
			if conditions[a] {
				hint = fmt.Sprintf(" (%s is a condition)", a)
			}
			return fmt.Errorf("%s: the script gives results for action %q, which the tree does not call%s", name, a, hint)
		}
	}
	for _, c := range sc.conditionNames() {
		if !conditions[c] {
			hint := ""
			if actions[c] {
				hint = fmt.Sprintf(" (%s is an action)", c)
			}
			return fmt.Errorf("%s: the script gives answers for condition %q, which the tree does not call%s", name, c, hint)
		}
	}
	for i, d := range sc.Delta {
		if math.Abs(d) > maxDeltaSeconds {
			return fmt.Errorf("%s: delta %d is %g seconds, more than %g in size", name, i, d, float64(maxDeltaSeconds))
		}
	}
	return nil
}

// maxDeltaSeconds bounds a script's deltas, which become time.Durations
// (at most about 292 years).
const maxDeltaSeconds = 1e9

// seconds returns x seconds as a Duration, rounded to the nanosecond: the
// Duration whose Seconds is x for any x of at most nine decimals under a
// second, so that a script's deltas count as Mistreevous counts them.
func seconds(x float64) time.Duration { return time.Duration(math.Round(x * 1e9)) }

// called returns the names of the actions and of the conditions (leaves
// and guards) that a tree calls.
func called[L any](n bt.Node[L], nameOf func(L) string) (actions, conditions map[string]bool) {
	actions, conditions = map[string]bool{}, map[string]bool{}
	for c := range n.Preorder() {
		switch c.Kind() {
		case kind.Leaf:
			v, _ := c.Leaf()
			actions[nameOf(v)] = true
		case kind.Condition:
			v, _ := c.Leaf()
			conditions[nameOf(v)] = true
		}
		for _, a := range c.Attrs() {
			if a.Kind == attr.KindWhile || a.Kind == attr.KindUntil {
				conditions[nameOf(a.Value)] = true
			}
		}
	}
	return actions, conditions
}
