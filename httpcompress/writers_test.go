package httpcompress

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// sinkWriter is a ResponseWriter with net/http's WriteString and
// ReadFrom, which count how often Handler reaches them.
type sinkWriter struct {
	countingWriter
	strings, readFroms int
}

func (s *sinkWriter) WriteString(str string) (int, error) {
	s.strings++
	s.n += len(str)
	return len(str), nil
}

func (s *sinkWriter) ReadFrom(r io.Reader) (int64, error) {
	s.readFroms++
	n, err := io.Copy(&s.countingWriter, r)
	return n, err
}

// TestHandlerWriteStringAllocs checks that io.WriteString through Handler
// makes no byte slice of its string: a response sent as it is reaches the
// server's own WriteString, as it does without Handler, and a compressed
// one allocates nothing either.
func TestHandlerWriteStringAllocs(t *testing.T) {
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, bigBody[:100]) // held with the first bytes
		io.WriteString(w, bigBody[100:])
	}))
	w := &sinkWriter{countingWriter: countingWriter{h: make(http.Header)}}
	w.h["Content-Type"] = []string{"application/json"}
	for _, ae := range []string{"", "gzip", "zstd"} {
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Encoding", ae)
		wantHandlerAllocs(t, "WriteString, Accept-Encoding "+ae, func() {
			w.n, w.strings = 0, 0
			delete(w.h, "Vary")
			delete(w.h, "Content-Encoding")
			h.ServeHTTP(w, req)
			if ce := w.h.Get("Content-Encoding"); ce != ae || w.n == 0 || (ae == "") != (w.strings > 0) {
				t.Fatalf("Accept-Encoding %q: Content-Encoding %q, %d bytes, %d WriteString calls", ae, ce, w.n, w.strings)
			}
		})
	}
}

// TestHandlerWriteStringPieces checks that strings of every length,
// written in any mix with byte slices, reach the client whole, compressed
// or not.
func TestHandlerWriteStringPieces(t *testing.T) {
	long := strings.Repeat(bigBody, 40) // 208,000 bytes: past one block
	for _, sizes := range [][]int{{1}, {100, 5000}, {700}, {1023, 1}, {200000}, {513, 100000, 1}} {
		h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rest := long
			for i := 0; rest != ""; i++ {
				n := min(sizes[i%len(sizes)], len(rest))
				if i%3 == 2 {
					w.Write([]byte(rest[:n]))
				} else {
					io.WriteString(w, rest[:n])
				}
				rest = rest[n:]
			}
		}))
		for _, ae := range []string{"", "gzip", "zstd"} {
			req := httptest.NewRequest("GET", "/", nil)
			req.Header.Set("Accept-Encoding", ae)
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			body := rec.Body.Bytes()
			if ce := rec.Header().Get("Content-Encoding"); ce != "" {
				body = decodeBody(t, ce, body)
			}
			if string(body) != long {
				t.Errorf("sizes %v, Accept-Encoding %q: %d bytes, want %d", sizes, ae, len(body), len(long))
			}
		}
	}
}

// TestHandlerReadFrom checks that a response sent as it is hands the
// handler's io.Copy to the server's ReadFrom (net/http's sends a file
// with sendfile), and that one compressed still decodes.
func TestHandlerReadFrom(t *testing.T) {
	file := []byte(strings.Repeat(bigBody, 10))
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", r.URL.Query().Get("ct"))
		io.Copy(w, io.LimitReader(bytes.NewReader(file), int64(len(file)))) // no WriterTo
	}))
	for _, tc := range []struct {
		ct, ae   string
		readFrom bool
	}{
		{"text/plain", "", true},
		{"video/mp4", "gzip", true},
		{"text/plain", "gzip", false},
		{"text/plain", "zstd", false},
	} {
		w := &sinkWriter{countingWriter: countingWriter{h: make(http.Header)}}
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", "/?ct="+tc.ct, nil)
		req.Header.Set("Accept-Encoding", tc.ae)
		h.ServeHTTP(w, req)
		if (w.readFroms > 0) != tc.readFrom || w.n == 0 {
			t.Errorf("%s, Accept-Encoding %q: %d ReadFrom calls, %d bytes", tc.ct, tc.ae, w.readFroms, w.n)
		}
		h.ServeHTTP(rec, req)
		body := rec.Body.Bytes()
		if ce := rec.Header().Get("Content-Encoding"); ce != "" {
			body = decodeBody(t, ce, body)
		}
		if !bytes.Equal(body, file) {
			t.Errorf("%s, Accept-Encoding %q: body differs", tc.ct, tc.ae)
		}
	}
}

// TestServerCloseNotify checks that a handler still using the deprecated
// http.CloseNotifier, as gin's streaming does, finds it behind Handler
// whenever the server's writer has it, compressed or not, and that it
// fires when the client goes away.
func TestServerCloseNotify(t *testing.T) {
	notified := make(chan bool, 1)
	srv := newServer(t, Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cn, ok := w.(http.CloseNotifier) //lint:ignore SA1019 the deprecated interface is what is tested
		if !ok {
			http.Error(w, "not a CloseNotifier", 500)
			return
		}
		io.WriteString(w, bigBody)
		w.(http.Flusher).Flush()
		select {
		case <-cn.CloseNotify():
			notified <- true
		case <-time.After(30 * time.Second):
			notified <- false
		}
	})))
	for _, ae := range []string{"", "gzip", "zstd"} {
		req, err := http.NewRequest("GET", srv.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept-Encoding", ae)
		res, err := rawClient().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != 200 {
			t.Fatalf("Accept-Encoding %q: status %d", ae, res.StatusCode)
		}
		res.Body.Close() // the client goes away before the body ends
		if !<-notified {
			t.Errorf("Accept-Encoding %q: CloseNotify did not fire", ae)
		}
	}
}
