package battleship

import (
	"testing"
	"time"
)

// reportCPU reports the CPU time per op since start, as cpu-ns/op. Unlike
// ns/op, it does not grow when other processes share the cores, and on a
// parallel run it is the cost of a game summed over the cores: a parallel
// benchmark that keeps its cpu-ns/op close to the one-core figure scales
// with the cores it is given.
func reportCPU(b *testing.B, start time.Duration) {
	if d := cpuTime() - start; d > 0 {
		b.ReportMetric(float64(d.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

// BenchmarkGame plays one whole game per op for each bot, on the default
// board: placing the fleet, and playing until it is sunk, as PlayMany's
// workers do.
func BenchmarkGame(b *testing.B) {
	for _, s := range strategies() {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			var p player
			c := DefaultConfig()
			start := cpuTime()
			for i := 0; i < b.N; i++ {
				if _, err := p.play(c, s, 1, i); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// BenchmarkGameParallel is BenchmarkGame on every core (GOMAXPROCS, set
// with -cpu), through PlayMany.
func BenchmarkGameParallel(b *testing.B) {
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			if _, err := PlayMany(DefaultConfig(), name, 1, b.N, 0, nil); err != nil {
				b.Fatal(err)
			}
			reportCPU(b, start)
		})
	}
}
