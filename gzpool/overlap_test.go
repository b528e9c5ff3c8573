package gzpool

import (
	"bytes"
	"errors"
	"fmt"
	"testing"
)

// TestAppendCompressOverlap compresses src into a dst whose spare capacity
// overlaps src, wholly (AppendCompress(buf[:0], buf)) and partly, with room
// for the result and without, and checks the result with compress/gzip and
// dst's prefix byte for byte.
func TestAppendCompressOverlap(t *testing.T) {
	rangeFile := opticks(t)
	for _, n := range []int{10, 1000, 103000} {
		text := rangeFile[:n]
		// In place, with room: dst's spare capacity holds src.
		buf := make([]byte, n, 2*n+1024)
		copy(buf, text)
		z, err := AppendCompress(buf[:0], buf)
		if err != nil {
			t.Fatalf("n=%d in place: %v", n, err)
		}
		if got := stdDecompress(t, z); !bytes.Equal(got, text) {
			t.Errorf("n=%d in place: decodes to %d bytes that differ from the %d compressed", n, len(got), n)
		}

		// src at offset k of a buffer, dst ending at j: j <= k puts dst's
		// spare capacity over all of src, k < j < k+n over its tail,
		// j >= k+n after it.
		k := n / 2
		for _, j := range []int{0, k / 2, k, k + 1, k + n/2, k + n - 1, k + n} {
			for _, capacity := range []int{k + n + compressBound(n) + 16, k + n + 8} {
				for _, level := range []int{DefaultCompression, BestSpeed, HuffmanOnly} {
					name := fmt.Sprintf("n=%d src=buf[%d:%d] dst=buf[:%d] cap=%d level=%d", n, k, k+n, j, capacity, level)
					buf := make([]byte, max(capacity, j))
					for i := range buf {
						buf[i] = byte(i*7 + 1)
					}
					copy(buf[k:], text)
					orig := bytes.Clone(buf)
					out, err := AppendCompressLevel(buf[:j], buf[k:k+n], level)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if !bytes.Equal(out[:j], orig[:j]) {
						t.Fatalf("%s: dst's prefix changed", name)
					}
					if got := stdDecompress(t, out[j:]); !bytes.Equal(got, text) {
						t.Fatalf("%s: decodes to %d bytes that differ from the %d compressed", name, len(got), n)
					}
				}
			}
		}
	}
}

// TestAppendDecompressOverlap decompresses gzip data into a dst whose spare
// capacity overlaps it, wholly and partly, and checks the result against
// the original text and dst's prefix byte for byte, also when the limit is
// exceeded.
func TestAppendDecompressOverlap(t *testing.T) {
	rangeFile := opticks(t)
	for _, n := range []int{10, 1000, 103000} {
		text := rangeFile[:n]
		z := stdCompress(t, text)
		// In place, with room.
		buf := make([]byte, len(z), 2*n+1024)
		copy(buf, z)
		out, err := AppendDecompress(buf[:0], buf, -1)
		if err != nil || !bytes.Equal(out, text) {
			t.Errorf("n=%d in place: %d bytes, %v", n, len(out), err)
		}

		k := len(z) / 2
		for _, j := range []int{0, k / 2, k, k + 1, k + len(z)/2, k + len(z) - 1, k + len(z)} {
			for _, capacity := range []int{k + len(z) + n, k + len(z) + 8} {
				for _, limit := range []int64{-1, int64(n), int64(n) - 1} {
					name := fmt.Sprintf("n=%d src=buf[%d:%d] dst=buf[:%d] cap=%d limit=%d", n, k, k+len(z), j, capacity, limit)
					buf := make([]byte, max(capacity, j))
					for i := range buf {
						buf[i] = byte(i*7 + 1)
					}
					copy(buf[k:], z)
					orig := bytes.Clone(buf)
					out, err := AppendDecompress(buf[:j], buf[k:k+len(z)], limit)
					if !bytes.Equal(out[:j], orig[:j]) {
						t.Fatalf("%s: dst's prefix changed", name)
					}
					if limit == int64(n)-1 {
						if !errors.Is(err, ErrLimit) || len(out) > j+n || !bytes.Equal(out[j:], text[:len(out)-j]) {
							t.Fatalf("%s: %d bytes, %v; want ErrLimit and at most the limit+1 bytes of text", name, len(out)-j, err)
						}
						continue
					}
					if err != nil || !bytes.Equal(out[j:], text) {
						t.Fatalf("%s: %d bytes, %v; want the %d bytes of text", name, len(out)-j, err, n)
					}
				}
			}
		}
	}
}

// opticks returns GOROOT's Isaac.Newton-Opticks.txt, compressible but not
// trivial text.
func opticks(t testing.TB) []byte {
	t.Helper()
	b := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"]
	if len(b) < 200<<10 {
		t.Fatalf("Isaac.Newton-Opticks.txt: %d bytes, want at least 200 KiB", len(b))
	}
	return b
}

// TestOverlapAllocs checks that working in place costs no allocation once
// the pools are warm.
func TestOverlapAllocs(t *testing.T) {
	rangeFile := opticks(t)
	text := rangeFile[:1000]
	z := stdCompress(t, text)
	buf := make([]byte, 0, 4096)
	var err error
	wantAllocs(t, "AppendCompress in place", 0, func() {
		buf = append(buf[:0], text...)
		if _, err = AppendCompress(buf[:0], buf); err != nil {
			t.Fatal(err)
		}
	})
	wantAllocs(t, "AppendDecompress in place", 0, func() {
		buf = append(buf[:0], z...)
		if _, err = AppendDecompress(buf[:0], buf, -1); err != nil {
			t.Fatal(err)
		}
	})
}
