package httpcompress

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

func TestWithContentTypes(t *testing.T) {
	ctHandler := func(opts ...Option) http.Handler {
		return Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ct := r.URL.Query().Get("ct"); ct != "" {
				w.Header().Set("Content-Type", ct)
			}
			io.WriteString(w, bigBody)
		}), opts...)
	}
	only := ctHandler(WithContentTypes("application/JSON", "text/*"))
	byDefault := ctHandler()
	for _, tc := range []struct {
		ct           string
		only, byDflt bool // compressed with the list, and without it
	}{
		{"application/json", true, true},
		{"application/json; charset=utf-8", true, true},
		{" Application/Json ;charset=utf-8", true, true},
		{"application/json-seq", false, true},
		{"application/problem+json", false, true},
		{"text/html; charset=utf-8", true, true},
		{"TEXT/csv", true, true},
		{"image/svg+xml", false, true},
		{"image/png", false, false},
		{"application/zip", false, false},
		{"json", false, true},
		{"", true, true}, // sniffed: text/plain; charset=utf-8
	} {
		for _, c := range []struct {
			h    http.Handler
			want bool
		}{{only, tc.only}, {byDefault, tc.byDflt}} {
			req := "/?ct=" + url.QueryEscape(tc.ct)
			rec := serveURL(c.h, req, "gzip")
			got := rec.Header().Get("Content-Encoding") == "gzip"
			if got != c.want {
				t.Errorf("Content-Type %q, list %v: compressed %v, want %v", tc.ct, c.h == only, got, c.want)
			}
			if body := decodeBody(t, rec.Header().Get("Content-Encoding"), rec.Body.Bytes()); string(body) != bigBody {
				t.Errorf("Content-Type %q: body changed", tc.ct)
			}
		}
	}
	// The list also judges a sniffed type.
	htmlOnly := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!DOCTYPE html>"+bigBody)
	}), WithContentTypes("text/html"))
	if rec := serveURL(htmlOnly, "/", "gzip"); rec.Header().Get("Content-Encoding") != "gzip" ||
		!strings.HasPrefix(rec.Header().Get("Content-Type"), "text/html") {
		t.Errorf("sniffed HTML: Content-Type %q, Content-Encoding %q", rec.Header().Get("Content-Type"), rec.Header().Get("Content-Encoding"))
	}
	jsonOnly := ctHandler(WithContentTypes("application/json"))
	if rec := serveURL(jsonOnly, "/", "gzip"); rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("sniffed text/plain against application/json: compressed")
	}
}

func TestWithContentTypesInvalid(t *testing.T) {
	for _, bad := range []string{"", "json", "*/*", "*/json", "text/", "text/html; charset=utf-8", "a/b/c"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("WithContentTypes(%q) did not panic", bad)
				}
			}()
			Handler(http.NotFoundHandler(), WithContentTypes(bad))
		}()
	}
}

func TestWithContentTypeFilter(t *testing.T) {
	var seen []string
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", r.URL.Query().Get("ct"))
		io.WriteString(w, bigBody)
	}), WithContentTypes("text/plain"), WithContentTypeFilter(func(ct string) bool {
		seen = append(seen, ct)
		return strings.HasPrefix(ct, "image/")
	}))
	if rec := serveURL(h, "/?ct=image/png", "zstd"); rec.Header().Get("Content-Encoding") != "zstd" {
		t.Error("the filter's image/png was not compressed")
	}
	if rec := serveURL(h, "/?ct=text/plain", "zstd"); rec.Header().Get("Content-Encoding") != "" {
		t.Error("text/plain was compressed: the earlier WithContentTypes still counts")
	}
	if strings.Join(seen, ",") != "image/png,text/plain" {
		t.Errorf("the filter saw %q", seen)
	}
	// A nil filter, or an empty list, restores the default list.
	for _, reset := range []Option{WithContentTypeFilter(nil), WithContentTypes()} {
		h = Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", r.URL.Query().Get("ct"))
			io.WriteString(w, bigBody)
		}), WithContentTypeFilter(func(string) bool { return true }), reset)
		if rec := serveURL(h, "/?ct=image/png", "zstd"); rec.Header().Get("Content-Encoding") != "" {
			t.Error("image/png compressed after a reset to the default list")
		}
		if rec := serveURL(h, "/?ct=text/html", "zstd"); rec.Header().Get("Content-Encoding") != "zstd" {
			t.Error("text/html not compressed after a reset to the default list")
		}
	}
}

// serveURL runs h for a GET of target with Accept-Encoding ae.
func serveURL(h http.Handler, target, ae string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("GET", target, nil)
	req.Header.Set("Accept-Encoding", ae)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}
