package httpcompress

import (
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/encpool"
	"github.com/poolkit/poolkit/zstdpool"
)

// ZstdWindow is the largest window of Handler's zstd responses: how far
// back a match may reach, and so what a client must hold to decode. RFC
// 9659 asks HTTP senders to stay at or below 8 MiB; 256 KiB is far below.
// It is the window of streamed responses. Bodies that fit in one block
// (128 KiB) are compressed as one single-segment frame whose window is
// the body's size.
const ZstdWindow = 256 << 10

// zstdPools holds Handler's zstd encoders, one pool per level, made when a
// Handler first asks for the level. Unlike zstdpool's, these write no
// content checksum: HTTP runs over TCP and usually TLS, whose own checks
// catch corruption, and a truncated body is still caught by zstd's last
// block flag; dropping the checksum saves 4 bytes and a hash of the body
// per response.
var zstdPools struct {
	sync.Mutex
	byLevel [zstdpool.SpeedBestCompression + 1]*encpool.ZstdPool
}

// zstdPool returns the pool of encoders at level, which the caller has
// checked.
func zstdPool(level int) *encpool.ZstdPool {
	zstdPools.Lock()
	defer zstdPools.Unlock()
	p := zstdPools.byLevel[level]
	if p == nil {
		p = encpool.NewZstdPool(encpool.ZstdConfig{
			Level:  zstd.EncoderLevel(level),
			Window: ZstdWindow,
			CRC:    false,
		})
		zstdPools.byLevel[level] = p
	}
	return p
}
