package httpcompress

import (
	"bufio"
	"crypto/sha1"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// wsAccept is the Sec-WebSocket-Accept value for key (RFC 6455, 4.2.2).
func wsAccept(key string) string {
	h := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(h[:])
}

// unwrapOnly is a middleware's ResponseWriter that reaches the server's
// Hijack only through Unwrap, as http.ResponseController expects.
type unwrapOnly struct{ http.ResponseWriter }

func (u unwrapOnly) Unwrap() http.ResponseWriter { return u.ResponseWriter }

// TestServerHijack takes over real connections of an httptest server
// through Handler, from a client that accepts gzip: a websocket-style
// upgrade (hijacked with w.(http.Hijacker), as gorilla/websocket does),
// and plain requests hijacked with w.(http.Hijacker) and with
// http.ResponseController, with and without a middleware between the
// server and Handler. Each handshake is answered by hand, bytes go both
// ways, and after the hijack Write returns http.ErrHijacked.
func TestServerHijack(t *testing.T) {
	type report struct {
		wrapped bool  // the handler got Handler's ResponseWriter
		err     error // of Write after Hijack
	}
	afterHijack := make(chan report, 1)
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, wrapped := w.(hijackWriter)
		var conn net.Conn
		var brw *bufio.ReadWriter
		var err error
		if r.URL.Query().Get("via") == "controller" {
			conn, brw, err = http.NewResponseController(w).Hijack()
		} else {
			hj, ok := w.(http.Hijacker)
			if !ok {
				http.Error(w, fmt.Sprintf("%T is not an http.Hijacker", w), http.StatusInternalServerError)
				return
			}
			conn, brw, err = hj.Hijack()
		}
		if err != nil {
			http.Error(w, "Hijack: "+err.Error(), http.StatusInternalServerError)
			return
		}
		defer conn.Close()
		_, err = w.Write([]byte("late"))
		w.WriteHeader(http.StatusOK) // ignored, as net/http ignores it
		afterHijack <- report{wrapped, err}

		fmt.Fprintf(brw, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\nhello\n",
			wsAccept(r.Header.Get("Sec-WebSocket-Key")))
		if brw.Flush() != nil {
			return
		}
		for {
			line, err := brw.ReadString('\n')
			if err != nil {
				return
			}
			brw.WriteString("echo: " + line)
			if brw.Flush() != nil {
				return
			}
		}
	})
	wrapped := Handler(echo)
	srv := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("outer") != "" {
			w = unwrapOnly{w}
		}
		wrapped.ServeHTTP(w, r)
	}))
	for _, tc := range []struct {
		name, query, connection string
		noUpgradeField          bool // then not an upgrade request
	}{
		{"websocket upgrade", "", "Upgrade", false},
		{"websocket upgrade, keep-alive", "", "keep-alive, upgrade", false},
		{"Hijacker", "", "keep-alive", false},
		{"ResponseController", "?via=controller", "keep-alive", false},
		{"Hijacker behind Unwrap", "?outer=1", "", false},
		{"ResponseController behind Unwrap", "?via=controller&outer=1", "", false},
		{"Connection: upgrade without Upgrade", "", "upgrade", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(30 * time.Second))
			key := base64.StdEncoding.EncodeToString([]byte("poolkit-test-key"))
			req := "GET /ws" + tc.query + " HTTP/1.1\r\nHost: test\r\nAccept-Encoding: gzip\r\n"
			if tc.connection != "" {
				req += "Connection: " + tc.connection + "\r\n"
			}
			if !tc.noUpgradeField {
				req += "Upgrade: websocket\r\n"
			}
			req += "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: " + key + "\r\n\r\n"
			if _, err := io.WriteString(conn, req); err != nil {
				t.Fatal(err)
			}
			br := bufio.NewReader(conn)
			res, err := http.ReadResponse(br, nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != http.StatusSwitchingProtocols {
				body, _ := io.ReadAll(res.Body)
				t.Fatalf("status %d: %s", res.StatusCode, body)
			}
			if got := res.Header.Get("Sec-WebSocket-Accept"); got != wsAccept(key) {
				t.Fatalf("Sec-WebSocket-Accept %q, want %q", got, wsAccept(key))
			}
			select {
			case rep := <-afterHijack:
				if !errors.Is(rep.err, http.ErrHijacked) {
					t.Errorf("Write after Hijack: %v, want http.ErrHijacked", rep.err)
				}
				upgrade := strings.Contains(strings.ToLower(tc.connection), "upgrade") && !tc.noUpgradeField
				if upgrade && rep.wrapped {
					t.Error("upgrade request not passed through untouched")
				}
				if !upgrade && !rep.wrapped {
					t.Error("request handled without the middleware")
				}
			case <-time.After(30 * time.Second):
				t.Fatal("handler did not report")
			}
			if line, err := br.ReadString('\n'); line != "hello\n" || err != nil {
				t.Fatalf("server's first message %q, %v", line, err)
			}
			for i := range 3 {
				msg := fmt.Sprintf("message %d %s\n", i, strings.Repeat("x", 2000*i))
				if _, err := io.WriteString(conn, msg); err != nil {
					t.Fatal(err)
				}
				if line, err := br.ReadString('\n'); line != "echo: "+msg || err != nil {
					t.Fatalf("echo of message %d: %.40q, %v", i, line, err)
				}
			}
		})
	}
}

// hijackRecorder is a ResponseWriter whose Hijack succeeds, recording what
// was written before it.
type hijackRecorder struct {
	countingWriter
	hijacked bool
}

func (h *hijackRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	h.hijacked = true
	return nil, nil, nil
}

// TestHandlerHijackMidResponse hijacks after part of a response was
// written, buffered or compressed: what was written goes out first, the
// middleware writes nothing afterwards, and the pooled writers serve later
// responses whole.
func TestHandlerHijackMidResponse(t *testing.T) {
	for _, tc := range []struct{ ce, written string }{{"gzip", "short"}, {"gzip", bigBody}, {"zstd", "short"}, {"zstd", bigBody}} {
		ce, written := tc.ce, tc.written
		h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, written)
			if _, _, err := w.(http.Hijacker).Hijack(); err != nil {
				t.Errorf("Hijack: %v", err)
			}
			if _, _, err := w.(http.Hijacker).Hijack(); !errors.Is(err, http.ErrHijacked) {
				t.Errorf("second Hijack: %v, want http.ErrHijacked", err)
			}
			if err := http.NewResponseController(w).Flush(); !errors.Is(err, http.ErrHijacked) {
				t.Errorf("Flush after Hijack: %v, want http.ErrHijacked", err)
			}
		}))
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Encoding", ce)
		w := &hijackRecorder{countingWriter: countingWriter{h: make(http.Header)}}
		h.ServeHTTP(w, req)
		if !w.hijacked {
			t.Fatal("not hijacked")
		}
		if w.n == 0 {
			t.Errorf("%s: %d bytes written before Hijack did not go out", ce, len(written))
		}
		rec := serve(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, bigBody) }, "GET", ce)
		if string(decodeBody(t, ce, rec.Body.Bytes())) != bigBody {
			t.Fatal("response after a hijack differs")
		}
	}
}
