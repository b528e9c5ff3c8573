package slicepool_test

import (
	"sync"
	"testing"

	"github.com/poolkit/poolkit/slicepool"
)

var sinkInts []int64

// BenchmarkGetPut compares slicepool with the two raw sync.Pool patterns
// that articles on sync.Pool recommend: *[]E boxes with the header written back (0 allocs)
// and []E stored by value (one allocation per Put, as the slice header is
// boxed). The full side-by-side run is in benchmarks/core.
func BenchmarkGetPut(b *testing.B) {
	const n = 64
	b.Run("impl=sync.Pool-ptr-writeback", func(b *testing.B) {
		p := sync.Pool{New: func() any { s := make([]int64, 0, n); return &s }}
		b.ReportAllocs()
		for b.Loop() {
			sp := p.Get().(*[]int64)
			s := append((*sp)[:0], 1, 2, 3)
			sinkInts = s
			*sp = s
			p.Put(sp)
		}
	})
	b.Run("impl=sync.Pool-value", func(b *testing.B) {
		p := sync.Pool{New: func() any { return make([]int64, 0, n) }}
		b.ReportAllocs()
		for b.Loop() {
			s := p.Get().([]int64)
			s = append(s[:0], 1, 2, 3)
			sinkInts = s
			//lint:ignore SA6002 the boxing allocation is the pattern being measured
			p.Put(s)
		}
	})
	b.Run("impl=slicepool", func(b *testing.B) {
		var p slicepool.Pool[int64]
		b.ReportAllocs()
		for b.Loop() {
			s := append(p.Get(n), 1, 2, 3)
			sinkInts = s
			p.Put(s)
		}
	})
}
