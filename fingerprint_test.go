package behaviortree_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/kind"
)

// bothStylesTree returns a random definition of up to about size nodes
// that both styles run: of the kinds that both run, with no attributes,
// sharing a subtree now and then.
func bothStylesTree(r *rand.Rand, size int) bt.Node[string] {
	var shared []bt.Node[string]
	var gen func(budget int) bt.Node[string]
	gen = func(budget int) bt.Node[string] {
		if len(shared) > 0 && r.IntN(8) == 0 {
			return shared[r.IntN(len(shared))]
		}
		if budget <= 1 || r.IntN(4) == 0 {
			return bt.Leaf(fmt.Sprint("l", r.IntN(5)))
		}
		var n bt.Node[string]
		switch r.IntN(7) {
		case 0:
			n = bt.Negate(gen(budget - 1))
		case 1:
			n = bt.AlwaysSucceed(gen(budget - 1))
		case 2:
			n = bt.AlwaysFail(gen(budget - 1))
		default:
			k := 1 + r.IntN(4)
			kids := make([]bt.Node[string], k)
			for i := range kids {
				kids[i] = gen((budget - 1) / k)
			}
			n = [](func(...bt.Node[string]) bt.Node[string]){bt.Select[string], bt.Sequence[string], bt.Parallel[string], bt.Race[string]}[r.IntN(4)](kids...)
		}
		shared = append(shared, n)
		return n
	}
	return gen(size)
}

// cyclingAgent answers actions with Running, Success, Running, Failure in
// turn, by call.
func cyclingAgent() bt.Agent[string] {
	n := 0
	return bt.Agent[string]{Action: func(string) bt.Result {
		n++
		return []bt.Result{bt.ResultRunning, bt.ResultSuccess, bt.ResultRunning, bt.ResultFailure}[n%4]
	}}
}

// TestFingerprintBothStyles checks that a definition that both styles
// run has one fingerprint: its Fingerprint, which its Tree saves and its
// stepped saves carry, and which differs from that of its stepped
// program (Root(def)'s), which its stepped saves carried before.
func TestFingerprintBothStyles(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 1))
	treeSaves := 0
	for i := range 300 {
		def := bothStylesTree(r, 2+i%40)
		for n := range def.Preorder() {
			if k := n.Kind(); !k.RunsOn(kind.Stepped) || !k.RunsOn(kind.ValueSucceedFail) {
				t.Fatalf("%v: the generator made a %v", def, k)
			}
		}
		want := fmt.Sprintf("%016x", def.Fingerprint())
		if s, err := bt.Start(def).Save(); err == nil { // not while a parallel node runs
			treeSaves++
			if got := savedFingerprint(t, s); got != want {
				t.Fatalf("%v: a Tree save carries %s, Fingerprint is %s", def, got, want)
			}
		}
		tr, err := bt.NewStepped(def, cyclingAgent())
		if err != nil {
			t.Fatalf("%v: %v", def, err)
		}
		for step := range 3 {
			s, err := tr.Save()
			if err != nil {
				t.Fatal(err)
			}
			if got := savedFingerprint(t, s); got != want {
				t.Fatalf("%v, step %d: a stepped save carries %s, Fingerprint is %s", def, step, got, want)
			}
			if tr, err = tr.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if old := bt.Root(def).Fingerprint(); old == def.Fingerprint() {
			t.Errorf("%v: Root(def) has def's fingerprint %016x", def, old)
		}
	}
	if treeSaves < 100 {
		t.Errorf("only %d of 300 definitions had a Tree save to check", treeSaves)
	}
}

// TestFingerprintStyleDefinitions checks that a save of one definition
// is refused by another of the same stepped program: def and Root(def)
// now differ for a definition that both styles run.
func TestFingerprintStyleDefinitions(t *testing.T) {
	def := bt.Sequence(bt.Leaf("a"), bt.Leaf("b"))
	tr, err := bt.NewStepped(def, cyclingAgent())
	if err != nil {
		t.Fatal(err)
	}
	if tr, err = tr.Step(); err != nil {
		t.Fatal(err)
	}
	data, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bt.RestoreStepped(bt.Root(def), cyclingAgent(), data); !errors.Is(err, bt.ErrWrongDefinition) {
		t.Errorf("a save of %v restored into Root of it: %v", def, err)
	}
	if _, err := bt.RestoreStepped(def, cyclingAgent(), data); err != nil {
		t.Errorf("a save of %v did not restore into it: %v", def, err)
	}
}

// savedBothFile holds stepped saves of bothStylesDef written by the
// release before saves of both styles carried one fingerprint (commit
// 29afcc5), with the fingerprint of its stepped program. Do not rewrite
// it: it is what that release wrote.
const savedBothFile = "testdata/stepped-saved-both-v1.jsonl"

// bothStylesDef is the definition of savedBothFile's saves.
func bothStylesDef() bt.Node[string] {
	shared := bt.Sequence(bt.Leaf("s1"), bt.Negate(bt.Leaf("s2")))
	return bt.Select(
		bt.Sequence(bt.Leaf("a"), bt.Parallel(bt.Leaf("p1"), bt.AlwaysFail(bt.Leaf("p2")), shared)),
		bt.Race(bt.Leaf("r1"), bt.AlwaysSucceed(bt.Leaf("r2"))),
		shared,
		bt.Leaf("z"),
	)
}

// TestSteppedSavedBothCompat restores the stepped saves of a definition
// that both styles run, made before they carried its Fingerprint: each
// restores to the node states it had and saves back to the same bytes,
// but for the fingerprint, now Fingerprint's.
func TestSteppedSavedBothCompat(t *testing.T) {
	def := bothStylesDef()
	f, err := os.Open(savedBothFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var rec struct {
			Step   int
			Data   string
			States string
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		data, err := base64.StdEncoding.DecodeString(rec.Data)
		if err != nil {
			t.Fatal(err)
		}
		if old := binary.LittleEndian.Uint64(data[4:12]); old != bt.Root(def).Fingerprint() || old == def.Fingerprint() {
			t.Fatalf("step %d: the save carries %016x; Root(def) has %016x, def %016x", rec.Step, old, bt.Root(def).Fingerprint(), def.Fingerprint())
		}
		v, err := bt.RestoreStepped(def, cyclingAgent(), data)
		if err != nil {
			t.Fatalf("step %d: %v", rec.Step, err)
		}
		states := []byte{}
		for _, s := range v.NodeStates(nil) {
			states = append(states, byte('0'+int(s)))
		}
		if string(states) != rec.States {
			t.Errorf("step %d: restored states %s, saved %s", rec.Step, states, rec.States)
		}
		again, err := v.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if fp := binary.LittleEndian.Uint64(again[4:12]); fp != def.Fingerprint() {
			t.Errorf("step %d: saved again with %016x, Fingerprint is %016x", rec.Step, fp, def.Fingerprint())
		}
		if !bytes.Equal(again[:4], data[:4]) || !bytes.Equal(again[12:], data[12:]) {
			t.Errorf("step %d: saved again as %x, was %x", rec.Step, again, data)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("%s holds no saves", savedBothFile)
	}
}
