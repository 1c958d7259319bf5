package battleship

import (
	"testing"
)

// BenchmarkGame plays one whole game per op for each bot, on the default
// board: placing the fleet, and playing until it is sunk, as PlayMany's
// workers do.
func BenchmarkGame(b *testing.B) {
	for _, s := range strategies() {
		b.Run(s.name, func(b *testing.B) {
			b.ReportAllocs()
			var p player
			c := DefaultConfig()
			for i := 0; i < b.N; i++ {
				if _, err := p.play(c, s, 1, i); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGameParallel is BenchmarkGame on every core, through PlayMany.
func BenchmarkGameParallel(b *testing.B) {
	for _, name := range Names() {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			if _, err := PlayMany(DefaultConfig(), name, 1, b.N, 0, nil); err != nil {
				b.Fatal(err)
			}
		})
	}
}
