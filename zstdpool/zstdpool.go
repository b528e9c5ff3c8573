// Package zstdpool compresses and decompresses zstd with pooled encoders
// and decoders, appending to the caller's buffers, with limits checked
// before allocating.
//
// The format is Zstandard, RFC 8878.
//
// It follows gzpool's discipline, over github.com/klauspost/compress/zstd:
//
//   - AppendCompress and AppendDecompress append their result to the
//     caller's dst, as strconv's Append functions do. Once the pools are
//     warm and dst has room they allocate nothing, and dst may overlap the
//     input (in place works). They write nothing past the length they
//     return.
//   - NewWriter and NewReader return streaming handles backed by pooled
//     state; Close returns the state to its pool and drops every reference
//     to the caller's io.Writer or io.Reader, and is safe to call twice.
//
// For HTTP responses in zstd and gzip, see package httpcompress.
//
// # Limits
//
// A few bytes of zstd can declare, or expand to, gigabytes. Before it
// decodes anything, AppendDecompress walks the frames of its input: each
// frame's header declares its window and, usually, its content size, and
// each block's header its size, so the walk bounds the output without
// decoding. A declared content size is trusted only as far as the blocks
// back it: a compressed block decodes to at most 128 KiB, a raw or RLE
// block to its own size, and a frame that declares more than its blocks can
// hold, or less than its raw and RLE blocks, is corrupt. So even with no
// limit, a frame's declared size never makes AppendDecompress allocate more
// than the frame's blocks could fill (up to 128 KiB for each compressed
// block: a few bytes of input each). A frame that declares more content
// than what remains of the limit, or whose raw and RLE blocks (which decode
// to exactly their declared size) add up to more, is refused with ErrLimit
// before any memory is allocated for it; when every frame declares its
// size, the output buffer is grown at most once, to that size. Frames that
// declare no content size (a stream's) are decoded through a history of
// their window, at most MaxWindow (ErrWindow above), and stopped with
// ErrLimit as soon as the output passes the limit: memory then reaches at
// most twice the limit, as the output doubles, plus the window.
//
// A Reader refuses frames whose window is above MaxWindow (8 MiB, the
// ceiling RFC 9659 sets for HTTP, and what the zstd command's levels up to
// 19 use), so what one holds is bounded whatever its input declares.
//
// # What the pools hold
//
// An encoder holds its match tables (256 KiB at SpeedFastest, about 1.3
// MiB at SpeedDefault, more at the higher levels) and, once an input spans
// more than one 128 KiB block, a history of Window plus one block. A
// decoder used by AppendDecompress for frames that declare their size
// holds its block buffers (a few hundred KiB at most); one that streamed
// holds a history of the largest window it met, at most MaxWindow plus
// 256 KiB: the zstd command writes 2 MiB windows at its default level when
// it does not know the input's size, klauspost's encoder 8 MiB. The pools
// are sync.Pools: they drop what they hold at garbage collections. The
// one-block encoder AppendCompressLevel uses at SpeedFastest holds a 64
// KiB match table, about 10 KiB of entropy tables and buffers that grow
// with the largest input met, to about 5 times 128 KiB.
package zstdpool

import (
	"errors"
	"fmt"

	"github.com/klauspost/compress/zstd"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/encpool"
	"github.com/poolkit/poolkit/internal/zstdblock"
)

// Compression levels, as github.com/klauspost/compress/zstd numbers them.
// Each is about as fast as the reference zstd's level in parentheses and
// compresses about as well.
const (
	SpeedFastest           = int(zstd.SpeedFastest)           // (1)
	SpeedDefault           = int(zstd.SpeedDefault)           // (3)
	SpeedBetterCompression = int(zstd.SpeedBetterCompression) // (7)
	SpeedBestCompression   = int(zstd.SpeedBestCompression)   // (11)
	DefaultCompression     = SpeedDefault
)

// Window is the window of the frames AppendCompress and Writer make: how
// far back a match may reach, so what a decoder must hold. AppendCompress
// writes an input of more than 1 KiB and at most Window bytes as a single
// segment, whose window is the input's own size.
const Window = 1 << 20

// MaxWindow is the largest window a Reader, and AppendDecompress for
// frames that do not declare their size, accept: 8 MiB, RFC 9659's
// ceiling for HTTP.
const MaxWindow = 8 << 20

// Errors returned by the decompressing functions. Errors for corrupt or
// truncated input wrap ErrCorrupt or ErrTruncated together with a
// description, so test them with errors.Is.
var (
	// ErrLimit means the decompressed data would exceed the limit given to
	// AppendDecompress: the input may be a decompression bomb.
	ErrLimit = errors.New("zstdpool: decompressed data exceeds the limit")
	// ErrWindow means a frame declares a window above MaxWindow.
	ErrWindow = errors.New("zstdpool: frame window exceeds MaxWindow")
	// ErrEmpty means the input held no bytes at all, so not even a frame
	// header.
	ErrEmpty = errors.New("zstdpool: empty input, not a zstd stream")
	// ErrCorrupt means the input is not valid zstd: a bad magic number,
	// header, block or checksum, a size that does not match, or bytes
	// after the last frame that start no frame.
	ErrCorrupt = errors.New("zstdpool: corrupt zstd data")
	// ErrTruncated means the input ended in the middle of a frame.
	ErrTruncated = errors.New("zstdpool: truncated zstd data")
	// ErrClosed means a Writer or Reader was used after Close.
	ErrClosed = errors.New("zstdpool: use of a closed Writer or Reader")
)

// checkLevel reports an error for levels outside SpeedFastest..SpeedBestCompression.
func checkLevel(level int) error {
	if level < SpeedFastest || level > SpeedBestCompression {
		return fmt.Errorf("zstdpool: invalid compression level %d, want %d (SpeedFastest) to %d (SpeedBestCompression)", level, SpeedFastest, SpeedBestCompression)
	}
	return nil
}

// encoders holds the pools of AppendCompress and Writer, one per level,
// with content checksums, as the zstd command writes.
var encoders = func() (p [SpeedBestCompression + 1]*encpool.ZstdPool) {
	for l := SpeedFastest; l <= SpeedBestCompression; l++ {
		p[l] = encpool.NewZstdPool(encpool.ZstdConfig{Level: zstd.EncoderLevel(l), Window: Window, CRC: true})
	}
	return p
}()

// AppendCompress appends the zstd compression of src, one frame at
// DefaultCompression with a content checksum, to dst and returns the
// extended slice.
//
// The result is the caller's: no pool keeps any part of it. When dst has
// room for the result AppendCompress allocates nothing; otherwise it
// allocates once, as append does, to grow dst. It writes nothing in dst's
// spare capacity past the returned length.
//
// dst may overlap src (AppendCompress(buf[:0], buf) compresses buf in
// place): the result is the same as with separate memory.
func AppendCompress(dst, src []byte) ([]byte, error) {
	return AppendCompressLevel(dst, src, DefaultCompression)
}

// AppendCompressLevel is AppendCompress at the given level, SpeedFastest
// to SpeedBestCompression. On error it returns dst unchanged.
//
// At SpeedFastest, an input of up to 128 KiB is compressed by poolkit's
// own one-block encoder, which spends fewer instructions on inputs of a
// few KiB for about the same bytes; its frames, like klauspost's, end
// with a content checksum.
//
// At every level the frame depends only on src and the level: a pooled
// encoder starts each frame as a new one would, so nothing compressed
// before, for this caller or another, shapes it or can be read from it.
func AppendCompressLevel(dst, src []byte, level int) ([]byte, error) {
	if err := checkLevel(level); err != nil {
		return dst, err
	}
	if level == SpeedFastest && len(src) <= zstdblock.MaxInput {
		// It reads all of src before it writes dst, and writes
		// nothing past the frame.
		return zstdblock.AppendFrameChecksum(dst, src), nil
	}
	// The encoder may write past the end of its output while it tries a
	// block's encodings, so it writes into a pooled scratch buffer, and
	// the result is copied to dst once src has been read in full: dst's
	// spare capacity past the result is never touched, and an overlap of
	// dst and src cannot change the input.
	pl := encoders[level]
	enc := pl.Get()
	scratch := bytebuf.Get()
	scratch.B = enc.E.EncodeAll(src, scratch.B[:0])
	pl.Put(enc)
	dst = append(dst, scratch.B...)
	bytebuf.Put(scratch) // dst holds a copy; scratch.B is not used again
	return dst, nil
}
