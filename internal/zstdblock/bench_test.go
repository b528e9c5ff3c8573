package zstdblock

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/poolkit/poolkit/internal/crosstalk"
)

// benchBody is the 3.2 KB JSON body benchmarks/gzpool judges the
// middlewares on (its jsonBody(3200)).
func benchBody() []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; b.Len() < 3200-2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"user-%d","email":"user%d@example.com","active":%t,"score":%d.%02d}`,
			i, i, i*7919%10007, i%3 == 0, i*37%1000, i%100)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// BenchmarkAppendFrame codes bodies of a few sizes with the pooled
// AppendFrame, as httpcompress does whole bodies, reporting the frame's
// size: the 3.2 KB JSON body of benchmarks/gzpool, 5 KB and 128 KiB of
// JSON records, and 128 KiB of text.
func BenchmarkAppendFrame(b *testing.B) {
	for _, in := range []input{
		{"json-3.2KB", benchBody()},
		{"json-5KB", jsonRecords(5000, 2)},
		{"json-128KiB", jsonRecords(MaxInput, 3)},
		{"lowercase-128KiB", crosstalk.Other(MaxInput, 4)},
	} {
		b.Run("in="+in.name, func(b *testing.B) {
			dst := make([]byte, 0, MaxInput+MaxInput/2)
			z := AppendFrame(dst, in.b)
			b.SetBytes(int64(len(in.b)))
			b.ReportAllocs()
			for b.Loop() {
				AppendFrame(dst[:0], in.b)
			}
			b.ReportMetric(float64(len(z)), "out-bytes")
		})
	}
}

// BenchmarkStream streams 512 KiB of JSON records through a Stream, whole
// and flushed every 4 KiB.
func BenchmarkStream(b *testing.B) {
	body := jsonRecords(512<<10, 6)
	for _, plan := range []writePlan{writePlans[0], writePlans[1]} {
		b.Run("plan="+plan.name, func(b *testing.B) {
			var s Stream
			var out bytes.Buffer
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			size := 0
			for b.Loop() {
				out.Reset()
				s.Reset(&out)
				for rest := body; len(rest) > 0; {
					k := min(len(rest), plan.sizes[0])
					s.Write(rest[:k])
					rest = rest[k:]
					if plan.flushEvery > 0 {
						s.Flush()
					}
				}
				s.Close()
				size = out.Len()
			}
			b.ReportMetric(float64(size), "out-bytes")
		})
	}
}
