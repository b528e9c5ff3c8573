// Package core compares poolkit's core pools with the raw sync.Pool
// patterns of the seed articles and with peer libraries, side by side in
// one run: pool.Pool against sync.Pool, slicepool against the *[]E
// header write-back and []E-by-value patterns, and bytebuf against
// valyala/bytebufferpool, libp2p/go-buffer-pool and a sync.Pool of
// *bytes.Buffer. Every workload runs serially and under b.RunParallel.
//
// Reproduce the table in ../README.md with the command given there.
package core

import (
	"bytes"
	"sync"
	"testing"

	libp2ppool "github.com/libp2p/go-buffer-pool"
	"github.com/valyala/bytebufferpool"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/cputime"
	"github.com/poolkit/poolkit/pool"
	"github.com/poolkit/poolkit/slicepool"
)

// run runs op serially and in parallel as sub-benchmarks mode=serial and
// mode=parallel, with allocations reported, and the process CPU time per
// operation as cpu-ns/op (see internal/cputime).
func run(b *testing.B, op func()) {
	b.Run("mode=serial", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cputime.Start()
		for b.Loop() {
			op()
		}
		cpu.Report(b)
	})
	b.Run("mode=parallel", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cputime.Start()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				op()
			}
		})
		cpu.Report(b)
	})
}

// object is a typical pooled struct: a few fields and a small buffer.
type object struct {
	id    int64
	name  string
	attrs [8]int64
}

var sinkID int64

// BenchmarkPool: Get a *object, touch it, Put it back.
func BenchmarkPool(b *testing.B) {
	b.Run("impl=sync.Pool", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(object) }}
		run(b, func() {
			o := p.Get().(*object)
			o.id++
			sinkID = o.id
			p.Put(o)
		})
	})
	b.Run("impl=poolkit", func(b *testing.B) {
		p := pool.New(func() *object { return new(object) })
		run(b, func() {
			o := p.Get()
			o.id++
			sinkID = o.id
			p.Put(o)
		})
	})
}

var sinkInt int

// BenchmarkSlice: the seed article's workload, Get a []int, append 42,
// Put it back.
func BenchmarkSlice(b *testing.B) {
	b.Run("impl=sync.Pool-value", func(b *testing.B) {
		// The seed's first attempt: Put boxes the slice header.
		p := sync.Pool{New: func() any { return make([]int, 0, 16) }}
		run(b, func() {
			s := p.Get().([]int)[:0]
			s = append(s, 42)
			sinkInt = s[0]
			p.Put(s) //nolint:staticcheck // SA6002 is the point of this variant
		})
	})
	b.Run("impl=sync.Pool-writeback", func(b *testing.B) {
		// The seed's best pattern: *[]int with the header written back.
		p := sync.Pool{New: func() any { s := make([]int, 0, 16); return &s }}
		run(b, func() {
			sp := p.Get().(*[]int)
			s := (*sp)[:0]
			s = append(s, 42)
			sinkInt = s[0]
			*sp = s
			p.Put(sp)
		})
	})
	b.Run("impl=poolkit", func(b *testing.B) {
		var p slicepool.Pool[int]
		run(b, func() {
			s := p.Get(1)
			s = append(s, 42)
			sinkInt = s[0]
			p.Put(s)
		})
	})
}

var sinkLen int

// BenchmarkBuffer: Get a buffer, write size bytes, Put it back.
func BenchmarkBuffer(b *testing.B) {
	for _, size := range []struct {
		name string
		n    int
	}{{"size=64", 64}, {"size=10000", 10000}} {
		data := bytes.Repeat([]byte("x"), size.n)
		b.Run(size.name, func(b *testing.B) {
			b.Run("impl=sync.Pool-bytes.Buffer", func(b *testing.B) {
				p := sync.Pool{New: func() any { return new(bytes.Buffer) }}
				b.SetBytes(int64(size.n))
				run(b, func() {
					buf := p.Get().(*bytes.Buffer)
					buf.Write(data)
					sinkLen = buf.Len()
					buf.Reset()
					p.Put(buf)
				})
			})
			b.Run("impl=bytebufferpool", func(b *testing.B) {
				var p bytebufferpool.Pool
				b.SetBytes(int64(size.n))
				run(b, func() {
					buf := p.Get()
					buf.Write(data)
					sinkLen = buf.Len()
					p.Put(buf)
				})
			})
			b.Run("impl=go-buffer-pool", func(b *testing.B) {
				// Its API takes the length up front: Get(n) []byte.
				var p libp2ppool.BufferPool
				b.SetBytes(int64(size.n))
				run(b, func() {
					buf := p.Get(len(data))
					sinkLen = copy(buf, data)
					p.Put(buf)
				})
			})
			b.Run("impl=poolkit", func(b *testing.B) {
				var p bytebuf.Pool
				b.SetBytes(int64(size.n))
				run(b, func() {
					buf := p.Get()
					buf.Write(data)
					sinkLen = buf.Len()
					p.Put(buf)
				})
			})
		})
	}
}
