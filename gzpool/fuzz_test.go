package gzpool

import (
	"bytes"
	stdgzip "compress/gzip"
	"errors"
	"io"
	"testing"
)

// FuzzAppendDecompress checks AppendDecompress on arbitrary input against
// compress/gzip: it never panics, never writes more than limit bytes of
// output, keeps dst's prefix, and either returns the bytes compress/gzip
// returns or fails where compress/gzip fails (or would exceed the limit).
// The seed corpus is in testdata/fuzz/FuzzAppendDecompress.
func FuzzAppendDecompress(f *testing.F) {
	z, _ := AppendCompress(nil, []byte(seedText))
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
			if len(out) != len(prefix) || string(out) != "pfx" {
				t.Fatalf("error %v, but dst changed to %q", err, out)
			}
			switch {
			case errors.Is(err, ErrLimit):
				if !overLimit {
					t.Fatalf("ErrLimit, but compress/gzip reads %d bytes (limit %d), err %v", len(want), limit, stdErr)
				}
			case errors.Is(err, ErrEmpty), errors.Is(err, ErrCorrupt), errors.Is(err, ErrTruncated):
				if stdErr == nil && !overLimit {
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
