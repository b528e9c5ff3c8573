package gzpool

import (
	"bytes"
	"compress/gzip"
	"testing"

	"github.com/poolkit/poolkit/internal/pooltest"
)

// Every appender writes only within the length it returns, on success and
// on every error, whatever room dst has to spare: the memory past the
// result may be a neighbouring sub-slice of the caller's buffer.
func TestAppendWritesWithinLength(t *testing.T) {
	plain := bytes.Repeat([]byte("poolkit canary "), 200)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain)
	zw.Close()
	good := gz.Bytes()
	corrupt := append([]byte(nil), good...)
	corrupt[len(corrupt)/2] ^= 0xff
	trailing := append(append([]byte(nil), good...), "junk"...)

	for _, room := range []int{0, 1, 64, len(plain) / 2, 4 * len(plain)} {
		prefix := []byte("prefix:")
		pooltest.WithinLength(t, "AppendCompress", prefix, room, func(dst []byte) ([]byte, error) {
			return AppendCompress(dst, plain)
		})
		for _, c := range []struct {
			name  string
			src   []byte
			limit int64
		}{
			{"good", good, -1},
			{"limit", good, int64(len(plain) / 3)},
			{"corrupt", corrupt, -1},
			{"truncated", good[:len(good)-5], -1},
			{"truncated in the data", good[:len(good)/2], -1},
			{"trailing", trailing, -1},
			{"empty", nil, -1},
		} {
			out, err := pooltest.WithinLength(t, "AppendDecompress "+c.name, prefix, room, func(dst []byte) ([]byte, error) {
				return AppendDecompress(dst, c.src, c.limit)
			})
			if c.name == "good" && (err != nil || !bytes.Equal(out[len(prefix):], plain)) {
				t.Errorf("AppendDecompress good with room %d: %v", room, err)
			}
		}
	}
}
