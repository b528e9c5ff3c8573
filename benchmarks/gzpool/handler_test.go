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
	"github.com/poolkit/poolkit/gzpool"
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
// header map between requests, so the benchmark measures the middleware.
type discardWriter struct {
	h      http.Header
	status int
	n      int
}

func (d *discardWriter) Header() http.Header { return d.h }
func (d *discardWriter) WriteHeader(code int) {
	if d.status == 0 {
		d.status = code
	}
}

func (d *discardWriter) Write(p []byte) (int, error) {
	if d.status == 0 {
		d.status = http.StatusOK
	}
	d.n += len(p)
	return len(p), nil
}

func (d *discardWriter) Flush() {}

func (d *discardWriter) reset() {
	clear(d.h)
	d.status, d.n = 0, 0
}

type middleware struct {
	name string
	wrap func(http.Handler) http.Handler
}

var middlewares = []middleware{
	{"none", func(h http.Handler) http.Handler { return h }},
	{"gzpool", func(h http.Handler) http.Handler { return gzpool.Handler(h) }},
	{"gzhttp", func(h http.Handler) http.Handler { return gzhttp.GzipHandler(h) }},
	{"gziphandler", gziphandler.GzipHandler},
}

func bodyHandler(body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if _, err := w.Write(body); err != nil {
			panic(err)
		}
	})
}

var bodySizes = []struct {
	name string
	n    int
}{{"4KiB", 4 << 10}, {"128KiB", 128 << 10}}

// TestMiddlewaresCompress checks that every middleware gzips the bodies
// the benchmarks send and that they decode to the original.
func TestMiddlewaresCompress(t *testing.T) {
	for _, size := range bodySizes {
		body := jsonBody(size.n)
		for _, m := range middlewares[1:] {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("GET", "/", nil)
			req.Header.Set("Accept-Encoding", "gzip")
			m.wrap(bodyHandler(body)).ServeHTTP(rec, req)
			if ce := rec.Header().Get("Content-Encoding"); ce != "gzip" {
				t.Fatalf("%s %s: Content-Encoding %q", m.name, size.name, ce)
			}
			zr, err := kpgzip.NewReader(rec.Body)
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(got, body) {
				t.Fatalf("%s %s: body differs (err %v)", m.name, size.name, err)
			}
		}
	}
}

func BenchmarkHandler(b *testing.B) {
	for _, size := range bodySizes {
		body := jsonBody(size.n)
		for _, m := range middlewares {
			b.Run("body="+size.name+"/impl="+m.name, func(b *testing.B) {
				h := m.wrap(bodyHandler(body))
				req := httptest.NewRequest("GET", "/", nil)
				req.Header.Set("Accept-Encoding", "gzip, deflate, br")
				w := &discardWriter{h: make(http.Header)}
				b.ReportAllocs()
				b.SetBytes(int64(len(body)))
				for b.Loop() {
					w.reset()
					h.ServeHTTP(w, req)
				}
				if w.n == 0 {
					b.Fatal("no body written")
				}
				b.ReportMetric(float64(w.n), "out-bytes")
			})
		}
	}
}

func BenchmarkHandlerParallel(b *testing.B) {
	for _, size := range bodySizes {
		body := jsonBody(size.n)
		for _, m := range middlewares {
			b.Run("body="+size.name+"/impl="+m.name, func(b *testing.B) {
				h := m.wrap(bodyHandler(body))
				b.ReportAllocs()
				b.SetBytes(int64(len(body)))
				b.RunParallel(func(pb *testing.PB) {
					req := httptest.NewRequest("GET", "/", nil)
					req.Header.Set("Accept-Encoding", "gzip, deflate, br")
					w := &discardWriter{h: make(http.Header)}
					ran := false
					for pb.Next() {
						w.reset()
						h.ServeHTTP(w, req)
						ran = true
					}
					if ran && w.n == 0 {
						b.Error("no body written")
					}
				})
			})
		}
	}
}
