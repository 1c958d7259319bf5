package mdsl

import (
	"bytes"
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	bt "github.com/zipbt/behaviortree"
	"github.com/zipbt/behaviortree/internal/testlong"
	"github.com/zipbt/behaviortree/mistreevous"
)

// This file measures the peak heap of the parsers against the size of
// their input.
//
// Method: before a parse, a full GC gives a baseline of the bytes in live
// heap objects. During the parse a goroutine samples the bytes in heap
// objects (runtime/metrics "/memory/classes/heap/objects:bytes", the same
// as MemStats.HeapAlloc: live objects and garbage not yet swept, which is
// what the heap holds) every 20µs or so without stopping the world; the
// peak is the largest sample minus the baseline, with the result still
// held. This is peak-heap/B, at the default GOGC. A parse shorter than the
// sampling period can be missed, so the figure counts for large inputs.
// Next to it, with the collector switched off (debug.SetGCPercent(-1)),
// the bytes allocated during one parse (MemStats.TotalAlloc) are the peak
// the heap would reach without a collection: alloc/B, an upper bound of
// the peak. live/B is what the result keeps after a GC.

// heapObjects returns the bytes in heap objects now.
func heapObjects(s []metrics.Sample) uint64 {
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// parseMemory runs parse once with the collector on, sampling the heap,
// and once with it off, and returns the peak heap, the bytes allocated
// and the bytes the result keeps, each over the input's size n.
func parseMemory(n int, parse func() any) (peak, alloc, live float64) {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	runtime.GC()
	base := heapObjects(s)
	var most uint64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		ss := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		for {
			select {
			case <-stop:
				return
			default:
			}
			most = max(most, heapObjects(ss))
			time.Sleep(20 * time.Microsecond)
		}
	}()
	res := parse()
	most = max(most, heapObjects(s))
	close(stop)
	wg.Wait()
	most = max(most, heapObjects(s))
	runtime.GC()
	kept := heapObjects(s)
	runtime.KeepAlive(res)
	res = nil

	runtime.GC()
	old := debug.SetGCPercent(-1)
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	res = parse()
	runtime.ReadMemStats(&m1)
	runtime.KeepAlive(res)
	res = nil
	debug.SetGCPercent(old)
	runtime.GC()

	f := float64(n)
	return float64(most-base) / f, float64(m1.TotalAlloc-m0.TotalAlloc) / f, float64(kept-base) / f
}

// memShapes are the shapes of text that memText makes.
var memShapes = []string{"corpus", "leaves", "wide", "deep", "strings", "named"}

// memText returns an MDSL text of the given shape of about size bytes.
func memText(shape string, size int) []byte {
	var b bytes.Buffer
	switch shape {
	case "corpus": // mdslBenchText's style, indented
		per := len(mustBenchText(1000)) / 1000
		src := mustBenchText(size / per)
		for len(src) < size {
			src = mustBenchText(size/per + (size-len(src))/per + 1)
		}
		return src
	case "leaves": // short distinct actions, one per line, in wide sequences
		b.WriteString("root {\n    sequence {\n")
		for i := 0; b.Len() < size; i++ {
			if i%1000 == 0 {
				if i > 0 {
					b.WriteString("        }\n")
				}
				b.WriteString("        sequence {\n")
			}
			fmt.Fprintf(&b, "            action [A%d]\n", i)
		}
		b.WriteString("        }\n    }\n}\n")
	case "wide": // one sequence of many short leaves
		b.WriteString("root {\n    sequence {\n")
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "        action [A%d]\n", i%100)
		}
		b.WriteString("    }\n}\n")
	case "deep": // chains of sequences 1000 deep, each with a leaf, indented as Format does
		b.WriteString("root {\n    sequence {\n")
		indent := func(d int) string { return strings.Repeat("    ", min(d, maxIndentLevel)) }
		for b.Len() < size {
			for d := 2; d < 1002; d++ {
				fmt.Fprintf(&b, "%ssequence {\n%saction [A%d]\n", indent(d), indent(d+1), d%10)
			}
			for d := 1001; d >= 2; d-- {
				fmt.Fprintf(&b, "%s}\n", indent(d))
			}
		}
		b.WriteString("    }\n}\n")
	case "named": // most of it in four named roots, each referenced from the main root
		b.WriteString("root {\n    sequence {\n")
		for r := 0; r < 4; r++ {
			fmt.Fprintf(&b, "        branch [N%d]\n", r)
		}
		b.WriteString("    }\n}\n")
		for r := 0; r < 4; r++ {
			fmt.Fprintf(&b, "root [N%d] {\n    sequence {\n", r)
			for i := 0; b.Len() < size*(r+1)/4; i++ {
				if i%1000 == 0 {
					if i > 0 {
						b.WriteString("        }\n")
					}
					b.WriteString("        sequence {\n")
				}
				fmt.Fprintf(&b, "            action [A%d]\n", i)
			}
			b.WriteString("        }\n    }\n}\n")
		}
	case "strings": // actions with long string arguments
		b.WriteString("root {\n    sequence {\n")
		arg := bytes.Repeat([]byte("x"), 200)
		for i := 0; b.Len() < size; i++ {
			fmt.Fprintf(&b, "        action [A%d, \"%s\", %d, true]\n", i%50, arg, i)
		}
		b.WriteString("    }\n}\n")
	}
	return b.Bytes()
}

func mustBenchText(n int) []byte {
	src, _ := mdslBenchText(n)
	return src
}

// BenchmarkParseMemory reports the peak heap of Parse and
// ParseMistreevous over the input's size (peak-heap/B), with alloc/B and
// live/B, for texts of a few shapes and sizes. Run it once per size:
//
//	go test -run '^$' -bench ParseMemory -benchtime 1x
func BenchmarkParseMemory(b *testing.B) {
	for _, shape := range memShapes {
		for _, mb := range []int{1, 16} {
			src := memText(shape, mb<<20)
			def, err := Parse("mem.mdsl", src)
			if err != nil {
				b.Fatal(err)
			}
			js, err := mistreevous.Marshal(def)
			if err != nil {
				b.Fatal(err)
			}
			def = bt.Node[bt.Call]{}
			b.Run(fmt.Sprintf("MDSL/%s/%dMB", shape, mb), func(b *testing.B) {
				benchParseMemory(b, len(src), func() any {
					n, err := Parse("mem.mdsl", src)
					if err != nil {
						b.Fatal(err)
					}
					return n
				})
			})
			b.Run(fmt.Sprintf("Mistreevous/%s/%dMB", shape, mb), func(b *testing.B) {
				benchParseMemory(b, len(js), func() any {
					n, err := mistreevous.Parse(js)
					if err != nil {
						b.Fatal(err)
					}
					return n
				})
			})
		}
	}
}

func benchParseMemory(b *testing.B, n int, parse func() any) {
	b.SetBytes(int64(n))
	var peak, alloc, live float64
	for i := 0; i < b.N; i++ {
		peak, alloc, live = parseMemory(n, parse)
	}
	b.ReportMetric(peak, "peak-heap/B")
	b.ReportMetric(alloc, "alloc/B")
	b.ReportMetric(live, "live/B")
	b.ReportMetric(float64(n), "input-bytes")
}

// TestParseMDSLMemory checks that Parse allocates at most 15 times its
// input in all, for 4 MB texts of every shape: with the collector off, the
// bytes allocated during one parse are an upper bound of its peak heap.
func TestParseMDSLMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("parses 20 MB")
	}
	for _, shape := range memShapes {
		src := memText(shape, testlong.Pick(1<<20, 4<<20))
		runtime.GC()
		old := debug.SetGCPercent(-1)
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		n, err := Parse("mem.mdsl", src)
		runtime.ReadMemStats(&m1)
		debug.SetGCPercent(old)
		if err != nil {
			t.Fatal(shape, err)
		}
		runtime.KeepAlive(n)
		ratio := float64(m1.TotalAlloc-m0.TotalAlloc) / float64(len(src))
		t.Logf("%s: %.2f", shape, ratio)
		if ratio > 15 {
			t.Errorf("%s: reading %d bytes allocated %.1f times as much", shape, len(src), ratio)
		}
	}
}

// BenchmarkParseMDSLShapes times Parse on 4 MB texts of each shape.
func BenchmarkParseMDSLShapes(b *testing.B) {
	for _, shape := range memShapes {
		src := memText(shape, 4<<20)
		b.Run(shape, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := Parse("mem.mdsl", src); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
