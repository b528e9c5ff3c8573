package httpcompress

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// fetch sends one request with the given method and Accept-Encoding to
// url and returns the response with its body decoded by the coding it
// names, or fails the test if the body does not decode.
func fetch(t *testing.T, method, url, ae string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ae != "" {
		req.Header.Set("Accept-Encoding", ae)
	}
	res, err := rawClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ce := res.Header.Get("Content-Encoding"); ce != "" {
		got, err := tryDecode(ce, body)
		if err != nil {
			t.Fatalf("body does not decode as its Content-Encoding %q says: %v", ce, err)
		}
		body = got
	}
	return res, body
}

// TestServerLateHeaders checks that the header that goes out and the
// decision to compress come from the same moment: a field set after
// WriteHeader but before the response starts counts for both, and one
// changed after it starts counts for neither, whatever the coding and
// whichever way the body is held.
func TestServerLateHeaders(t *testing.T) {
	body := strings.Repeat("<p>late headers</p>\n", 100) // 2 KiB
	for _, tc := range []struct {
		name   string
		opts   []Option
		h      http.HandlerFunc
		wantCE bool   // compressed
		wantCT string // the Content-Type sent; "-" for none
	}{
		{"type excluded after WriteHeader", nil, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.Header().Set("Content-Type", "video/mp4")
			io.WriteString(w, body)
		}, false, "video/mp4"},
		{"type not listed after WriteHeader", []Option{WithContentTypes("application/json")}, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.Header().Set("Content-Type", "text/xml")
			io.WriteString(w, body)
		}, false, "text/xml"},
		{"type listed after WriteHeader", []Option{WithContentTypes("application/json")}, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, body)
		}, true, "application/json"},
		{"type excluded between small writes", nil, func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, body[:100])
			w.Header().Set("Content-Type", "video/mp4")
			io.WriteString(w, body[100:])
		}, false, "video/mp4"},
		{"Content-Encoding after WriteHeader", nil, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.Header().Set("Content-Encoding", "identity")
			io.WriteString(w, body)
		}, false, "-"}, // net/http sniffs no type when Content-Encoding is set
		// After the response started compressed, the handler's changes
		// are not sent: the header still describes the body.
		{"Content-Encoding removed after start", nil, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, body)
			w.Header().Del("Content-Encoding")
			w.Header().Set("Content-Type", "video/mp4")
			io.WriteString(w, body)
		}, true, "text/html"},
		{"Content-Length after start", nil, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, body)
			w.Header().Set("Content-Length", "4000")
			io.WriteString(w, body[:1960])
		}, true, "text/html"},
		// net/http sniffs no type for a response started with no body,
		// and neither does Handler.
		{"Flush before the body", nil, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			io.WriteString(w, "<!DOCTYPE html>"+body)
		}, true, "-"},
	} {
		srv := newServer(t, Handler(tc.h, tc.opts...))
		for _, ae := range []string{"gzip", "zstd"} {
			res, got := fetch(t, "GET", srv.URL, ae)
			ct := "-"
			if v, ok := res.Header["Content-Type"]; ok {
				ct = strings.Join(v, ", ")
			}
			ce := res.Header.Get("Content-Encoding")
			if ce == "identity" {
				ce = ""
			}
			if (ce != "") != tc.wantCE || ct != tc.wantCT {
				t.Errorf("%s, %s: Content-Encoding %q, Content-Type %s; want compressed %v, %s", tc.name, ae, ce, ct, tc.wantCE, tc.wantCT)
			}
			want := tc.name
			if len(got) < len(body) || !strings.Contains(string(got), "late headers") {
				t.Errorf("%s, %s: body of %d bytes: %.60q", want, ae, len(got), got)
			}
		}
	}
}

// TestServerFlushSniffsLikeNetHTTP compares, for a handler that flushes
// before it writes, the Content-Type net/http alone sends with the one
// sent behind Handler, for each coding.
func TestServerFlushSniffsLikeNetHTTP(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		io.WriteString(w, "<!DOCTYPE html><html>"+strings.Repeat("<p>hello</p>", 200))
	})
	bare := newServer(t, h)
	want, _ := fetch(t, "GET", bare.URL, "gzip")
	srv := newServer(t, Handler(h))
	for _, ae := range []string{"", "gzip", "zstd"} {
		res, _ := fetch(t, "GET", srv.URL, ae)
		if got, w := res.Header["Content-Type"], want.Header["Content-Type"]; strings.Join(got, ",") != strings.Join(w, ",") {
			t.Errorf("Accept-Encoding %q: Content-Type %q, net/http alone %q", ae, got, w)
		}
	}
}

// TestServerVaryOnce checks that a handler's own Vary naming
// Accept-Encoding is not repeated, on compressed and identity responses,
// for GET and HEAD, and that other Vary fields are kept.
func TestServerVaryOnce(t *testing.T) {
	srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, v := range r.URL.Query()["vary"] {
			w.Header().Add("Vary", v)
		}
		io.WriteString(w, bigBody)
	})))
	for _, tc := range []struct{ query, want string }{
		{"vary=Accept-Encoding", "Accept-Encoding"},
		{"vary=accept-encoding", "accept-encoding"},
		{"vary=Origin", "Origin|Accept-Encoding"},
		{"vary=Origin&vary=Accept-Encoding", "Origin|Accept-Encoding"},
		{"vary=Origin,+Accept-Encoding", "Origin, Accept-Encoding"},
		{"vary=*", "*"},
		{"", "Accept-Encoding"},
	} {
		for _, method := range []string{"GET", "HEAD"} {
			for _, ae := range []string{"", "gzip", "zstd", "br"} {
				res, body := fetch(t, method, srv.URL+"/?"+tc.query, ae)
				if got := strings.Join(res.Header["Vary"], "|"); got != tc.want {
					t.Errorf("%s %s, Accept-Encoding %q: Vary %q, want %q", method, tc.query, ae, got, tc.want)
				}
				if method == "GET" && !bytes.Equal(body, []byte(bigBody)) {
					t.Errorf("%s %s, Accept-Encoding %q: body differs", method, tc.query, ae)
				}
			}
		}
	}
}

// TestServerEmptyWriteStartsNothing checks that an empty Write, which
// net/http takes as no body yet, does not start the response: with
// WithMinSize(0) the type is still sniffed from the bytes that follow,
// as net/http sniffs them, rather than from nothing.
func TestServerEmptyWriteStartsNothing(t *testing.T) {
	page := "<!DOCTYPE html><html>" + strings.Repeat("<p>hello</p>", 200)
	for _, name := range []string{"Write", "WriteString"} {
		srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if name == "Write" {
				w.Write(nil)
			} else {
				io.WriteString(w, "")
			}
			io.WriteString(w, page)
		}), WithMinSize(0)))
		for _, ae := range []string{"", "gzip", "zstd"} {
			res, body := fetch(t, "GET", srv.URL, ae)
			if ct := res.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" || string(body) != page {
				t.Errorf("empty %s, Accept-Encoding %q: Content-Type %q, body of %d bytes", name, ae, ct, len(body))
			}
		}
	}
}
