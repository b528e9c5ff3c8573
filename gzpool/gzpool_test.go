package gzpool

import (
	"bytes"
	stdgzip "compress/gzip"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	corpusfiles "github.com/poolkit/poolkit/internal/corpus"
	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/race"
	"github.com/poolkit/poolkit/internal/systool"
)

// overviewText is the start of compress/gzip's documentation page, 169
// bytes: a short text, as a log line or a small response is.
const overviewText = "https://pkg.go.dev/compress/gzip\n\tDocumentation\n\tOverview\n\tPackage gzip implements reading and writing of gzip format compressed files, as specified in RFC 1952."

// corpus returns the test corpus: GOROOT's compression test data.
func corpus(t testing.TB) map[string][]byte { return corpusfiles.Files(t) }

func stdDecompress(t testing.TB, z []byte) []byte {
	t.Helper()
	zr, err := stdgzip.NewReader(bytes.NewReader(z))
	if err != nil {
		t.Fatalf("compress/gzip rejects the header: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("compress/gzip rejects the stream: %v", err)
	}
	return out
}

func stdCompress(t testing.TB, src []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := stdgzip.NewWriter(&b)
	if _, err := zw.Write(src); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestRoundTripCorpus(t *testing.T) {
	levels := []int{DefaultCompression, BestSpeed, BestCompression, HuffmanOnly, NoCompression}
	if race.Enabled {
		// The race detector slows compression tenfold, and a round trip
		// has no concurrency for it to check: one level is enough there.
		levels = levels[:1]
	}
	for name, src := range corpus(t) {
		for _, level := range levels {
			// nil dst takes the scratch path; a roomy dst with a prefix
			// takes the direct path and must keep the prefix.
			z, err := AppendCompressLevel(nil, src, level)
			if err != nil {
				t.Fatalf("%s level %d: %v", name, level, err)
			}
			roomy := make([]byte, 3, 3+compressBound(len(src)))
			copy(roomy, "pfx")
			z2, err := AppendCompressLevel(roomy, src, level)
			if err != nil || string(z2[:3]) != "pfx" || !bytes.Equal(z2[3:], z) {
				t.Fatalf("%s level %d: compressing into a roomy dst gave different bytes (err %v)", name, level, err)
			}
			if &z2[0] != &roomy[0] {
				t.Errorf("%s level %d: a dst with room was reallocated", name, level)
			}

			got, err := AppendDecompress([]byte("pfx"), z, -1)
			if err != nil {
				t.Fatalf("%s level %d: decompress: %v", name, level, err)
			}
			if string(got[:3]) != "pfx" || !bytes.Equal(got[3:], src) {
				t.Fatalf("%s level %d: round trip differs", name, level)
			}
			// The output is standard gzip.
			if !bytes.Equal(stdDecompress(t, z), src) {
				t.Fatalf("%s level %d: compress/gzip reads different bytes", name, level)
			}
			// The exact limit passes; one byte less fails.
			if _, err := AppendDecompress(nil, z, int64(len(src))); err != nil {
				t.Fatalf("%s: limit = size: %v", name, err)
			}
			if len(src) > 0 {
				if _, err := AppendDecompress(nil, z, int64(len(src)-1)); !errors.Is(err, ErrLimit) {
					t.Fatalf("%s: limit = size-1: got %v, want ErrLimit", name, err)
				}
			}
		}
		// And what compress/gzip writes, we read.
		got, err := AppendDecompress(nil, stdCompress(t, src), -1)
		if err != nil || !bytes.Equal(got, src) {
			t.Fatalf("%s: reading compress/gzip output: err %v, equal %v", name, err, bytes.Equal(got, src))
		}
	}
}

func TestAllLevels(t *testing.T) {
	src := corpus(t)["src/compress/testdata/gettysburg.txt"]
	for level := HuffmanOnly; level <= BestCompression; level++ {
		z, err := AppendCompressLevel(nil, src, level)
		if err != nil {
			t.Fatal(err)
		}
		if got := stdDecompress(t, z); !bytes.Equal(got, src) {
			t.Fatalf("level %d: round trip differs", level)
		}
	}
	for _, level := range []int{-3, 10, 100} {
		if _, err := AppendCompressLevel(nil, src, level); err == nil || !strings.Contains(err.Error(), "invalid compression level") {
			t.Errorf("level %d: got %v, want an invalid level error", level, err)
		}
		if _, err := NewWriterLevel(io.Discard, level); err == nil {
			t.Errorf("NewWriterLevel(%d): no error", level)
		}
	}
}

func TestMultiMember(t *testing.T) {
	a, _ := AppendCompress(nil, []byte("first member\n"))
	ab, _ := AppendCompress(a, []byte("second member\n"))
	abc := append(ab, stdCompress(t, nil)...) // an empty third member
	got, err := AppendDecompress(nil, abc, -1)
	if err != nil || string(got) != "first member\nsecond member\n" {
		t.Fatalf("got %q, %v", got, err)
	}
	r, err := NewReader(bytes.NewReader(abc))
	if err != nil {
		t.Fatal(err)
	}
	got, err = io.ReadAll(r)
	if err != nil || string(got) != "first member\nsecond member\n" {
		t.Fatalf("Reader: got %q, %v", got, err)
	}
	r.Close()
}

func TestDecompressErrors(t *testing.T) {
	z, _ := AppendCompress(nil, []byte(overviewText))
	orig := []byte("keep")
	check := func(name string, src []byte, limit int64, want error) {
		t.Helper()
		out, err := AppendDecompress(orig, src, limit)
		if !errors.Is(err, want) {
			t.Errorf("%s: got error %v, want %v", name, err, want)
		}
		if len(out) < 4 || string(out[:4]) != "keep" {
			t.Errorf("%s: dst's bytes changed to %q on error", name, out)
		}
		if limit >= 0 && int64(len(out)-4) > limit+1 {
			t.Errorf("%s: %d bytes back with the error, over the limit %d", name, len(out)-4, limit)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "gzpool: ") {
			t.Errorf("%s: error %q does not say where it comes from", name, err)
		}
	}
	check("nil", nil, -1, ErrEmpty)
	check("empty", []byte{}, -1, ErrEmpty)
	for n := 1; n < len(z); n++ {
		check("truncated", z[:n], -1, ErrTruncated)
	}
	check("not gzip", []byte("plain text, not gzip at all"), -1, ErrCorrupt)
	bad := bytes.Clone(z)
	bad[len(bad)-8] ^= 1 // CRC-32
	check("bad checksum", bad, -1, ErrCorrupt)
	bad = bytes.Clone(z)
	bad[len(bad)-4] ^= 1 // ISIZE
	check("bad length", bad, -1, ErrCorrupt)
	bad = bytes.Clone(z)
	bad[2] = 7 // compression method
	check("bad method", bad, -1, ErrCorrupt)
	check("trailing garbage", append(bytes.Clone(z), "garbage after the stream"...), -1, ErrCorrupt)
	// Like compress/gzip (and unlike gunzip, which warns), bytes after
	// the last member are an error: a partial or invalid next header.
	check("trailing zeros", append(bytes.Clone(z), make([]byte, 16)...), -1, ErrCorrupt)
	check("short trailing zeros", append(bytes.Clone(z), 0, 0, 0, 0), -1, ErrTruncated)
	check("limit", z, 10, ErrLimit)
	check("limit zero", z, 0, ErrLimit)

	// Flipping any byte of the deflate data is caught.
	for i := 10; i < len(z)-8; i++ {
		bad := bytes.Clone(z)
		bad[i] ^= 0x55
		if out, err := AppendDecompress(nil, bad, -1); err == nil && !bytes.Equal(out, []byte(overviewText)) {
			t.Fatalf("flipped byte %d: wrong data without error", i)
		} else if err != nil && !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTruncated) {
			t.Fatalf("flipped byte %d: unclassified error %v", i, err)
		}
	}
}

// TestBomb decompresses 64 MiB of zeros, a 64 KiB gzip stream, under a
// 1 MiB limit: it must stop early, without allocating the full output.
func TestBomb(t *testing.T) {
	zeros := make([]byte, 64<<20)
	z, err := AppendCompressLevel(nil, zeros, BestSpeed)
	if err != nil {
		t.Fatal(err)
	}
	zeros = nil
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err = AppendDecompress(nil, z, 1<<20)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("got %v, want ErrLimit", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("decompressing a bomb under a 1 MiB limit allocated %d bytes", grew)
	}
	// A trailer that lies about the size does not make us allocate it.
	lie := bytes.Clone(z)
	copy(lie[len(lie)-4:], []byte{0xff, 0xff, 0xff, 0xff})
	runtime.ReadMemStats(&before)
	_, err = AppendDecompress(nil, lie, 1<<20)
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrLimit) {
		t.Fatalf("lying trailer: got %v, want ErrLimit", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Errorf("a lying trailer made AppendDecompress allocate %d bytes", grew)
	}
}

// TestSystemGzip checks the output against Debian's gzip: gzip -t accepts
// it and zcat restores the input, and what gzip writes (at -1 and -9, and
// concatenated) AppendDecompress reads.
func TestSystemGzip(t *testing.T) {
	gz := systool.Look(t, "gzip")
	dir := t.TempDir()
	for name, src := range corpus(t) {
		z, err := AppendCompress(nil, src)
		if err != nil {
			t.Fatal(err)
		}
		file := filepath.Join(dir, "out.gz")
		if err := os.WriteFile(file, z, 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(gz, "-t", file).CombinedOutput(); err != nil {
			t.Fatalf("%s: gzip -t rejects our output: %v\n%s", name, err, out)
		}
		out, err := exec.Command(gz, "-dc", file).Output()
		if err != nil || !bytes.Equal(out, src) {
			t.Fatalf("%s: zcat gives different bytes (err %v)", name, err)
		}

		plain := filepath.Join(dir, "plain")
		if err := os.WriteFile(plain, src, 0o644); err != nil {
			t.Fatal(err)
		}
		var both []byte
		for _, flag := range []string{"-1", "-9"} {
			z, err := exec.Command(gz, "-c", "-n", flag, plain).Output()
			if err != nil {
				t.Fatal(err)
			}
			got, err := AppendDecompress(nil, z, -1)
			if err != nil || !bytes.Equal(got, src) {
				t.Fatalf("%s: reading gzip %s output: err %v", name, flag, err)
			}
			both = append(both, z...)
		}
		got, err := AppendDecompress(nil, both, -1)
		if err != nil || !bytes.Equal(got, append(bytes.Clone(src), src...)) {
			t.Fatalf("%s: reading two concatenated gzip members: err %v", name, err)
		}
	}
	// gzip -c with a file name stores the name in the header (FNAME).
	file := filepath.Join(dir, "named.txt")
	if err := os.WriteFile(file, []byte(overviewText), 0o644); err != nil {
		t.Fatal(err)
	}
	z, err := exec.Command(gz, "-c", file).Output()
	if err != nil {
		t.Fatal(err)
	}
	if got, err := AppendDecompress(nil, z, -1); err != nil || string(got) != overviewText {
		t.Fatalf("reading a gzip stream with a file name: %q, %v", got, err)
	}
}

// TestConcurrent hammers the pools from many goroutines, each checking
// its own results: a state used after Put, or handed to two users, shows
// up as wrong bytes here or as a report under -race.
func TestConcurrent(t *testing.T) {
	files := corpus(t)
	inputs := [][]byte{[]byte(overviewText), files["src/compress/testdata/gettysburg.txt"], files["src/compress/testdata/e.txt"][:8000], {}}
	var wg sync.WaitGroup
	errc := make(chan error, 16)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var dst, out []byte
			for i := range 40 {
				src := inputs[(g+i)%len(inputs)]
				var err error
				dst, err = AppendCompressLevel(dst[:0], src, (g+i)%3)
				if err == nil {
					out, err = AppendDecompress(out[:0], dst, -1)
				}
				if err == nil && !bytes.Equal(out, src) {
					err = errors.New("round trip differs")
				}
				if err == nil {
					var b bytes.Buffer
					w := NewWriter(&b)
					_, err = w.Write(src)
					if err == nil {
						err = w.Close()
					}
					var r *Reader
					if err == nil {
						r, err = NewReader(io.MultiReader(&b)) // not a ByteReader
					}
					if err == nil {
						out, err = io.ReadAll(r)
						r.Close()
					}
					if err == nil && !bytes.Equal(out, src) {
						err = errors.New("stream round trip differs")
					}
				}
				if err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
}

// wantAllocs is pooltest.WantAllocs with a name for the case.
func wantAllocs(t *testing.T, name string, want float64, f func()) {
	t.Helper()
	if !pooltest.WantAllocs(t, want, f) {
		t.Logf("case %s", name)
	}
}

// Allocation counts that the package documents; workloads.go quotes them.
const (
	allocsCompressRoomy   = 0
	allocsCompressNil     = 1
	allocsDecompressRoomy = 0
)

func TestAllocs(t *testing.T) {
	src := []byte(overviewText)
	z, _ := AppendCompress(nil, src)
	zbig, _ := AppendCompress(nil, corpus(t)["src/compress/testdata/e.txt"])
	dst := make([]byte, 0, 1<<20)
	var err error
	check := func() {
		if err != nil {
			t.Fatal(err)
		}
	}
	wantAllocs(t, "AppendCompress, dst with room", allocsCompressRoomy, func() { _, err = AppendCompress(dst[:0], src); check() })
	wantAllocs(t, "AppendCompress, nil dst", allocsCompressNil, func() { _, err = AppendCompress(nil, src); check() })
	wantAllocs(t, "AppendDecompress, dst with room", allocsDecompressRoomy, func() { _, err = AppendDecompress(dst[:0], z, -1); check() })
	wantAllocs(t, "AppendDecompress 100 KB, dst with room", 0, func() { _, err = AppendDecompress(dst[:0], zbig, -1); check() })
	// Into a nil dst the trailer's size hint makes it one allocation.
	wantAllocs(t, "AppendDecompress, nil dst", 1, func() { _, err = AppendDecompress(nil, z, -1); check() })
	// A stream costs its 1 handle; the pooled bufio.Reader is reset, not
	// reallocated, when the source is not an io.ByteReader.
	var br bytes.Reader
	var mr onlyReader
	wantAllocs(t, "NewReader(ByteReader)+Read+Close", 1, func() {
		br.Reset(z)
		r, err2 := NewReader(&br)
		err = err2
		check()
		_, err = r.Read(dst[:cap(dst)])
		r.Close()
	})
	wantAllocs(t, "NewReader(io.Reader)+Read+Close", 1, func() {
		br.Reset(z)
		mr.r = &br
		r, err2 := NewReader(&mr)
		err = err2
		check()
		_, err = r.Read(dst[:cap(dst)])
		r.Close()
	})
	out := bytes.NewBuffer(make([]byte, 0, 1<<16))
	wantAllocs(t, "NewWriter+Write+Close", 1, func() {
		out.Reset()
		w := NewWriter(out)
		_, err = w.Write(src)
		check()
		err = w.Close()
		check()
	})
}

// onlyReader hides every method of r but Read.
type onlyReader struct{ r io.Reader }

func (o *onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestIncompressibleRoom checks the spare capacity AppendCompress
// documents as enough for any data: random bytes do not compress, and
// still fit without growing dst.
func TestIncompressibleRoom(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 100, 4096, 65535, 65536, 300_000} {
		src := make([]byte, n)
		for i := range src {
			src[i] = byte(rnd.Uint32())
		}
		for level := HuffmanOnly; level <= BestCompression; level++ {
			dst := make([]byte, 0, n+n/2048+64)
			z, err := AppendCompressLevel(dst, src, level)
			if err != nil {
				t.Fatal(err)
			}
			if cap(z) != cap(dst) || (len(z) > 0 && &z[0] != &dst[:1][0]) {
				t.Fatalf("%d random bytes at level %d: %d bytes of output outgrew the documented room %d", n, level, len(z), cap(dst))
			}
			if got, err := AppendDecompress(nil, z, -1); err != nil || !bytes.Equal(got, src) {
				t.Fatalf("%d random bytes at level %d: round trip failed: %v", n, level, err)
			}
		}
	}
}

// TestTruncatedHeaderString covers a header cut off inside its file name
// or comment, in the first member or a later one. klauspost's reader
// reports that as a bare io.EOF, which its own multistream loop takes for
// the end of the data (found by FuzzAppendDecompress); gzpool must call it
// truncated, as compress/gzip does.
func TestTruncatedHeaderString(t *testing.T) {
	member, _ := AppendCompress(nil, []byte(overviewText))
	for _, flag := range []byte{0x08, 0x10} { // FNAME, FCOMMENT
		cut := []byte{0x1f, 0x8b, 8, flag, 0, 0, 0, 0, 0, 0xff, 'n', 'a', 'm'}
		for name, src := range map[string][]byte{
			"first member":  cut,
			"second member": append(bytes.Clone(member), cut...),
		} {
			if _, err := AppendDecompress(nil, src, -1); !errors.Is(err, ErrTruncated) {
				t.Errorf("flag %#x, %s: AppendDecompress: %v, want ErrTruncated", flag, name, err)
			}
			for _, r := range []io.Reader{bytes.NewReader(src), &onlyReader{bytes.NewReader(src)}} {
				zr, err := NewReader(r)
				if err == nil {
					_, err = io.ReadAll(zr)
					zr.Close()
				}
				if !errors.Is(err, ErrTruncated) {
					t.Errorf("flag %#x, %s: Reader: %v, want ErrTruncated", flag, name, err)
				}
			}
		}
	}
}
