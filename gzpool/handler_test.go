package gzpool_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/poolkit/poolkit/gzpool"
)

// TestHandlerForwards checks that the deprecated Handler is
// httpcompress.Handler: zstd for a browser's Accept-Encoding, gzip at the
// level WithLevel sets for gzip alone, and small bodies per WithMinSize.
func TestHandlerForwards(t *testing.T) {
	body := strings.Repeat(`{"id":1,"name":"gopher"},`, 100)
	for _, tc := range []struct {
		ae, want string
		opts     []gzpool.Option
	}{
		{"gzip, deflate, br, zstd", "zstd", nil},
		{"gzip", "gzip", []gzpool.Option{gzpool.WithLevel(gzpool.BestSpeed)}},
		{"gzip", "", []gzpool.Option{gzpool.WithMinSize(1 << 20)}},
	} {
		h := gzpool.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, body)
		}), tc.opts...)
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Encoding", tc.ae)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if got := rec.Header().Get("Content-Encoding"); got != tc.want {
			t.Errorf("%q: Content-Encoding %q, want %q", tc.ae, got, tc.want)
		}
		if tc.want == "gzip" {
			out, err := gzpool.AppendDecompress(nil, rec.Body.Bytes(), 1<<20)
			if err != nil || string(out) != body {
				t.Errorf("gzip body: %v", err)
			}
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("WithLevel(42) did not panic")
		}
	}()
	gzpool.Handler(http.NotFoundHandler(), gzpool.WithLevel(42))
}
