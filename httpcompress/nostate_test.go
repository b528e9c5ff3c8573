package httpcompress

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/crosstalk"
	"github.com/poolkit/poolkit/internal/systool"
)

// noStateHandler writes body in pieces of 4 KiB, flushing after each when
// flush is set.
func noStateHandler(body []byte, flush bool) http.Handler {
	return Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for rest := body; len(rest) > 0; {
			k := min(len(rest), 4<<10)
			w.Write(rest[:k])
			rest = rest[k:]
			if flush {
				w.(http.Flusher).Flush()
			}
		}
	}))
}

// noStateGet returns the zstd response h gives.
func noStateGet(t testing.TB, h http.Handler) []byte {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "zstd")
	h.ServeHTTP(rec, req)
	if ce := rec.Header().Get("Content-Encoding"); ce != "zstd" {
		t.Errorf("Content-Encoding %q, want zstd", ce)
	}
	return rec.Body.Bytes()
}

// TestResponseDependsOnlyOnBody answers one client with an answer holding
// a secret token, then another client, through the same middleware and
// its pooled encoders: whole bodies (one block), flushed streams and
// bodies over 128 KiB, serially and on many goroutines. The second
// client's response must be the same whatever was answered before (here:
// the same as when only its own answer went before), and decode, with
// klauspost's decoder and zstd -d, to its body. A response that carried
// the pooled encoder's earlier tables would tell one client what
// another's answer held.
func TestResponseDependsOnlyOnBody(t *testing.T) {
	zstdCmd := systool.Look(t, "zstd")
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, tc := range []struct {
		name  string
		n     int
		flush bool
	}{
		{"whole-5KB", 5000, false},
		{"whole-100KiB", 100 << 10, false},
		{"flushed-5KB", 5000, true},
		{"flushed-300KiB", 300 << 10, true},
		{"whole-300KiB", 300 << 10, false},
	} {
		secret, other := crosstalk.Secret(tc.n), crosstalk.Other(tc.n, 1)
		hs, ho := noStateHandler(secret, tc.flush), noStateHandler(other, tc.flush)
		noStateGet(t, ho)
		want := noStateGet(t, ho) // after the other client's own answers
		if got, err := d.DecodeAll(want, nil); err != nil || !bytes.Equal(got, other) {
			t.Fatalf("%s: klauspost decodes %d bytes of %d: %v", tc.name, len(got), len(other), err)
		}
		cmd := exec.Command(zstdCmd, "-d", "-c", "-q")
		cmd.Stdin = bytes.NewReader(want)
		if out, err := cmd.Output(); err != nil || !bytes.Equal(out, other) {
			t.Fatalf("%s: zstd -d: %d bytes of %d: %v", tc.name, len(out), len(other), err)
		}
		for i := range 5 {
			noStateGet(t, hs)
			if got := noStateGet(t, ho); !bytes.Equal(got, want) {
				t.Errorf("%s, round %d: after the secret answer, %d bytes, not the %d sent after the client's own", tc.name, i, len(got), len(want))
			}
		}
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 6 {
					if (g+i)%2 == 0 {
						noStateGet(t, hs)
					} else if got := noStateGet(t, ho); !bytes.Equal(got, want) {
						errs <- fmt.Sprintf("%s, goroutine %d: %d bytes, not the %d sent after the client's own", tc.name, g, len(got), len(want))
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for e := range errs {
			t.Error(e)
		}
	}
}
