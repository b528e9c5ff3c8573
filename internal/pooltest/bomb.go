package pooltest

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"
)

// GzipBomb returns members gzip members, each the compression of size
// zero bytes, one after another: a few hundred kilobytes that inflate to
// members*size bytes. It makes them with a fixed amount of memory, so a
// test can build a bomb far larger than it could hold.
func GzipBomb(t testing.TB, members int, size int64) []byte {
	t.Helper()
	var member bytes.Buffer
	zw, err := gzip.NewWriterLevel(&member, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyBuffer(zw, io.LimitReader(zeros{}, size), make([]byte, 64<<10)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return bytes.Repeat(member.Bytes(), members)
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
