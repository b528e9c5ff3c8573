package httpcompress

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// rangeFile is a file of compressible but not trivial text, large enough
// that its gzip encoding is far longer than the part a client reads before
// it is interrupted.
var rangeFile = func() []byte {
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau")
	rng := rand.New(rand.NewPCG(1, 2))
	var b bytes.Buffer
	for b.Len() < 200<<10 {
		fmt.Fprintf(&b, "%s %d ", words[rng.IntN(len(words))], rng.IntN(1000))
		if rng.IntN(12) == 0 {
			b.WriteByte('\n')
		}
	}
	return b.Bytes()
}()

// resumeDownload is a resuming download client, as curl -C or a browser's
// download manager behaves: it reads the first cut bytes of the body and is
// interrupted, then asks for the rest with Range and an If-Range holding
// the validator of the first response (its ETag, else its Last-Modified).
// A 206 is appended to what it has; a 200 replaces it. The result is
// decoded by the Content-Encoding of the response the kept bytes started
// with. It reports the assembled file and the status of the second
// response.
func resumeDownload(t *testing.T, c *http.Client, url string, cut int, firstAE, secondAE string) ([]byte, int) {
	t.Helper()
	do := func(hdr ...string) *http.Response {
		req, err := http.NewRequest("GET", url, nil)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i+1 < len(hdr); i += 2 {
			if hdr[i+1] != "" {
				req.Header.Set(hdr[i], hdr[i+1])
			}
		}
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := do("Accept-Encoding", firstAE)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("first response: status %d", res.StatusCode)
	}
	got := make([]byte, cut)
	if _, err := io.ReadFull(res.Body, got); err != nil {
		t.Fatalf("first response: %v", err)
	}
	res.Body.Close() // interrupted
	encoding := res.Header.Get("Content-Encoding")
	if res.Uncompressed {
		encoding = "" // the Transport decoded it
	}
	validator := res.Header.Get("Etag")
	if validator == "" {
		validator = res.Header.Get("Last-Modified")
	}

	res = do("Accept-Encoding", secondAE, "Range", fmt.Sprintf("bytes=%d-", cut), "If-Range", validator)
	defer res.Body.Close()
	rest, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("second response: %v", err)
	}
	switch res.StatusCode {
	case http.StatusPartialContent:
		if cr := res.Header.Get("Content-Range"); !strings.HasPrefix(cr, fmt.Sprintf("bytes %d-", cut)) {
			t.Fatalf("206 with Content-Range %q", cr)
		}
		got = append(got, rest...)
	case http.StatusOK:
		got = rest
		encoding = res.Header.Get("Content-Encoding")
		if res.Uncompressed {
			encoding = ""
		}
	default:
		t.Fatalf("second response: status %d", res.StatusCode)
	}
	if encoding != "" {
		out, err := tryDecode(encoding, got)
		if err != nil {
			t.Fatalf("assembled %d bytes of %s do not decode: %v", len(got), encoding, err)
		}
		got = out
	}
	return got, res.StatusCode
}

// TestServerResume checks that a download interrupted and resumed with
// Range and If-Range through Handler assembles the original file, for
// clients that accept gzip, clients that do not, and clients that change
// their mind between the two requests, with http.ServeContent validating
// by ETag and by Last-Modified alone (as http.FileServer does).
func TestServerResume(t *testing.T) {
	modtime := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/etag" {
			w.Header().Set("ETag", `"v1"`)
		}
		http.ServeContent(w, r, "file.txt", modtime, bytes.NewReader(rangeFile))
	})))
	const cut = 1000
	for _, tc := range []struct {
		name              string
		client            *http.Client
		firstAE, secondAE string
		want206           bool // the resume must be served as a range
	}{
		{"gzip", rawClient(), "gzip", "gzip", false},
		{"gzip, then identity", rawClient(), "gzip", "", false},
		{"identity", rawClient(), "", "", true},
		{"identity, then gzip", rawClient(), "", "gzip", false},
		// Go's Transport asks for gzip and decodes it when the request
		// has no Range, and asks for identity when it has one.
		{"Go's transport", http.DefaultClient, "", "", false},
	} {
		for _, path := range []string{"/etag", "/last-modified"} {
			if tc.name == "gzip, then identity" && path == "/last-modified" {
				// A date cannot tell the gzip representation from the
				// identity one: see the Handler doc.
				continue
			}
			t.Run(tc.name+path, func(t *testing.T) {
				got, status := resumeDownload(t, tc.client, srv.URL+path, cut, tc.firstAE, tc.secondAE)
				if !bytes.Equal(got, rangeFile) {
					t.Fatalf("assembled %d bytes (resume status %d), want the original %d bytes", len(got), status, len(rangeFile))
				}
				if tc.want206 && status != http.StatusPartialContent {
					t.Errorf("resume answered %d, want 206", status)
				}
			})
		}
	}
}

// TestHandlerRangeHeaders checks the headers of a compressed response to a
// handler that supports ranges, and what the handler sees of a Range
// request from a client that accepts a coding.
func TestHandlerRangeHeaders(t *testing.T) {
	var sawRange, sawIfRange, sawINM string
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawRange, sawIfRange, sawINM = r.Header.Get("Range"), r.Header.Get("If-Range"), r.Header.Get("If-None-Match")
		if r.URL.Query().Get("raw") != "" {
			w.Header()["ETag"] = []string{r.URL.Query().Get("etag")} // keeps its case
		} else {
			w.Header().Set("ETag", r.URL.Query().Get("etag"))
		}
		http.ServeContent(w, r, "file.txt", time.Time{}, bytes.NewReader(rangeFile))
	}))
	for _, ce := range []string{"gzip", "zstd"} {
		for _, tc := range []struct{ etag, raw, want string }{
			{`"v1"`, "", `W/"v1-` + ce + `"`},
			{`W/"v1"`, "", `W/"v1-` + ce + `"`},
			{`"a,b"`, "", `W/"a,b-` + ce + `"`},
			{`"v1"`, "1", `W/"v1-` + ce + `"`},
			{`v1`, "1", ``}, // not an entity tag: dropped
		} {
			req := httptest.NewRequest("GET", "/?raw="+tc.raw+"&etag="+url.QueryEscape(tc.etag), nil)
			req.Header.Set("Accept-Encoding", ce)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			if res.Header.Get("Content-Encoding") != ce {
				t.Fatalf("not compressed with %s", ce)
			}
			key := "Etag"
			if tc.raw != "" {
				key = "ETag"
			}
			if got := strings.Join(res.Header[key], ","); got != tc.want {
				t.Errorf("%s %s compressed with %s: %s, want %s", key, tc.etag, ce, got, tc.want)
			}
			if ar, ok := res.Header["Accept-Ranges"]; ok {
				t.Errorf("compressed response has Accept-Ranges %q", ar)
			}
			// The same request without a coding keeps both.
			req.Header.Del("Accept-Encoding")
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if got := strings.Join(rec.Result().Header[key], ","); got != tc.etag || rec.Result().Header.Get("Accept-Ranges") != "bytes" {
				t.Errorf("identity response: ETag %s, Accept-Ranges %q", got, rec.Result().Header.Get("Accept-Ranges"))
			}
		}

		// A Range request that accepts the coding reaches the handler
		// without Range and If-Range, and gets the whole file,
		// compressed; the caller's request is not modified.
		req := httptest.NewRequest("GET", `/?etag="v1"`, nil)
		req.Header.Set("Accept-Encoding", ce)
		req.Header.Set("Range", "bytes=100-")
		req.Header.Set("If-Range", `"v1"`)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || sawRange != "" || sawIfRange != "" {
			t.Errorf("Range request with %s: status %d, handler saw Range %q If-Range %q", ce, rec.Code, sawRange, sawIfRange)
		}
		if string(decodeBody(t, ce, rec.Body.Bytes())) != string(rangeFile) {
			t.Errorf("Range request with %s: body is not the whole file", ce)
		}
		if req.Header.Get("Range") != "bytes=100-" || req.Header.Get("If-Range") != `"v1"` {
			t.Error("the caller's request was modified")
		}
		// Without a coding, the range is served.
		req.Header.Del("Accept-Encoding")
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusPartialContent || !bytes.Equal(rec.Body.Bytes(), rangeFile[100:]) {
			t.Errorf("Range request without a coding: status %d, %d bytes", rec.Code, rec.Body.Len())
		}

		// A client revalidating its compressed copy sends the tag that
		// copy carried; the handler sees its own tag too, and the 304
		// carries the compressed copy's tag again.
		for _, inm := range []string{`W/"v1-` + ce + `"`, `"x,y", W/"v1-` + ce + `"`} {
			req = httptest.NewRequest("GET", `/?etag="v1"`, nil)
			req.Header.Set("Accept-Encoding", "gzip, zstd")
			req.Header.Set("If-None-Match", inm)
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if want := `W/"v1-` + ce + `"`; rec.Code != http.StatusNotModified || rec.Result().Header.Get("Etag") != want {
				t.Errorf("revalidation of %s: status %d, ETag %s, want 304 with %s", inm, rec.Code, rec.Result().Header.Get("Etag"), want)
			}
			if want := inm + `, W/"v1"`; sawINM != want {
				t.Errorf("revalidation of %s: the handler saw If-None-Match %s, want %s", inm, sawINM, want)
			}
			if req.Header.Get("If-None-Match") != inm {
				t.Error("the caller's request was modified")
			}
		}
		// A client revalidating an identity copy gets the identity tag.
		req = httptest.NewRequest("GET", `/?etag="v1"`, nil)
		req.Header.Set("Accept-Encoding", ce)
		req.Header.Set("If-None-Match", `"v1"`)
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusNotModified || rec.Result().Header.Get("Etag") != `"v1"` {
			t.Errorf("revalidation of the identity copy: status %d, ETag %s", rec.Code, rec.Result().Header.Get("Etag"))
		}
	}
}
