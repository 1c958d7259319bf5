// Package corpusfile opens the conformance corpora that the tests replay:
// JSON Lines files, gzipped or not. A held-out corpus named by an
// environment variable (BTCPP_CORPUS, MISTREEVOUS_CORPUS, FLUENT_CORPUS,
// ELIXIR_CORPUS) may come in either form, whatever its name says.
package corpusfile

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
)

// Open returns the lines of the corpus file name: its contents, or, when
// they start with gzip's magic bytes (1f 8b), their decompression. The
// caller closes it.
func Open(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(f)
	magic, _ := br.Peek(2)
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("corpus %s: %w", name, err)
		}
		return readCloser{zr, func() error { zr.Close(); return f.Close() }}, nil
	}
	return readCloser{br, f.Close}, nil
}

// readCloser is a Reader with the Close of what it reads from.
type readCloser struct {
	io.Reader
	close func() error
}

// Close closes the file (and the gzip reader over it).
func (r readCloser) Close() error { return r.close() }
