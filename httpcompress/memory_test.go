package httpcompress

import (
	"bytes"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/pooltest"
)

// flushWriter is a countingWriter that can be flushed, as a server's
// ResponseWriter can.
type flushWriter struct{ countingWriter }

func (f *flushWriter) Flush() {}

// TestStreamMemory holds 64 streaming responses open at once, each having
// written 400 KiB (more than its window and its block, so every buffer a
// stream can grow is grown) with flushes in between, and checks that the
// heap they hold stays within 64 × StreamMemory, the bound the package
// documentation states. Text is written in 80 KiB blocks; letters drawn
// from four, where nearly every match is of the shortest length, so that
// a block has the most sequences, in full blocks of 128 KiB.
func TestStreamMemory(t *testing.T) {
	pooltest.SkipIfRace(t) // the detector's shadow memory would count
	r := rand.New(rand.NewPCG(1, 2))
	letters := make([]byte, 26*16<<10)
	for i := range letters {
		letters[i] = byte('a' + r.IntN(4))
	}
	for _, tc := range []struct {
		name, ce   string
		chunk      []byte
		flushEvery int
	}{
		{"zstd", "zstd", []byte(rangeFile[:16<<10]), 5},
		{"zstd-short-matches", "zstd", letters, 8},
		{"gzip", "gzip", []byte(rangeFile[:16<<10]), 5},
	} {
		t.Run(tc.name, func(t *testing.T) { testStreamMemory(t, tc.ce, tc.chunk, tc.flushEvery) })
	}
}

// testStreamMemory streams 16 KiB slices of src, in turn, 26 in all.
func testStreamMemory(t *testing.T, ce string, src []byte, flushEvery int) {
	chunk := func(i int) []byte {
		k := i % (len(src) >> 14)
		return src[k<<14 : (k+1)<<14]
	}
	held, writers := heldByResponses(t, ce, func(w http.ResponseWriter) {
		for i := range 25 {
			w.Write(chunk(i))
			if i%flushEvery == flushEvery-1 {
				w.(http.Flusher).Flush()
			}
		}
	}, nil, func(w http.ResponseWriter) { w.Write(chunk(25)) })
	t.Logf("%d streaming %s responses hold %d KiB, %d KiB each", len(writers), ce, held>>10, held/int64(len(writers))>>10)
	if held > int64(len(writers))*StreamMemory {
		t.Errorf("%d streaming %s responses hold %d bytes, above %d × StreamMemory = %d", len(writers), ce, held, len(writers), len(writers)*StreamMemory)
	}
	for i, w := range writers {
		if w.h.Get("Content-Encoding") != ce || w.n == 0 {
			t.Fatalf("stream %d: Content-Encoding %q, %d bytes", i, w.h.Get("Content-Encoding"), w.n)
		}
	}
}

// heldByResponses serves 64 requests accepting ce at once, each by a
// handler that sets a text Content-Type, runs first(w) and waits for the
// others. While all wait it measures the heap they hold, above a baseline
// taken with the pools emptied (so that every response makes its
// compressor), and calls during, if not nil, with the writers. Then each
// handler runs last(w) and returns. It returns the heap held and the
// writers, once every response has ended.
func heldByResponses(t *testing.T, ce string, first func(http.ResponseWriter), during func([]*flushWriter), last func(http.ResponseWriter)) (int64, []*flushWriter) {
	const responses = 64
	var started, release sync.WaitGroup
	started.Add(responses)
	release.Add(1)
	h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		first(w)
		started.Done()
		release.Wait()
		last(w)
	}))
	runtime.GC()
	runtime.GC()
	var before, held runtime.MemStats
	runtime.ReadMemStats(&before)
	var done sync.WaitGroup
	writers := make([]*flushWriter, responses)
	for i := range responses {
		writers[i] = &flushWriter{countingWriter{h: make(http.Header)}}
		req := httptest.NewRequest("GET", "/", nil)
		req.Header.Set("Accept-Encoding", ce)
		done.Add(1)
		go func() {
			defer done.Done()
			h.ServeHTTP(writers[i], req)
		}()
	}
	started.Wait()
	runtime.GC()
	runtime.ReadMemStats(&held)
	if during != nil {
		during(writers)
	}
	release.Done()
	done.Wait()
	return int64(held.HeapAlloc) - int64(before.HeapAlloc), writers
}

// TestZstdWindow reads the frame headers of zstd responses with
// klauspost's header decoder and checks the window a client must hold: at
// most 8 MiB, as RFC 9659 requires of HTTP senders, and for a body that
// fits one block, no more than the body.
func TestZstdWindow(t *testing.T) {
	for _, n := range []int{2000, 100 << 10, 1 << 20, 3 << 20} {
		body := bytes.Repeat(rangeFile, n/len(rangeFile)+1)[:n]
		for _, flush := range []bool{false, true} {
			h := Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/plain")
				for rest := body; len(rest) > 0; {
					k := min(len(rest), 64<<10)
					w.Write(rest[:k])
					if flush {
						w.(http.Flusher).Flush()
					}
					rest = rest[k:]
				}
			}))
			rec := serve(t, h.ServeHTTP, "GET", "zstd")
			if rec.Header().Get("Content-Encoding") != "zstd" {
				t.Fatalf("n=%d: not zstd", n)
			}
			var hdr zstd.Header
			if err := hdr.Decode(rec.Body.Bytes()); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			window := hdr.WindowSize
			if hdr.SingleSegment {
				window = hdr.FrameContentSize
			}
			if window > 8<<20 || window > ZstdWindow && window > uint64(n) {
				t.Errorf("n=%d flush=%v: window %d bytes", n, flush, window)
			}
			if got := decodeBody(t, "zstd", rec.Body.Bytes()); len(got) != n {
				t.Errorf("n=%d flush=%v: decodes to %d bytes", n, flush, len(got))
			}
		}
	}
}

// TestWholeBodyMemory holds 64 zstd responses open at once, each having
// written just under one block (128 KiB) without a flush, so each is
// collecting its whole body, and checks that none has sent a byte and
// that the heap they hold stays within 64 × WholeBodyMemory, the bound the
// package documentation states.
func TestWholeBodyMemory(t *testing.T) {
	pooltest.SkipIfRace(t)
	chunk := rangeFile[:16<<10]
	held, writers := heldByResponses(t, "zstd", func(w http.ResponseWriter) {
		for range 7 {
			w.Write(chunk)
		}
		w.Write(chunk[:16<<10-1])
	}, func(writers []*flushWriter) {
		for i, w := range writers {
			if w.n != 0 {
				t.Errorf("response %d sent %d bytes before its handler returned", i, w.n)
			}
		}
	}, func(http.ResponseWriter) {})
	n := int64(len(writers))
	t.Logf("%d whole-body zstd responses hold %d KiB, %d KiB each", n, held>>10, held/n>>10)
	if held > n*WholeBodyMemory {
		t.Errorf("%d whole-body responses hold %d bytes, above %d × WholeBodyMemory = %d", n, held, n, n*WholeBodyMemory)
	}
	for i, w := range writers {
		if w.h.Get("Content-Encoding") != "zstd" || w.n == 0 {
			t.Fatalf("response %d: Content-Encoding %q, %d bytes", i, w.h.Get("Content-Encoding"), w.n)
		}
	}
}
