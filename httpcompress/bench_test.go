package httpcompress

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/poolkit/poolkit/internal/respsink"
)

// benchWriter is a ResponseWriter that counts the body and keeps its
// header map between requests, and is an http.Flusher, as net/http's own
// writer is.
type benchWriter struct{ respsink.Writer }

func (*benchWriter) Flush() {}

// BenchmarkHandler serves a handler writing a JSON body in one piece
// through Handler, serially, for each request kind: a coding, none
// (identity), and HEAD.
func BenchmarkHandler(b *testing.B) {
	for _, size := range []struct {
		name string
		body []byte
	}{{"100B", []byte(bigBody[:100])}, {"5200B", []byte(bigBody)}} {
		h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write(size.body)
		}))
		for _, rq := range []struct{ name, method, ae string }{
			{"identity", "GET", ""}, {"gzip", "GET", "gzip"}, {"zstd", "GET", "zstd"}, {"HEAD", "HEAD", "gzip"},
		} {
			b.Run("body="+size.name+"/req="+rq.name, func(b *testing.B) {
				req := httptest.NewRequest(rq.method, "/", nil)
				if rq.ae != "" {
					req.Header.Set("Accept-Encoding", rq.ae)
				}
				w := new(benchWriter)
				b.ReportAllocs()
				b.SetBytes(int64(len(size.body)))
				for b.Loop() {
					w.Reset()
					h.ServeHTTP(w, req)
				}
				if w.N == 0 {
					b.Fatal("no body written")
				}
			})
		}
	}
}
