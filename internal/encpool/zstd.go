package encpool

import (
	"fmt"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/internal/zstdblock"
	"github.com/poolkit/poolkit/pool"
)

// ZstdConfig is what a pool's zstd encoders are made with.
type ZstdConfig struct {
	Level  zstd.EncoderLevel
	Window int  // a power of two, zstd.MinWindowSize to zstd.MaxWindowSize
	CRC    bool // end each frame with a content checksum
}

// ZstdPool is a pool of github.com/klauspost/compress/zstd encoders of one
// configuration. Each encoder runs on its caller's goroutine
// (WithEncoderConcurrency(1): no goroutine of its own) and with
// WithLowerEncoderMem, so its history grows only when a stream needs it.
//
// What one pooled encoder holds, at most: its match tables (256 KiB at
// SpeedFastest, 1.25 MiB at SpeedDefault, more above), a history of
// Window plus one block (the block is min(Window, 128 KiB)) once a stream
// or an input spans more than one block, and, after streaming, the block
// being filled and the last compressed block. Nothing grows past that:
// the pool keeps encoders of a bounded size, and as a sync.Pool it drops
// them at garbage collections.
type ZstdPool struct {
	cfg  ZstdConfig
	pool pool.Pool[*Zstd]
}

// NewZstdPool returns an empty pool of encoders made with cfg. It makes
// no encoder: a program that imports a package holding pools, and never
// compresses, pays nothing for them. The first Get panics if zstd refuses
// cfg, a programming error that every test of the pool's user meets.
func NewZstdPool(cfg ZstdConfig) *ZstdPool { return &ZstdPool{cfg: cfg} }

// Config returns the configuration the pool's encoders are made with.
func (p *ZstdPool) Config() ZstdConfig { return p.cfg }

// Zstd is a pooled encoder with the sink it writes to. It belongs to the
// caller of Get until Put.
type Zstd struct {
	E    *zstd.Encoder
	Sink Sink
}

// Get returns an encoder at the start of a stream to its Sink, which is
// empty. Streaming (E.Write, Flush, Close) and E.EncodeAll both work.
func (p *ZstdPool) Get() *Zstd {
	z := p.pool.Get()
	if z == nil {
		z = new(Zstd)
		e, err := zstd.NewWriter(&z.Sink,
			zstd.WithEncoderLevel(p.cfg.Level),
			zstd.WithEncoderConcurrency(1),
			zstd.WithWindowSize(p.cfg.Window),
			zstd.WithEncoderCRC(p.cfg.CRC),
			zstd.WithLowerEncoderMem(true),
		)
		if err != nil {
			panic(fmt.Sprintf("encpool: zstd refused %+v: %v", p.cfg, err))
		}
		z.E = e
	}
	return z
}

// Put clears z's sink, resets its encoder to a fresh stream, whether or
// not the last one was closed, and returns z to its pool. After Put the
// caller must not use z, nor anything written through it.
func (p *ZstdPool) Put(z *Zstd) {
	z.Sink = Sink{}
	z.E.Reset(&z.Sink)
	p.pool.Put(z)
}

// ZstdStream is a pooled zstdblock.Stream, poolkit's own encoder of a
// zstd stream at about zstd's fastest level, with the sink it writes to.
// It belongs to the caller of GetZstdStream until PutZstdStream.
//
// What one pooled stream holds, at most: one block of input and the
// history its matches reach into (256 KiB), the encoder's 64 KiB match
// table and 10 KiB of entropy tables, and its buffers for one block's
// literals, sequences and output, which grow with the largest block met,
// about 1.5 MiB in all at worst (see zstdblock.Stream).
type ZstdStream struct {
	S    zstdblock.Stream
	Sink Sink
}

// zstdStreams holds pointers, so Get and Put allocate nothing.
var zstdStreams pool.Pool[*ZstdStream]

// GetZstdStream returns a stream at the start of a frame to its Sink,
// which is empty.
func GetZstdStream() *ZstdStream {
	z := zstdStreams.Get()
	if z == nil {
		z = new(ZstdStream)
		z.S.Reset(&z.Sink)
	}
	return z
}

// PutZstdStream clears z's sink, resets its stream to a fresh frame,
// whether or not the last one was closed (input not sent is dropped), and
// returns z to its pool. After PutZstdStream the caller must not use z,
// nor anything written through it.
func PutZstdStream(z *ZstdStream) {
	z.Sink = Sink{}
	z.S.Reset(&z.Sink)
	zstdStreams.Put(z)
}
