// Package core compares poolkit's core pools with the raw sync.Pool
// patterns of published sync.Pool articles (those `poolkit bench`
// measures) and with peer libraries, side by side in
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
	"sync/atomic"
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
//
// op returns a value from the object it used, which run sums and stores
// in sink once per goroutine: each goroutine writing a shared variable on
// every operation would make that variable's cache line bounce between
// cores and swamp what the parallel runs measure.
func run(b *testing.B, op func() int) {
	b.Run("mode=serial", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cputime.Start()
		sum := 0
		for b.Loop() {
			sum += op()
		}
		sink.Add(int64(sum))
		cpu.Report(b)
	})
	b.Run("mode=parallel", func(b *testing.B) {
		b.ReportAllocs()
		cpu := cputime.Start()
		b.RunParallel(func(pb *testing.PB) {
			sum := 0
			for pb.Next() {
				sum += op()
			}
			sink.Add(int64(sum))
		})
		cpu.Report(b)
	})
}

// sink keeps the results of the operations alive.
var sink atomic.Int64

// object is a typical pooled struct: a few fields and a small buffer.
type object struct {
	id int64
	_  string   // the size and pointer shape of a name field
	_  [8]int64 // and of a small buffer
}

// BenchmarkPool: Get a *object, touch it, Put it back.
func BenchmarkPool(b *testing.B) {
	b.Run("impl=sync.Pool", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(object) }}
		run(b, func() int {
			o := p.Get().(*object)
			o.id++
			id := o.id
			p.Put(o)
			return int(id)
		})
	})
	b.Run("impl=poolkit", func(b *testing.B) {
		p := pool.New(func() *object { return new(object) })
		run(b, func() int {
			o := p.Get()
			o.id++
			id := o.id
			p.Put(o)
			return int(id)
		})
	})
}

// BenchmarkSlice: the workload of the Qiita article "Goでsliceをpoolするときの罠",
// Get a []int, append 42,
// Put it back.
func BenchmarkSlice(b *testing.B) {
	b.Run("impl=sync.Pool-value", func(b *testing.B) {
		// The article's first attempt: Put boxes the slice header.
		p := sync.Pool{New: func() any { return make([]int, 0, 16) }}
		run(b, func() int {
			s := p.Get().([]int)[:0]
			s = append(s, 42)
			v := s[0]
			//lint:ignore SA6002 the boxing allocation is the point of this variant
			p.Put(s)
			return v
		})
	})
	b.Run("impl=sync.Pool-writeback", func(b *testing.B) {
		// The article's best pattern: *[]int with the header written back.
		p := sync.Pool{New: func() any { s := make([]int, 0, 16); return &s }}
		run(b, func() int {
			sp := p.Get().(*[]int)
			s := (*sp)[:0]
			s = append(s, 42)
			v := s[0]
			*sp = s
			p.Put(sp)
			return v
		})
	})
	b.Run("impl=poolkit", func(b *testing.B) {
		var p slicepool.Pool[int]
		run(b, func() int {
			s := p.Get(1)
			s = append(s, 42)
			v := s[0]
			p.Put(s)
			return v
		})
	})
	b.Run("impl=pool.Pool", func(b *testing.B) {
		// pool.Pool[[]int] through GetPtr and PutPtr: the box goes out
		// and back with the slice, the header written back.
		p := pool.New(func() []int { return make([]int, 0, 16) })
		run(b, func() int {
			sp := p.GetPtr()
			s := (*sp)[:0]
			s = append(s, 42)
			v := s[0]
			*sp = s
			p.PutPtr(sp)
			return v
		})
	})
	b.Run("impl=pool.Pool-Get", func(b *testing.B) {
		// pool.Pool[[]int] through Get and Put, with a reset that
		// truncates: each moves the slice in or out of a box and
		// recycles the box.
		p := pool.New(func() []int { return make([]int, 0, 16) },
			pool.WithReset(func(s []int) []int { return s[:0] }))
		run(b, func() int {
			s := p.Get()
			s = append(s, 42)
			v := s[0]
			p.Put(s)
			return v
		})
	})
}

// replicateInput is what BenchmarkReplicate copies.
const replicateInput = "12345"

// BenchmarkReplicate: the string replication of ludwig125's article
// "golangのsync.Poolで速度改善したい", n=5: Get a []string, append the
// same string five times, read the result, Put it back.
func BenchmarkReplicate(b *testing.B) {
	const n = 5
	check := func(ss []string) int {
		if len(ss) != n || ss[n-1] != replicateInput {
			panic("replicate: wrong result")
		}
		return len(ss[0])
	}
	b.Run("impl=sync.Pool-writeback", func(b *testing.B) {
		// The article's pool, a *[]string that starts empty, with its
		// use after Put fixed: the result is read before the Put.
		p := sync.Pool{New: func() any { return new([]string) }}
		run(b, func() int {
			sp := p.Get().(*[]string)
			ss := (*sp)[:0]
			for range n {
				ss = append(ss, replicateInput)
			}
			v := check(ss)
			*sp = ss
			p.Put(sp)
			return v
		})
	})
	b.Run("impl=poolkit", func(b *testing.B) {
		var p slicepool.Pool[string]
		run(b, func() int {
			ss := p.Get(n)
			for range n {
				ss = append(ss, replicateInput)
			}
			v := check(ss)
			p.Put(ss)
			return v
		})
	})
}

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
				run(b, func() int {
					buf := p.Get().(*bytes.Buffer)
					buf.Write(data)
					n := buf.Len()
					buf.Reset()
					p.Put(buf)
					return n
				})
			})
			b.Run("impl=bytebufferpool", func(b *testing.B) {
				var p bytebufferpool.Pool
				b.SetBytes(int64(size.n))
				run(b, func() int {
					buf := p.Get()
					buf.Write(data)
					n := buf.Len()
					p.Put(buf)
					return n
				})
			})
			b.Run("impl=go-buffer-pool", func(b *testing.B) {
				// Its API takes the length up front: Get(n) []byte.
				var p libp2ppool.BufferPool
				b.SetBytes(int64(size.n))
				run(b, func() int {
					buf := p.Get(len(data))
					n := copy(buf, data)
					p.Put(buf)
					return n
				})
			})
			b.Run("impl=poolkit", func(b *testing.B) {
				var p bytebuf.Pool
				b.SetBytes(int64(size.n))
				run(b, func() int {
					buf := p.Get()
					buf.Write(data)
					n := buf.Len()
					p.Put(buf)
					return n
				})
			})
		})
	}
}
