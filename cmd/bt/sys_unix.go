//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// openNoBlock opens path for reading without waiting for a writer if it
// has become a FIFO since it was checked.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// keepOwner gives f the owner and group of the file of st, if they
// differ from f's, and fails if it cannot: replacing a file must not
// change who owns it.
func keepOwner(f *os.File, st os.FileInfo) error {
	want, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	fst, err := f.Stat()
	if err != nil {
		return err
	}
	got, ok := fst.Sys().(*syscall.Stat_t)
	if !ok || (got.Uid == want.Uid && got.Gid == want.Gid) {
		return nil
	}
	if err := f.Chown(int(want.Uid), int(want.Gid)); err != nil {
		return fmt.Errorf("cannot keep the file's owner and group (%d:%d): %w", want.Uid, want.Gid, err)
	}
	return nil
}

// syncDir syncs the directory, so that a rename in it is durable. It is
// best effort: some file systems cannot sync a directory.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
