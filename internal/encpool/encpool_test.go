package encpool

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// TestNewZstdPoolMakesNoEncoder checks that a pool costs nothing until it
// is used: zstdpool and httpcompress make their pools when a program
// starts, and an encoder holds hundreds of KiB to MiBs of tables.
func TestNewZstdPoolMakesNoEncoder(t *testing.T) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var pools []*ZstdPool
	for l := zstd.SpeedFastest; l <= zstd.SpeedBestCompression; l++ {
		pools = append(pools, NewZstdPool(ZstdConfig{Level: l, Window: 1 << 20, CRC: true}))
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 4<<10 {
		t.Errorf("making %d pools allocated %d bytes", len(pools), grew)
	}
	// The first Get makes a working encoder; Put makes it ready again.
	p := pools[0]
	z := p.Get()
	var out bytes.Buffer
	z.Sink.W = &out
	if _, err := z.E.Write([]byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := z.E.Close(); err != nil {
		t.Fatal(err)
	}
	p.Put(z)
	//poolvet:ignore useafterput the test reads what Put left in the value it gave back; no other goroutine uses the pool
	if z.Sink.W != nil {
		t.Error("Put kept the caller's writer")
	}
	d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	defer d.Close()
	if got, err := d.DecodeAll(out.Bytes(), nil); err != nil || string(got) != "hello" {
		t.Errorf("decoded %q, %v", got, err)
	}
}

// plainWriter has Write only, as many wrapping ResponseWriters do.
type plainWriter struct {
	b     []byte
	limit int // accept at most this many bytes in all, then short-write
}

func (w *plainWriter) Write(p []byte) (int, error) {
	n := min(len(p), w.limit-len(w.b))
	w.b = append(w.b, p[:n]...)
	return n, nil
}

// TestSinkWriteString checks that strings reach every kind of sink whole,
// in chunks through a writer without WriteString, and that a writer
// taking less than offered gives io.ErrShortWrite.
func TestSinkWriteString(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 129, 1000} {
		s := strings.Repeat("Padding-", n/8+1)[:n]
		pw := &plainWriter{limit: 1 << 20}
		var buf bytes.Buffer
		for _, sink := range []*Sink{{W: pw}, {W: &buf}, {}} {
			got, err := sink.WriteString(s)
			if got != n || err != nil {
				t.Errorf("WriteString of %d bytes: %d, %v", n, got, err)
			}
		}
		var appended Sink
		appended.WriteString(s)
		if string(pw.b) != s || buf.String() != s || string(appended.B) != s {
			t.Errorf("%d bytes: a sink received something else", n)
		}
	}
	short := &Sink{W: &plainWriter{limit: 200}}
	if n, err := short.WriteString(strings.Repeat("x", 300)); n != 200 || err != io.ErrShortWrite {
		t.Errorf("short writer: %d, %v; want 200, io.ErrShortWrite", n, err)
	}
}
