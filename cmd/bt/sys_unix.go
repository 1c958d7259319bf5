//go:build unix

package main

import (
	"os"
	"syscall"
)

// openNoBlock opens path for reading without waiting for a writer if it
// has become a FIFO since it was checked.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
