package zstdpool

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"

	corpusfiles "github.com/poolkit/poolkit/internal/corpus"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/systool"
)

// corpus returns the test corpus: GOROOT's compression test data.
func corpus(t testing.TB) map[string][]byte { return corpusfiles.Files(t) }

// oracle is klauspost's own decoder, used as is, with its own limits
// raised: the independent reading the package's output must match.
func oracle(t testing.TB, z []byte) []byte {
	t.Helper()
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<40))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	out, err := d.DecodeAll(z, nil)
	if err != nil {
		t.Fatalf("klauspost's decoder refuses the output: %v", err)
	}
	return out
}

// oracleCompress is klauspost's encoder, used as is (a stream, so frames
// without a content size, and EncodeAll).
func oracleCompress(t testing.TB, src []byte, stream bool) []byte {
	t.Helper()
	e, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	if !stream {
		return e.EncodeAll(src, nil)
	}
	var b bytes.Buffer
	e.Reset(&b)
	for len(src) > 0 { // several writes and a flush: several blocks
		n := min(len(src), 50000)
		if _, err := e.Write(src[:n]); err != nil {
			t.Fatal(err)
		}
		if err := e.Flush(); err != nil {
			t.Fatal(err)
		}
		src = src[n:]
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRoundTripCorpus(t *testing.T) {
	for name, data := range corpus(t) {
		for level := SpeedFastest; level <= SpeedBestCompression; level++ {
			if level > SpeedDefault && len(data) > 1<<20 {
				continue // the slow levels add time, not coverage
			}
			z, err := AppendCompressLevel(nil, data, level)
			if err != nil {
				t.Fatalf("%s level %d: %v", name, level, err)
			}
			if got := oracle(t, z); !bytes.Equal(got, data) {
				t.Fatalf("%s level %d: klauspost decodes %d bytes that differ from the %d compressed", name, level, len(got), len(data))
			}
			got, err := AppendDecompress(nil, z, int64(len(data)))
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%s level %d: AppendDecompress at an exact limit: err %v, equal %v", name, level, err, bytes.Equal(got, data))
			}
		}
		for _, stream := range []bool{false, true} {
			z := oracleCompress(t, data, stream)
			got, err := AppendDecompress([]byte("prefix"), z, -1)
			if err != nil || string(got[:6]) != "prefix" || !bytes.Equal(got[6:], data) {
				t.Fatalf("%s (stream %v): AppendDecompress of klauspost's output: err %v", name, stream, err)
			}
			r, err := NewReader(bytes.NewReader(z))
			if err != nil {
				t.Fatalf("%s (stream %v): NewReader: %v", name, stream, err)
			}
			got, err = io.ReadAll(r)
			r.Close()
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("%s (stream %v): Reader: err %v, equal %v", name, stream, err, bytes.Equal(got, data))
			}
		}
	}
}

// TestCanary checks that the appenders write nothing in dst's spare
// capacity past the length they return, and keep dst's prefix.
func TestCanary(t *testing.T) {
	text := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"]
	for _, n := range []int{0, 1, 100, 5000, 131072, 300000} {
		for _, tail := range []string{"", "xyzxyzxyzxyzxyzxyzxyzxyzxyzxyzxy", "qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq"} {
			// A tail of repeats ends the output with a match, copied in
			// 16-byte steps by the decoder's fast path.
			data := append(bytes.Clone(text[:n]), tail...)
			for _, stream := range []bool{false, true} {
				z := oracleCompress(t, data, stream)
				for _, extra := range []int{0, 16, 64, 200000} {
					check := func(what string, out []byte, buf []byte, base int) {
						t.Helper()
						if !bytes.Equal(out[:base], []byte("prefix")[:base]) {
							t.Fatalf("%s n=%d stream=%v extra=%d: prefix changed", what, n, stream, extra)
						}
						for i := len(out); i < cap(buf); i++ {
							if buf[:cap(buf)][i] != 0xAA {
								t.Fatalf("%s n=%d stream=%v extra=%d: byte %d past the returned length %d written", what, n, stream, extra, i, len(out))
							}
						}
					}
					buf := bytes.Repeat([]byte{0xAA}, 6+len(data)+extra)
					copy(buf, "prefix")
					out, err := AppendDecompress(buf[:6], z, -1)
					if err != nil || !bytes.Equal(out[6:], data) {
						t.Fatalf("n=%d stream=%v: %v", n, stream, err)
					}
					if &out[0] == &buf[0] {
						check("AppendDecompress", out, buf, 6)
					}
					cbuf := bytes.Repeat([]byte{0xAA}, 6+len(data)+len(data)/8+1024+extra)
					copy(cbuf, "prefix")
					out, err = AppendCompress(cbuf[:6], data)
					if err != nil {
						t.Fatal(err)
					}
					if &out[0] == &cbuf[0] {
						check("AppendCompress", out, cbuf, 6)
					}
				}
			}
		}
	}
}

func TestOverlap(t *testing.T) {
	text := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"]
	for _, n := range []int{10, 1000, 200000} {
		data := text[:n]
		// Compress in place.
		buf := make([]byte, n, 2*n+1024)
		copy(buf, data)
		z, err := AppendCompress(buf[:0], buf)
		if err != nil || !bytes.Equal(oracle(t, z), data) {
			t.Fatalf("n=%d compress in place: %v", n, err)
		}
		// Decompress in place, sized and streamed frames, with the
		// input anywhere in the buffer.
		for _, stream := range []bool{false, true} {
			zz := oracleCompress(t, data, stream)
			for _, k := range []int{0, 5, n / 2, n} {
				buf := make([]byte, k+len(zz), k+n+len(zz)+64)
				copy(buf[k:], zz)
				out, err := AppendDecompress(buf[:0], buf[k:k+len(zz)], -1)
				if err != nil || !bytes.Equal(out, data) {
					t.Fatalf("n=%d stream=%v input at %d: in place: err %v, equal %v", n, stream, k, err, bytes.Equal(out, data))
				}
			}
		}
	}
}

// frameWith builds a frame header by hand: single segment or a window
// descriptor, and a content size field of fcsLen bytes.
func frameWith(single bool, windowDesc byte, fcsFlag byte, fcs uint64, checksum bool) []byte {
	b := binary.LittleEndian.AppendUint32(nil, frameMagic)
	fhd := fcsFlag << 6
	if single {
		fhd |= 0x20
	}
	if checksum {
		fhd |= 0x04
	}
	b = append(b, fhd)
	if !single {
		b = append(b, windowDesc)
	}
	switch fcsFlag {
	case 0:
		if single {
			b = append(b, byte(fcs))
		}
	case 1:
		b = binary.LittleEndian.AppendUint16(b, uint16(fcs-256))
	case 2:
		b = binary.LittleEndian.AppendUint32(b, uint32(fcs))
	case 3:
		b = binary.LittleEndian.AppendUint64(b, fcs)
	}
	return b
}

// rleBlock appends a block header for an RLE block of n copies of c.
func rleBlock(b []byte, n int, c byte, last bool) []byte {
	h := uint32(n)<<3 | blockRLE<<1
	if last {
		h |= 1
	}
	return append(b, byte(h), byte(h>>8), byte(h>>16), c)
}

// allocated runs f and returns the bytes it allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestBomb checks that inputs declaring or expanding to far more than the
// limit are refused with ErrLimit before anything near the limit is
// allocated.
func TestBomb(t *testing.T) {
	pooltest.SkipIfRace(t) // the detector's allocations would count
	const limit = 8 << 20
	// A 64 MiB frame of zeros, EncodeAll's: it declares its size.
	zeros := make([]byte, 64<<20)
	sized, _ := AppendCompressLevel(nil, zeros, SpeedFastest)
	// The same as a stream (no content size), RLE and compressed blocks.
	streamed := oracleCompress(t, zeros[:32<<20], true)
	zeros = nil
	debug.FreeOSMemory()
	// Hand-made frames: a 64 MiB declared size, backed by 512
	// compressed blocks of 128 KiB of RLE literals each; a window of 2
	// GiB without a size; 100,000 RLE blocks of 128 KiB (12.5 GiB) in a
	// frame with no size.
	declared := frameWith(false, 0x50, 2, 64<<20, false)
	for i := range 512 {
		declared = compressedBlock(declared, rleLiterals(128<<10, 'x'), i == 511)
	}
	window := rleBlock(frameWith(false, (31-10)<<3, 0, 0, false), 1000, 'x', true)
	rle := frameWith(false, (17-10)<<3, 0, 0, false)
	for i := range 100000 {
		rle = rleBlock(rle, 128<<10, 'x', i == 99999)
	}
	for _, tc := range []struct {
		name string
		z    []byte
		want error
	}{
		{"64 MiB declared by EncodeAll", sized, ErrLimit},
		{"32 MiB streamed", streamed, ErrLimit},
		{"64 MiB declared by 512 small blocks", declared, ErrLimit},
		{"2 GiB window", window, ErrWindow},
		{"12.5 GiB of RLE blocks", rle, ErrLimit},
	} {
		var err error
		grew := allocated(func() { _, err = AppendDecompress(nil, tc.z, limit) })
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
		// The streamed bomb, of compressed blocks, decodes up to the
		// limit, which it must hold as the output doubles, through its
		// window; the others are refused before decoding.
		bound := uint64(1 << 20)
		if tc.name == "32 MiB streamed" {
			bound = 2*limit + MaxWindow + 1<<20
		}
		if grew > bound {
			t.Errorf("%s: allocated %d bytes under a limit of %d", tc.name, grew, limit)
		}
		// Reader: the window is bounded whatever the input declares.
		grew = allocated(func() {
			if r, err := NewReader(bytes.NewReader(tc.z)); err == nil {
				_, _ = io.CopyN(io.Discard, r, limit)
				r.Close()
			}
		})
		if grew > MaxWindow+4<<20 {
			t.Errorf("%s: Reader allocated %d bytes, above MaxWindow", tc.name, grew)
		}
	}
	r, err := NewReader(bytes.NewReader(window))
	if !errors.Is(err, ErrWindow) {
		t.Errorf("Reader of a 2 GiB window: %v, %v, want ErrWindow", r, err)
	}
}

// TestMalformed checks what the appender and the Reader make of truncated,
// corrupt, concatenated and skippable input, against klauspost's decoder.
func TestMalformed(t *testing.T) {
	text := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"][:20000]
	a, _ := AppendCompress(nil, text[:10000])
	b := oracleCompress(t, text[10000:], true)
	skip := binary.LittleEndian.AppendUint32(nil, skippableMagic+3)
	skip = binary.LittleEndian.AppendUint32(skip, 5)
	skip = append(skip, "hello"...)
	cat := append(append(append(append([]byte{}, skip...), a...), skip...), b...)
	got, err := AppendDecompress(nil, cat, -1)
	if err != nil || !bytes.Equal(got, text) {
		t.Fatalf("concatenated and skippable frames: err %v, equal %v", err, bytes.Equal(got, text))
	}
	if got, err := AppendDecompress([]byte("x"), skip, -1); err != nil || string(got) != "x" {
		t.Errorf("only a skippable frame: %q, %v", got, err)
	}
	if _, err := AppendDecompress(nil, nil, -1); err != ErrEmpty {
		t.Errorf("empty input: %v", err)
	}
	// Every truncation of cat is an error, never a panic, from both.
	for n := 1; n < len(cat); n += 1 + n/50 {
		_, err := AppendDecompress(nil, cat[:n], -1)
		if err == nil {
			// Only a cut between frames decodes.
			if !frameBoundary(t, cat, n) {
				t.Errorf("truncated to %d of %d bytes: no error", n, len(cat))
			}
			continue
		}
		if !errors.Is(err, ErrTruncated) && !errors.Is(err, ErrCorrupt) {
			t.Errorf("truncated to %d: %v, want ErrTruncated or ErrCorrupt", n, err)
		}
		r, err := NewReader(bytes.NewReader(cat[:n]))
		if err == nil {
			_, err = io.ReadAll(r)
			r.Close()
		}
		if err == nil && !frameBoundary(t, cat, n) {
			t.Errorf("Reader of %d of %d bytes: no error", n, len(cat))
		}
	}
	// Trailing garbage is an error; so is a flipped byte anywhere, or
	// the same output as klauspost's decoder gives.
	if _, err := AppendDecompress(nil, append(bytes.Clone(a), "junk"...), -1); !errors.Is(err, ErrCorrupt) {
		t.Errorf("trailing junk: %v", err)
	}
	for i := 0; i < len(a); i += 7 {
		bad := bytes.Clone(a)
		bad[i] ^= 0x55
		got, err := AppendDecompress(nil, bad, 1<<20)
		want, oerr := oracleDecode(bad)
		if err == nil && (oerr != nil || !bytes.Equal(got, want)) {
			t.Errorf("byte %d flipped: decoded %d bytes, klauspost: %v", i, len(got), oerr)
		}
	}
}

// frameBoundary reports whether n is the end of a frame of cat: then
// cat[:n] is whole frames, which decode without error.
func frameBoundary(t *testing.T, cat []byte, n int) bool {
	t.Helper()
	_, err := walkFrames(cat[:n], 1<<40)
	return err == nil
}

// oracleDecode is klauspost's decoder's reading of z.
func oracleDecode(z []byte) ([]byte, error) {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(1<<30))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.DecodeAll(z, nil)
}

// TestSystemZstd checks the output against Debian's zstd command: zstd -t
// accepts it and zstd -d restores the input, and what zstd writes (at
// levels 1 and 19, from a file and from a pipe, with and without
// checksums, and concatenated) AppendDecompress and Reader read.
func TestSystemZstd(t *testing.T) {
	bin := systool.Look(t, "zstd")
	text := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"]
	z, err := AppendCompress(nil, text)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-d", "-c")
	cmd.Stdin = bytes.NewReader(z)
	out, err := cmd.Output()
	if err != nil || !bytes.Equal(out, text) {
		t.Fatalf("zstd -d of AppendCompress's output: err %v, equal %v", err, bytes.Equal(out, text))
	}
	var streamed bytes.Buffer
	w := NewWriter(&streamed)
	w.Write(text[:1000])
	w.Flush()
	w.Write(text[1000:])
	w.Close()
	cmd = exec.Command(bin, "-d", "-c")
	cmd.Stdin = &streamed
	out, err = cmd.Output()
	if err != nil || !bytes.Equal(out, text) {
		t.Fatalf("zstd -d of Writer's output: err %v, equal %v", err, bytes.Equal(out, text))
	}
	file := filepath.Join(t.TempDir(), "in.txt")
	if err := os.WriteFile(file, text, 0o600); err != nil {
		t.Fatal(err)
	}
	var all []byte
	for _, args := range [][]string{{"-1", "-c", file}, {"-19", "-c", file}, {"-3", "--no-check", "-c", file}, {"-3", "-c", "-"}} {
		cmd := exec.Command(bin, append([]string{"-q"}, args...)...)
		if args[len(args)-1] == "-" {
			cmd.Stdin = bytes.NewReader(text) // a pipe: no content size
		}
		z, err := cmd.Output()
		if err != nil {
			t.Fatalf("zstd %v: %v", args, err)
		}
		got, err := AppendDecompress(nil, z, int64(len(text)))
		if err != nil || !bytes.Equal(got, text) {
			t.Errorf("zstd %v: AppendDecompress: err %v, equal %v", args, err, bytes.Equal(got, text))
		}
		r, err := NewReader(bytes.NewReader(z))
		if err != nil {
			t.Fatalf("zstd %v: NewReader: %v", args, err)
		}
		got, err = io.ReadAll(r)
		r.Close()
		if err != nil || !bytes.Equal(got, text) {
			t.Errorf("zstd %v: Reader: err %v, equal %v", args, err, bytes.Equal(got, text))
		}
		all = append(all, z...)
	}
	got, err := AppendDecompress(nil, all, -1)
	if err != nil || !bytes.Equal(got, bytes.Repeat(text, 4)) {
		t.Errorf("zstd's frames concatenated: err %v", err)
	}
	// The limit counts every frame: one byte short fails.
	if _, err := AppendDecompress(nil, all, int64(4*len(text)-1)); !errors.Is(err, ErrLimit) {
		t.Errorf("concatenated frames one byte over the limit: %v", err)
	}
}

// Allocation counts that the package documents.
func TestAllocs(t *testing.T) {
	src := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"][:3200]
	big := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"][:140000] // two blocks
	z, _ := AppendCompress(nil, src)
	zbig, _ := AppendCompress(nil, big)
	zstream := oracleCompress(t, big, true)
	dst := make([]byte, 0, 1<<20)
	var err error
	check := func() {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		want float64
		f    func()
	}{
		{"AppendCompress, dst with room", 0, func() { _, err = AppendCompress(dst[:0], src); check() }},
		{"AppendCompress 140 KB, dst with room", 0, func() { _, err = AppendCompress(dst[:0], big); check() }},
		{"AppendCompress, nil dst", 1, func() { _, err = AppendCompress(nil, src); check() }},
		{"AppendDecompress, dst with room", 0, func() { _, err = AppendDecompress(dst[:0], z, 1<<20); check() }},
		{"AppendDecompress 140 KB, dst with room", 0, func() { _, err = AppendDecompress(dst[:0], zbig, 1<<20); check() }},
		{"AppendDecompress streamed 140 KB, dst with room", 0, func() { _, err = AppendDecompress(dst[:0], zstream, 1<<20); check() }},
		{"AppendDecompress, nil dst", 1, func() { _, err = AppendDecompress(nil, z, 1<<20); check() }},
	} {
		if !pooltest.WantAllocs(t, tc.want, tc.f) {
			t.Logf("case %s", tc.name)
		}
	}
}

// TestStreamAllocs checks that a Writer or Reader costs its one handle.
func TestStreamAllocs(t *testing.T) {
	src := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"][:3200]
	z, _ := AppendCompress(nil, src)
	out := bytes.NewBuffer(make([]byte, 0, 1<<16))
	var br bytes.Reader
	p := make([]byte, 1<<16)
	pooltest.WantAllocs(t, 1, func() {
		out.Reset()
		w := NewWriter(out)
		if _, err := w.Write(src); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	})
	pooltest.WantAllocs(t, 1, func() {
		br.Reset(z)
		r, err := NewReader(&br)
		if err != nil {
			t.Fatal(err)
		}
		if n, _ := io.ReadFull(r, p[:len(src)]); n != len(src) {
			t.Fatalf("read %d", n)
		}
		r.Close()
	})
}

func TestStreams(t *testing.T) {
	text := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"]
	var buf bytes.Buffer
	w, err := NewWriterLevel(&buf, SpeedFastest)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(text); i += 7000 {
		w.Write(text[i:min(i+7000, len(text))])
		if i%70000 == 0 {
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			// What was flushed decodes now.
			r, err := NewReader(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			got, _ := io.ReadAll(io.LimitReader(r, int64(i+7000)))
			r.Close()
			if !bytes.Equal(got, text[:min(i+7000, len(text))]) {
				t.Fatalf("after Flush at %d: reads %d bytes", i, len(got))
			}
		}
	}
	if err := w.Close(); err != nil || w.Close() != nil {
		t.Fatal(err)
	}
	if _, err := w.Write([]byte("x")); err != ErrClosed {
		t.Errorf("Write after Close: %v", err)
	}
	if got := oracle(t, buf.Bytes()); !bytes.Equal(got, text) {
		t.Fatal("Writer's output differs")
	}
	if _, err := NewWriterLevel(&buf, 0); err == nil || !strings.Contains(err.Error(), "invalid compression level") {
		t.Errorf("level 0: %v", err)
	}
	var zw Writer
	if _, err := zw.Write(nil); err != ErrClosed {
		t.Errorf("zero Writer: %v", err)
	}
	var zr Reader
	if _, err := zr.Read(nil); err != ErrClosed {
		t.Errorf("zero Reader: %v", err)
	}
	if _, err := NewReader(bytes.NewReader(nil)); err != ErrEmpty {
		t.Errorf("empty Reader: %v", err)
	}
	if _, err := NewReader(strings.NewReader("not zstd at all")); !errors.Is(err, ErrCorrupt) {
		t.Errorf("Reader of text: %v", err)
	}
	// The source's own error passes through unchanged.
	boom := errors.New("boom")
	r, err := NewReader(io.MultiReader(bytes.NewReader(buf.Bytes()[:5000]), errReader{boom}))
	if err == nil {
		_, err = io.ReadAll(r)
	}
	if err != boom {
		t.Errorf("source error: %v, want boom itself", err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// TestConcurrent compresses and decompresses from many goroutines at once
// while the garbage collector runs, checking every result with the
// oracle.
func TestConcurrent(t *testing.T) {
	text := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"]
	pooltest.CollectConcurrently(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dst, back []byte
			for i := range 30 {
				data := text[(g*1000+i*997)%len(text):]
				data = data[:min(len(data), 1000+i*3000)]
				var err error
				dst, err = AppendCompressLevel(dst[:0], data, 1+i%2)
				if err == nil {
					back, err = AppendDecompress(back[:0], dst, int64(len(data)))
				}
				if err != nil || !bytes.Equal(back, data) {
					errs <- fmt.Errorf("goroutine %d round %d: %v", g, i, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestReaderLiveStream checks that NewReader and Read return what a
// stream has flushed so far, although it is shorter than the longest frame
// header and the writer has not closed the stream: a Reader must not wait
// for bytes it does not need.
func TestReaderLiveStream(t *testing.T) {
	pr, pw := io.Pipe()
	defer pr.Close()
	w := NewWriter(pw)
	go func() {
		w.Write([]byte("hi"))
		w.Flush() // 11 bytes: magic, descriptor, window, a 2-byte raw block
	}()
	done := make(chan string, 1)
	go func() {
		r, err := NewReader(pr)
		if err != nil {
			done <- err.Error()
			return
		}
		p := make([]byte, 10)
		n, err := r.Read(p)
		if err != nil {
			done <- err.Error()
			return
		}
		done <- string(p[:n])
	}()
	select {
	case got := <-done:
		if got != "hi" {
			t.Errorf("read %q, want hi", got)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("NewReader or Read waits for more than the flushed block")
	}
	pw.Close()
}
