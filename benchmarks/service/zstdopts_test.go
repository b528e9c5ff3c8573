package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/zstdblock"
)

// receipts returns the identity bodies of the poolkit variant's answers
// to the load's first n orders: the receipts the service compresses.
func receipts(tb testing.TB, n int) [][]byte {
	tb.Helper()
	var h http.Handler
	for _, v := range variants {
		if v.name == "poolkit" {
			h = v.handler()
		}
	}
	reqs := requestBodies(loadBodies)
	out := make([][]byte, 0, n)
	for i := range n {
		req, err := http.NewRequest(http.MethodPost, "/orders", io.NopCloser(bytes.NewReader(reqs[i%len(reqs)])))
		if err != nil {
			tb.Fatal(err)
		}
		w := &bodyWriter{h: http.Header{}}
		h.ServeHTTP(w, req)
		if w.h.Get("Content-Encoding") != "" || w.b.Len() < 4096 {
			tb.Fatalf("receipt %d: %d bytes, Content-Encoding %q", i, w.b.Len(), w.h.Get("Content-Encoding"))
		}
		out = append(out, w.b.Bytes())
	}
	return out
}

type bodyWriter struct {
	h http.Header
	b bytes.Buffer
}

func (w *bodyWriter) Header() http.Header         { return w.h }
func (w *bodyWriter) WriteHeader(int)             {}
func (w *bodyWriter) Write(p []byte) (int, error) { return w.b.Write(p) }

// zstdSettings are the klauspost encoder settings BenchmarkReceiptZstd
// compares: httpcompress's (SpeedFastest, a 256 KiB window, no checksum,
// lower memory), each with one change, and gzhttp's.
var zstdSettings = []struct {
	name string
	opts []zstd.EOption
}{
	{"httpcompress", nil},
	{"full-mem", []zstd.EOption{zstd.WithLowerEncoderMem(false)}},
	{"all-lit-entropy", []zstd.EOption{zstd.WithAllLitEntropyCompression(true)}},
	{"window-128KiB-crc", []zstd.EOption{zstd.WithWindowSize(128 << 10), zstd.WithEncoderCRC(true)}}, // gzhttp's
	{"SpeedDefault", []zstd.EOption{zstd.WithEncoderLevel(zstd.SpeedDefault)}},
	{"no-entropy", []zstd.EOption{zstd.WithNoEntropyCompression(true)}},
}

// BenchmarkReceiptZstd compresses the service's receipts (4.9 to 5.8 KB
// of JSON) with each setting, as a whole body (EncodeAll) and as
// httpcompress does (Write of the whole body, then Close), reporting the
// mean compressed size: which encoder setting or path makes a small whole
// body cheaper without more bytes. Count instructions with callgrind
// (benchmarks/callgrind.sh); see benchmarks/README.md.
func BenchmarkReceiptZstd(b *testing.B) {
	bodies := receipts(b, 8)
	for _, s := range zstdSettings {
		opts := append([]zstd.EOption{
			zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(256 << 10), zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true),
		}, s.opts...)
		e, err := zstd.NewWriter(nil, opts...)
		if err != nil {
			b.Fatal(err)
		}
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		if err != nil {
			b.Fatal(err)
		}
		for _, path := range []string{"EncodeAll", "stream"} {
			b.Run("set="+s.name+"/path="+path, func(b *testing.B) {
				var out bytes.Buffer
				dst := make([]byte, 0, 8<<10)
				compress := func(body []byte) []byte {
					if path == "EncodeAll" {
						return e.EncodeAll(body, dst[:0])
					}
					out.Reset()
					e.Reset(&out)
					if _, err := e.Write(body); err != nil {
						b.Fatal(err)
					}
					if err := e.Close(); err != nil {
						b.Fatal(err)
					}
					return out.Bytes()
				}
				total := 0
				for _, body := range bodies {
					z := compress(body)
					if got, err := d.DecodeAll(z, nil); err != nil || !bytes.Equal(got, body) {
						b.Fatalf("does not decode to the receipt: %v", err)
					}
					total += len(z)
				}
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					compress(bodies[i%len(bodies)])
				}
				b.ReportMetric(float64(total)/float64(len(bodies)), "out-bytes")
			})
		}
	}
}

// BenchmarkReceiptZstdBlock compresses the same receipts as
// BenchmarkReceiptZstd with poolkit's one-block encoder
// (internal/zstdblock), which httpcompress uses for whole bodies of up to
// 128 KiB, reporting the mean compressed size on a second pass over the
// receipts, after the Encoder coded every one: a frame depends only on its
// body, so the sizes are those of a new Encoder.
func BenchmarkReceiptZstdBlock(b *testing.B) {
	bodies := receipts(b, 8)
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		b.Fatal(err)
	}
	var e zstdblock.Encoder
	dst := make([]byte, 0, 8<<10)
	total := 0
	for pass := range 2 {
		for _, body := range bodies {
			z := e.AppendFrame(dst[:0], body)
			if got, err := d.DecodeAll(z, nil); err != nil || !bytes.Equal(got, body) {
				b.Fatalf("does not decode to the receipt: %v", err)
			}
			if pass == 1 {
				total += len(z)
			}
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		e.AppendFrame(dst[:0], bodies[i%len(bodies)])
	}
	b.ReportMetric(float64(total)/float64(len(bodies)), "out-bytes")
}

// gzpoolBody is the 3.2 KB JSON body benchmarks/gzpool judges the
// middlewares on (its jsonBody(3200)), rebuilt here so that the encoders
// can be compared on it alone.
func gzpoolBody() []byte {
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

// BenchmarkGzpoolBodyZstd compresses gzpoolBody with klauspost's
// EncodeAll at httpcompress's settings and with zstdblock, reporting the
// compressed size.
func BenchmarkGzpoolBodyZstd(b *testing.B) {
	body := gzpoolBody()
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		b.Fatal(err)
	}
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1),
		zstd.WithWindowSize(256<<10), zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true))
	if err != nil {
		b.Fatal(err)
	}
	var zb zstdblock.Encoder
	for _, enc := range []struct {
		name     string
		compress func(dst []byte) []byte
	}{
		{"klauspost", func(dst []byte) []byte { return e.EncodeAll(body, dst) }},
		{"zstdblock", func(dst []byte) []byte { return zb.AppendFrame(dst, body) }},
	} {
		b.Run("enc="+enc.name, func(b *testing.B) {
			dst := make([]byte, 0, 8<<10)
			enc.compress(dst)
			z := enc.compress(dst)
			if got, err := d.DecodeAll(z, nil); err != nil || !bytes.Equal(got, body) {
				b.Fatalf("does not decode to the body: %v", err)
			}
			b.ReportAllocs()
			for b.Loop() {
				enc.compress(dst)
			}
			b.ReportMetric(float64(len(z)), "out-bytes")
		})
	}
}
