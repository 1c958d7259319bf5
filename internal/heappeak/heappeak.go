// Package heappeak measures the most heap a function needs while it runs,
// for the tests that bound a command's or a server's memory.
package heappeak

import (
	"runtime"
	"time"
)

// Run runs f and returns the most the heap grew while f ran, above its
// size after a collection just before: MemStats.HeapInuse, the bytes in
// spans in use, so the garbage not yet collected too, as the process's
// memory holds it (a collection returns it to the spans, not at once to
// the system). A goroutine samples it every 100 µs with
// runtime.ReadMemStats, and once more when f returns. It is a sample, so
// it can miss a short peak by a little, never count more than there was.
// TotalAlloc would not do: it counts too what was collected long before
// the peak.
func Run(f func()) uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	base := m.HeapInuse
	peak := base
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(100 * time.Microsecond)
		defer tick.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	f()
	close(stop)
	<-done
	runtime.ReadMemStats(&m)
	return max(peak, m.HeapInuse) - base
}
