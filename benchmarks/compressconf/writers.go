package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// ackWait is how long a streaming handler waits for the client to read
// what it flushed before it writes the rest anyway (and the row fails).
// Loopback delivers a flushed write in well under a millisecond; the
// margin is for a loaded CI machine.
const ackWait = 2 * time.Second

// streamDecoder decodes coding from r as the bytes arrive, with the same
// decoders as decode.
func streamDecoder(coding string, r io.Reader) (io.Reader, error) {
	switch coding {
	case "", "identity":
		return r, nil
	case "gzip", "x-gzip":
		return gzip.NewReader(r)
	case "deflate":
		return zlib.NewReader(r)
	case "br":
		return brotli.NewReader(r), nil
	case "zstd":
		zr, err := zstd.NewReader(r, zstd.WithDecoderMaxWindow(maxWindow), zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		return zr.IOReadCloser(), nil
	}
	return nil, fmt.Errorf("no decoder for Content-Encoding %q", coding)
}

// streaming runs a handler that writes first, flushes it with flush, waits
// for the client to read it, and writes second, behind c's middleware,
// for a client sending a browser's Accept-Encoding. prepare runs before
// the first write. It passes when the client decodes first before the
// handler writes second, and the whole body decodes (the raw stream again
// through decode, so zstd meets Debian's command too).
func streaming(c *column, ct string, first, second []byte, prepare, flush func(w http.ResponseWriter) error) result {
	read := make(chan struct{})
	var late atomic.Bool
	handlerErr := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ct)
		err := prepare(w)
		if err == nil {
			_, err = w.Write(first)
		}
		if err == nil {
			err = flush(w)
		}
		handlerErr <- err
		select {
		case <-read:
		case <-time.After(ackWait):
			late.Store(true)
		}
		_, _ = w.Write(second)
	})
	return withServer(c, h, func(s *server) result {
		req, err := http.NewRequest("GET", s.ts.URL+"/", nil)
		if err != nil {
			return failed("%v", err)
		}
		req.Header.Set("Accept-Encoding", browser)
		resp, err := s.client.Do(req)
		if err != nil {
			return failed("%v", err)
		}
		defer resp.Body.Close()
		coding := strings.ToLower(resp.Header.Get("Content-Encoding"))
		var raw bytes.Buffer
		src := io.TeeReader(resp.Body, &raw) // every byte the client reads
		dec, err := streamDecoder(coding, src)
		if err != nil {
			close(read)
			return failed("%v", err)
		}
		got := make([]byte, len(first))
		_, err = io.ReadFull(dec, got)
		close(read)
		if herr := <-handlerErr; herr != nil {
			return failed("handler: %v", herr)
		}
		if err != nil {
			return failed("reading the first part: %v", err)
		}
		if late.Load() {
			return failed("first part held back until the handler wrote more (%s)", codingName(coding))
		}
		if !bytes.Equal(got, first) {
			return failed("first part decodes wrong")
		}
		if _, err := io.Copy(io.Discard, src); err != nil {
			return failed("reading the rest: %v", err)
		}
		whole, err := decode(coding, raw.Bytes())
		if err != nil {
			return failed("%s body does not decode: %v", codingName(coding), err)
		}
		if !bytes.Equal(whole, append(append([]byte(nil), first...), second...)) {
			return failed("%s body decodes wrong", codingName(coding))
		}
		return passed(codingName(coding))
	})
}

func noPrepare(http.ResponseWriter) error { return nil }

// wsGUID is the key suffix of RFC 6455, section 1.3.
const wsGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

// hijack takes the connection the way WebSocket libraries do: the type
// assertion first, then http.ResponseController (which follows Unwrap).
func hijack(w http.ResponseWriter) (net.Conn, *bufio.ReadWriter, error) {
	if hj, ok := w.(http.Hijacker); ok {
		return hj.Hijack()
	}
	return http.NewResponseController(w).Hijack()
}

var writerRows = []row{{
	name: "Hijacker",
	pass: "for a request with a browser's Accept-Encoding, `w.(http.Hijacker)` holds and Hijack works: the raw " +
		"response the handler writes on the connection reaches the client as written",
	check: func(c *column) result {
		const msg = "hijacked"
		assertErr := make(chan error, 1)
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hj, ok := w.(http.Hijacker)
			if !ok {
				assertErr <- fmt.Errorf("%T is no http.Hijacker", w)
				http.Error(w, "no hijacker", http.StatusInternalServerError)
				return
			}
			conn, brw, err := hj.Hijack()
			assertErr <- err
			if err != nil {
				return
			}
			defer conn.Close()
			fmt.Fprintf(brw, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(msg), msg)
			_ = brw.Flush()
		})
		return withServer(c, h, func(s *server) result {
			r, err := s.get("GET", "Accept-Encoding", browser)
			if herr := <-assertErr; herr != nil {
				return failed("%v", herr)
			}
			if err != nil {
				return failed("%v", err)
			}
			if r.status != http.StatusOK || r.compressed() || string(r.raw) != msg {
				return failed("%d, %s, %q", r.status, codingName(r.coding), r.raw)
			}
			return passed("")
		})
	},
}, {
	name: "Flusher",
	pass: "`w.(http.Flusher)` holds; a handler writes 2 KiB of JSON, calls Flush, and waits: " +
		"the client (browser's Accept-Encoding) decodes those 2 KiB before the handler writes more",
	check: func(c *column) result {
		body := jsonBody(4 << 10)
		return streaming(c, "application/json", body[:2<<10], body[2<<10:], noPrepare, func(w http.ResponseWriter) error {
			f, ok := w.(http.Flusher)
			if !ok {
				return fmt.Errorf("%T is no http.Flusher", w)
			}
			f.Flush()
			return nil
		})
	},
}, {
	name: "event stream reaches the client at once",
	pass: "a `text/event-stream` handler writes one 11-byte event, calls " +
		"`http.NewResponseController(w).Flush()` and waits: the client (browser's Accept-Encoding) " +
		"reads the event before the handler writes the next",
	check: func(c *column) result {
		return streaming(c, "text/event-stream", []byte("data: one\n\n"), []byte("data: two\n\n"), noPrepare,
			func(w http.ResponseWriter) error { return http.NewResponseController(w).Flush() })
	},
}, {
	name: "http.ResponseController",
	pass: "through `http.NewResponseController(w)`, SetReadDeadline, SetWriteDeadline and Flush " +
		"return nil (they reach the server's connection via Unwrap), and the flushed bytes reach " +
		"the client before the handler writes more",
	check: func(c *column) result {
		body := jsonBody(4 << 10)
		prepare := func(w http.ResponseWriter) error {
			rc := http.NewResponseController(w)
			if err := rc.SetReadDeadline(time.Now().Add(timeout)); err != nil {
				return fmt.Errorf("SetReadDeadline: %w", err)
			}
			if err := rc.SetWriteDeadline(time.Now().Add(timeout)); err != nil {
				return fmt.Errorf("SetWriteDeadline: %w", err)
			}
			return nil
		}
		return streaming(c, "application/json", body[:2<<10], body[2<<10:], prepare,
			func(w http.ResponseWriter) error { return http.NewResponseController(w).Flush() })
	},
}, {
	name: "WebSocket upgrade untouched",
	pass: "a WebSocket handshake (`Connection: Upgrade`, `Upgrade: websocket`, a browser's " +
		"Accept-Encoding) reaches a handler that can hijack; the client gets its 101 with " +
		"no Content-Encoding, and bytes then pass both ways unchanged",
	check: func(c *column) result {
		const key = "dGhlIHNhbXBsZSBub25jZQ=="
		sum := sha1.Sum([]byte(key + wsGUID))
		accept := base64.StdEncoding.EncodeToString(sum[:])
		handlerErr := make(chan error, 1)
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			conn, brw, err := hijack(w)
			if err != nil {
				handlerErr <- fmt.Errorf("hijack: %w", err)
				http.Error(w, "cannot hijack", http.StatusInternalServerError)
				return
			}
			defer conn.Close()
			_ = conn.SetDeadline(time.Now().Add(timeout))
			fmt.Fprintf(brw, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", accept)
			if err := brw.Flush(); err != nil {
				handlerErr <- err
				return
			}
			ping := make([]byte, 4)
			if _, err := io.ReadFull(brw, ping); err != nil {
				handlerErr <- fmt.Errorf("reading from the client: %w", err)
				return
			}
			_, _ = brw.WriteString(strings.ToUpper(string(ping)))
			handlerErr <- brw.Flush()
		})
		return withServer(c, h, func(s *server) result {
			// A client Timeout would wrap the 101's body in a reader that
			// cannot write: bound the exchange by the context instead.
			ctx, cancel := context.WithTimeout(context.Background(), timeout)
			defer cancel()
			req, err := http.NewRequestWithContext(ctx, "GET", s.ts.URL+"/", nil)
			if err != nil {
				return failed("%v", err)
			}
			client := *s.client
			client.Timeout = 0
			req.Header.Set("Connection", "Upgrade")
			req.Header.Set("Upgrade", "websocket")
			req.Header.Set("Sec-WebSocket-Version", "13")
			req.Header.Set("Sec-WebSocket-Key", key)
			req.Header.Set("Accept-Encoding", browser)
			resp, err := client.Do(req)
			if err != nil {
				return failed("%v", err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != http.StatusSwitchingProtocols {
				body, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
				select {
				case herr := <-handlerErr:
					return failed("%d: %v", resp.StatusCode, herr)
				default:
				}
				return failed("%d, %s: %q", resp.StatusCode, codingName(resp.Header.Get("Content-Encoding")), body)
			}
			if ce := resp.Header.Get("Content-Encoding"); ce != "" || resp.Header.Get("Sec-WebSocket-Accept") != accept {
				return failed("101 header changed: %v", resp.Header)
			}
			conn, ok := resp.Body.(io.ReadWriter)
			if !ok {
				return failed("101 body is not writable")
			}
			if _, err := conn.Write([]byte("ping")); err != nil {
				return failed("%v", err)
			}
			pong := make([]byte, 4)
			if _, err := io.ReadFull(conn, pong); err != nil {
				return failed("%v", err)
			}
			if herr := <-handlerErr; herr != nil {
				return failed("%v", herr)
			}
			if string(pong) != "PING" {
				return failed("echo %q", pong)
			}
			return passed("")
		})
	},
}}
