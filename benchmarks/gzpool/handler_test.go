package gzpool

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/NYTimes/gziphandler"
	"github.com/klauspost/compress/gzhttp"
	kpgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/httpcompress"
	"github.com/poolkit/poolkit/internal/respsink"
)

// jsonBody returns a JSON array of records, about n bytes long.
func jsonBody(n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := 0; b.Len() < n-2; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":%d,"name":"user-%d","email":"user%d@example.com","active":%t,"score":%d.%02d}`,
			i, i, i*7919%10007, i%3 == 0, i*37%1000, i%100)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// discardWriter is a ResponseWriter that counts the body and keeps its
// header map between requests, so the benchmark measures the middleware;
// it is an http.Flusher, as net/http's own writer is.
type discardWriter struct{ respsink.Writer }

func (d *discardWriter) Flush() {}

type middleware struct {
	name string
	wrap func(http.Handler) http.Handler
}

// middlewares are compared at their defaults: httpcompress and gzhttp
// answer a browser's Accept-Encoding with zstd, gziphandler with gzip. The
// last two add BREACH padding, each its own way.
var middlewares = []middleware{
	{"none", func(h http.Handler) http.Handler { return h }},
	{"httpcompress", func(h http.Handler) http.Handler { return httpcompress.Handler(h) }},
	{"gzhttp", func(h http.Handler) http.Handler { return gzhttp.GzipHandler(h) }},
	{"gziphandler", gziphandler.GzipHandler},
	// With BREACH padding of up to 32 bytes: what it costs each.
	{"httpcompress-pad32", func(h http.Handler) http.Handler {
		return httpcompress.Handler(h, httpcompress.WithPadding(32))
	}},
	{"gzhttp-jitter32", func(h http.Handler) http.Handler {
		wrap, err := gzhttp.NewWrapper(gzhttp.RandomJitter(32, 0, false))
		if err != nil {
			panic(err)
		}
		return wrap(h)
	}},
}

// browserAE is the Accept-Encoding of today's browsers (Chrome and Edge
// 123+, Firefox 126+); gzipAE that of a gzip-only client.
const (
	browserAE = "gzip, deflate, br, zstd"
	gzipAE    = "gzip"
)

// acceptEncodings are the request headers the benchmarks send.
var acceptEncodings = []struct{ name, value string }{{"browser", browserAE}, {"gzip", gzipAE}}

func bodyHandler(body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if _, err := w.Write(body); err != nil {
			panic(err)
		}
	})
}

// bodySizes: 3.2 KB is the JSON body the middleware comparison is judged
// on; 128 KiB a large one.
var bodySizes = []struct {
	name string
	n    int
}{{"3.2KB", 3200}, {"128KiB", 128 << 10}}

// TestMiddlewaresCompress checks that every middleware compresses the
// bodies the benchmarks send, with the coding expected for each header,
// and that they decode to the original with klauspost's decoders.
func TestMiddlewaresCompress(t *testing.T) {
	for _, size := range bodySizes {
		body := jsonBody(size.n)
		for _, m := range middlewares[1:] {
			for _, ae := range acceptEncodings {
				rec := httptest.NewRecorder()
				req := httptest.NewRequest("GET", "/", nil)
				req.Header.Set("Accept-Encoding", ae.value)
				m.wrap(bodyHandler(body)).ServeHTTP(rec, req)
				want := "gzip"
				if ae.value == browserAE && m.name != "gziphandler" {
					want = "zstd"
				}
				ce := rec.Header().Get("Content-Encoding")
				if ce != want {
					t.Fatalf("%s %s %s: Content-Encoding %q, want %q", m.name, size.name, ae.name, ce, want)
				}
				got, err := decode(ce, rec.Body.Bytes())
				if err != nil || !bytes.Equal(got, body) {
					t.Fatalf("%s %s %s: body differs (err %v)", m.name, size.name, ae.name, err)
				}
			}
		}
	}
}

// decode decodes body in the coding ce.
func decode(ce string, body []byte) ([]byte, error) {
	if ce == "zstd" {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		defer d.Close()
		return d.DecodeAll(body, nil)
	}
	zr, err := kpgzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// BenchmarkHandler runs each middleware over one handler writing a JSON
// body in one piece, serially. The ratio the middleware is judged on is
// httpcompress's sec/op and out-bytes over gzhttp's, same body, same
// header, same run: see bench.sh.
func BenchmarkHandler(b *testing.B) {
	for _, size := range bodySizes {
		body := jsonBody(size.n)
		for _, ae := range acceptEncodings {
			for _, m := range middlewares {
				b.Run("body="+size.name+"/ae="+ae.name+"/impl="+m.name, func(b *testing.B) {
					h := m.wrap(bodyHandler(body))
					req := httptest.NewRequest("GET", "/", nil)
					req.Header.Set("Accept-Encoding", ae.value)
					w := new(discardWriter)
					b.ReportAllocs()
					b.SetBytes(int64(len(body)))
					for b.Loop() {
						w.Reset()
						h.ServeHTTP(w, req)
					}
					if w.N == 0 {
						b.Fatal("no body written")
					}
					b.ReportMetric(float64(w.N), "out-bytes")
				})
			}
		}
	}
}

func BenchmarkHandlerParallel(b *testing.B) {
	for _, size := range bodySizes {
		body := jsonBody(size.n)
		for _, m := range middlewares {
			b.Run("body="+size.name+"/ae=browser/impl="+m.name, func(b *testing.B) {
				h := m.wrap(bodyHandler(body))
				b.ReportAllocs()
				b.SetBytes(int64(len(body)))
				b.RunParallel(func(pb *testing.PB) {
					req := httptest.NewRequest("GET", "/", nil)
					req.Header.Set("Accept-Encoding", browserAE)
					w := new(discardWriter)
					ran := false
					for pb.Next() {
						w.Reset()
						h.ServeHTTP(w, req)
						ran = true
					}
					if ran && w.N == 0 {
						b.Error("no body written")
					}
				})
			})
		}
	}
}
