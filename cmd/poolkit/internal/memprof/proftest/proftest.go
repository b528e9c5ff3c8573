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

// Frame is a function on a stack of a profile Build makes.
type Frame struct {
	Func, File string
	Line       int64
}

// Stack is one sample of a profile Build makes: its frames, innermost
// first, and what it allocated and keeps in use.
type Stack struct {
	Frames               []Frame
	Objects, Bytes       int64
	InuseObjs, InuseByts int64
}

// Build returns a heap profile over 10 s, sampled at Go's default rate,
// with a sample per stack: the shape net/http/pprof's allocs endpoint
// writes, with whatever names the caller gives, hostile ones included.
// Frames with the same function and file share a pprof function, and
// equal frames a location, as in the profiles Go writes.
func Build(t testing.TB, stacks []Stack) []byte {
	t.Helper()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{
			{Type: "alloc_objects", Unit: "count"}, {Type: "alloc_space", Unit: "bytes"},
			{Type: "inuse_objects", Unit: "count"}, {Type: "inuse_space", Unit: "bytes"},
		},
		PeriodType:    &profile.ValueType{Type: "space", Unit: "bytes"},
		Period:        512 * 1024,
		DurationNanos: 10e9,
	}
	funcs := map[[2]string]*profile.Function{}
	locations := map[Frame]*profile.Location{}
	for _, s := range stacks {
		var locs []*profile.Location
		for _, f := range s.Frames {
			fn := funcs[[2]string{f.Func, f.File}]
			if fn == nil {
				fn = &profile.Function{ID: uint64(len(p.Function) + 1), Name: f.Func, SystemName: f.Func, Filename: f.File}
				funcs[[2]string{f.Func, f.File}] = fn
				p.Function = append(p.Function, fn)
			}
			loc := locations[f]
			if loc == nil {
				loc = &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: fn, Line: f.Line}}}
				locations[f] = loc
				p.Location = append(p.Location, loc)
			}
			locs = append(locs, loc)
		}
		p.Sample = append(p.Sample, &profile.Sample{Location: locs,
			Value: []int64{s.Objects, s.Bytes, s.InuseObjs, s.InuseByts}})
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
