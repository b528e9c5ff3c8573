// Package proftest makes the memory profiles that the tests of poolkit
// allocs and its profile reader need: real, unsymbolized and hostile ones.
package proftest

import (
	"bytes"
	"compress/gzip"
	"io"
	"runtime/pprof"
	"testing"

	"github.com/google/pprof/profile"
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

// AllocsProfile returns this process's allocs profile as runtime/pprof
// writes it: gzipped protobuf for debug 0, text for debug 1.
func AllocsProfile(t testing.TB, debug int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.Lookup("allocs").WriteTo(&buf, debug); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// UnsymbolizedProfile returns this process's allocs profile with its
// symbols stripped, as a converter that keeps only addresses writes it,
// and the allocations it holds.
func UnsymbolizedProfile(t testing.TB) ([]byte, int64) {
	t.Helper()
	p, err := profile.ParseData(AllocsProfile(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	var objs int64
	for _, s := range p.Sample {
		objs += s.Value[0]
	}
	for _, l := range p.Location {
		l.Line = nil
	}
	p.Function = nil
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), objs
}
