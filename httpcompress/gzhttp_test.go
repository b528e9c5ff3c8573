package httpcompress

import (
	"bytes"
	stdgzip "compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/gzhttp"

	"github.com/poolkit/poolkit/internal/systool"
)

// A diffCase is a handler both middlewares serve, and the request sent.
type diffCase struct {
	name    string
	method  string
	header  map[string]string // request fields besides Accept-Encoding
	h       http.HandlerFunc
	revalid bool // then send the response's ETag back in If-None-Match
	// ownCoding: the handler compresses the body itself.
	ownCoding bool
	// aes lists the Accept-Encoding values to send; nil for all.
	aes []string
	// varyLost: gzhttp loses Accept-Encoding from Vary on a request
	// without a coding, when the handler sets Vary (it adds its own
	// before the handler runs).
	varyLost bool
	// noTypeCheck lists the Accept-Encoding values for which the
	// Content-Type differs by design (see TestServerDiffGzhttp).
	noTypeCheck []string
}

// diffResponse is what the comparison looks at: a response normalised
// for the differences the package documentation states.
type diffResponse struct {
	status   int
	header   http.Header
	body     string // decoded
	trailer  http.Header
	early    []string // 1xx statuses and their Link fields
	rawCE    string
	proto    string
	rawETags []string
}

// diffHandlers are the handlers the two middlewares are compared on.
func diffHandlers() []diffCase {
	html := strings.Repeat("<p>differential</p>\n", 100) // 2 KiB
	page := "<!DOCTYPE html>" + html
	file := []byte(strings.Repeat(bigBody, 4))
	png := "\x89PNG\r\n\x1a\n" + html
	serveFile := func(etag string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			if etag != "" {
				w.Header().Set("ETag", etag)
			}
			w.Header().Set("Content-Type", "application/json")
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(file))
		}
	}
	return []diffCase{
		{name: "JSON", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, bigBody)
		}},
		{name: "sniffed HTML", h: func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, page) }},
		{name: "sniffed PNG", h: func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, png) }},
		{name: "video set first", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "video/mp4")
			w.WriteHeader(200)
			io.WriteString(w, html)
		}},
		// gzhttp on a request without a coding passes WriteHeader on
		// at once, so net/http drops the later type and sniffs.
		{name: "video set after WriteHeader", noTypeCheck: []string{""}, h: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.Header().Set("Content-Type", "video/mp4")
			io.WriteString(w, html)
		}},
		{name: "JSON set after WriteHeader", noTypeCheck: []string{""}, h: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, bigBody)
		}},
		// gzhttp's Flush sends nothing before the first bytes, then
		// sniffs them; net/http, and Handler, send the header at the
		// Flush, with no type.
		{name: "Flush before the body", noTypeCheck: []string{"gzip", "zstd", "gzip, deflate, br, zstd"}, h: func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(200)
			w.(http.Flusher).Flush()
			io.WriteString(w, page)
		}},
		{name: "event stream", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			rc := http.NewResponseController(w)
			if err := rc.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
				http.Error(w, "SetWriteDeadline: "+err.Error(), 500)
				return
			}
			for i := range 20 {
				fmt.Fprintf(w, "data: event %d %s\n\n", i, strings.Repeat("x", i*40))
				if err := rc.Flush(); err != nil {
					panic(err)
				}
			}
		}},
		{name: "many small writes", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			for i := range 500 {
				fmt.Fprintf(w, "line %d\n", i)
			}
		}},
		{name: "small body", h: func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "short") }},
		{name: "just under the minimum", h: func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, html[:DefaultMinSize-1]) }},
		{name: "the minimum", h: func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, html[:DefaultMinSize]) }},
		{name: "empty body", h: func(w http.ResponseWriter, r *http.Request) {}},
		{name: "WriteHeader(201), no body", h: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(201) }},
		{name: "404 page", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(404)
			io.WriteString(w, html)
		}},
		{name: "204", h: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }},
		{name: "Content-Length of the handler's", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", fmt.Sprint(len(html)))
			io.WriteString(w, html)
		}},
		{name: "small Content-Length", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Length", "100")
			io.WriteString(w, html[:100])
		}},
		{name: "Content-Encoding of the handler's", ownCoding: true, h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("ETag", `"asset-gzip"`)
			io.WriteString(w, gzipOf(html))
		}},
		{name: "Vary Accept-Encoding of the handler's", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Add("Vary", "Accept-Encoding")
			io.WriteString(w, page)
		}},
		{name: "Vary Origin of the handler's", varyLost: true, h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Vary", "Origin")
			io.WriteString(w, page)
		}},
		{name: "strong ETag, revalidated", revalid: true, h: serveFile(`"v1"`)},
		{name: "weak ETag, revalidated", revalid: true, h: serveFile(`W/"v1"`)},
		{name: "own compressed asset, revalidated", revalid: true, ownCoding: true, h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", "gzip")
			w.Header().Set("ETag", `"asset-gzip"`)
			http.ServeContent(w, r, "", time.Time{}, strings.NewReader(gzipOf(html)))
		}},
		{name: "HEAD", method: "HEAD", h: serveFile(`"v1"`)},
		{name: "Range without a coding", aes: []string{""}, header: map[string]string{"Range": "bytes=10-99"}, h: serveFile(`"v1"`)},
		{name: "103 Early Hints", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Link", "</style.css>; rel=preload; as=style")
			w.WriteHeader(http.StatusEarlyHints)
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, html)
		}},
		{name: "trailer", h: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Trailer", "X-Lines")
			w.Header().Set("Content-Type", "text/plain")
			io.WriteString(w, html)
			w.Header().Set("X-Lines", "100")
		}},
		{name: "hijack", h: func(w http.ResponseWriter, r *http.Request) {
			conn, brw, err := http.NewResponseController(w).Hijack()
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			defer conn.Close()
			fmt.Fprintf(brw, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(html), html)
			brw.Flush()
		}},
	}
}

// gzipOf returns s compressed with gzip, as a handler's own asset.
func gzipOf(s string) string {
	return string(mustGzip([]byte(s)))
}

// TestServerDiffGzhttp runs each of diffHandlers behind Handler and behind
// gzhttp (klauspost/compress/gzhttp at its defaults), over real HTTP on
// loopback, HTTP/1.1 in the clear and HTTP/2 over TLS (where neither can
// hijack), for each kind of Accept-Encoding, and compares status,
// header, trailers, 1xx responses and decoded body.
//
// The comparison allows the differences the package documentation
// states: Handler tags the entity tags of compressed responses (W/"v1-gzip"),
// gzhttp keeps the handler's; gzhttp repeats Accept-Encoding in Vary when
// the handler names it too, and adds Vary before an informational
// response, and loses it on a request without a coding when the handler
// sets Vary; gzhttp's zstd responses can carry a trailer's value in the
// header; the two compressors' lengths differ; on a request without a
// coding gzhttp, like net/http, sends the header as it was at WriteHeader,
// where Handler takes it when the response starts; and gzhttp's Flush
// sends nothing before the body's first bytes. Ranges with a coding
// differ too (Handler answers with the whole body, compressed; gzhttp with
// the range, uncompressed) and are tested in TestHandlerRangeHeaders.
func TestServerDiffGzhttp(t *testing.T) {
	// The same list of types compressed, so that the lists do not
	// differ (gzhttp compresses PNG).
	wrap, err := gzhttp.NewWrapper(gzhttp.ContentTypeFilter(compressibleType))
	if err != nil {
		t.Fatal(err)
	}
	for _, proto := range []string{"HTTP/1.1", "HTTP/2.0"} {
		for _, dc := range diffHandlers() {
			ours, c := newProtoServer(t, proto, Handler(dc.h))
			theirs, _ := newProtoServer(t, proto, wrap(dc.h))
			diffCompare(t, proto, dc, c, ours.URL, theirs.URL)
		}
	}
}

// newProtoServer starts a server on loopback speaking proto, HTTP/1.1 in
// the clear or HTTP/2 over TLS, and returns it with a client for it that
// neither asks for nor decodes a coding by itself.
func newProtoServer(t *testing.T, proto string, h http.Handler) (*httptest.Server, *http.Client) {
	t.Helper()
	if proto == "HTTP/1.1" {
		return newServer(t, h), rawClient()
	}
	srv := httptest.NewUnstartedServer(h)
	srv.EnableHTTP2 = true
	srv.StartTLS()
	t.Cleanup(srv.Close)
	c := srv.Client()
	c.Transport.(*http.Transport).DisableCompression = true
	return srv, c
}

// diffCompare compares the responses of the servers at ours and theirs
// to dc's requests.
func diffCompare(t *testing.T, proto string, dc diffCase, c *http.Client, ours, theirs string) {
	t.Helper()
	{
		aes := dc.aes
		if aes == nil {
			aes = []string{"", "gzip", "zstd", "gzip, deflate, br, zstd"}
		}
		for _, ae := range aes {
			got := diffFetch(t, c, ours, dc, ae)
			want := diffFetch(t, c, theirs, dc, ae)
			if got.proto != proto || want.proto != proto {
				t.Fatalf("%s: responses in %s and %s", proto, got.proto, want.proto)
			}
			if slices.Contains(dc.noTypeCheck, ae) {
				got.header.Del("Content-Type")
				want.header.Del("Content-Type")
			}
			if dc.varyLost && ae == "" {
				if vary := got.header.Get("Vary"); !strings.Contains(vary, "Accept-Encoding") {
					t.Errorf("%s, no Accept-Encoding: Vary %q", dc.name, vary)
				}
				got.header.Del("Vary")
				want.header.Del("Vary")
			}
			// gzhttp's zstd writer sends its first bytes, and with
			// them the header, when the handler returns: a trailer's
			// value set by then goes out in the header too.
			for k := range want.trailer {
				want.header.Del(k)
			}
			if d := diffResponses(got, want); d != "" {
				t.Errorf("%s, %s, Accept-Encoding %q: %s", proto, dc.name, ae, d)
			}
			if got.rawCE != "" && !dc.ownCoding {
				// Handler's own tags are weak and name the coding.
				for _, tag := range got.rawETags {
					if !strings.HasPrefix(tag, "W/") || !strings.HasSuffix(tag, "-"+got.rawCE+`"`) {
						t.Errorf("%s, %s, Accept-Encoding %q: compressed response with ETag %s", proto, dc.name, ae, tag)
					}
				}
			}
		}
	}
}

// diffFetch sends dc's request with Accept-Encoding ae and returns the
// response normalised; for a revalidation case, the second response,
// to a request carrying the first one's ETag in If-None-Match.
func diffFetch(t *testing.T, c *http.Client, url string, dc diffCase, ae string) diffResponse {
	t.Helper()
	r := diffDo(t, c, url, dc, ae, "")
	if dc.revalid {
		if len(r.rawETags) != 1 || r.status != 200 {
			t.Fatalf("%s: first response %d with ETag %q", dc.name, r.status, r.rawETags)
		}
		r = diffDo(t, c, url, dc, ae, r.rawETags[0])
		if r.status != http.StatusNotModified {
			t.Errorf("%s, Accept-Encoding %q: revalidation answered %d", dc.name, ae, r.status)
		}
	}
	return r
}

func diffDo(t *testing.T, c *http.Client, url string, dc diffCase, ae, inm string) diffResponse {
	t.Helper()
	method := dc.method
	if method == "" {
		method = "GET"
	}
	var out diffResponse
	trace := &httptrace.ClientTrace{Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
		out.early = append(out.early, fmt.Sprintf("%d %s", code, h.Get("Link")))
		return nil
	}}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(t.Context(), trace), method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ae != "" {
		req.Header.Set("Accept-Encoding", ae)
	}
	for k, v := range dc.header {
		req.Header.Set(k, v)
	}
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out.proto = res.Proto
	raw, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatalf("%s: reading the body: %v", dc.name, err)
	}
	out.status, out.header, out.trailer = res.StatusCode, res.Header, res.Trailer
	out.rawCE = res.Header.Get("Content-Encoding")
	out.rawETags = res.Header.Values("Etag")
	body := raw
	if out.rawCE != "" && !dc.ownCoding {
		if body, err = tryDecode(out.rawCE, raw); err != nil {
			t.Fatalf("%s, Accept-Encoding %q: body does not decode as %s: %v", dc.name, ae, out.rawCE, err)
		}
	}
	out.body = string(body)
	normaliseHeader(out.header, out.rawCE != "" && !dc.ownCoding)
	return out
}

// normaliseHeader removes what differs by design or by the clock: Date;
// Content-Length of a body the middleware compressed; Vary's repeated
// names; the coding a compressed response's entity tag names, and its
// weakness.
func normaliseHeader(h http.Header, compressed bool) {
	h.Del("Date")
	if compressed {
		h.Del("Content-Length")
	}
	if vary := h.Values("Vary"); len(vary) > 0 {
		var names []string
		for _, v := range vary {
			for f := range strings.SplitSeq(v, ",") {
				f = textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(f))
				if f != "" && !slices.Contains(names, f) {
					names = append(names, f)
				}
			}
		}
		slices.Sort(names)
		h["Vary"] = []string{strings.Join(names, ", ")}
	}
	if compressed || h.Get("Etag") != "" {
		for i, tag := range h.Values("Etag") {
			if compressed || strings.HasPrefix(tag, "W/") {
				tag = strings.TrimPrefix(tag, "W/")
				tag = strings.TrimSuffix(strings.TrimSuffix(tag, `-gzip"`), `-zstd"`)
				if !strings.HasSuffix(tag, `"`) {
					tag += `"`
				}
			}
			h["Etag"][i] = tag
		}
	}
}

// diffResponses describes how got differs from want, or returns "".
func diffResponses(got, want diffResponse) string {
	var d []string
	if got.status != want.status {
		d = append(d, fmt.Sprintf("status %d, gzhttp %d", got.status, want.status))
	}
	if got.rawCE != want.rawCE {
		d = append(d, fmt.Sprintf("Content-Encoding %q, gzhttp %q", got.rawCE, want.rawCE))
	}
	for _, k := range unionKeys(got.header, want.header) {
		if g, w := strings.Join(got.header[k], " | "), strings.Join(want.header[k], " | "); g != w {
			d = append(d, fmt.Sprintf("%s %q, gzhttp %q", k, g, w))
		}
	}
	for _, k := range unionKeys(got.trailer, want.trailer) {
		if g, w := strings.Join(got.trailer[k], " | "), strings.Join(want.trailer[k], " | "); g != w {
			d = append(d, fmt.Sprintf("trailer %s %q, gzhttp %q", k, g, w))
		}
	}
	if g, w := strings.Join(got.early, "; "), strings.Join(want.early, "; "); g != w {
		d = append(d, fmt.Sprintf("1xx %q, gzhttp %q", g, w))
	}
	if got.body != want.body {
		d = append(d, fmt.Sprintf("body of %d bytes %.40q, gzhttp %d bytes %.40q", len(got.body), got.body, len(want.body), want.body))
	}
	return strings.Join(d, "; ")
}

func unionKeys(a, b http.Header) []string {
	var keys []string
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}

// TestServerDiffCurl fetches every differential case with curl
// --compressed, which decodes with its own zlib and libzstd, and checks
// that the body is the one Go's client decoded from Handler.
func TestServerDiffCurl(t *testing.T) {
	curl := systool.Look(t, "curl")
	for _, dc := range diffHandlers() {
		if dc.method == "HEAD" || dc.revalid || dc.ownCoding || dc.name == "hijack" {
			continue
		}
		srv := newServer(t, Handler(dc.h))
		want := diffDo(t, rawClient(), srv.URL, dc, "gzip, deflate, br, zstd", "")
		args := []string{"--silent", "--show-error", "--compressed", "-H", "Accept-Encoding: gzip, deflate, br, zstd"}
		for k, v := range dc.header {
			args = append(args, "-H", k+": "+v)
		}
		out, err := exec.Command(curl, append(args, srv.URL)...).Output()
		if err != nil {
			t.Fatalf("%s: curl: %v", dc.name, err)
		}
		if string(out) != want.body {
			t.Errorf("%s: curl decoded %d bytes %.40q, Go's client %d", dc.name, len(out), out, len(want.body))
		}
	}
}

// mustGzip compresses b with compress/gzip.
func mustGzip(b []byte) []byte {
	var buf bytes.Buffer
	zw := stdgzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}
