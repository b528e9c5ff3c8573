// Package gzpool compresses and decompresses gzip with pooled writers and
// readers, appending to the caller's buffers.
//
// A hot path pays for gzip's large internal state once rather than on
// every call.
//
// Creating a gzip writer costs hundreds of kilobytes of tables and tens of
// allocations; creating a reader costs a bufio.Reader and an inflater. This
// package keeps both in pools (poolkit's pool.Pool), resets them fully
// before anyone else can use them, and never hands out memory a pool still
// owns:
//
//   - AppendCompress and AppendDecompress append their result to the
//     caller's dst, as strconv's Append functions do. When dst has room they
//     allocate nothing, and dst may overlap the input (in place works).
//   - NewWriter and NewReader return streaming handles backed by pooled
//     state; Close returns the state to its pool and drops every reference
//     to the caller's io.Writer or io.Reader, and is safe to call twice.
//
// To compress HTTP responses, see package httpcompress, which speaks zstd
// as well as gzip. For zstd data, see package zstdpool.
//
// The output is standard gzip (RFC 1952), readable by compress/gzip and the
// gzip command; AppendDecompress and NewReader read any gzip stream,
// including several concatenated members, as gunzip does.
//
// # Choice of backend
//
// The pools hold github.com/klauspost/compress/gzip writers and readers,
// not compress/gzip's. Both were measured pooled the same way, in one
// interleaved run of benchmarks/gzpool (ten rounds, benchstat) on this
// project's shared 2-core AMD EPYC build machine, at each package's
// default level (klauspost 5, compress/gzip 6):
//
//   - Compressing a 169-byte text (compress/gzip's overview): pooled compress/gzip 28.2 µs,
//     pooled klauspost 8.8 µs (3.2x faster), both 0 allocs/op. A new
//     compress/gzip Writer per call took 410 µs, 814 KB and 21 allocs/op;
//     AppendCompress takes 8.7 µs (47x faster) and 0 allocs/op.
//   - Compressing Isaac.Newton-Opticks.txt (567 KB): pooled compress/gzip
//     14.2 MiB/s, pooled klauspost 57.3 MiB/s (4.0x), for 178.3 KiB of
//     output instead of 169.9 KiB (+5%).
//   - Decompressing that text: pooled compress/gzip 124 MiB/s and 93
//     allocs/op (its inflater makes Huffman link tables per dynamic block,
//     even in a pooled Reader); pooled klauspost 175 MiB/s and 0 allocs/op,
//     as it reuses its tables.
//
// 5% more bytes for a quarter of the CPU time and no garbage is the right
// trade for the hot paths this package serves: HTTP responses and RPC
// payloads. Callers who want the smallest output pass BestCompression. The
// output is standard gzip whichever backend writes it.
package gzpool

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/poolkit/poolkit/bytebuf"
	"github.com/poolkit/poolkit/internal/encpool"
	"github.com/poolkit/poolkit/internal/overlap"
)

// Compression levels, as in compress/gzip. Levels 1 to 9 trade speed for
// size; DefaultCompression is the backend's default, klauspost's level 5:
// on English text its output is about 5% larger than compress/gzip's
// default level 6, made in about a quarter of the time (see "Choice of
// backend" above).
const (
	HuffmanOnly        = -2
	DefaultCompression = -1
	NoCompression      = 0
	BestSpeed          = 1
	BestCompression    = 9
)

// Errors returned by the decompressing functions. Errors for corrupt or
// truncated input wrap ErrCorrupt or ErrTruncated together with the
// backend's own description, so test them with errors.Is.
var (
	// ErrLimit means the decompressed data would exceed the limit given to
	// AppendDecompress: the input may be a decompression bomb.
	ErrLimit = errors.New("gzpool: decompressed data exceeds the limit")
	// ErrEmpty means the input held no bytes at all, so not even a gzip
	// header.
	ErrEmpty = errors.New("gzpool: empty input, not a gzip stream")
	// ErrCorrupt means the input is not valid gzip: a bad header, bad
	// deflate data, or a checksum or length that does not match.
	ErrCorrupt = errors.New("gzpool: corrupt gzip data")
	// ErrTruncated means the input ended in the middle of a gzip stream.
	ErrTruncated = errors.New("gzpool: truncated gzip data")
	// ErrClosed means a Writer or Reader was used after Close.
	ErrClosed = errors.New("gzpool: use of a closed Writer or Reader")
)

// maxRatio is deflate's largest expansion, about 1032:1 (a 258-byte match
// coded in under 2 bits). It caps how much AppendDecompress trusts the size
// recorded in a gzip trailer when it grows dst up front.
const maxRatio = 1032

// maxPrealloc caps the up-front growth of dst from the size recorded in a
// gzip trailer, so that a lying trailer cannot make AppendDecompress
// allocate more than this before it has seen the data. Larger outputs grow
// as they are decoded.
const maxPrealloc = 8 << 20

// checkLevel reports an error for levels outside HuffmanOnly..BestCompression.
func checkLevel(level int) error {
	if level < HuffmanOnly || level > BestCompression {
		return fmt.Errorf("gzpool: invalid compression level %d, want %d (HuffmanOnly) to %d (BestCompression)", level, HuffmanOnly, BestCompression)
	}
	return nil
}

// AppendCompress appends the gzip compression of src, at
// DefaultCompression, to dst and returns the extended slice.
//
// The result is the caller's: no pool keeps any part of it. When dst has
// room for the result AppendCompress allocates nothing; otherwise it
// allocates once, to grow dst to the exact size. Spare capacity of
// len(src) + len(src)/2048 + 64 bytes is enough even for incompressible
// data, and lets AppendCompress write into dst directly rather than
// through a pooled scratch buffer.
//
// dst may overlap src (AppendCompress(buf[:0], buf) compresses buf in
// place): the result is the same as with separate memory. When the spare
// capacity of dst overlaps src, AppendCompress compresses through the
// pooled scratch buffer and copies the result over src once it has read
// all of it.
func AppendCompress(dst, src []byte) ([]byte, error) {
	return AppendCompressLevel(dst, src, DefaultCompression)
}

// AppendCompressLevel is AppendCompress at the given level, one of
// HuffmanOnly, DefaultCompression or 0 to 9. On error it returns dst
// unchanged. Like AppendCompress, it gives the right result when dst
// overlaps src.
func AppendCompressLevel(dst, src []byte, level int) ([]byte, error) {
	if err := checkLevel(level); err != nil {
		return dst, err
	}
	st := encpool.GetGzip(level)
	if cap(dst)-len(dst) >= compressBound(len(src)) && !overlap.Spare(dst, src) {
		// Compress straight into dst's spare capacity.
		st.Sink.B = dst
		err := compress(st, src)
		out := st.Sink.B
		encpool.PutGzip(st)
		if err != nil {
			return dst, err
		}
		return out, nil
	}
	// Compress into a pooled scratch buffer, then grow dst once to the
	// exact size rather than many times as the output arrives.
	scratch := bytebuf.Get()
	st.Sink.Buf = scratch
	err := compress(st, src)
	encpool.PutGzip(st)
	if err == nil {
		dst = append(dst, scratch.B...)
	}
	bytebuf.Put(scratch) // dst holds a copy; scratch.B is not used again
	return dst, err
}

// compress writes the whole gzip stream of src to st's sink.
func compress(st *encpool.Gzip, src []byte) error {
	if _, err := st.W.Write(src); err != nil {
		return err
	}
	return st.W.Close()
}

// compressBound is an upper bound of the gzip size of n bytes: deflate
// falls back to stored blocks of at most 64 KiB, 5 bytes of overhead each,
// when data does not compress; gzip adds a 10-byte header and an 8-byte
// trailer. The slack covers the final empty block of a flush.
func compressBound(n int) int {
	return n + 5*(n/16384+1) + 10 + 8 + 32
}

// AppendDecompress appends the decompression of the gzip data src to dst
// and returns the extended slice. Concatenated gzip members are all read,
// as gunzip does; bytes after the last member that do not start another
// member are an error, as in compress/gzip.
//
// A negative limit means no limit. Otherwise, when the decompressed data
// would be longer than limit bytes, AppendDecompress stops and returns
// ErrLimit, having written at most limit+1 bytes past len(dst). Use a
// limit whenever src comes from outside: a few kilobytes of gzip can
// expand to gigabytes.
//
// On error AppendDecompress returns ErrEmpty, ErrLimit, or an error
// wrapping ErrCorrupt or ErrTruncated, and dst extended by the bytes it
// had decompressed before the error (none for ErrEmpty), which the caller
// drops by keeping out[:len(dst)]. It returns them, rather than dst as
// given, because they were written into dst's spare capacity: an
// Append-style function writes nothing past the length it returns, where
// the memory may be a neighbouring part of the caller's buffer. The result
// is the caller's: no pool keeps any part of it. When dst has room for the
// output it allocates nothing.
//
// dst may overlap src (AppendDecompress(buf[:0], buf, limit) decompresses
// buf in place): the result is the same as with separate memory. When the
// spare capacity of dst overlaps src, AppendDecompress first copies src to
// a pooled scratch buffer and reads from the copy; the bytes of src in
// dst's spare capacity are overwritten then, also on error, as an append
// overwrites spare capacity.
func AppendDecompress(dst, src []byte, limit int64) ([]byte, error) {
	if len(src) == 0 {
		return dst, ErrEmpty
	}
	var scratch *bytebuf.Buffer
	if overlap.Spare(dst, src) {
		scratch = bytebuf.Get()
		scratch.B = append(scratch.B, src...)
		src = scratch.B
	}
	st := getReader()
	st.src.Reset(src)
	out, err := st.appendAll(dst, src, limit)
	st.src.Reset(nil) // drop the reference to src
	putReader(st)
	if scratch != nil {
		bytebuf.Put(scratch) // read to the end: no reference remains
	}
	return out, err
}

// appendAll decompresses st.src, a reader over src, onto dst.
func (st *readerState) appendAll(dst, src []byte, limit int64) ([]byte, error) {
	if err := st.nextMember(&st.src); err != nil {
		return dst, classify(err, false, true)
	}
	if limit < 0 || limit > math.MaxInt64-1 {
		limit = math.MaxInt64 - 1
	}
	base := len(dst)
	// The trailer of the last member records its size modulo 2^32: grow
	// dst to it up front, within reason, when dst has less room.
	if len(src) >= 18 {
		hint := int64(binary.LittleEndian.Uint32(src[len(src)-4:]))
		hint = min(hint, limit, int64(len(src))*maxRatio, maxPrealloc)
		if int64(cap(dst)-len(dst)) < hint {
			dst = slices.Grow(dst, int(hint))
		}
	}
	for {
		var n int
		var err error
		if len(dst) == cap(dst) {
			// Probe with one byte before growing: the output may
			// have filled dst exactly.
			n, err = st.zr.Read(st.probe[:])
			if n > 0 {
				if int64(len(dst)-base) >= limit {
					return dst, ErrLimit
				}
				grow := max(cap(dst)-base, 512)
				grow = int(min(int64(grow), limit-int64(len(dst)-base)))
				dst = slices.Grow(dst, grow)
				dst = append(dst, st.probe[0])
			}
		} else {
			room := dst[len(dst):cap(dst)]
			// Read at most one byte past the limit, to detect that
			// the output exceeds it.
			if left := limit + 1 - int64(len(dst)-base); int64(len(room)) > left {
				room = room[:left]
			}
			n, err = st.zr.Read(room)
			dst = dst[:len(dst)+n]
			if int64(len(dst)-base) > limit {
				return dst, ErrLimit
			}
		}
		if err == io.EOF {
			// The end of a member: the end of the data, or another
			// member. The inflater reads a bytes.Reader byte by byte,
			// never past the member's trailer, so Len tells which.
			if st.src.Len() == 0 {
				return dst, nil
			}
			err = st.nextMember(&st.src)
		}
		if err != nil {
			return dst, classify(err, false, true)
		}
	}
}

// nextMember starts decoding the gzip member that r starts with, whose
// first byte is known to exist, so that io.EOF while reading its header
// means a truncated header.
//
// The members are walked here, with the backend's multistream mode off,
// rather than by the backend: klauspost's reader reports a header cut off
// inside its file name or comment as a bare io.EOF, which its multistream
// loop takes for a clean end of the data, so a truncated stream would
// read as complete (found by FuzzAppendDecompress).
func (st *readerState) nextMember(r byteReader) error {
	err := st.zr.Reset(r)
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	st.zr.Multistream(false)
	return err
}

// classify turns a backend error into one of the package's errors.
// atStart tells whether no byte of the stream has been read yet; ownSource
// tells whether the data came from a reader of the package's own (then any
// error is the data's fault), not from the caller's io.Reader, whose own
// errors are passed through unchanged.
func classify(err error, atStart, ownSource bool) error {
	switch {
	case err == io.EOF && atStart:
		return ErrEmpty
	case err == io.EOF, err == io.ErrUnexpectedEOF:
		return fmt.Errorf("%w: %w", ErrTruncated, io.ErrUnexpectedEOF)
	case ownSource || isFormatError(err):
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return err
}
