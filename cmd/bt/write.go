package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// writeTemp writes data to the temporary file. A variable so that tests
// can make it fail.
var writeTemp = func(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}

// replaceFile replaces the contents of the file at path, through symlinks
// to the real file, with data, atomically: it writes data to a temporary
// file in the real file's directory, syncs it, gives it the file's mode
// (and, where it can, its owner), and renames it over the file. On any
// error the file is left untouched and the temporary file removed.
//
// read is the file's information from when it was read: if the file has
// changed since (another size or time of modification, or another file
// now at path), it is left untouched, so that an edit made in between is
// not lost.
func replaceFile(path string, data []byte, read fs.FileInfo) (err error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(real)
	if err != nil {
		return err
	}
	// Renaming over a file needs only the directory's permission: keep
	// the file's own, so that a read-only file stays so.
	w, err := os.OpenFile(real, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	w.Close()
	tmp, err := os.CreateTemp(filepath.Dir(real), ".bt-fmt-*")
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			err = fmt.Errorf("%s: %w; the file is left as it was", path, err)
		}
	}()
	if err := writeTemp(tmp, data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Chmod(st.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	if err := keepOwner(tmp, st); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	// Last, as close to the rename as can be: has the file changed?
	if now, err := os.Stat(real); err != nil {
		return err
	} else if !os.SameFile(now, read) || now.Size() != read.Size() || !now.ModTime().Equal(read.ModTime()) {
		return errors.New("the file changed since bt read it")
	}
	if err := os.Rename(tmp.Name(), real); err != nil {
		return err
	}
	syncDir(filepath.Dir(real))
	return nil
}
