package logfmt

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/poolkit/poolkit/httpcompress"
	"github.com/poolkit/poolkit/internal/respsink"
)

// syncBuffer is a bytes.Buffer safe for the test to read while servers
// write to it; AccessLog serialises its own writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) lines(t *testing.T) []map[string]string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return accessRecords(t, s.b.Bytes())
}

// accessRecords reads every line through go-logfmt, the oracle, into a map
// per line, failing on a repeated key.
func accessRecords(t *testing.T, data []byte) []map[string]string {
	t.Helper()
	var out []map[string]string
	for _, kv := range readBack(t, data) {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			if _, dup := m[kv[i]]; dup {
				t.Fatalf("key %q twice in %q", kv[i], kv)
			}
			m[kv[i]] = kv[i+1]
		}
		out = append(out, m)
	}
	return out
}

// checkCommon checks the pairs every line has: a time close to now, a
// duration that parses, method, path, status and bytes.
func checkCommon(t *testing.T, rec map[string]string, method, path string, status, bytes int) {
	t.Helper()
	ts, err := time.Parse(time.RFC3339Nano, rec["time"])
	if err != nil || time.Since(ts) > time.Minute || time.Since(ts) < -time.Second {
		t.Errorf("time=%q: %v", rec["time"], err)
	}
	if d, err := time.ParseDuration(rec["duration"]); err != nil || d < 0 {
		t.Errorf("duration=%q: %v", rec["duration"], err)
	}
	want := map[string]string{"method": method, "path": path, "status": strconv.Itoa(status), "bytes": strconv.Itoa(bytes)}
	for k, v := range want {
		if rec[k] != v {
			t.Errorf("%s=%q, want %q (line %v)", k, rec[k], v, rec)
		}
	}
}

func TestAccessLogLine(t *testing.T) {
	cases := []struct {
		name   string
		path   string
		h      http.HandlerFunc
		status int
		bytes  int
		extra  map[string]string
	}{
		{"no WriteHeader, no body", "/empty", func(w http.ResponseWriter, r *http.Request) {}, 200, 0, nil},
		{"body without WriteHeader", "/body", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello") }, 200, 5, nil},
		{"WriteHeader then body", "/missing", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotFound)
			w.WriteHeader(http.StatusOK) // superfluous: not recorded
			io.WriteString(w, "nope")
		}, 404, 4, nil},
		{"informational first", "/early", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusEarlyHints)
			w.WriteHeader(http.StatusCreated)
		}, 201, 0, nil},
		{"handler attrs", "/a path/with \"quotes\"=", func(w http.ResponseWriter, r *http.Request) {
			l := AccessLine(w)
			l.String("user", "ann smith")
			l.Int("rows", 12)
			l.Err("err", errors.New("db: timeout"))
			w.Write([]byte("ok"))
		}, 200, 2, map[string]string{"user": "ann smith", "rows": "12", "err": "db: timeout"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			srv := httptest.NewServer(AccessLog(c.h, &out))
			defer srv.Close()
			u := srv.URL + (&url.URL{Path: c.path}).EscapedPath()
			resp, err := http.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			srv.Close() // the handler has returned and logged
			if resp.StatusCode != c.status {
				t.Fatalf("client got %d, want %d", resp.StatusCode, c.status)
			}
			recs := accessRecords(t, out.Bytes())
			if len(recs) != 1 {
				t.Fatalf("%d lines, want 1: %q", len(recs), out.String())
			}
			checkCommon(t, recs[0], "GET", c.path, c.status, c.bytes)
			for k, v := range c.extra {
				if recs[0][k] != v {
					t.Errorf("%s=%q, want %q", k, recs[0][k], v)
				}
			}
			if len(recs[0]) != 6+len(c.extra) {
				t.Errorf("line has %d pairs, want %d: %v", len(recs[0]), 6+len(c.extra), recs[0])
			}
		})
	}
}

func TestAccessLineOutsideAccessLog(t *testing.T) {
	if l := AccessLine(httptest.NewRecorder()); l != nil {
		t.Fatal("AccessLine of a plain ResponseWriter is not nil")
	}
}

// Flush reaches the client before the handler returns, through the
// Flusher interface and through http.ResponseController, which also
// reaches the server's deadlines through Unwrap.
func TestAccessLogFlushAndResponseController(t *testing.T) {
	for _, viaController := range []bool{false, true} {
		var out syncBuffer
		proceed := make(chan struct{})
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, "first\n")
			if viaController {
				rc := http.NewResponseController(w)
				if err := rc.SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
					t.Errorf("SetWriteDeadline through AccessLog: %v", err)
				}
				if err := rc.Flush(); err != nil {
					t.Errorf("ResponseController.Flush: %v", err)
				}
			} else {
				w.(http.Flusher).Flush()
			}
			<-proceed
			io.WriteString(w, "second\n")
		})
		srv := httptest.NewServer(AccessLog(h, &out))
		resp, err := http.Get(srv.URL + "/stream")
		if err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(resp.Body)
		line, err := br.ReadString('\n')
		if err != nil || line != "first\n" {
			t.Fatalf("first chunk = %q, %v: the flush did not reach the client", line, err)
		}
		close(proceed)
		rest, _ := io.ReadAll(br)
		resp.Body.Close()
		srv.Close()
		if string(rest) != "second\n" {
			t.Fatalf("rest = %q", rest)
		}
		recs := out.lines(t)
		if len(recs) != 1 {
			t.Fatalf("%d lines", len(recs))
		}
		checkCommon(t, recs[0], "GET", "/stream", 200, len("first\nsecond\n"))
	}
}

func TestAccessLogHijack(t *testing.T) {
	var out syncBuffer
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Errorf("Hijack through AccessLog: %v", err)
			return
		}
		defer conn.Close()
		brw.WriteString("HTTP/1.1 101 Switching Protocols\r\nUpgrade: test\r\nConnection: Upgrade\r\n\r\nhi")
		brw.Flush()
	})
	// A hijacked connection is not waited for by srv.Close, and the
	// client sees EOF when h's deferred Close runs, before AccessLog has
	// written its line; logged says that it has.
	logged := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(logged)
		AccessLog(h, &out).ServeHTTP(w, r)
	}))
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/ws", nil)
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "test")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 101 || string(body) != "hi" {
		t.Fatalf("upgrade got %d %q", resp.StatusCode, body)
	}
	<-logged
	recs := out.lines(t)
	if len(recs) != 1 {
		t.Fatalf("%d lines", len(recs))
	}
	checkCommon(t, recs[0], "GET", "/ws", 101, 0)

	// A writer that cannot hijack: an error wrapping ErrNotSupported.
	rec := httptest.NewRecorder()
	AccessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, _, err := w.(http.Hijacker).Hijack(); !errors.Is(err, http.ErrNotSupported) {
			t.Errorf("Hijack on a recorder = %v, want ErrNotSupported", err)
		}
	}), io.Discard).ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
}

func TestAccessLogPanic(t *testing.T) {
	var out bytes.Buffer
	h := AccessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		AccessLine(w).String("stage", "before")
		panic("boom")
	}), &out)
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Fatalf("recovered %v, want the handler's panic", p)
			}
		}()
		h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/p", nil))
	}()
	recs := accessRecords(t, out.Bytes())
	if len(recs) != 1 || recs[0]["panic"] != "true" || recs[0]["stage"] != "before" {
		t.Fatalf("lines after a panic: %v", recs)
	}
	checkCommon(t, recs[0], "POST", "/p", 500, 0)
}

// A handler that sends an invalid status makes net/http panic before any
// header goes out; the line says 500, as for any panic before a header,
// and never the code that was not sent. Both net/http's server and
// httptest's recorder are tried, since both refuse such a code.
func TestAccessLogInvalidStatus(t *testing.T) {
	for _, code := range []int{1000, 99, -1, 0} {
		var out syncBuffer
		h := AccessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(code)
			_, _ = io.WriteString(w, "never sent")
		}), &out)

		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("WriteHeader(%d) through a recorder did not panic", code)
				}
			}()
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/r", nil))
		}()

		srv := httptest.NewServer(h)
		srv.Config.ErrorLog = log.New(io.Discard, "", 0) // net/http logs the panic
		resp, err := srv.Client().Get(srv.URL + "/s")
		if err == nil {
			resp.Body.Close()
			t.Errorf("WriteHeader(%d): the server answered %s, want the connection closed", code, resp.Status)
		}
		srv.Close()

		recs := out.lines(t)
		if len(recs) != 2 {
			t.Fatalf("WriteHeader(%d): %d lines, want 2: %v", code, len(recs), recs)
		}
		for i, path := range []string{"/r", "/s"} {
			if recs[i]["panic"] != "true" {
				t.Errorf("WriteHeader(%d) %s: no panic=true in %v", code, path, recs[i])
			}
			checkCommon(t, recs[i], "GET", path, 500, 0)
		}
	}
}

// Concurrent requests through a real server, under -race in CI: every
// request gets its own line with its own status, bytes and attrs, so no
// pooled writer or line reached two requests.
func TestAccessLogConcurrent(t *testing.T) {
	var out syncBuffer
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.URL.Query().Get("id"))
		AccessLine(w).Int("id", int64(id))
		w.WriteHeader(200 + id%4) // 200 to 203: all have a body
		w.Write(bytes.Repeat([]byte("x"), id%97))
	})
	srv := httptest.NewServer(AccessLog(h, &out))
	const workers, each = 8, 40
	var wg sync.WaitGroup
	for g := 0; g < workers; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				resp, err := http.Get(fmt.Sprintf("%s/r%d?id=%d", srv.URL, g*each+i, g*each+i))
				if err != nil {
					t.Error(err)
					return
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
		}()
	}
	wg.Wait()
	srv.Close()
	recs := out.lines(t)
	if len(recs) != workers*each {
		t.Fatalf("%d lines, want %d", len(recs), workers*each)
	}
	seen := map[int]bool{}
	for _, rec := range recs {
		id, err := strconv.Atoi(rec["id"])
		if err != nil || seen[id] {
			t.Fatalf("bad or repeated id in %v", rec)
		}
		seen[id] = true
		checkCommon(t, rec, "GET", fmt.Sprintf("/r%d", id), 200+id%4, id%97)
	}
}

// nopWriter is a ResponseWriter that allocates nothing, and an
// http.Flusher.
type nopWriter struct{ respsink.Writer }

func (w *nopWriter) Flush() {}

func TestAccessLogAllocs(t *testing.T) {
	var out countWriter
	body := []byte(`{"ok":true}`)
	h := AccessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l := AccessLine(w)
		l.String("user", "ann")
		l.Int("rows", 3)
		w.WriteHeader(http.StatusCreated)
		w.Write(body)
		w.(http.Flusher).Flush()
	}), &out)
	r := httptest.NewRequest("POST", "/orders", nil)
	w := new(nopWriter)
	// Past the runtime's type-switch caches, which AccessLine's type
	// switch fills.
	wantNoSteadyAllocs(t, "AccessLog request", func() { h.ServeHTTP(w, r) })
	if out.lines == 0 {
		t.Fatal("nothing logged")
	}
}

type countWriter struct{ lines int }

func (w *countWriter) Write(p []byte) (int, error) { w.lines++; return len(p), nil }

// The doc's promise about httpcompress.Handler: outside it AccessLog counts the
// compressed bytes, inside it the uncompressed ones, and AccessLine works
// through httpcompress's writer.
func TestAccessLogWithGzpool(t *testing.T) {
	body := strings.Repeat("compressible text ", 1000)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if l := AccessLine(w); l != nil {
			l.Bool("found", true)
		}
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, body)
	})
	for _, outer := range []bool{true, false} {
		var out bytes.Buffer
		var srv http.Handler
		if outer {
			srv = AccessLog(httpcompress.Handler(h), &out)
		} else {
			srv = httpcompress.Handler(AccessLog(h, &out))
		}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/big", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		srv.ServeHTTP(rec, req)
		if rec.Header().Get("Content-Encoding") != "gzip" {
			t.Fatal("response not compressed")
		}
		zr, err := gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if got, err := io.ReadAll(zr); err != nil || string(got) != body {
			t.Fatalf("body does not decompress to what the handler wrote: %v", err)
		}
		recs := accessRecords(t, out.Bytes())
		if len(recs) != 1 || recs[0]["found"] != "true" {
			t.Fatalf("outer=%v: lines %v, want one with found=true", outer, recs)
		}
		want := len(body)
		if outer {
			want = rec.Body.Len()
		}
		checkCommon(t, recs[0], "GET", "/big", 200, want)
	}
}

// http.ServeContent copies through the ResponseWriter's ReadFrom; its bytes
// are counted, whether or not the writer underneath has one.
func TestAccessLogReadFrom(t *testing.T) {
	content := strings.Repeat("0123456789", 5000)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.(io.ReaderFrom); !ok {
			t.Error("the ResponseWriter is not an io.ReaderFrom")
		}
		http.ServeContent(w, r, "f.txt", time.Time{}, strings.NewReader(content))
	})
	var out syncBuffer
	srv := httptest.NewServer(AccessLog(h, &out))
	resp, err := http.Get(srv.URL + "/f.txt")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	srv.Close()
	if string(got) != content {
		t.Fatalf("got %d bytes, want %d", len(got), len(content))
	}
	// A recorder has no ReadFrom: the fallback copies with Write.
	rec := httptest.NewRecorder()
	AccessLog(h, &out).ServeHTTP(rec, httptest.NewRequest("GET", "/f.txt", nil))
	if rec.Body.String() != content {
		t.Fatal("the fallback copy differs")
	}
	recs := out.lines(t)
	if len(recs) != 2 {
		t.Fatalf("%d lines", len(recs))
	}
	for _, rec := range recs {
		checkCommon(t, rec, "GET", "/f.txt", 200, len(content))
	}
}
