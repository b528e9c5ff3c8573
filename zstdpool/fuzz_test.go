package zstdpool

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/systool"
)

// fuzzLimit bounds the output of every decode the fuzz target makes.
const fuzzLimit = 1 << 20

// zstdCommand is the path of Debian's zstd command, or "" when it is not
// installed: the fuzz target then checks against klauspost's decoder alone
// (TestSystemZstd reports the missing tool).
var zstdCommand = sync.OnceValue(func() string {
	path, _ := exec.LookPath("zstd")
	return path
})

// FuzzAppendDecompress checks AppendDecompress and Reader on arbitrary
// input against two independent decoders, klauspost's and the zstd
// command: neither panics; AppendDecompress never writes more than the
// limit and keeps dst's prefix on error; what it reads, both oracles read
// alike; what it refuses as corrupt or truncated, the zstd command
// refuses too; and the Reader reads what AppendDecompress reads.
func FuzzAppendDecompress(f *testing.F) {
	if os.Getenv("POOLKIT_REQUIRE_TOOLS") != "" {
		systool.Look(f, "zstd") // fails when the oracle is missing
	}
	text := []byte("Package zstd implements decompression of zstandard streams, and compression. " +
		"zstd zstd zstd zstd zstd zstd zstd zstd 0123456789 0123456789 0123456789")
	sized, _ := AppendCompress(nil, text)
	var streamed bytes.Buffer
	w := NewWriter(&streamed)
	w.Write(text[:40])
	w.Flush()
	w.Write(text[40:])
	w.Close()
	skip := binary.LittleEndian.AppendUint32(nil, skippableMagic+1)
	skip = binary.LittleEndian.AppendUint32(skip, 3)
	skip = append(skip, "abc"...)
	rle := rleBlock(frameWith(false, 0, 0, 0, false), 5000, 'z', true)
	for _, seed := range [][]byte{
		sized, streamed.Bytes(), append(append(bytes.Clone(skip), sized...), streamed.Bytes()...),
		skip, rle, sized[:len(sized)-3], append(bytes.Clone(sized), 0),
	} {
		f.Add(seed, false)
		f.Add(seed, true)
	}
	f.Fuzz(func(t *testing.T, data []byte, room bool) {
		prefix := []byte("pfx")
		if room {
			prefix = append(make([]byte, 0, 4096), prefix...)
		}
		out, err := AppendDecompress(prefix, data, fuzzLimit)
		if err != nil {
			if string(out) != "pfx" {
				t.Fatalf("error %v, but dst changed to %q", err, out)
			}
			switch {
			case errors.Is(err, ErrLimit), errors.Is(err, ErrWindow):
				// A bomb, or a window too large: the oracles may read
				// it, with more memory than allowed here.
			case errors.Is(err, ErrEmpty), errors.Is(err, ErrCorrupt), errors.Is(err, ErrTruncated):
				if got, cerr, ran := commandDecode(t, data); ran && cerr == nil {
					t.Fatalf("error %v, but the zstd command reads %d bytes", err, len(got))
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
		if len(got) > fuzzLimit {
			t.Fatalf("%d bytes of output, over the limit", len(got))
		}
		want, kerr := klauspostDecode(data)
		if kerr != nil || !bytes.Equal(got, want) {
			t.Fatalf("read %d bytes; klauspost's decoder reads %d, err %v", len(got), len(want), kerr)
		}
		if cmd, cerr, ran := commandDecode(t, data); ran && (cerr != nil || !bytes.Equal(got, cmd)) {
			t.Fatalf("read %d bytes; the zstd command reads %d, err %v", len(got), len(cmd), cerr)
		}
		r, err := NewReader(bytes.NewReader(data))
		if err == nil {
			var streamed []byte
			streamed, err = io.ReadAll(r)
			r.Close()
			if err == nil && !bytes.Equal(streamed, got) {
				t.Fatalf("Reader reads %d bytes, AppendDecompress %d", len(streamed), len(got))
			}
		}
		if err != nil && !errors.Is(err, ErrWindow) && !(errors.Is(err, ErrEmpty) && len(got) == 0) {
			t.Fatalf("AppendDecompress reads %d bytes, but Reader fails: %v", len(got), err)
		}
	})
}

// klauspostDecode is klauspost's decoder's reading of z, within the fuzz
// limit.
func klauspostDecode(z []byte) ([]byte, error) {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(fuzzLimit))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.DecodeAll(z, nil)
}

// commandDecode runs zstd -d on z, with its memory bounded as ours is, and
// reports whether it ran at all.
func commandDecode(t *testing.T, z []byte) ([]byte, error, bool) {
	t.Helper()
	bin := zstdCommand()
	if bin == "" {
		return nil, nil, false
	}
	cmd := exec.Command(bin, "-q", "-d", "-c", "--memory=8MB")
	cmd.Stdin = bytes.NewReader(z)
	var out bytes.Buffer
	cmd.Stdout = &limitedBuffer{b: &out, left: fuzzLimit + 1}
	err := cmd.Run()
	return out.Bytes(), err, true
}

// limitedBuffer keeps at most left bytes and then fails, so that a bomb
// decoded by the command does not fill the test's memory.
type limitedBuffer struct {
	b    *bytes.Buffer
	left int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if len(p) > l.left {
		return 0, errors.New("the zstd command's output passes the fuzz limit")
	}
	l.left -= len(p)
	return l.b.Write(p)
}
