package encpool

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"sync"
	"testing"

	kpgzip "github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/zstdblock"
)

// secret is one client's answer, with capital letters and a token that
// other is without.
var (
	secret = func() []byte {
		var b bytes.Buffer
		for i := 0; b.Len() < 150<<10; i++ {
			fmt.Fprintf(&b, `{"id":%d,"user":"u%d","token":"QXZJKVWY"},`, i, i*31%977)
		}
		return b.Bytes()
	}()
	other = func() []byte {
		var b bytes.Buffer
		for i := 0; b.Len() < 200<<10; i++ {
			fmt.Fprintf(&b, `{"id":%d,"name":"item-%d","price":%d.%02d},`, i, i*7919%10007, i*37%1000, i%100)
		}
		return b.Bytes()
	}()
)

// feed writes src to w in pieces of 5000 bytes, flushing after every
// third, and closes it.
func feed(t testing.TB, w interface {
	Write([]byte) (int, error)
	Flush() error
	Close() error
}, src []byte) {
	for i := 0; len(src) > 0; i++ {
		k := min(len(src), 5000)
		if _, err := w.Write(src[:k]); err != nil {
			t.Error(err)
			return
		}
		src = src[k:]
		if i%3 == 2 {
			if err := w.Flush(); err != nil {
				t.Error(err)
				return
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Error(err)
	}
}

// TestPooledEncodersStartFresh streams one client's answer, then
// another's, through each pool (poolkit's zstd stream, klauspost's zstd
// at each level, gzip at each level), concurrently: the second stream
// must be what a new encoder writes, and decode, with another decoder,
// to the answer.
func TestPooledEncodersStartFresh(t *testing.T) {
	type kind struct {
		name   string
		pooled func(src []byte) []byte
		fresh  func(src []byte) []byte
		decode func(z []byte) ([]byte, error)
	}
	zd, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer zd.Close()
	zstdDecode := func(z []byte) ([]byte, error) { return zd.DecodeAll(z, nil) }
	gzipDecode := func(z []byte) ([]byte, error) {
		r, err := gzip.NewReader(bytes.NewReader(z))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(r)
	}
	kinds := []kind{{
		name: "zstdblock.Stream",
		pooled: func(src []byte) []byte {
			var out bytes.Buffer
			z := GetZstdStream()
			z.Sink.W = &out
			feed(t, &z.S, src)
			PutZstdStream(z)
			return out.Bytes()
		},
		fresh: func(src []byte) []byte {
			var out bytes.Buffer
			var s zstdblock.Stream
			s.Reset(&out)
			feed(t, &s, src)
			return out.Bytes()
		},
		decode: zstdDecode,
	}}
	for l := zstd.SpeedFastest; l <= zstd.SpeedBestCompression; l++ {
		cfg := ZstdConfig{Level: l, Window: 256 << 10}
		p := NewZstdPool(cfg)
		kinds = append(kinds, kind{
			name: fmt.Sprintf("klauspost zstd %v", l),
			pooled: func(src []byte) []byte {
				var out bytes.Buffer
				z := p.Get()
				z.Sink.W = &out
				feed(t, z.E, src)
				p.Put(z)
				return out.Bytes()
			},
			fresh: func(src []byte) []byte {
				var out bytes.Buffer
				e, err := zstd.NewWriter(&out, zstd.WithEncoderLevel(l), zstd.WithEncoderConcurrency(1),
					zstd.WithWindowSize(cfg.Window), zstd.WithEncoderCRC(false), zstd.WithLowerEncoderMem(true))
				if err != nil {
					t.Fatal(err)
				}
				feed(t, e, src)
				return out.Bytes()
			},
			decode: zstdDecode,
		})
	}
	for l := GzipMinLevel; l <= GzipMaxLevel; l++ {
		kinds = append(kinds, kind{
			name: fmt.Sprintf("gzip level %d", l),
			pooled: func(src []byte) []byte {
				var out bytes.Buffer
				g := GetGzip(l)
				g.Sink.W = &out
				feed(t, g.W, src)
				PutGzip(g)
				return out.Bytes()
			},
			fresh: func(src []byte) []byte {
				var out bytes.Buffer
				w, err := kpgzip.NewWriterLevel(&out, l)
				if err != nil {
					t.Fatal(err)
				}
				feed(t, w, src)
				return out.Bytes()
			},
			decode: gzipDecode,
		})
	}
	for _, k := range kinds {
		want := k.fresh(other)
		if got, err := k.decode(want); err != nil || !bytes.Equal(got, other) {
			t.Fatalf("%s: a new encoder's stream does not decode: %v", k.name, err)
		}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 3 {
					k.pooled(secret)
					if z := k.pooled(other); !bytes.Equal(z, want) {
						t.Errorf("%s, goroutine %d: after the secret, %d bytes, a new encoder's %d", k.name, g, len(z), len(want))
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}
