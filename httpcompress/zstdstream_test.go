package httpcompress

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/systool"
	"github.com/poolkit/poolkit/internal/zstdblock"
	"github.com/poolkit/poolkit/zstdpool"
)

// streamedBodies returns bodies around the one-block size, JSON-like,
// random and repetitive.
func streamedBodies() map[string][]byte {
	r := rand.New(rand.NewPCG(5, 6))
	random := make([]byte, 1<<20)
	for i := range random {
		random[i] = byte(r.Uint32())
	}
	json := bytes.Repeat([]byte(`{"id":12,"name":"item`), 1)
	for i := 0; len(json) < 1<<20; i++ {
		json = fmt.Appendf(json, ` %x","qty":%d,"price":"%d.%02d"},{"id":%d,"name":"item`, r.Uint32(), r.IntN(20), r.IntN(1000), r.IntN(100), i)
	}
	repetitive := bytes.Repeat([]byte("data: {\"tick\":1}\n\n"), 1<<20/18+1)
	bodies := make(map[string][]byte)
	for _, n := range []int{0, 1, 128<<10 - 1, 128 << 10, 128<<10 + 1, 1 << 20} {
		bodies[fmt.Sprintf("json-%d", n)] = json[:n]
		bodies[fmt.Sprintf("random-%d", n)] = random[:n]
		bodies[fmt.Sprintf("repetitive-%d", n)] = repetitive[:n]
	}
	return bodies
}

// streamingHandler writes body in writes of the sizes in sizes, round and
// round, flushing after every flushEvery-th write (never when 0), with a
// text Content-Type unless one is set.
func streamingHandler(body []byte, sizes []int, flushEvery int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if _, ok := w.Header()["Content-Type"]; !ok {
			w.Header().Set("Content-Type", "text/plain")
		}
		for i, rest := 0, body; len(rest) > 0; i++ {
			k := min(len(rest), sizes[i%len(sizes)])
			w.Write(rest[:k])
			rest = rest[k:]
			if flushEvery > 0 && i%flushEvery == flushEvery-1 {
				w.(http.Flusher).Flush()
			}
		}
		if len(body) == 0 && flushEvery > 0 {
			w.(http.Flusher).Flush() // an empty stream
		}
	}
}

// TestZstdStreamDecodes streams bodies at SpeedFastest, flushed after
// every write, after some, and in writes of odd sizes, and decodes each
// response with klauspost's decoder and with Debian's zstd command. Every
// body that streams (it flushes, or it is above one block) must come in
// a frame that is not single-segment, its window at most ZstdWindow.
func TestZstdStreamDecodes(t *testing.T) {
	zstdCmd := systool.Look(t, "zstd")
	plans := []struct {
		name       string
		sizes      []int
		flushEvery int
	}{
		{"one-write", []int{1 << 30}, 0},
		{"flush-each", []int{3000}, 1},
		{"flush-some", []int{1000, 7919, 65536}, 3},
		{"odd-sizes", []int{1, 13, 4099, 128<<10 + 3, 77}, 0},
		{"odd-sizes-flushed", []int{1, 13, 4099, 128<<10 + 3, 77}, 2},
	}
	for name, body := range streamedBodies() {
		for _, plan := range plans {
			writes := 0
			for rest := len(body); rest > 0; writes++ {
				rest -= min(rest, plan.sizes[writes%len(plan.sizes)])
			}
			flushes := plan.flushEvery > 0 && (writes >= plan.flushEvery || len(body) == 0)
			streams := flushes || len(body) > zstdblock.MaxInput
			for _, level := range []int{zstdpool.SpeedFastest, zstdpool.SpeedDefault} {
				if level != zstdpool.SpeedFastest && (!streams || plan.name != "flush-some") {
					continue // the other levels keep klauspost's encoder: one plan suffices
				}
				rec := serve(t, streamingHandler(body, plan.sizes, plan.flushEvery), "GET", "zstd", WithZstdLevel(level))
				z := rec.Body.Bytes()
				if len(body) < DefaultMinSize && !flushes {
					continue // a short body is sent as it is
				}
				if rec.Header().Get("Content-Encoding") != "zstd" {
					t.Fatalf("%s %s: not zstd", name, plan.name)
				}
				var hdr zstd.Header
				if err := hdr.Decode(z); err != nil {
					t.Fatalf("%s %s: %v", name, plan.name, err)
				}
				if streams && (hdr.SingleSegment || hdr.WindowSize > ZstdWindow) {
					t.Errorf("%s %s level %d: frame header %+v", name, plan.name, level, hdr)
				}
				if got := decodeBody(t, "zstd", z); !bytes.Equal(got, body) {
					t.Errorf("%s %s level %d: klauspost decodes %d bytes to %d of %d", name, plan.name, level, len(z), len(got), len(body))
				}
				cmd := exec.Command(zstdCmd, "-d", "-c", "-q")
				cmd.Stdin = bytes.NewReader(z)
				var out, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &stderr
				if err := cmd.Run(); err != nil || !bytes.Equal(out.Bytes(), body) {
					t.Errorf("%s %s level %d: zstd -d: %v %s; %d bytes of %d", name, plan.name, level, err, stderr.Bytes(), out.Len(), len(body))
				}
			}
		}
	}
}

// TestZstdStreamAllocs checks that zstd responses at SpeedFastest,
// flushed, above one block, and whole bodies of up to one block written in
// pieces, allocate nothing in steady state.
// (klauspost's encoder, which streamed them before, allocates once per
// stream of more than one block.)
func TestZstdStreamAllocs(t *testing.T) {
	body := bytes.Repeat([]byte(rangeFile), 200<<10/len(rangeFile)+1)[:200<<10]
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Accept-Encoding", "gzip, deflate, br, zstd")
	w := &flushWriter{countingWriter{h: make(http.Header)}}
	w.h["Content-Type"] = []string{"text/plain"}
	for _, tc := range []struct {
		name string
		h    http.Handler
	}{
		{"flushed", Handler(streamingHandler(body[:20<<10], []int{2000}, 1))},
		{"above one block", Handler(streamingHandler(body[:128<<10+100], []int{1 << 30}, 0))},
		{"above one block, flushed", Handler(streamingHandler(body, []int{16 << 10}, 2))},
		{"whole body of 100 KiB in 4 KiB writes", Handler(streamingHandler(body[:100<<10], []int{4 << 10}, 0))},
		{"whole body of one block in 3000-byte writes", Handler(streamingHandler(body[:128<<10], []int{3000}, 0))},
	} {
		wantHandlerAllocs(t, tc.name, func() {
			w.n = 0
			delete(w.h, "Vary")
			delete(w.h, "Content-Encoding")
			tc.h.ServeHTTP(w, req)
			if w.n == 0 || w.h.Get("Content-Encoding") != "zstd" {
				t.Fatal("not compressed with zstd")
			}
		})
	}
}
