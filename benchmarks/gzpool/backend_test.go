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

// Pooled compress/gzip, written the way gzpool is (append into dst, a
// pooled reader over a bytes.Reader the state owns), so that only the
// backend differs.
type stdWriterState struct {
	zw  *stdgzip.Writer
	out appender
}

var stdWriters = sync.Pool{New: func() any {
	st := new(stdWriterState)
	st.zw = stdgzip.NewWriter(&st.out)
	return st
}}

func stdCompress(dst, src []byte) ([]byte, error) {
	st := stdWriters.Get().(*stdWriterState)
	st.out.b = dst
	st.zw.Reset(&st.out)
	_, err := st.zw.Write(src)
	if err == nil {
		err = st.zw.Close()
	}
	dst = st.out.b
	st.out.b = nil
	stdWriters.Put(st)
	return dst, err
}

type stdReaderState struct {
	zr  stdgzip.Reader
	src bytes.Reader
}

var stdReaders = sync.Pool{New: func() any { return new(stdReaderState) }}

func stdDecompress(dst, src []byte) ([]byte, error) {
	st := stdReaders.Get().(*stdReaderState)
	defer stdReaders.Put(st)
	st.src.Reset(src)
	defer st.src.Reset(nil)
	if err := st.zr.Reset(&st.src); err != nil {
		return dst, err
	}
	return readAppend(dst, &st.zr)
}

// The same with klauspost/compress/gzip.
type kpWriterState struct {
	zw  *kpgzip.Writer
	out appender
}

var kpWriters = sync.Pool{New: func() any {
	st := new(kpWriterState)
	st.zw = kpgzip.NewWriter(&st.out)
	return st
}}

func kpCompress(dst, src []byte) ([]byte, error) {
	st := kpWriters.Get().(*kpWriterState)
	st.out.b = dst
	st.zw.Reset(&st.out)
	_, err := st.zw.Write(src)
	if err == nil {
		err = st.zw.Close()
	}
	dst = st.out.b
	st.out.b = nil
	kpWriters.Put(st)
	return dst, err
}

type kpReaderState struct {
	zr  kpgzip.Reader
	src bytes.Reader
}

var kpReaders = sync.Pool{New: func() any { return new(kpReaderState) }}

func kpDecompress(dst, src []byte) ([]byte, error) {
	st := kpReaders.Get().(*kpReaderState)
	defer kpReaders.Put(st)
	st.src.Reset(src)
	defer st.src.Reset(nil)
	if err := st.zr.Reset(&st.src); err != nil {
		return dst, err
	}
	return readAppend(dst, &st.zr)
}

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
	{"pooled-stdlib", stdCompress, stdDecompress},
	{"pooled-klauspost", kpCompress, kpDecompress},
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
