package corpusfile

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenBothForms checks that the same lines come back from a plain and
// a gzipped file, whatever their names, and that a truncated gzip stream
// is an error, not fewer lines.
func TestOpenBothForms(t *testing.T) {
	const text = "{\"id\":1}\n{\"id\":2}\n"
	dir := t.TempDir()
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write([]byte(text))
	zw.Close()
	files := map[string][]byte{"plain.jsonl": []byte(text), "zipped.jsonl": z.Bytes(), "zipped.gz": z.Bytes(), "plain.jsonl.gz": []byte(text)}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		r, err := Open(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := io.ReadAll(r)
		r.Close()
		if err != nil || string(got) != text {
			t.Errorf("%s: %q, %v; want %q", name, got, err, text)
		}
	}
	p := filepath.Join(dir, "cut.gz")
	os.WriteFile(p, z.Bytes()[:z.Len()-6], 0o600)
	r, err := Open(p)
	if err == nil {
		_, err = io.ReadAll(r)
		r.Close()
	}
	if err == nil {
		t.Error("a truncated gzip file read without an error")
	}
	if _, err := Open(filepath.Join(dir, "none")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}
