package workloads

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"sync"

	"github.com/poolkit/poolkit/gzpool"
	"github.com/poolkit/poolkit/internal/race"
)

// The gzip workloads of ludwig125's sync.Pool article: compressing the
// article's 169-byte text, and decompressing it again. Every variant
// returns a result its caller owns and hands it to a checking consumer.

const srcGzip = "ludwig125, golangのsync.Poolで速度改善したい, " +
	"go test -bench, 8 threads, linux/amd64"

// gzipText is the article's data: the overview of compress/gzip.
var gzipText = []byte("https://pkg.go.dev/compress/gzip\n\tDocumentation\n\tOverview\n\tPackage gzip implements reading and writing of gzip format compressed files, as specified in RFC 1952.")

// gzippedText is gzipText compressed by the article's own Gzip, the input
// of every gunzip variant.
var gzippedText = func() []byte {
	z, err := gzipNaive(gzipText)
	if err != nil {
		panic(err)
	}
	return z
}()

var (
	// consumeGzip checks a compressed result cheaply: the gzip magic, and
	// a trailer recording the input's length. (gzpool's tests check full
	// round trips; decoding here would add its cost to every variant.)
	consumeGzip = func(z []byte) error {
		if len(z) < 18 || z[0] != 0x1f || z[1] != 0x8b ||
			binary.LittleEndian.Uint32(z[len(z)-4:]) != uint32(len(gzipText)) {
			return fmt.Errorf("gzip: result of %d bytes is not a gzip stream of the input", len(z))
		}
		return nil
	}
	consumeGunzip = func(b []byte) error {
		if !bytes.Equal(b, gzipText) {
			return fmt.Errorf("gunzip: got %q, want the article's text", b)
		}
		return nil
	}
)

// ---- compress ----

// gzipNaive is the article's Gzip: a new gzip.Writer per call.
func gzipNaive(data []byte) ([]byte, error) {
	var b bytes.Buffer
	gw := gzip.NewWriter(&b)
	if _, err := gw.Write(data); err != nil {
		return nil, fmt.Errorf("failed to gzip Write: %v", err)
	}
	if err := gw.Close(); err != nil {
		return nil, fmt.Errorf("failed to Close gzip Writer: %v", err)
	}
	return b.Bytes(), nil
}

type gzipSeedWriter struct {
	w   *gzip.Writer
	buf *bytes.Buffer
}

var gzipSeedWriterPool = sync.Pool{
	New: func() any {
		buf := &bytes.Buffer{}
		return &gzipSeedWriter{w: gzip.NewWriter(buf), buf: buf}
	},
}

// gzipSeed is the article's GzipWithGzipWriterPool with its bug fixed: the
// article returns gw.buf.Bytes() while a deferred Put hands gw back to the
// pool, so the caller's result is the pooled buffer the next call resets
// and overwrites. Here the bytes are copied out before Put.
func gzipSeed(data []byte) ([]byte, error) {
	gw := gzipSeedWriterPool.Get().(*gzipSeedWriter)
	defer gzipSeedWriterPool.Put(gw)
	gw.buf.Reset()
	gw.w.Reset(gw.buf)
	if _, err := gw.w.Write(data); err != nil {
		return nil, fmt.Errorf("failed to gzip Write: %v", err)
	}
	if err := gw.w.Close(); err != nil {
		return nil, fmt.Errorf("failed to gzip Close: %v", err)
	}
	return bytes.Clone(gw.buf.Bytes()), nil // fixed: a copy the caller owns
}

// gzipDst is the reused destination of the poolkit "into a reused dst"
// cases; serial cases only.
var gzipDst = make([]byte, 0, 4096)

const gzipSeedNote = "Bug fixed: the article returns gw.buf.Bytes() while a deferred Put gives the buffer " +
	"back to the pool, so results alias memory the next call overwrites (a data race under concurrency). " +
	"The result is copied before Put: that copy is the one allocation. The article's own 1 alloc/op was " +
	"the []byte(data) conversion in its benchmark loop; here every variant takes the same []byte."

const gzipKitNote = "Output is standard gzip from klauspost/compress at its default level (153 bytes " +
	"here, compress/gzip's is 154): the same text decodes from every variant."

// ---- decompress ----

// gunzipNaiveIn and gunzipSeedIn are one bytes.Reader per variant, reset
// to the start of the input before each call: the article's benchmark
// reused one bytes.Buffer, consumed by the first call, so every later call
// measured gzip.NewReader failing with io.EOF.
var gunzipNaiveIn, gunzipSeedIn bytes.Reader

// gunzipNaive is the article's Gunzip: a new gzip.Reader per call.
func gunzipNaive(data io.Reader) ([]byte, error) {
	gr, err := gzip.NewReader(data)
	if err != nil {
		return nil, fmt.Errorf("failed to gzip.NewReader: %v", err)
	}
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, gr); err != nil {
		return nil, fmt.Errorf("failed to io.Copy: %v", err)
	}
	if err := gr.Close(); err != nil {
		return nil, fmt.Errorf("failed to Close gzip Reader: %v", err)
	}
	return buf.Bytes(), nil
}

type gzipSeedReader struct {
	r   *gzip.Reader
	buf *bytes.Buffer
	err error
}

var gzipSeedReaderPool = sync.Pool{
	New: func() any {
		var buf bytes.Buffer
		// As the article: an empty gzip stream, so that gzip.NewReader
		// has a header to read.
		zw := gzip.NewWriter(&buf)
		if err := zw.Close(); err != nil {
			return &gzipSeedReader{err: err}
		}
		r, err := gzip.NewReader(&buf)
		if err != nil {
			return &gzipSeedReader{err: err}
		}
		return &gzipSeedReader{r: r, buf: &buf}
	},
}

// gunzipSeed is the article's GunzipWithGzipReaderPool with the same
// use-after-Put bug fixed as gzipSeed: it returned gr.buf.Bytes() after the
// deferred Put.
func gunzipSeed(data io.Reader) ([]byte, error) {
	gr := gzipSeedReaderPool.Get().(*gzipSeedReader)
	if gr.err != nil {
		return nil, fmt.Errorf("failed to Get gzipReaderPool: %v", gr.err)
	}
	//poolvet:ignore retention the article's pattern, measured as published: it puts the buffer back with no size check
	defer gzipSeedReaderPool.Put(gr)
	defer gr.r.Close()
	gr.buf.Reset()
	if err := gr.r.Reset(data); err != nil {
		return nil, err
	}
	if _, err := io.Copy(gr.buf, gr.r); err != nil {
		return nil, fmt.Errorf("failed to io.Copy: %v", err)
	}
	return bytes.Clone(gr.buf.Bytes()), nil // fixed: a copy the caller owns
}

// gunzipLimit bounds the output of the poolkit cases, as any decompression
// of outside data should be.
const gunzipLimit = 1 << 20

var gunzipDst = make([]byte, 0, 4096)

const gunzipNaiveNote = "Each call reads a bytes.Reader reset to the start of the input. The article's " +
	"benchmark passed one bytes.Buffer to every call: the first call consumed it, and every later call " +
	"measured gzip.NewReader returning io.EOF, not a decompression; its figures are that error path."

// warmGzpool runs gzpool's calls a few thousand times, once per process,
// before the first poolkit case measures them. The Go runtime fills the
// cache of each type assertion or type switch to an interface on a random
// one call in 1024 (runtime/iface.go), allocating the cache then;
// klauspost's reader asserts interfaces on every Reset, so over its first
// few thousand calls a process sees a few small allocations at random. The
// warm-up makes the measured allocations those of the steady state, which
// gzpool's own tests assert.
// Under the race detector allocations are not asserted, and the warm-up
// would take seconds: it is skipped.
var warmGzpool = sync.OnceFunc(func() {
	if race.Enabled {
		return
	}
	dst := make([]byte, 0, 4096)
	for range 8192 {
		z, err := gzpool.AppendCompress(dst[:0], gzipText)
		if err == nil {
			_, err = gzpool.AppendDecompress(z[len(z):], gzippedText, gunzipLimit)
		}
		if err != nil {
			panic("workloads: gzpool warm-up: " + err.Error())
		}
	}
})

const gunzipSeedNote = "Two bugs fixed: the consumed input (as for the naive case: the article's 96.8 ns " +
	"is the io.EOF path), and the use-after-Put of gr.buf.Bytes(), now copied before Put (one allocation)."

func registerGzip() {
	w := "gzip"
	Register(
		Case{Workload: w, Variant: Naive, WantAllocs: -1,
			Op:        consumed(func() ([]byte, error) { return gzipNaive(gzipText) }, consumeGzip),
			Published: &Figure{NsPerOp: 199275, AllocsPerOp: 21, Source: srcGzip + ", BenchmarkGzip"},
			Footnote:  "As published: gzip.NewWriter and a bytes.Buffer per call."},
		Case{Workload: w, Variant: Seed, WantAllocs: -1,
			Op:        consumed(func() ([]byte, error) { return gzipSeed(gzipText) }, consumeGzip),
			Published: &Figure{NsPerOp: 28469, AllocsPerOp: 1, Source: srcGzip + ", BenchmarkGzipWithGzipWriterPool"},
			Footnote:  gzipSeedNote},
		Case{Workload: w, Variant: Poolkit, Name: "AppendCompress, new result", WantAllocs: 1,
			Op: consumed(func() ([]byte, error) {
				warmGzpool()
				return gzpool.AppendCompress(nil, gzipText)
			}, consumeGzip),
			Footnote: "gzpool.AppendCompress(nil, data): the result, sized exactly, is the one allocation. " + gzipKitNote},
		Case{Workload: w, Variant: Poolkit, Name: "AppendCompress, reused dst", WantAllocs: 0,
			Op: consumed(func() ([]byte, error) {
				warmGzpool()
				z, err := gzpool.AppendCompress(gzipDst[:0], gzipText)
				if err == nil {
					gzipDst = z[:0]
				}
				return z, err
			}, consumeGzip),
			Footnote: "gzpool.AppendCompress into the caller's reused buffer: no allocation. " + gzipKitNote},
	)

	w = "gunzip"
	Register(
		Case{Workload: w, Variant: Naive, WantAllocs: -1,
			Op: consumed(func() ([]byte, error) {
				gunzipNaiveIn.Reset(gzippedText)
				return gunzipNaive(&gunzipNaiveIn)
			}, consumeGunzip),
			Published: &Figure{NsPerOp: 582, AllocsPerOp: 3, Source: srcGzip + ", BenchmarkGunzip"},
			Footnote:  gunzipNaiveNote},
		Case{Workload: w, Variant: Seed, WantAllocs: -1,
			Op: consumed(func() ([]byte, error) {
				gunzipSeedIn.Reset(gzippedText)
				return gunzipSeed(&gunzipSeedIn)
			}, consumeGunzip),
			Published: &Figure{NsPerOp: 96.8, AllocsPerOp: 0, Source: srcGzip + ", BenchmarkGunzipWithGzipReaderPool"},
			Footnote:  gunzipSeedNote},
		Case{Workload: w, Variant: Poolkit, Name: "AppendDecompress, new result", WantAllocs: 1,
			Op: consumed(func() ([]byte, error) {
				warmGzpool()
				return gzpool.AppendDecompress(nil, gzippedText, gunzipLimit)
			}, consumeGunzip),
			Footnote: "gzpool.AppendDecompress(nil, data, 1 MiB limit): the result, sized from the gzip " +
				"trailer, is the one allocation."},
		Case{Workload: w, Variant: Poolkit, Name: "AppendDecompress, reused dst", WantAllocs: 0,
			Op: consumed(func() ([]byte, error) {
				warmGzpool()
				b, err := gzpool.AppendDecompress(gunzipDst[:0], gzippedText, gunzipLimit)
				if err == nil {
					gunzipDst = b[:0]
				}
				return b, err
			}, consumeGunzip),
			Footnote: "gzpool.AppendDecompress into the caller's reused buffer: no allocation."},
	)
}
