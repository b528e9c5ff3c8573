package encpool

import (
	"bytes"
	"runtime"
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
	if z.Sink.W != nil {
		t.Error("Put kept the caller's writer")
	}
	d, _ := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	defer d.Close()
	if got, err := d.DecodeAll(out.Bytes(), nil); err != nil || string(got) != "hello" {
		t.Errorf("decoded %q, %v", got, err)
	}
}
