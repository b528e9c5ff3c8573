package pool_test

import (
	"sync"
	"testing"

	"github.com/poolkit/poolkit/pool"
)

var (
	sinkObject *object
	sinkByte   byte
)

// BenchmarkGetPut compares a Get and Put of pool.Pool with the same on a
// raw sync.Pool, serially and in parallel. The full comparison with peer
// libraries lives in the benchmarks module (benchmarks/core).
func BenchmarkGetPut(b *testing.B) {
	b.Run("impl=sync.Pool/mode=serial", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(object) }}
		b.ReportAllocs()
		for b.Loop() {
			o := p.Get().(*object)
			o.id++
			sinkObject = o
			p.Put(o)
		}
	})
	// The direct path, and a pointer pool with an option, which takes the
	// slow path.
	for _, c := range []struct {
		name string
		p    *pool.Pool[*object]
	}{
		{"pool.Pool", pool.New(func() *object { return new(object) })},
		{"pool.Pool-reset", pool.New(func() *object { return new(object) },
			pool.WithReset(func(o *object) *object { o.id = 0; return o }))},
	} {
		b.Run("impl="+c.name+"/mode=serial", func(b *testing.B) {
			p := c.p // a local, as the sync.Pool case has
			b.ReportAllocs()
			for b.Loop() {
				o := p.Get()
				o.id++
				sinkObject = o
				p.Put(o)
			}
		})
	}
	b.Run("impl=pool.Pool-struct/mode=serial", func(b *testing.B) {
		p := pool.New(func() pair { return pair{} })
		b.ReportAllocs()
		for b.Loop() {
			v := p.Get()
			v.a++
			p.Put(v)
		}
	})
	b.Run("impl=pool.Pool-slice/mode=serial", func(b *testing.B) {
		p := pool.New(func() []byte { return make([]byte, 0, 64) })
		b.ReportAllocs()
		for b.Loop() {
			s := append(p.Get(), 'x')
			sinkByte = s[0]
			p.Put(s[:0])
		}
	})
	b.Run("impl=pool.Pool-slice-GetPtr/mode=serial", func(b *testing.B) {
		p := pool.New(func() []byte { return make([]byte, 0, 64) })
		b.ReportAllocs()
		for b.Loop() {
			sp := p.GetPtr()
			s := append((*sp)[:0], 'x')
			sinkByte = s[0]
			*sp = s
			p.PutPtr(sp)
		}
	})
	b.Run("impl=sync.Pool/mode=parallel", func(b *testing.B) {
		p := sync.Pool{New: func() any { return new(object) }}
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				o := p.Get().(*object)
				o.id++
				p.Put(o)
			}
		})
	})
	b.Run("impl=pool.Pool/mode=parallel", func(b *testing.B) {
		p := pool.New(func() *object { return new(object) })
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			for pb.Next() {
				o := p.Get()
				o.id++
				p.Put(o)
			}
		})
	})
}
