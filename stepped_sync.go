package behaviortree

import "sync/atomic"

// atomicStatus is a Status settled at most once, safe for concurrent use.
type atomicStatus struct{ v atomic.Int32 }

func (a *atomicStatus) load() Status { return Status(a.v.Load()) }

func (a *atomicStatus) settle(s Status) bool {
	return a.v.CompareAndSwap(int32(Running), int32(s))
}
