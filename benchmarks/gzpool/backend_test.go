package gzpool

import (
	"bytes"
	stdgzip "compress/gzip"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	kpgzip "github.com/klauspost/compress/gzip"
	"github.com/poolkit/poolkit/gzpool"
	"github.com/poolkit/poolkit/internal/goenv"
)

// seedText is the text ludwig125's sync.Pool article compresses (the seed
// variant's): the overview of compress/gzip, 169 bytes.
const seedText = "https://pkg.go.dev/compress/gzip\n\tDocumentation\n\tOverview\n\tPackage gzip implements reading and writing of gzip format compressed files, as specified in RFC 1952."

var sink []byte

// appender is an io.Writer that appends to b.
type appender struct{ b []byte }

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}

// pooledGzip is a gzip backend pooled the way gzpool pools its own:
// compress appends into dst through a pooled writer, decompress reads
// through a pooled reader over a bytes.Reader the state owns. Between
// pooledGzips only the backend differs.
type pooledGzip struct {
	writers, readers sync.Pool
}

// gzipWriter and gzipReader are what pooledGzip needs of a backend's
// gzip.Writer and gzip.Reader.
type (
	gzipWriter interface {
		Reset(w io.Writer)
		Write(p []byte) (int, error)
		Close() error
	}
	gzipReader interface {
		Reset(r io.Reader) error
		Read(p []byte) (int, error)
	}
)

type writerState struct {
	zw  gzipWriter
	out appender
}

type readerState struct {
	zr  gzipReader
	src bytes.Reader
}

func newPooledGzip(newWriter func(io.Writer) gzipWriter, newReader func() gzipReader) *pooledGzip {
	g := new(pooledGzip)
	g.writers.New = func() any {
		st := new(writerState)
		st.zw = newWriter(&st.out)
		return st
	}
	g.readers.New = func() any { return &readerState{zr: newReader()} }
	return g
}

func (g *pooledGzip) compress(dst, src []byte) ([]byte, error) {
	st := g.writers.Get().(*writerState)
	st.out.b = dst
	st.zw.Reset(&st.out)
	_, err := st.zw.Write(src)
	if err == nil {
		err = st.zw.Close()
	}
	dst = st.out.b
	st.out.b = nil
	g.writers.Put(st)
	return dst, err
}

func (g *pooledGzip) decompress(dst, src []byte) ([]byte, error) {
	st := g.readers.Get().(*readerState)
	defer g.readers.Put(st)
	st.src.Reset(src)
	defer st.src.Reset(nil)
	if err := st.zr.Reset(&st.src); err != nil {
		return dst, err
	}
	return readAppend(dst, st.zr)
}

// stdGzip is compress/gzip pooled, kpGzip klauspost/compress/gzip.
var (
	stdGzip = newPooledGzip(func(w io.Writer) gzipWriter { return stdgzip.NewWriter(w) },
		func() gzipReader { return new(stdgzip.Reader) })
	kpGzip = newPooledGzip(func(w io.Writer) gzipWriter { return kpgzip.NewWriter(w) },
		func() gzipReader { return new(kpgzip.Reader) })
)

// readAppend reads r to EOF onto dst, growing it only when full.
func readAppend(dst []byte, r io.Reader) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
}

// The naive versions: a new gzip.Writer or gzip.Reader per call, as the
// article's "before".
func naiveCompress(dst, src []byte) ([]byte, error) {
	var buf bytes.Buffer
	zw := stdgzip.NewWriter(&buf)
	if _, err := zw.Write(src); err != nil {
		return dst, err
	}
	if err := zw.Close(); err != nil {
		return dst, err
	}
	return append(dst, buf.Bytes()...), nil
}

func naiveDecompress(dst, src []byte) ([]byte, error) {
	zr, err := stdgzip.NewReader(bytes.NewReader(src))
	if err != nil {
		return dst, err
	}
	return readAppend(dst, zr)
}

func gzpoolDecompress(dst, src []byte) ([]byte, error) {
	return gzpool.AppendDecompress(dst, src, -1)
}

type impl struct {
	name       string
	compress   func(dst, src []byte) ([]byte, error)
	decompress func(dst, src []byte) ([]byte, error)
}

var impls = []impl{
	{"naive-stdlib", naiveCompress, naiveDecompress},
	{"pooled-stdlib", stdGzip.compress, stdGzip.decompress},
	{"pooled-klauspost", kpGzip.compress, kpGzip.decompress},
	{"gzpool", gzpool.AppendCompress, gzpoolDecompress},
}

type input struct {
	name string
	data []byte
}

func inputs(tb testing.TB) []input {
	goroot, err := goenv.GOROOT()
	if err != nil {
		tb.Fatal(err)
	}
	opticks, err := os.ReadFile(filepath.Join(goroot, "src", "testdata", "Isaac.Newton-Opticks.txt"))
	if err != nil {
		tb.Fatal(err)
	}
	return []input{{"small", []byte(seedText)}, {"opticks", opticks}}
}

// TestImplsRoundTrip checks that every variant produces gzip the others
// read back, so the benchmarks compare equal work.
func TestImplsRoundTrip(t *testing.T) {
	for _, in := range inputs(t) {
		for _, c := range impls {
			z, err := c.compress(nil, in.data)
			if err != nil {
				t.Fatal(c.name, err)
			}
			for _, d := range impls {
				out, err := d.decompress(nil, z)
				if err != nil || !bytes.Equal(out, in.data) {
					t.Fatalf("%s: %s-compressed data decompressed by %s: err %v, equal %v", in.name, c.name, d.name, err, bytes.Equal(out, in.data))
				}
			}
		}
	}
}

func BenchmarkCompress(b *testing.B) {
	for _, in := range inputs(b) {
		for _, c := range impls {
			b.Run("in="+in.name+"/impl="+c.name, func(b *testing.B) {
				dst := make([]byte, 0, 2*len(in.data)+1024)
				b.ReportAllocs()
				b.SetBytes(int64(len(in.data)))
				var out []byte
				for b.Loop() {
					var err error
					out, err = c.compress(dst[:0], in.data)
					if err != nil {
						b.Fatal(err)
					}
				}
				sink = out
				b.ReportMetric(float64(len(out)), "out-bytes")
			})
		}
	}
}

// BenchmarkCompressNilDst is gzpool.AppendCompress into a nil dst: the one
// allocation is the result.
func BenchmarkCompressNilDst(b *testing.B) {
	for _, in := range inputs(b) {
		b.Run("in="+in.name+"/impl=gzpool", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.data)))
			for b.Loop() {
				out, err := gzpool.AppendCompress(nil, in.data)
				if err != nil {
					b.Fatal(err)
				}
				sink = out
			}
		})
	}
}

func BenchmarkDecompress(b *testing.B) {
	for _, in := range inputs(b) {
		// Every reader decodes the same stream: compress/gzip's output
		// at its default level.
		z, err := naiveCompress(nil, in.data)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range impls {
			b.Run("in="+in.name+"/impl="+c.name, func(b *testing.B) {
				dst := make([]byte, 0, len(in.data))
				b.ReportAllocs()
				b.SetBytes(int64(len(in.data)))
				var out []byte
				for b.Loop() {
					// Each call reads a fresh reader over z: the
					// input is never a consumed stream.
					var err error
					out, err = c.decompress(dst[:0], z)
					if err != nil {
						b.Fatal(err)
					}
				}
				if !bytes.Equal(out, in.data) {
					b.Fatal("wrong output")
				}
				sink = out
			})
		}
	}
}

func BenchmarkCompressParallel(b *testing.B) {
	in := inputs(b)[0]
	for _, c := range impls {
		b.Run("in="+in.name+"/impl="+c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.data)))
			b.RunParallel(func(pb *testing.PB) {
				dst := make([]byte, 0, 1024)
				var out []byte
				ran := false
				for pb.Next() {
					var err error
					out, err = c.compress(dst[:0], in.data)
					if err != nil {
						b.Error(err)
						return
					}
					ran = true
				}
				if ran && len(out) == 0 {
					b.Error("no output")
				}
			})
		})
	}
}
