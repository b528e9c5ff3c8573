package httpcompress

import (
	"bytes"
	"net/http"
	"os/exec"
	"testing"

	"github.com/poolkit/poolkit/internal/systool"
	"github.com/poolkit/poolkit/internal/zstdblock"
)

// TestWholeBody checks when a zstd response is compressed whole by the
// one-block encoder: a body of up to one block, written in any number of
// pieces without a Flush, at the default level. A Flush, a longer body or
// another level streams through klauspost's encoder, and a Flush sends
// what was written before it at once. Every body decodes, with
// klauspost's decoder and Debian's zstd command.
func TestWholeBody(t *testing.T) {
	zstdCmd := systool.Look(t, "zstd")
	for _, tc := range []struct {
		name    string
		n       int // body length
		pieces  int
		flushAt int // flush after this piece; -1 for none
		opts    []Option
		whole   bool // sent as zstdblock's frame of the body
	}{
		{"min-size", DefaultMinSize, 1, -1, nil, true},
		{"5KB", 5000, 1, -1, nil, true},
		{"5KB-in-pieces", 5000, 7, -1, nil, true},
		{"block", zstdblock.MaxInput, 3, -1, nil, true},
		{"block+1", zstdblock.MaxInput + 1, 3, -1, nil, false},
		{"300KB", 300 << 10, 5, -1, nil, false},
		{"flushed", 5000, 4, 1, nil, false},
		{"padded", 5000, 1, -1, []Option{WithPadding(32)}, true},
		{"SpeedDefault", 5000, 1, -1, []Option{WithZstdLevel(3)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := bytes.Repeat(rangeFile, tc.n/len(rangeFile)+1)[:tc.n]
			sentAtFlush := -1
			var rec *flushRecorder
			h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				step := (tc.n + tc.pieces - 1) / tc.pieces
				for i := 0; i < tc.pieces; i++ {
					w.Write(body[min(i*step, tc.n):min((i+1)*step, tc.n)])
					if i == tc.flushAt {
						w.(http.Flusher).Flush()
						sentAtFlush = rec.body.Len()
					}
				}
			}), tc.opts...)
			rec = &flushRecorder{h: make(http.Header)}
			var framed []byte // the body appendWholeFrame compressed
			defer func(f func(dst, src []byte) []byte) { appendWholeFrame = f }(appendWholeFrame)
			appendWholeFrame = func(dst, src []byte) []byte {
				framed = append(framed[:0], src...)
				return zstdblock.AppendFrame(dst, src)
			}
			req, _ := http.NewRequest("GET", "/", nil)
			req.Header.Set("Accept-Encoding", "zstd")
			h.ServeHTTP(rec, req)
			z := rec.body.Bytes()
			if ce := rec.h.Get("Content-Encoding"); ce != "zstd" {
				t.Fatalf("Content-Encoding %q", ce)
			}
			if got := decodeBody(t, "zstd", z); !bytes.Equal(got, body) {
				t.Fatalf("klauspost decodes %d bytes, want %d", len(got), len(body))
			}
			cmd := exec.Command(zstdCmd, "-d", "-c", "-q")
			cmd.Stdin = bytes.NewReader(z)
			if out, err := cmd.Output(); err != nil || !bytes.Equal(out, body) {
				t.Fatalf("zstd -d: %v, %d bytes", err, len(out))
			}
			whole := framed != nil
			if whole && !bytes.Equal(framed, body) {
				t.Errorf("the one-block encoder compressed %d bytes, not the body", len(framed))
			}
			if whole != tc.whole {
				t.Errorf("sent as one zstdblock frame: %v, want %v", whole, tc.whole)
			}
			if tc.flushAt >= 0 && sentAtFlush <= 0 {
				t.Errorf("a Flush after %d bytes sent %d bytes", (tc.flushAt+1)*tc.n/tc.pieces, sentAtFlush)
			}
		})
	}
}

// flushRecorder records a response, and can be flushed.
type flushRecorder struct {
	h    http.Header
	body bytes.Buffer
}

func (f *flushRecorder) Header() http.Header         { return f.h }
func (f *flushRecorder) WriteHeader(int)             {}
func (f *flushRecorder) Write(p []byte) (int, error) { return f.body.Write(p) }
func (f *flushRecorder) Flush()                      {}
