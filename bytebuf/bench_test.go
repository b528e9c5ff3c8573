package bytebuf_test

import (
	"bytes"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/poolkit/poolkit/bytebuf"
)

// sinkLen keeps the benchmarks' results alive. Each goroutine adds its
// sum once at the end: a shared variable written on every operation would
// bounce between cores and dominate the parallel figures.
var sinkLen atomic.Int64

// BenchmarkGetWritePut compares a Pool with a raw sync.Pool of
// *bytes.Buffer; benchmarks/core adds the peer libraries.
func BenchmarkGetWritePut(b *testing.B) {
	for _, n := range []int{64, 10000} {
		data := bytes.Repeat([]byte("x"), n)
		name := "size=" + map[int]string{64: "64", 10000: "10000"}[n]
		b.Run(name+"/impl=sync.Pool-bytes.Buffer", func(b *testing.B) {
			p := sync.Pool{New: func() any { return new(bytes.Buffer) }}
			b.SetBytes(int64(n))
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				sum := 0
				for pb.Next() {
					buf := p.Get().(*bytes.Buffer)
					buf.Write(data)
					sum += buf.Len()
					buf.Reset()
					p.Put(buf)
				}
				sinkLen.Add(int64(sum))
			})
		})
		b.Run(name+"/impl=bytebuf", func(b *testing.B) {
			var p bytebuf.Pool
			b.SetBytes(int64(n))
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				sum := 0
				for pb.Next() {
					buf := p.Get()
					buf.Write(data)
					sum += buf.Len()
					p.Put(buf)
				}
				sinkLen.Add(int64(sum))
			})
		})
	}
}

var sinkBytes []byte

// BenchmarkAppendTime compares AppendRFC3339 with time.Time.AppendFormat,
// which also appends without allocating.
func BenchmarkAppendTime(b *testing.B) {
	tm := time.Date(2026, 11, 21, 23, 24, 27, 123456789, time.FixedZone("", 9*3600))
	buf := make([]byte, 0, 64)
	b.Run("impl=time.AppendFormat", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = tm.AppendFormat(buf[:0], time.RFC3339Nano)
		}
		sinkBytes = buf
	})
	b.Run("impl=bytebuf", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			buf = bytebuf.AppendRFC3339(buf[:0], tm, true)
		}
		sinkBytes = buf
	})
}
