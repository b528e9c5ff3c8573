package gzpool

import (
	"bytes"
	stdgzip "compress/gzip"
	"errors"
	"io"
	"os/exec"
	"testing"

	"github.com/poolkit/poolkit/internal/systool"
)

// FuzzAppendDecompress checks AppendDecompress on arbitrary input against
// compress/gzip: it never panics, never writes more than limit bytes of
// output, keeps dst's prefix, and either returns the bytes compress/gzip
// returns or fails where compress/gzip fails (or would exceed the limit),
// or where a member header has a reserved flag bit set, which
// compress/gzip accepts and RFC 1952 and gunzip reject. The seed corpus
// is in testdata/fuzz/FuzzAppendDecompress.
func FuzzAppendDecompress(f *testing.F) {
	z, _ := AppendCompress(nil, []byte(overviewText))
	f.Add(z, int64(-1))
	f.Add(z, int64(10))
	f.Fuzz(func(t *testing.T, data []byte, limit int64) {
		prefix := []byte("pfx")
		if limit&1 == 0 {
			prefix = append(make([]byte, 0, 4096), prefix...) // room in dst
		}
		out, err := AppendDecompress(prefix, data, limit)

		// The oracle, bounded by the same limit.
		var want []byte
		zr, stdErr := stdgzip.NewReader(bytes.NewReader(data))
		if stdErr == nil {
			var r io.Reader = zr
			if limit >= 0 {
				r = io.LimitReader(zr, limit+1)
			}
			want, stdErr = io.ReadAll(r)
		}
		overLimit := limit >= 0 && int64(len(want)) > limit

		if err != nil {
			// The bytes decompressed before the error come back after
			// dst, so that nothing is written past the returned length.
			if len(out) < len(prefix) || string(out[:3]) != "pfx" {
				t.Fatalf("error %v, but dst's bytes changed to %q", err, out)
			}
			if limit >= 0 && int64(len(out)-3) > limit+1 {
				t.Fatalf("error %v after %d bytes of output, over the limit %d", err, len(out)-3, limit)
			}
			switch {
			case errors.Is(err, ErrLimit):
				if !overLimit {
					t.Fatalf("ErrLimit, but compress/gzip reads %d bytes (limit %d), err %v", len(want), limit, stdErr)
				}
			case errors.Is(err, ErrEmpty), errors.Is(err, ErrCorrupt), errors.Is(err, ErrTruncated):
				if stdErr == nil && !overLimit && !reservedFlag(data) {
					t.Fatalf("error %v, but compress/gzip reads it", err)
				}
			default:
				t.Fatalf("unclassified error %v", err)
			}
			return
		}
		if string(out[:3]) != "pfx" {
			t.Fatalf("prefix overwritten: %q", out[:3])
		}
		got := out[3:]
		if limit >= 0 && int64(len(got)) > limit {
			t.Fatalf("%d bytes of output, over the limit %d", len(got), limit)
		}
		if stdErr != nil {
			t.Fatalf("read %d bytes, but compress/gzip fails: %v", len(got), stdErr)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("read %d bytes, compress/gzip %d, and they differ", len(got), len(want))
		}
	})
}

// reservedFlag reports whether a member header of data, walking the
// members as compress/gzip finds them, has a reserved FLG bit set. RFC 1952
// (2.3.1.2) says a reader must give an error then, and gunzip does;
// compress/gzip ignores the bits. Only gzip data that compress/gzip reads
// whole is passed here.
func reservedFlag(data []byte) bool {
	// A bytes.Reader is an io.ByteReader, so compress/gzip reads no
	// further than the end of each member: Len tells where the next
	// starts.
	br := bytes.NewReader(data)
	var zr stdgzip.Reader
	for {
		start := len(data) - br.Len()
		if err := zr.Reset(br); err != nil {
			return false // the end of the data (or not gzip)
		}
		if data[start+3]&0xe0 != 0 { // FLG, in a header Reset accepted
			return true
		}
		zr.Multistream(false)
		if _, err := io.Copy(io.Discard, &zr); err != nil {
			return false
		}
	}
}

// TestReservedFlagOracle checks the fuzz oracle's exception: reservedFlag
// finds the reserved bit in the first and in a later member and nowhere
// else, AppendDecompress rejects such data, and so does the system gzip.
func TestReservedFlagOracle(t *testing.T) {
	z, _ := AppendCompress(nil, []byte(overviewText))
	two := append(bytes.Clone(z), z...)
	if reservedFlag(z) || reservedFlag(two) {
		t.Fatal("reservedFlag reports a clean stream")
	}
	var bads [][]byte
	for _, flag := range []byte{0x20, 0x40, 0x80} {
		for _, at := range []int{0, len(z)} {
			bad := bytes.Clone(two)
			bad[at+3] |= flag
			bads = append(bads, bad)
			if !reservedFlag(bad) {
				t.Errorf("FLG %#x in the member at %d: not found", flag, at)
			}
			if _, err := AppendDecompress(nil, bad, -1); !errors.Is(err, ErrCorrupt) {
				t.Errorf("FLG %#x in the member at %d: AppendDecompress error %v, want ErrCorrupt", flag, at, err)
			}
		}
	}
	gz := systool.Look(t, "gzip")
	for i, bad := range bads {
		cmd := exec.Command(gz, "-t")
		cmd.Stdin = bytes.NewReader(bad)
		if out, err := cmd.CombinedOutput(); err == nil {
			t.Errorf("stream %d with a reserved flag: gzip -t accepts it: %s", i, out)
		}
	}
}
