package httpcompress

import (
	"bufio"
	"bytes"
	stdgzip "compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/systool"
)

var bigBody = strings.Repeat(`{"key":"value","n":12345},`, 200) // 5200 bytes

// serve runs h behind Handler for one request and returns the recorded
// response.
func serve(t *testing.T, h http.HandlerFunc, method, acceptEncoding string, opts ...Option) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(method, "/", nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	rec := httptest.NewRecorder()
	Handler(h, opts...).ServeHTTP(rec, req)
	return rec
}

func TestHandlerDecisions(t *testing.T) {
	write := func(body string, hdr ...string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			for i := 0; i+1 < len(hdr); i += 2 {
				w.Header().Set(hdr[i], hdr[i+1])
			}
			io.WriteString(w, body)
		}
	}
	status := func(code int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			io.WriteString(w, body)
		}
	}
	for _, tc := range []struct {
		name     string
		h        http.HandlerFunc
		method   string
		ae       string
		opts     []Option
		want     string // the Content-Encoding expected
		wantCode int
		wantVary bool
		body     string // the body expected after decoding; "" for bigBody
	}{
		{"big body", write(bigBody), "GET", "gzip", nil, "gzip", 200, true, ""},
		{"no Accept-Encoding", write(bigBody), "GET", "", nil, "", 200, true, ""},
		{"gzip;q=0", write(bigBody), "GET", "gzip;q=0, deflate", nil, "", 200, true, ""},
		{"wildcard", write(bigBody), "GET", "*", nil, "zstd", 200, true, ""},
		{"HEAD", write(bigBody), "HEAD", "gzip", nil, "", 200, true, ""},
		{"small body", write("short"), "GET", "gzip", nil, "", 200, true, "short"},
		{"small body, min size 0", write("short"), "GET", "gzip", []Option{WithMinSize(0)}, "gzip", 200, true, "short"},
		{"big body, big min size", write(bigBody), "GET", "gzip", []Option{WithMinSize(1 << 20)}, "", 200, true, ""},
		{"already encoded", write(bigBody, "Content-Encoding", "br"), "GET", "gzip", nil, "br", 200, true, ""},
		{"range", write(bigBody, "Content-Range", "bytes 0-5199/9999"), "GET", "gzip", nil, "", 200, true, ""},
		{"small Content-Length", write("short", "Content-Length", "5"), "GET", "gzip", nil, "", 200, true, "short"},
		{"big Content-Length", write(bigBody, "Content-Length", strconv.Itoa(len(bigBody))), "GET", "gzip", nil, "gzip", 200, true, ""},
		{"204", status(204, ""), "GET", "gzip", nil, "", 204, true, ""},
		{"304", status(304, ""), "GET", "gzip", nil, "", 304, true, ""},
		{"404 big", status(404, bigBody), "GET", "gzip", nil, "gzip", 404, true, ""},
		{"500 small", status(500, "oops"), "GET", "gzip", nil, "", 500, true, "oops"},
		{"browser", write(bigBody), "GET", "gzip, deflate, br, zstd", nil, "zstd", 200, true, ""},
		{"zstd only", write(bigBody), "GET", "zstd", nil, "zstd", 200, true, ""},
		{"ZSTD upper case", write(bigBody), "GET", "ZSTD", nil, "zstd", 200, true, ""},
		{"gzip preferred by q", write(bigBody), "GET", "zstd;q=0.5, gzip", nil, "gzip", 200, true, ""},
		{"zstd;q=0", write(bigBody), "GET", "zstd;q=0, gzip", nil, "gzip", 200, true, ""},
		{"wildcard without zstd", write(bigBody), "GET", "*, zstd;q=0", nil, "gzip", 200, true, ""},
		{"identity preferred", write(bigBody), "GET", "identity, gzip;q=0.5", nil, "", 200, true, ""},
		{"identity at equal q", write(bigBody), "GET", "identity, zstd", nil, "zstd", 200, true, ""},
		{"zstd turned off", write(bigBody), "GET", "zstd, gzip", []Option{WithoutZstd()}, "gzip", 200, true, ""},
		{"zstd HEAD", write(bigBody), "HEAD", "zstd", nil, "", 200, true, ""},
		{"zstd 304", status(304, ""), "GET", "zstd", nil, "", 304, true, ""},
		{"zstd already encoded", write(bigBody, "Content-Encoding", "gzip"), "GET", "zstd", nil, "gzip", 200, true, ""},
		{"zstd small body", write("short"), "GET", "zstd", nil, "", 200, true, "short"},
		{"jpeg", write(bigBody, "Content-Type", "image/jpeg"), "GET", "zstd, gzip", nil, "", 200, true, ""},
		{"video", write(bigBody, "Content-Type", "Video/MP4"), "GET", "zstd, gzip", nil, "", 200, true, ""},
		{"zip", write(bigBody, "Content-Type", "application/zip"), "GET", "zstd, gzip", nil, "", 200, true, ""},
		{"svg", write(bigBody, "Content-Type", "image/svg+xml"), "GET", "zstd, gzip", nil, "zstd", 200, true, ""},
		{"sniffed png", write("\x89PNG\r\n\x1a\n" + bigBody), "GET", "zstd, gzip", nil, "", 200, true, "\x89PNG\r\n\x1a\n" + bigBody},
		{"zstd level", write(bigBody), "GET", "zstd", []Option{WithZstdLevel(4)}, "zstd", 200, true, ""},
		{"best speed", write(bigBody), "GET", "gzip", []Option{WithGzipLevel(1)}, "gzip", 200, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rec := serve(t, tc.h, tc.method, tc.ae, tc.opts...)
			res := rec.Result()
			if res.StatusCode != tc.wantCode {
				t.Errorf("status %d, want %d", res.StatusCode, tc.wantCode)
			}
			if got := strings.Join(res.Header["Vary"], ","); (got == "Accept-Encoding") != tc.wantVary {
				t.Errorf("Vary %q", got)
			}
			ce := res.Header.Get("Content-Encoding")
			body := rec.Body.Bytes()
			if ce != tc.want {
				t.Fatalf("Content-Encoding %q, want %q", ce, tc.want)
			}
			if tc.want != "" && !strings.Contains(tc.name, "already encoded") {
				if cl := res.Header.Get("Content-Length"); cl != "" {
					t.Errorf("compressed response keeps Content-Length %s", cl)
				}
				body = decodeBody(t, ce, body)
			}
			want := tc.body
			if want == "" && tc.wantCode != 204 && tc.wantCode != 304 {
				want = bigBody
			}
			if string(body) != want {
				t.Errorf("body %.40q..., want %.40q...", body, want)
			}
		})
	}
}

func TestHandlerHeaders(t *testing.T) {
	// The handler's own Vary is kept and extended.
	rec := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Vary", "Origin")
		io.WriteString(w, bigBody)
	}, "GET", "gzip")
	if got := rec.Result().Header["Vary"]; len(got) != 2 || got[0] != "Origin" || got[1] != "Accept-Encoding" {
		t.Errorf("Vary %q", got)
	}
	// Vary set before the middleware runs is not repeated.
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, bigBody) }))
	rec = httptest.NewRecorder()
	rec.Header().Set("Vary", "accept-encoding")
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	h.ServeHTTP(rec, req)
	if got := rec.Result().Header["Vary"]; len(got) != 1 {
		t.Errorf("Vary %q", got)
	}
	// A missing Content-Type is sniffed from the uncompressed data.
	rec = serve(t, func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<!DOCTYPE html><html>"+strings.Repeat("<p>hello</p>", 200))
	}, "GET", "gzip")
	if ct := rec.Result().Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("sniffed Content-Type %q", ct)
	}
	// Many small writes are gathered, then compressed.
	rec = serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		for i := range 1000 {
			fmt.Fprintf(w, "line %d\n", i)
		}
	}, "GET", "gzip")
	var want strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&want, "line %d\n", i)
	}
	if got := gunzip(t, rec.Body.Bytes()); got != want.String() {
		t.Error("small writes: body differs")
	}
	// A handler that writes nothing sends an empty 200.
	rec = serve(t, func(w http.ResponseWriter, r *http.Request) {}, "GET", "gzip")
	if rec.Code != 200 || rec.Body.Len() != 0 || rec.Header().Get("Content-Encoding") != "" {
		t.Errorf("empty handler: %d %q %q", rec.Code, rec.Body.String(), rec.Header().Get("Content-Encoding"))
	}
}

func TestHandlerInvalidLevel(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "invalid gzip level") {
			t.Errorf("recovered %v", r)
		}
	}()
	Handler(http.NotFoundHandler(), WithGzipLevel(42))
}

// TestHandlerPanic checks that a handler panicking mid-response does not
// poison the pools: the panic reaches the caller, and later responses are
// whole.
func TestHandlerPanic(t *testing.T) {
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, bigBody) // compression has started
		io.WriteString(w, bigBody[:100])
		panic("handler failed")
	}))
	for range 20 {
		func() {
			defer func() {
				if r := recover(); r != "handler failed" {
					t.Fatalf("recovered %v", r)
				}
			}()
			req := httptest.NewRequest("GET", "/", nil)
			req.Header.Set("Accept-Encoding", "gzip")
			h.ServeHTTP(httptest.NewRecorder(), req)
		}()
		rec := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, bigBody) }, "GET", "gzip")
		if gunzip(t, rec.Body.Bytes()) != bigBody {
			t.Fatal("response after a panic differs")
		}
	}
}

// newServer starts a real HTTP server on loopback.
func newServer(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// rawClient neither asks for nor decodes gzip by itself.
func rawClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableCompression: true}}
}

func get(t *testing.T, c *http.Client, url, acceptEncoding string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

func TestServerClients(t *testing.T) {
	srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, bigBody)
	})))

	// Go's default transport asks for gzip and decodes it transparently.
	res, body := get(t, http.DefaultClient, srv.URL, "")
	if string(body) != bigBody || !res.Uncompressed {
		t.Errorf("default client: uncompressed=%v, body equal %v", res.Uncompressed, string(body) == bigBody)
	}
	// Asking explicitly, the client sees the gzip bytes.
	res, body = get(t, rawClient(), srv.URL, "gzip")
	if res.Header.Get("Content-Encoding") != "gzip" || gunzip(t, body) != bigBody {
		t.Error("explicit gzip: wrong response")
	}
	if len(body) >= len(bigBody)/4 {
		t.Errorf("compressed %d bytes to %d", len(bigBody), len(body))
	}
	// Without Accept-Encoding: the identity body, with Vary.
	res, body = get(t, rawClient(), srv.URL, "")
	if res.Header.Get("Content-Encoding") != "" || string(body) != bigBody {
		t.Error("no Accept-Encoding: wrong response")
	}
	if res.Header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("no Accept-Encoding: Vary %q", res.Header.Get("Vary"))
	}
	// The system gzip accepts the middleware's output.
	gz := systool.Look(t, "gzip")
	_, body = get(t, rawClient(), srv.URL, "gzip")
	for _, args := range [][]string{{"-t"}, {"-dc"}} {
		cmd := exec.Command(gz, args...)
		cmd.Stdin = bytes.NewReader(body)
		out, err := cmd.CombinedOutput()
		if err != nil || (args[0] == "-dc" && string(out) != bigBody) {
			t.Errorf("gzip %s of the response: %v\n%.200s", args[0], err, out)
		}
	}
}

// TestServerStatuses checks what a real server makes of the middleware's
// short bodies and informational statuses.
func TestServerStatuses(t *testing.T) {
	srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/small":
			io.WriteString(w, "short")
		case "/early":
			w.Header().Set("Link", "</style.css>; rel=preload")
			w.WriteHeader(http.StatusEarlyHints)
			w.WriteHeader(http.StatusCreated)
			io.WriteString(w, bigBody)
		}
	})))
	// A body under the minimum goes out as it is, with its length.
	res, body := get(t, rawClient(), srv.URL+"/small", "gzip")
	if string(body) != "short" || res.ContentLength != 5 || res.Header.Get("Content-Encoding") != "" {
		t.Errorf("small: %q, length %d, encoding %q", body, res.ContentLength, res.Header.Get("Content-Encoding"))
	}
	if res.Header.Get("Vary") != "Accept-Encoding" {
		t.Errorf("small: Vary %q", res.Header.Get("Vary"))
	}
	// 103 Early Hints goes through; the final status is compressed.
	res, body = get(t, rawClient(), srv.URL+"/early", "gzip")
	if res.StatusCode != http.StatusCreated || gunzip(t, body) != bigBody {
		t.Errorf("after 103: status %d", res.StatusCode)
	}
}

// TestServerCurl fetches a response with curl --compressed, which decodes
// with its own zlib and libzstd: with curl's own Accept-Encoding, which
// names zstd when curl was built with it (Debian's is), and asking for
// gzip alone.
func TestServerCurl(t *testing.T) {
	curl := systool.Look(t, "curl")
	version, err := exec.Command(curl, "-V").Output()
	if err != nil {
		t.Fatalf("curl -V: %v", err)
	}
	curlZstd := strings.Contains(string(version), " zstd")
	srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Accept-Encoding", r.Header.Get("Accept-Encoding"))
		io.WriteString(w, bigBody)
	})))
	for _, tc := range []struct{ header, want string }{
		{"", "zstd"},
		{"Accept-Encoding: gzip", "gzip"},
	} {
		if tc.want == "zstd" && !curlZstd {
			t.Logf("curl was built without zstd: %s", version)
			continue
		}
		args := []string{"--silent", "--show-error", "--fail", "--compressed", "--dump-header", "/dev/stderr"}
		if tc.header != "" {
			args = append(args, "-H", tc.header)
		}
		out, err := exec.Command(curl, append(args, srv.URL)...).CombinedOutput()
		if err != nil {
			t.Fatalf("curl: %v\n%s", err, out)
		}
		headers, body, _ := strings.Cut(string(out), "\r\n\r\n")
		if !strings.Contains(strings.ToLower(headers), "content-encoding: "+tc.want) {
			t.Errorf("curl --compressed %s got no %s response:\n%s", tc.header, tc.want, headers)
		}
		if body != bigBody {
			t.Errorf("curl --compressed %s decoded %d bytes, want %d", tc.header, len(body), len(bigBody))
		}
	}
}

// TestServerStreaming checks that flushed data reaches the client before
// the handler goes on: the handler waits for the client to read each chunk.
func TestServerStreaming(t *testing.T) {
	for _, ce := range []string{"gzip", "zstd"} {
		t.Run(ce, func(t *testing.T) { testServerStreaming(t, ce) })
	}
}

// testServerStreaming checks that each event an event stream flushes
// reaches the client, decoded by an independent decoder, before the
// handler writes the next.
func testServerStreaming(t *testing.T, ce string) {
	got := make(chan string)
	srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		if err := rc.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
			t.Errorf("SetWriteDeadline through the middleware: %v", err)
		}
		for i := range 5 {
			fmt.Fprintf(w, "data: event %d\n\n", i)
			var err error
			if i%2 == 0 {
				w.(http.Flusher).Flush()
			} else {
				err = rc.Flush()
			}
			if err != nil {
				t.Errorf("Flush: %v", err)
				return
			}
			select {
			case <-got:
			case <-time.After(10 * time.Second):
				t.Errorf("event %d did not reach the client after Flush", i)
				return
			}
		}
	})))
	req, _ := http.NewRequest("GET", srv.URL, nil)
	req.Header.Set("Accept-Encoding", ce)
	res, err := rawClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Content-Encoding") != ce {
		t.Fatalf("streamed response is not compressed with %s", ce)
	}
	var zr io.Reader
	if ce == "gzip" {
		zr, err = stdgzip.NewReader(res.Body)
	} else {
		var d *zstd.Decoder
		d, err = zstd.NewReader(res.Body, zstd.WithDecoderConcurrency(1))
		if d != nil {
			defer d.Close()
		}
		zr = d
	}
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(zr)
	for i := range 5 {
		line, err := br.ReadString('\n')
		if err != nil || line != fmt.Sprintf("data: event %d\n", i) {
			t.Fatalf("event %d: %q, %v", i, line, err)
		}
		if blank, _ := br.ReadString('\n'); blank != "\n" {
			t.Fatalf("event %d: no blank line", i)
		}
		got <- line
	}
	if rest, err := io.ReadAll(br); err != nil || len(rest) != 0 {
		t.Fatalf("after the events: %q, %v", rest, err)
	}
}

// TestServerLoad runs 64 clients of 200 requests each against a real
// server, over bodies above and below the minimum size, with and without
// Accept-Encoding, and checks every body.
func TestServerLoad(t *testing.T) {
	bodies := make([]string, 7)
	for i := range bodies {
		// 64 B to 4 KiB, half below DefaultMinSize.
		n := 64 << i
		var b strings.Builder
		for j := 0; b.Len() < n; j++ {
			fmt.Fprintf(&b, "%d:%d,", i, j)
		}
		bodies[i] = b.String()
	}
	srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, _ := strconv.Atoi(r.URL.Query().Get("i"))
		body := bodies[i%len(bodies)]
		if i%3 == 0 {
			w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		}
		// Write in two parts to cross the buffering threshold mid-write.
		io.WriteString(w, body[:len(body)/3])
		io.WriteString(w, body[len(body)/3:])
	}), WithGzipLevel(1))) // the cheapest level keeps the test quick under -race
	const clients, requests = 64, 200 // 12,800 requests
	tr := &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	var wg sync.WaitGroup
	errc := make(chan error, clients)
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range requests {
				i := c*requests + r
				req, _ := http.NewRequest("GET", srv.URL+"?i="+strconv.Itoa(i), nil)
				// A quarter each: nothing, gzip, zstd, a browser's.
				ae := [...]string{"", "gzip", "zstd", "gzip, deflate, br, zstd"}[i%4]
				if ae != "" {
					req.Header.Set("Accept-Encoding", ae)
				}
				res, err := client.Do(req)
				if err != nil {
					errc <- err
					return
				}
				body, err := io.ReadAll(res.Body)
				res.Body.Close()
				if err != nil {
					errc <- err
					return
				}
				if ce := res.Header.Get("Content-Encoding"); ce != "" {
					if want := map[bool]string{true: "gzip", false: "zstd"}[ae == "gzip"]; ae == "" || ce != want {
						errc <- fmt.Errorf("request %d: %s for Accept-Encoding %q", i, ce, ae)
						return
					}
					if body, err = tryDecode(ce, body); err != nil {
						errc <- fmt.Errorf("request %d: %v", i, err)
						return
					}
				}
				if want := bodies[i%len(bodies)]; string(body) != want {
					errc <- fmt.Errorf("request %d: body of %d bytes differs from the %d sent", i, len(body), len(want))
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
}

// wantHandlerAllocs checks that f, one request through Handler, allocates
// nothing beyond the handler's own once the pools are warm, but for one
// slab of header values per headerSlabSets responses (see
// newHeaderValues: the header map outlives the request, so nothing in it
// may be pooled or shared). Sniffing a missing Content-Type costs one more.
func wantHandlerAllocs(t *testing.T, name string, f func()) {
	t.Helper()
	if !pooltest.WantAllocsAmortized(t, 0, headerSlabSets, f) {
		t.Logf("case %s", name)
	}
}

func TestHandlerAllocs(t *testing.T) {
	body := []byte(bigBody)
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(body) // the handler itself allocates nothing
	}))
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate")
	w := &countingWriter{h: make(http.Header)}
	w.h["Content-Type"] = []string{"application/json"}
	wantHandlerAllocs(t, "compressed response", func() {
		w.n = 0
		delete(w.h, "Vary")
		delete(w.h, "Content-Encoding")
		h.ServeHTTP(w, req)
		if w.n == 0 || w.h.Get("Content-Encoding") != "gzip" || w.h.Get("Vary") != "Accept-Encoding" {
			t.Fatal("not compressed")
		}
	})
	// A 4 KiB body written in one piece.
	body4k := []byte(rangeFile[:4096])
	h4k := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body4k) }))
	wantHandlerAllocs(t, "compressed 4 KiB response", func() {
		w.n = 0
		delete(w.h, "Vary")
		delete(w.h, "Content-Encoding")
		h4k.ServeHTTP(w, req)
		if w.n == 0 || w.n >= len(body4k) || w.h.Get("Content-Encoding") != "gzip" {
			t.Fatal("not compressed")
		}
	})
	small := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body[:100]) }))
	wantHandlerAllocs(t, "small response", func() {
		delete(w.h, "Vary")
		small.ServeHTTP(w, req)
		if w.h.Get("Vary") != "Accept-Encoding" {
			t.Fatal("no Vary")
		}
	})
	for _, ae := range []string{"zstd", "gzip, deflate, br, zstd"} {
		zreq := httptest.NewRequest("GET", "/", nil)
		zreq.Header.Set("Accept-Encoding", ae)
		for _, tc := range []struct {
			name string
			h    http.Handler
			max  int // the most bytes the compressed body may take
		}{{"zstd 4 KiB response, ", h4k, len(body4k) - 1}, {"zstd response, ", h, len(body) - 1}} {
			wantHandlerAllocs(t, tc.name+ae, func() {
				w.n = 0
				delete(w.h, "Vary")
				delete(w.h, "Content-Encoding")
				tc.h.ServeHTTP(w, zreq)
				if w.n == 0 || w.n > tc.max || w.h.Get("Content-Encoding") != "zstd" {
					t.Fatal("not compressed with zstd")
				}
			})
		}
	}
	// Padding, and a content-type list, cost nothing more: the gzip
	// comment reaches a writer without WriteString through the
	// compressor's own chunk.
	padded := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body4k) }),
		WithPadding(MaxPadding), WithContentTypes("application/json", "text/*"))
	for _, ae := range []string{"gzip", "zstd"} {
		preq := httptest.NewRequest("GET", "/", nil)
		preq.Header.Set("Accept-Encoding", ae)
		wantHandlerAllocs(t, "padded "+ae+" response", func() {
			w.n = 0
			delete(w.h, "Vary")
			delete(w.h, "Content-Encoding")
			padded.ServeHTTP(w, preq)
			if w.n == 0 || w.n >= len(body4k) || w.h.Get("Content-Encoding") != ae {
				t.Fatalf("not compressed with %s", ae)
			}
		})
	}
	identity := httptest.NewRequest("GET", "/", nil)
	wantHandlerAllocs(t, "request without gzip", func() {
		delete(w.h, "Vary")
		h.ServeHTTP(w, identity)
		if w.h.Get("Vary") != "Accept-Encoding" {
			t.Fatal("no Vary")
		}
	})
}

// TestHandlerHeaderValuesNotShared checks that a handler writing into the
// header values Handler set, in place, changes no other response: each
// response's values are its own, never pooled nor shared.
func TestHandlerHeaderValuesNotShared(t *testing.T) {
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hdr := w.Header()
		io.WriteString(w, bigBody) // the response starts: Vary is set
		if r.URL.Query().Get("mutate") != "" {
			hdr["Vary"][0] = "Mutated"
			if ce := hdr["Content-Encoding"]; len(ce) > 0 {
				ce[0] = "mutated"
			}
		}
	}))
	for _, ae := range []string{"gzip", ""} {
		for i := range 50 {
			url := "/"
			if i%2 == 0 {
				url = "/?mutate=1"
			}
			req := httptest.NewRequest("GET", url, nil)
			req.Header.Set("Accept-Encoding", ae)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if i%2 == 1 {
				if vary := rec.Result().Header["Vary"]; len(vary) != 1 || vary[0] != "Accept-Encoding" {
					t.Fatalf("after a handler mutated its values: Vary %q", vary)
				}
				if ae == "gzip" && gunzip(t, rec.Body.Bytes()) != bigBody {
					t.Fatal("after a handler mutated its values: body differs")
				}
				if ce := rec.Result().Header.Get("Content-Encoding"); (ce == "gzip") != (ae == "gzip") {
					t.Fatalf("after a handler mutated its values: Content-Encoding %q", ce)
				}
			}
		}
	}
}

// countingWriter is a ResponseWriter that counts the body bytes.
type countingWriter struct {
	h http.Header
	n int
}

func (c *countingWriter) Header() http.Header         { return c.h }
func (c *countingWriter) WriteHeader(int)             {}
func (c *countingWriter) Write(p []byte) (int, error) { c.n += len(p); return len(p), nil }

// TestHeaderValuesDistinct takes header value arrays from many goroutines
// at once, across many slabs, and checks that no array is handed out twice
// and that each holds the two values, unwritten by anyone else.
func TestHeaderValuesDistinct(t *testing.T) {
	const goroutines, each = 8, 40 * headerSlabSets
	got := make([][]*[numVals]string, goroutines)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range each {
				got[g] = append(got[g], newHeaderValues())
			}
		}()
	}
	wg.Wait()
	seen := make(map[*[numVals]string]bool, goroutines*each)
	for _, vs := range got {
		for _, v := range vs {
			if seen[v] {
				t.Fatalf("array %p handed out twice", v)
			}
			seen[v] = true
			if *v != [numVals]string{"Accept-Encoding", "gzip", "zstd"} {
				t.Fatalf("values %q", *v)
			}
		}
	}
}
