//go:build !unix

package main

import "os"

// openNoBlock opens path for reading.
func openNoBlock(path string) (*os.File, error) { return os.Open(path) }

// keepOwner does nothing: files have no owner to keep here.
func keepOwner(*os.File, os.FileInfo) error { return nil }

// syncDir does nothing: directories cannot be synced here.
func syncDir(string) {}
