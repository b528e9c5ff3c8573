// Command jsonapi serves go-httpbin's JSON API on loopback, gzipping
// responses for clients that accept it, with net/http/pprof beside it:
// a JSON API built from the go-httpbin library, as a user would write
// it, with the gzip middleware many write by hand.
package main

import (
	"compress/gzip"
	"flag"
	"log"
	"net/http"
	_ "net/http/pprof"
	"strings"

	"github.com/mccutchen/go-httpbin/v2/httpbin"
)

// gzipWriter compresses what the handler writes, starting the gzip
// stream on the first Write.
type gzipWriter struct {
	http.ResponseWriter
	zw          *gzip.Writer
	wroteHeader bool
}

func (g *gzipWriter) WriteHeader(code int) {
	g.Header().Del("Content-Length")
	g.Header().Set("Content-Encoding", "gzip")
	g.wroteHeader = true
	g.ResponseWriter.WriteHeader(code)
}

func (g *gzipWriter) Write(p []byte) (int, error) {
	if !g.wroteHeader {
		g.WriteHeader(http.StatusOK)
	}
	if g.zw == nil {
		g.zw = gzip.NewWriter(g.ResponseWriter)
	}
	return g.zw.Write(p)
}

func gzipped(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") || r.URL.Path == "/gzip" {
			h.ServeHTTP(w, r)
			return
		}
		g := &gzipWriter{ResponseWriter: w}
		h.ServeHTTP(g, r)
		if g.zw != nil {
			g.zw.Close()
		}
	})
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "address")
	flag.Parse()
	mux := http.NewServeMux()
	mux.Handle("/debug/pprof/", http.DefaultServeMux)
	mux.Handle("/", gzipped(httpbin.New().Handler()))
	log.Fatal(http.ListenAndServe(*addr, mux))
}
