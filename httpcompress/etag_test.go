package httpcompress

import (
	"bytes"
	"net/http"
	"testing"
	"time"
)

// TestServerHandlerOwnETag checks conditional requests for a handler that
// serves its own compressed copies under its own entity tags, as Apache's
// mod_deflate tags them ("asset-gzip"): Handler passes those responses
// through, and a client revalidating one must reach the handler with the
// tag it was given, and get a 304 carrying that tag back. Handler's own
// tags are weak and name the coding after the handler's tag, so a strong
// tag, or a weak one the client did not get from Handler, is the
// handler's.
func TestServerHandlerOwnETag(t *testing.T) {
	asset := bytes.Repeat([]byte("precompressed asset "), 100)
	for _, tc := range []struct{ ce, etag string }{
		{"gzip", `"asset-gzip"`},
		{"zstd", `"asset-zstd"`},
		{"gzip", `W/"asset-gzip"`},
		{"zstd", `W/"asset-zstd"`},
	} {
		var sawINM string
		srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sawINM = r.Header.Get("If-None-Match")
			w.Header().Set("Content-Encoding", tc.ce) // the asset's own coding
			w.Header().Set("ETag", tc.etag)
			// ServeContent answers If-None-Match against the ETag set.
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(asset))
		})))
		res, body := get(t, rawClient(), srv.URL, tc.ce)
		if res.StatusCode != 200 || res.Header.Get("Etag") != tc.etag || !bytes.Equal(body, asset) {
			t.Fatalf("%s: first response %d with ETag %s, %d bytes", tc.etag, res.StatusCode, res.Header.Get("Etag"), len(body))
		}
		req, err := http.NewRequest("GET", srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept-Encoding", tc.ce)
		req.Header.Set("If-None-Match", tc.etag)
		res, err = rawClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotModified || res.Header.Get("Etag") != tc.etag {
			t.Errorf("revalidating %s: status %d, ETag %s; the handler saw If-None-Match %s", tc.etag, res.StatusCode, res.Header.Get("Etag"), sawINM)
		}
	}
}

// TestAdaptRequestETags checks what If-None-Match the handler sees: weak
// tags in Handler's form followed by the handler's own tag, anything else
// as the client sent it.
func TestAdaptRequestETags(t *testing.T) {
	for _, tc := range []struct {
		inm, want string
		held      coding
	}{
		{`"asset-gzip"`, `"asset-gzip"`, identity},
		{`"asset-zstd", "v2"`, `"asset-zstd", "v2"`, identity},
		{`W/"v1-gzip"`, `W/"v1-gzip", W/"v1"`, codingGzip},
		{`"a-zstd", W/"v1-zstd"`, `"a-zstd", W/"v1-zstd", W/"v1"`, codingZstd},
		{`W/"-gzip"`, `W/"-gzip", W/""`, codingGzip},
		{`*`, `*`, identity},
		{`W/"x,y-gzip", *`, `W/"x,y-gzip", W/"x,y", *`, codingGzip},
	} {
		r, err := http.NewRequest("GET", "/", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Header.Set("If-None-Match", tc.inm)
		got, held := adaptRequest(r)
		if inm := got.Header.Get("If-None-Match"); inm != tc.want || held != tc.held {
			t.Errorf("If-None-Match %s: handler sees %s, coding %v; want %s, %v", tc.inm, inm, held, tc.want, tc.held)
		}
		if r.Header.Get("If-None-Match") != tc.inm {
			t.Errorf("If-None-Match %s: the caller's request was modified", tc.inm)
		}
	}
}
