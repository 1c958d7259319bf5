package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/zipbt/behaviortree/mdsl"
)

// maxInputBytes is the most bytes bt reads from one input: the MDSL
// parser's limit, which bt applies to JSON inputs and scripts too. A
// variable so that tests can lower it.
var maxInputBytes int64 = mdsl.MaxBytes

// stdin is what the file name "-" reads. A variable so that tests can set
// it.
var stdin io.Reader = os.Stdin

// stdinName is the name of the standard input in messages.
const stdinName = "<stdin>"

// stdinRead reports whether this run of bt has already read the standard
// input, which can be read only once.
var stdinRead bool

// tooLongError is the error of an input longer than the limit.
type tooLongError struct {
	name  string
	limit int64
}

func (e *tooLongError) Error() string {
	return fmt.Sprintf("%s: longer than %d bytes", e.name, e.limit)
}

// tooLong returns the error of an input longer than maxInputBytes.
func tooLong(name string) error { return &tooLongError{name, maxInputBytes} }

// displayName returns the name of an input in messages.
func displayName(path string) string {
	if path == "-" {
		return stdinName
	}
	return path
}

// readInput returns the contents of the file at path, or of the standard
// input for "-", reading at most maxInputBytes+1 bytes: a longer input is
// an error. Anything but a regular file (a FIFO, a device, a directory)
// is refused without being opened, so that bt neither blocks on a FIFO
// nor reads a device without end; such input can come through "-".
// info is the file's information when it was opened (nil for "-").
func readInput(path string) (src []byte, info fs.FileInfo, err error) {
	if path == "-" {
		if stdinRead {
			return nil, nil, fmt.Errorf("%s: the standard input can be read only once", stdinName)
		}
		stdinRead = true
		src, err := readCapped(stdin, stdinName, 0)
		return src, nil, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if err := regular(path, st); err != nil {
		return nil, nil, err
	}
	f, err := openNoBlock(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	// The file may have been replaced since the Stat: check what was
	// opened.
	if st, err = f.Stat(); err != nil {
		return nil, nil, err
	}
	if err := regular(path, st); err != nil {
		return nil, nil, err
	}
	if st.Size() > maxInputBytes {
		return nil, nil, tooLong(path)
	}
	src, err = readCapped(f, path, st.Size())
	return src, st, err
}

// regular returns an error unless st is that of a regular file.
func regular(path string, st fs.FileInfo) error {
	if st.Mode().IsRegular() {
		return nil
	}
	what := "not a regular file"
	switch m := st.Mode(); {
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return fmt.Errorf("%s: %s, not a regular file: bt reads only regular files, and the standard input as -", path, what)
}

// readCapped reads r to its end, at most maxInputBytes+1 bytes of it: a
// longer input is an error. size is the expected length, if known. It
// reads into chunks and joins them only once the end is reached, so that
// refusing an endless input takes no more memory than the limit.
func readCapped(r io.Reader, name string, size int64) ([]byte, error) {
	limit := maxInputBytes + 1
	var chunks [][]byte
	var total int64
	next := int64(4 << 10)
	if size > 0 && size < limit {
		next = size + 1 // +1: reading to the end needs room past it
	}
	for total < limit {
		n := min(next, limit-total)
		next = min(2*next, 4<<20)
		chunk := make([]byte, n)
		k, err := io.ReadFull(r, chunk)
		chunks = append(chunks, chunk[:k])
		total += int64(k)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if total > maxInputBytes {
		return nil, tooLong(name)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	return bytes.Join(chunks, nil), nil
}

// utf8BOM is the UTF-8 byte-order mark.
var utf8BOM = []byte("\ufeff")

// stripBOM returns src without its leading UTF-8 byte-order mark, if it
// has one.
func stripBOM(src []byte) []byte { return bytes.TrimPrefix(src, utf8BOM) }
