package behaviortree

import (
	"os"
	"strconv"
	"testing"
)

// BT_FLAT_WORDS sets flatWordsMax for a test run: 0 stores the words of
// every tree that has some in a trie, so that the whole suite (the
// conformance corpora, the differential tests) runs on tries.
func init() {
	if v, ok := os.LookupEnv("BT_FLAT_WORDS"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			panic("BT_FLAT_WORDS: not a count of words: " + v)
		}
		flatWordsMax = int32(n)
	}
}

// TestSteppedTrieAgreesWithFlat steps the same tree with its words in a
// trie and in one array, from every version again (a branch), and checks
// that both give the same versions and that no step changed an older one.
func TestSteppedTrieAgreesWithFlat(t *testing.T) {
	trie, err := savedCompatTree()
	if err != nil {
		t.Fatal(err)
	}
	saved := flatWordsMax
	flatWordsMax = 1 << 30
	flat, err := savedCompatTree()
	flatWordsMax = saved
	if err != nil {
		t.Fatal(err)
	}
	if !trie.m.p.trie || flat.m.p.trie {
		t.Fatalf("trie %t and flat %t: want a trie and an array", trie.m.p.trie, flat.m.p.trie)
	}
	var versions []Stepped[int]
	var bytes []string
	for step := range 60 {
		a, err := trie.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		b, _ := flat.MarshalBinary()
		if string(a) != string(b) {
			t.Fatalf("step %d: the trie's version differs from the array's", step)
		}
		versions, bytes = append(versions, trie), append(bytes, string(a))
		if trie, err = trie.Step(); err != nil {
			t.Fatal(err)
		}
		if flat, err = flat.Step(); err != nil {
			t.Fatal(err)
		}
		if step%7 == 3 {
			trie, flat = trie.Reset(), flat.Reset()
		}
	}
	for _, v := range versions { // branches from every old version
		for range 3 {
			if v, err = v.Step(); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, v := range versions {
		if got, _ := v.MarshalBinary(); string(got) != bytes[i] {
			t.Errorf("version %d changed after later steps", i)
		}
	}
}

// TestSteppedTrieRetained: a version of a tree of 65,537 nodes whose step
// changes a few states keeps the path it changed, not a copy of all the
// 2,049 words (16 KiB) of its states.
func TestSteppedTrieRetained(t *testing.T) {
	def, agent := sizedSequences(15)
	tr, err := NewStepped(def, agent)
	if err != nil {
		t.Fatal(err)
	}
	per := retainedPerVersion(t, tr, 4000)
	t.Logf("retained per version: %.0f B", per)
	if per > 1024 {
		t.Errorf("a version keeps %.0f B, want <= 1 KiB", per)
	}
}
