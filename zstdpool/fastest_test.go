package zstdpool

import (
	"bytes"
	"os/exec"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/pooltest"
	"github.com/poolkit/poolkit/internal/systool"
)

// TestFastestOneBlock checks AppendCompressLevel at SpeedFastest on
// inputs of up to one block, which poolkit's one-block encoder
// compresses: each frame carries a content checksum, decodes with
// klauspost's decoder, Debian's zstd command and AppendDecompress, writes
// nothing past its length, and compresses in place; and its size stays
// within 3% of klauspost's SpeedFastest with a checksum, plus a few bytes.
// Once the pools are warm, into a dst with room, it allocates nothing.
func TestFastestOneBlock(t *testing.T) {
	zstdCmd := systool.Look(t, "zstd")
	kp, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1), zstd.WithEncoderCRC(true))
	if err != nil {
		t.Fatal(err)
	}
	text := corpus(t)["src/testdata/Isaac.Newton-Opticks.txt"]
	for _, n := range []int{0, 1, 100, 5000, 64 << 10, 128 << 10} {
		data := text[:n]
		z, err := pooltest.WithinLength(t, "AppendCompressLevel", []byte("prefix"), n+64, func(dst []byte) ([]byte, error) {
			return AppendCompressLevel(dst, data, SpeedFastest)
		})
		if err != nil {
			t.Fatal(err)
		}
		z = z[len("prefix"):]
		var hdr zstd.Header
		if err := hdr.Decode(z); err != nil || !hdr.HasCheckSum {
			t.Errorf("n=%d: header %+v, %v", n, hdr, err)
		}
		if got := oracle(t, z); !bytes.Equal(got, data) {
			t.Fatalf("n=%d: klauspost decodes something else", n)
		}
		cmd := exec.Command(zstdCmd, "-d", "-c", "-q")
		cmd.Stdin = bytes.NewReader(z)
		if out, err := cmd.Output(); err != nil || !bytes.Equal(out, data) {
			t.Fatalf("n=%d: zstd -d: %v", n, err)
		}
		if got, err := AppendDecompress(nil, z, int64(n)); err != nil || !bytes.Equal(got, data) {
			t.Fatalf("n=%d: AppendDecompress: %v", n, err)
		}
		buf := make([]byte, n, 2*n+64)
		copy(buf, data)
		if zz, _ := AppendCompressLevel(buf[:0], buf, SpeedFastest); !bytes.Equal(oracle(t, zz), data) {
			t.Fatalf("n=%d: in place, decodes to something else", n)
		}
		want := len(kp.EncodeAll(data, nil))
		t.Logf("n=%d: %d bytes, klauspost %d", n, len(z), want)
		if len(z) > want+want*3/100+8 {
			t.Errorf("n=%d: %d bytes, klauspost's SpeedFastest %d", n, len(z), want)
		}
	}
	dst := make([]byte, 0, 8<<10)
	data := text[:5000]
	pooltest.WantAllocs(t, 0, func() {
		if _, err := AppendCompressLevel(dst[:0], data, SpeedFastest); err != nil {
			t.Fatal(err)
		}
	})
}
